from django.urls import path

from core import views

urlpatterns = [
    path("", views.HomeView.as_view(), name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("accessibility/", views.AccessibilityView.as_view(), name="accessibility"),
]
