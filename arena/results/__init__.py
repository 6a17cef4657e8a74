"""The results side: standings, their certainty, and the workbook.

The only place pandas, openpyxl, numpy and scipy are imported: the standings
tables (``standings``), the Plackett–Luce order with its bootstrap (``ranking``),
the workbook and CSVs (``export``), the report built from a store (``report``),
and the choice of extra partidos for ``--until-separated`` (``separate``).
"""
