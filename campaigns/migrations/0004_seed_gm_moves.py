from django.db import migrations

from fudgetable.rules.rulesets import GM_MOVES


def seed(apps, schema_editor):
    Campaign = apps.get_model("campaigns", "Campaign")
    Campaign.objects.filter(gm_moves=[]).update(gm_moves=list(GM_MOVES))


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0003_campaign_deck_campaign_gm_moves_playsession_and_more")]

    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
