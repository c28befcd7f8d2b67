import io

from pypdf import PdfReader


def pdf_text(response) -> str:
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    return " ".join(" ".join(page.extract_text().split()) for page in reader.pages)
