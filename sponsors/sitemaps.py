"""The public sponsorship pages, for /sitemap.xml."""

from core.sitemaps import NamedPagesSitemap
from search.sources import MONEY_WORDS, Page

sponsor_pages = NamedPagesSitemap("sponsors:programmes", "sponsors:supporters", changefreq="weekly")

# The fixed pages above as the site search finds them (search.sources.register_pages).
search_pages = [
    Page(
        "sponsors:programmes",
        "Become a sponsor or member",
        "Support the MariaDB Foundation: the sponsorship and membership programmes, their "
        "tiers and how to apply.",
        f"{MONEY_WORDS} sponsors member membership programmes tiers apply corporate",
    ),
    Page(
        "sponsors:supporters",
        "Our supporters",
        "The companies that keep the MariaDB Foundation running, by tier.",
        "supporters sponsors members companies organisations thanks",
    ),
]
