"""``arena serve``: passwords stored with Argon2id at OWASP's minimum (settings.PASSWORD_HASHERS,
first: :class:`arena.serve.passwords.OwaspArgon2PasswordHasher`), those stored before with scrypt,
PBKDF2 or Django's own Argon2 parameters still accepted and stored again at their next login.

The other serve tests hash with MD5 (tests/serve/conftest.py); these use the service's own list.
Each test's rows are rolled back at its end (pytest-django)."""

from __future__ import annotations

from typing import Any

import pytest

PREFIX = "passwords-test-"
PASSWORD = "una-clave-de-tute-52"

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _service_hashers(settings: Any) -> None:
    from arena.serve import settings as served

    settings.PASSWORD_HASHERS = served.PASSWORD_HASHERS


def test_the_service_hashes_with_owasp_argon2id_first_and_keeps_django_s_others() -> None:
    from arena.serve import settings as served

    assert served.PASSWORD_HASHERS[0] == "arena.serve.passwords.OwaspArgon2PasswordHasher"
    for kept in ("ScryptPasswordHasher", "PBKDF2PasswordHasher"):
        assert f"django.contrib.auth.hashers.{kept}" in served.PASSWORD_HASHERS[1:]


def test_a_new_password_is_stored_with_argon2id_at_owasp_s_parameters() -> None:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(PREFIX + "nueva", password=PASSWORD)
    user.refresh_from_db()
    # OWASP's Password Storage Cheat Sheet: m = 19 MiB, t = 2, p = 1
    assert user.password.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$")
    assert user.check_password(PASSWORD) and not user.check_password("otra")


def _logs_in_and_is_stored_again(old: str, name: str) -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client

    user = get_user_model().objects.create(username=PREFIX + name, password=old)
    answer = Client().post(
        "/login/", {"username": user.username, "password": PASSWORD}, REMOTE_ADDR="10.52.1.1"
    )
    assert answer.status_code == 302 and answer.url == "/me"
    user.refresh_from_db()
    assert user.password.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$")
    assert user.check_password(PASSWORD)


@pytest.mark.parametrize("hasher", ["PBKDF2PasswordHasher", "ScryptPasswordHasher", "Argon2PasswordHasher"])
def test_an_older_hash_logs_in_and_is_stored_again_with_owasp_argon2id(hasher: str) -> None:
    from django.contrib.auth import hashers

    old = hashers.make_password(PASSWORD, hasher=getattr(hashers, hasher)())
    assert not old.startswith("argon2$argon2id$v=19$m=19456,")
    _logs_in_and_is_stored_again(old, hasher.lower())
