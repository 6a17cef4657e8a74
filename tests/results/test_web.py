"""``arena report DIR --html``: the results site, read with the standard library's HTML parser (no browser).

Two small torneos, one of each game; the Cabrero one has an entrant with a hostile name that
renuncia (a fault with its incident report).
"""

from __future__ import annotations

import json
import math
import shutil
import time
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena import i18n
from arena.cli import main
from arena.results import export, report, web
from arena.tournament.store import Store
from tests.paths import ROOT

pytestmark = pytest.mark.usefixtures("player_processes")  # its torneos start player processes

HOSTILE = "<script>alert(1)<\\script>\"'&"
CSP = "default-src 'none'; img-src 'self' data:; style-src 'self'; script-src 'self'"


class Page(HTMLParser):
    """Elements (tag, attributes, text inside), in document order; plus every link and source."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[dict[str, Any]] = []
        self.open: list[dict[str, Any]] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = {"tag": tag, "attrs": {k: v or "" for k, v in attrs}, "text": ""}
        self.elements.append(node)
        if tag not in ("meta", "link", "br", "img", "input"):
            self.open.append(node)

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            if self.open.pop()["tag"] == tag:
                break

    def handle_data(self, data: str) -> None:
        for node in self.open:
            node["text"] += data

    def find(self, **attrs: str) -> list[dict[str, Any]]:
        return [e for e in self.elements if all(e["attrs"].get(k) == v for k, v in attrs.items())]

    def tags(self, tag: str) -> list[dict[str, Any]]:
        return [e for e in self.elements if e["tag"] == tag]


def _run(args: list[str]) -> str:
    done = CliRunner().invoke(main, args, catch_exceptions=False)
    assert done.exit_code == 0, done.output
    return done.output


@pytest.fixture(scope="module")
def cabrero(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("web")
    players = base / "players"
    for name in ("a_mas", "a_menos"):
        shutil.copytree(ROOT / "sample_players" / name, players / name)
    shutil.copytree(ROOT / "tests" / "bots" / "renuncio", players / HOSTILE)
    out = base / "cabrero"
    output = _run(["tournament", str(players), "--table-size", "3", "--seed", "1", "--out", str(out)])
    assert "Sitio:" in output and (out / "web" / "index.html").is_file()  # a finished torneo writes it
    return out


@pytest.fixture(scope="module")
def parejas(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("web") / "parejas"
    _run(["tournament", "--game", "parejas", str(ROOT / "sample_pairs"), "--seed", "1", "--out", str(out)])
    return out


def _pages(folder: Path) -> list[Path]:
    return sorted((folder / "web").rglob("*.html"))


@pytest.mark.parametrize("game", ["cabrero", "parejas"])
def test_every_page_is_self_contained(game: str, request: pytest.FixtureRequest) -> None:
    folder: Path = request.getfixturevalue(game)
    _run(["report", str(folder), "--html"])
    pages = _pages(folder)
    assert len(pages) >= 3
    for path in pages:
        page = Page(path.read_text(encoding="utf-8"))
        csp = page.find(**{"http-equiv": "Content-Security-Policy"})
        assert csp and csp[0]["attrs"]["content"] == CSP, path
        for e in page.elements:
            for key in ("href", "src"):
                url = e["attrs"].get(key)
                if url is None:
                    continue
                assert ":" not in url.split("/")[0] and not url.startswith("//"), (path, url)
                if not url.startswith("#"):
                    assert (path.parent / url.split("#")[0]).is_file(), (path, url)
        scripts = [s for s in page.tags("script") if "src" not in s["attrs"]]
        assert all(s["attrs"].get("type") == "application/json" for s in scripts), path  # no inline code
        assert "style" not in {k for e in page.elements for k in e["attrs"]}, path  # the CSP forbids it


def test_standings_on_the_page_equal_the_store(cabrero: Path) -> None:
    with i18n.speaking("es"), Store.open(cabrero, readonly=True) as store:
        rep = report.build(store)
    pos = rep.posiciones
    page = Page((cabrero / "web" / "index.html").read_text(encoding="utf-8"))
    rows = [e for e in page.tags("tr") if e["attrs"].get("class") == "entrant"]
    assert [r["attrs"]["data-entrant"] for r in rows] == list(pos["entrant"])
    cells = [e for e in page.elements if e["tag"] == "td" and "data-col" in e["attrs"]]
    by_row: list[dict[str, str]] = []
    for cell in cells:
        if cell["attrs"]["data-col"] == "puesto":
            by_row.append({})
        if by_row and "data-value" in cell["attrs"]:
            by_row[-1][cell["attrs"]["data-col"]] = cell["attrs"]["data-value"]
        if len(by_row) == len(pos) and cell["attrs"]["data-col"] == pos.columns[-1]:
            break
    assert len(by_row) == len(pos)
    for shown, (_i, row) in zip(by_row, pos.iterrows(), strict=True):
        for key, value in row.items():
            if isinstance(value, str):
                continue
            if isinstance(value, float) and math.isnan(value):
                assert shown[str(key)] == ""
            else:
                assert float(shown[str(key)]) == pytest.approx(float(value), rel=1e-12), key
    assert page.find(id="chart") and page.find(id="chart-svg")[0]["attrs"]["role"] == "img"
    for matrix in ("enfrentamientos", "pares"):  # head to head, and the pairwise verdicts' heat map
        (found,) = page.find(id=matrix)
        assert "heat" in found["attrs"]["class"]
    heat = [e for e in page.tags("td") if "data-row" in e["attrs"]]
    assert len(heat) == 2 * len(pos) ** 2
    pares = rep.frames["Pares"].set_index(rep.frames["Pares"].columns[0])
    for cell in heat[len(pos) ** 2 :]:
        value = pares.loc[cell["attrs"]["data-row"], cell["attrs"]["data-col"]]
        assert cell["attrs"]["data-value"] == ("" if math.isnan(value) else repr(float(value)))
    assert page.find(id="partidos") and page.find(**{"data-partido": "p0001"})


def test_hostile_names_come_out_escaped(cabrero: Path) -> None:
    for path in _pages(cabrero):
        text = path.read_text(encoding="utf-8")
        assert "<script>alert" not in text and "\"'&" not in text, path
    page = Page((cabrero / "web" / "index.html").read_text(encoding="utf-8"))
    assert HOSTILE in [r["attrs"].get("data-entrant") for r in page.tags("tr")]  # the attribute, unescaped
    faults = [r for r in page.tags("tr") if r["attrs"].get("class") == "fault"]
    assert faults, "the renuncio bot's fault"
    links = [a["attrs"]["href"] for a in page.tags("a") if a["attrs"]["href"].startswith("incidentes/")]
    assert links and all((cabrero / "web" / x).is_file() for x in links)


@pytest.mark.parametrize("game", ["cabrero", "parejas"])
def test_the_viewer_embeds_the_replay(game: str, request: pytest.FixtureRequest) -> None:
    folder: Path = request.getfixturevalue(game)
    with Store.open(folder, readonly=True) as store:
        recs = store.results(figures=False)
    for rec in recs:
        page = Page((folder / "web" / "partidos" / f"{rec.id}.html").read_text(encoding="utf-8"))
        block = page.find(id="replay-data")[0]["text"]
        lines = (folder / rec.replay).read_text(encoding="utf-8").splitlines()
        stored = [json.loads(x) for x in lines]
        assert "source" in stored[0]["players"][0] and '"source"' not in block  # no server paths shown
        for player in stored[0]["players"]:
            del player["source"]
        assert json.loads(block) == stored
        texts = json.loads(page.find(id="replay-text")[0]["text"])
        assert len(texts) == len(lines)
        viewer = page.find(id="viewer")[0]["attrs"]
        assert viewer["data-step"] == "0" and viewer["data-steps"] == str(len(lines))
        seats = [e for e in page.tags("section") if "data-seat" in e["attrs"]]
        assert len(seats) == len(json.loads(lines[0])["players"])
        for needed in ("first", "prev", "next", "play", "last", "view-as", "centre", "log", "status"):
            assert page.find(id=needed), needed  # the table's centre is the game's renderer's to draw
        scripts = [t["attrs"]["src"] for t in page.tags("script") if t["attrs"].get("src")]
        assert scripts[-2:] == [f"../assets/{web.renderer_name(game)}", "../assets/viewer.js"], scripts
        assert page.find(id="status")[0]["attrs"]["aria-live"] == "polite"


def test_json_blocks_escape_what_could_end_them() -> None:
    block = web.json_block("x", ["</script><b>&", "\u2028"])
    assert "</script><b>" not in block[:-9] and "\u2028" not in block
    inner = block[block.index(">") + 1 : -len("</script>")]
    assert json.loads(inner) == ["</script><b>&", "\u2028"]


def test_english_and_size(parejas: Path) -> None:
    with i18n.speaking("es"):  # put back whatever the CLI's --lang sets
        started = time.perf_counter()
        _run(["report", str(parejas), "--html", "--lang", "en"])
        assert time.perf_counter() - started < 30
        text = (parejas / "web" / "index.html").read_text(encoding="utf-8")
        assert '<html lang="en">' in text
        headers = [th["text"] for th in Page(text).tags("th")]
        assert export.HEADERS["pct_ganados"] in headers and export.HEADERS["entrant"] in headers
        assert len(text.encode()) < 100_000
        _run(["report", str(parejas), "--html", "--lang", "es"])
        assert '<html lang="es">' in (parejas / "web" / "index.html").read_text(encoding="utf-8")


def test_report_needs_a_torneo(tmp_path: Path) -> None:
    done = CliRunner().invoke(main, ["report", str(tmp_path), "--html"])
    assert done.exit_code != 0
    done = CliRunner().invoke(main, ["report", str(tmp_path)])
    assert done.exit_code == 2


def test_an_incomplete_keyed_torneo_publishes_no_replay(tmp_path: Path) -> None:
    """Mid-torneo the hands of a finished partido are a deal that --duplicate rotations still to be
    played use again: like the workbook's seeds, the viewer pages wait for the torneo to be complete."""
    import dataclasses

    from arena.tournament.store import Store

    players = tmp_path / "players"
    for name in ("a_mas", "a_menos", "random_legal"):
        shutil.copytree(ROOT / "sample_players" / name, players / name)
    out = tmp_path / "keyed"
    _run(["tournament", str(players), "--table-size", "3", "--duplicate", "--out", str(out)])  # a secret key
    assert list((out / "web" / "partidos").glob("p*.html"))  # complete: published
    with Store.open(out) as store:
        last = store.scheduled()[-1]
        store.extend([dataclasses.replace(last, pos=last.pos + 1, id="p9999")])  # one more, unplayed
    _run(["report", str(out), "--html"])
    assert not list((out / "web" / "partidos").glob("*.html"))
    index = (out / "web" / "index.html").read_text(encoding="utf-8")
    assert "partidos/p0001.html" not in index and "p0001" in index


