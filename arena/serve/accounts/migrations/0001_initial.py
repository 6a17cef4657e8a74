"""Students, invitations and the audit log move here from the ``ladder`` app, rows and all.

Django's recipe for moving a model between apps: this app takes the models over in Django's state
only (:class:`~django.db.migrations.operations.SeparateDatabaseAndState`: their tables, made by
``ladder`` 0001, are left as they are), then renames each table to this app's name; ``ladder`` 0004
lets go of them (in its state only). A fresh database goes through the same steps.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import arena.serve.accounts.models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("ladder", "0003_controls_and_final"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Student",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("display_name", models.CharField(max_length=200, verbose_name="name")),
                        ("email", models.EmailField(blank=True, max_length=254, verbose_name="email")),
                        ("roster_id", models.CharField(blank=True, max_length=100, verbose_name="roster id")),
                        (
                            "user",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="student",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "student",
                        "verbose_name_plural": "students",
                        "db_table": "ladder_student",
                    },
                ),
                migrations.CreateModel(
                    name="Invitation",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "token",
                            models.CharField(
                                default=arena.serve.accounts.models.new_token, max_length=64, unique=True
                            ),
                        ),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("used_at", models.DateTimeField(blank=True, null=True, verbose_name="used at")),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="invitations",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "student",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                to="accounts.student",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "invitation",
                        "verbose_name_plural": "invitations",
                        "db_table": "ladder_invitation",
                    },
                ),
                migrations.CreateModel(
                    name="AuditLog",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("what", models.CharField(max_length=500, verbose_name="what")),
                        ("when", models.DateTimeField(auto_now_add=True, verbose_name="when")),
                        (
                            "who",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "audit log entry",
                        "verbose_name_plural": "audit log",
                        "ordering": ("-when",),
                        "db_table": "ladder_auditlog",
                    },
                ),
            ],
        ),
        # the tables get this app's names (accounts_student, ...): a rename keeps their rows
        migrations.AlterModelTable(name="student", table=None),
        migrations.AlterModelTable(name="invitation", table=None),
        migrations.AlterModelTable(name="auditlog", table=None),
    ]
