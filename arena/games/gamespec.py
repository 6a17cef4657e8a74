"""What a game tells the rest of the house: :class:`GameSpec`, one per game, registered in
:mod:`arena.games`. The referee, tournament, results, site and CLI ask the spec; none of them
names a game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.seeds import Seed

Event = dict[str, Any]
Line = Callable[[int], str]
"""Names a seat in a narration line (``who(2)`` -> ``"ana (2)"``)."""


@dataclass(frozen=True)
class Tally:
    """What a game's :attr:`GameSpec.tally` is given besides the partido's events.

    ``out`` is one dict per seat, with the house's counts and the game's :attr:`GameSpec.counts` at 0
    (to add to), ``teams`` the partido's teams (empty: every player for himself), ``rules`` its rules.
    """

    out: list[dict[str, Any]]
    teams: Sequence[Sequence[int]]
    rules: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Figure:
    """A column of the standings that a game counts (:attr:`GameSpec.figures`).

    ``count`` is one of the game's per-seat counts (:attr:`GameSpec.counts`, or the house's
    ``manos``), summed over an entrant's partidos; with ``per`` (another count) it is shown per
    100 of that one (``porotos_perdidos`` per 100 ``manos``). ``title`` is marked for the catalog.
    """

    key: str
    title: str
    count: str
    per: str = ""
    number_format: str = "0"
    """How the workbook shows it (an Excel number format)."""

    def value(self, counts: dict[str, list[int]], i: int) -> float:
        """The figure of entrant ``i`` from the summed ``counts`` (NaN per nothing)."""
        if not self.per:
            return counts[self.count][i]
        base = counts[self.per][i]
        return 100 * counts[self.count][i] / base if base else float("nan")


@dataclass(frozen=True)
class Narrator:
    """How a game's narration names things: ``who(seat)``, ``seats(group)``, ``pair(index)``,
    ``by_seat(values)`` (a value per seat, with names)."""

    who: Callable[[int], str]
    seats: Callable[[Sequence[int]], str]
    pair: Callable[[int], str]
    by_seat: Callable[[Sequence[Any]], str]
    name: Callable[[int], str] = str
    """A seat's name alone (``ana``), the seat's number when it has none."""


@dataclass(frozen=True)
class GameSpec:
    """Everything the house needs of one game; the game's package builds it, :mod:`arena.games` keeps it.

    The callables import the game's engine only when called, so a player process that
    imports the game's SDK never pays for it.
    """

    name: str
    """The full name, as the protocol and the store write it (``"tute-cabrero"``)."""
    short: str
    """What ``--game`` accepts besides :attr:`name` (``"cabrero"``)."""
    title: str
    """The game's name for people, marked for the catalog (show it with ``_(spec.title)``)."""
    table_sizes: tuple[int, ...]
    """The seats a partido may have."""
    rulesets: tuple[str, ...]
    """Its rulesets, the default first."""
    new_partido: Callable[..., Any]
    """``new_partido(n, seed, rules, deal=True)``: a :class:`arena.game.Game`."""
    rules_of: Callable[[Any], Any]
    """A rule set, its dict or None (the default) as the game's rule-set object, checked."""
    make_rules: Callable[[str | None, Sequence[str], str, int | None], Any]
    """``make_rules(ruleset, variants, renuncio, juegos)`` from the command line; RulesError (one line)."""
    read_reply: Callable[[object, dict[str, Any]], Any]
    """``read_reply(reply, request)``: the decision a ``play`` (or other) reply states, its shape checked
    (:class:`arena.protocol.ProtocolError`, one line, otherwise); what :meth:`Game.act` is given. The
    house checks only that the reply is one JSON object of at most 4 KiB."""
    push_after: frozenset[str]
    """The events after which every player's queued events are written at once (the end of a baza,
    a mano, …): between them the events go out with each player's next request."""
    reply_event: str
    """The event that records a decision (``"played"``): the referee stamps it with the reply's
    measured times (``ms``, ``cpu_ms``)."""
    counts: tuple[str, ...]
    """The game's per-seat counts in a partido's figures (:func:`arena.referee.stats.partido_stats`),
    besides the house's ``manos`` and ``manos_perdidas``, which :attr:`tally` counts too."""
    tally: Callable[[Sequence[Event], Tally], None]
    """Adds a partido's events to the per-seat counts (``t.out``): the house's two and :attr:`counts`."""
    figures: tuple[Figure, ...]
    """The game's columns of the standings (workbook, terminal, site), after the house's."""
    narrate_start: Callable[[Event, Narrator], Iterator[str]]
    """The first lines of an account of a partido (its ``partido_start``)."""
    narrate_event: Callable[[Event, Narrator, bool], Iterator[str]]
    """The lines of any other event of the game (``hands``: show hidden information, replays only);
    the house tells ``disqualified``, ``penalized``, ``partido_end`` and a hosted playoff."""
    viewer: str
    """The replay viewer's renderer for the game: a JavaScript file (an absolute path) that the site
    copies beside its pages and loads on the game's viewer pages (see ``docs/games.md``)."""
    player_hint: str
    """What a player of this game subclasses (``"arena.sdk.Player"``), for a wrong ``hello``."""
    sdk_modules: tuple[str, ...]
    """What a player process of this game imports (preloaded by the warm start): its public, typed SDK
    first (``"arena.sdk"``, ``"arena.dos.sdk"``: the template imports from it, ``player_hint`` names
    a class of it), then its home under ``arena.games``."""
    samples: str
    """The samples' folder beside the package (``"sample_players"``)."""
    check_opponents: tuple[str, ...]
    """The samples ``arena check`` plays against, in turn."""
    check_tables: tuple[int, ...]
    """The table sizes of ``arena check``'s partidos, in turn."""
    default_folders: tuple[str, ...] = ("players",)
    """Where a torneo looks for entrants when no path is given (then :attr:`samples`)."""
    teams: tuple[tuple[int, ...], ...] | None = None
    """The seats of each team, or None when it is every player for himself."""
    variants: tuple[str, ...] = ()
    renuncio_policies: tuple[str, ...] = ("disqualify", "penalize")
    rule_faults: tuple[str, ...] = ("renuncio", "false_canto", "not_in_hand")
    """The faults against its rules (the faults of a program, ``protocol.PROCESS_FAULTS``, come on top)."""
    guide: str = "docs/student-guide.md"
    """The student guide's page (or section) for this game."""
    options: tuple[str, ...] = field(default=())
    """The command-line options the game takes besides ``--ruleset`` and ``--renuncio`` (``"juegos"``)."""
    template: str = ""
    """The ``player.py`` that ``arena new --game`` writes (``{name}``, ``{cls}``, ``{folder}``), marked for
    the catalog; "" when the game has none."""
    default_player: str = ""
    """A plain player of the game (``module.Class``), for a playoff in another game whose player brings
    none of its own (Tute Cabrero's ``hasta-un-ganador`` and tute de a dos)."""
    penalizable: tuple[str, ...] = ()
    """The rule faults that ``--renuncio penalize`` turns into penalties (a column each in the standings)."""
    fault_names: dict[str, str] = field(default_factory=dict)
    """Its rule faults as people read them (reason -> name, marked for the catalog)."""
    fault_hints: dict[str, str] = field(default_factory=dict)
    """What ``arena check`` tells a player who made a rule fault of this game (reason -> hint, marked
    for the catalog): the game's own obligations, not another game's (the checker's plain hint where
    a game names none)."""

    @property
    def entrants_per_partido(self) -> tuple[int, ...]:
        """How many entrants a partido seats: a side each in a game of teams, else a seat each."""
        return (len(self.teams),) if self.teams else self.table_sizes


def choices(values: Iterable[Iterable[str]]) -> list[str]:
    """Every value once, in first-seen order (the union of the games' rulesets, variants, …)."""
    return list(dict.fromkeys(v for group in values for v in group))


def lazy_engine(module: str, name: str) -> Callable[..., Any]:
    """A ``new_partido`` that imports the game's engine (``module.name``) only when first called."""

    def new_partido(n: int, seed: Seed, rules: Any = None, *, deal: bool = True) -> Any:
        import importlib

        return getattr(importlib.import_module(module), name)(n, seed, rules, deal=deal)

    return new_partido


def rules_reader(kind: type) -> Callable[[Any], Any]:
    """A ``rules_of`` for the rule-set class ``kind``: a rule set, its dict (``from_dict``) or None."""

    def rules_of(value: Any) -> Any:
        return value if isinstance(value, kind) else kind.from_dict(value or {})  # type: ignore[attr-defined]

    return rules_of
