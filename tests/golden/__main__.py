"""Regenerate golden playthroughs: ``python -m tests.golden [kind ...]`` (no kind: all of them)."""

from __future__ import annotations

import sys

from tests.golden import GOLDENS, write


def main(argv: list[str]) -> int:
    """Write the golden file of each kind named (every kind when none is)."""
    kinds = argv or sorted(GOLDENS)
    unknown = [k for k in kinds if k not in GOLDENS]
    if unknown:
        print(f"no golden game for {', '.join(unknown)}; known: {', '.join(sorted(GOLDENS))}")
        return 2
    for kind in kinds:
        path = write(kind)
        lines = path.read_text(encoding="utf-8").count("\n")
        print(f"{kind}: wrote {path} ({lines} lines)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
