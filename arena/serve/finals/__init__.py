"""The final torneo of a ladder's frozen versions, its workbook, site and grades."""
