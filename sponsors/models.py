import secrets
from dataclasses import dataclass
from typing import Any, ClassVar, cast
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.contenttypes.fields import GenericRelation
from django.db import models
from django.db.models import Exists, Max, OuterRef, Subquery
from django.urls import reverse
from django.utils import timezone
from django_countries.fields import CountryField

from core.transitions import verb
from payments.models import STRIPE_ID_MAX_LENGTH, PaymentQuerySet
from payments.models import Payment as LedgerPayment
from payments.money import from_minor_units
from sponsors.terms import ONE_DAY, Term


class Programme(models.Model):
    class Kind(models.TextChoices):
        SPONSOR = "sponsor", "Commercial sponsor"
        MEMBER = "member", "Commercial member"

    kind = models.CharField(max_length=10, choices=Kind.choices, unique=True)
    name = models.CharField(max_length=80)
    description = models.TextField(blank=True, help_text="Markdown")
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["order"]

    def __str__(self):
        return self.name


class TierQuerySet(models.QuerySet):
    def offered(self, year=None):
        """The active tiers of the price list offered to new applications."""
        year = year or self.offered_year()
        return self.filter(is_active=True, year=year).select_related("programme")

    def offered_year(self) -> int:
        """The price list offered: SPONSORSHIP_YEAR, or else the latest one with active tiers
        that is not ahead of the calendar (so the catalogue does not empty on 1 January
        before staff publish the new prices). A price list never names a term."""
        if settings.SPONSORSHIP_YEAR:
            return settings.SPONSORSHIP_YEAR
        this_year = timezone.localdate().year
        latest = self.filter(is_active=True, year__lte=this_year).aggregate(latest=Max("year"))[
            "latest"
        ]
        return latest or this_year


def current_year():
    """A new tier's price-list year, by default: the one offered when set, else this year."""
    return settings.SPONSORSHIP_YEAR or timezone.localdate().year


def tier_title(tier: str, programme: str) -> str:
    """ "Gold sponsor"; a tier already named for its programme stays "Corporate member"."""
    if tier.lower().split()[-1:] == [programme.lower()]:
        return tier
    return f"{tier} {programme}"


class Tier(models.Model):
    programme = models.ForeignKey(Programme, on_delete=models.PROTECT, related_name="tiers")
    name = models.CharField(max_length=60)
    slug = models.SlugField(max_length=60)
    year = models.PositiveSmallIntegerField(default=current_year)
    annual_price = models.DecimalField(max_digits=10, decimal_places=2)
    currency = models.CharField(max_length=3, default="EUR")
    logo_height = models.PositiveSmallIntegerField(
        default=60, help_text="Logo height on the supporters page, px"
    )
    placement = models.CharField(
        max_length=120, blank=True, help_text="e.g. supporters page and home page"
    )
    advisory_seat = models.BooleanField(default=False, help_text="A seat on the advisory list")
    benefits = models.TextField(blank=True, help_text="Markdown list of benefits")
    capacity = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Empty: no limit")
    order = models.PositiveSmallIntegerField(default=0)
    is_active = models.BooleanField(default=True)
    stripe_plan_id = models.CharField(max_length=STRIPE_ID_MAX_LENGTH, blank=True, editable=False)

    objects = TierQuerySet.as_manager()

    class Meta:
        ordering = ["programme__order", "order"]
        constraints = [
            models.UniqueConstraint(
                fields=["programme", "slug", "year"], name="unique_tier_per_year"
            )
        ]

    def __str__(self):
        return f"{self.name} {self.programme.get_kind_display().lower()} ({self.year})"

    @property
    def plural_title(self) -> str:
        """The heading over its supporters: "Gold sponsors", "Corporate members"."""
        return tier_title(self.name, self.programme.kind) + "s"

    def terms(self) -> dict[str, Any]:
        """What a sponsorship copies when it is applied for."""
        return {
            "programme": self.programme.kind,
            "tier": self.name,
            "year": self.year,
            "annual_price": str(self.annual_price),
            "currency": self.currency,
            "logo_height": self.logo_height,
            "placement": self.placement,
            "advisory_seat": self.advisory_seat,
            "benefits": self.benefits,
        }


