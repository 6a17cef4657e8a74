"""Students, invitations, the audit log (now the ``accounts`` app's) and the versions (now
``submissions``'s) leave this app in Django's state only: their tables and rows went with them
(accounts 0001, submissions 0001)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("ladder", "0003_controls_and_final"),
        ("accounts", "0001_initial"),
        ("submissions", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="Version"),
                migrations.DeleteModel(name="Invitation"),
                migrations.DeleteModel(name="AuditLog"),
                migrations.DeleteModel(name="Student"),
            ],
        ),
    ]
