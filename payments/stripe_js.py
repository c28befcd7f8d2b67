"""Stripe.js on the pay pages: where it is loaded from, and the Content-Security-Policy
sources it needs there (and nowhere else on the site).

The card is typed into Stripe.js's card element and goes from the browser to Stripe
only; the site's own requests carry Stripe's ids and client secrets, never a card.
``settings.STRIPE_JS_URL`` is Stripe's address in production (``check --deploy``
refuses another, payments/checks.py) and the fake's copy under `make run` and in the
browser tests.
"""

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpResponse, JsonResponse

from payments.gateway import Attempt

STRIPE_JS_URL = "https://js.stripe.com/v3/"

# The sources Stripe documents for Stripe.js with the card element and 3-D Secure
# ("Content Security Policy" in Stripe's security guide): the script and its frames
# from js.stripe.com (and its subdomains), the 3-D Secure frames from hooks.stripe.com,
# and its API calls to api.stripe.com.
STRIPE_SOURCES = {
    "script-src": ["https://js.stripe.com", "https://*.js.stripe.com"],
    "frame-src": ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"],
    "connect-src": ["https://api.stripe.com"],
}


def is_stripes() -> bool:
    return settings.STRIPE_JS_URL == STRIPE_JS_URL


def csp_sources() -> dict[str, list[str]]:
    """What a pay page adds to the site's policy: Stripe's documented sources, or the
    fake's one origin, which serves its script, takes its API calls and draws its
    3-D Secure prompt in the page itself."""
    if is_stripes():
        return STRIPE_SOURCES
    parts = urlsplit(settings.STRIPE_JS_URL)
    origin = f"{parts.scheme}://{parts.netloc}"
    return {"script-src": [origin], "connect-src": [origin]}


def allow(response: HttpResponse) -> HttpResponse:
    """Let the page's response load and run Stripe.js (django-csp's per-response update)."""
    response._csp_update = csp_sources()  # type: ignore[attr-defined]  # django-csp reads it
    return response


def page_context() -> dict[str, object]:
    return {
        "stripe_js_url": settings.STRIPE_JS_URL,
        "stripe_publishable_key": settings.STRIPE_PUBLISHABLE_KEY,
        # Stripe's test cards work with a test key (make run, a test deployment).
        "stripe_test_cards": settings.STRIPE_TEST_MODE,
    }


# The answers to the page's script (static/js/card-payment.js).


def go_to(next_url: str) -> JsonResponse:
    return JsonResponse({"next": next_url})


def refuse(message: str, status: int = 400, **extra: Any) -> JsonResponse:
    return JsonResponse({"error": message, **extra}, status=status)


def answer(attempt: Attempt, next_url: str) -> JsonResponse:
    """Paid or processing: the next page; 3-D Secure: the secret the browser answers it
    with; failed: Stripe's reason, and that nothing was taken."""
    if attempt.done:
        return JsonResponse({"status": attempt.status, "next": next_url})
    if attempt.status == "requires_action":
        return JsonResponse({"status": attempt.status, "client_secret": attempt.client_secret})
    reason = attempt.message.rstrip(".") or "The payment was not completed"
    return refuse(f"{reason}. Nothing was taken.", status=402, status_text="failed")
