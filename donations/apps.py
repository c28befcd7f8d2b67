from django.apps import AppConfig


class DonationsConfig(AppConfig):
    name = "donations"
    verbose_name = "Donations and funding"

    def ready(self):
        # Registration with payments and the outbox, which know no app: the Stripe events
        # this app handles and the side effects its services record.
        from core import demo, edge, logredact, navigation
        from core import sitemaps as site_map
        from donations import ledger, mail, models, sitemaps, webhooks
        from outbox import registry
        from payments import dispatch, income, money
        from search import sources as search_index

        for event_type, handler in webhooks.HANDLERS.items():
            dispatch.register(event_type, handler)
        money.register_currencies(webhooks.sold_currencies)
        dispatch.register_subscription_owner(webhooks.knows_subscription)
        income.register_payer(models.Donation, ledger.describe_donations, {})
        registry.register(mail.RECEIPT, mail.send_receipt)
        registry.register(mail.PAYMENT_FAILED, mail.send_payment_failed)
        registry.register(mail.MANAGE_LINKS, mail.send_manage_links)
        registry.register(mail.CANCELLED, mail.send_cancelled)
        # The donor wall shows a donation's public name: a donor who leaves it must leave
        # the cached funding page too.
        edge.watch_app(self)
        # The query parameters its pages read (others are redirected away: core/edge.py).
        edge.reads_query("donations:funding", "year")
        edge.reads_query("donations:funding-csv", "year")
        edge.reads_query("donations:funding-years-csv", "year")
        edge.reads_query("donations:funding-datapackage", "year")
        edge.reads_query("donations:thanks", "gift")
        site_map.register("donations", sitemaps.donation_pages)
        search_index.register_pages(*sitemaps.search_pages)
        demo.register("donations.demo", after="sponsors.demo")
        navigation.add("Donate", "donations:donate", order=70)
        navigation.add_footer_link("Support us", "Donate", "donations:donate", order=22)
        navigation.add_footer_link(
            "Support us", "Where the money comes from", "donations:funding", order=23
        )
        navigation.add_account_link("My gifts", "donations:mine", order=20)
        # A donor's own pages: reached by a personal link, or signed in.
        edge.keep_private("/donate/manage/", "/donate/my-gifts/")
        # Their links carry the donor's token: never in a log.
        logredact.redact_after("/donate/manage/")
        logredact.redact_query("gift")
