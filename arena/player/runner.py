"""Runs a Python player folder as a protocol-v1 process: ``python -m arena.player.runner FOLDER``.

The referee starts this for every folder with a ``player.py``. The protocol goes
over the real standard output; file descriptor 1 is then pointed at standard
error, so ``print()`` (or a C library writing to stdout) in a bot only reaches
its log and never breaks the protocol.

Exit status: 0 after ``bye`` or end of input; 2 when the folder cannot be
loaded (one line on stderr starting ``arena-load-error:``); 1 when the player
raised (its traceback goes to stderr).
"""

from __future__ import annotations

import json
import os
import sys
import traceback

LOAD_ERROR = "arena-load-error:"
PRINT_NOTE = "arena-note: the player wrote to stdout; it went to this log, not to the referee"  # not shown
"""Written once to the player's log before what it prints; ``arena check`` looks for it (one language)."""


class _StdoutToLog:
    """Stands in for ``sys.stdout``: text goes to stderr (the log), noted once for ``arena check``."""

    def __init__(self) -> None:
        self.noted = False

    def write(self, text: str) -> int:
        if not self.noted and text:
            self.noted = True
            sys.stderr.write(PRINT_NOTE + "\n")
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()

    def __getattr__(self, name: str) -> object:
        return getattr(sys.stderr, name)


def serve(player: object, lines: object, out: object) -> None:
    """Answer requests and deliver events read from ``lines`` until ``bye``."""
    from arena.games.common.player import BasePlayer as Player

    assert isinstance(player, Player)
    write = out.write  # type: ignore[attr-defined]
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    decoder = json.JSONDecoder()
    loads, scan = decoder.decode, decoder.scan_once  # type: ignore[attr-defined]  # (the C scanner)
    for raw in lines:  # type: ignore[attr-defined]
        text = raw.decode()
        try:  # the C scanner straight away: a third less per line than decode's two regex passes
            msg, end = scan(text, 0)
        except StopIteration:
            msg, end = loads(text), 0  # raises the JSONDecodeError decode would have
        if end < len(text) - 1 and text[end:].strip():
            msg = loads(text)  # something after the object: decode says what
        kind = msg.get("type")
        if kind == "play":
            write((dumps(player.handle_play(msg)) + "\n").encode())
        elif kind == "review":
            write((dumps(player.handle_review(msg)) + "\n").encode())
        elif kind == "hello":
            name = player.handle_hello(msg)
            write((dumps({"type": "ready", "id": msg["id"], "name": name}) + "\n").encode())
        elif kind == "bye":
            return
        else:
            player.handle_event(msg)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        from arena.i18n import _

        print(_("usage: python -m arena.player.runner PLAYER_FOLDER"), file=sys.stderr)
        return 2
    protocol_out = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)  # anything written to stdout now lands in the player's log
    sys.stdout = _StdoutToLog()
    from arena.player.loader import PlayerLoadError, load_player_class

    try:
        cls = load_player_class(args[0])
        player = cls()
    except PlayerLoadError as exc:
        print(f"{LOAD_ERROR} {exc}", file=sys.stderr, flush=True)
        return 2
    except Exception as exc:
        from arena.i18n import _

        message = _("{folder}: the player class failed to start: {error}: {message}").format(
            folder=args[0], error=type(exc).__name__, message=exc
        )
        print(LOAD_ERROR, message, file=sys.stderr, flush=True)
        return 2
    try:
        serve(player, sys.stdin.buffer, protocol_out)
    except BrokenPipeError:
        return 0
    except Exception:
        traceback.print_exc()
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
