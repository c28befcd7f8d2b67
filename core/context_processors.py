from django.conf import settings

NAVIGATION = [
    ("Foundation", "/about/"),
    ("News", "/news/"),
    ("Supporters", "/supporters/"),
    ("Download", "/download/"),
    ("Usage statistics", "/feedback/"),
    ("Benchmarks", "/benchmarks/"),
    ("Donate", "/donate/"),
]


def site(request):
    return site_context(request.path)


def site_context(path: str) -> dict:
    """The site-wide template context; needs no request or database (the 503 page uses it)."""
    return {
        "site_name": settings.SITE_NAME,
        "site_url": settings.SITE_URL,
        "navigation": [
            {"label": label, "url": url, "current": path.startswith(url)}
            for label, url in NAVIGATION
        ],
    }
