"""The final torneos move here from the ``ladder`` app, rows and all (the recipe of accounts 0001:
this app takes the model over in Django's state, its table is renamed; ``ladder`` 0007 lets go)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("ladder", "0003_controls_and_final"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="FinalTorneo",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "versions",
                            models.JSONField(
                                default=list, help_text="The frozen version ids.", verbose_name="versions"
                            ),
                        ),
                        ("options", models.JSONField(blank=True, default=dict, verbose_name="options")),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("queued", "queued"),
                                    ("running", "running"),
                                    ("done", "done"),
                                    ("failed", "failed"),
                                ],
                                default="queued",
                                max_length=10,
                                verbose_name="status",
                            ),
                        ),
                        ("folder", models.CharField(blank=True, max_length=500, verbose_name="folder")),
                        ("progress", models.TextField(blank=True, verbose_name="progress")),
                        ("error", models.TextField(blank=True, verbose_name="error")),
                        ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="created at")),
                        ("finished_at", models.DateTimeField(blank=True, null=True, verbose_name="finished at")),
                        (
                            "ladder",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="finals",
                                to="ladder.ladder",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "final torneo",
                        "verbose_name_plural": "final torneos",
                        "ordering": ("-id",),
                        "db_table": "ladder_finaltorneo",
                    },
                ),
            ],
        ),
        migrations.AlterModelTable(name="finaltorneo", table=None),
    ]
