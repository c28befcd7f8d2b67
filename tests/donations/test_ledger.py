"""One ledger: income and staff-recorded spending on /funding/ and in funding.csv, the
year choice, receipts that are checked before they are kept, and the demo's payments."""

import csv as csv_module
import io
from datetime import date, datetime
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from PIL import Image
from pytest_django.asserts import assertContains, assertInHTML, assertNotContains

from donations import demo as donations_demo
from donations.models import Expense
from sponsors import demo as sponsors_demo
from sponsors.models import Payment
from tests.donations.factories import ExpenseFactory, GiftFactory
from tests.foundation.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_spending_is_shown_by_month_and_category_with_a_table_and_chart(client):
    ExpenseFactory(spent_on=date(2026, 3, 2), amount=Decimal("1200"))
    ExpenseFactory(spent_on=date(2026, 3, 20), amount=Decimal("300.50"))
    ExpenseFactory(
        spent_on=date(2026, 5, 1), category=Expense.Category.COMMUNITY, amount=Decimal("800")
    )
    page = client.get("/funding/?year=2026")
    assertInHTML(
        '<tr><th scope="row">2026-03</th>'
        '<td class="num" data-label="Infrastructure and hosting">€1,500.50</td>'
        '<td class="num" data-label="Community, events and travel">€0</td>'
        '<td class="num" data-label="Total">€1,500.50</td></tr>',
        page.content.decode(),
    )
    assertContains(page, '<td class="num" data-label="Total">€2,300.50</td>', html=True)
    assertContains(page, 'id="spending-eur"')
    csv = client.get("/funding.csv?year=2026").content.decode().splitlines()
    assert "2026-03,EUR,spending,Infrastructure and hosting,1500.50,false,false" in csv
    assert "2026-05,EUR,spending,Community, events and travel,800.00,false,false" not in csv
    assert '2026-05,EUR,spending,"Community, events and travel",800.00,false,false' in csv
    assert not [line for line in csv if "Total" in line]  # totals are left to the reader
    assert spent(client, 2026) == Decimal("2300.50")


def test_a_year_without_spending_says_so_instead_of_a_zero(client):
    this_year = timezone.localdate().year  # "yet" belongs to the current year only
    page = client.get(f"/funding/?year={this_year}")
    assertContains(page, f"Staff have not recorded any spending for {this_year} yet.")
    assertContains(page, f"No gift from an individual has been recorded in {this_year} yet.")
    assertNotContains(page, "0 individual donors")


def test_the_year_choice_lists_every_year_with_entries(client):
    ExpenseFactory(spent_on=date(2024, 6, 1))
    GiftFactory()  # March 2026
    page = client.get("/funding/?year=2024")
    this_year = timezone.localdate().year
    options = "".join(
        f'<option value="{y}"{" selected" if y == 2024 else ""}>{y}</option>'
        for y in sorted({2024, 2026, this_year}, reverse=True)
    )
    assertInHTML(f'<select id="funding-year" name="year">{options}</select>', page.content.decode())
    assertContains(page, "<h1>Funding in 2024</h1>", html=True)


def test_demo_sponsors_payments_fill_the_ledger_and_are_labelled_demo(client):
    sponsors_demo.load(log=lambda message: None)
    sponsors_demo.load(log=lambda message: None)  # idempotent
    payments = Payment.objects.all()
    assert payments.count() == 8 and all(p.is_demo for p in payments)
    # 4 Platinum at the demo tier price of 100,000 and 4 Gold at 50,000.
    assert sum(p.amount for p in payments) == Decimal("600000")
    year = timezone.localdate().year
    page = client.get(f"/funding/?year={year}")
    assertContains(page, "<strong>Demo data.</strong> 8 of the payments counted here", html=False)
    assertContains(page, '<td class="num" data-label="Sponsors">€600,000</td>', html=True)
    csv = client.get(f"/funding-years.csv?year={year}").content.decode().splitlines()
    assert f"{year},EUR,income,Sponsors,600000.00,false,true" in csv
    monthly = client.get(f"/funding.csv?year={year}").content.decode().splitlines()
    # the demo's payments fall over the year, each month's income a published figure
    income = [line.split(",") for line in monthly if ",income,Sponsors," in line]
    assert sum(Decimal(fields[4]) for fields in income) == Decimal("600000")
    # a month the demo paid nothing in is a nought, and no demo figure
    assert all(fields[-1] == ("true" if Decimal(fields[4]) else "false") for fields in income)


def jpeg_with_exif() -> bytes:
    image = Image.new("RGB", (40, 20), "white")
    exif = Image.Exif()
    exif[0x010F] = "SecretCam"  # camera maker
    out = io.BytesIO()
    image.save(out, format="JPEG", exif=exif.tobytes())
    return out.getvalue()


