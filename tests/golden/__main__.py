"""Regenerate golden playthroughs: ``python -m tests.golden [name or kind ...]`` (none: all of them)."""

from __future__ import annotations

import sys

from tests.golden import GOLDENS, named, write


def main(argv: list[str]) -> int:
    """Write the golden file of each game named, by key or by kind (every game when none is)."""
    try:
        games = named(argv)
    except KeyError as exc:
        print(f"no golden game called {exc.args[0]}; known: {', '.join(GOLDENS)}")
        return 2
    for golden in games:
        path = write(golden)
        lines = path.read_text(encoding="utf-8").count("\n")
        print(f"{golden.name}: wrote {path.name} ({lines} lines)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
