"""``python -m store check|backup|copy`` (see store.cli)."""

from __future__ import annotations

import sys

from store.cli import main

sys.exit(main())
