from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django.views.defaults import page_not_found

from core import numbers, opendata
from donations import documents, signing, statements
from donations.forms import DonationForm, ManageLinkForm
from donations.models import Donation
from donations.reports import (
    LICENCE,
    LICENCE_STATEMENT,
    funding_report,
    goal_summary,
    monthly_export,
    withholding_rule,
    yearly_export,
)
from donations.services import giving, managing
from invoicing.pdf import pdf_response
from payments import stripe_js


def donate(request):
    """The gift form with Stripe.js's card element; the page's script pays through
    ``give_by_card``. A form sent here (the script found mistakes in it, or there is no
    script) is answered with its mistakes, and nothing is charged."""
    form = DonationForm(request.POST if request.method == "POST" else None)
    context = {
        "form": form,
        "goal": goal_summary(timezone.localdate().year, settings.DONATION_CURRENCIES[0]),
        **_bounds(),
        **stripe_js.page_context(),
    }
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            form.add_error(
                None,
                "Nothing was charged: the card is typed into Stripe's card field, which "
                "needs JavaScript. Type the card, then press the button again.",
            )
    return stripe_js.allow(render(request, "donations/donate.html", context, status=status))


@require_POST
def give_by_card(request):
    """The donate page's script, one step at a time (donations.services.giving): JSON."""
    form = DonationForm(request.POST)
    if not form.is_valid():
        return JsonResponse({"invalid": True}, status=400)
    data = form.cleaned_data
    gift = giving.Gift(
        email=data["email"],
        amount=data["amount"],
        currency=data["currency"],
        monthly=data["frequency"] == Donation.Frequency.MONTHLY,
        public_name=data["public_name"],
        show_on_wall=data["show_on_wall"],
        user=request.user,
    )
    stage = request.POST.get("stage")
    setup_intent = request.POST.get("setup_intent", "")
    try:
        if stage == "setup":
            return JsonResponse({"client_secret": giving.start(gift)["client_secret"]})
        if stage == "pay":
            donation, attempt = giving.pay(gift, setup_intent)
        elif stage == "check":
            donation, attempt = giving.check_confirmed(setup_intent)
        else:
            return stripe_js.refuse("Unknown step.")
    except giving.PaymentServiceUnavailable:
        return stripe_js.refuse(UNAVAILABLE, status=503)
    except giving.CardRefused as refusal:
        return stripe_js.refuse(f"{refusal} Nothing was taken.", status=402)
    thanks = reverse("donations:thanks")
    return stripe_js.answer(
        attempt, giving.thanks_url(thanks, donation.reference) if donation else ""
    )


UNAVAILABLE = (
    "Card payments cannot be taken right now: Stripe, which handles them, did not answer. "
    "Nothing was charged. Please try again in a few minutes, or write to us for a bank "
    "transfer."
)


def _bounds():
    return {
        "minimum": settings.DONATION_MINIMUM_AMOUNT,
        "maximum": settings.DONATION_MAXIMUM_AMOUNT,
    }


