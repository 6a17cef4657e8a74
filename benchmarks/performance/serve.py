"""``arena serve`` under a class: page latency, ladder throughput and durability on this machine.

1. **Setup.** A service folder in a temporary directory, prepared by a separate Python process
   (``arena.serve.boot``, Django's ORM): one instructor, ``--students`` (100) students sharing one
   known password, an open ladder of the default game (Tute Cabrero) and ``--seeded`` (4) clean
   versions (copies of the legal sample players), so the workers play from the start.
2. **Load**, in two phases, by a bounded pool of ``--clients`` (20) threads of ``http.client``
   against the real server (``python -m arena serve DIR --port P --workers W`` on 127.0.0.1, in a
   session of its own, ``ARENA_SERVE_CHECK_PARTIDOS=--check-partidos``):

   a. **The login burst.** The whole class logs in within ``--burst`` (10) s, each student at a
      random moment of it (``/login/``: the form, then the POST with its CSRF token); the first
      ``--uploaders`` (8) of those without a version then upload a zip of a sample player
      (``/upload``, then the version's page). *p95 login ms* is over the login POSTs.
   b. **Steady use**, for ``--seconds`` (60): every student's standings tab polls
      ``/ladders/<id>/live.json`` every ``--poll`` (3) s, as the page's own script does (naming the
      answer it last drew in ``If-None-Match``: 304 when unchanged), and every
      ``--think`` (10) s ± 50% the student opens a page: the standings (``/ladders/<id>/``), half the
      time one done partido it lists (its viewer page or its text replay) and, an uploader, its own
      page (``/me``). *p95 page ms* is over every request of this phase.

   Every request is timed (redirects are not followed: each page is one request). Throughput: the
   partidos whose ``finished_at`` falls in the steady phase, read from the database; the web
   process's own CPU meanwhile (cores, from /proc) says how much of the machine the pages took. The
   replays' wall-clock timeouts (a player's move that passed ``move_wall_ms``) are counted over the run.
3. **Durability.** ``--kills`` (3) times: once a partido has been playing for a moment, the
   server's whole process group gets SIGKILL; the player processes it had (its descendants, from
   /proc) must be gone within 5 s; the server is started again on the same folder and plays until
   a partido more is done. Then it is stopped and the partidos compared with each snapshot
   taken before a kill: *lost* is a partido done before a kill that is gone, no longer done, or
   whose result, end time or replay changed; *doubled* is a done partido whose replay does not
   hold exactly one partido with the row's result, or whose deal key another done one has.
4. **Disk.** The bytes under ``DIR/ladder/`` (replays, logs, incidents) per 1000 done partidos,
   and what they would take uncompressed.
5. **Alone.** ``arena tournament`` on the same machine, with the same versions' folders and the
   same ``--workers``, ``--alone-partidos`` (300) partidos at tables of 4, at the niceness of the
   server's worker process (so that other work on the machine weighs on both alike): partidos per
   minute from its store (first start to last end). 300 take half a minute or more, as the steady
   phase does; 30 (the default before) took 2–7 s, too short a sample to compare a minute with.

Other engineers may load the machine meanwhile: the load average is printed at the start and the
end. About 3–5 minutes on 2 cores with the defaults. Prints, as its last line,
``p95 page ms: X; p95 login ms: L; partidos per minute while serving: Y (Z% of arena tournament
alone); lost or doubled partidos after 3 SIGKILLs: 0; disk per 1000 partidos: D MB``; exits 1 when
a partido was lost or doubled, a player process outlived a kill or a page failed.

    python benchmarks/performance/serve.py
    python benchmarks/performance/serve.py --students 30 --seconds 20 --kills 1 --alone-partidos 10
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import gzip
import hashlib
import heapq
import http.client
import io
import json
import os
import random
import re
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[2]  # the checkout: benchmarks/<kind>/<script>.py
SAMPLES = ("a_mas", "a_menos", "random_legal", "vigilante")
"""The legal sample players the versions are copies of (seeded and uploaded in turn)."""
PASSWORD = "bench-serve-Tute-2026"
"""Every account's password (one hash for all: hashing 100 would take a minute)."""
TABLE = "ladder_ladderpartido"

