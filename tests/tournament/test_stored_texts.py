"""The store keeps codes, not prose: a fault's detail and the other stored texts are a message's
msgid and arguments, said in the language of whoever reads them; an older store's prose still reads."""

from __future__ import annotations

import random
from pathlib import Path

from arena import i18n
from arena.games.common.words import reason_name
from arena.i18n import _, n_
from arena.results import report
from arena.tournament.store import Store
from tests.tournament.test_store import PEOPLE, outcome, schedule

NOT_IN_HAND = "{card} is not in the hand of seat {seat}"


def test_a_said_message_is_kept_as_its_code_and_said_again_in_another_language() -> None:
    with i18n.speaking("es"):
        detail = _(NOT_IN_HAND).format(card="1-oro", seat=2)
        code = i18n.stored(detail)
        assert detail == "1-oro no está en la mano del asiento 2"
        assert code.startswith(i18n.CODE_MARK) and "no está" not in code
        assert i18n.shown(code) == detail
    with i18n.speaking("en"):
        assert i18n.shown(code) == "1-oro is not in the hand of seat 2"


def test_arguments_that_are_messages_and_plurals_are_kept_as_codes_too() -> None:
    with i18n.speaking("es"):
        line = _("{player} disqualified: {reason} — {detail}").format(
            player="ana",
            reason=reason_name("not_in_hand"),
            detail=_(NOT_IN_HAND).format(card="1-oro", seat=0),
        )
        counted = n_("{n} partido", "{n} partidos", 3).format(n=3)
        codes = i18n.stored(line), i18n.stored(counted)
    with i18n.speaking("en"):
        assert (
            i18n.shown(codes[0])
            == "ana disqualified: card not in hand — 1-oro is not in the hand of seat 0"
        )
        assert i18n.shown(codes[1]) == "3 partidos"


def test_prose_and_positional_formats_are_kept_as_they_are() -> None:
    assert i18n.stored("jugó 1-copa") == "jugó 1-copa"
    assert i18n.shown("jugó 1-copa") == "jugó 1-copa"  # an older store's detail
    assert i18n.shown(None) == "" and i18n.shown("") == ""
    positional = _("{} x").format("a")
    assert i18n.stored(positional) == str(positional)


def test_a_torneo_read_in_the_other_language_shows_its_faults_in_that_one(tmp_path: Path) -> None:
    plan = schedule(6)
    Store.create(tmp_path, {"table_size": 4, "seed": 3}, PEOPLE, plan).close()
    rng = random.Random(8)
    with i18n.speaking("es"), Store.open(tmp_path) as store:
        for p in plan:
            work = outcome(store, p, rng)
            for f in work["result"]["faults"]:
                f["detail"] = _(NOT_IN_HAND).format(card="1-copa", seat=f["seat"])
            store.commit(p, work)
        store.record_exclusions(
            [(str(tmp_path / "roto"), "no arranca", _("a line was written when no request was waiting"))]
        )
    with i18n.speaking("en"), Store.open(tmp_path) as store:
        details = [f["detail"] for rec in report.records(store) for f in rec["faults"]]
        conf = report.configuration(store)
    assert details and all(d.startswith("1-copa is not in the hand of seat") for d in details)
    assert "a line was written when no request was waiting" in conf.values()
    with i18n.speaking("es"), Store.open(tmp_path) as store:
        assert all(
            "no está en la mano" in f["detail"] for rec in report.records(store) for f in rec["faults"]
        )
