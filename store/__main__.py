"""``python -m store check DB [--repair]`` and ``python -m store backup DB COPY`` (see store.check)."""

from __future__ import annotations

import sys

from store.check import main

sys.exit(main())
