"""The Stripe events the sponsors and donations apps recorded move into payments'
one table, so a replay of an event either app saw is still recognised."""

from django.db import migrations


def move_events(apps, schema_editor):
    StripeEvent = apps.get_model("payments", "StripeEvent")
    known = set(StripeEvent.objects.values_list("event_id", flat=True))
    moved = []
    for label, outcome in (("sponsors.StripeEvent", "processed"), ("donations.DonationStripeEvent", None)):
        Old = apps.get_model(label)
        for old in Old.objects.order_by("received_at").iterator():
            if old.event_id in known:
                continue
            known.add(old.event_id)
            moved.append(
                StripeEvent(
                    event_id=old.event_id,
                    type=old.type,
                    outcome=outcome or old.outcome,
                    received_at=old.received_at,
                )
            )
    StripeEvent.objects.bulk_create(moved, batch_size=1000)


def move_back(apps, schema_editor):
    StripeEvent = apps.get_model("payments", "StripeEvent")
    SponsorsEvent = apps.get_model("sponsors", "StripeEvent")
    DonationsEvent = apps.get_model("donations", "DonationStripeEvent")
    for event in StripeEvent.objects.iterator():
        # Both old endpoints saw every event type; each keeps its own copy again.
        SponsorsEvent.objects.get_or_create(
            event_id=event.event_id[:80], defaults={"type": event.type}
        )
        DonationsEvent.objects.get_or_create(
            event_id=event.event_id, defaults={"type": event.type, "outcome": event.outcome}
        )


class Migration(migrations.Migration):
    dependencies = [
        ("payments", "0001_stripe_events_and_outbox"),
        ("sponsors", "0003_organisation_website_optional"),
        ("donations", "0001_initial"),
    ]
    operations = [migrations.RunPython(move_events, move_back)]
