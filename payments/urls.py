from django.urls import path

from payments import views

app_name = "payments"

urlpatterns = [
    # The one Stripe endpoint: sponsorships and donations alike.
    path("stripe/webhook/", views.stripe_webhook, name="stripe-webhook"),
]