class AgreementTemplate(models.Model):
    """The sponsorship agreement of one tier (and so one year), versioned: staff editing it
    in the admin make a new version, so an accepted version never changes."""

    tier = models.ForeignKey(Tier, on_delete=models.PROTECT, related_name="agreements")
    version = models.PositiveSmallIntegerField(editable=False)
    text = models.TextField(
        help_text="Markdown. Placeholders: {organisation}, {tier}, {programme}, {price}, "
        "{payment}, and {year}: the price list's year, never a term (the terms paid, named "
        "by their dates, are listed with the agreement)"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["tier", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["tier", "version"], name="one_agreement_version")
        ]

    def __str__(self):
        return f"Agreement for {self.tier}, version {self.version}"


class OrganisationQuerySet(models.QuerySet):
    def managed_by(self, user):
        return self.filter(managers=user)


# Domains reserved for examples (RFC 2606): an address there is nobody's real website.
EXAMPLE_DOMAINS = ("example.com", "example.net", "example.org")


class Organisation(models.Model):
    name = models.CharField(max_length=120)
    website = models.URLField(blank=True, help_text="Empty when not known")
    description = models.TextField(blank=True, max_length=1000)
    logo = models.FileField(upload_to="sponsors/logos/", blank=True)
    logo_thumbnail = models.ImageField(upload_to="sponsors/thumbnails/", blank=True)
    billing_name = models.CharField(max_length=120)
    billing_email = models.EmailField()
    billing_address = models.TextField(
        blank=True, max_length=500, help_text="Postal address for invoices and the agreement"
    )
    billing_country = CountryField(
        blank=True, help_text="Decides the VAT of its invoices, with the VAT id"
    )
    contact_name = models.CharField(
        max_length=120, blank=True, help_text="Who the foundation talks to about the sponsorship"
    )
    contact_email = models.EmailField(blank=True)
    vat_id = models.CharField(max_length=30, blank=True, verbose_name="VAT id")
    managers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="organisations")
    pending_changes = models.JSONField(
        default=dict, blank=True, help_text="Public profile edits awaiting approval"
    )
    stripe_customer_id = models.CharField(max_length=STRIPE_ID_MAX_LENGTH, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = OrganisationQuerySet.as_manager()

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("sponsors:organisation", kwargs={"pk": self.pk})

    @property
    def public_website(self) -> str:
        """The website to link to, or "" when it is unknown or only an example address."""
        host = (urlsplit(self.website).hostname or "").lower()
        if not host or any(host == d or host.endswith("." + d) for d in EXAMPLE_DOMAINS):
            return ""
        return self.website


class SponsorshipQuerySet(models.QuerySet):
    def for_user(self, user):
        return self.filter(organisation__managers=user)

    def open(self):
        """Sponsorships that hold a place in their tier and can still be cancelled."""
        return self.exclude(status__in=Sponsorship.CLOSED_STATUSES)

    def latest_payment_returned(self):
        """Sponsorships whose latest payment (the one paying for the current term) went
        back in full: refunded, or taken by a lost dispute."""
        latest = LedgerPayment.objects.for_outer(self.model).order_by("-paid_at", "-id")
        returned = LedgerPayment.objects.returned_in_full().filter(pk=OuterRef("latest_payment"))
        return self.annotate(latest_payment=Subquery(latest.values("pk")[:1])).filter(
            Exists(returned)
        )

    def on_supporters_page(self):
        """Active and expiring sponsorships, highest tiers first, then by name; not one
        whose payment for the term was refunded in full (staff then end it)."""
        return (
            self.filter(status__in=[Sponsorship.Status.ACTIVE, Sponsorship.Status.EXPIRING])
            .exclude(pk__in=self.latest_payment_returned().values("pk"))
            .order_by("tier__programme__order", "tier__order", "organisation__name")
        )


class Sponsorship(models.Model):
    class Status(models.TextChoices):
        APPLIED = "applied", "Applied"
        APPROVED = "approved", "Approved"
        REJECTED = "rejected", "Rejected"
        AWAITING_PAYMENT = "awaiting_payment", "Awaiting payment"
        ACTIVE = "active", "Active"
        EXPIRING = "expiring", "Expiring soon"
        LAPSED = "lapsed", "Lapsed"
        CANCELLED = "cancelled", "Cancelled"

    CLOSED_STATUSES = (Status.REJECTED, Status.CANCELLED, Status.LAPSED)
    OPEN_STATUSES = (
        Status.APPLIED,
        Status.APPROVED,
        Status.AWAITING_PAYMENT,
        Status.ACTIVE,
        Status.EXPIRING,
    )
    # How a sponsorship moves (core.transitions.apply, each move a SponsorshipEvent): staff
    # approve or reject an application; approved, it awaits payment, or is active at once
    # when paid first; a running one falls due for renewal, is renewed by a payment or
    # lapses; any open one is cancelled, and the sponsor's undo puts it back where it was.
    VERBS = {
        "approve": verb(Status.APPLIED, to=Status.APPROVED),
        "reject": verb(Status.APPLIED, to=Status.REJECTED),
        "await_payment": verb(Status.APPROVED, to=Status.AWAITING_PAYMENT),
        "activate": verb(Status.APPROVED, Status.AWAITING_PAYMENT, to=Status.ACTIVE),
        "renewal_due": verb(Status.ACTIVE, to=Status.EXPIRING),
        "renew": verb(Status.EXPIRING, Status.LAPSED, to=Status.ACTIVE),
        "lapse": verb(Status.ACTIVE, Status.EXPIRING, to=Status.LAPSED),
        "cancel": verb(*OPEN_STATUSES, to=Status.CANCELLED),
        "undo_cancel": verb(Status.CANCELLED, to=OPEN_STATUSES),
    }

    class Payment(models.TextChoices):
        CARD_ANNUAL = "card_annual", "Card, renewed every year"
        CARD_ONCE = "card_once", "Card, one year"
        INVOICE = "invoice", "Invoice to the billing contact"

    organisation = models.ForeignKey(
        Organisation, on_delete=models.PROTECT, related_name="sponsorships"
    )
    tier = models.ForeignKey(Tier, on_delete=models.PROTECT, related_name="sponsorships")
    terms = models.JSONField(help_text="The tier's terms when the application was made")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.APPLIED)
    payment_method = models.CharField(max_length=12, choices=Payment.choices)
    paid_at = models.DateTimeField(null=True, blank=True)
    # Its payments, kept by the payments app (refunds and disputes hang from them).
    payments = GenericRelation("sponsors.Payment", related_query_name="sponsorship")
    # The paid time: the first day of its first term and the last day of its last term
    # (both included), kept by the terms its payments bought (``PaidTerm``).
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True, help_text="The last day paid for")
    reminders_sent = models.JSONField(default=list, blank=True)
    renewal_stopped_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="The sponsor stopped the renewal: listed, with every benefit, until the "
        "paid term ends, then cancelled",
    )
    stripe_subscription_id = models.CharField(
        max_length=STRIPE_ID_MAX_LENGTH, blank=True, db_index=True
    )
    stripe_payment_intent_id = models.CharField(
        max_length=STRIPE_ID_MAX_LENGTH, blank=True, db_index=True
    )
    # The latest invoice Stripe issued for a sponsorship paid by invoice (none until then).
    stripe_invoice_id = models.CharField(max_length=STRIPE_ID_MAX_LENGTH, blank=True)
    invoice_number = models.CharField(max_length=64, blank=True)
    invoice_due_on = models.DateField(null=True, blank=True)
    invoice_url = models.URLField(
        max_length=500, blank=True, help_text="Stripe's page where the invoice is paid"
    )
    renewal_invoice_requested_for = models.DateField(
        null=True,
        blank=True,
        help_text="The sponsor asked for the invoice of the term starting on this day; "
        "empty once it is issued",
    )
    agreement = models.ForeignKey(
        AgreementTemplate,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="sponsorships",
        help_text="The version accepted",
    )
    agreement_text = models.TextField(blank=True, help_text="The agreement as accepted")
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    accepted_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = SponsorshipQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.organisation}: {self.title} ({self.get_status_display()})"

    @property
    def title(self) -> str:
        """What was applied for, as agreed: "Gold sponsor". A term is named by its dates
        (``current_term``), never by the year of the price list."""
        terms = self.terms
        return tier_title(terms["tier"], terms["programme"])

    def kept_terms(self) -> list[Term]:
        """The terms its payments bought and it kept, in order. A sponsorship whose paid
        time was set without a payment record has that time as its one term."""
        rows = list(self.paid_terms.all())
        kept = [row.term for row in rows if row.kept]
        if not rows and self.starts_on and self.ends_on:
            kept = [Term(self.starts_on, self.ends_on)]
        return sorted(kept)

    @property
    def current_term(self) -> Term | None:
        """The term running today; before the first one starts, that one; after the last
        one ended, the last one. None before anything is paid."""
        kept = self.kept_terms()
        today = timezone.localdate()
        running = [term for term in kept if today in term]
        upcoming = [term for term in kept if term.starts_on > today]
        chosen = running or upcoming or kept[-1:]
        return chosen[0] if chosen else None

    @property
    def terms_ahead(self) -> list[Term]:
        """Terms paid that start after the current one: a renewal paid early."""
        current = self.current_term
        return [term for term in self.kept_terms() if current and term.starts_on > current.ends_on]

    @property
    def next_term(self) -> Term | None:
        """The term a renewal paid now buys: the year after the paid one, or, once it has
        lapsed, the year from today. None while it is not running."""
        if self.status == self.Status.LAPSED:
            return Term.one_year_from(timezone.localdate())
        if self.in_term and self.ends_on:
            return Term.one_year_from(self.ends_on + ONE_DAY)
        return None

    @property
    def term_over(self) -> bool:
        """Its paid time is behind it (a sponsorship in its grace days, or lapsed)."""
        return self.ends_on is not None and self.ends_on < timezone.localdate()

    @property
    def renewal_pending(self) -> bool:
        """A card renewal Stripe has not yet confirmed: its payment intent is stored and no
        payment recorded for it."""
        intent = self.stripe_payment_intent_id
        if not (self.in_term and self.is_paid and intent):
            return False
        return not any(intent in (p.stripe_id, p.payment_intent_id) for p in self.payments.all())

    @property
    def ended_by_money_returned(self) -> "PaidTerm | None":
        """The term whose payment went back in full last, when that ended the sponsorship's
        paid time (it has no kept term running or ahead)."""
        rows = [row for row in self.paid_terms.all() if not row.kept]
        if not rows or (self.in_term and self.current_term):
            return None
        return max(rows, key=lambda row: (row.money_returned_on, row.pk))

    @property
    def is_paid(self):
        return self.paid_at is not None

    @property
    def payment_pending(self) -> bool:
        """Paid at Stripe, not yet confirmed by its webhook: nothing may offer to pay again."""
        return not self.is_paid and bool(
            self.stripe_subscription_id or self.stripe_payment_intent_id
        )

    @property
    def nothing_paid(self) -> bool:
        """Nothing paid and nothing started at Stripe: cancelling it withdraws an application."""
        return not (self.is_paid or self.stripe_subscription_id or self.stripe_payment_intent_id)

    @property
    def returned_payment(self):
        """Its latest payment when that went back in full (refunded or lost to a dispute),
        else None: an open sponsorship in this state is not paid for any more."""
        latest = next(iter(self.payments.all()), None)  # newest first (Payment's ordering)
        return latest if latest is not None and latest.returned_in_full else None

    @property
    def status_label(self) -> str:
        """The status as the sponsor reads it: an application cancelled before anything was
        paid was withdrawn; an open one whose payment went back in full is refunded."""
        if self.status == self.Status.CANCELLED and self.nothing_paid:
            return "Withdrawn"
        if (self.is_open or self.status == self.Status.LAPSED) and self.returned_payment:
            return "Refunded"
        return self.get_status_display()

    @property
    def is_open(self):
        return self.status not in self.CLOSED_STATUSES

    @property
    def in_term(self) -> bool:
        """Active or expiring: listed on the supporters page, benefits owed."""
        return self.status in (self.Status.ACTIVE, self.Status.EXPIRING)

    @property
    def renews_by_card(self) -> bool:
        return self.payment_method == self.Payment.CARD_ANNUAL and not self.renewal_stopped_at

    # How it is paid, as a sentence says it after "paid": one phrase for pages and mails.
    PAID_HOW: ClassVar[dict[str, str]] = {
        Payment.CARD_ANNUAL: "by card, renewed every year",
        Payment.CARD_ONCE: "by card, one year at a time",
        Payment.INVOICE: "by invoice to the billing contact",
    }

    @property
    def paid_how(self) -> str:
        """ "by card, renewed every year", ...: follows "paid" in a sentence."""
        return self.PAID_HOW.get(self.payment_method, self.get_payment_method_display().lower())


