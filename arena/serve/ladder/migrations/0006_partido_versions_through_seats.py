"""A partido's versions are its seats (0005): the JSON list goes, a many-to-many field through the
seats takes its name. A migration of its own: PostgreSQL alters no table with the rows 0005 wrote
still to check in the same transaction."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ladder", "0005_seat"),
        ("submissions", "0001_initial"),
    ]

    operations = [
        migrations.RemoveField(model_name="ladderpartido", name="versions"),
        migrations.AddField(
            model_name="ladderpartido",
            name="versions",
            field=models.ManyToManyField(
                help_text="Version ids in seat order.",
                related_name="ladder_partidos",
                through="ladder.Seat",
                to="submissions.version",
                verbose_name="versions",
            ),
        ),
    ]
