"""Tute por parejas for players and scripts: :mod:`arena.parejas.sdk` (the student's API),
:mod:`arena.parejas.rules` (the rules as functions) and :mod:`arena.parejas.engine` (the partido).

Each re-exports the public names of its module under :mod:`arena.games.parejas`. Importing the
package loads none of them: a player importing the SDK starts without the engine.
"""
