"""Series.version is checked by the series rule wherever a model form saves it."""

import pytest
from django.core.exceptions import ValidationError

from releases.models import Series

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("version", ["10.11", "11.rolling", "12.rc"])
def test_series_versions_are_accepted(version):
    Series(version=version).full_clean()


@pytest.mark.parametrize("version", ["11", "11.4.2", "eleven", "11.x", "11.4\x00"])
def test_other_series_versions_are_refused(version):
    with pytest.raises(ValidationError) as error:
        Series(version=version).full_clean()
    assert "is not a series like 10.11, 11.rolling or 12.rc" in str(error.value)


def test_staff_cannot_save_a_malformed_series_in_the_admin(admin_client):
    response = admin_client.post(
        "/admin/releases/series/add/",
        {"version": "11.x", "status": "stable", "support_type": "short-term"},
    )
    assert response.status_code == 200  # the form again, with the error
    assert "is not a series like 10.11, 11.rolling or 12.rc" in response.content.decode()
    assert not Series.objects.exists()
