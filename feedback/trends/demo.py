"""Demo usage data: simulated servers reporting over the last eight weeks.

Their reports are the real captured full report with per-server values replaced
(see synthetic.py), stored and processed through the same code as real reports, and
marked with FEEDBACK_USER_INFO "demo-data" so they can be told apart.
"""

from datetime import timedelta

from django.utils import timezone

from feedback import services
from feedback.ingest import build_raw_report, store_reports
from feedback.models import Report
from feedback.trends.rollups import rebuild_all
from feedback.trends.synthetic import full_report, real_rows

DEMO_SERVERS = 48
WEEKS = 8
DEMO_USER_INFO = "demo-data"


def load(log):
    if Report.objects.filter(user_info=DEMO_USER_INFO).exists():
        log("trends: demo reports already present")
        return
    rows = real_rows()
    now = timezone.now()
    start = now - timedelta(weeks=WEEKS)
    raws = []
    for number in range(DEMO_SERVERS):
        joined = start + timedelta(hours=number * 20)  # servers join over the weeks
        sent = joined + timedelta(days=1)
        while sent < now:
            raw = build_raw_report(
                full_report(number, rows, salt="demo", user_info=DEMO_USER_INFO),
                path="/rest/v1/post",
                is_test=False,
            )
            raw.received_at = sent
            raws.append(raw)
            sent += timedelta(days=7)
    store_reports(raws)
    services.process_all_pending()
    periods = rebuild_all()
    log(
        f"trends: {len(raws)} demo reports from {DEMO_SERVERS} servers, {periods} periods rolled up"
    )
