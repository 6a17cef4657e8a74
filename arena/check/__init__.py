"""``arena check``: a student's bot played against the samples, with what went wrong and why
(``checker``), and how strong it is (``strength``, ``--strength``)."""
