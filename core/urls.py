from django.urls import path

from core import views

urlpatterns = [
    path("", views.HomeView.as_view(), name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/profile/", views.profile, name="profile"),
    path("accessibility/", views.AccessibilityView.as_view(), name="accessibility"),
    path("robots.txt", views.robots_txt, name="robots-txt"),
    path(".well-known/security.txt", views.security_txt, name="security-txt"),
]
