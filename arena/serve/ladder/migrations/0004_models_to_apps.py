"""Students, invitations, the audit log (now the ``accounts`` app's) and the versions (now
``submissions``'s) leave this app in Django's state only: their tables and rows went with them
(accounts 0001, submissions 0001); their content types take the new apps' labels."""

from django.db import migrations


def _content_types(moves):
    """Forwards and backwards: the content types of ``moves`` ({model: (old app, new app)}) take their
    new app's label, so that the permissions given on them and the admin's history follow the
    models (one already there under the new label, made by a migrate after the move, is kept)."""

    def move(apps, schema_editor, back=False):
        types = apps.get_model("contenttypes", "ContentType").objects.using(schema_editor.connection.alias)
        for model, (old, new) in moves.items():
            old, new = (new, old) if back else (old, new)
            if not types.filter(app_label=new, model=model).exists():
                types.filter(app_label=old, model=model).update(app_label=new)

    def forwards(apps, schema_editor):
        move(apps, schema_editor)

    def backwards(apps, schema_editor):
        move(apps, schema_editor, back=True)

    return migrations.RunPython(forwards, backwards)


class Migration(migrations.Migration):
    dependencies = [
        ("ladder", "0003_controls_and_final"),
        ("accounts", "0001_initial"),
        ("submissions", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
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
        _content_types(
            {
                "student": ("ladder", "accounts"),
                "invitation": ("ladder", "accounts"),
                "auditlog": ("ladder", "accounts"),
                "version": ("ladder", "submissions"),
            }
        ),
    ]
