"""Issue 39: uploads in an S3-compatible object store (moto's server mode here): public
files served from the public bucket's address, private ones only through the site's
views, and `move_files` between disk and store, checked and safe to repeat."""

import io
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from PIL import Image

from benchmarks.models import Attachment, Run
from core.checks import check_object_storage_buckets
from core.storage import PrivateStorage
from sponsors.services.organisations import store_logo
from tests.benchmarks.factories import RunFactory, SuiteFactory
from tests.foundation.factories import UserFactory
from tests.objectstore import client, object_storages, start_moto_server
from tests.sponsors.factories import OrganisationFactory

pytestmark = pytest.mark.django_db
RAW = b"sysbench 1.0.20\nqueries performed: 1234\n"


@pytest.fixture(scope="module")
def endpoint():
    process, url = start_moto_server()
    yield url
    process.terminate()
    process.wait(10)


@pytest.fixture
def buckets(settings, endpoint):
    """Buckets of their own, named in FILE_STORAGES (as the OBJECT_STORAGE_* settings do)."""
    settings.FILE_STORAGES, names = object_storages(settings.FILE_STORAGES, endpoint)
    settings.OBJECT_STORAGE_PUBLIC_BUCKET = names["public"]
    settings.OBJECT_STORAGE_PRIVATE_BUCKET = names["private"]
    return names


@pytest.fixture
def in_the_store(settings, buckets):
    """The site running with FILE_STORAGE=object."""
    settings.STORAGES = {**settings.FILE_STORAGES["object"],
                         "staticfiles": settings.STORAGES["staticfiles"]}  # fmt: skip
    return buckets


def keys(endpoint, bucket):
    listing = client(endpoint).list_objects_v2(Bucket=bucket)
    return sorted(item["Key"] for item in listing.get("Contents", []))


def body(endpoint, bucket, key):
    return client(endpoint).get_object(Bucket=bucket, Key=key)["Body"].read()


def png(width=360, height=120):
    image = io.BytesIO()
    Image.new("RGB", (width, height), (0, 53, 69)).save(image, format="PNG")
    return image.getvalue()


def test_a_logo_goes_to_the_public_bucket_and_is_served_from_its_address(
    endpoint, in_the_store, settings
):
    organisation = OrganisationFactory()
    store_logo(organisation, SimpleUploadedFile("acme.png", png(), "image/png"))
    organisation.refresh_from_db()

    url = organisation.logo.url
    assert url.startswith(f"{endpoint}/{in_the_store['public']}/sponsors/logos/")
    assert "Signature" not in url  # a plain public address, no expiring signature
    with urllib.request.urlopen(url, timeout=10) as answer:
        served = answer.read()
        assert answer.headers["Cache-Control"] == settings.OBJECT_STORAGE_PUBLIC_CACHE_CONTROL
        assert answer.headers["Content-Type"] == "image/png"
    assert Image.open(io.BytesIO(served)).size == (360, 120)
    assert keys(endpoint, in_the_store["public"]) == sorted(
        [organisation.logo.name, organisation.logo_thumbnail.name]
    )
    assert not any(Path(settings.MEDIA_ROOT).rglob("*"))  # nothing on this host's disk


def test_a_drafts_raw_file_stays_private_and_opens_only_through_the_view(
    client, endpoint, in_the_store, django_user_model
):
    suite = SuiteFactory(slug="stored", is_published=True)
    uploader = UserFactory()
    draft = RunFactory(suite=suite, status=Run.Status.DRAFT, uploaded_by=uploader)
    attachment = Attachment.objects.create(
        suite=suite, run=draft, file=ContentFile(RAW, name="sysbench.txt")
    )
    assert keys(endpoint, in_the_store["private"]) == [attachment.file.name]
    assert keys(endpoint, in_the_store["public"]) == []
    with pytest.raises(ValueError, match="no address"):
        attachment.file.url  # noqa: B018 (reading it is the test)
    # The bucket itself answers nobody without the site's keys.
    anonymous = f"{endpoint}/{in_the_store['private']}/{attachment.file.name}"
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(anonymous, timeout=10)
    assert refused.value.code == 403

    address = f"/benchmarks/stored/files/{attachment.pk}/"
    assert client.get(address).status_code == 404  # a stranger
    client.force_login(UserFactory())
    assert client.get(address).status_code == 404  # another member
    reviewer = UserFactory(is_staff=True)
    reviewer.user_permissions.add(Permission.objects.get(codename="view_run"))
    for reader in (reviewer, uploader):
        client.force_login(reader)
        answer = client.get(address)
        assert answer.status_code == 200
        assert b"".join(answer.streaming_content) == RAW  # streamed by the site, no redirect
        assert "no-store" in answer["Cache-Control"] and "private" in answer["Cache-Control"]


