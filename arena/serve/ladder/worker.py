"""The ladder's partidos between the active versions, played one after another.

Each worker process of the queue ``partidos`` runs :func:`arena.serve.ladder.tasks.play_partidos`,
which calls :func:`play_next` for each open ladder.

:func:`play_next` claims a partido (the oldest queued one, else a new table from
:mod:`arena.serve.ladder.matchmaking`) by setting it *playing*, plays it with
:func:`arena.referee.table.play_folders` in the sandbox, and saves the result together with the
status *done* in one transaction, its replay and logs compressed (:mod:`arena.serve.ladder.storage`,
which also prunes old partidos' files). :func:`requeue_interrupted` (at start) sends the partidos a
killed server left *playing* back to *queued*: they are played again from the start, and since a
result exists only with *done*, none is counted twice.

A partido's ``versions`` are its seats' versions in seat order, and its ``winners`` and
``ranking`` are seats; in a game of teams (Tute por parejas) they are its *sides* instead (side 0's
version first; each plays every seat of its team), as ``arena tournament`` counts them, so the
standings read both alike.
"""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet, TextField
from django.db.models.functions import Cast
from django.utils import timezone

from arena.serve.ladder import matchmaking, storage
from arena.serve.ladder.models import Ladder, LadderPartido, Seat, seat_tables
from arena.serve.submissions.models import Version

log = logging.getLogger(__name__)

_choosing = threading.Lock()
"""One worker of this process at a time chooses a new table (so two do not pick the same one)."""


def ladder_versions(ladder: Ladder) -> QuerySet[Version]:
    """The versions uploaded for ``ladder``: its own, and those of no ladder when it plays the
    default game (the one their check played)."""
    from arena import games

    mine = Q(ladder=ladder)
    if ladder.game == games.default().name:
        mine |= Q(ladder__isnull=True)
    return Version.objects.filter(mine).exclude(folder="").exclude(withdrawn=True)


def active_ids(ladder: Ladder) -> list[int]:
    """The ids of the versions that play in ``ladder`` (see :func:`matchmaking.active_versions`)."""
    rows = ladder_versions(ladder).values_list("id", "student_id", "number", "status", "chosen")
    return matchmaking.active_versions(
        matchmaking.Candidate(i, s, n, status == Version.CLEAN, chosen) for i, s, n, status, chosen in rows
    )


def played(ladder: Ladder) -> tuple[list[list[int]], list[matchmaking.Outcome]]:
    """The tables of ``ladder``'s partidos (queued, playing or done, in the order created) and
    the done ones' tables with their rankings (a partido without a ranking informs no standing).

    The tables come from one query over the seats (:func:`seat_tables`); the rankings (a JSON field)
    come as text and are decoded as one document: a ladder's thousands of partidos load in a quarter
    of the time the field's own decoding of each value takes."""
    text = TextField()
    rows = list(ladder.partidos.order_by("id").values_list("id", Cast("ranking", text)))
    tables = seat_tables(Seat.objects.filter(partido__ladder=ladder))
    rankings = json.loads("[" + ",".join(ranking for _pk, ranking in rows) + "]")
    seen = [(tables.get(pk, []), ranking) for (pk, _text), ranking in zip(rows, rankings, strict=True)]
    return [t for t, _r in seen], [(t, ranking) for t, ranking in seen if ranking]


def requeue_interrupted() -> int:
    """Partidos left *playing* (a server stopped mid-partido) back to *queued*; how many."""
    return LadderPartido.objects.filter(status=LadderPartido.PLAYING).update(
        status=LadderPartido.QUEUED, started_at=None
    )


def _claim(ladder: Ladder) -> LadderPartido | None:
    """The oldest queued partido of ``ladder``, else a new one from the matchmaking, now *playing*."""
    with transaction.atomic():
        for queued in ladder.partidos.filter(status=LadderPartido.QUEUED).order_by("id"):
            taken = LadderPartido.objects.filter(pk=queued.pk, status=LadderPartido.QUEUED).update(
                status=LadderPartido.PLAYING, started_at=timezone.now()
            )
            if taken:
                return LadderPartido.objects.get(pk=queued.pk)
    from arena import games

    spec = games.spec(ladder.game)
    with _choosing, transaction.atomic():
        Ladder.objects.select_for_update().filter(pk=ladder.pk).first()  # one choice at a time (processes)
        seats, outcomes = played(ladder)
        table = matchmaking.next_table(active_ids(ladder), seats, spec.entrants_per_partido, outcomes)
        if not table:
            return None
        return LadderPartido.objects.create_seated(
            versions=table, ladder=ladder, status=LadderPartido.PLAYING, started_at=timezone.now()
        )


