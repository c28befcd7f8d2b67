"""The end-of-life calendar (RFC 5545), built with the icalendar package. Pure apart from
reading the series it is given."""

from datetime import timedelta

from icalendar import Calendar, Event


def end_of_life_calendar(series, *, site: str, host: str, now) -> bytes:
    calendar = Calendar()
    calendar.add("prodid", "-//MariaDB Foundation//Release end of life//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", "MariaDB end of life")
    calendar.add(
        "x-wr-caldesc", "When each MariaDB Server series stops getting community releases."
    )
    for item in sorted(series, key=lambda s: s.eol_date):
        event = Event()
        event.add("uid", f"eol-{item.version}@{host}")
        event.add("dtstamp", now)
        event.add("dtstart", item.eol_date)
        event.add("dtend", item.eol_date + timedelta(days=1))
        event.add("summary", f"{item} reaches end of life")
        event.add(
            "description",
            f"{item} gets no more community releases after this day, security fixes included. "
            f"Upgrade to a supported series: {site}/download/series/",
        )
        event.add("url", site + item.get_absolute_url())
        event.add("transp", "TRANSPARENT")
        calendar.add_component(event)
    return calendar.to_ical()
