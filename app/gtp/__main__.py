"""`python -m app.gtp`: the `tabletop-gtp` console script."""

import sys

from app.gtp.main import main

sys.exit(main())
