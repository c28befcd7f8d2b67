from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string

from core import numbers
from search import query
from search.models import SearchDocument

OPENSEARCH_CONTENT_TYPE = "application/opensearchdescription+xml"
# Offered on the empty page and when nothing matched.
SUGGESTED_SEARCHES = ["bylaws", "long-term support", "board meeting", "sysbench"]


def search(request):
    """/search/?q=words&kind=news&page=2"""
    text, kind = request.GET.get("q", ""), request.GET.get("kind", "")
    context = {
        "q": text[: query.MAX_QUERY_LENGTH],
        "kinds": SearchDocument.Kind.choices,
        "suggestions": SUGGESTED_SEARCHES,
    }
    try:
        text = query.clean_query(text)
    except query.QueryTooLong:
        context["error"] = (
            f"Your search is {len(text)} characters long. A search may have at most "
            f"{query.MAX_QUERY_LENGTH} characters: try a few distinctive words."
        )
        return render(request, "search/search.html", context, status=400)
    if text:
        results = query.search(text, kind, numbers.page_number(request.GET))
        context.update(
            results=results,
            page_obj=results.page,
            base_query=urlencode({"q": text, **({"kind": results.kind} if results.kind else {})}),
            all_kinds_query=urlencode({"q": text}),
        )
    return render(request, "search/search.html", context)


def opensearch(request):
    """The OpenSearch description that lets browsers add the site's search."""
    context = {"base_url": settings.SITE_URL.rstrip("/")}
    body = render_to_string("search/opensearch.xml", context, request=request)
    return HttpResponse(body, content_type=f"{OPENSEARCH_CONTENT_TYPE}; charset=utf-8")
