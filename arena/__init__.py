"""tute-arena: a referee and tournament harness for Tute Cabrero bots."""

__version__ = "0.1.0"
