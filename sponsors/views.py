import logging
from decimal import Decimal
from functools import wraps
from typing import cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_POST
from django_countries.fields import Country

from core.transitions import TransitionRefused
from core.uploads import declared_body_size
from invoicing.links import public_url
from invoicing.models import IssuedDocument
from invoicing.pdf import pdf_response
from payments import stripe_js
from sponsors import agreements, documents, logos, supporters_cache
from sponsors.forms import (
    ApplicationForms,
    InviteForm,
    LogoForm,
    PriceConfirmationForm,
    ProfileForm,
    price_label,
)
from sponsors.models import Invitation, Organisation, Payment, Programme, Sponsorship, Tier
from sponsors.services import (
    applications,
    billing,
    lifecycle,
    moderation,
    organisations,
    paying,
    transitions,
)
from sponsors.terms import long_date

logger = logging.getLogger(__name__)

# A logo plus the other fields of its form; nginx has its own, larger limit.
LOGO_REQUEST_LIMIT = logos.MAX_BYTES + 64 * 1024


def refuse_oversized_logo(redirect_to):
    """Refuse a logo upload by its declared length before a byte of the body is read.

    The CSRF check reads the body, so it runs after this one; a refused request changes
    nothing. Django reads no body whose length it is not told. The unread body is read
    and dropped after the answer (core.uploads.DrainRequestBodyMiddleware), so nginx's
    connection to gunicorn stays usable for the next request.
    """

    def decorator(view):
        protected = csrf_protect(view)

        @csrf_exempt
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            length = declared_body_size(request)
            if request.method == "POST" and length > LOGO_REQUEST_LIMIT:
                messages.error(
                    request,
                    f"The upload is {length // 1024} KiB; "
                    f"a logo may be up to {logos.MAX_BYTES // 1024} KiB.",
                )
                return redirect(redirect_to(request, *args, **kwargs))
            return protected(request, *args, **kwargs)

        return wrapper

    return decorator


def programmes(request):
    context = {
        "programmes": Programme.objects.prefetch_related("tiers"),
        "tiers": Tier.objects.offered(),
        "demo": Payment.objects.demo().exists(),
        # what the prices hold of VAT: the issuer's rate where it is due (invoicing.vat)
        "vat_rate": Decimal(settings.INVOICE_VAT_RATE).normalize(),
        "issuer_country": Country(settings.INVOICE_ISSUER_COUNTRY).name,
    }
    return render(request, "sponsors/programmes.html", context)


def supporters(request):
    html = cache.get(supporters_cache.SUPPORTERS_CACHE_KEY)
    if html is None:
        active = Sponsorship.objects.on_supporters_page().select_related(
            "organisation", "tier__programme"
        )
        groups: dict[Tier, list[Sponsorship]] = {}
        for sponsorship in active:
            groups.setdefault(sponsorship.tier, []).append(sponsorship)
        html = render(
            request, "sponsors/includes/supporters_body.html", {"groups": groups.items()}
        ).content.decode()
        cache.set(supporters_cache.SUPPORTERS_CACHE_KEY, html, timeout=3600)
    context = {"body": html, "demo": Payment.objects.demo().exists()}
    return render(request, "sponsors/supporters.html", context)


@refuse_oversized_logo(lambda request, tier_id: request.path)
def apply(request, tier_id):
    tier = get_object_or_404(Tier.objects.offered(), pk=tier_id)
    if not request.user.is_authenticated:
        # Say what comes next (an account, then the application) before any sign-in form.
        if request.method == "POST":
            return redirect_to_login(request.get_full_path())
        context = {"tier": tier, "next": request.get_full_path()}
        return render(request, "sponsors/apply_start.html", context)
    agreement = applications.current_agreement(tier)
    forms = ApplicationForms(request, agreement_version=agreement.version)
    if request.method == "POST" and forms.form.is_valid():
        recorded = _record_application(request, tier, forms)
        if recorded is not None:
            return recorded
    if request.method == "POST":
        forms.keep_logo()
    context = {
        "tier": tier,
        "form": forms.form,
        "organisation_form": forms.organisation_form,
        "held_logo": forms.held,
        "new_organisation_hidden": not forms.for_new_organisation,
        "agreement": agreement,
        "shown_payment": forms.form.shown_payment(),
        # One text per way to pay; the page shows the one chosen (apply.js swaps them).
        "agreement_texts": agreements.previews(agreement.text, tier.terms()),
        "benefit_items": tier.benefit_items.all(),
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "sponsors/apply.html", context, status=status)


