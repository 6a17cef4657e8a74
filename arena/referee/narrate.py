"""A readable account of a partido, in the game's Spanish terms, from its events."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from arena.inert import printable

Message = dict[str, Any]

OUTCOMES = {
    "points": "por puntos",
    "capote": "capote",
    "tute": "tute",
    "void": "mano anulada",
    "penalty": "renuncio castigado",
}
REASONS = {
    "renuncio": "renuncio",
    "false_canto": "canto falso",
    "not_in_hand": "carta que no tiene",
    "timeout": "tiempo agotado",
    "crash": "se cayó",
    "protocol": "error de protocolo",
}


def _cantos(canto: str) -> str:
    return {"tute": "¡tute!", "cuarenta": "las cuarenta"}.get(
        canto, canto.replace("veinte-", "las veinte en ")
    )


def narrate(events: Sequence[Message], hands: bool = False, only_mano: int | None = None) -> Iterator[str]:
    """Lines telling the partido; ``hands`` adds every hand (replays only).

    Names and details come from the players: every line is shown inert (:func:`arena.inert.printable`).
    """
    for line in _narrate(events, hands, only_mano):
        yield printable(line)


def _narrate(events: Sequence[Message], hands: bool, only_mano: int | None) -> Iterator[str]:
    names: list[str] = []
    mano = 0

    def who(seat: int) -> str:
        return f"{names[seat]} ({seat})" if seat < len(names) else f"asiento {seat}"

    def seats(group: Sequence[int]) -> str:
        return ", ".join(who(s) for s in group) or "nadie"

    for e in events:
        kind = e["type"]
        if kind == "partido_start":
            names = (
                [p["name"] for p in e["players"]]
                if "players" in e and isinstance(e["players"][0], dict)
                else list(e.get("players", []))
            )
            rules = e.get("rules", {})
            variants = ", ".join(rules.get("variants", [])) or "sin variantes"
            yield (
                f"Partido {e.get('partido', '')} — semilla {e.get('seed', '?')}, "
                f"reglas {rules.get('ruleset')} ({variants}), renuncio: {rules.get('renuncio')}"
            )
            yield "Jugadores: " + ", ".join(who(s) for s in range(len(names)))
            continue
        if kind == "mano_start":
            mano = e["mano"]
        if only_mano is not None and mano != only_mano and kind != "partido_end":
            continue
        if kind == "mano_start":
            extra = []
            if e["shown"]:
                extra.append(f"muestra {e['shown']}")
            if e["out_of_play"]:
                extra.append(f"fuera de juego {e['out_of_play']}")
            if e.get("sitting_out") is not None:
                extra.append(f"{who(e['sitting_out'])} reparte y no juega")
            yield ""
            yield (
                f"Mano {mano}: triunfo {e['trump']}; es mano {who(e['mano_seat'])}, da {who(e['dealer'])}"
                + ("; " + "; ".join(extra) if extra else "")
            )
            for sw in e.get("swaps", []):
                took = sw["took"] or "una carta oculta"
                yield f"  Cambio: {who(sw['seat'])} da {sw['gave']} y toma {took}"
            if hands and e.get("hands"):
                for s, h in enumerate(e["hands"]):
                    if h is not None:
                        yield f"  {who(s)}: {' '.join(h)}"
        elif kind == "sang":
            yield f"  {who(e['seat'])} canta {_cantos(e['canto'])}"
        elif kind == "trick_end":
            cards = ", ".join(
                f"{names[c['seat']] if c['seat'] < len(names) else c['seat']} {c['card']}" for c in e["cards"]
            )
            yield f"  Baza {e['trick']}: {cards} → se la lleva {who(e['winner'])}"
        elif kind in ("disqualified", "penalized"):
            verb = "descalificado" if kind == "disqualified" else "castigado"
            yield f"  {who(e['seat'])} {verb} por {REASONS.get(e['reason'], e['reason'])}: {e['detail']}"
        elif kind == "mano_end":
            scores = e.get("scores")
            pts = ""
            if scores:
                pts = "; puntos " + ", ".join(
                    f"{names[s] if s < len(names) else s} {v}" for s, v in enumerate(scores) if v is not None
                )
            yield f"  Fin de la mano {e['mano']} ({OUTCOMES.get(e['outcome'], e['outcome'])}){pts}"
            yield f"  Pierden: {seats(e['losers'])}; porotos: " + ", ".join(
                f"{names[s] if s < len(names) else s} {v}" for s, v in enumerate(e["porotos"])
            )
            if e["eliminated"]:
                yield f"  Se retiran: {seats(e['eliminated'])}"
        elif kind == "partido_end":
            yield ""
            yield f"Fin del partido tras {e.get('manos', mano)} manos. Ganan: {seats(e['winners'])}"
            yield "Posiciones: " + " | ".join(f"{i}. {seats(g)}" for i, g in enumerate(e["ranking"], 1))
