"""Tute de a dos for players and scripts: :mod:`arena.dos.sdk` (the student's API),
:mod:`arena.dos.rules` (the rules as functions) and :mod:`arena.dos.engine` (the partido).

Each re-exports the public names of its module under :mod:`arena.games.dos`. Importing the
package loads none of them: a player importing the SDK starts without the engine.
"""