def _record_application(request, tier, forms):
    """Record the application (creating the organisation if it is new): the answer that
    says what comes next, or None when refused (the forms say why)."""
    organisation = forms.form.cleaned_data["organisation"]
    if organisation is None:
        fields = forms.organisation_fields()
        if fields is None:
            return None
        try:
            organisation = organisations.create_organisation(
                request.user, logo_height=tier.logo_height, **fields
            )
        except ValidationError as error:
            forms.organisation_form.add_error("logo_upload", error)
            return None
    try:
        sponsorship = applications.apply(
            organisation,
            tier,
            forms.form.cleaned_data["payment_method"],
            request.user,
            agreement_version=forms.form.cleaned_data["agreement_version"],
        )
    except transitions.TierFull as error:
        messages.error(request, str(error))
        return redirect("sponsors:programmes")
    except applications.AgreementChanged as error:  # changed in the last instant
        forms.form.add_error(None, str(error))
        return None
    if sponsorship.payment_method == Sponsorship.Payment.INVOICE:
        messages.success(
            request, "Thank you! We will send an invoice to the billing contact once staff approve."
        )
        return redirect("sponsors:dashboard")
    return redirect("sponsors:pay", pk=sponsorship.pk)


@login_required
def agreement_pdf(request, pk):
    """The agreement the sponsor accepted: for its organisation's managers, and for staff
    who may view sponsorships (linked from the sponsorship's admin page)."""
    if request.user.is_staff and request.user.has_perm("sponsors.view_sponsorship"):
        sponsorship = get_object_or_404(
            Sponsorship.objects.select_related("organisation", "tier"), pk=pk
        )
    else:
        sponsorship = _own_sponsorship(request, pk)
    if sponsorship.accepted_at is None:
        raise Http404("No agreement was accepted for this sponsorship.")
    return _pdf_response(documents.agreement_pdf(sponsorship), f"agreement-{sponsorship.pk}.pdf")


@login_required
def payment_pdf(request, pk):
    payment = get_object_or_404(
        Payment.objects.filter(sponsorship__organisation__managers=request.user),
        pk=pk,
    )
    # The proxy's manager gives proxies; the stubs type them as the payments app's model.
    return pdf_response(documents.issue_receipt(cast(Payment, payment)))


@login_required
def document_pdf(request, pk, number):
    """Any invoice or receipt issued for the sponsorship, by its number."""
    sponsorship = _own_sponsorship(request, pk)
    issued = IssuedDocument.objects.about(sponsorship)
    return pdf_response(get_object_or_404(issued, number=number))