SETUP = """
import json, shutil, sys
from pathlib import Path
from arena.serve import boot
folder = boot.configure(sys.argv[1])
boot.migrate()
students, seeded, password, samples = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5:]
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from arena import games
from arena.serve.accounts.models import Student
from arena.serve.submissions.models import Version
from arena.serve.ladder.models import Ladder
users = get_user_model()
hashed = make_password(password)
users.objects.create(username="instructor", password=hashed, is_staff=True, is_superuser=True)
names = [f"s{i:03d}@bench.example" for i in range(students)]
users.objects.bulk_create([users(username=n, email=n, password=hashed) for n in names])
made = {u.username: u for u in users.objects.filter(username__in=names)}
Student.objects.bulk_create([Student(user=made[n], display_name=f"Student {n[1:4]}", email=n) for n in names])
ladder = Ladder.objects.create(game=games.default().name, open=True)
for i, student in enumerate(Student.objects.filter(user__username__in=names[:seeded]).order_by("id")):
    home = folder / "uploads" / str(student.pk) / "1" / "player"
    shutil.copytree(Path(samples[i % len(samples)]), home)
    Version.objects.create(student=student, number=1, ladder=ladder, folder=str(home), status="clean")
print(json.dumps({"ladder": ladder.pk, "students": names}))
"""
"""Run as ``python -c SETUP DIR STUDENTS SEEDED PASSWORD SAMPLE...``: the service's rows."""


# --- the server ---


