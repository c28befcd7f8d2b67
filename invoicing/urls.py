from django.urls import path

from invoicing import views

app_name = "invoicing"

urlpatterns = [
    path("documents/<str:token>/", views.document_page, name="document"),
    path("documents/<str:token>/pdf/", views.document_pdf, name="pdf"),
]
