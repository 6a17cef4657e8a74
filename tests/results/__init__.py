"""Results (``arena.results``): ranking, standings, collusion flags, strength, the workbook, the site."""
