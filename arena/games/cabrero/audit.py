"""The peek test of Tute Cabrero: for each decision of a partido, how much better the card chosen was
*given the true deal* than *given what the player could see* (``arena audit``, ``docs/audit.md``).

For a decision with a real choice (two legal cards or more) the card's *advantage* is its value minus
the mean value of the legal cards, the value being the mano played out from there by a fixed simple
policy for every seat, a few times (the mover keeps the mano: 1, plus a little for its points). The excess is

    advantage on the true deal − mean advantage over deals drawn from what the player could see

(``inference.infer``: its hand, the cards played, the voids and limits its opponents' plays prove,
the cantos, the card turned up; ``inference.sample_hands``). A player whose choice depends only on
what it may see has an expected excess of 0 whatever its strength or luck: the true deal is one
draw of the deals it could be facing. A player that sees hidden cards, by any channel, chooses what
works on the true deal: its excess is positive. The value needs not be good play, only the same for
the truth and the draws; a better one gives the test more power. The draws are not the exact
posterior (they ignore what an opponent's style says of its hand), which is why the house's test
also asks for a minimum excess (:mod:`arena.results.peek`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from arena.games.cabrero import engine, rules, sdk
from arena.games.cabrero.inference import infer, sample_hands
from arena.games.common.audit import Decision, centred
from arena.games.common.cards import POINTS, cards_of, names_of, parse

Event = dict[str, Any]

DRAWS = 8
"""Deals drawn from what the player could see, per decision (the default of ``arena audit --draws``)."""
ROLLOUTS = 4
"""Plays of the mano to its end per card and deal (the value is their mean)."""
EPSILON = 0.25
"""The share of a rollout's moves made at random: a value that weighs more than one line of play
(measured: it tells a partial peeker from 0 in a third of the partidos the plain policy needs)."""


class _Viewer(sdk.Player):
    """What a seat's SDK player would know (its :class:`~arena.games.cabrero.sdk.TableView`); never plays."""

    def play(self, request: sdk.PlayRequest) -> sdk.Move:  # pragma: no cover - never asked
        raise AssertionError("the audit's viewer is never asked to play")  # not shown: a bug


