"""Who issues the site's invoices and receipts, and where a transfer goes (settings)."""

from django.conf import settings

DEMO_NOTICE = (
    "DEMO ISSUER: the issuer and bank details are demo values, not the foundation's; "
    "do not pay to this account."
)


def issuer() -> dict[str, object]:
    return {
        "name": settings.INVOICE_ISSUER_NAME,
        "address": settings.INVOICE_ISSUER_ADDRESS,
        "country": settings.INVOICE_ISSUER_COUNTRY.upper(),
        "business_id": settings.INVOICE_ISSUER_BUSINESS_ID,
        "vat_number": settings.INVOICE_ISSUER_VAT_NUMBER,
        "demo": settings.INVOICE_ISSUER_DEMO,
    }


def bank_account() -> dict[str, str]:
    return {"iban": settings.INVOICE_BANK_IBAN, "bic": settings.INVOICE_BANK_BIC}
