"""The versions move here from the ``ladder`` app, rows and all (the recipe of accounts 0001: this
app takes the model over in Django's state, its table is renamed; ``ladder`` 0004 lets go of it)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("accounts", "0001_initial"),
        ("ladder", "0003_controls_and_final"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Version",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("number", models.PositiveIntegerField(verbose_name="number")),
                        ("uploaded_at", models.DateTimeField(auto_now_add=True, verbose_name="uploaded at")),
                        ("folder", models.CharField(blank=True, max_length=500, verbose_name="folder")),
                        (
                            "status",
                            models.CharField(
                                choices=[("checking", "checking"), ("clean", "clean"), ("broken", "broken")],
                                default="checking",
                                max_length=10,
                                verbose_name="status",
                            ),
                        ),
                        ("report", models.TextField(blank=True, verbose_name="report")),
                        (
                            "chosen",
                            models.BooleanField(
                                default=False,
                                help_text="Plays in the ladder instead of the last clean version.",
                                verbose_name="chosen to play",
                            ),
                        ),
                        ("withdrawn", models.BooleanField(default=False, verbose_name="withdrawn")),
                        ("withdrawn_reason", models.TextField(blank=True, verbose_name="reason")),
                        (
                            "ladder",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                to="ladder.ladder",
                            ),
                        ),
                        (
                            "student",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="versions",
                                to="accounts.student",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "version",
                        "verbose_name_plural": "versions",
                        "ordering": ("-number",),
                        "unique_together": {("student", "number")},
                        "db_table": "ladder_version",
                    },
                ),
            ],
        ),
        migrations.AlterModelTable(name="version", table=None),
    ]