def free_port() -> int:
    """A TCP port free on the loopback now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``arena serve`` in a session (and process group) of its own, its output in a log file."""

    def __init__(self, folder: Path, workers: int, check_partidos: int, log: Path) -> None:
        self.folder, self.log = folder, log
        self.port = free_port()
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
        env["ARENA_SERVE_CHECK_PARTIDOS"] = str(check_partidos)
        argv = [sys.executable, "-m", "arena", "serve", str(folder), "--port", str(self.port)]
        with log.open("ab") as sink:
            self.proc = subprocess.Popen(
                [*argv, "--workers", str(workers)],
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=sink,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self._wait_ready()

    def _wait_ready(self, timeout: float = 90.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"arena serve exited {self.proc.returncode}:\n{self.tail()}")
            with contextlib.suppress(OSError, http.client.HTTPException):
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                try:
                    conn.request("GET", "/login/")
                    if conn.getresponse().status == 200:
                        return
                finally:
                    conn.close()
            time.sleep(0.2)
        raise RuntimeError(f"arena serve not answering after {timeout:.0f} s:\n{self.tail()}")

    def tail(self, lines: int = 20) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def signal(self, signum: int) -> None:
        """``signum`` to the whole process group."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signum)

    def stop(self) -> None:
        """Ctrl-C (SIGINT to the group), then SIGKILL after 10 s."""
        if self.proc.poll() is None:
            self.signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.signal(signal.SIGKILL)
                self.proc.wait()
        self.signal(signal.SIGKILL)  # whatever of the group is left


# --- the students ---


@dataclass
class Page:
    """One timed request."""

    kind: str
    ms: float
    status: int


@dataclass
class Log:
    """Every request of the load, from every thread."""

    pages: list[Page] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, page: Page, expected: tuple[int, ...]) -> None:
        with self.lock:
            self.pages.append(page)
            if page.status not in expected:
                self.failures.append(f"{page.kind}: {page.status}")


TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
REPLAY = re.compile(r'href="(/partidos/\d+/(?:replay)?)"')
VERSION = re.compile(r"/versions/(\d+)")


class Student:
    """One student's browser: a keep-alive connection and its cookies."""

    def __init__(self, username: str, port: int, log: Log, upload: str | None) -> None:
        self.username, self.port, self.log, self.upload = username, port, log, upload
        self.cookies: dict[str, str] = {}
        self.conn: http.client.HTTPConnection | None = None
        self.logged_in = False
        self.version: str | None = None
        self.drawn = ""
        """The ETag of the live standings this student's tab last drew."""

    def request(
        self,
        kind: str,
        method: str,
        path: str,
        body: bytes | None = None,
        ctype: str = "",
        ok: int | tuple[int, ...] = 200,
        more: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], str]:
        """One timed request (redirects not followed), with the ``more`` headers; (status, headers,
        text). 599: no answer."""
        headers = {"Host": f"127.0.0.1:{self.port}", **(more or {})}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if ctype:
            headers["Content-Type"] = ctype
        if method == "POST":
            headers["Referer"] = f"http://127.0.0.1:{self.port}{path}"
        start = time.monotonic()
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
            text = response.read().decode("utf-8", errors="replace")
        except (OSError, http.client.HTTPException) as exc:
            if self.conn is not None:
                self.conn.close()
            self.conn = None
            with self.log.lock:
                self.log.pages.append(Page(kind, 1000 * (time.monotonic() - start), 599))
                self.log.failures.append(f"{kind}: {type(exc).__name__}: {exc}")
            return 599, {}, ""
        self.log.add(
            Page(kind, 1000 * (time.monotonic() - start), response.status),
            ok if isinstance(ok, tuple) else (ok,),
        )
        for value in response.headers.get_all("Set-Cookie") or ():
            for name, morsel in SimpleCookie(value).items():
                self.cookies[name] = morsel.value
        if response.getheader("Connection", "").lower() == "close":
            self.conn.close()
            self.conn = None
        return response.status, {k.lower(): v for k, v in response.getheaders()}, text

    def log_in(self) -> None:
        status, _, text = self.request("login form", "GET", "/login/")
        found = TOKEN.search(text)
        if status != 200 or not found:
            return
        form = {"csrfmiddlewaretoken": found[1], "username": self.username, "password": PASSWORD}
        form["next"] = ""
        status, _, _ = self.request(
            "log in", "POST", "/login/", urlencode(form).encode(), "application/x-www-form-urlencoded", ok=302
        )
        self.logged_in = status == 302

    def send_upload(self, ladder: int) -> None:
        assert self.upload is not None
        status, _, text = self.request("me", "GET", "/me")
        found = TOKEN.search(text)
        if status != 200 or not found:
            return
        boundary = f"bench{random.getrandbits(64):x}"
        body = multipart(
            boundary,
            {"csrfmiddlewaretoken": found[1], "ladder": str(ladder)},
            ("player", f"{self.upload}.zip", zipped(ROOT / "sample_players" / self.upload)),
        )
        ctype = f"multipart/form-data; boundary={boundary}"
        status, headers, _ = self.request("upload", "POST", "/upload", body, ctype, ok=302)
        self.upload = None
        where = VERSION.search(headers.get("location", ""))
        if status == 302 and where:
            self.version = where[1]
            self.request("version", "GET", f"/versions/{self.version}")

    def arrive(self, ladder: int) -> None:
        """The login burst: log in, and upload a version if this student is one who does."""
        self.log_in()
        if self.logged_in and self.upload:
            self.send_upload(ladder)

    def poll(self, ladder: int) -> None:
        """The standings tab's own poll, naming the answer it last drew as live.js does (304 if unchanged)."""
        if self.logged_in:
            more = {"If-None-Match": self.drawn} if self.drawn else {}
            path = f"/ladders/{ladder}/live.json"
            status, headers, _ = self.request("live.json", "GET", path, ok=(200, 304), more=more)
            if status == 200:
                self.drawn = headers.get("etag", "")

    def step(self, ladder: int) -> None:
        """What a student does at one of their moments of steady use."""
        if not self.logged_in:
            self.arrive(ladder)
            return
        status, _, text = self.request("standings", "GET", f"/ladders/{ladder}/")
        replays = REPLAY.findall(text) if status == 200 else []
        if replays and random.random() < 0.5:
            path = random.choice(replays)
            self.request("replay" if path.endswith("replay") else "viewer", "GET", path)
        if self.version:
            self.request("me", "GET", "/me")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


