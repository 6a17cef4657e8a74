"""What a player's faults mean for its author: the fix, not only the fault (issue 51).

Reads a player's own words — a line it wrote to stdout, the tail of its standard error — and
says in one line what went wrong in terms the student can act on:

- :func:`looks_like_debugging`: a stdout line that is no protocol reply but debugging output
  (``console.log``, ``System.out.println``, ``printf``): :data:`DEBUG_TO_STDERR` says where it
  belongs.
- :func:`exception_summary`: the exception a Python, Node or Java player died of, with the file and
  line of the student's own code (the last Python frame in the student's files, not the SDK's; the
  innermost Node or Java frame that is not the runtime's), the sandbox's ``/player`` shown as the
  student's folder.
- :func:`runtime_failure`: a runtime that could not start or ran out of a limit (the JVM's "Could
  not create the Java Virtual Machine", ``pthread_create`` failing with ``EAGAIN``, "JavaScript
  heap out of memory", ``MemoryError``), with :func:`runtime_advice` naming the limit and how to
  live with it.

Everything here reads untrusted text: any input gives a bounded, single line (or None), never an
exception.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from arena.i18n import N_, _
from arena.inert import EXCERPT, printable

SUMMARY_CHARS = 300
"""The most characters of an explanation (it goes into a fault's one-line detail)."""
SCAN_CHARS = 64 * 1024
"""How much of the end of standard error is read (a traceback is at the end)."""
LINE_CHARS = 1000
"""How much of each line is read (the patterns' time stays linear in what is read)."""

DEBUG_TO_STDERR = N_(
    "it looks like debugging output: write debugging to stderr, stdout is only for protocol replies "
    "(Node console.error(…), Java System.err.println(…), C fprintf(stderr, …), "
    "Python print(…, file=sys.stderr))"
)
"""Said of a stdout line that is no protocol reply but looks like debugging (translated where shown)."""


def looks_like_debugging(line: bytes | str | None) -> bool:
    """Whether a line a player wrote to stdout, which is no valid reply, looks like debugging output.

    A reply is a JSON object: a line that does not start with ``{`` (text, a list printed by
    ``console.log``, a number, an empty line) was written for a person, not for the referee."""
    if line is None:
        return False
    text = line.decode("utf-8", errors="replace") if isinstance(line, bytes) else line
    return not text.strip().startswith("{")


# ------------------------------------------------------------------ exceptions

_PY_TRACEBACK = "Traceback (most recent call last):"  # not shown
_PY_FRAME = re.compile(r'^\s*File "(?P<file>[^"\n]+)", line (?P<line>\d+)(?:, in (?P<func>.+))?$', re.M)
_PY_ERROR = re.compile(r"^(?P<name>[A-Za-z_][\w.]*)(?::(?P<message>.*))?$")
_NODE_ERROR = re.compile(
    r"^(?:Uncaught )?(?P<name>[A-Za-z_$][\w$.]*(?:Error|Exception)|Error)(?: \[[\w-]+\])?"
    r"(?::(?P<message>.*))?$"
)
_NODE_FRAME = re.compile(r"^\s+at (?:.*? \()?(?P<file>(?:file://)?/[^():\s]+):(?P<line>\d+)(?::\d+)?\)?\s*$")
_NODE_HEAD = re.compile(r"^(?P<file>/[^():\s]+\.[cm]?[jt]s):(?P<line>\d+)\s*$")
_JAVA_ERROR = re.compile(r'^Exception in thread "[^"\n]*" (?P<name>[\w.$]+)(?::(?P<message>.*))?$')
_JAVA_CAUSE = re.compile(r"^Caused by: (?P<name>[\w.$]+)(?::(?P<message>.*))?$")
_JAVA_FRAME = re.compile(r"^\s+at (?P<method>[\w.$<>/@-]+)\((?P<file>[^():\s]+):(?P<line>\d+)\)\s*$")
_JAVA_RUNTIME = ("java.", "javax.", "jdk.", "sun.", "com.sun.", "kotlin.", "scala.")  # not shown


def exception_summary(stderr_tail: str, roots: Sequence[str], shown: str = "") -> str | None:
    """``Error: message at file:line`` for the exception a player died of, from its standard error.

    ``roots`` are the player's folder as its process saw it (``/player`` in the sandbox, the staged
    copy, the folder itself); a file under one of them is the student's, and is shown under
    ``shown`` (the folder as the student named it; "" for a path relative to the folder). Python:
    the last ``Traceback`` block, its exception line and its last frame in the student's files.
    Node: the error line and the innermost frame in the student's files (or the ``file:line`` Node
    prints first). Java: ``Exception in thread … X: message`` and the innermost frame outside the
    Java runtime. None when no exception is recognised. One line, at most :data:`SUMMARY_CHARS`.
    """
    try:
        text = "\n".join(line[:LINE_CHARS] for line in stderr_tail[-SCAN_CHARS:].splitlines())
        found = _python(text, roots, shown) or _java(text) or _node(text, roots, shown)
    except (ValueError, IndexError, RecursionError):  # untrusted text: never the referee's failure
        return None
    if found is None:
        return None
    error, place = _bounded(found[0], SUMMARY_CHARS - PLACE_CHARS), found[1]
    return _("{error} at {place}").format(error=error, place=_bounded(place, PLACE_CHARS)) if place else error


PLACE_CHARS = 100
"""The most characters of the file and line in :func:`exception_summary`'s line."""


def _bounded(text: str, most: int) -> str:
    one = printable(" ".join(text.split()))
    return one if len(one) <= most else one[: most - 1] + "…"


def _error(name: str, message: str | None) -> str:
    message = (message or "").strip()
    return f"{name}: {message[:EXCERPT]}" if message else name


def _theirs(path: str, roots: Sequence[str], shown: str) -> str | None:
    """``path`` as the student sees it, if it is inside one of ``roots`` (the student's files)."""
    path = path.removeprefix("file://")
    for root in roots:
        prefix = root.rstrip("/") + "/"
        if root and path.startswith(prefix):
            rest = path[len(prefix) :]
            return f"{shown.rstrip('/')}/{rest}" if shown else rest
    return None


def _python(text: str, roots: Sequence[str], shown: str) -> tuple[str, str | None] | None:
    start = text.rfind(_PY_TRACEBACK)
    if start < 0:
        return None
    block = text[start + len(_PY_TRACEBACK) :].splitlines()
    error = None
    for line in block:
        if line and not line[0].isspace():
            m = _PY_ERROR.match(line.rstrip())
            if m and m["name"] not in ("During", "The"):  # not shown
                error = _error(m["name"], m["message"])
                break
    if error is None:
        return None
    place = None
    for m in _PY_FRAME.finditer("\n".join(block)):
        mine = _theirs(m["file"], roots, shown)
        if mine is not None:
            place = f"{mine}:{m['line']}"
    return error, place


def _node(text: str, roots: Sequence[str], shown: str) -> tuple[str, str | None] | None:
    lines = text.splitlines()
    for i in range(len(lines) - 1, -1, -1):
        m = _NODE_ERROR.match(lines[i].rstrip())
        if m is None:
            continue
        place = None
        for frame in lines[i + 1 :]:
            f = _NODE_FRAME.match(frame)
            if f is None:
                break
            mine = _theirs(f["file"], roots, shown)
            if mine is not None:
                place = f"{mine}:{f['line']}"
                break
        if place is None:  # Node's first lines: "/player/bot.js:42", the source line, a caret
            for head in reversed(lines[max(0, i - 6) : i]):
                h = _NODE_HEAD.match(head)
                if h is not None:
                    mine = _theirs(h["file"], roots, shown)
                    place = f"{mine}:{h['line']}" if mine is not None else None
                    break
        return _error(m["name"], m["message"]), place
    return None


def _java(text: str) -> tuple[str, str | None] | None:
    lines = text.splitlines()
    for i in range(len(lines) - 1, -1, -1):
        m = _JAVA_ERROR.match(lines[i].rstrip())
        if m is None:
            continue
        place = None
        for frame in lines[i + 1 :]:
            if _JAVA_CAUSE.match(frame):
                continue
            f = _JAVA_FRAME.match(frame)
            if f is None:
                if frame.strip().startswith("..."):
                    continue
                break
            if place is None and not f["method"].startswith(_JAVA_RUNTIME):
                place = f"{f['file']}:{f['line']}"
        return _error(m["name"], m["message"]), place
    return None


# ------------------------------------------------------------------ exceptions a player caught

_ANY_ERROR = re.compile(
    r"(?:^|(?<=[\s:]))(?P<name>[A-Za-z_$][\w$.]*(?:Error|Exception))(?::(?P<message>.*))?$"
)
_CHAINED = ("During handling of the above exception", "The above exception was the direct cause")  # not shown
LOG_CHARS = 8 * 1024 * 1024
"""How much of a standard-error log :func:`exception_traces` reads (its start: the first trace)."""


def exception_traces(log_text: str, roots: Sequence[str], shown: str = "") -> list[str]:
    """Each exception trace in a player's standard-error log, in order, as :func:`exception_summary`
    says it (``NullPointerException: … at Bot.java:255``): a Python ``Traceback`` (its chained
    exceptions one trace; a ``KeyboardInterrupt``, the checker's own doing, none), a Java stack
    trace (``Exception in thread …`` or ``e.printStackTrace()``'s ``java.lang.X: …`` with ``at
    …(File.java:N)`` frames), a Node error with its ``at …file.js:N`` frames (``err.stack`` after
    any prefix on its line). For the traces a player printed and lived on: a caught exception."""
    try:
        lines = [line[:LINE_CHARS] for line in log_text[:LOG_CHARS].splitlines()]
        return _traces(lines, roots, shown)
    except (ValueError, IndexError, RecursionError):  # untrusted text: never the referee's failure
        return []


def _frame(line: str) -> bool:
    return bool(_JAVA_FRAME.match(line) or _NODE_FRAME.match(line))


def _traces(lines: list[str], roots: Sequence[str], shown: str) -> list[str]:
    found: list[str] = []
    chained = False  # the next Traceback continues the last one
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if line.rstrip() == _PY_TRACEBACK:
            j = i + 1
            while j < n and (not lines[j].strip() or lines[j][0].isspace()):
                j += 1
            error = lines[j].strip() if j < n else ""
            if not chained and error.split(":")[0] != "KeyboardInterrupt":
                found.append(exception_summary("\n".join(lines[i : j + 1]), roots, shown) or error)
            elif chained and found:  # the exception that ended the chain is the one to name
                found[-1] = exception_summary("\n".join(lines[i : j + 1]), roots, shown) or found[-1]
            k = j + 1
            while k < n and not lines[k].strip():
                k += 1
            chained = k < n and lines[k].startswith(_CHAINED)
            i = j + 1
            continue
        m = _ANY_ERROR.search(line.rstrip())
        if m is not None and i + 1 < n and _frame(lines[i + 1]):
            j = i + 1
            while j < n and (
                _frame(lines[j]) or _JAVA_CAUSE.match(lines[j]) or lines[j].strip().startswith("...")
            ):
                j += 1
            frames = lines[i + 1 : j]
            if any(_JAVA_FRAME.match(f) for f in frames):
                head = 'Exception in thread "main" ' + m.group(0).strip()  # not shown
            else:
                head = m.group(0).strip()
            found.append(
                exception_summary("\n".join([head, *frames]), roots, shown) or _error(m["name"], m["message"])
            )
            i = j
            continue
        i += 1
    return found


# ------------------------------------------------------------------ a program not built

_NO_MAIN_CLASS = re.compile(
    r"Could not find or load main class (?P<cls>[\w.$]+)|ClassNotFoundException: (?P<cause>[\w.$]+)"
)
BUILDS = (  # (a source file's pattern, how to build it: {program}, {source})
    ("Makefile", "make"),  # not shown
    ("*.c", "cc -O2 -o {program} {source}"),  # not shown
    ("*.cpp", "c++ -O2 -o {program} {source}"),  # not shown
    ("*.cc", "c++ -O2 -o {program} {source}"),  # not shown
    ("*.go", "go build -o {program} ."),  # not shown
    ("Cargo.toml", "cargo build --release"),  # not shown
    ("*.rs", "rustc -O -o {program} {source}"),  # not shown
)
"""The sources a missing program may be built from, first found first, and the command that builds it."""


def java_not_built(stderr_tail: str) -> str | None:
    """``javac Bot.java`` when a JVM's last words say it found no main class (the classes were not
    compiled, or not in the folder); None otherwise."""
    m = _NO_MAIN_CLASS.search(stderr_tail[-SCAN_CHARS:])
    if m is None:
        return None
    name = (m["cls"] or m["cause"]).rsplit(".", 1)[-1].split("$")[0]
    return f"javac {name}.java" if name.isidentifier() else "javac *.java"  # not shown


def build_command(folder: Path, program: str) -> str | None:
    """How to build ``program`` (a path relative to ``folder``, not there) from a source file in
    ``folder`` (``cc -O2 -o bot bot.c``), or None when it is no relative path or no source is there."""
    if program.startswith("/") or "/" not in program:
        return None
    try:
        files = sorted(p for p in folder.iterdir() if p.is_file())
    except OSError:
        return None
    name = program.removeprefix("./")
    for pattern, build in BUILDS:
        found = [p.name for p in files if p.match(pattern)]
        if found:
            stem = Path(name).name
            source = next((f for f in found if Path(f).stem == stem), found[0])
            return build.format(program=name, source=source)
    return None


# ------------------------------------------------------------------ runtimes that cannot start

MEMORY = "memory"  # not shown
THREADS = "threads"  # not shown

_MEMORY_SIGNS = (
    "could not reserve enough space",  # not shown
    "insufficient memory for the java runtime",  # not shown
    "cannot allocate memory",  # not shown
    "javascript heap out of memory",  # not shown
    "memoryerror",  # not shown
    "out of memory",  # not shown
    "outofmemoryerror",  # not shown
    "std::bad_alloc",  # not shown
)
_THREAD_SIGNS = (
    "pthread_create failed",  # not shown
    "unable to create native thread",  # not shown
    "unable to create new native thread",  # not shown
    "resource temporarily unavailable",  # not shown
    "failed to create thread",  # not shown
)
_JVM_START = "could not create the java virtual machine"  # not shown


def runtime_failure(stderr_tail: str) -> str | None:
    """:data:`MEMORY` or :data:`THREADS` when a player's last words say its runtime ran out of
    memory or could not start a thread (at start-up, most often); None otherwise. A JVM that could
    not start with no other sign is taken for memory (its heap's reservation)."""
    text = stderr_tail[-SCAN_CHARS:].lower()
    if any(sign in text for sign in _THREAD_SIGNS):
        return THREADS
    if any(sign in text for sign in _MEMORY_SIGNS) or _JVM_START in text:
        return MEMORY
    return None


def runtime_advice(kind: str, per_player: bool, memory_mb: int, processes: int) -> str:
    """One line: the limit a runtime met and how to live with it. ``per_player``: the player's cgroup
    holds its memory and threads (else the rlimits fallback: address space and processes per
    process)."""
    if kind == THREADS:
        if per_player:
            text = _(
                "the player may have {n} processes and threads in all (its cgroup's pids.max): "
                "start fewer threads, e.g. java -XX:+UseSerialGC -XX:ActiveProcessorCount=1 "
                "in player.toml's command"
            )
        else:
            text = _(
                "the player may have {n} processes and threads (RLIMIT_NPROC, the fallback without "
                "cgroups): start fewer threads, e.g. java -XX:+UseSerialGC -XX:ActiveProcessorCount=1 "
                "in player.toml's command"
            )
        return text.format(n=processes)
    if per_player:
        text = _(
            "the player has {mb} MiB of memory for its whole process tree (its cgroup's memory.max): "
            "ask the runtime for less, e.g. java -Xmx256m or node --max-old-space-size=256 "
            "in player.toml's command"
        )
    else:
        text = _(
            "each process may reserve {mb} MiB of address space (RLIMIT_AS, the fallback without "
            "cgroups), and a runtime reserves far more than it uses: give it limits in player.toml's "
            "command, e.g. java -Xmx256m -XX:+UseSerialGC -XX:MaxMetaspaceSize=64m, "
            "node --max-old-space-size=256"
        )
    return text.format(mb=memory_mb)


RUNTIME_WORDS = {
    MEMORY: N_("its runtime ran out of memory or could not reserve it"),
    THREADS: N_("its runtime could not start a thread"),
}
"""What :func:`runtime_failure` found, in words (translated where shown)."""


# ------------------------------------------------------------------ the same fault again

_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`")


def fault_key(reason: str, detail: str) -> tuple[str, str]:
    """What makes two faults of one player "the same fault", to report it in full once: a rule
    fault (a renuncio, a card not in hand, a false canto) by its reason alone (the cards differ
    from deal to deal, the mistake does not); a program's fault (``timeout``, ``crash``,
    ``protocol``) by its reason and its detail, quoted values aside (the same exception at the
    same line, whatever card it was about)."""
    from arena.protocol import PROCESS_FAULTS

    if reason not in PROCESS_FAULTS:
        return reason, ""
    return reason, _QUOTED.sub("…", detail)
