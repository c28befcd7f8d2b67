"""Hostile logo images: a decompression bomb, or any other bytes, is refused with a
reason (400 on the upload page), never a 500, and nothing is stored."""

import io
import struct
import zlib

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image
from pytest_django.asserts import assertContains

from sponsors.logos import MAX_SIDE, MAX_SVG_DEPTH, TOO_DEEP, TOO_MANY_PIXELS, process_logo
from sponsors.models import Organisation
from tests.foundation.factories import UserFactory
from tests.sponsors.factories import OrganisationFactory


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_claiming(width: int, height: int, pixels: bytes = b"\0" * 64) -> bytes:
    """A small PNG file whose header claims ``width`` by ``height`` one-bit pixels."""
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(pixels))
        + chunk(b"IEND", b"")
    )


def real_png(width=40, height=20) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), "navy").save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.mark.parametrize("side", [30_000, 10_000])  # Pillow's error, and its warning
def test_a_decompression_bomb_is_refused_with_a_reason(side):
    bomb = png_claiming(side, side)
    assert len(bomb) < 200
    with pytest.raises(ValidationError) as refused:
        process_logo(SimpleUploadedFile("bomb.png", bomb))
    assert refused.value.messages == [TOO_MANY_PIXELS]


@pytest.mark.django_db
def test_a_bomb_uploaded_as_a_logo_answers_400_and_stores_nothing(client):
    owner = UserFactory()
    organisation = OrganisationFactory(managers=[owner])
    client.force_login(owner)
    response = client.post(
        f"/sponsors/organisations/{organisation.pk}/logo/",
        {"logo": SimpleUploadedFile("bomb.png", png_claiming(30_000, 30_000))},
    )
    assertContains(response, f"The logo is larger than {MAX_SIDE} × {MAX_SIDE} pixels.",
                   status_code=400)  # fmt: skip
    assert not Organisation.objects.get().logo


@pytest.mark.django_db
def test_a_logo_upload_with_a_non_ascii_length_is_answered_not_crashed(client):
    """'¹'.isdigit() is true but int('¹') raises: the length is read as unknown."""
    owner = UserFactory()
    organisation = OrganisationFactory(managers=[owner])
    client.force_login(owner)
    response = client.post(
        f"/sponsors/organisations/{organisation.pk}/logo/", {}, CONTENT_LENGTH="¹"
    )
    assert response.status_code < 500
    assert not Organisation.objects.get().logo


@settings(max_examples=150, deadline=None)
@given(
    width=st.integers(0, 2**31 - 1),
    height=st.integers(0, 2**31 - 1),
    pixels=st.binary(max_size=256),
)
def test_any_png_header_is_either_a_logo_or_a_reason(width, height, pixels):
    try:
        clean, thumbnail = process_logo(
            SimpleUploadedFile("logo.png", png_claiming(width, height, pixels))
        )
    except ValidationError as refused:
        assert refused.messages and all(message.endswith(".") for message in refused.messages)
    else:
        assert 0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE
        assert thumbnail is not None and clean.name.endswith(".png")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    start=st.integers(0, 300),
    damage=st.binary(min_size=1, max_size=64),
    name=st.sampled_from(["logo.png", "logo.jpg", "logo.webp", "logo.svg", "logo"]),
)
def test_a_damaged_real_image_is_either_a_logo_or_a_reason(start, damage, name):
    data = bytearray(real_png())
    data[start : start + len(damage)] = damage
    try:
        process_logo(SimpleUploadedFile(name, bytes(data)))
    except ValidationError as refused:
        assert refused.messages


def test_an_ordinary_logo_still_gets_its_thumbnail():
    clean, thumbnail = process_logo(SimpleUploadedFile("logo.png", real_png(360, 120)), height=60)
    assert Image.open(thumbnail).size == (180, 60)
    assert clean.name == "logo.png"


def nested_svg(depth: int) -> bytes:
    return (
        b'<svg xmlns="http://www.w3.org/2000/svg">'
        + b"<g>" * depth
        + b'<rect width="1" height="1"/>'
        + b"</g>" * depth
        + b"</svg>"
    )


@pytest.mark.django_db
@pytest.mark.parametrize("depth", [MAX_SVG_DEPTH, 1_000, 100_000])
def test_a_deeply_nested_svg_logo_answers_400_and_stores_nothing(client, depth):
    """Issue 34: 1,000 nested groups answered 500 (RecursionError while cleaning)."""
    owner = UserFactory()
    organisation = OrganisationFactory(managers=[owner])
    client.force_login(owner)
    response = client.post(
        f"/sponsors/organisations/{organisation.pk}/logo/",
        {"logo": SimpleUploadedFile("deep.svg", nested_svg(depth))},
    )
    assertContains(response, TOO_DEEP, status_code=400)
    assert not Organisation.objects.get().logo


def test_an_svg_nested_up_to_the_limit_is_kept():
    clean, thumbnail = process_logo(SimpleUploadedFile("ok.svg", nested_svg(MAX_SVG_DEPTH - 2)))
    assert clean.read().count(b"<g>") == MAX_SVG_DEPTH - 2
    assert thumbnail is None
