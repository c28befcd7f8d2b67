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
    path = request.path
    return {
        "site_name": "MariaDB Foundation",
        "site_url": settings.SITE_URL,
        "navigation": [
            {"label": label, "url": url, "current": path.startswith(url)}
            for label, url in NAVIGATION
        ],
    }
