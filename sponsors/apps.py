from django.apps import AppConfig


class SponsorsConfig(AppConfig):
    name = "sponsors"

    def ready(self):
        # Registration with payments and the outbox, which know no app: the Stripe events
        # this app handles and the side effects its services record; and with core:
        # the models public pages show, the demo content and the sitemap section.
        from django.db.models.signals import post_save

        from core import demo, edge, logredact, navigation
        from core import sitemaps as site_map
        from outbox import registry
        from payments import dispatch, income, money
        from payments.models import Dispute, Refund
        from search import sources as search_index
        from sponsors import (
            mail,
            models,
            reports,
            sitemaps,
            stripe_tasks,
            supporters_cache,
            webhooks,
        )

        for event_type, handler in webhooks.HANDLERS.items():
            dispatch.register(event_type, handler)
        money.register_currencies(webhooks.sold_currencies)
        for taken_back in (Refund, Dispute):
            post_save.connect(
                supporters_cache.money_taken_back,
                sender=taken_back,
                dispatch_uid=f"sponsors:supporters:{taken_back.__name__}",
            )
            # The term a payment bought follows the money kept (sponsors.services.recording).
            post_save.connect(
                webhooks.money_taken_back,
                sender=taken_back,
                dispatch_uid=f"sponsors:terms:{taken_back.__name__}",
            )
        dispatch.register_subscription_owner(webhooks.knows_subscription)
        registry.register(mail.STATUS_MAIL, mail.send_sponsorship_mail)
        registry.register(mail.RENEWAL_REMINDER, mail.send_renewal_reminder)
        registry.register(mail.INVITATION, mail.send_invitation)
        registry.register(mail.PAYMENT_RECEIVED, mail.send_payment_received)
        registry.register(mail.MONEY_RETURNED, mail.send_money_returned)
        registry.register(stripe_tasks.INVOICE_MAIL, mail.send_invoice_mail)
        registry.register(stripe_tasks.SEND_INVOICE, stripe_tasks.send_invoice, keyed=True)
        registry.register(stripe_tasks.SETTLE_INVOICE, stripe_tasks.settle_invoice, keyed=True)
        income.register_payer(
            models.Sponsorship, reports.describe_sponsorships, reports.PROGRAMME_LABELS
        )
        edge.watch_app(self, except_for=("sponsorshipevent", "invitation"))
        # The query parameters its pages read (others are redirected away: core/edge.py).
        edge.reads_query("sponsors:dashboard", "paid")
        demo.register("sponsors.demo", after="foundation.demo")
        site_map.register("sponsors", sitemaps.sponsor_pages)
        search_index.register_pages(*sitemaps.search_pages)
        navigation.add("Supporters", "sponsors:supporters", order=30)
        navigation.add_footer_link("Support us", "Supporters", "sponsors:supporters", order=20)
        navigation.add_footer_link(
            "Support us", "Become a sponsor or member", "sponsors:programmes", order=21
        )
        navigation.add_account_link("My organisation", "sponsors:dashboard", order=10)
        navigation.add_home_action("Support the foundation", "sponsors:supporters", order=20)
        navigation.include(navigation.HOME_BANDS, "sponsors/includes/home_sponsors.html", order=10)
        # An invitation's link carries its token: logged paths show "[redacted]".
        logredact.redact_after("/sponsors/invitations/")
