"""Run the ``cantstop`` command line: ``python -m cantstop``."""

import sys

from cantstop.commands import main

if __name__ == "__main__":
    sys.exit(main())