def no_referrer(view):
    """The page's address carries the donor's token: no other site is told it
    (``Referrer-Policy: same-origin``), whatever the site's default becomes. Not
    ``no-referrer``: under it browsers send ``Origin: null`` with the page's own forms
    (cancelling a monthly gift), which Django's CSRF check refuses. The site's own access
    log records no Referer (deploy/nginx/portal.conf)."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        try:
            response = view(request, *args, **kwargs)
        except Http404 as error:  # an expired link's page has the token in its address too
            response = page_not_found(request, error)
        response["Referrer-Policy"] = "same-origin"
        return response

    return wrapped


@never_cache
@no_referrer
def thanks(request):
    """Says only what Stripe has reported about the gift its address names (never shared:
    it carries the donor's manage link, and its answer changes when Stripe reports)."""
    token = request.GET.get("gift", "")
    reference = signing.reference_from_token(token) if token else None
    donation = giving.find(reference) if reference else None
    context = {
        "donation": donation,
        "state": giving.payment_state(donation),
        "token": token if donation else "",
        "gift": donation.gifts.first() if donation else None,
    }
    return render(request, "donations/thanks.html", context)


def _donation_from_token(token: str) -> Donation:
    reference = signing.reference_from_token(token)
    donation = giving.find(reference) if reference else None
    if donation is None:
        raise Http404(
            "This link is not valid or has expired. Ask for a new one on the donation page."
        )
    return donation


@no_referrer
def manage(request, token):
    donation = _donation_from_token(token)
    status = 200
    if request.method == "POST" and request.POST.get("action") == "cancel":
        if request.POST.get("confirm") != "yes":
            messages.error(request, "Tick the box to confirm, then press the button again.")
            status = 400
        else:
            try:
                managing.cancel_monthly(donation)
            except managing.NotCancellable as reason:
                messages.error(request, str(reason))
                status = 400
            else:
                messages.success(
                    request,
                    "Your monthly gift is being cancelled: no further payment will be taken. "
                    "This page says “Cancelled” once Stripe confirms it.",
                )
                return redirect(request.path)
    elif request.method == "POST" and not donation.card_can_be_changed:
        messages.error(
            request, "This gift has no card to change: it is not a running monthly gift."
        )
        status = 400
    elif request.method == "POST":
        return_url = request.build_absolute_uri(request.path)
        try:
            return redirect(managing.portal_url(donation, return_url))
        except giving.PaymentServiceUnavailable:
            messages.error(
                request,
                "Stripe's page for managing gifts cannot be reached right now. "
                "Please try again in a few minutes.",
            )
    receipts = documents.receipt_numbers(donation)
    gifts = list(donation.gifts.prefetch_related("refunds", "disputes"))
    for gift in gifts:
        gift.receipt_number = receipts.get(gift.stripe_id, "")
    context = {
        "donation": donation,
        "gifts": gifts,
        "token": token,
        "statement_years": statements.years(donation),
    }
    return render(request, "donations/manage.html", context, status=status)


def _statement(token: str, year: int) -> statements.Statement:
    found = statements.statement(_donation_from_token(token), year)
    if found is None:
        raise Http404("This gift has no payment in that year.")
    return found


@no_referrer
def statement(request, token, year):
    """The donor's yearly statement of the gift the link is for: only a year money moved
    in has one."""
    found = _statement(token, year)
    context = {
        "statement": found,
        "token": token,
        "demo_notice": found.issuer.get("demo"),
        "notes": statements.NOTES,
    }
    return render(request, "donations/statement.html", context)


@no_referrer
def statement_pdf(request, token, year):
    found = _statement(token, year)
    response = HttpResponse(statements.statement_pdf(found), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="gifts-{year}.pdf"'
    return response


@no_referrer
def gift_receipt(request, token, gift_id):
    """The PDF receipt of one gift of the donation the link is for."""
    donation = _donation_from_token(token)
    gift = donation.gifts.filter(pk=gift_id).first()
    if gift is None:
        raise Http404("No such payment in this gift.")
    return pdf_response(documents.issue_receipt(gift))


def request_manage_link(request):
    form = ManageLinkForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        managing.request_manage_links(form.cleaned_data["email"])
        messages.success(
            request,
            "If we have gifts from that address, a message with their links is on its way.",
        )
        return redirect("donations:manage-request")
    return render(request, "donations/manage_request.html", {"form": form})


@login_required
def my_gifts(request):
    donations = Donation.objects.of_user(request.user).prefetch_related("gifts")
    entries = [(donation, signing.manage_token(donation.reference)) for donation in donations]
    return render(request, "donations/mine.html", {"entries": entries})


def _year(request) -> int:
    value = request.GET.get("year", "")
    this_year = timezone.localdate().year
    if not value:
        return this_year
    if not numbers.is_ascii_integer(value) or not 2000 <= int(value) <= this_year:
        raise Http404("No funding figures for that year.")
    return int(value)


def funding(request):
    year = _year(request)
    report = funding_report(year)
    return render(request, "donations/funding.html", {"report": report})


def funding_csv(request):
    """The page's monthly figures, one a row (``reports.monthly_export``)."""
    report = funding_report(_year(request))
    export = monthly_export(report)
    return opendata.csv_response(f"funding-{report.year}.csv", export["fields"], export["rows"])


def funding_years_csv(request):
    """The year's figures, one a row: a year can publish what its months withhold."""
    report = funding_report(_year(request))
    export = yearly_export(report)
    return opendata.csv_response(
        f"funding-{report.year}-year.csv", export["fields"], export["rows"]
    )


def funding_datapackage(request):
    """The Data Package of the funding downloads of a year: both CSVs with their schemas."""
    report = funding_report(_year(request))
    query = f"?year={report.year}"
    rule = withholding_rule(report.minimum)
    resources = [
        opendata.resource(
            f"funding-{report.year}-monthly",
            request.build_absolute_uri(reverse("donations:funding-csv") + query),
            f"Funding {report.year} by month",
            "Income by programme and spending by category, one figure per month; totals "
            f"are left to the reader. {rule}.",
            monthly_export(report)["fields"],
        ),
        opendata.resource(
            f"funding-{report.year}-year",
            request.build_absolute_uri(reverse("donations:funding-years-csv") + query),
            f"Funding {report.year}, the year",
            "The same figures for the whole year: a year's figure can be published where "
            f"its months are withheld, so it is not always the sum of the monthly file. {rule}.",
            yearly_export(report)["fields"],
        ),
    ]
    descriptor = opendata.package(
        f"mariadb-foundation-funding-{report.year}",
        f"MariaDB Foundation funding {report.year}",
        f"The figures of the funding page for {report.year}. Amounts are numbers in the "
        f"row's currency; months ISO 8601; an empty cell is the only missing value; {rule} "
        f"(amount empty, amount_withheld true). Licence: {LICENCE_STATEMENT}",
        resources,
        [LICENCE],
    )
    return opendata.descriptor_response(descriptor)