@pytest.mark.parametrize("game", ["cabrero", "parejas"])
def test_the_suspicions_read_what_each_seat_lost_with_or_without_the_stats(
    game: str, request: pytest.FixtureRequest
) -> None:
    """A big torneo's Sospechas read each seat's loss (the game's ``loss_count``) from the store's
    rows, a small one from the stats: the same figures (not the porotos left, nor the juegos won)."""
    folder: Path = request.getfixturevalue(game)
    import pandas as pd

    from arena import games
    from arena.results import collusion

    loss = games.spec(game).loss_count
    with Store.open(folder, readonly=True) as store:
        lean, full = report.records(store, figures=False), report.records(store, figures=True)
    assert loss and all("losses" in r and "stats" not in r for r in lean)
    for a, b in zip(lean, full, strict=True):
        assert a["losses"] == [(st[loss], st["manos"]) for st in b["stats"]], a["partido"]
    if game == "parejas":  # (in the Cabrero torneo the renuncio bot ends every partido in its first mano)
        assert any(x for r in lean for x, _m in r["losses"])  # somebody lost something
    names = sorted({p for r in full for p in r["players"]})
    theta = [0.0] * len(names)
    same = collusion.suspicions(lean, names, theta, loss=loss)
    pd.testing.assert_frame_equal(same, collusion.suspicions(full, names, theta, loss=loss))


def test_the_site_s_title_says_torneo_once() -> None:
    from arena import i18n
    from arena.results.web import site_title

    with i18n.speaking("es"):
        assert site_title("curso-2026") == "Torneo curso-2026"
        assert site_title("torneo-20261206-121918") == "Torneo 20261206-121918"
        assert site_title("torneo") == "Torneo"
        assert site_title("final") == "Torneo final"  # arena serve's final