class PaidTerm(models.Model):
    """One year-long term a payment bought (``sponsors.services.recording``). The term
    follows the money: when the whole payment goes back (refunded, or lost to a dispute),
    the term ran only until the day before (``money_returned_on``), or not at all when
    it had not started."""

    sponsorship = models.ForeignKey(
        Sponsorship, on_delete=models.PROTECT, related_name="paid_terms"
    )
    payment = models.OneToOneField(
        LedgerPayment, on_delete=models.PROTECT, related_name="sponsorship_term"
    )
    starts_on = models.DateField()
    ends_on = models.DateField(help_text="Its last day")
    money_returned_on = models.DateField(
        null=True, blank=True, help_text="The whole payment went back on this day"
    )
    # What staff were last told of the money taken back (refunds, disputes), so a repeated
    # event tells them nothing twice.
    money_seen = models.CharField(max_length=80, blank=True)

    class Meta:
        ordering = ["starts_on", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")), name="term_ends_after_start"
            )
        ]

    def __str__(self):
        return str(self.term)

    @property
    def term(self) -> Term:
        return Term(self.starts_on, self.ends_on)

    @property
    def kept(self) -> bool:
        return self.money_returned_on is None

    @property
    def ran(self) -> Term | None:
        """What of the term ran: all of it, the part before its money went back, or None."""
        if self.money_returned_on is None:
            return self.term
        last = min(self.ends_on, self.money_returned_on - ONE_DAY)
        return Term(self.starts_on, last) if last >= self.starts_on else None


