"""Honest supporter marks: a logo or the name as a wordmark, a link only to a real
website, never a dashed placeholder (issue #18)."""

import pytest
from django.core.files.base import ContentFile
from pytest_django.asserts import assertContains, assertInHTML, assertNotContains

from sponsors import demo
from sponsors.models import Organisation
from sponsors.supporters_cache import invalidate_supporters_page
from tests.donations.factories import DonationFactory, GiftFactory
from tests.sponsors.factories import (
    ActiveSponsorshipFactory,
    OrganisationFactory,
    ProgrammeFactory,
    TierFactory,
)

pytestmark = pytest.mark.django_db

PAGES = ["/supporters/", "/"]


def _sponsor(**organisation):
    sponsorship = ActiveSponsorshipFactory(organisation=OrganisationFactory(**organisation))
    invalidate_supporters_page()
    return sponsorship.organisation


@pytest.mark.parametrize("url", PAGES)
def test_no_logo_and_no_website_is_a_plain_wordmark(client, url):
    _sponsor(name="Acme Databases", website="")
    response = client.get(url)
    assertContains(response, '<span class="wordmark">Acme Databases</span>', html=True)
    assertNotContains(
        response,
        '<a href="" rel="noopener"><span class="wordmark">Acme Databases</span></a>',
        html=True,
    )
    assertNotContains(response, "logo-text")


@pytest.mark.parametrize("url", PAGES)
def test_an_example_address_is_not_a_website(client, url):
    _sponsor(name="Acme Databases", website="https://www.example.com/acme")
    response = client.get(url)
    assertNotContains(response, "example.com")
    assertContains(response, '<span class="wordmark">Acme Databases</span>', html=True)


@pytest.mark.parametrize("url", PAGES)
def test_a_real_website_links_the_wordmark(client, url):
    _sponsor(name="Acme Databases", website="https://acme.test/")
    assertContains(
        client.get(url),
        '<a href="https://acme.test/" rel="noopener"><span class="wordmark">Acme Databases</span></a>',
        html=True,
    )


def test_a_logo_is_shown_as_an_image_with_the_name_as_its_text(client, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    organisation = _sponsor(name="Acme Databases", website="https://acme.test/")
    organisation.logo.save("acme.svg", ContentFile(b"<svg xmlns='http://www.w3.org/2000/svg'/>"))
    invalidate_supporters_page()
    response = client.get("/supporters/")
    assertContains(
        response,
        f'<a href="https://acme.test/" rel="noopener"><img src="{organisation.logo.url}" alt="Acme Databases" height="90"></a>',
        html=True,
    )


def test_the_demo_links_each_sponsor_to_its_site_and_invents_no_logo(client):
    demo.load(lambda message: None)
    assert Organisation.objects.count() == 8
    for organisation in Organisation.objects.all():
        assert not organisation.logo
        assert organisation.public_website.startswith("https://")
    page = client.get("/supporters/")
    assertContains(
        page,
        '<a href="https://www.ibm.com/" rel="noopener"><span class="wordmark">IBM</span></a>',
        html=True,
    )
    assertContains(page, '<a href="https://mariadb.com/" rel="noopener">', count=1)


def test_the_home_page_sizes_each_mark_by_its_tier_highest_first(client):
    programme = ProgrammeFactory(kind="sponsor")
    gold = ActiveSponsorshipFactory(
        organisation=OrganisationFactory(name="Gold Co", website=""),
        tier=TierFactory(programme=programme, name="Gold", logo_height=90, order=1),
    )
    ActiveSponsorshipFactory(
        organisation=OrganisationFactory(name="Platinum Co", website=""),
        tier=TierFactory(programme=programme, name="Platinum", logo_height=120, order=0),
    )
    assert gold.terms["logo_height"] == 90
    invalidate_supporters_page()
    page = client.get("/").content.decode()
    assertInHTML(
        '<ul class="logo-strip">'
        '<li data-logo-height="60"><span class="wordmark">Platinum Co</span></li>'
        '<li data-logo-height="45"><span class="wordmark">Gold Co</span></li>'
        "</ul>",
        page,
    )


def test_the_supporters_page_thanks_donors_who_asked_and_only_them(client):
    _sponsor(name="Acme Databases")
    GiftFactory(donation__public_name="Grace H.", donation__show_on_wall=True)
    GiftFactory(donation__public_name="Quiet Q.", donation__show_on_wall=False)
    DonationFactory(public_name="Never Paid", show_on_wall=True)  # no gift arrived
    response = client.get("/supporters/")
    assertContains(response, "<li>Grace H.</li>", html=True)
    assertNotContains(response, "Quiet Q.")
    assertNotContains(response, "Never Paid")
    assertNotContains(response, "25.00")
