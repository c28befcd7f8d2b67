"""The public donation and funding pages, for /sitemap.xml."""

from core.sitemaps import NamedPagesSitemap
from search.sources import MONEY_WORDS, Page

donation_pages = NamedPagesSitemap("donations:donate", "donations:funding", changefreq="weekly")

# The fixed pages above as the site search finds them (search.sources.register_pages).
search_pages = [
    Page(
        "donations:donate",
        "Donate: support MariaDB with a gift",
        "A one-off or monthly gift to the foundation, paid by card on this site (the card goes "
        "straight to Stripe), with a "
        "receipt and a link to manage it.",
        f"{MONEY_WORDS} monthly one-off card receipt",
    ),
    Page(
        "donations:funding",
        "Funding",
        "Where the foundation's money comes from (sponsors, members and individual donors) "
        "and what it is spent on, by month, with the year's goal.",
        f"{MONEY_WORDS} income expenses budget spending ledger donors transparency report goal CSV",
    ),
]
