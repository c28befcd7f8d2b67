from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render

from core.uploads import declared_body_size
from sponsors.benefits import services
from sponsors.benefits.forms import AssetForm
from sponsors.benefits.models import Delivery
from sponsors.models import Sponsorship


def _too_large(request) -> bool:
    """Judged by the declared length, before a byte of the body is read."""
    return declared_body_size(request) > settings.BENEFIT_UPLOAD_MAX_BYTES


@login_required
def sponsorship_benefits(request, pk):
    sponsorship = get_object_or_404(
        Sponsorship.objects.filter(organisation__managers=request.user).select_related(
            "organisation", "tier"
        ),
        pk=pk,
    )
    services.ensure_deliveries([sponsorship])
    status = 200
    errors = {}
    if request.method == "POST":
        if _too_large(request):
            limit = settings.BENEFIT_UPLOAD_MAX_BYTES // 1024
            messages.error(request, f"The upload is too large; the limit is {limit} KiB.")
            return redirect("benefits:sponsorship", pk=sponsorship.pk)
        form = AssetForm(request.POST, request.FILES)
        if form.is_valid():
            delivery = get_object_or_404(
                Delivery.objects.select_related("benefit"),
                sponsorship=sponsorship,
                pk=form.cleaned_data["delivery"],
            )
            try:
                services.submit(
                    delivery,
                    upload=form.cleaned_data["logo"],
                    text=form.cleaned_data["text"],
                    url=form.cleaned_data["url"],
                )
            except ValidationError as error:
                errors[delivery.pk] = error.messages
                status = 400
            else:
                messages.success(
                    request, f"Thank you: {delivery.benefit.name} is with our staff now."
                )
                return redirect("benefits:sponsorship", pk=sponsorship.pk)
        else:
            status = 400
            errors[None] = [m for field in form.errors.values() for m in field]  # type: ignore[misc]  # ErrorList yields its messages
    deliveries = sponsorship.benefit_deliveries.select_related("benefit")
    items = [
        (delivery, AssetForm.field_for(delivery.benefit), errors.get(delivery.pk, []))
        for delivery in deliveries
    ]
    context = {"sponsorship": sponsorship, "items": items, "form_errors": errors.get(None, [])}
    return render(request, "benefits/sponsorship.html", context, status=status)
