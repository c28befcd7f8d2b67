from django.urls import path

from sponsors import views

app_name = "sponsors"

urlpatterns = [
    path("sponsors/", views.programmes, name="programmes"),
    path("sponsors/apply/<int:tier_id>/", views.apply, name="apply"),
    path("sponsors/dashboard/", views.dashboard, name="dashboard"),
    path("sponsors/sponsorships/<int:pk>/pay/", views.pay, name="pay"),
    path("sponsors/sponsorships/<int:pk>/pay/card/", views.pay_card, name="pay-card"),
    path(
        "sponsors/sponsorships/<int:pk>/pay-by-invoice/",
        views.pay_by_invoice,
        name="pay-by-invoice",
    ),
    path("sponsors/sponsorships/<int:pk>/cancel/", views.cancel, name="cancel"),
    path("sponsors/sponsorships/<int:pk>/agreement.pdf", views.agreement_pdf, name="agreement-pdf"),
    path("sponsors/payments/<int:pk>/receipt.pdf", views.payment_pdf, name="payment-pdf"),
    path("sponsors/sponsorships/<int:pk>/undo-cancel/", views.undo_cancel, name="undo-cancel"),
    path(
        "sponsors/sponsorships/<int:pk>/resume-renewal/",
        views.resume_renewal,
        name="resume-renewal",
    ),
    path("sponsors/sponsorships/<int:pk>/renew/", views.renew, name="renew"),
    path("sponsors/sponsorships/<int:pk>/renew/card/", views.renew_card, name="renew-card"),
    path(
        "sponsors/sponsorships/<int:pk>/documents/<str:number>.pdf",
        views.document_pdf,
        name="document-pdf",
    ),
    path("sponsors/organisations/<int:pk>/", views.organisation, name="organisation"),
    path("sponsors/organisations/<int:pk>/profile/", views.edit_profile, name="edit-profile"),
    path("sponsors/organisations/<int:pk>/logo/", views.upload_logo, name="upload-logo"),
    path("sponsors/organisations/<int:pk>/logo/remove/", views.remove_logo, name="remove-logo"),
    path("sponsors/organisations/<int:pk>/invite/", views.invite, name="invite"),
    path("sponsors/invitations/<str:token>/", views.accept_invitation, name="accept-invitation"),
    path("supporters/", views.supporters, name="supporters"),
]
