"""Dealing from a key: a mano's deal is a function of the partido's seed and the mano's number alone.

A Fisher–Yates shuffle fed by BLAKE2b keyed with a hash of the seed, so nothing a
player does can change a deal, and without the key one's own hand says nothing
about any other card. Every game deals through :func:`deal_order`.
"""

from __future__ import annotations

import hashlib
import itertools
import struct
from collections.abc import Iterator, Sequence

from arena.seeds import Seed, check_seed

_WORDS = struct.Struct(">8Q")  # one 64-byte BLAKE2b digest: eight 64-bit words
_MASK = (1 << 64) - 1


def deal_key(seed: Seed) -> bytes:
    """The 32-byte key of a partido's deal stream: BLAKE2b of the seed, tagged by its kind.

    ValueError for a seed that is neither an int nor a key (:func:`arena.seeds.check_seed`).
    """
    seed = check_seed(seed)
    text = f"int:{seed}" if isinstance(seed, int) else f"key:{seed}"
    return hashlib.blake2b(text.encode(), digest_size=32, person=b"tute-arena/seed").digest()


def deal_stream(key: bytes, mano_number: int) -> Iterator[int]:
    """Uniform 64-bit words for one mano's deal: BLAKE2b keyed with ``key``, in counter mode."""
    blocks = (b"%d/%d" % (mano_number, i) for i in itertools.count())
    return itertools.chain.from_iterable(
        _WORDS.unpack(hashlib.blake2b(b, key=key, person=b"tute-arena/deal").digest()) for b in blocks
    )


def _below(words: Iterator[int], n: int) -> int:
    """A uniform integer in ``[0, n)`` from ``words`` (Lemire's method: exact, rarely a second word)."""
    m = next(words) * n
    if m & _MASK < n:
        floor = ((1 << 64) - n) % n
        while m & _MASK < floor:
            m = next(words) * n
    return m >> 64


def deal_order(key: bytes, mano_number: int, seats: Sequence[int]) -> tuple[int, list[int]]:
    """One mano's draw from the deal ``key``: the seat dealt first (among ``seats``) and the deck order.

    The first seat is ``_below(words, len(seats))``, then a Fisher–Yates shuffle draws
    ``_below(words, i + 1)`` for ``i`` = 39 .. 1 (:func:`_exact_order`). Written out for
    speed: the 40 words those take are hashed at once (five digests, from a keyed hasher
    copied per block), and only when Lemire's method would need a second word (about
    once in 10^17 draws) is the order drawn again word by word.
    """
    base = hashlib.blake2b(key=key, person=b"tute-arena/deal")
    words: list[int] = []
    for i in range(5):
        h = base.copy()
        h.update(b"%d/%d" % (mano_number, i))
        words += _WORDS.unpack(h.digest())
    m = words[0] * len(seats)
    if m & _MASK < len(seats):
        return _exact_order(key, mano_number, seats)
    start = seats[m >> 64]
    deck = list(range(40))
    for i, word in zip(range(39, 0, -1), words[1:], strict=True):
        m = word * (i + 1)
        if m & _MASK <= i:
            return _exact_order(key, mano_number, seats)
        j = m >> 64
        deck[i], deck[j] = deck[j], deck[i]
    return start, deck


def _exact_order(key: bytes, mano_number: int, seats: Sequence[int]) -> tuple[int, list[int]]:
    """:func:`deal_order` word by word from :func:`deal_stream`: its definition."""
    words = deal_stream(key, mano_number)
    start = seats[_below(words, len(seats))]
    deck = list(range(40))
    for i in range(39, 0, -1):  # Fisher–Yates
        j = _below(words, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return start, deck
