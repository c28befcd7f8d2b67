from django.db import migrations, models

from core.markdown import render_markdown


def render_bodies(apps, schema_editor):
    NewsPost = apps.get_model("foundation", "NewsPost")
    posts = list(NewsPost.objects.only("pk", "body"))
    for post in posts:
        post.body_html = render_markdown(post.body)
    NewsPost.objects.bulk_update(posts, ["body_html"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("foundation", "0006_comment_section")]

    operations = [
        migrations.AddField(
            model_name="newspost",
            name="body_html",
            field=models.TextField(blank=True, editable=False),
        ),
        migrations.RunPython(render_bodies, migrations.RunPython.noop, elidable=True),
    ]