def _value(m: engine.Mano, card: int, ruleset: rules.RuleSet, rng: random.Random) -> float:
    """The mover's mean outcome after playing ``card``, every seat then playing the simple policy:
    the cheapest card that wins the baza, else the card worth least, leading its strongest card, and
    one move in four at random (:data:`ROLLOUTS` plays)."""
    total = 0.0
    rand = rng.random
    for _r in range(ROLLOUTS):
        mm = m.clone()
        mover = mm.turn
        mm.play(card)
        while not mm.over:
            legal = mm.legal()
            options = cards_of(legal)
            if rand() < EPSILON:
                c = options[int(rand() * len(options))]
            elif mm.lead < 0:  # lead the strongest card
                c = legal.bit_length() - 1
            else:
                winning, trump = mm.winning, mm.trump
                wsuit = winning // 10
                c = -1
                for x in options:  # the cheapest winning card: cards_of goes up
                    if (x // 10 == wsuit and x > winning) or (x // 10 == trump and wsuit != trump):
                        c = x
                        break
                if c < 0:  # cannot win: the card worth least
                    c = min(options, key=lambda x: (POINTS[x], x))
            mm.play(c)
        score = mm.scores()[mover] or 0
        total += (0.0 if mover in mm.losers(ruleset) else 1.0) + score / 1000
    return total / ROLLOUTS


def _advantages(
    m: engine.Mano, legal: Sequence[int], ruleset: rules.RuleSet, rng: random.Random
) -> list[float]:
    return centred([_value(m, c, ruleset, rng) for c in legal])


def excess(
    m: engine.Mano,
    view: sdk.TableView,
    hand: Sequence[str],
    chosen: int,
    ruleset: rules.RuleSet,
    draws: int,
    rng: random.Random,
) -> tuple[int, float] | None:
    """The excess of playing ``chosen`` at mano ``m`` (the true state), seen as ``view`` with ``hand``;
    None without a real choice. Returns (number of legal cards, excess)."""
    legal = cards_of(m.legal())
    if len(legal) < 2 or chosen not in legal:
        return None
    i = legal.index(chosen)
    true = _advantages(m, legal, ruleset, rng)[i]
    know = infer(view, hand)
    drawn = 0.0
    for _d in range(draws):
        drawn += _advantages(m.with_hands(sample_hands(rng, know)), legal, ruleset, rng)[i]
    return len(legal), true - drawn / draws


def _walk(events: Sequence[Event]) -> Iterator[tuple[engine.Partido, Sequence[_Viewer], Event]]:
    """The partido replayed by the engine: at each ``played`` line, the engine just before it, the
    seats' viewers and the line. Nothing for a partido under ``accuse``, with a playoff or a fault
    (their decisions are not only cards, or their turns change with the fault: left out)."""
    start = events[0]
    rules_ = start.get("rules", {})
    skip = ("playoff_start", "disqualified", "penalized")
    if rules_.get("renuncio") == "accuse" or any(e.get("type") in skip for e in events):
        return
    ruleset = rules.RuleSet.from_dict(rules_)
    n = len(start["players"])
    p = engine.Partido(n, start["seed"], ruleset, deal=False)
    viewers = [_Viewer() for _s in range(n)]
    names = [str(player.get("name", s)) for s, player in enumerate(start["players"])]
    for s, viewer in enumerate(viewers):  # what the referee tells each seat before the deal
        viewer.handle_hello({"type": "hello", "id": 0, "protocol": 1, "name": names[s], "limits": {}})
        told = {"partido": start.get("partido", ""), "seat": s, "players": names, "rules": ruleset.to_dict()}
        viewer.handle_event({"type": "partido_start", **told})
    p.start()
    seen = _feed(p, viewers, 0)
    pending: str | None = None
    for e in events[1:]:
        kind = e["type"]
        if kind == "sang":
            if e["canto"] == "tute":
                p.play(None, "tute")
                seen = _feed(p, viewers, seen)
            else:
                pending = e["canto"]
        elif kind == "played":
            assert p.mano is not None and p.to_move == e["seat"], "replay and engine differ"  # not shown
            yield p, viewers, e
            p.play(parse(e["card"]), pending)
            pending = None
            seen = _feed(p, viewers, seen)


def decisions(
    events: Sequence[Event], draws: int = DRAWS, every: int = 1, seed: int = 0
) -> Iterator[Decision]:
    """The audited decisions of one Tute Cabrero partido (its replay's lines), in play order.

    ``every``: audit one decision in ``every`` (a sample, chosen by position, to bound the cost).
    Partidos under the ``accuse`` policy, with a playoff or with a fault are not audited (see
    :func:`_walk`).
    """
    start = events[0]
    ruleset = rules.RuleSet.from_dict(start.get("rules", {}))
    rng = random.Random(f"audit/{start.get('partido', '')}/{seed}")
    for count, (p, viewers, e) in enumerate(_walk(events)):
        if count % every:
            continue
        m = p.mano
        assert m is not None
        seat = e["seat"]
        found = excess(m, viewers[seat].view, names_of(m.hands[seat]), parse(e["card"]), ruleset, draws, rng)
        if found is not None:
            yield Decision(seat, p.mano_number, found[0], found[1], m.baza * 2 > m.nbazas)


def replies(events: Sequence[Event]) -> Iterator[tuple[int, float, int, int]]:
    """Every card played with its measured reply time, for the reply-time tell: (seat, ms, the seat's
    hand then as a card mask, and what its time may honestly depend on, as one number: where it plays
    in the baza and whether it may sing (the events it has just been sent), how many legal cards it
    has, how many it holds)."""
    for p, _viewers, e in _walk(events):
        if "ms" not in e:
            continue
        m = p.mano
        assert m is not None
        hand = m.hands[e["seat"]]
        situation = len(m.table) * 2 + (1 if m.may_sing else 0)  # leading after a baza won, following
        stratum = (situation * 16 + m.legal().bit_count()) * 16 + hand.bit_count()
        yield e["seat"], float(e["ms"]), hand, stratum


def _feed(p: engine.Partido, viewers: Sequence[_Viewer], seen: int) -> int:
    """Give every seat's viewer the new events as that seat sees them."""
    for event in p.events[seen:]:
        for s, viewer in enumerate(viewers):
            viewer.handle_event(p.view(event, s))
    return len(p.events)
