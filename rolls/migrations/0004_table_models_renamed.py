"""The moved tables take rolls' names (rows, keys and constraints go with them), and the
content types follow, so the admin's permissions on them are kept."""

from django.db import migrations

MOVED = ["playsession", "tableconnection", "spotlight", "spotlightspan", "countdown", "challenge"]


def relabel(old: str, new: str):
    def run(apps, schema_editor):
        content_types = apps.get_model("contenttypes", "ContentType").objects.db_manager(
            schema_editor.connection.alias
        )
        for model in MOVED:
            if not content_types.filter(app_label=new, model=model).exists():
                content_types.filter(app_label=old, model=model).update(app_label=new)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0007_table_models_to_rolls"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("rolls", "0003_table_models_from_campaigns"),
    ]

    operations = [
        *(migrations.AlterModelTable(name=model, table=None) for model in MOVED),
        migrations.RenameIndex(
            model_name="tableconnection",
            new_name="rolls_table_campaig_522a0a_idx",
            old_name="campaigns_t_campaig_9ca64b_idx",
        ),
        migrations.RunPython(relabel("campaigns", "rolls"), relabel("rolls", "campaigns")),
    ]
