"""Cross-cutting: golden replays, the student's API, the wire against the docs, one language and
the message catalogs, inert output, secret deals."""
