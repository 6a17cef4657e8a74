"""The JSON list of a final's version ids goes: its many-to-many ``versions`` holds them (0002)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("finals", "0002_versions_m2m"),
    ]

    operations = [
        migrations.RemoveField(model_name="finaltorneo", name="version_ids"),
    ]