@pytest.fixture
def staff_client(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def add_expense(client, upload):
    data = {
        "spent_on": "2026-04-01",
        "category": "infrastructure",
        "description": "CI runners",
        "amount": "250.00",
        "currency": "eur",
        "receipt": upload,
    }
    return client.post("/admin/donations/expense/add/", data)


def test_staff_record_an_expense_with_a_receipt_stripped_of_metadata(staff_client):
    response = add_expense(staff_client, SimpleUploadedFile("scan.jpg", jpeg_with_exif()))
    assert response.status_code == 302
    expense = Expense.objects.get()
    assert (expense.currency, expense.amount) == ("EUR", Decimal("250.00"))
    assert expense.recorded_by is not None
    stored = expense.receipt.read()
    assert b"SecretCam" not in stored
    assert Image.open(io.BytesIO(stored)).format == "JPEG"
    assert expense.receipt.name.startswith("donations/receipts/")


def test_a_pdf_receipt_is_kept(staff_client):
    pdf = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
    assert add_expense(staff_client, SimpleUploadedFile("r.pdf", pdf)).status_code == 302
    assert Expense.objects.get().receipt.read() == pdf


def test_a_receipt_that_is_not_a_pdf_or_image_is_refused(staff_client):
    response = add_expense(
        staff_client, SimpleUploadedFile("r.pdf", b"<html><script>alert(1)</script></html>")
    )
    assertContains(response, "A receipt must be a PDF, PNG or JPEG file.")
    assert not Expense.objects.exists()


def test_demo_spending_sits_beside_the_demo_income_and_is_labelled_demo(client):
    sponsors_demo.load(log=lambda message: None)
    donations_demo.load(log=lambda message: None)
    donations_demo.load(log=lambda message: None)  # idempotent
    expenses = Expense.objects.all()
    months = timezone.localdate().month  # each category booked month by month (issue 48)
    assert expenses.count() == 4 * months and all(e.is_demo for e in expenses)
    year = timezone.localdate().year
    page = client.get(f"/funding/?year={year}")
    assertContains(
        page,
        "<strong>Demo data.</strong> 8 of the payments counted here are demo content",
        html=False,
    )
    assertContains(page, f"{4 * months} of the expenses are demo content too")
    assertNotContains(page, "Staff have not recorded any spending")
    assert spent(client, year) == months * Decimal("37500.00")  # a twelfth of 450,000
    csv = client.get(f"/funding-years.csv?year={year}").content.decode().splitlines()
    assert [line for line in csv if ",spending," in line]
    assert all(line.endswith(",true") for line in csv if ",spending," in line)  # demo
    assert f"{year},EUR,income,Sponsors,600000.00,false,true" in csv


def test_a_real_expense_in_a_month_without_demo_rows_is_not_marked_demo(client):
    ExpenseFactory(spent_on=date(2025, 3, 5), amount=Decimal("120.00"))
    csv = client.get("/funding.csv?year=2025").content.decode().splitlines()
    assert [line for line in csv if line.startswith("2025-03,EUR,spending,")][-1].endswith(",false")


def spent(client, year) -> Decimal:
    """The year's spending in EUR, added up from the year's file as a reader would."""
    text = client.get(f"/funding-years.csv?year={year}").content.decode()
    rows = csv_module.DictReader(io.StringIO(text))
    return sum(
        (Decimal(r["amount"]) for r in rows if r["flow"] == "spending" and r["currency"] == "EUR"),
        Decimal(0),
    )


def test_income_shows_every_month_with_a_nought_where_nothing_came(client):
    """Issue 60: the income table, chart and CSV skipped months without income. A past
    year shows all twelve; the current year every month up to this one."""
    last_year = timezone.localdate().year - 1
    GiftFactory(paid_at=timezone.make_aware(datetime(last_year, 3, 10, 12)))
    csv = client.get(f"/funding.csv?year={last_year}").content.decode().splitlines()
    income_months = {line[:7] for line in csv[1:] if ",income," in line}
    assert income_months == {f"{last_year}-{month:02d}" for month in range(1, 13)}
    assert f"{last_year}-01,EUR,income,Individual donors,0.00,false,false" in csv
    page = client.get(f"/funding/?year={last_year}")
    assertContains(page, f'<th scope="row">{last_year}-12</th>', html=True)
    assert page.context["report"].tables[0].chart["labels"][0] == f"{last_year}-01"
    this_year, month = timezone.localdate().year, timezone.localdate().month
    GiftFactory(paid_at=timezone.now())
    csv = client.get(f"/funding.csv?year={this_year}").content.decode().splitlines()
    income_months = {line[:7] for line in csv[1:] if ",income," in line}
    assert income_months == {f"{this_year}-{m:02d}" for m in range(1, month + 1)}
