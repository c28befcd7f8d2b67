from django import template

from donations.models import Donation

register = template.Library()


@register.inclusion_tag("donations/includes/donor_wall.html")
def donor_wall():
    """Donors who asked to be thanked by name, alphabetically; amounts are never shown."""
    names = (
        Donation.objects.on_donor_wall()
        .order_by("public_name")
        .values_list("public_name", flat=True)
        .distinct()
    )
    return {"names": list(names)}
