"""``arena serve``: passwords stored with scrypt (settings.PASSWORD_HASHERS, first), those stored
with PBKDF2 before still accepted and stored again with scrypt at their next login.

The other serve tests hash with MD5 (tests/serve/conftest.py); these use the service's own list.
What this module creates is deleted at its end."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

PREFIX = "passwords-test-"
PASSWORD = "una-clave-de-tute-52"


@pytest.fixture(autouse=True)
def _service_hashers(serve_dir: Any) -> Iterator[None]:
    from django.contrib.auth import get_user_model
    from django.test.utils import override_settings

    from arena.serve import settings as served

    with override_settings(PASSWORD_HASHERS=served.PASSWORD_HASHERS):
        yield
    get_user_model().objects.filter(username__startswith=PREFIX).delete()


def test_the_service_hashes_with_scrypt_first_and_keeps_django_s_others() -> None:
    from arena.serve import settings as served

    assert served.PASSWORD_HASHERS[0] == "django.contrib.auth.hashers.ScryptPasswordHasher"
    assert "django.contrib.auth.hashers.PBKDF2PasswordHasher" in served.PASSWORD_HASHERS[1:]


def test_a_new_password_is_stored_with_scrypt() -> None:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(PREFIX + "nueva", password=PASSWORD)
    user.refresh_from_db()
    assert user.password.startswith("scrypt$16384$")  # Django's parameters: N = 2^14
    assert user.check_password(PASSWORD) and not user.check_password("otra")


def test_a_pbkdf2_password_logs_in_and_is_stored_again_with_scrypt() -> None:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import PBKDF2PasswordHasher, make_password
    from django.test import Client

    old = make_password(PASSWORD, hasher=PBKDF2PasswordHasher())
    assert old.startswith("pbkdf2_sha256$")
    user = get_user_model().objects.create(username=PREFIX + "antigua", password=old)
    answer = Client().post(
        "/login/", {"username": user.username, "password": PASSWORD}, REMOTE_ADDR="10.52.1.1"
    )
    assert answer.status_code == 302 and answer.url == "/me"
    user.refresh_from_db()
    assert user.password.startswith("scrypt$") and user.check_password(PASSWORD)
