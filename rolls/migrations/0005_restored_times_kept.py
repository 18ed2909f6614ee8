import django.utils.timezone
from django.db import migrations, models

# auto_now_add becomes a Python default, so that a restored backup can write its own times.
# Neither is in the database's schema, so this changes Django's state only: on SQLite an
# AlterField would otherwise copy each table whole, the roll log among them.
TIMES = [("challenge", "created_at"), ("countdown", "created_at")]
TIMES += [("playsession", "started_at"), ("roll", "created_at")]


class Migration(migrations.Migration):
    dependencies = [
        ("rolls", "0004_table_models_renamed"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name=model,
                    name=field,
                    field=models.DateTimeField(default=django.utils.timezone.now, editable=False),
                )
                for model, field in TIMES
            ],
            database_operations=[],
        )
    ]
