"""A drawing process: ``python -m render.worker`` draws pictures asked on its stdin, in order.

The bot's drawings hold the interpreter's lock for much of their work (Pillow's Python-level draw
calls, text), so on threads they share one interpreter with the event loop. A process of its own
draws beside it on another core. The parent (``service.drawings``) keeps the cache, the dedup and
the counters; this process only draws.

The protocol is a stream of frames on the two pipes, each a 4-byte big-endian length then a
pickle: a request is ``(what, kind, payload)`` (``what`` is ``"board"``, ``"private"`` or a
public sheet's name; ``payload`` the pickle of ``(view, caption)`` the parent made once for its
cache key too), an answer ``("ok", png or None)`` or ``("error", text)``, one per request
in the order asked (the parent may send the next request before the last answer is read). The
pipes are this process's own with its parent (pickle is trusted only there). End of input ends
the process, so a parent that dies, however it dies, leaves no drawing process behind.
"""

from __future__ import annotations

import os
import pickle
import struct
import sys
import traceback
from typing import IO, Any

import render

HEADER = struct.Struct(">I")


def write_frame(out: IO[bytes], payload: Any) -> None:
    """Write one frame (length, pickle) and flush it."""
    data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
    out.write(HEADER.pack(len(data)))
    out.write(data)
    out.flush()


def read_frame(source: IO[bytes]) -> Any:
    """Read one frame; raise ``EOFError`` when the stream ends before a whole frame."""
    head = source.read(HEADER.size)
    if len(head) < HEADER.size:
        raise EOFError("the drawing pipe closed")
    size = HEADER.unpack(head)[0]
    data = source.read(size)
    if len(data) < size:
        raise EOFError("the drawing pipe closed mid-frame")
    return pickle.loads(data)


def serve(requests: IO[bytes], answers: IO[bytes]) -> None:
    """Draw every request until the input ends; a drawing that raises answers with its error."""
    while True:
        try:
            what, kind, payload = read_frame(requests)
        except EOFError:
            return
        try:
            view, caption = pickle.loads(payload)
            answer: tuple[str, Any] = ("ok", render.draw(what, kind, view, caption))
        except Exception:  # the parent raises it where the drawing was asked
            answer = ("error", traceback.format_exc())
        write_frame(answers, answer)


def main() -> None:
    """Serve on private copies of stdin and stdout; anything printed goes to stderr instead."""
    requests = os.fdopen(os.dup(0), "rb")
    answers = os.fdopen(os.dup(1), "wb")
    # A stray print (a library's warning) must not land inside a frame.
    os.dup2(2, 1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    render.has_board("argent")  # import the shipped drawings before the first request
    serve(requests, answers)


if __name__ == "__main__":
    sys.exit(main())
