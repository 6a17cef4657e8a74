"""What a game tells the rest of the house: :class:`GameSpec`, one per game, registered in
:mod:`arena.games`. The referee, tournament, results, site and CLI ask the spec; none of them
names a game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from arena.seeds import Seed

Event = dict[str, Any]


class Rules(Protocol):
    """A game's rule set, as the referee records it."""

    def to_dict(self) -> dict[str, Any]:
        """The rules as plain values, for ``hello``, ``partido_start`` and the store."""
        ...


class Game(Protocol):
    """A partido in progress, as the referee drives it.

    Seats are ``0..n-1``. ``events`` is the omniscient record (the replay's lines
    after ``partido_start``), appended to as the partido goes.
    """

    n: int
    events: list[Event]
    winners: list[int]
    disqualified: list[int]
    mano_number: int
    over: bool

    @property
    def rules(self) -> Rules:
        """The partido's rule set."""
        ...

    @property
    def seed(self) -> Seed:
        """What the deals come from (shown in the replay once the torneo is over)."""
        ...

    @property
    def scores(self) -> list[int]:
        """The game's score of each seat so far, as the store keeps it (Tute Cabrero: porotos left;
        the games of juegos: juegos won; its meaning is the game's)."""
        ...

    @property
    def to_move(self) -> int | None:
        """The seat to reply next, or None when the partido is over."""
        ...

    def start(self) -> None:
        """Deal the first mano (a partido is created undealt, so hello faults come first)."""

    def request(self) -> Mapping[str, Any]:
        """What the seat to move may see: the protocol's play request (the game's ``wire`` types)."""
        ...

    def legal_actions(self) -> list[Any]:
        """Every decision the seat to move may take now (the game's own values, as its
        :attr:`~arena.games.gamespec.GameSpec.read_reply` reads them): what a random legal player
        picks from, and what the conformance library (:mod:`arena.check.conformance`) plays."""
        ...

    def view(self, event: Event, seat: int) -> Event:
        """``event`` (one of :attr:`events`) as the player at ``seat`` may see it."""
        ...

    def act(self, decision: Any) -> None:
        """The seat to move takes ``decision`` (read from its reply by the game's ``read_reply``); a
        :class:`arena.errors.FaultError` (the game's rule fault) if the rules forbid it."""

    def fault(self, seat: int, reason: str, detail: str, **evidence: Any) -> bool:
        """Record ``seat``'s fault (disqualify or penalize); False when it no longer plays."""
        ...

    def ranking(self) -> list[list[int]]:
        """Seats in groups, best first; a group is a tie."""
        ...


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
    moves: bool = False
    """Whether every decision gets its line (the site's viewer), not only those a summary leaves out."""


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
    """``new_partido(n, seed, rules, deal=True)``: a :class:`Game`."""
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
    reply_example: str = '{"type":"play","id":<id>,...}'
    """A reply to ``play`` as ``arena check`` shows it to a player whose reply broke the protocol
    (translated where shown, when the catalog has it)."""
    audit: Callable[[Sequence[Event], int, int], Iterator[tuple[int, float, bool]]] | None = None
    """The game's peek test (``arena audit``): ``audit(events, draws, every)`` yields, for the audited
    decisions of a partido's replay, the seat, its *excess* — how much better the decision was on
    the true deal than on the deals the seat could be facing (0 in expectation for a player that sees
    only what it may) — and whether it came late in the mano (its second half: what a channel passes
    accrues over the mano, so a second test reads those alone). None: the game has none yet."""
    tell: Callable[[Sequence[Event]], Iterator[tuple[int, float, int, int]]] | None = None
    """The reply-time tell's data (``arena audit``): ``tell(events)`` yields, for each timed decision of
    a partido's replay, the seat, its reply time (ms), its hidden holding then (a bit mask) and what its
    time may honestly depend on (a stratum: e.g. how many legal cards). None: the game has none."""
    loss_count: str = ""
    """The count of what a seat gives up (Tute: ``porotos_perdidos``): the Sospechas sheet's second
    measure, a seat's loss per 100 manos with a partner minus without ("": the game counts none)."""
    team_counts: tuple[str, ...] = ()
    """In a game of teams, the counts a side has once (both partners lost the same porotos), not summed."""
    titles: dict[str, str] = field(default_factory=dict)
    """Titles of the game's other columns of the standings (key -> title, marked for the catalog): those
    a policy adds, as Tute's ``accuse`` adds its renuncios and accusations."""
    viewer_words: dict[str, str] = field(default_factory=dict)
    """The words the viewer's renderer writes (key -> text, marked for the catalog), given to it
    translated as ``ctx.words`` beside the house's (``step``, ``start``, ``play``, ``pause``, ``out``)."""
    penalizable: tuple[str, ...] = ()
    """The rule faults that ``--renuncio penalize`` turns into penalties (a column each in the standings)."""
    fault_names: dict[str, str] = field(default_factory=dict)
    """Its rule faults as people read them (reason -> name, marked for the catalog)."""
    fault_hints: dict[str, str] = field(default_factory=dict)
    """What ``arena check`` tells a player who made a rule fault of this game (reason -> hint, marked
    for the catalog): the game's own obligations, not another game's (the checker's plain hint where
    a game names none)."""

    def checked_rules(
        self,
        ruleset: str | None = None,
        variants: Iterable[str] = (),
        renuncio: str = "disqualify",
        juegos: int | None = None,
    ) -> Any:
        """The game's rule set from the command line's values; RulesError (one line) for a wrong one.

        ``ruleset`` None is the game's default; ``variants``, ``renuncio`` and ``juegos`` must be
        ones the game has.
        """
        from arena.errors import RulesError
        from arena.i18n import _

        chosen = tuple(variants)
        if ruleset is not None and ruleset not in self.rulesets:
            raise RulesError(
                _("{game} has no ruleset {name}; its rulesets: {known}").format(
                    game=self.name, name=repr(ruleset), known=", ".join(self.rulesets)
                )
            )
        for variant in chosen:
            if variant not in self.variants:
                raise RulesError(
                    _("{game} has no variant {name}; its variants: {known}").format(
                        game=self.name, name=repr(variant), known=", ".join(self.variants) or _("none")
                    )
                )
        if renuncio not in self.renuncio_policies:
            raise RulesError(
                _("{game} has no renuncio policy {name}; its policies: {known}").format(
                    game=self.name, name=repr(renuncio), known=", ".join(self.renuncio_policies)
                )
            )
        if juegos is not None and "juegos" not in self.options:
            raise RulesError(_("{game} is not played to juegos: drop --juegos").format(game=self.name))
        return self.make_rules(ruleset, chosen, renuncio, juegos)

    @property
    def entrants_per_partido(self) -> tuple[int, ...]:
        """How many entrants a partido seats: a side each in a game of teams, else a seat each."""
        return (len(self.teams),) if self.teams else self.table_sizes


def seat_sides(sides: tuple[tuple[int, ...], ...]) -> list[int]:
    """The team of each seat, in seat order (``((0, 2), (1, 3))`` -> ``[0, 1, 0, 1]``)."""
    out = [0] * sum(len(t) for t in sides)
    for index, seats in enumerate(sides):
        for seat in seats:
            out[seat] = index
    return out


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
