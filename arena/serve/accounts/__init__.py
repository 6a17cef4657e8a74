"""Students, their invitations and passwords, the roster, the audit log."""
