"""A final's frozen versions as a many-to-many field, filled from the JSON list of ids it kept (renamed
``version_ids`` here, dropped by 0003). An id whose version is gone is not kept."""

from django.db import migrations, models


def fill_versions(apps, schema_editor):
    """Each final's ``versions`` from its ``version_ids``."""
    finals = apps.get_model("finals", "FinalTorneo")
    versions = apps.get_model("submissions", "Version")
    db = schema_editor.connection.alias
    through = finals.versions.through
    known = set(versions.objects.using(db).values_list("pk", flat=True))
    rows = [
        through(finaltorneo_id=pk, version_id=version)
        for pk, ids in finals.objects.using(db).values_list("pk", "version_ids")
        for version in dict.fromkeys(ids or [])
        if version in known
    ]
    through.objects.using(db).bulk_create(rows, batch_size=1000)


def versions_to_ids(apps, schema_editor):
    """Back: each final's ``version_ids`` (sorted, as the final froze them) from its ``versions``."""
    finals = apps.get_model("finals", "FinalTorneo")
    db = schema_editor.connection.alias
    through = finals.versions.through
    frozen: dict[int, list[int]] = {}
    for final, version in through.objects.using(db).values_list("finaltorneo_id", "version_id"):
        frozen.setdefault(final, []).append(version)
    for pk, ids in frozen.items():
        finals.objects.using(db).filter(pk=pk).update(version_ids=sorted(ids))


class Migration(migrations.Migration):
    dependencies = [
        ("finals", "0001_initial"),
        ("ladder", "0007_finaltorneo_to_finals"),
        ("submissions", "0001_initial"),
    ]

    operations = [
        migrations.RenameField(model_name="finaltorneo", old_name="versions", new_name="version_ids"),
        migrations.AddField(
            model_name="finaltorneo",
            name="versions",
            field=models.ManyToManyField(
                help_text="The frozen version ids.",
                related_name="finals",
                to="submissions.version",
                verbose_name="versions",
            ),
        ),
        migrations.RunPython(fill_versions, versions_to_ids),
    ]
