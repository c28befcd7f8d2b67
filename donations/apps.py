from django.apps import AppConfig


class DonationsConfig(AppConfig):
    name = "donations"
    verbose_name = "Donations and funding"
