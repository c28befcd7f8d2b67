"""Uploads are bounded before they are read: an oversized body is refused by its declared
length, a large file streams to disk, and the shared helper refuses by size first."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile, TemporaryUploadedFile
from django.test import RequestFactory

from core.uploads import MaxUploadSize, UploadTooLarge, check_upload_size, read_upload
from feedback.models import RawReport

MIB = 1024 * 1024


class UnreadableBody(io.RawIOBase):
    """A request body that fails the test if anything reads it."""

    def read(self, *args):
        raise AssertionError("the body was read")

    readline = read


def post_declaring(client, path, size, **headers):
    return client.generic(
        "POST",
        path,
        b"",
        content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(size),
        **{"wsgi.input": UnreadableBody()},
        **headers,
    )


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/contact/", "/sponsors/organisations/1/logo/"])
def test_an_oversized_body_is_refused_with_413_before_it_is_read(client, path, settings):
    settings.MAX_REQUEST_BODY_BYTES = 8 * MIB
    response = post_declaring(client, path, 250 * MIB, HTTP_ACCEPT="text/html")
    assert response.status_code == 413
    assert "The request body is 250 MiB; the limit is 8 MiB." in response.content.decode()


@pytest.mark.django_db
def test_a_report_past_the_site_wide_limit_is_refused_with_413_before_it_is_read(client, settings):
    settings.MAX_REQUEST_BODY_BYTES = 8 * MIB
    response = post_declaring(client, "/rest/v1/post", 250 * MIB)
    assert response.status_code == 413


@pytest.mark.django_db
def test_a_report_past_its_own_smaller_limit_is_refused_with_413_and_stores_nothing(
    client, settings
):
    settings.MAX_REQUEST_BODY_BYTES = 8 * MIB
    limit = settings.FEEDBACK_MAX_BODY_BYTES
    response = client.generic(
        "POST", "/rest/v1/post", b"x" * (limit + 1), content_type="multipart/form-data; boundary=x"
    )
    assert response.status_code == 413
    assert response.content.decode() == f"The report is larger than the limit of {limit} bytes.\n"
    assert not RawReport.objects.exists()


@pytest.mark.django_db
def test_api_clients_get_the_413_reason_as_text(client):
    response = post_declaring(client, "/api/benchmarks/oltp/runs/", 9 * MIB)
    assert response.status_code == 413
    assert response["Content-Type"].startswith("text/plain")
    assert response.content.decode() == "The request body is 9 MiB; the limit is 8 MiB.\n"


def test_a_large_uploaded_file_streams_to_disk_not_memory(settings):
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024
    upload = SimpleUploadedFile("run.txt", b"x" * (3 * MIB), content_type="text/plain")
    request = RequestFactory().post("/", {"file": upload})
    received = request.FILES["file"]
    assert isinstance(received, TemporaryUploadedFile)
    assert received.size == 3 * MIB


class SpyFile(SimpleUploadedFile):
    reads = 0

    def read(self, *args):
        self.reads += 1
        return super().read(*args)


def test_read_upload_refuses_by_size_without_reading():
    upload = SpyFile("logo.png", b"x" * (MIB + 1), content_type="image/png")
    with pytest.raises(UploadTooLarge, match=r"The logo is 1025 KiB; the limit is 1 MiB\."):
        read_upload(upload, MIB, what="The logo")
    assert upload.reads == 0


def test_read_upload_returns_the_bytes_within_the_limit():
    upload = SpyFile("run.txt", b"sysbench 1.0.20", content_type="text/plain")
    assert read_upload(upload, MIB) == b"sysbench 1.0.20"


def test_read_upload_never_returns_more_than_the_limit_even_if_size_lies():
    upload = SimpleUploadedFile("run.txt", b"x" * 2048)
    upload.size = 10
    with pytest.raises(UploadTooLarge):
        read_upload(upload, 1024)


def test_the_form_validator_uses_the_same_rule():
    check_upload_size(SimpleUploadedFile("a", b"x" * 10), 10)
    with pytest.raises(UploadTooLarge):
        MaxUploadSize(10)(SimpleUploadedFile("a", b"x" * 11))
