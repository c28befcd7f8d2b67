from django.apps import AppConfig


class DonationsConfig(AppConfig):
    name = "donations"
    verbose_name = "Donations and funding"

    def ready(self):
        # Registration with payments, which knows no app: the Stripe events this app
        # handles and the mails its services record in the outbox.
        from donations import mail, webhooks
        from payments import dispatch, outbox

        for event_type, handler in webhooks.HANDLERS.items():
            dispatch.register(event_type, handler)
        outbox.register(mail.RECEIPT, mail.send_receipt)
        outbox.register(mail.PAYMENT_FAILED, mail.send_payment_failed)
        outbox.register(mail.MANAGE_LINKS, mail.send_manage_links)