def zipped(folder: Path) -> bytes:
    """A zip of a player folder, one level down, as a student makes it."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                z.write(path, f"{folder.name}/{path.relative_to(folder)}")
    return buffer.getvalue()


def multipart(boundary: str, fields: dict[str, str], upload: tuple[str, str, bytes]) -> bytes:
    """A multipart/form-data body: the fields, then one file."""
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
        for k, v in fields.items()
    ]
    name, filename, data = upload
    head = f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
    parts.append(head.encode() + b"Content-Type: application/zip\r\n\r\n" + data + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode()


def burst(students: list[Student], ladder: int, threads: int, seconds: float) -> None:
    """The login burst: every student arrives once at a random moment of ``seconds``."""

    def run(mine: list[Student]) -> None:
        for when, s in sorted((time.monotonic() + random.uniform(0, seconds), s) for s in mine):
            time.sleep(max(0.0, when - time.monotonic()))
            s.arrive(ladder)

    pool = [threading.Thread(target=run, args=(students[k::threads],)) for k in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()


def clients(
    students: list[Student], ladder: int, threads: int, seconds: float, think: float, poll: float = 0.0
) -> None:
    """The students' moments until ``seconds`` are over, by ``threads`` threads (each its own share):
    a page every ``think`` s ± 50%, and the live standings every ``poll`` s (0: none)."""
    end = time.monotonic() + seconds

    def run(mine: list[Student]) -> None:
        start = time.monotonic()
        due = [(start + random.uniform(0, think), i, False) for i in range(len(mine))]
        if poll > 0:
            due += [(start + random.uniform(0, poll), i, True) for i in range(len(mine))]
        heapq.heapify(due)
        while due:
            when, i, polling = heapq.heappop(due)
            if max(when, time.monotonic()) >= end:
                break
            time.sleep(max(0.0, when - time.monotonic()))
            if polling:
                mine[i].poll(ladder)
                heapq.heappush(due, (max(time.monotonic(), when + poll), i, True))
            else:
                mine[i].step(ladder)
                heapq.heappush(due, (time.monotonic() + think * random.uniform(0.5, 1.5), i, False))
        for s in mine:
            s.close()

    pool = [threading.Thread(target=run, args=(students[k::threads],)) for k in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()


# --- the database and the processes ---


def rows(db: Path) -> dict[int, dict[str, Any]]:
    """Every ladder partido, by id (a read-only connection of its own)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        conn.row_factory = sqlite3.Row
        query = f"SELECT id, status, winners, ranking, finished_at, replay, seed, error FROM {TABLE}"
        return {r["id"]: dict(r) for r in conn.execute(query)}
    finally:
        conn.close()


def stamp(moment: dt.datetime) -> str:
    """A moment as Django keeps it in SQLite (UTC, ``YYYY-MM-DD HH:MM:SS.ffffff``)."""
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M:%S.%f")


def done_between(db: Path, start: dt.datetime, end: dt.datetime) -> int:
    """Partidos done with their end in [start, end)."""
    return sum(
        1
        for r in rows(db).values()
        if r["status"] == "done" and r["finished_at"] and stamp(start) <= r["finished_at"] < stamp(end)
    )


def wait_for(what: Any, timeout: float, every: float = 0.1) -> bool:
    """Call ``what()`` until it is true or ``timeout`` s pass; whether it was."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if what():
            return True
        time.sleep(every)
    return False


def processes() -> dict[int, tuple[int, str]]:
    """Every live process: pid -> (parent pid, start time); zombies left out."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z":
            found[int(entry)] = (int(fields[1]), fields[19])
    return found


