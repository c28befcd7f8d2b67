from django.urls import path

from donations import views

app_name = "donations"

urlpatterns = [
    path("donate/", views.donate, name="donate"),
    path("donate/card/", views.give_by_card, name="give-by-card"),
    path("donate/thanks/", views.thanks, name="thanks"),
    path("donate/manage/", views.request_manage_link, name="manage-request"),
    path("donate/manage/<str:token>/", views.manage, name="manage"),
    path("donate/manage/<str:token>/receipt/<int:gift_id>/", views.gift_receipt, name="receipt"),
    path("donate/manage/<str:token>/statement/<int:year>/", views.statement, name="statement"),
    path(
        "donate/manage/<str:token>/statement/<int:year>/pdf/",
        views.statement_pdf,
        name="statement-pdf",
    ),
    path("donate/my-gifts/", views.my_gifts, name="mine"),
    path("funding/", views.funding, name="funding"),
    path("funding.csv", views.funding_csv, name="funding-csv"),
    path("funding-years.csv", views.funding_years_csv, name="funding-years-csv"),
    path("funding/datapackage.json", views.funding_datapackage, name="funding-datapackage"),
]
