"""What may reach the log: our own lines at any level, libraries at INFO and above, and no secret.

Our loggers (``conclave.*``) name tables, seats and actions only. Libraries know nothing of what
is secret: at DEBUG, aiosqlite logs every statement with its parameters (whole snapshots, deck
order, secret choices) and discord.py logs request bodies (every DM); at ERROR, discord.py logs a
failing component with its label ("Keep <a hidden card>") and an exception with its message. So:

- ``LOG_LEVEL`` applies to ``conclave`` alone; the root, and with it every library logger that
  sets no level of its own, stays at INFO or above (``LIBRARY_FLOOR``), and a library logger that
  sets its own level is raised to the floor too.
- ``Redact`` (installed on every library logger and on the handlers) replaces each argument of a
  library's record that is not a number by its type's name, and any record's exception (ours
  too: a KeyError may quote a card) by its type and frames, never its text.
"""

from __future__ import annotations

import logging
import traceback

OURS = "conclave"
LIBRARY_FLOOR = logging.INFO
QUIET_LIBRARIES = {"aiosqlite": logging.WARNING}
"""Libraries held higher than the floor: aiosqlite says nothing useful at INFO."""
_KEPT = (int, float, bool, type(None))


class Redact(logging.Filter):
    """Strip from a library's record every argument but numbers, and from any record its exception's text."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record in place (it always passes)."""
        if record.exc_info and record.exc_info[1] is not None:
            record.exc_text = frames_only(record.exc_info[1])
            record.exc_info = None
        if record.name == OURS or record.name.startswith(OURS + "."):
            return True
        if record.args:
            args = record.args if isinstance(record.args, tuple) else (record.args,)
            try:
                record.msg = str(record.msg) % tuple(_shown(a) for a in args)
            except (TypeError, ValueError):
                record.msg = f"{record.msg} (arguments withheld)"
            record.args = None
        return True


def _shown(value: object) -> object:
    """Keep a number; name anything else (an item with its label, a payload) by its type only."""
    return value if isinstance(value, _KEPT) else f"<{type(value).__name__}>"


def frames_only(exc: BaseException) -> str:
    """Format an exception as its type and the frames it passed through, never its message."""
    frames = "".join(
        f"\n  {f.filename}:{f.lineno} in {f.name}" for f in traceback.extract_tb(exc.__traceback__)
    )
    return f"{type(exc).__name__} (message withheld){frames}"


def log_policy(level: str) -> None:
    """Set our loggers to ``level`` and every library's to at least INFO, with ``Redact`` on each."""
    wanted = logging.getLevelName(level.upper())
    ours = wanted if isinstance(wanted, int) else logging.INFO
    logging.getLogger(OURS).setLevel(ours)
    root = logging.getLogger()
    root.setLevel(max(ours, LIBRARY_FLOOR))
    redact = _the_filter(root)
    for handler in root.handlers:
        _add(handler, redact)
    for name in list(logging.Logger.manager.loggerDict):
        if name == OURS or name.startswith(OURS + "."):
            continue
        logger = logging.getLogger(name)
        _add(logger, redact)
        floor = max(QUIET_LIBRARIES.get(name.split(".")[0], LIBRARY_FLOOR), ours)
        if logger.level != logging.NOTSET and logger.level < floor:
            logger.setLevel(floor)
    for name, floor in QUIET_LIBRARIES.items():
        logging.getLogger(name).setLevel(max(floor, ours))
        _add(logging.getLogger(name), redact)


def _the_filter(root: logging.Logger) -> Redact:
    found = next((f for f in root.filters if isinstance(f, Redact)), None)
    if found is None:
        found = Redact()
        root.addFilter(found)
    return found


def _add(target: logging.Filterer, redact: Redact) -> None:
    if not any(isinstance(f, Redact) for f in target.filters):
        target.addFilter(redact)
