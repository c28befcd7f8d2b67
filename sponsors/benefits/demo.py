"""Demo benefit items for the demo tiers (``manage.py load_demo``): the kinds of benefit
open-source foundations offer their sponsors (logo placements, an announcement on the
blog, event passes, a mention in the yearly report), each named "(demo)". They are not
the foundation's own offer."""

from sponsors.benefits.models import Benefit
from sponsors.models import Tier, current_year

A = Benefit.Asset
LOGO = ("Logo on the supporters page and the home page", A.LOGO, 14)
POST = ("Welcome post on the foundation's blog (your 500-character introduction)", A.TEXT, 30)
STAGE = ("Logo on the stage slides of the foundation's yearly conference", A.LOGO, 60)
NEWSLETTER = ("Link in the foundation's newsletter", A.LINK, 45)
REPORT = ("Thanks in the foundation's yearly report", A.NONE, 330)


def passes(count: int):
    return (f"{count} passes to the foundation's yearly conference", A.NONE, 90)


BENEFITS = {
    "Platinum": [LOGO, POST, STAGE, NEWSLETTER, passes(4), REPORT],
    "Gold": [LOGO, POST, STAGE, passes(2), REPORT],
    "Silver": [LOGO, POST, passes(1), REPORT],
    "Corporate member": [LOGO, POST, STAGE, NEWSLETTER, passes(4), REPORT],
}


def load(log):
    made = 0
    for tier in Tier.objects.filter(year=current_year()):
        for order, (name, asset, due_days) in enumerate(BENEFITS.get(tier.name, [])):
            _, created = Benefit.objects.get_or_create(
                tier=tier,
                name=f"{name} (demo)",
                defaults={
                    "asset": asset,
                    "due_days": due_days,
                    "order": order,
                    "description": "Demo benefit: the kind foundations offer, not this "
                    "foundation's own offer.",
                },
            )
            made += created
    log(f"benefits: {made} demo benefit items")
