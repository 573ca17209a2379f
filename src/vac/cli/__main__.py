"""`python -m vac.cli`: the same command as the `vac` console script."""

import sys

from vac.cli import main

sys.exit(main())
