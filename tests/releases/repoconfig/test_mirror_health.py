"""Mirrors that failed the last health check are never the generator's default, are
marked in its options, and are refused by the API with the usable ones named."""

import pytest
from django.utils import timezone
from pytest_django.asserts import assertContains

from releases.repoconfig.models import Mirror

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seeded_for_module")]
API = "/api/repo-config"
QUERY = {"distro": "debian", "release": "bookworm", "version": "11.8"}


def mark(mirror_id, **health):
    mirror = Mirror.objects.get(mirror_id=mirror_id)
    for field, value in health.items():
        setattr(mirror, field, value)
    mirror.checked_at = timezone.now()
    mirror.save()


@pytest.fixture
def dal_down():
    """Dalhousie (CA) sorts first among the demo mirrors; it stops answering."""
    mark("dal", healthy=False, fresh=None, check_error="timed out")


def test_the_api_refuses_a_mirror_that_went_down_and_names_the_usable_ones(client):
    assert client.get(API, {**QUERY, "mirror": "dal"}).status_code == 200
    mark("dal", healthy=False, fresh=None)
    mark("tuna", healthy=True, fresh=False, hours_late=72)

    response = client.get(API, {**QUERY, "mirror": "dal"})

    assert response.status_code == 400
    reason = response.content.decode()
    assert reason == (
        "mirror dal is not answering at the last check; choose one of "
        "insacom, agdsn, hs-esslingen, bouwhuis, nus, gigenet, osuosl\n"
    )
    behind = client.get(API, {**QUERY, "mirror": "tuna"})
    assert behind.status_code == 400
    assert behind.content.decode().startswith("mirror tuna is out of date at the last check;")
    assert client.get(API, {**QUERY, "mirror": "agdsn"}).status_code == 200


def test_with_no_usable_mirror_the_api_says_to_try_again_later(client):
    Mirror.objects.update(healthy=False, checked_at=timezone.now())
    response = client.get(API, {**QUERY, "mirror": "osuosl"})
    assert response.status_code == 400
    assert response.content.decode() == (
        "mirror osuosl is not answering at the last check and no other is usable: try again later\n"
    )


def test_a_refusal_asks_the_database_a_bounded_number_of_questions(
    client, dal_down, django_assert_max_num_queries
):
    Mirror.objects.exclude(mirror_id="dal").update(healthy=True)
    with django_assert_max_num_queries(5):
        response = client.get(API, {**QUERY, "mirror": "dal"})
    assert response.status_code == 400


def test_options_list_usable_mirrors_first_and_flag_the_others(client, dal_down):
    mirrors = client.get(API + "/options").json()["mirrors"]
    assert mirrors[0] == {
        "id": "insacom",
        "name": "Insacom",
        "country": "CL",
        "usable": True,
        "problem": "",
    }
    assert mirrors[-1] == {
        "id": "dal",
        "name": "Dalhousie University",
        "country": "CA",
        "usable": False,
        "problem": "not answering at the last check",
    }
    assert [m["usable"] for m in mirrors].count(False) == 1


def test_the_generator_preselects_a_usable_mirror_and_marks_the_down_one(client, dal_down):
    response = client.get("/download/repo-config/")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.index('value="insacom"') < html.index('value="dal"')
    assertContains(response, '<option value="insacom" selected>Insacom (CL)</option>', html=True)
    assertContains(
        response,
        '<option value="dal">Dalhousie University (CA): not answering at the last check</option>',
        html=True,
    )


def test_the_generator_explains_a_shared_link_to_a_down_mirror(client, dal_down):
    response = client.get("/download/repo-config/", {**QUERY, "mirror": "dal"})
    assert response.status_code == 400
    assertContains(
        response,
        '<div class="notice notice-danger" role="alert"><strong>Not available:</strong> mirror dal'
        " is not answering at the last check; choose one of insacom, tuna, agdsn, hs-esslingen,"
        " bouwhuis, nus, gigenet, osuosl.</div>",
        html=True,
        status_code=400,
    )
