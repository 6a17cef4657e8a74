"""``arena serve`` (``arena.serve``): the web service and its ladder, on one Django (``conftest.py``)."""
