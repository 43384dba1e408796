"""The typefaces every drawing uses, loaded from the fonts shipped in ``render/fonts/``.

The system's font folders are never searched and Pillow's default font is never used: a board
must look the same on every machine, and a missing face is a broken install that should fail
loudly, not draw in other metrics.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

from render.canvas import measured

FOLDER = Path(__file__).resolve().parent / "fonts"
FACES = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "narrow": "DejaVuSansCondensed.ttf",
    "narrow_bold": "DejaVuSansCondensed-Bold.ttf",
}
"""Each face the drawings ask for, by the name they use."""


def path_of(face: str) -> Path:
    """Return the file of a face, failing with a clear message when it is missing."""
    path = FOLDER / FACES[face]
    if not path.is_file():
        raise FileNotFoundError(f"The font {path.name} is missing from {FOLDER}: reinstall Conclave.")
    return path


@lru_cache(maxsize=256)
def load(size: int, face: str = "regular", *, basic: bool = False) -> ImageFont.FreeTypeFont:
    """Return a face at a pixel size (``basic``: Pillow's faster layout, enough for Latin text)."""
    engine = ImageFont.Layout.BASIC if basic else None
    # A face that measures each text once: layouts measure the same words on every board.
    return measured(ImageFont.truetype(str(path_of(face)), size, layout_engine=engine))
