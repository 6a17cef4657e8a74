"""The ladder's app: students, invitations, ladders, versions, the ladder's partidos (matchmaking,
workers), the audit log."""
