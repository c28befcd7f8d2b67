"""Demo usage data: simulated servers reporting over the last ten weeks.

Their reports are the real captured full report with per-server values replaced
(see synthetic.py), stored and processed through the same code as real reports, and
marked with FEEDBACK_USER_INFO "demo-data" so they can be told apart. Each server
runs the newest release of its profile's series that was out when it reported, taken
from the release catalogue, so the adoption charts follow real release numbers. Their
countries are simulated too (no address comes with a simulated report). Every complete
month is then published as a snapshot, as the beat task does.
"""

from datetime import date, timedelta

from core import demo
from feedback.ingest import build_raw_report, store_reports
from feedback.models import Report
from feedback.services import processing
from feedback.trends.rollups import rebuild_all, update_rollups
from feedback.trends.snapshots import publish_complete_months
from feedback.trends.synthetic import demo_country, full_report, profile, real_rows
from releases.models import Release

DEMO_SERVERS = 48
WEEKS = 10  # longer than any two months: the last complete month is wholly covered
DEMO_USER_INFO = "demo-data"


def load(log):
    if Report.objects.filter(user_info=DEMO_USER_INFO).exists():
        log("trends: demo reports already present")
    else:
        _simulate(log)
    update_rollups()  # counts again if test-traffic rules changed
    snapshots = publish_complete_months()
    log(f"trends: {len(snapshots)} monthly snapshots published")


def _simulate(log):
    rows = real_rows()
    now = demo.now()
    start = now - timedelta(weeks=WEEKS)
    catalogue = _releases_by_series()
    raws = []
    for number in range(DEMO_SERVERS):
        joined = start + timedelta(hours=number * 20)  # servers join over the weeks
        sent = joined + timedelta(days=1)
        while sent < now:
            raw = build_raw_report(
                full_report(
                    number,
                    rows,
                    salt="demo",
                    user_info=DEMO_USER_INFO,
                    version=_running_version(profile(number)[0], catalogue, sent.date()),
                ),
                path="/rest/v1/post",
                is_test=False,
                country=demo_country(number),
            )
            raw.received_at = sent
            raws.append(raw)
            sent += timedelta(days=7)
    store_reports(raws)
    processing.process_all_pending()
    periods = rebuild_all()
    log(
        f"trends: {len(raws)} demo reports from {DEMO_SERVERS} servers, {periods} periods rolled up"
    )


def _releases_by_series():
    """Published (release date, version) pairs per series, oldest first."""
    catalogue: dict[str, list[tuple[date, str]]] = {}
    for version, series, released in (
        Release.objects.published()
        .order_by("release_date")
        .values_list("version", "series__version", "release_date")
    ):
        catalogue.setdefault(series, []).append((released, version))
    return catalogue


def _running_version(profile_version, catalogue, day):
    """The profile's version string with the newest release of its series out by ``day``."""
    number, _, suffix = profile_version.partition("-")
    series = ".".join(number.split(".")[:2])
    out = [version for released, version in catalogue.get(series, []) if released <= day]
    return f"{out[-1]}-{suffix}" if out else profile_version
