"""Run the solver's command line: ``python -m cantstop.solve --help``."""

import sys

from cantstop.solve.cli import main

sys.exit(main())
