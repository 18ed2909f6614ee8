"""The live table's models now belong to rolls (its 0003): campaigns forgets them. No SQL runs;
the tables and their rows stay as they are."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0006_spotlight_countdowns_challenges"),
        ("rolls", "0003_table_models_from_campaigns"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="SpotlightSpan"),
                migrations.DeleteModel(name="Spotlight"),
                migrations.DeleteModel(name="Countdown"),
                migrations.DeleteModel(name="Challenge"),
                migrations.DeleteModel(name="TableConnection"),
                migrations.DeleteModel(name="PlaySession"),
            ],
            database_operations=[],
        )
    ]
