"""The versions of a student's player and their check in the sandbox."""
