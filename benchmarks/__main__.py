"""Run the benchmarks: ``python -m benchmarks [--quick] [--json FILE]``."""

import sys

from benchmarks.run import main

sys.exit(main())
