"""The public sponsorship pages, for /sitemap.xml."""

from core.sitemaps import NamedPagesSitemap
from search.sources import Page

sponsor_pages = NamedPagesSitemap("sponsors:programmes", "sponsors:supporters", changefreq="weekly")

# The fixed pages above as the site search finds them (search.sources.register_pages).
search_pages = [
    Page(
        "sponsors:programmes",
        "Become a sponsor or member",
        "Support the MariaDB Foundation: the sponsorship and membership programmes, their "
        "tiers and how to apply.",
        "sponsor sponsors sponsorship member membership programmes tiers apply corporate "
        "support funding",
    ),
    Page(
        "sponsors:supporters",
        "Our supporters",
        "The companies that keep the MariaDB Foundation running, by tier.",
        "supporters sponsors members companies organisations thanks",
    ),
]