def _pdf_response(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _own_sponsorship(request, pk):
    return get_object_or_404(
        Sponsorship.objects.for_user(request.user).select_related("organisation", "tier"), pk=pk
    )


def _own_organisation(request, pk):
    return get_object_or_404(Organisation.objects.managed_by(request.user), pk=pk)


def _invoice_notice(sponsorship) -> str:
    """Where the invoice of a sponsorship paid by invoice is."""
    if sponsorship.stripe_invoice_id:
        when = "was sent to the billing contact; it is on your dashboard too"
    elif sponsorship.status == Sponsorship.Status.AWAITING_PAYMENT:
        when = "is being issued for the billing contact"
    else:
        when = "goes to the billing contact once staff approve"
    return f"This sponsorship is paid by invoice: the invoice {when}."


def _needs_no_card(sponsorship) -> str:
    """Why the sponsorship is not paid by card now ("" when it is)."""
    if sponsorship.is_paid or sponsorship.status not in transitions.PAYABLE:
        return "This sponsorship needs no payment now."
    if sponsorship.payment_method == Sponsorship.Payment.INVOICE:
        return _invoice_notice(sponsorship)
    return ""


@login_required
def pay(request, pk):
    """The card element (Stripe.js) and the button; the page's script pays through
    ``pay_card``."""
    sponsorship = _own_sponsorship(request, pk)
    reason = _needs_no_card(sponsorship)
    if reason:
        messages.info(request, reason)
        return redirect("sponsors:dashboard")
    context = {
        "sponsorship": sponsorship,
        "price": PriceConfirmationForm(sponsorship=sponsorship),
        "price_label": price_label(sponsorship),
        "invoice_wording": agreements.payment_words()[Sponsorship.Payment.INVOICE],
        **stripe_js.page_context(),
    }
    return stripe_js.allow(render(request, "sponsors/pay.html", context))


@require_POST
@login_required
def pay_card(request, pk):
    """The pay page's script, one step at a time (sponsors.services.paying): JSON."""
    sponsorship = _own_sponsorship(request, pk)
    reason = _needs_no_card(sponsorship)
    if reason:
        messages.info(request, reason)
        return stripe_js.go_to(reverse("sponsors:dashboard"))
    return _card_step(request, sponsorship, renewal=False)


def _card_step(request, sponsorship, *, renewal: bool):
    """One step of a card payment (the first term, or a renewal's next term): JSON."""
    dashboard = reverse("sponsors:dashboard")
    price = PriceConfirmationForm(request.POST, sponsorship=sponsorship, renewal=renewal)
    if not price.is_valid():
        return stripe_js.refuse(" ".join(price.non_field_errors()), status=409)  # type: ignore[arg-type]  # ErrorList yields its messages
    stage = request.POST.get("stage")
    try:
        if stage == "setup":
            started = paying.start(sponsorship, renewal=renewal)
            return JsonResponse({"client_secret": started["client_secret"]})
        if stage == "pay":
            attempt = paying.pay(sponsorship, request.POST.get("setup_intent", ""), renewal)
        elif stage == "check":
            attempt = paying.check(sponsorship, renewal)
        else:
            return stripe_js.refuse("Unknown step.")
    except paying.StripeUnavailable as failure:
        return stripe_js.refuse(str(failure), status=503, offer_invoice=True)
    except paying.NotPayable as failure:
        messages.info(request, str(failure))
        return stripe_js.go_to(dashboard)
    except paying.PaymentFailed as failure:
        return stripe_js.refuse(str(failure), status=409)
    label = price_label(sponsorship, renewal=renewal)
    if attempt.status == "succeeded":
        shown = "the receipt" if renewal else "“Paid”"
        messages.success(
            request,
            f"Thank you: Stripe accepted the payment of {label}. The dashboard shows "
            f"{shown} as soon as Stripe's confirmation reaches us.",
        )
    elif attempt.status == "processing":
        messages.info(
            request,
            f"Stripe is processing the payment of {label}: the dashboard shows it once it "
            "is through.",
        )
    return stripe_js.answer(attempt, dashboard)


@require_POST
@login_required
def pay_by_invoice(request, pk):
    sponsorship = _own_sponsorship(request, pk)
    try:
        sponsorship = billing.pay_by_invoice_instead(sponsorship, request.user)
    except TransitionRefused as error:
        messages.info(request, str(error))
    else:
        when = "now" if sponsorship.status == "awaiting_payment" else "once staff approve"
        messages.success(request, f"Thank you! An invoice is sent to the billing contact {when}.")
    return redirect("sponsors:dashboard")


@login_required
def dashboard(request):
    managed = list(
        Organisation.objects.managed_by(request.user).prefetch_related(
            "sponsorships__payments__refunds",
            "sponsorships__payments__disputes",
            "sponsorships__paid_terms__payment",
            "sponsorships__events",
            "sponsorships__tier__benefit_items",
            "sponsorships__agreement",
            "sponsorships__accepted_by",
        )
    )
    _with_documents([s for org in managed for s in org.sponsorships.all()])
    return render(request, "sponsors/dashboard.html", {"organisations": managed})


def _with_documents(sponsorships) -> None:
    """Each sponsorship with its documents listed (open invoices first) and its open
    invoices, for the dashboard and the organisation page."""
    documents.attach_documents(sponsorships)
    for sponsorship in sponsorships:
        sponsorship.listed = documents.listing(sponsorship)
        sponsorship.open_invoices = documents.open_invoices(sponsorship)


@login_required
def organisation(request, pk):
    return _organisation_page(request, _own_organisation(request, pk))


def _organisation_page(request, org, profile_form=None, status=200):
    """The organisation's page; ``profile_form`` brings back a refused profile change as
    typed, with its errors beside its fields."""
    sponsorships = list(
        org.sponsorships.prefetch_related(
            "payments__refunds",
            "payments__disputes",
            "paid_terms__payment",
            "events",
            "tier__benefit_items",
        ).select_related("tier", "agreement", "accepted_by")
    )
    _with_documents(sponsorships)
    for sponsorship in sponsorships:
        sponsorship.undo_until = lifecycle.undo_deadline(sponsorship)
        sponsorship.renewable = lifecycle.renewable(sponsorship)
    context = {
        "organisation": org,
        "sponsorships": sponsorships,
        "profile_form": profile_form
        or ProfileForm(
            initial={"name": org.name, "website": org.website, "description": org.description}
        ),
        "logo_form": LogoForm(),
        "invite_form": InviteForm(),
        "managers": org.managers.all(),
    }
    return render(request, "sponsors/organisation.html", context, status=status)


@require_POST
@login_required
def edit_profile(request, pk):
    org = _own_organisation(request, pk)
    form = ProfileForm(request.POST)
    if form.is_valid():
        if moderation.propose_profile_change(org, **form.cleaned_data):
            messages.success(
                request, "Thank you: staff will review the change before it appears publicly."
            )
        else:
            messages.info(request, "Nothing to review: the public profile already says this.")
        return redirect(org.get_absolute_url())
    messages.error(request, "The profile was not changed: please correct the fields marked below.")
    return _organisation_page(request, org, profile_form=form, status=400)


@require_POST
@login_required
@refuse_oversized_logo(lambda request, pk: reverse("sponsors:organisation", args=[pk]))
def upload_logo(request, pk):
    org = _own_organisation(request, pk)
    form = LogoForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            organisations.store_logo(org, form.cleaned_data["logo"])
            messages.success(request, "The logo was updated.")
        except ValidationError as error:
            # Refused: the organisation's page again, with the reason, as a 400.
            messages.error(request, " ".join(error.messages))
            response = organisation(request, pk)
            response.status_code = 400
            return response
    else:
        messages.error(request, "Choose a logo file to upload.")
    return redirect(org.get_absolute_url())


@require_POST
@login_required
def invite(request, pk):
    org = _own_organisation(request, pk)
    form = InviteForm(request.POST)
    if form.is_valid():
        try:
            invitation = organisations.invite(org, form.cleaned_data["email"], request.user)
        except transitions.SponsorshipError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, f"Invitation sent to {invitation.email}.")
    else:
        messages.error(request, "Enter a valid email address.")
    return redirect(org.get_absolute_url())


