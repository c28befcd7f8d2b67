"""Demo catalogue and the Platinum and Gold sponsors named in the seed (names only, with
placeholder logos that say they are placeholders)."""

from datetime import timedelta
from decimal import Decimal

from django.core.files.base import ContentFile
from django.utils import timezone
from django.utils.text import slugify

from sponsors.models import (
    Organisation,
    Programme,
    Sponsorship,
    SponsorshipEvent,
    Tier,
    current_year,
)
from sponsors.services import invalidate_supporters_page

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
        "Advisory list seat; helps identify half of the board",
        True,
    ),
]
SPONSORS = {
    "Platinum": ["Alibaba Cloud", "Tencent Cloud", "Microsoft", "MariaDB Corporation"],
    "Gold": ["DBS", "Visma", "IBM", "Tencent Games"],
}


def placeholder_logo(name: str) -> bytes:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 90" width="320" height="90">'
        '<rect x="1" y="1" width="318" height="88" rx="10" fill="#f4f6f8" stroke="#8795a1" stroke-dasharray="6 4"/>'
        f'<text x="160" y="44" font-family="sans-serif" font-size="22" font-weight="700" text-anchor="middle" '
        f'fill="#003545">{name}</text>'
        '<text x="160" y="70" font-family="sans-serif" font-size="13" text-anchor="middle" fill="#4a5866">'
        "placeholder logo</text></svg>"
    ).encode()


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
                + ("\n- A seat on the advisory list" if seat else ""),
            },
        )
    today = timezone.localdate()
    for tier_name, names in SPONSORS.items():
        for name in names:
            organisation, created = Organisation.objects.get_or_create(
                name=name,
                defaults={
                    "website": f"https://www.example.com/{slugify(name)}",
                    "billing_name": f"{name} (demo)",
                    "billing_email": "billing@example.com",
                },
            )
            if created or not organisation.logo:
                organisation.logo.save(
                    f"{slugify(name)}-placeholder.svg", ContentFile(placeholder_logo(name))
                )
            if not organisation.sponsorships.exists():
                tier = tiers[tier_name]
                sponsorship = Sponsorship.objects.create(
                    organisation=organisation,
                    tier=tier,
                    terms=tier.terms(),
                    status=Sponsorship.Status.ACTIVE,
                    payment_method=Sponsorship.Payment.INVOICE,
                    paid_at=timezone.now(),
                    starts_on=today,
                    ends_on=today + timedelta(days=365),
                )
                SponsorshipEvent.objects.create(
                    sponsorship=sponsorship, to_status="active", note="demo content"
                )
    invalidate_supporters_page()
    log(f"sponsors: {Tier.objects.count()} tiers, {Sponsorship.objects.count()} sponsorships")
