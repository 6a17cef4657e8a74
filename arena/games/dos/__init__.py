"""Tute de a dos (Tute habanero): two players, eight cards each and a monte to draw from
(``docs/rules-dos.md``).

:mod:`~arena.games.dos.rules` holds the rules as pure functions and :class:`DosRules`;
:mod:`~arena.games.dos.engine` the partido, :class:`DosPartido`;
:mod:`~arena.games.dos.sdk` the student's side, :class:`DosPlayer` (players import it as
``arena.dos.sdk``);
:mod:`~arena.games.dos.account` its part of the standings and of the account of a partido;
:mod:`~arena.games.dos.spec` what the house is told.

The package imports none of them on its own: a player importing the SDK starts without the engine.
"""
