"""The final torneos (now the ``finals`` app's, finals 0001) leave this app in Django's state
only; its content type takes the new app's label."""

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
        ("ladder", "0006_partido_versions_through_seats"),
        ("finals", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[migrations.DeleteModel(name="FinalTorneo")]),
        _content_types({"finaltorneo": ("ladder", "finals")}),
    ]
