"""Issue 47, item 10: no stored file outlives its row. A replaced logo's files were never
deleted (and still served); a host killed between the store's PUT and the commit left
files no row names. Files are deleted through the outbox (outbox/files.py): in the
transaction that stops using them, and, for a new file, by an item recorded before the
upload that only the commit keeping the file withdraws."""

from datetime import timedelta

import pytest
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from benchmarks.models import Attachment, Run
from benchmarks.services import importing
from core.storage import private_storage
from outbox import files
from outbox.models import OutboxItem
from outbox.tasks import sweep_outbox
from sponsors.models import Organisation
from sponsors.services import organisations
from tests.benchmarks.factories import SuiteFactory
from tests.benchmarks.helpers import OLTP_RW
from tests.foundation.factories import UserFactory
from tests.sponsors.factories import OrganisationFactory
from tests.sponsors.test_logo_bombs import real_png

S = OutboxItem.Status


def upload(name="logo.png", width=40):
    return SimpleUploadedFile(name, real_png(width=width), "image/png")


def names(organisation):
    organisation.refresh_from_db()
    return [f.name for f in (organisation.logo, organisation.logo_thumbnail) if f]


@pytest.mark.django_db
def test_replacing_a_logo_deletes_the_old_files_after_the_commit(
    django_capture_on_commit_callbacks,
):
    organisation = OrganisationFactory()
    with django_capture_on_commit_callbacks(execute=True):
        organisations.store_logo(organisation, upload("first.png"))
    first = names(organisation)
    assert len(first) == 2 and all(default_storage.exists(name) for name in first)

    with django_capture_on_commit_callbacks(execute=True):
        organisations.store_logo(organisation, upload("second.png", width=60))
    second = names(organisation)
    assert all(default_storage.exists(name) for name in second)
    assert not any(default_storage.exists(name) for name in first)  # no longer served
    deletions = OutboxItem.objects.filter(kind=files.DELETE_FILE)
    assert sorted(item.payload["name"] for item in deletions.filter(status=S.DONE)) == sorted(first)
    # The items recorded before each upload were withdrawn by the commit that kept it.
    assert deletions.filter(status=S.WITHDRAWN).count() == 4

    with django_capture_on_commit_callbacks(execute=True):
        organisations.remove_logo(organisation)
    assert not any(default_storage.exists(name) for name in second)


@pytest.mark.django_db(transaction=True)
def test_a_logo_whose_row_never_commits_is_deleted_by_the_sweep(monkeypatch):
    """The host dies between the store's PUT and the commit: here the transaction that
    records the organisation fails after the files were stored."""
    user = UserFactory()

    def killed(organisation, logo):
        raise SystemExit("killed before the commit")

    monkeypatch.setattr(organisations, "_use_logo", killed)
    with pytest.raises(SystemExit):
        organisations.create_organisation(
            user, logo_upload=upload(), name="Orphans Ltd", website="https://o.example"
        )
    assert not Organisation.objects.exists()
    pending = OutboxItem.objects.filter(kind=files.DELETE_FILE, status=S.PENDING)
    stored = [item.payload["name"] for item in pending]
    assert len(stored) == 2 and all(default_storage.exists(name) for name in stored)

    sweep_outbox()  # not yet: an upload may take a while to be committed
    assert all(default_storage.exists(name) for name in stored)

    pending.update(next_attempt_at=timezone.now() - timedelta(seconds=1))  # the grace is over
    sweep_outbox()
    assert not any(default_storage.exists(name) for name in stored)
    assert OutboxItem.objects.filter(kind=files.DELETE_FILE, status=S.DONE).count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_committed_logo_is_kept_by_the_sweep():
    organisation = organisations.create_organisation(
        UserFactory(), logo_upload=upload(), name="Kept Ltd", website="https://k.example"
    )
    OutboxItem.objects.filter(kind=files.DELETE_FILE).update(
        next_attempt_at=timezone.now() - timedelta(days=1)
    )
    sweep_outbox()
    assert all(default_storage.exists(name) for name in names(organisation))
    assert set(OutboxItem.objects.values_list("status", flat=True)) == {S.WITHDRAWN}


@pytest.mark.django_db(transaction=True)
def test_a_benchmark_upload_whose_runs_never_commit_leaves_no_raw_file(monkeypatch):
    def killed(run):
        raise SystemExit("killed before the commit")

    monkeypatch.setattr(importing.search_signals, "saved_in_bulk", killed)
    with pytest.raises(SystemExit):
        importing.import_run(
            suite=SuiteFactory(), label="lost", raw=OLTP_RW.read_bytes(),
            file_name="out.txt", importer="sysbench",
        )  # fmt: skip
    assert not Run.objects.exists() and not Attachment.objects.exists()
    [item] = OutboxItem.objects.filter(kind=files.DELETE_FILE, status=S.PENDING)
    assert item.payload["storage"] == "private"
    assert private_storage.exists(item.payload["name"])
    OutboxItem.objects.update(next_attempt_at=timezone.now() - timedelta(seconds=1))
    sweep_outbox()
    assert not private_storage.exists(item.payload["name"])
