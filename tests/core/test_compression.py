"""Answers come compressed to clients that accept gzip (GZipMiddleware): nginx always asks
for gzip, keeps the compressed copy at the edge and unzips it for clients that do not
accept it (deploy/nginx/portal-proxy.conf), so a page's copy is a fifth of its size."""

import gzip

import pytest

from tests.foundation.factories import NewsPostFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/news/", "/news/feed/", "/sitemap.xml"])
def test_a_shareable_answer_is_compressed_for_gzip_and_stays_shareable(client, path):
    NewsPostFactory(title="Compressed at the source", status="published")
    plain = client.get(path)
    packed = client.get(path, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content)
    vary = {part.strip().lower() for part in packed["Vary"].split(",")}
    assert "accept-encoding" in vary and vary <= {"accept-encoding", "cookie"}
    assert packed["Cache-Control"] == plain["Cache-Control"]
    assert "public" in packed["Cache-Control"]


def test_the_compressed_answer_is_revalidated_with_its_etag(client):
    NewsPostFactory(status="published")
    first = client.get("/news/", HTTP_ACCEPT_ENCODING="gzip")
    again = client.get("/news/", HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
