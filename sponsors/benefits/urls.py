from django.urls import path

from sponsors.benefits import views

app_name = "benefits"

urlpatterns = [
    path(
        "sponsors/sponsorships/<int:pk>/benefits/",
        views.sponsorship_benefits,
        name="sponsorship",
    ),
]
