"""``arena serve``: the course ladder as a web service (Django, served by waitress).

The first slice: accounts from a roster with one-time invitation links, uploads of a player's zip
(unpacked as ``arena submissions import`` does) checked in the background by ``arena check``, each
version's report for its author and the instructor. The second: ladders whose workers play
partidos between the clean versions, their standings and replays. See docs/serve.md.
"""
