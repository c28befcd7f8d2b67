"""Donation workflows, one module per concern (docs/donations.md): giving (starting a
gift by card, what the thank-you page may say of it), recording (what Stripe's events report:
gifts, failed payments, cancellations, refunds), managing (the donor's monthly gift:
cancelling it, Stripe's portal, the manage links mailed)."""
