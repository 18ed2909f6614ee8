"""The live table's models move from campaigns to rolls, the app that runs the table.

Only Django's idea of which app owns them changes here: the tables keep their names and every
row, and no SQL runs. campaigns' 0007 then forgets them, and 0004 renames the tables."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

FK = django.db.models.deletion


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0006_spotlight_countdowns_challenges"),
        ("characters", "0002_character_trades"),
        ("rolls", "0002_announcements"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    state_operations = [
        migrations.CreateModel(
            name="PlaySession",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveIntegerField()),
                ("started_at", models.DateTimeField(auto_now_add=True)),
                ("ended_at", models.DateTimeField(blank=True, null=True)),
                ("xp_awarded", models.JSONField(blank=True, default=dict)),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=FK.CASCADE, related_name="sessions", to="campaigns.campaign"
                    ),
                ),
            ],
            options={
                "db_table": "campaigns_playsession",
                "ordering": ["-number"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("campaign", "number"), name="one_session_number"
                    ),
                    models.UniqueConstraint(
                        condition=models.Q(("ended_at__isnull", True)),
                        fields=("campaign",),
                        name="one_running_session",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="TableConnection",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("channel_name", models.CharField(max_length=200, unique=True)),
                ("seen_at", models.DateTimeField()),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=FK.CASCADE, related_name="connections", to="campaigns.campaign"
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=FK.CASCADE, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
            ],
            options={
                "db_table": "campaigns_tableconnection",
                "indexes": [
                    models.Index(
                        fields=["campaign", "seen_at"], name="campaigns_t_campaig_9ca64b_idx"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="Spotlight",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("since", models.DateTimeField(blank=True, null=True)),
                ("hands", models.JSONField(blank=True, default=list)),
                (
                    "campaign",
                    models.OneToOneField(
                        on_delete=FK.CASCADE, related_name="spotlight", to="campaigns.campaign"
                    ),
                ),
                (
                    "character",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=FK.SET_NULL,
                        related_name="+",
                        to="characters.character",
                    ),
                ),
            ],
            options={"db_table": "campaigns_spotlight"},
        ),
        migrations.CreateModel(
            name="SpotlightSpan",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("started_at", models.DateTimeField()),
                ("ended_at", models.DateTimeField(blank=True, null=True)),
                (
                    "character",
                    models.ForeignKey(
                        on_delete=FK.CASCADE,
                        related_name="spotlight_spans",
                        to="characters.character",
                    ),
                ),
                (
                    "session",
                    models.ForeignKey(
                        on_delete=FK.CASCADE, related_name="spotlight_spans", to="rolls.playsession"
                    ),
                ),
            ],
            options={"db_table": "campaigns_spotlightspan", "ordering": ["started_at"]},
        ),
        migrations.CreateModel(
            name="Countdown",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=120)),
                ("boxes", models.PositiveSmallIntegerField()),
                ("marked", models.PositiveSmallIntegerField(default=0)),
                ("outcome", models.CharField(blank=True, max_length=300)),
                (
                    "visibility",
                    models.CharField(
                        choices=[
                            ("public", "Everyone sees it"),
                            ("hidden", "Players see it exists, not how full"),
                            ("gm", "GM only"),
                        ],
                        default="public",
                        max_length=6,
                    ),
                ),
                ("completed_at", models.DateTimeField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=FK.CASCADE, related_name="countdowns", to="campaigns.campaign"
                    ),
                ),
                (
                    "failure",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=FK.SET_NULL,
                        related_name="success",
                        to="rolls.countdown",
                    ),
                ),
            ],
            options={"db_table": "campaigns_countdown", "ordering": ["created_at", "pk"]},
        ),
        migrations.CreateModel(
            name="Challenge",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=120)),
                ("ladder", models.JSONField()),
                ("state", models.JSONField()),
                ("notes", models.TextField(blank=True, max_length=2000)),
                (
                    "visibility",
                    models.CharField(
                        choices=[("public", "Everyone sees it"), ("gm", "GM only")],
                        default="public",
                        max_length=6,
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=FK.CASCADE, related_name="challenges", to="campaigns.campaign"
                    ),
                ),
            ],
            options={"db_table": "campaigns_challenge", "ordering": ["created_at", "pk"]},
        ),
        migrations.AlterField(
            model_name="roll",
            name="session",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=FK.SET_NULL,
                related_name="rolls",
                to="rolls.playsession",
            ),
        ),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=state_operations, database_operations=[]
        )
    ]
