from django.db import migrations, models


def guns_shoot(apps, schema_editor):
    """A self-powered weapon (its own INJ) was always offered at range: say so in the row.
    A weapon with a damage factor stays a melee weapon until its sheet says it is shot or
    thrown; nothing here guesses that from its name."""
    gear = apps.get_model("characters", "Gear")
    gear.objects.filter(kind="weapon", inj__isnull=False).update(ranged=True)


class Migration(migrations.Migration):
    dependencies = [
        ("characters", "0002_character_trades"),
    ]

    operations = [
        migrations.AddField(
            model_name="gear",
            name="ranged",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(guns_shoot, migrations.RunPython.noop),
    ]
