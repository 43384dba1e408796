"""The replay GIF drawn: public boards as frames, joined into one animation under Discord's limit.

The service picks which public views become frames (``service/replay.py``); this draws them.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from PIL import Image, UnidentifiedImageError

import render

REPLAY_LIMIT = 8 * 1024 * 1024
"""Discord's upload limit for a bot without boosts; the replay must stay under it."""
REPLAY_WIDTH = 480

__all__ = ["REPLAY_LIMIT", "REPLAY_WIDTH", "animate", "gif"]


def animate(kind: str, views: Sequence[dict[str, Any]], caption: render.Caption) -> bytes | None:
    """Return the GIF of a kind's public board over these views (None when the kind has no drawing)."""
    frames = []
    for view in views:
        drawn = render.board(kind, view, caption)
        if drawn is None:
            return None  # the kind has no drawing
        frames.append(drawn)
    return gif(frames)


def gif(frames: list[bytes]) -> bytes | None:
    """Join PNG frames into one animated GIF under Discord's upload limit (None: no image frames)."""
    width = REPLAY_WIDTH
    pictures = []
    for data in frames:
        try:
            image = Image.open(io.BytesIO(data)).convert("RGB")
        except UnidentifiedImageError:
            continue  # not a picture (a test's stand-in drawing): no frame
        # Shrunk at once: a long game's full-size frames would not fit in memory together.
        pictures.append(_shrink(image, width))
    if not pictures:
        return None
    while True:
        # Fast octree: a tenth of median cut's time and half its bytes, alike to the eye on a board.
        images = [
            (_shrink(image, width) if width != REPLAY_WIDTH else image).quantize(
                colors=128, method=Image.Quantize.FASTOCTREE
            )
            for image in pictures
        ]
        out = io.BytesIO()
        images[0].save(out, format="GIF", save_all=True, append_images=images[1:], duration=700, loop=0)
        if out.tell() < REPLAY_LIMIT or width <= 120:
            return out.getvalue()
        width //= 2


def _shrink(image: Any, width: int) -> Any:
    """Return the picture scaled to ``width`` (bilinear, reduced first: a board is text and flat colours)."""
    height = max(1, round(image.height * width / image.width))
    return image.resize((width, height), Image.Resampling.BILINEAR, reducing_gap=2.0)
