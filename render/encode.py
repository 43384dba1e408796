"""Write a palette image as a PNG, with a fast deflate.

Every drawing is posted as a palette PNG. Pillow's writer spends most of a drawing's encoding in
zlib (and in trying a filter for each row, which a palette image gains nothing from). This writes
the same pixels with each row unfiltered and compressed by ISA-L's deflate (``isal``), several
times faster than zlib at a like size. The file is a standard PNG: IHDR, PLTE, one IDAT, IEND.
"""

from __future__ import annotations

import struct
import zlib

from isal import isal_zlib
from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"
LEVEL = 1
"""ISA-L's level 1: as small as zlib's level 3 here, at a fraction of its time."""


def palette_png(image: Image.Image) -> bytes:
    """Return a palette ("P") image without transparency as PNG bytes."""
    if image.mode != "P" or "transparency" in image.info:
        raise ValueError("palette_png writes opaque palette images only")
    width, height = image.size
    colours = image.getpalette() or [0, 0, 0]
    colours = colours[: 3 * 256]
    # Each PNG row starts with its filter type: a column of zeros on the left is filter 0 (none).
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(image, (1, 0))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", bytes(colours)),
            _chunk(b"IDAT", isal_zlib.compress(rows.tobytes(), LEVEL)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
