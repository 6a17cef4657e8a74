"""The ladder's app: students, invitations, ladders, versions, the audit log."""
