"""``python -m riskmath`` runs the command line."""

import sys

from riskmath.cli import main

sys.exit(main())
