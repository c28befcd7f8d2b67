"""One ledger: sponsors' payments, donations' gifts and their refunds move into payments'
tables. Amounts become whole minor units of their currency. Gifts keep their ids (a
donor's receipt links and queued receipt mails name them); sponsorship payments are
numbered after them (a sponsor finds a receipt from the dashboard). A refund is linked to
the payment its charge's payment intent or invoice made."""

from decimal import Decimal

from django.core.management.color import no_style
from django.db import migrations

ZERO_DECIMAL = {"BIF", "CLP", "DJF", "GNF", "JPY", "KMF", "KRW", "MGA", "PYG", "RWF", "UGX", "VND", "VUV", "XAF", "XOF", "XPF"}  # fmt: skip
THREE_DECIMAL = {"BHD", "JOD", "KWD", "OMR", "TND"}


def digits(currency):
    code = currency.upper()
    return 0 if code in ZERO_DECIMAL else 3 if code in THREE_DECIMAL else 2


def minor(amount, currency):
    return int((Decimal(amount) * 10 ** digits(currency)).to_integral_value())


def major(amount_minor, currency):
    return Decimal(amount_minor).scaleb(-digits(currency))


def kinds(apps):
    content_type = apps.get_model("contenttypes", "ContentType")
    sponsorship, _ = content_type.objects.get_or_create(app_label="sponsors", model="sponsorship")
    donation, _ = content_type.objects.get_or_create(app_label="donations", model="donation")
    return sponsorship, donation


def reset_sequence(schema_editor, *models):
    with schema_editor.connection.cursor() as cursor:
        for sql in schema_editor.connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(sql)


def intent_of(stripe_id):
    return stripe_id if stripe_id.startswith("pi_") else ""


def forwards(apps, schema_editor):
    payment = apps.get_model("payments", "Payment")
    refund = apps.get_model("payments", "Refund")
    sponsorship_type, donation_type = kinds(apps)
    for gift in apps.get_model("donations", "Gift").objects.order_by("pk"):
        payment.objects.create(
            pk=gift.pk,
            stripe_id=gift.stripe_id,
            payment_intent_id=intent_of(gift.stripe_id),
            content_type=donation_type,
            object_id=gift.donation_id,
            amount_minor=minor(gift.amount, gift.currency),
            currency=gift.currency.upper(),
            paid_at=gift.paid_at,
            receipt_url=gift.receipt_url,
        )
    reset_sequence(schema_editor, payment)
    for paid in apps.get_model("sponsors", "Payment").objects.order_by("pk"):
        payment.objects.create(
            stripe_id=paid.stripe_id,
            payment_intent_id=intent_of(paid.stripe_id),
            content_type=sponsorship_type,
            object_id=paid.sponsorship_id,
            amount_minor=minor(paid.amount, paid.currency),
            currency=paid.currency.upper(),
            paid_at=paid.paid_at,
            receipt_url=paid.receipt_url,
            is_demo=paid.is_demo,
        )
    for old in apps.get_model("donations", "Refund").objects.order_by("pk"):
        named = [i for i in (old.payment_intent_id, old.invoice_id) if i]
        paid = payment.objects.filter(stripe_id__in=named, currency=old.currency.upper()).first()
        refund.objects.create(
            stripe_charge_id=old.stripe_charge_id,
            payment=paid,
            payment_intent_id=old.payment_intent_id,
            invoice_id=old.invoice_id,
            customer_id=old.customer_id,
            amount_minor=minor(old.amount, old.currency),
            currency=old.currency.upper(),
            refunded_at=old.refunded_at,
        )


def backwards(apps, schema_editor):
    payment = apps.get_model("payments", "Payment")
    sponsorship_type, donation_type = kinds(apps)
    gift = apps.get_model("donations", "Gift")
    for paid in payment.objects.filter(content_type=donation_type):
        gift.objects.create(
            pk=paid.pk,
            donation_id=paid.object_id,
            stripe_id=paid.stripe_id,
            amount=major(paid.amount_minor, paid.currency),
            currency=paid.currency,
            paid_at=paid.paid_at,
            receipt_url=paid.receipt_url,
        )
    reset_sequence(schema_editor, gift)
    for paid in payment.objects.filter(content_type=sponsorship_type):
        apps.get_model("sponsors", "Payment").objects.create(
            sponsorship_id=paid.object_id,
            stripe_id=paid.stripe_id,
            amount=major(paid.amount_minor, paid.currency),
            currency=paid.currency,
            paid_at=paid.paid_at,
            receipt_url=paid.receipt_url,
            is_demo=paid.is_demo,
        )
    for old in apps.get_model("payments", "Refund").objects.all():
        apps.get_model("donations", "Refund").objects.create(
            stripe_charge_id=old.stripe_charge_id,
            donation_id=old.payment.object_id
            if old.payment_id and old.payment.content_type_id == donation_type.pk
            else None,
            payment_intent_id=old.payment_intent_id,
            invoice_id=old.invoice_id,
            customer_id=old.customer_id,
            amount=major(old.amount_minor, old.currency),
            currency=old.currency,
            refunded_at=old.refunded_at,
        )
    apps.get_model("payments", "Refund").objects.all().delete()
    apps.get_model("payments", "Dispute").objects.all().delete()
    payment.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("payments", "0007_ledger"),
        ("sponsors", "0008_event_undoable_until"),
        ("donations", "0006_expense_receipts_private"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
