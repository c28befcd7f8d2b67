import csv

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone

from donations import documents, services, signing
from donations.forms import DonationForm, ManageLinkForm
from donations.models import Donation
from donations.reports import Cell, funding_report
from payments.forms import CardForm
from payments.gateway import fake_mode


def donate(request):
    card_mode = fake_mode()  # localstripe has no Checkout: the test card is typed here
    sent = request.POST if request.method == "POST" else None
    form = DonationForm(sent, card_mode=card_mode)
    card = CardForm(sent, prefix="card") if card_mode else None
    context = {"form": form, "card": card, **_bounds()}
    if request.method == "POST" and form.is_valid() and (card is None or card.is_valid()):
        data = form.cleaned_data
        gift = {
            "email": data["email"],
            "amount": data["amount"],
            "currency": data["currency"],
            "monthly": data["frequency"] == Donation.Frequency.MONTHLY,
            "public_name": data["public_name"],
            "show_on_wall": data["show_on_wall"],
            "user": request.user,
        }
        thanks = request.build_absolute_uri(reverse("donations:thanks"))
        try:
            if card is None:
                return redirect(
                    services.start(
                        **gift,
                        thanks=thanks,
                        cancel_url=request.build_absolute_uri(reverse("donations:donate")),
                    )
                )
            donation = services.give_by_card(**gift, card=card.card())
            return redirect(services.thanks_url(thanks, donation.reference))
        except services.PaymentServiceUnavailable:
            context["unavailable"] = True
            return render(request, "donations/donate.html", context, status=503)
        except services.CardRefused as refusal:
            card.add_error(None, f"The payment did not go through: {refusal} Nothing was taken.")
    status = 400 if request.method == "POST" else 200
    return render(request, "donations/donate.html", context, status=status)


def _bounds():
    return {
        "minimum": settings.DONATION_MINIMUM_AMOUNT,
        "maximum": settings.DONATION_MAXIMUM_AMOUNT,
    }


def thanks(request):
    """Says only what Stripe has reported about the gift its address names."""
    token = request.GET.get("gift", "")
    reference = signing.reference_from_token(token) if token else None
    donation = services.find(reference) if reference else None
    context = {
        "donation": donation,
        "state": services.payment_state(donation),
        "token": token if donation else "",
        "gift": donation.gifts.first() if donation else None,
    }
    return render(request, "donations/thanks.html", context)


def _donation_from_token(token: str) -> Donation:
    reference = signing.reference_from_token(token)
    donation = services.find(reference) if reference else None
    if donation is None:
        raise Http404("This link is not valid. Ask for a new one on the donation page.")
    return donation


def manage(request, token):
    donation = _donation_from_token(token)
    status = 200
    if request.method == "POST" and request.POST.get("action") == "cancel":
        if request.POST.get("confirm") != "yes":
            messages.error(request, "Tick the box to confirm, then press the button again.")
            status = 400
        else:
            try:
                services.cancel_monthly(donation)
            except services.NotCancellable as reason:
                messages.error(request, str(reason))
                status = 400
            else:
                messages.success(
                    request,
                    "Your monthly gift is being cancelled: no further payment will be taken. "
                    "This page says “Cancelled” once Stripe confirms it.",
                )
                return redirect(request.path)
    elif request.method == "POST" and not fake_mode():
        return_url = request.build_absolute_uri(request.path)
        try:
            return redirect(services.portal_url(donation, return_url))
        except services.PaymentServiceUnavailable:
            messages.error(
                request,
                "Stripe's page for managing gifts cannot be reached right now. "
                "Please try again in a few minutes.",
            )
    context = {
        "donation": donation,
        "gifts": donation.gifts.all(),
        "token": token,
        "portal": not fake_mode(),
    }
    return render(request, "donations/manage.html", context, status=status)


def gift_receipt(request, token, gift_id):
    """The PDF receipt of one gift of the donation the link is for."""
    donation = _donation_from_token(token)
    gift = donation.gifts.filter(pk=gift_id).first()
    if gift is None:
        raise Http404("No such payment in this gift.")
    response = HttpResponse(documents.gift_pdf(gift), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="receipt-{gift.pk}.pdf"'
    return response


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