def store_on_disk(settings):
    public, private = FileSystemStorage(), PrivateStorage()
    public.save("sponsors/logos/acme.png", ContentFile(png()))
    public.save("people/ada.png", ContentFile(png(40, 40)))
    private.save("benchmarks/raw/2026/abc/sysbench.txt", ContentFile(RAW))
    return {
        "public": {"people/ada.png": png(40, 40), "sponsors/logos/acme.png": png()},
        "private": {"benchmarks/raw/2026/abc/sysbench.txt": RAW},
    }


def test_move_files_to_the_store_and_back_checks_every_copy_and_can_run_again(
    endpoint, buckets, settings, tmp_path
):
    files = store_on_disk(settings)
    # A stale copy in the store under one of the names: replaced, not kept, not duplicated.
    client(endpoint).put_object(Bucket=buckets["public"], Key="people/ada.png", Body=b"old")

    out = io.StringIO()
    call_command("move_files", "--to", "object", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[:3] == [
        "[public 1/2] people/ada.png: replaced",
        "[public 2/2] sponsors/logos/acme.png: copied",
        "[private 1/1] benchmarks/raw/2026/abc/sysbench.txt: copied",
    ]
    assert "public files to object: 1 copied, 1 replaced, 0 already there" in lines[3]
    for kind, expected in files.items():
        assert keys(endpoint, buckets[kind]) == sorted(expected)
        for name, data in expected.items():
            assert body(endpoint, buckets[kind], name) == data

    again = io.StringIO()
    call_command("move_files", "--to", "object", stdout=again)
    assert "public files to object: 0 copied, 0 replaced, 2 already there" in again.getvalue()
    assert "private files to object: 0 copied, 0 replaced, 1 already there" in again.getvalue()

    # Back to empty folders on another host's disk.
    settings.MEDIA_ROOT, settings.PRIVATE_MEDIA_ROOT = tmp_path / "m2", tmp_path / "p2"
    back = io.StringIO()
    call_command("move_files", "--to", "disk", stdout=back)
    assert "private files to disk: 1 copied" in back.getvalue()
    for kind, root in (("public", settings.MEDIA_ROOT), ("private", settings.PRIVATE_MEDIA_ROOT)):
        found = {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}
        assert found == files[kind]


def test_move_files_without_buckets_says_what_to_set_and_copies_nothing(settings, endpoint):
    settings.OBJECT_STORAGE_PRIVATE_BUCKET = ""
    settings.OBJECT_STORAGE_PUBLIC_BUCKET = ""
    with pytest.raises(
        CommandError, match="OBJECT_STORAGE_PUBLIC_BUCKET and OBJECT_STORAGE_PRIVATE"
    ):
        call_command("move_files", "--to", "object")


@pytest.mark.parametrize(
    ("public", "private", "error"),
    [("portal-public", "", "core.E005"), ("portal-files", "portal-files", "core.E006")],
)
def test_the_deploy_check_refuses_a_missing_or_shared_bucket(settings, public, private, error):
    settings.FILE_STORAGE = "object"
    settings.OBJECT_STORAGE_PUBLIC_BUCKET, settings.OBJECT_STORAGE_PRIVATE_BUCKET = public, private
    assert [problem.id for problem in check_object_storage_buckets(None)] == [error]
    settings.OBJECT_STORAGE_PRIVATE_BUCKET = "portal-private"
    settings.OBJECT_STORAGE_PUBLIC_BUCKET = "portal-public"
    assert check_object_storage_buckets(None) == []