@login_required
def accept_invitation(request, token):
    invitation = get_object_or_404(Invitation, token=token)
    try:
        organisations.accept_invitation(invitation, request.user)
    except transitions.SponsorshipError as error:
        messages.error(request, str(error))
        return redirect("sponsors:dashboard")
    messages.success(request, f"You now manage {invitation.organisation.name}.")
    return redirect(invitation.organisation.get_absolute_url())


@login_required
def cancel(request, pk):
    """GET: what cancelling will do, and a button to confirm. POST: do it."""
    sponsorship = _own_sponsorship(request, pk)
    back = sponsorship.organisation.get_absolute_url()
    if not sponsorship.is_open:
        messages.info(request, "This sponsorship is already closed.")
        return redirect(back)
    if sponsorship.in_term:
        return _stop_renewal(request, sponsorship, back)
    withdrawal = lifecycle.is_withdrawal(sponsorship)
    if request.method != "POST":
        context = {
            "sponsorship": sponsorship,
            "withdrawal": withdrawal,
            "undo_minutes": settings.SPONSORSHIP_UNDO_MINUTES,
            "back": back,
        }
        return render(request, "sponsors/confirm_cancel.html", context)
    try:
        withdrawal = lifecycle.cancel_by_sponsor(sponsorship, request.user)
    except TransitionRefused as error:
        messages.error(request, str(error))
        return redirect(back)
    minutes = settings.SPONSORSHIP_UNDO_MINUTES
    if withdrawal:
        messages.success(
            request,
            f"Your application for {sponsorship.terms['tier']} was withdrawn. "
            f"You can undo this for {minutes} minutes below.",
        )
    else:
        messages.success(
            request,
            f"The {sponsorship.terms['tier']} sponsorship was cancelled: it no longer appears "
            f"on the supporters page and will not renew. You can undo this for {minutes} "
            "minutes below.",
        )
    return redirect(back)


