"""python -m search.trace: the command line (view.py)."""
from __future__ import annotations

from .view import main

raise SystemExit(main())
