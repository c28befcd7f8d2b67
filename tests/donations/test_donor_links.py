"""Issue 47, item 6: a donor's links (the thank-you page's ?gift= token, the manage page
and its receipts) expire, send no Referer, and never reach a log. A token copied from a
log had opened a receipt PDF, forever."""

import json
import subprocess
import sys
import time
from unittest import mock

import pytest
from django.core import signing as django_signing

from donations.signing import manage_token
from tests.core.test_site_basics import ROOT, _production
from tests.donations.factories import GiftFactory

pytestmark = pytest.mark.django_db
DAY = 86400


def token_made_days_ago(reference, days):
    with mock.patch.object(django_signing.time, "time", return_value=time.time() - days * DAY):
        return manage_token(reference)


def donor_pages(token, gift):
    return [
        f"/donate/manage/{token}/",
        f"/donate/manage/{token}/receipt/{gift.pk}/",
        f"/donate/thanks/?gift={token}",
    ]


def test_a_donor_link_works_until_it_expires(client, settings):
    settings.DONATION_LINK_MAX_AGE_DAYS = 45
    gift = GiftFactory()
    fresh = token_made_days_ago(gift.donation.reference, 44)
    manage, receipt, thanks = donor_pages(fresh, gift)
    assert client.get(manage).status_code == 200
    assert client.get(receipt)["Content-Type"] == "application/pdf"
    assert f"/donate/manage/{fresh}/".encode() in client.get(thanks).content

    expired = token_made_days_ago(gift.donation.reference, 46)
    manage, receipt, thanks = donor_pages(expired, gift)
    assert client.get(manage).status_code == 404
    assert client.get(receipt).status_code == 404
    assert expired.encode() not in client.get(thanks).content  # no manage link offered


def test_donor_pages_send_no_referer(client):
    gift = GiftFactory()
    valid = manage_token(gift.donation.reference)
    expired = token_made_days_ago(gift.donation.reference, 400)
    for path in [*donor_pages(valid, gift), *donor_pages(expired, gift)]:
        response = client.get(path)
        assert response["Referrer-Policy"] == "same-origin", (path, response.status_code)


def test_donor_links_never_reach_the_logs():
    """In the production profile, as the log handlers write them (core.logredact)."""
    secret = "ImFiYyI:1v5Xyz:s3cr3tSignature"
    code = (
        "import os, django, logging; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings');"
        "django.setup(); log = logging.getLogger('django.request');"
        f"log.warning('Not Found: %s', '/donate/manage/{secret}/');"
        f"log.warning('Not Found: /donate/manage/{secret}/receipt/4/');"
        f"log.warning('GET %s', '/donate/thanks/?gift={secret}&from=stripe');"
        f"log.warning('GET %s', '/accounts/login/?next=%2Fdonate%2Fthanks%2F%3Fgift%3D{secret}')"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=_production(),
                            capture_output=True, text=True, timeout=60)  # fmt: skip
    messages = [json.loads(line)["message"] for line in result.stdout.splitlines()]
    assert messages == [
        "Not Found: /donate/manage/[redacted]/",
        "Not Found: /donate/manage/[redacted]/receipt/4/",
        "GET /donate/thanks/?gift=[redacted]&from=stripe",
        "GET /accounts/login/?next=%2Fdonate%2Fthanks%2F%3Fgift%3D[redacted]",
    ], result.stderr
