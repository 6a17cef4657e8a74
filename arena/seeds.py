"""Seeds and keys of the deals (``docs/protocol.md``, "Secrecy of the deal").

A partido is dealt from a *seed*, one of:

* an ``int`` the user gave explicitly (``--seed N``): for reproduction only, since
  anyone who knows or guesses it can compute every hand;
* a *key*: at least 128 random bits as lowercase hex text (:func:`new_key` draws
  256 with :mod:`secrets`); a torneo's partidos get keys derived from the torneo's
  key by HMAC-SHA256 (:func:`derive`), so one partido's key reveals no other's.

The engine turns either into the deal through a keyed BLAKE2b stream
(:func:`arena.engine.deal_key`); nothing here is random except :func:`new_key`.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from arena.i18n import _

Seed = int | str
"""An explicit (predictable) ``int`` seed, or a secret hex key."""

KEY_BYTES = 32
"""Bytes of a new key (256 bits)."""
MIN_KEY_BITS = 128
_KEY = re.compile(f"[0-9a-f]{{{MIN_KEY_BITS // 4},128}}")
SHORT = 12
"""Hex digits of a key shown in file names and messages."""


def new_key() -> str:
    """A fresh secret key: 256 bits from the operating system, as 64 hex digits."""
    return secrets.token_hex(KEY_BYTES)


def is_key(seed: object) -> bool:
    """True for a key: lowercase hex text of 128 to 512 bits."""
    return isinstance(seed, str) and _KEY.fullmatch(seed) is not None


def check_seed(seed: object) -> Seed:
    """``seed`` itself if it is an int or a key; ValueError (one line) otherwise."""
    if isinstance(seed, int) and not isinstance(seed, bool):
        return seed
    if isinstance(seed, str) and is_key(seed):
        return seed
    raise ValueError(
        _("a seed is an int or a key of at least {bits} bits in hex, not {seed}").format(
            bits=MIN_KEY_BITS, seed=repr(seed)
        )
    )


def derive(key: str, label: str) -> str:
    """The key of ``label`` under ``key``: HMAC-SHA256, 64 hex digits; reveals nothing of ``key``."""
    if not is_key(key):
        raise ValueError(_("not a key: {key}").format(key=repr(key)))
    return hmac.new(bytes.fromhex(key), label.encode(), hashlib.sha256).hexdigest()


def short(seed: Seed) -> str:
    """How a seed is named in file names and messages: the int, or a key's first hex digits."""
    return str(seed) if isinstance(seed, int) else seed[:SHORT]


def predictable_warning(option: str, seed: int) -> str:
    """The one line the CLI writes to stderr when deals come from an explicit seed."""
    return _(
        "warning: {option} {seed}: the deals are predictable: whoever knows the seed can compute every hand"
    ).format(option=option, seed=seed)
