"""The runner's line decoding (the C scanner first, ``json`` for anything odd): the same messages,
the same errors as ``json.loads``."""

from __future__ import annotations

import json

import pytest

from arena.player import runner
from arena.sdk import Player, PlayRequest


class Recorder(Player):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def handle_event(self, message: dict) -> None:
        self.seen.append(message["type"])

    def play(self, request: PlayRequest) -> str:
        return request.hand[0]


class Out:
    def __init__(self) -> None:
        self.data = b""

    def write(self, data: bytes) -> int:
        self.data += data
        return len(data)


@pytest.mark.parametrize(
    "line",
    [
        b'{"type":"sang","seat":1,"canto":"tute"}\n',
        b'  {"type": "sang"}  \n',
        b'{"type":"sang"}',
        b'{"type":"x"}\r\n',
    ],
)
def test_a_line_decodes_as_json_loads_would(line: bytes) -> None:
    player, out = Recorder(), Out()
    runner.serve(player, iter([line, b'{"type":"bye"}\n']), out)
    assert player.seen == [json.loads(line)["type"]] and out.data == b""


@pytest.mark.parametrize(
    "line", [b'{"type":"sang"} junk\n', b"not json\n", b'{"type": \n', b'{"a":1}{"b":2}\n']
)
def test_a_broken_line_raises_what_json_raises(line: bytes) -> None:
    with pytest.raises(json.JSONDecodeError) as caught:
        runner.serve(Recorder(), iter([line]), Out())
    with pytest.raises(json.JSONDecodeError) as expected:
        json.loads(line)
    assert caught.value.msg == expected.value.msg and caught.value.pos == expected.value.pos
