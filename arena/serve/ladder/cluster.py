"""The ladder's partidos on a Dask cluster: ``arena serve --scheduler tcp://HOST:PORT``.

The worker process keeps choosing and recording the partidos (the database stays on this machine);
each partido is played on the cluster exactly as a torneo's is (``arena.tournament.worker.play_task``
through :class:`arena.tournament.cluster.backend.DaskBackend`: the versions' folders shipped as
content-addressed bundles, played in the workers' sandbox, the replay, logs and incident files
sent back). The files are then moved to where a partido played here leaves them, so the pages do
not know the difference. A partido whose worker was lost is submitted again by the backend; one
the cluster cannot play at all goes back to the queue, as for any fault of the machine.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from arena.referee.players import PlayerSpec


def connect(address: str) -> Any:
    """The cluster at ``address`` (``BackendError``, one line, when it cannot be reached or the
    ``distributed`` extra is missing)."""
    from arena.tournament.cluster.backend import DaskBackend

    return DaskBackend(address)


def play(
    backend: Any, partido_id: str, seed: str, specs: Sequence[PlayerSpec], game: str, replay: Path
) -> dict[str, Any]:
    """Play one ladder partido on the cluster into ``replay`` (``specs``: by seat, or the sides of a
    game of teams); the fields of its result: ``winners``, ``ranking`` (by side in a game of teams)
    and ``error`` (a version that could not start)."""
    from arena import games
    from arena.referee.connection import Limits
    from arena.tournament.worker import PartidoTask, play_task

    rules = games.spec(game).checked_rules().to_dict()
    task = PartidoTask(partido_id, seed, tuple(specs), rules, Limits(), str(replay.parent), game=game)
    replay.parent.mkdir(parents=True, exist_ok=True)
    out = backend.submit(play_task, task).result()
    if out.get("failed"):  # the referee's own fault on that worker: the partido is played again later
        raise RuntimeError(str(out.get("error")))
    if out.get("error"):
        return {"error": str(out["error"])[:2000], "winners": [], "ranking": []}
    temp = Path(out["replay"])
    os.replace(temp, replay)
    logs = Path(out["logs"])
    if logs.is_dir():
        shutil.rmtree(f"{replay}.logs", ignore_errors=True)
        os.replace(logs, f"{replay}.logs")
    for path in out["incidents"].values():  # <temp stem>.incident-<seat>-<name>.txt, as here
        os.replace(path, replay.parent / (replay.stem + Path(path).name[len(temp.stem) :]))
    result = out["result"]
    return {"winners": list(result["winners"]), "ranking": [list(g) for g in result["ranking"]], "error": ""}
