"""The final torneos (now the ``finals`` app's, finals 0001) leave this app in Django's state only."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("ladder", "0006_partido_versions_through_seats"),
        ("finals", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[migrations.DeleteModel(name="FinalTorneo")]),
    ]
