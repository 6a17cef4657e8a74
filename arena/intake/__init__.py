"""A course's submissions coming in: the Moodle export and zip archives unpacked into player
folders, each checked to be a player (``submissions``)."""
