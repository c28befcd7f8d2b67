from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from core.uploads import declared_body_size
from payments import webhooks

# Stripe's events are a few kilobytes; the limit is checked before the body is read.
WEBHOOK_MAX_BYTES = 1024 * 1024


@csrf_exempt
@require_POST
def stripe_webhook(request: HttpRequest) -> HttpResponse:
    if declared_body_size(request) > WEBHOOK_MAX_BYTES:
        return HttpResponse("event too large\n", status=413, content_type="text/plain")
    try:
        outcome = webhooks.receive(request.body, request.META.get("HTTP_STRIPE_SIGNATURE", ""))
    except webhooks.Refused as refusal:
        return HttpResponseBadRequest(f"{refusal}\n", content_type="text/plain")
    return HttpResponse(f"{outcome}\n", content_type="text/plain")