class SponsorshipEvent(models.Model):
    """Every state change, with who made it and when."""

    sponsorship = models.ForeignKey(Sponsorship, on_delete=models.CASCADE, related_name="events")
    from_status = models.CharField(max_length=20, blank=True)
    to_status = models.CharField(max_length=20)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    note = models.CharField(max_length=200, blank=True)
    at = models.DateTimeField(default=timezone.now)
    undoable_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Until when the sponsor may undo this change (their own cancellation)",
    )

    class Meta:
        ordering = ["at", "id"]

    def __str__(self):
        return f"{self.from_status or 'new'} → {self.to_status}"


_PaymentManagerBase = models.Manager.from_queryset(PaymentQuerySet)


class PaymentManager(_PaymentManagerBase):
    def get_queryset(self):
        return (
            super()
            .get_queryset()
            .filter(content_type__app_label="sponsors", content_type__model="sponsorship")
        )


@dataclass(frozen=True)
class MoneyBack:
    """What refunds and disputes took back of one payment, in its minor units."""

    refunded: int
    lost: int  # to disputes the foundation lost: gone for good
    held: int  # by open disputes: withdrawn, and back if the foundation wins
    amount: int

    @property
    def gone(self) -> int:
        """What will not come back (refunds and lost disputes), at most the amount."""
        return min(self.refunded + self.lost, self.amount)

    @property
    def all_gone(self) -> bool:
        return self.gone >= self.amount

    @property
    def state(self) -> str:
        """The whole of it in one line, to tell a change from a repeated event."""
        return f"refunded {self.refunded}, lost {self.lost}, held {self.held}"

    def words(self, currency: str) -> str:
        """ "EUR 500.00 refunded, EUR 100.00 held by an open dispute"."""
        parts = [
            (self.refunded, "refunded"),
            (self.lost, "lost to a dispute"),
            (self.held, "held by an open dispute"),
        ]
        said = [
            f"{currency} {from_minor_units(part, currency)} {how}" for part, how in parts if part
        ]
        return ", ".join(said) or "nothing taken back"


