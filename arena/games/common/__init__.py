"""What the games of the Tute family share: the cards, dealing from a key, the baza, cantos, faults,
the student SDK's base class, and the engine of a partido played to N juegos (:mod:`.juegos`).
A game imports this; no game imports another."""
