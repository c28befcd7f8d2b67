"""For bench/ingest.py: the real endpoint with storage skipped.

Everything a report goes through before it is handed to storage still runs (Django's
handler and middleware, the rate limit, Django's multipart parser, the check and SHA-256);
the report is then dropped. The difference to the real endpoint is what durable storage
costs, and this variant is the ceiling that work on storage alone could reach. Never
deploy it.
"""

from config.wsgi import application  # noqa: F401  (sets Django up)
from feedback.services import intake

intake.store_report = lambda report, handover: report
