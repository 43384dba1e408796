"""What can happen in Argent: the closed set of kinds its events carry (``Rules.event_kinds``).

The thread's summaries read these kinds and the facts in each event's ``data``; a plain narrative
line is a ``NOTE``. Before the kinds were typed, every event was stored as kind ``"argent"`` with the
kind in ``data["what"]``: ``rules.contract.LEGACY_KINDS`` reads such rows under their real kind.
"""

from __future__ import annotations

from rules.contract import EventKind


class ArgentEvent(EventKind):
    """The kind of an Argent event."""

    NOTE = "note"
    """A line of the story with no facts a summary reads (a cast, a wound, a draft...)."""
    ROUND = "round"
    """A round begins (``round``, ``first``: the first player's seat)."""
    RESOLUTION = "resolution"
    """The last Bell Tower offering is taken: the rooms resolve (``round``)."""
    CLAIM = "claim"
    """A mage claims its errand (``seat``, ``room``: the room's name)."""
    CONSOLATION = "consolation"
    """A mage with no reward left takes 1 IP instead (``seat``, ``room``)."""
    GAIN = "gain"
    """A seat gains resources (``seat``, ``gains``: resource -> amount)."""
    PAY = "pay"
    """A seat pays a cost (``seat``, ``pays``: resource -> amount)."""
    LEARN = "learn"
    """A seat learns a spell (``seat``, ``card``: the book's name)."""
    CARD = "card"
    """A seat gains a card (``seat``, ``card``: its public name)."""
    MARK = "mark"
    """A seat places a Mark on a voter (``seat``, ``voter``: its position)."""
    VOTER_SEEN = "voter_seen"
    """A seat's private note of the voter its Mark showed it (``voter``)."""
    VOTES = "votes"
    """The votes are counted (the reveal line at the game's end)."""
