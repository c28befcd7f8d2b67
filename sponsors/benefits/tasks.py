from celery import shared_task

from sponsors.benefits import services


@shared_task
def run_benefit_reminders():
    """Daily (beat): create the items new sponsorships are owed, then remind both sides."""
    services.ensure_all_deliveries()
    return services.send_reminders()