def descendants(pid: int) -> set[tuple[int, str]]:
    """``pid``'s descendants now, as (pid, start time)."""
    table = processes()
    children: dict[int, list[int]] = defaultdict(list)
    for child, (parent, _) in table.items():
        children[parent].append(child)
    found, todo = set(), [pid]
    while todo:
        for child in children[todo.pop()]:
            found.add((child, table[child][1]))
            todo.append(child)
    return found


def survivors(before: set[tuple[int, str]], timeout: float = 5.0) -> set[tuple[int, str]]:
    """Those of ``before`` still running after ``timeout`` s."""
    alive: set[tuple[int, str]] = set()

    def gone() -> bool:
        nonlocal alive
        table = processes()
        alive = {(p, t) for p, t in before if table.get(p, (0, ""))[1] == t}
        return not alive

    wait_for(gone, timeout)
    return alive


def mentioning(folder: Path) -> set[tuple[int, str]]:
    """Live processes whose command line names ``folder`` (a player's sandbox binds its folder)."""
    found = set()
    for pid, (_, started) in processes().items():
        with contextlib.suppress(OSError):
            if str(folder).encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.add((pid, started))
    return found


def digest(path: str) -> str:
    """A replay file's SHA-256 ('' when missing)."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return ""


def snapshot(db: Path) -> dict[int, dict[str, Any]]:
    """Every partido now, the done ones with their replay's digest."""
    now = rows(db)
    for r in now.values():
        r["digest"] = digest(r["replay"]) if r["status"] == "done" and r["replay"] else ""
    return now


def lost(before: dict[int, dict[str, Any]], after: dict[int, dict[str, Any]]) -> dict[int, str]:
    """Partidos of ``before`` gone after, and done ones no longer done the same: id -> what."""
    out = {}
    for pk, r in before.items():
        later = after.get(pk)
        if later is None:
            out[pk] = f"partido {pk} ({r['status']}) is gone"
        elif r["status"] == "done":
            same = ("status", "winners", "ranking", "finished_at", "replay", "seed")
            changed = [k for k in same if later[k] != r[k]]
            if digest(later["replay"]) != r["digest"]:
                changed.append("replay file")
            if changed:
                out[pk] = f"partido {pk} was done; changed: {', '.join(changed)}"
    return out


def doubled(after: dict[int, dict[str, Any]]) -> list[str]:
    """Done partidos whose replay is not one partido with their result, or whose deal repeats."""
    out = []
    done = [r for r in after.values() if r["status"] == "done"]
    for r in done:
        if not r["replay"] and r["error"]:
            continue  # a version that could not start: no result to double
        try:
            events = [json.loads(line) for line in replay_text(r["replay"]).splitlines() if line]
        except (OSError, ValueError) as exc:
            out.append(f"partido {r['id']}: replay unreadable ({exc})")
            continue
        starts = sum(1 for e in events if e.get("type") == "partido_start")
        ends = [e for e in events if e.get("type") == "partido_end"]
        if starts != 1 or len(ends) != 1:
            out.append(f"partido {r['id']}: its replay holds {starts} starts and {len(ends)} ends")
        elif ends[0]["winners"] != json.loads(r["winners"]) or ends[0]["ranking"] != json.loads(r["ranking"]):
            out.append(f"partido {r['id']}: its replay's result is not the row's")
    seeds = Counter(r["seed"] for r in done)
    out += [f"deal {seed[:12]}… is done {n} times" for seed, n in seeds.items() if n > 1]
    return out


def replay_text(path: str) -> str:
    """A replay's text, compressed (``.gz``) or not."""
    data = Path(path).read_bytes()
    return (gzip.decompress(data) if path.endswith(".gz") else data).decode("utf-8")


def wall_timeouts(after: dict[int, dict[str, Any]]) -> tuple[int, int]:
    """(wall-clock timeouts, all timeouts) of the players in the done partidos' replays."""
    wall = every = 0
    for r in after.values():
        if r["status"] != "done" or not r["replay"]:
            continue
        with contextlib.suppress(OSError, ValueError):
            for line in replay_text(r["replay"]).splitlines():
                if '"timeout"' not in line:
                    continue
                event = json.loads(line)
                if event.get("reason") == "timeout":
                    every += 1
                    detail = str(event.get("detail", ""))
                    wall += "wall-clock" in detail or "de reloj" in detail
    return wall, every


