from celery import shared_task

from feedback.trends.rollups import update_rollups
from feedback.trends.snapshots import publish_complete_months


@shared_task
def update_usage_rollups():
    """Beat task: recompute the periods that new reports touched, publish finished months."""
    periods = update_rollups()
    snapshots = publish_complete_months()
    return {"periods": periods, "snapshots": [s.month.isoformat() for s in snapshots]}
