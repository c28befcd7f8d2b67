"""The last step of ``load_demo``: index everything the other demos created. Some of them
write in bulk (``QuerySet.update``, ``bulk_create``), which sends no model signals."""

from search import services


def load(log):
    total = services.rebuild(progress=log)
    log(f"Search index: {total} entries")