class Payment(LedgerPayment):
    """A sponsorship's payment: the payments app's record (``payments.models.Payment``),
    seen from sponsors. Made by ``payments.recording`` only."""

    objects: ClassVar[PaymentManager] = PaymentManager()

    class Meta:
        proxy = True

    @property
    def sponsorship(self) -> "Sponsorship":  # type: ignore[override]  # the stubs take the query name for an attribute
        # Deleting a sponsorship deletes its payments (GenericRelation): never None.
        return cast("Sponsorship", self.paid_for)

    def money_back(self) -> MoneyBack:
        """What was taken back of it: refunded, lost to disputes, held by open ones."""
        refunded = sum(refund.amount_minor for refund in self.refunds.all())
        disputes = list(self.disputes.all())
        lost = sum(d.amount_minor for d in disputes if d.status == "lost")
        held = sum(d.amount_minor for d in disputes if d.withdraws and d.status != "lost")
        return MoneyBack(refunded=refunded, lost=lost, held=held, amount=self.amount_minor)


def invite_token():
    return secrets.token_urlsafe(24)


class Invitation(models.Model):
    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="invitations"
    )
    email = models.EmailField()
    token = models.CharField(max_length=64, unique=True, default=invite_token)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    accepted_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.email} to {self.organisation}"
