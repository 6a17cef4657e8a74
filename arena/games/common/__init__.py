"""What the games of the Tute family share: the cards, dealing from a key, the baza, cantos, faults,
and the student SDK's base class. A game imports this; no game imports another."""
