from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0004_seed_gm_moves")]

    operations = [
        migrations.AddField(
            model_name="playsession",
            name="xp_awarded",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
