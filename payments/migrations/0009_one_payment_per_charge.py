"""One payment per Stripe charge and per payment intent (issue 58).

Payments recorded twice before this rule (an invoice's event and its payment intent's, each
keyed by its own id) keep their charge and intent ids on the oldest row only: the later
row stays, for staff to see, but no longer claims them, so the constraints can hold."""

from django.db import migrations, models


def forwards(apps, schema_editor):
    payment = apps.get_model("payments", "Payment")
    for field in ("charge_id", "payment_intent_id"):
        seen = set()
        for pk, value in payment.objects.exclude(**{field: ""}).order_by("pk").values_list(
            "pk", field
        ):
            if value in seen:
                payment.objects.filter(pk=pk).update(**{field: ""})
            seen.add(value)


class Migration(migrations.Migration):
    dependencies = [("payments", "0008_move_payments_and_refunds")]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="payment",
            constraint=models.UniqueConstraint(
                condition=models.Q(("charge_id", ""), _negated=True),
                fields=("charge_id",),
                name="one_payment_per_charge",
            ),
        ),
        migrations.AddConstraint(
            model_name="payment",
            constraint=models.UniqueConstraint(
                condition=models.Q(("payment_intent_id", ""), _negated=True),
                fields=("payment_intent_id",),
                name="one_payment_per_payment_intent",
            ),
        ),
    ]
