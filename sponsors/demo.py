"""Demo catalogue and the Platinum and Gold sponsors named in the seed: their names and
public websites (facts anyone can check), no logo, so the public pages show each name as
a wordmark linked to its site, and invent no artwork."""

from datetime import datetime, time, timedelta
from decimal import Decimal

from django.utils import timezone
from django.utils.text import slugify

from core import demo, transitions
from payments import recording
from payments.money import minor_units
from sponsors.models import (
    Organisation,
    PaidTerm,
    Payment,
    Programme,
    Sponsorship,
    Tier,
    current_year,
)
from sponsors.supporters_cache import invalidate_supporters_page
from sponsors.terms import Term

# Demo prices, not the foundation's real ones.
TIERS = [
    (
        "sponsor",
        "Platinum",
        Decimal("100000"),
        120,
        "Largest logo on the supporters and home pages",
        False,
    ),
    ("sponsor", "Gold", Decimal("50000"), 90, "Large logo on the supporters page", False),
    ("sponsor", "Silver", Decimal("25000"), 60, "Logo on the supporters page", False),
    (
        "member",
        "Corporate member",
        Decimal("50000"),
        90,
        "Large logo on the supporters page",
        True,
    ),
]
SPONSORS = {
    "Platinum": ["Alibaba Cloud", "Tencent Cloud", "Microsoft", "MariaDB Corporation"],
    "Gold": ["DBS", "Visma", "IBM", "Tencent Games"],
}
WEBSITES = {
    "Alibaba Cloud": "https://www.alibabacloud.com/",
    "Tencent Cloud": "https://www.tencentcloud.com/",
    "Microsoft": "https://www.microsoft.com/",
    "MariaDB Corporation": "https://mariadb.com/",
    "DBS": "https://www.dbs.com/",
    "Visma": "https://www.visma.com/",
    "IBM": "https://www.ibm.com/",
    "Tencent Games": "https://www.tencentgames.com/",
}


def demo_day(index: int, count: int):
    """The ``index``-th of ``count`` days spread from 1 January to today, so the demo's
    payments fall over the year as real ones do, never in the future."""
    today = demo.today()
    first = today.replace(month=1, day=1)
    return first + timedelta(days=(today - first).days * index // max(count - 1, 1))


def record_demo_payments(organisation):
    """Each demo sponsorship paid its tier's price for its term, so the funding ledger is
    not empty beside a full supporters page; flagged as demo, never a real payment."""
    for sponsorship in organisation.sponsorships.filter(status=Sponsorship.Status.ACTIVE):
        currency = sponsorship.terms["currency"]
        payment, _ = recording.record_payment(
            sponsorship,
            stripe_id=f"demo-payment-{sponsorship.pk}",
            amount_minor=minor_units(Decimal(sponsorship.terms["annual_price"]), currency),
            currency=currency,
            paid_at=sponsorship.paid_at or demo.now(),
            is_demo=True,
        )
        if sponsorship.starts_on and sponsorship.ends_on:
            PaidTerm.objects.get_or_create(
                payment=payment,
                defaults={
                    "sponsorship": sponsorship,
                    "starts_on": sponsorship.starts_on,
                    "ends_on": sponsorship.ends_on,
                },
            )


def load(log):
    year = current_year()
    programmes = {
        "sponsor": Programme.objects.update_or_create(
            kind="sponsor",
            defaults={
                "name": "Commercial sponsor",
                "order": 0,
                "description": "Keep the foundation's infrastructure and administration running, and be thanked on the supporters page.",
            },
        )[0],
        "member": Programme.objects.update_or_create(
            kind="member",
            defaults={
                "name": "Commercial member",
                "order": 1,
                "description": "Everything a sponsor gets, and a part in governance: the advisory list, and identifying up to half of the board.",
            },
        )[0],
    }
    tiers = {}
    for order, (kind, name, price, height, placement, seat) in enumerate(TIERS):
        tiers[name], _ = Tier.objects.update_or_create(
            programme=programmes[kind],
            slug=slugify(name),
            year=year,
            defaults={
                "name": name,
                "annual_price": price,
                "currency": "EUR",
                "logo_height": height,
                "placement": placement,
                "advisory_seat": seat,
                "order": order,
                "benefits": f"- {placement}\n- Thanks in the foundation's news"
                + (
                    "\n- A seat on the advisory list\n- A part in identifying up to half of the board"
                    if seat
                    else ""
                ),
            },
        )
    everyone = [name for names in SPONSORS.values() for name in names]
    for tier_name, names in SPONSORS.items():
        for name in names:
            day = demo_day(everyone.index(name), len(everyone))
            paid_at = timezone.make_aware(datetime.combine(day, time(12)))
            organisation, _ = Organisation.objects.get_or_create(
                name=name,
                defaults={
                    "website": WEBSITES[name],
                    "billing_name": f"{name} (demo)",
                    "billing_email": "billing@example.com",
                },
            )
            if not organisation.website:  # loaded before the demo knew the websites
                organisation.website = WEBSITES[name]
                organisation.save(update_fields=["website"])
            if not organisation.sponsorships.exists():
                tier = tiers[tier_name]
                sponsorship = Sponsorship.objects.create(
                    organisation=organisation,
                    tier=tier,
                    terms=tier.terms(),
                    status=Sponsorship.Status.ACTIVE,
                    payment_method=Sponsorship.Payment.INVOICE,
                    paid_at=paid_at,
                    starts_on=day,
                    ends_on=Term.one_year_from(day).ends_on,
                )
                transitions.record(sponsorship, note="demo content", from_status="")
            record_demo_payments(organisation)
    invalidate_supporters_page()
    log(
        f"sponsors: {Tier.objects.count()} tiers, {Sponsorship.objects.count()} sponsorships, "
        f"{Payment.objects.filter(is_demo=True).count()} demo payments"
    )
