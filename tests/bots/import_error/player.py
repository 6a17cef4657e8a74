"""Raises while being imported: the folder cannot be loaded."""

from arena.sdk import Player, PlayRequest

raise RuntimeError("import_error bot refuses to load")


class ImportError_(Player):
    def play(self, request: PlayRequest) -> str:
        return request.legal()[0]
