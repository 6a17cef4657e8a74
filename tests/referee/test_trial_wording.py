"""A replay's account reads well in both languages: a fault's reason after a colon, a partido given no
id, the renuncio policy in words with its code (trial reports)."""

from __future__ import annotations

from typing import Any

from arena import i18n
from arena.referee.narrate import narrate

START: dict[str, Any] = {
    "type": "partido_start",
    "seed": "ab12",
    "players": ["ana", "beto", "caro"],
    "rules": {"ruleset": "clasico", "variants": [], "renuncio": "disqualify"},
}


def told(events: list[dict[str, Any]], lang: str) -> list[str]:
    with i18n.speaking(lang):
        return list(narrate(events))


def test_a_disqualification_names_its_reason_after_a_colon() -> None:
    fault = {"type": "disqualified", "seat": 1, "reason": "crash", "detail": "exit status 1"}
    assert "  beto (1) descalificado: se cayó — exit status 1" in told([START, fault], "es")
    assert "  beto (1) disqualified: crash — exit status 1" in told([START, fault], "en")
    penalty = {"type": "penalized", "seat": 0, "reason": "renuncio", "detail": "1-oro"}
    assert "  ana (0) castigado: renuncio — 1-oro" in told([START, penalty], "es")


def test_the_header_omits_the_default_id_and_says_the_policy_in_words() -> None:
    unnamed = {**START, "partido": "partido"}  # arena play's partido
    assert told([unnamed], "es")[0] == (
        "Partido — semilla ab12, reglas clasico (sin variantes), renuncio: descalificación (disqualify)"
    )
    assert told([unnamed], "en")[0] == (
        "Partido — seed ab12, rules clasico (no variants), renuncio: disqualify"
    )
    named = {**START, "partido": "check-2", "rules": {**START["rules"], "renuncio": "accuse"}}
    assert told([named], "es")[0].startswith("Partido check-2 — semilla ab12")
    assert told([named], "es")[0].endswith("renuncio: acusación (accuse)")


def test_one_more_partido_is_said_in_the_singular() -> None:
    from arena.i18n import n_

    more = (
        "About {more} more partido per player would separate {upper} and {lower}, if their difference is "
        "what it seems.",
        "About {more} more partidos per player would separate {upper} and {lower}, if their difference is "
        "what it seems.",
    )
    settle = (
        "Not separated yet: {pairs}; about {need} more partido in all would settle them (separated or "
        "shown equal).",
        "Not separated yet: {pairs}; about {need} more partidos in all would settle them (separated or "
        "shown equal).",
    )
    with i18n.speaking("es"):
        assert (
            n_(*more, 1)
            .format(more=1, upper="1.º", lower="2.º")
            .startswith("Haría falta 1 partido más por jugador para separar 1.º y 2.º")
        )
        assert (
            n_(*more, 3)
            .format(more=3, upper="1.º", lower="2.º")
            .startswith("Harían falta unos 3 partidos más")
        )
        assert (
            n_(*settle, 1)
            .format(pairs="3.º/4.º", need=1)
            .startswith("Todavía sin separar: 3.º/4.º; 1 partido más en total los resolvería")
        )
    with i18n.speaking("en"):
        assert (
            n_(*settle, 1)
            .format(pairs="3.º/4.º", need=1)
            .startswith("Not separated yet: 3.º/4.º; about 1 more partido in all")
        )


def test_neighbours_that_look_equal_are_not_yet_shown_equal() -> None:
    from arena.i18n import n_

    look = (
        "{places} look equal, each to the next (not yet shown equal): no difference between neighbours shows "
        "in {per_player} partido per player.",
        "{places} look equal, each to the next (not yet shown equal): no difference between neighbours shows "
        "in {per_player} partidos per player.",
    )
    with i18n.speaking("es"):
        assert n_(*look, 40).format(places="2.º–4.º", per_player=40) == (
            "2.º–4.º parecen iguales, cada uno al siguiente (aún no mostrados iguales): no se ve diferencia "
            "entre vecinos en 40 partidos por jugador."
        )