_cluster: Any = None
"""The Dask cluster the partidos are played on (``arena serve --scheduler``), else None: here."""


def use_cluster(backend: Any) -> None:
    """Play every partido from now on on ``backend`` (:func:`arena.serve.ladder.cluster.connect`)."""
    global _cluster
    _cluster = backend


def replay_path(partido: LadderPartido) -> Path:
    """Where ``partido``'s replay goes: ``DIR/ladder/<ladder id>/<partido id>.jsonl``."""
    return Path(settings.DIR) / "ladder" / str(partido.ladder_id) / f"{partido.pk}.jsonl"


def _play(partido: LadderPartido) -> dict[str, object]:
    """Play ``partido`` from the start; the fields its result sets.

    In a game of teams (Tute por parejas) ``partido.versions`` are its sides: each version plays
    in every seat of its team, each seat a process of its folder, as in ``arena tournament``
    (:func:`arena.tournament.sides.seat_specs`); the winners and the ranking are then by side
    (:func:`arena.tournament.sides.end_by_side`), indexes into ``partido.versions`` as for a game
    of seats. The replay keeps the seats."""
    from arena import games
    from arena.games.gamespec import seat_sides
    from arena.referee.players import PlayerLoadError, find_player
    from arena.referee.table import play_folders
    from arena.tournament.sides import end_by_side, seat_specs

    replay = replay_path(partido)
    storage.remove_partido(replay)  # a partido played again starts from nothing
    table = partido.version_ids
    folders = dict(Version.objects.filter(pk__in=table).values_list("id", "folder"))
    game = partido.ladder.game
    sides = games.spec(game).teams
    try:
        specs = [find_player(folders[v]) for v in table]
        if _cluster is not None:
            from arena.serve.ladder import cluster

            pid = f"ladder-{partido.ladder_id}-{partido.pk}"
            return cluster.play(_cluster, pid, partido.seed, specs, game, replay)
        if sides:
            specs = seat_specs(specs, sides)
        result, _incidents = play_folders(
            specs,
            partido.seed,
            ruleset=games.spec(game).checked_rules(),
            replay=replay,
            partido_id=f"ladder-{partido.ladder_id}-{partido.pk}",
            game=game,
        )
    except (PlayerLoadError, KeyError) as exc:  # a version cannot start (or is gone): no result
        return {"error": str(exc)[:2000], "winners": [], "ranking": []}
    end: dict[str, Any] = {"winners": list(result.winners), "ranking": [list(g) for g in result.ranking]}
    if sides:
        end = end_by_side(end, seat_sides(sides))
    return {"winners": list(end["winners"]), "ranking": [list(g) for g in end["ranking"]], "error": ""}


def play_next(ladder: Ladder) -> LadderPartido | None:
    """Claim, play and record one partido of ``ladder``; None when there is none to play."""
    partido = _claim(ladder)
    if partido is None:
        return None
    try:
        fields = _play(partido)
        stored = storage.compress_partido(replay_path(partido))
    except BaseException:  # the machine, not the players (no sandbox, a full disk): tried again later
        LadderPartido.objects.filter(pk=partido.pk, status=LadderPartido.PLAYING).update(
            status=LadderPartido.QUEUED, started_at=None
        )
        raise
    with transaction.atomic():
        saved = LadderPartido.objects.filter(pk=partido.pk, status=LadderPartido.PLAYING).update(
            status=LadderPartido.DONE,
            replay=str(stored),
            finished_at=timezone.now(),
            **fields,
        )
    if not saved:  # re-queued meanwhile (a restart): it is played again, this result is dropped
        log.warning("ladder partido %s was re-queued while playing: result dropped", partido.pk)  # not shown
    partido.refresh_from_db()
    return partido
