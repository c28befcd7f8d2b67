import csv

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone

from donations import services, signing
from donations.forms import DonationForm, ManageLinkForm
from donations.models import Donation
from donations.reports import Cell, funding_report


def donate(request):
    form = DonationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        thanks = request.build_absolute_uri(reverse("donations:thanks"))
        try:
            url = services.start(
                email=data["email"],
                amount=data["amount"],
                currency=data["currency"],
                monthly=data["frequency"] == Donation.Frequency.MONTHLY,
                public_name=data["public_name"],
                show_on_wall=data["show_on_wall"],
                user=request.user,
                success_url=thanks + "?session={CHECKOUT_SESSION_ID}",
                cancel_url=request.build_absolute_uri(reverse("donations:donate")),
            )
        except services.PaymentServiceUnavailable:
            context = {"form": form, "unavailable": True, **_bounds()}
            return render(request, "donations/donate.html", context, status=503)
        return redirect(url)
    status = 400 if request.method == "POST" else 200
    context = {"form": form, **_bounds()}
    return render(request, "donations/donate.html", context, status=status)


def _bounds():
    return {
        "minimum": settings.DONATION_MINIMUM_AMOUNT,
        "maximum": settings.DONATION_MAXIMUM_AMOUNT,
    }


def thanks(request):
    return render(request, "donations/thanks.html")


def _donation_from_token(token: str) -> Donation:
    reference = signing.reference_from_token(token)
    donation = services.find(reference) if reference else None
    if donation is None:
        raise Http404("This link is not valid. Ask for a new one on the donation page.")
    return donation


def manage(request, token):
    donation = _donation_from_token(token)
    if request.method == "POST":
        return_url = request.build_absolute_uri(request.path)
        try:
            return redirect(services.portal_url(donation, return_url))
        except services.PaymentServiceUnavailable:
            messages.error(
                request,
                "Stripe's page for managing gifts cannot be reached right now. "
                "Please try again in a few minutes.",
            )
    context = {"donation": donation, "gifts": donation.gifts.all()}
    return render(request, "donations/manage.html", context)


def request_manage_link(request):
    form = ManageLinkForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        services.request_manage_links(form.cleaned_data["email"])
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
    if not value.isascii() or not value.isdigit() or not 2000 <= int(value) <= this_year:
        raise Http404("No funding figures for that year.")
    return int(value)


def funding(request):
    year = _year(request)
    report = funding_report(year)
    return render(request, "donations/funding.html", {"report": report})


def funding_csv(request):
    """The page's rows, one figure a line: the same months, programmes and categories,
    with "withheld" where the page withholds a figure."""
    report = funding_report(_year(request))
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="funding-{report.year}.csv"'
    writer = csv.writer(response)
    writer.writerow(["flow", "period", "currency", "category", "amount", "includes_demo_data"])
    for table in report.tables:
        for row, cells in [*table.display_rows, (table.year, table.display_year)]:
            demo = "yes" if (table.currency, row.key) in report.demo_periods else "no"
            for cell in cells:
                if cell.state != "none":
                    writer.writerow(
                        ["income", row.key, table.currency, cell.label, _csv_value(cell), demo]
                    )
            total = Cell("Total", row.total, "withheld" if row.total is None else "shown")
            writer.writerow(["income", row.key, table.currency, "Total", _csv_value(total), demo])
    for table in report.spending:
        for period, amounts, total in [*table.rows, (str(report.year), *table.year)]:
            demo = "yes" if (table.currency, period) in report.demo_spending_periods else "no"
            for label, amount in amounts:
                writer.writerow(["spending", period, table.currency, label, f"{amount:.2f}", demo])
            writer.writerow(["spending", period, table.currency, "Total", f"{total:.2f}", demo])
    return response


def _csv_value(cell: Cell) -> str:
    return f"{cell.value:.2f}" if cell.state == "shown" else "withheld"
