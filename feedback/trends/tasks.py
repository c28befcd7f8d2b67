from celery import shared_task

from feedback.trends.rollups import update_rollups


@shared_task
def update_usage_rollups():
    """Beat task: recompute the periods that new reports touched."""
    return {"periods": update_rollups()}
