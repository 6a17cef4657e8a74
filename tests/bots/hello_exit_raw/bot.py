"""Raw protocol: exits with status 3 at once, without reading ``hello`` (a ``crash`` at hello).

Whether the referee's ``hello`` meets a broken pipe or its reply a closed output is a
matter of timing; the fault's detail must not say which.
"""

import sys

print("hello_exit_raw bot: exiting with status 3 before reading anything", file=sys.stderr, flush=True)
sys.exit(3)
