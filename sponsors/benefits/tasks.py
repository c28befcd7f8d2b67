from celery import shared_task

from sponsors.benefits import services

# The reminder mail tasks live with the mail they send; imported so a worker registers them.
from sponsors.benefits.notifications import remind_sponsor, remind_staff

__all__ = ["remind_sponsor", "remind_staff", "run_benefit_reminders"]


@shared_task
def run_benefit_reminders():
    """Daily (beat): create the items new sponsorships are owed, then remind both sides."""
    services.ensure_all_deliveries()
    return services.send_reminders()
