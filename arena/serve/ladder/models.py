"""The ladders: one per game, their partidos (each table's seats, deal and result)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import models, transaction
from django.utils.translation import gettext_lazy as _


def game_choices() -> list[tuple[str, str]]:
    """The games of arena's registry."""
    from arena import games

    return [(name, name) for name in games.names()]


class Ladder(models.Model):
    """One game's ladder, opened by the instructor."""

    game = models.CharField(_("game"), max_length=40, choices=game_choices, unique=True)
    open = models.BooleanField(_("open"), default=False)
    deadline = models.DateTimeField(
        _("deadline"), null=True, blank=True, help_text=_("Uploads are refused after it.")
    )
    paused = models.BooleanField(
        _("paused"), default=False, help_text=_("The workers play none of its partidos.")
    )

    class Meta:
        verbose_name = _("ladder")
        verbose_name_plural = _("ladders")

    def __str__(self) -> str:
        return self.game


def new_seed() -> str:
    """A partido's deal: a fresh secret key."""
    from arena.seeds import new_key

    return new_key()


class PartidoManager(models.Manager["LadderPartido"]):
    """``LadderPartido.objects``: also a partido made with its seats."""

    def create_seated(self, versions: Sequence[int], **fields: Any) -> LadderPartido:
        """A new partido whose seats (in order) are ``versions``' ids, the seats saved with it."""
        with transaction.atomic():
            partido = self.create(**fields)
            Seat.objects.bulk_create(
                Seat(partido=partido, version_id=version, position=position)
                for position, version in enumerate(versions)
            )
        return partido


class LadderPartido(models.Model):
    """One partido of a ladder: its table (versions in seat order), its deal, its result.

    ``versions`` are the versions in seat order (its :class:`Seat` rows; :attr:`version_ids` reads
    them), and ``winners`` and ``ranking`` (groups, best
    first) index into them. In a game of teams (Tute por parejas) they are its *sides* instead,
    side 0's version first: each version plays every seat of its team with processes of its own
    folder, and the ranking ranks sides, as ``arena tournament`` counts them; the replay keeps the
    seats. So the standings read both alike.

    A result is saved only together with the status *done*, in one transaction; a partido left
    *playing* by a stopped server goes back to *queued* and is played again from the start.
    """

    QUEUED = "queued"
    PLAYING = "playing"
    DONE = "done"
    STATUSES = ((QUEUED, _("queued")), (PLAYING, _("playing")), (DONE, _("done")))

    ladder = models.ForeignKey(
        Ladder, on_delete=models.CASCADE, related_name="partidos", verbose_name=_("ladder")
    )
    versions = models.ManyToManyField(
        "submissions.Version",
        through="Seat",
        verbose_name=_("versions"),
        related_name="ladder_partidos",
        help_text=_("Version ids in seat order."),
    )
    seed = models.CharField(_("deal key"), max_length=128, default=new_seed)
    status = models.CharField(_("status"), max_length=10, choices=STATUSES, default=QUEUED, db_index=True)
    winners = models.JSONField(_("winners"), default=list, blank=True)
    ranking = models.JSONField(_("ranking"), default=list, blank=True)
    error = models.TextField(_("error"), blank=True)
    replay = models.CharField(_("replay"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    objects = PartidoManager()

    class Meta:
        verbose_name = _("ladder partido")
        verbose_name_plural = _("ladder partidos")
        ordering = ("-id",)

    def __str__(self) -> str:
        return f"{self.ladder} #{self.pk}"

    @property
    def version_ids(self) -> list[Any]:
        """The versions' ids in seat order (None for a seat whose version was deleted)."""
        return [seat.version_id for seat in self.seats.all()]


class Seat(models.Model):
    """A partido's entrant at one position of its seat order (a side's in a game of teams):
    :attr:`LadderPartido.winners` and :attr:`LadderPartido.ranking` index these positions. A version
    deleted with its student leaves its seat empty (``version`` None), as the partido was played."""

    partido = models.ForeignKey(
        LadderPartido, on_delete=models.CASCADE, related_name="seats", verbose_name=_("partido")
    )
    version = models.ForeignKey(
        "submissions.Version",
        on_delete=models.SET_NULL,
        null=True,
        related_name="seats",
        verbose_name=_("version"),
    )
    position = models.PositiveSmallIntegerField(_("position"))

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ("partido", "position")
        constraints = (
            models.UniqueConstraint(fields=("partido", "position"), name="ladder_seat_unique_position"),
        )

    def __str__(self) -> str:
        return f"{self.partido} seat {self.position}"


def seat_tables(seats: models.QuerySet[Seat]) -> dict[int, list[Any]]:
    """The version ids in seat order of each partido of ``seats`` (by partido id): one query over
    the seats, ordered by partido and position, grouped here."""
    tables: dict[int, list[Any]] = {}
    for partido, version in seats.order_by("partido_id", "position").values_list("partido_id", "version_id"):
        tables.setdefault(partido, []).append(version)
    return tables
