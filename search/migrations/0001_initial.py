import django.contrib.postgres.indexes
import django.contrib.postgres.search
from django.db import migrations, models

GIN_INDEX = django.contrib.postgres.indexes.GinIndex(
    fields=["vector"], name="search_doc_vector_gin"
)


def create_gin_index(apps, schema_editor):
    schema_editor.add_index(apps.get_model("search", "SearchDocument"), GIN_INDEX)


def drop_gin_index(apps, schema_editor):
    schema_editor.remove_index(apps.get_model("search", "SearchDocument"), GIN_INDEX)


class Migration(migrations.Migration):
    initial = True

    dependencies = []

    operations = [
        migrations.CreateModel(
            name="SearchDocument",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "key",
                    models.CharField(
                        help_text="The source object, e.g. foundation.newspost:12",
                        max_length=100,
                        unique=True,
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("news", "News"),
                            ("document", "Governance documents"),
                            ("board", "Board members"),
                            ("meeting", "Board meetings"),
                            ("series", "Release series"),
                            ("release", "Releases"),
                            ("benchmark", "Benchmarks"),
                        ],
                        max_length=10,
                    ),
                ),
                ("title", models.CharField(max_length=300)),
                ("summary", models.TextField(blank=True)),
                ("body", models.TextField(blank=True)),
                ("url", models.CharField(max_length=300)),
                ("date", models.DateField(blank=True, null=True)),
                (
                    "visible_from",
                    models.DateTimeField(
                        blank=True,
                        help_text="Hidden until then (a scheduled news post).",
                        null=True,
                    ),
                ),
                (
                    "vector",
                    django.contrib.postgres.search.SearchVectorField(editable=False, null=True),
                ),
                ("indexed_at", models.DateTimeField(auto_now=True)),
            ],
            options={
                "ordering": ["-date", "title"],
                "indexes": [models.Index(fields=["kind"], name="search_doc_kind")],
            },
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.AddIndex(model_name="searchdocument", index=GIN_INDEX)],
            database_operations=[migrations.RunPython(create_gin_index, drop_gin_index)],
        ),
    ]
