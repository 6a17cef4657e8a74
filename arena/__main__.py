"""``python -m arena`` runs the command line."""

import os

try:
    from arena.cli import main
except KeyboardInterrupt:  # Ctrl-C while the command is still loading: nothing began
    os._exit(130)  # at once: see arena.cli._Arena.__call__

main()
