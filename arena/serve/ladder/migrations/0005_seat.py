"""A partido's seats as rows (a foreign key to each version, in order), filled from the JSON list
of version ids each partido kept (``versions``); 0006 then drops that list. An id whose version
is gone (its student deleted) leaves its seat empty, so the seat order, which ``winners`` and
``ranking`` index, stays whole."""

import django.db.models.deletion
from django.db import migrations, models

BATCH = 1000


def fill_seats(apps, schema_editor):
    """One Seat per entry of every partido's ``versions``, in order."""
    partidos = apps.get_model("ladder", "LadderPartido")
    seats = apps.get_model("ladder", "Seat")
    versions = apps.get_model("submissions", "Version")
    db = schema_editor.connection.alias
    known = set(versions.objects.using(db).values_list("pk", flat=True))
    made = []
    for pk, ids in partidos.objects.using(db).order_by("pk").values_list("pk", "versions").iterator():
        for position, version in enumerate(ids or []):
            made.append(seats(partido_id=pk, version_id=version if version in known else None, position=position))
        if len(made) >= BATCH:
            seats.objects.using(db).bulk_create(made)
            made = []
    seats.objects.using(db).bulk_create(made)


def seats_to_lists(apps, schema_editor):
    """Back: each partido's ``versions`` from its seats (an empty seat keeps no id: None)."""
    partidos = apps.get_model("ladder", "LadderPartido")
    seats = apps.get_model("ladder", "Seat")
    db = schema_editor.connection.alias
    tables: dict[int, list[int | None]] = {}
    for partido, version in (
        seats.objects.using(db).order_by("partido_id", "position").values_list("partido_id", "version_id")
    ):
        tables.setdefault(partido, []).append(version)
    for pk, table in tables.items():
        partidos.objects.using(db).filter(pk=pk).update(versions=table)


class Migration(migrations.Migration):
    dependencies = [
        ("ladder", "0004_models_to_apps"),
        ("submissions", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="Seat",
            fields=[
                (
                    "id",
                    models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID"),
                ),
                ("position", models.PositiveSmallIntegerField(verbose_name="position")),
                (
                    "partido",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seats",
                        to="ladder.ladderpartido",
                    ),
                ),
                (
                    "version",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="seats",
                        to="submissions.version",
                    ),
                ),
            ],
            options={
                "verbose_name": "seat",
                "verbose_name_plural": "seats",
                "ordering": ("partido", "position"),
                "constraints": [
                    models.UniqueConstraint(fields=("partido", "position"), name="ladder_seat_unique_position")
                ],
            },
        ),
        migrations.RunPython(fill_seats, seats_to_lists),
    ]
