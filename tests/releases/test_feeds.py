from datetime import date

import feedparser
import pytest
from icalendar import Calendar

pytestmark = pytest.mark.django_db


class TestOnTheCatalogue:
    """Tests that read the real catalogue (loaded once for the class)."""

    def test_each_series_has_an_atom_feed_of_its_releases(
        self, client, catalogue, django_assert_max_num_queries
    ):
        with django_assert_max_num_queries(4):
            body = client.get("/download/11.4/feed/").content
        feed = feedparser.parse(body)
        assert not feed.bozo
        assert feed.version == "atom10"
        assert feed.feed.title == "MariaDB 11.4 releases"
        assert [e.title for e in feed.entries][:2] == [
            "MariaDB 11.4.13 (Stable (GA))",
            "MariaDB 11.4.12 (Stable (GA))",
        ]
        assert len(feed.entries) == 14
        assert all("/download/11.4/" in e.link for e in feed.entries)
        assert client.get("/download/9.9/feed/").status_code == 404

    def test_download_and_series_pages_announce_their_feeds(self, client, catalogue):
        download = client.get("/download/").content.decode()
        assert (
            '<link rel="alternate" type="application/atom+xml" title="MariaDB releases" href="/download/feed/">'
            in download
        )
        assert (
            '<link rel="alternate" type="application/atom+xml" title="MariaDB 12.3 releases" href="/download/12.3/feed/">'
            in download
        )
        assert (
            '<link rel="alternate" type="text/calendar" title="MariaDB end-of-life dates" href="/download/end-of-life.ics">'
            in download
        )
        assert '<a href="/download/end-of-life.ics">End-of-life dates (calendar)</a>' in download
        series = client.get("/download/10.6/").content.decode()
        assert (
            '<link rel="alternate" type="application/atom+xml" title="MariaDB 10.6 releases" href="/download/10.6/feed/">'
            in series
        )

    def test_end_of_life_calendar_parses_with_every_dated_series(
        self, client, catalogue, django_assert_max_num_queries
    ):
        with django_assert_max_num_queries(3):
            response = client.get("/download/end-of-life.ics")
        assert response["Content-Type"] == "text/calendar; charset=utf-8"
        calendar = Calendar.from_ical(response.content)
        events = {str(e["uid"]): e for e in calendar.walk("VEVENT")}
        assert (
            len(events) == 29
        )  # every listed series has a community end of life; the 13.x previews none
        lts = events["eol-11.4@testserver"]
        assert lts.decoded("dtstart") == date(2029, 5, 29)
        assert lts.decoded("dtend") == date(2029, 5, 30)
        assert str(lts["summary"]) == "MariaDB 11.4 reaches end of life"
        assert str(lts["url"]) == "http://testserver/download/11.4/"
        assert client.post("/download/end-of-life.ics").status_code == 405
