"""How the service stores passwords: Argon2id at OWASP's recommended minimum (docs/security.md,
*Password hashes*)."""

from __future__ import annotations

from django.contrib.auth.hashers import Argon2PasswordHasher


class OwaspArgon2PasswordHasher(Argon2PasswordHasher):
    """Argon2id with OWASP's Password Storage Cheat Sheet's first configuration: 19 MiB of memory,
    2 passes, 1 lane (Django's own default takes 100 MiB and 8 lanes). About 20 ms of CPU a login
    here, against scrypt's 150 ms at Django's parameters, so a class's login burst fits in 2 cores.
    The algorithm's name stays ``argon2``: a hash stored with other parameters still verifies and
    is stored again with these at the user's next login (``must_update``)."""

    time_cost = 2
    memory_cost = 19 * 1024  # KiB
    parallelism = 1
