"""Every game's wire messages against docs/protocol.md: the requests its engine builds and its SDK reads
have exactly the fields the document's tables give, so the code and the document cannot drift."""

from __future__ import annotations

import importlib
import re
from types import ModuleType
from typing import get_args, get_type_hints

import pytest

from arena import games
from arena.games import REGISTERED
from tests.paths import ROOT

DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
CODE = re.compile(r"`([a-z_]+)`")


def _wire(spec_module: str) -> ModuleType:
    return importlib.import_module(spec_module.rsplit(".", 1)[0] + ".wire")


def _requests(wire: ModuleType) -> dict[str, type]:
    """The module's request types by their ``type`` value (``play``, ``review``)."""
    out = {}
    for value in vars(wire).values():
        if isinstance(value, type) and value.__name__.endswith("Request"):
            (kind,) = get_args(get_type_hints(value)["type"])  # Literal["play"]
            out[kind] = value
    return out


def _section(heading: str, game: str) -> str:
    """The text under ``heading``, in the game's own part of the document when it has one."""
    start = 0
    own = re.search(rf"^## .*`{re.escape(game)}`.*$", DOC, re.M)
    if own:
        start = own.start()
    at = DOC.index(heading, start)
    level = heading.split(" ")[0]
    end = re.compile(rf"^#{{1,{len(level)}}} ", re.M).search(DOC, at + len(heading))
    return DOC[at : end.start() if end else len(DOC)]


def _documented(section: str, kind: str) -> set[str]:
    """The field names the section's tables give for requests of ``kind``: the ``fields`` cell of the
    ``kind`` row in a table of requests (``| type | fields | …``), or the first cells of a table of
    fields (``| fields | meaning |``)."""
    names: set[str] = set()
    header: list[str] = []
    for line in section.splitlines():
        if not line.startswith("|"):
            header = []
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not header:
            header = cells
        elif set(cells[0]) <= {"-", ":"}:
            continue
        elif header[0] == "type" and "fields" in header and cells[0] == f"`{kind}`":
            names |= set(CODE.findall(re.sub(r"\([^)]*\)", "", cells[header.index("fields")])))
        elif header[0] == "fields":
            names |= set(CODE.findall(cells[0]))
    return names


@pytest.mark.parametrize("module", REGISTERED)
def test_every_request_has_the_documented_fields(module: str) -> None:
    wire = _wire(module)
    game = importlib.import_module(module).SPEC.name
    section = _section(wire.DOC_SECTION, game)
    requests = _requests(wire)
    assert "play" in requests, f"{wire.__name__} defines no play request"
    for kind, request in requests.items():
        fields = set(request.__annotations__) - {"type"}
        documented = _documented(section, kind) - set(wire.DOC_WORDS)
        assert documented, f"docs/protocol.md gives no fields for {game}'s {kind} under {wire.DOC_SECTION!r}"
        assert fields - {"id"} <= documented, f"{game} {kind}: not in the document: {fields - documented}"
        missing = documented - fields
        assert documented - {"id"} <= fields, f"{game} {kind}: not in {request.__name__}: {missing}"


@pytest.mark.parametrize("module", REGISTERED)
def test_the_engine_builds_what_the_wire_defines(module: str) -> None:
    """Random legal play: every request the engine builds has the wire type's keys, all the required."""
    spec = importlib.import_module(module).SPEC
    requests = _requests(_wire(module))
    import random

    for seed in range(5):
        p = spec.new_partido(spec.table_sizes[0], seed, None)
        rng = random.Random(seed)
        for _step in range(2000):
            if p.over:
                break
            request = dict(p.request())
            kind = requests[request["type"]]
            keys = set(request)
            assert kind.__required_keys__ - {"id"} <= keys <= set(kind.__annotations__), (
                f"{spec.name}: {sorted(keys ^ set(kind.__annotations__))}"
            )
            _random_move(p, request, rng)
    assert games.spec(spec.name) is spec


def _random_move(p: object, request: dict[str, object], rng: object) -> None:
    """One legal decision for ``request``, as a plain player would make it."""
    import random

    assert isinstance(rng, random.Random)
    legal = request.get("legal")
    if request["type"] == "review":
        p.play(None, None, None)  # type: ignore[attr-defined]
    elif legal:
        p.play(rng.choice(legal), None)  # type: ignore[attr-defined]
    elif legal is not None:
        p.play(None, None)  # type: ignore[attr-defined]  # pass
    else:
        from arena.sdk import PlayRequest, TableView  # no legal (Cabrero before revision 1.3): its SDK

        view = TableView()
        for e in p.events:  # type: ignore[attr-defined]
            view.update(p.view(e, p.to_move))  # type: ignore[attr-defined]
        p.play(rng.choice(PlayRequest.from_message(request, view).legal()), None)  # type: ignore
