"""Terms named by their dates, from the payments that bought them.

Until now a sponsorship's ``ends_on`` was its first day plus 365 days per payment (the
anniversary, and a day short or long across 29 February). It becomes the last day paid
for: each payment of the term's price (in the terms' currency, not refunded or lost to a
dispute in full) gets its ``PaidTerm``, a year from the first day, then each from the day
after the one before; ``ends_on`` is the last one's end. A sponsorship with a paid time
but no such payment keeps its time, ending a day earlier (its old end was the anniversary).

The standard agreement said "as a Gold sponsor for 2026" (the price list's year) beside a
term across two years: a tier whose latest agreement is that standard text gets the new
standard text as its next version (accepted texts and staff's own versions are kept).
"""

from datetime import date, timedelta
from decimal import Decimal

from django.db import migrations

from payments.money import minor_units

ONE_DAY = timedelta(days=1)
# Withdrawing dispute statuses are all but these (payments.models.Dispute.KEEPS_THE_MONEY).
KEEPS_THE_MONEY = {"won", "warning_needs_response", "warning_under_review", "warning_closed", "prevented"}

OLD_STANDARD_TEXT = """\
## Sponsorship agreement

Between the **MariaDB Foundation** and **{organisation}** (the sponsor).

1. **Sponsorship.** The sponsor supports the foundation as a {tier} {programme} for {year}.
2. **Fee.** {price} for one year of sponsorship, paid {payment}.
3. **Term.** The sponsorship starts on the day the fee is paid and runs for one year.
4. **Benefits.** The foundation provides the benefits of the {tier} tier listed with this
   agreement, by the dates shown there.
5. **Public recognition.** The sponsor's name, logo and website appear on the foundation's
   supporters page while the sponsorship is active.
6. **Independence.** The sponsorship gives no control over the foundation's technical
   decisions, which remain with the MariaDB community.
7. **Ending.** Either party may end the sponsorship in writing; fees already paid are not
   refunded unless the foundation does not provide the benefits.
"""

NEW_STANDARD_TEXT = """\
## Sponsorship agreement

Between the **MariaDB Foundation** and **{organisation}** (the sponsor).

1. **Sponsorship.** The sponsor supports the foundation as a {tier} {programme}.
2. **Fee.** {price} for each term of one year, paid {payment}.
3. **Term.** The first term starts on the day the fee is paid and runs for one year, to the
   day before the same date a year later (a term starting on 29 February ends on
   28 February). Each renewal is the next term of one year, starting on the day after the
   term before ends, whatever day it is paid. The terms paid are listed with this agreement.
4. **Benefits.** The foundation provides the benefits of the {tier} tier listed with this
   agreement, by the dates shown there.
5. **Public recognition.** The sponsor's name, logo and website appear on the foundation's
   supporters page while the sponsorship is active.
6. **Independence.** The sponsorship gives no control over the foundation's technical
   decisions, which remain with the MariaDB community.
7. **Ending.** Either party may end the sponsorship in writing; fees already paid are not
   refunded unless the foundation does not provide the benefits.
"""


def _year_from(first: date) -> tuple[date, date]:
    try:
        anniversary = first.replace(year=first.year + 1)
    except ValueError:  # 29 February
        anniversary = date(first.year + 1, 3, 1)
    return first, anniversary - ONE_DAY


def terms_from_payments(apps, schema_editor):
    Sponsorship = apps.get_model("sponsors", "Sponsorship")
    PaidTerm = apps.get_model("sponsors", "PaidTerm")
    Payment = apps.get_model("payments", "Payment")
    ContentType = apps.get_model("contenttypes", "ContentType")
    kind = ContentType.objects.filter(app_label="sponsors", model="sponsorship").first()
    for sponsorship in Sponsorship.objects.exclude(starts_on=None).exclude(ends_on=None):
        currency = str(sponsorship.terms.get("currency", "EUR")).upper()
        price = minor_units(Decimal(str(sponsorship.terms.get("annual_price", "0"))), currency)
        paid = (
            Payment.objects.filter(content_type=kind, object_id=sponsorship.pk, currency=currency)
            .filter(amount_minor__gte=price)
            .order_by("paid_at", "id")
            if kind
            else []
        )
        terms = []
        for payment in paid:
            taken = sum(r.amount_minor for r in payment.refunds.all()) + sum(
                d.amount_minor for d in payment.disputes.all() if d.status not in KEEPS_THE_MONEY
            )
            if taken >= payment.amount_minor:
                continue  # went back in full: it keeps no term
            first = terms[-1][1] + ONE_DAY if terms else sponsorship.starts_on
            terms.append(_year_from(first))
            PaidTerm.objects.create(
                sponsorship=sponsorship,
                payment=payment,
                starts_on=terms[-1][0],
                ends_on=terms[-1][1],
            )
        if terms:
            sponsorship.ends_on = terms[-1][1]
        elif sponsorship.ends_on > sponsorship.starts_on:
            sponsorship.ends_on -= ONE_DAY
        sponsorship.save(update_fields=["ends_on"])


def standard_agreement_renewed(apps, schema_editor):
    AgreementTemplate = apps.get_model("sponsors", "AgreementTemplate")
    Tier = apps.get_model("sponsors", "Tier")
    for tier in Tier.objects.all():
        latest = AgreementTemplate.objects.filter(tier=tier).order_by("-version").first()
        if latest is not None and latest.text == OLD_STANDARD_TEXT:
            AgreementTemplate.objects.create(
                tier=tier, version=latest.version + 1, text=NEW_STANDARD_TEXT
            )


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("payments", "0008_move_payments_and_refunds"),
        ("sponsors", "0011_terms_named_by_their_dates"),
    ]

    operations = [
        migrations.RunPython(terms_from_payments, migrations.RunPython.noop),
        migrations.RunPython(standard_agreement_renewed, migrations.RunPython.noop),
    ]