def disk(folder: Path, partidos: int) -> tuple[float, float]:
    """MB per 1000 done partidos under ``folder`` (``DIR/ladder``): as stored, and uncompressed."""
    stored = plain = 0
    for path in folder.rglob("*"):
        if not path.is_file() or path.is_symlink():
            continue
        size = path.stat().st_size
        stored += size
        if path.name.endswith(".gz"):
            with contextlib.suppress(OSError, EOFError, gzip.BadGzipFile), gzip.open(path) as f:
                size = sum(len(chunk) for chunk in iter(lambda: f.read(1 << 20), b""))
        plain += size
    per = 1000 / max(1, partidos) / 1e6
    return stored * per, plain * per


def clean_folders(db: Path) -> list[Path]:
    """The folders of the clean versions not withdrawn (the ladder's players)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        query = "SELECT folder FROM submissions_version WHERE status = 'clean' AND withdrawn = 0 ORDER BY id"
        return [Path(f) for (f,) in conn.execute(query)]
    finally:
        conn.close()


# --- arena tournament alone ---


def alone(folders: list[Path], workers: int, partidos: int, tmp: Path, nice: int = 0) -> float:
    """Partidos per minute of ``arena tournament`` between ``folders`` (first start to last end), at
    niceness ``nice`` (the server's workers', so that other load on the machine weighs on both alike)."""
    field_dir = tmp / "alone-players"
    entrants = []
    for folder in folders:
        dest = field_dir / f"v{len(entrants) + 1:02d}"
        shutil.copytree(folder, dest, ignore=shutil.ignore_patterns("__pycache__"))
        entrants.append(str(dest))
    out = tmp / "alone"
    argv = ["--out", str(out), "--workers", str(workers), "--partidos", str(partidos), "--table-size", "4"]
    subprocess.run(
        [
            *(["nice", "-n", str(nice)] if nice else []),
            sys.executable,
            "-m",
            "arena",
            "tournament",
            *entrants,
            *argv,
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        check=True,
    )
    conn = sqlite3.connect(f"file:{out / 'torneo.sqlite'}?mode=ro", uri=True)
    try:
        n, first, last = conn.execute("SELECT COUNT(*), MIN(started), MAX(finished) FROM partidos").fetchone()
    finally:
        conn.close()
    seconds = (dt.datetime.fromisoformat(last) - dt.datetime.fromisoformat(first)).total_seconds()
    print(f"arena tournament alone: {n} partidos in {seconds:.1f} s ({workers} workers, niceness +{nice})")
    return 60 * n / seconds


# --- the run ---


def setup(folder: Path, students: int, seeded: int) -> tuple[int, list[str]]:
    """The service's rows, made in a process of its own; the ladder's id and the user names."""
    samples = [str(ROOT / "sample_players" / s) for s in SAMPLES]
    done = subprocess.run(
        [sys.executable, "-c", SETUP, str(folder), str(students), str(seeded), PASSWORD, *samples],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    made = json.loads(done.stdout.strip().splitlines()[-1])
    return int(made["ladder"]), list(made["students"])


def worker_nice() -> int:
    """The niceness the server's worker process adds (``ARENA_SERVE_WORKER_NICE``, default 10)."""
    sys.path.insert(0, str(ROOT))
    from arena.serve.ladder.pool import worker_niceness

    return worker_niceness()


def p95(values: list[float]) -> float:
    """The 95th percentile (the value itself for one)."""
    return statistics.quantiles(values, n=20)[18] if len(values) > 1 else (values or [0.0])[0]


