from django.apps import AppConfig


class BenefitsConfig(AppConfig):
    name = "sponsors.benefits"
    label = "benefits"
    verbose_name = "Sponsor benefits"

    def ready(self):
        from core import demo, pagecache
        from outbox import registry
        from sponsors.benefits import mail

        pagecache.watch_app(self)
        demo.register("sponsors.benefits.demo", after="sponsors.demo")
        # The reminders its services record in the outbox.
        registry.register(mail.SPONSOR_REMINDER, mail.remind_sponsor)
        registry.register(mail.STAFF_REMINDER, mail.remind_staff)
