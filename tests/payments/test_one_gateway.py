"""Issue 59: Stripe is called from one module. Apps say what they need in their own terms
(``sponsors.stripe_gateway``, ``donations.stripe_gateway``) and ``payments.gateway`` makes
every request; subscriptions end through one outbox kind."""

import re

from outbox import registry
from payments import gateway
from tests.project import ROOT, tracked_files

CALLS_STRIPE = re.compile(
    r"\bclient\(\)\.v1\b|\bimport stripe\b|from payments\.gateway import [^\n]*\bclient\b"
)


def test_only_the_payments_gateway_calls_stripe():
    calling = [
        str(path.relative_to(ROOT))
        for path in tracked_files("*.py")
        if path.relative_to(ROOT).parts[0] not in {"tests", "bench", "deploy"}
        and CALLS_STRIPE.search(path.read_text())
    ]
    assert calling == ["payments/gateway.py"]


def test_one_outbox_kind_ends_a_subscription():
    cancelling = [kind for kind in registry._registry if kind.endswith("cancel_subscription")]
    assert cancelling == [gateway.CANCEL_SUBSCRIPTION]
    assert registry.side_effect(gateway.CANCEL_SUBSCRIPTION).function is gateway.cancel_subscription