def report(name: str, log: Log, seconds: float) -> None:
    """Each kind of request's count, median and p95, and the failures, of one phase."""
    kinds: dict[str, list[float]] = defaultdict(list)
    for page in log.pages:
        kinds[page.kind].append(page.ms)
    unchanged: dict[str, int] = defaultdict(int)
    for page in log.pages:
        unchanged[page.kind] += page.status == 304
    for kind, ms in sorted(kinds.items()):
        said = f", {unchanged[kind]} of them 304" if unchanged[kind] else ""
        print(
            f"  {kind}: {len(ms)} requests{said}, median {statistics.median(ms):.0f} ms, p95 {p95(ms):.0f} ms"
        )
    print(f"{name}: {len(log.pages)} requests in {seconds:.0f} s, {len(log.failures)} failed")
    for failure, n in Counter(log.failures).most_common(8):
        print(f"  failed: {failure} ×{n}")


def load_phase(
    args: argparse.Namespace, server: Server, ladder: int, names: list[str]
) -> tuple[Log, Log, float]:
    """The login burst, then ``--seconds`` of steady use; the two phases' logs and the partidos per
    minute during the steady one."""
    db = server.folder / "serve.sqlite3"
    if not wait_for(lambda: done_between(db, dt.datetime(2000, 1, 1, tzinfo=dt.UTC), now()) > 0, 120, 0.5):
        raise RuntimeError(f"no partido done in 120 s:\n{server.tail()}")
    uploaders = names[args.seeded : args.seeded + args.uploaders]
    logins, steady = Log(), Log()
    students = [
        Student(n, server.port, logins, SAMPLES[i % len(SAMPLES)] if n in uploaders else None)
        for i, n in enumerate(names)
    ]
    print(f"load average before the login burst: {os.getloadavg()[0]:.2f}")
    start = time.monotonic()
    burst(students, ladder, args.clients, args.burst)
    report("login burst", logins, time.monotonic() - start)
    for s in students:
        s.log = steady
    print(f"load average before steady use: {os.getloadavg()[0]:.2f}")
    start_at, cpu = now(), cpu_seconds(server.proc.pid)
    clients(students, ladder, args.clients, args.seconds, args.think, args.poll)
    end_at, cpu = now(), cpu_seconds(server.proc.pid) - cpu
    minutes = (end_at - start_at).total_seconds() / 60
    rate = done_between(db, start_at, end_at) / minutes
    report("steady use", steady, 60 * minutes)
    if logins.failures or steady.failures:  # the server's own account of it (a 500's traceback)
        print(f"the server's log, last lines:\n{server.tail(60)}")
    print(f"the web process's CPU during steady use: {cpu / (60 * minutes):.2f} cores (of {os.cpu_count()})")
    return logins, steady, rate


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) process ``pid`` has used itself, in seconds (0 when gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def kill_and_restart(
    server: Server, args: argparse.Namespace, k: int
) -> tuple[Server, dict[int, dict[str, Any]], int]:
    """SIGKILL the server's group mid-partido, check no process of it is left, start it again."""
    db = server.folder / "serve.sqlite3"
    if not wait_for(lambda: any(r["status"] == "playing" for r in rows(db).values()), 60):
        print(f"kill {k}: no partido was playing within 60 s; killing anyway")
    time.sleep(random.uniform(0.2, 1.0))
    before = snapshot(db)
    family = descendants(server.proc.pid)
    playing = sum(r["status"] == "playing" for r in before.values())
    server.signal(signal.SIGKILL)
    server.proc.wait()
    left = survivors(family) | mentioning(server.folder)
    done = sum(r["status"] == "done" for r in before.values())
    print(
        f"kill {k}: SIGKILL with {playing} playing, {done} done, {len(family)} processes under the server;"
        f" {len(left)} left after 5 s"
    )
    for pid, _ in sorted(left):
        with contextlib.suppress(OSError):
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")[:160]
            print(f"  left: {pid} {command.decode(errors='replace')}")
            os.kill(pid, signal.SIGKILL)
    server = Server(server.folder, args.workers, args.check_partidos, server.log)
    after_start = now()
    if not wait_for(lambda: done_between(db, after_start, now()) > 0, 60, 0.5):
        print(f"kill {k}: no partido done within 60 s of the restart")
    return server, before, len(left)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=100, help="simulated students (default 100)")
    parser.add_argument("--clients", type=int, default=20, help="client threads they share (default 20)")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the load (default 60)")
    parser.add_argument("--think", type=float, default=10.0, help="a student's mean pause, s (default 10)")
    parser.add_argument("--poll", type=float, default=3.0, help="the live standings' poll, s (3; 0: none)")
    parser.add_argument("--burst", type=float, default=10.0, help="the login burst's length, s (default 10)")
    parser.add_argument("--workers", type=int, default=2, help="the server's workers, and the torneo's")
    parser.add_argument("--uploaders", type=int, default=8, help="students who upload a version (8)")
    parser.add_argument("--seeded", type=int, default=4, help="clean versions at the start (default 4)")
    parser.add_argument("--check-partidos", type=int, default=1, help="partidos of an upload's check (1)")
    parser.add_argument("--kills", type=int, default=3, help="SIGKILLs of the server (default 3)")
    parser.add_argument("--alone-partidos", type=int, default=300, help="partidos of the torneo alone (300)")
    parser.add_argument("--keep", type=Path, default=None, help="work in this new folder and keep it")
    args = parser.parse_args(argv)
    if args.students < args.seeded + args.uploaders:
        parser.error("--students must be at least --seeded + --uploaders")
    tmp = args.keep or Path(tempfile.mkdtemp(prefix="bench-serve-"))
    tmp.mkdir(parents=True, exist_ok=True)
    folder = tmp / "service"
    server: Server | None = None
    print(f"load average at the start: {os.getloadavg()[0]:.2f} on {len(os.sched_getaffinity(0))} cores")
    try:
        ladder, names = setup(folder, args.students, args.seeded)
        server = Server(folder, args.workers, args.check_partidos, tmp / "server.log")
        logins, steady, rate = load_phase(args, server, ladder, names)
        snapshots, left = [], 0
        for k in range(1, args.kills + 1):
            server, before, n = kill_and_restart(server, args, k)
            snapshots.append(before)
            left += n
        family = descendants(server.proc.pid)
        server.stop()
        family_left = survivors(family) | mentioning(folder)
        final = snapshot(folder / "serve.sqlite3")
        gone: dict[int, str] = {}
        for before in snapshots:
            gone.update(lost(before, final))
        double = doubled(final)
        for problem in [*gone.values(), *double]:
            print(f"  {problem}")
        bad = len(gone) + len(double)
        print(f"partidos at the end: {dict(Counter(r['status'] for r in final.values()))}")
        print(f"player processes left: {left} after the kills, {len(family_left)} after the stop")
        wall, timeouts = wall_timeouts(final)
        print(f"players' timeouts in the replays: {timeouts}, {wall} of them wall-clock")
        done = sum(r["status"] == "done" for r in final.values())
        stored, plain = disk(folder / "ladder", done)
        print(f"disk: {done} partidos done, {stored:.2f} MB per 1000 as stored ({plain:.2f} MB uncompressed)")
        folders = clean_folders(folder / "serve.sqlite3")
        print(f"versions clean: {len(folders)}")
        solo = alone(folders, args.workers, args.alone_partidos, tmp, worker_nice())
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")
        ms = p95([p.ms for p in steady.pages])
        login_ms = p95([p.ms for p in logins.pages if p.kind == "log in"])
        print(
            f"p95 page ms: {ms:.0f}; p95 login ms: {login_ms:.0f};"
            f" partidos per minute while serving: {rate:.1f}"
            f" ({100 * rate / solo:.0f}% of arena tournament alone);"
            f" lost or doubled partidos after {args.kills} SIGKILLs: {bad};"
            f" disk per 1000 partidos: {stored:.1f} MB"
        )
        return 1 if bad or left or family_left or logins.failures or steady.failures else 0
    finally:
        if server is not None:
            server.stop()
        if args.keep is None:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
