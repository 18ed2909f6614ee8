"""Pictures are served by a random token, not by their id (which counts up across the server):
the column is added empty, each existing picture gets its own token, then it is required and
unique."""

import secrets

from django.db import migrations, models

import rolls.scene.models


def fill_tokens(apps, schema_editor):
    Picture = apps.get_model("rolls", "Picture")
    for picture in Picture.objects.only("pk").iterator():
        Picture.objects.filter(pk=picture.pk).update(token=secrets.token_urlsafe(16))


class Migration(migrations.Migration):
    dependencies = [("rolls", "0010_scenes_and_table_talk")]

    operations = [
        migrations.AddField(
            model_name="picture",
            name="token",
            field=models.CharField(max_length=32, null=True, editable=False),
        ),
        migrations.RunPython(fill_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="picture",
            name="token",
            field=models.CharField(
                default=rolls.scene.models.picture_token,
                editable=False,
                max_length=32,
                unique=True,
            ),
        ),
        migrations.AlterModelOptions(
            name="picture",
            options={"base_manager_name": "objects", "ordering": ["created_at", "pk"]},
        ),
    ]