def _stop_renewal(request, sponsorship, back):
    """A running, paid year: "cancel" stops its renewal; it stays listed until its end."""
    if request.method != "POST":
        context = {
            "sponsorship": sponsorship,
            "stop_renewal": True,
            "back": back,
            "undo_minutes": settings.SPONSORSHIP_UNDO_MINUTES,
        }
        return render(request, "sponsors/confirm_cancel.html", context)
    try:
        lifecycle.stop_renewal(sponsorship, request.user)
    except TransitionRefused as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            f"The {sponsorship.terms['tier']} sponsorship will not renew. It stays on the "
            f"supporters page, with every benefit, until {long_date(sponsorship.ends_on)}.",
        )
    return redirect(back)


@require_POST
@login_required
def resume_renewal(request, pk):
    sponsorship = _own_sponsorship(request, pk)
    try:
        lifecycle.resume_renewal(sponsorship, request.user)
    except TransitionRefused as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request, "The renewal is back, as it was: a mail confirms it to the billing contact."
        )
    return redirect(sponsorship.organisation.get_absolute_url())


def _renewal_sponsorship(request, pk):
    sponsorship = _own_sponsorship(request, pk)
    _with_documents([sponsorship])
    return sponsorship


@login_required
def renew(request, pk):
    """Renew for the next term (the renewal reminder links here), the way the sponsor pays:
    by card on this page (Stripe.js) for a card payer, or by an invoice sent to the billing
    contact. An invoice already open is shown with how to pay it, never a second one."""
    sponsorship = _renewal_sponsorship(request, pk)
    context = {"sponsorship": sponsorship, "next_term": sponsorship.next_term}
    if sponsorship.open_invoices:
        invoice = sponsorship.open_invoices[0]
        context.update(invoice=invoice, invoice_term=documents.term_of(invoice))
        context["invoice_page"] = public_url(invoice)
        return render(request, "sponsors/renew.html", context)
    if sponsorship.renewal_invoice_requested_for:
        return render(request, "sponsors/renew.html", context)
    if not lifecycle.renewable(sponsorship):
        if sponsorship.renews_by_card:
            why = "This sponsorship renews by card on its own."
        elif sponsorship.terms_ahead:
            why = f"The next term, {sponsorship.terms_ahead[0]}, is paid already."
        else:
            why = "Only a running sponsorship can be renewed: apply again from the programmes page."
        messages.info(request, why)
        return redirect("sponsors:dashboard")
    if request.method != "POST":
        by_card = sponsorship.payment_method != Sponsorship.Payment.INVOICE
        context.update(by_card=by_card, renewal_stopped=bool(sponsorship.renewal_stopped_at))
        if by_card:
            context.update(
                price=PriceConfirmationForm(sponsorship=sponsorship, renewal=True),
                price_label=price_label(sponsorship, renewal=True),
                **stripe_js.page_context(),
            )
            return stripe_js.allow(render(request, "sponsors/renew.html", context))
        return render(request, "sponsors/renew.html", context)
    try:
        billing.renew(sponsorship, request.user)
    except TransitionRefused as error:
        messages.error(request, str(error))
        return redirect("sponsors:renew", pk=sponsorship.pk)
    messages.success(
        request,
        f"Thank you! The invoice for the next term, {sponsorship.next_term}, is being issued "
        f"and sent to {sponsorship.organisation.billing_email}; it is listed here as soon as "
        "it is.",
    )
    return redirect("sponsors:dashboard")


@require_POST
@login_required
def renew_card(request, pk):
    """The renewal page's card script, one step at a time: the next term by card. JSON."""
    sponsorship = _own_sponsorship(request, pk)
    return _card_step(request, sponsorship, renewal=True)


@require_POST
@login_required
def undo_cancel(request, pk):
    sponsorship = _own_sponsorship(request, pk)
    try:
        sponsorship = lifecycle.undo_cancel(sponsorship, request.user)
    except (TransitionRefused, transitions.TierFull) as error:
        messages.error(request, str(error))
    else:
        what = "application" if sponsorship.nothing_paid else "sponsorship"
        messages.success(request, f"Your {what} is back, exactly as it was.")
    return redirect(sponsorship.organisation.get_absolute_url())


@login_required
def remove_logo(request, pk):
    org = _own_organisation(request, pk)
    if not org.logo:
        messages.info(request, "There is no logo to remove.")
        return redirect(org.get_absolute_url())
    if request.method != "POST":
        return render(request, "sponsors/confirm_remove_logo.html", {"organisation": org})
    organisations.remove_logo(org)
    messages.success(
        request,
        "The logo was removed. The supporters page shows your name as a wordmark until you "
        "upload a new one.",
    )
    return redirect(org.get_absolute_url())
