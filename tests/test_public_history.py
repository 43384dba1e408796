"""No value hidden from a reader reaches what that reader can read about a table (issue 23, item 1).

Random games of all four kinds run through the service with a spectator following. At every
version, every public text (the history as text and JSON, every log page, the status board,
each move's board and automatic lines, the spectators' DMs, the undo votes, the replay's frames)
and each player's own copy of the history are searched for the values hidden from their reader, and
so is every log line written meanwhile (at DEBUG).

A hidden value is found from information sets, not from the code under test: a move's label is
hidden from a reader when another legal move of the same seat, at the same moment, shows that
reader exactly the same events and the same view afterwards but goes by another label (the
reader cannot tell the two apart, so the label tells them something). Card names that some
seat's private view holds and the reader's view does not are hidden too (``hidden_names``).
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import pytest

from rules import registry
from rules.contract import Move, Rules, State
from rules.toy import ToyRules
from service import TableError
from service.naming import automatic_label
from service.notices import Notice
from service.replay import turn_views
from service.replies import Reply
from tests.async_helpers import ALICE, BOB, CAROL, DAVE, NAMES, Harness
from tests.drawings import views_as_json
from tests.faults import card_names, strings, trapped_logs

GAMES = [("institute", 2, 50), ("quadrivium", 3, 40), ("argent", 3, 40), ("academy", 2, 40)]
"""(kind, players, moves played): long enough to meet each game's secret choices."""
PLAYERS = (ALICE, BOB, CAROL)
SPECTATOR = DAVE
PUBLIC = None


@dataclass
class Secrets:
    """What each reader (None: the public) must never read, gathered as the game goes."""

    hidden: dict[int | None, set[str]] = field(default_factory=dict)
    own: dict[int, set[str]] = field(default_factory=dict)
    """Each player's own moves' labels: theirs to read (another seat's secret may read the same)."""
    labels_met: int = 0

    def add(self, reader: int | None, values: Iterable[str]) -> None:
        """Remember values hidden from a reader."""
        self.hidden.setdefault(reader, set()).update(values)

    def of(self, reader: int | None) -> set[str]:
        """Return the values hidden from a reader so far (less the words of its own moves)."""
        mine = self.own.get(reader, set()) if reader is not None else set()
        return self.hidden.get(reader, set()) - mine


def _seen(rules: Rules, after: State, events: list[Any], reader: int | None) -> tuple[Any, ...]:
    """Return what a reader learns from a move: the events it may read and its view after."""
    return tuple(e.text for e in events if e.visible_to(reader)), json.dumps(rules.view(after, reader))


def hidden_labels(rules: Rules, state: State, seat: int, move: Move, players: int) -> dict[int | None, str]:
    """Return, per reader, the move's label when that reader cannot tell it from a move named otherwise.

    Also checks the contract's safe default: moves the public cannot tell apart share one public label.
    """
    label = rules.label(state, seat, move)
    after, events = rules.apply(state, seat, move)
    others = []
    for alt in rules.legal_moves(state, seat):
        if alt != move:
            alt_after, alt_events = rules.apply(state, seat, alt)
            others.append((alt, alt_after, alt_events))
    found: dict[int | None, str] = {}
    for reader in [PUBLIC, *range(players)]:
        if reader == seat:
            continue
        seen = _seen(rules, after, events, reader)
        twins = [alt for alt, a, e in others if _seen(rules, a, e, reader) == seen]
        if reader is PUBLIC:
            public = rules.public_label(state, seat, move)
            assert all(rules.public_label(state, seat, alt) == public for alt in twins), (
                f"{rules.kind}: the public label {public!r} tells apart moves the public cannot"
            )
        if any(rules.label(state, seat, alt) != label for alt in twins):
            found[reader] = label
    return found


def hidden_cards(kind: str, state: State, players: int, reader: int | None) -> set[str]:
    """Return the card names some other seat's private view holds and the reader's view does not."""
    rules = registry.get(kind)
    names = card_names(kind)
    known = json.dumps(rules.view(state, reader))
    held: set[str] = set()
    for seat in range(players):
        if seat != reader:
            held |= {s for s in strings(rules.view(state, seat)) if s in names}
    return {name for name in held if name not in known}


def leaks(texts: Iterable[str], secrets: set[str]) -> list[tuple[str, str]]:
    """Return (secret, text) for each secret found in a text."""
    return [(s, t[:200]) for t in texts for s in secrets if s in t]


def history_texts(text: str, data: str) -> list[str]:
    """Return the history file's text and every string of its JSON."""
    return [text, *strings(json.loads(data))]


async def public_texts(h: Harness, table_id: int, reply: Reply | None) -> list[str]:
    """Return every text the public may read about the table now, and what was sent since."""
    assert h.svc is not None
    texts: list[str] = []
    text, data = await h.svc.history.history(table_id)
    texts += history_texts(text, data)
    first = await h.svc.history.log_page(table_id, 0)
    for page in range(first.pages):
        texts += (await h.svc.history.log_page(table_id, page)).lines
    status = await h.svc.reads.status(table_id)
    texts += [status.text, *status.automatic]
    if reply is not None and reply.board is not None:
        texts += [reply.board.text, *reply.board.automatic]
    for sent in h.sent:
        if isinstance(sent, Notice) and sent.user_id in (None, SPECTATOR):
            texts.append(sent.text)
        elif isinstance(sent, Reply) and sent.board is not None:
            texts += [sent.board.text, *sent.board.automatic]
    h.sent.clear()
    return texts


async def play_and_check(h: Harness, kind: str, players: int, moves: int, seed: int) -> Secrets:
    """Play a random game with occasional undos; check every reader's texts at every version."""
    assert h.svc is not None and h.store is not None
    svc, rules, rand = h.svc, registry.get(kind), random.Random(seed)
    users = PLAYERS[:players]
    table_id = await h.table(kind, users=users)
    await svc.play.watch(table_id, SPECTATOR)
    secrets = Secrets()
    by_seat = {s.seat: s.user_id for s in await svc.seats(table_id)}
    for _ in range(moves):
        record, state = await h.store.load(table_id)
        if record.status != "active":
            break
        seat = rand.choice(rules.waiting_on(state))
        user = by_seat[seat]
        move = rand.choice(rules.legal_moves(state, seat))
        for reader, label in hidden_labels(rules, state, seat, move, players).items():
            secrets.labels_met += 1
            secrets.add(reader if reader is PUBLIC else by_seat[reader], [label])
        secrets.own.setdefault(user, set()).add(rules.label(state, seat, move))
        reply: Reply | None = await svc.act(table_id, user, move)
        if rand.random() < 0.15:
            with contextlib.suppress(TableError):  # taken back alone, or a vote opened
                reply = await svc.play.undo(table_id, user)
        # Cards are hidden at this version (a disaster played now is public); labels stay secret.
        _, now = await h.store.load(table_id)
        # A card named by a public event before (a disaster played) is known, whichever copy is hidden.
        told = " ".join(await svc.reads.public_events(table_id))
        cards = {
            r: {c for c in hidden_cards(kind, now, players, r) if c not in told}
            for r in [PUBLIC, *range(players)]
        }
        found = leaks(await public_texts(h, table_id, reply), secrets.of(PUBLIC) | cards[PUBLIC])
        assert not found, f"{kind} v{record.version + 1}: public texts hold hidden values {found[:3]}"
        for seat_of_reader, reader in by_seat.items():
            text, data = await svc.history.history(table_id, reader)
            found = leaks(history_texts(text, data), secrets.of(reader) | cards[seat_of_reader])
            assert not found, f"{kind}: {NAMES[reader]}'s own history holds others' secrets {found[:3]}"
    record, _ = await h.store.load(table_id)
    in_force = [(seat, move) for seat, move in await svc.history.effective_moves(table_id)]
    assert record.seed is not None
    frames = turn_views(rules, players, rules.check_options({}), record.seed, in_force)
    assert not leaks([json.dumps(frames, ensure_ascii=False)], secrets.of(PUBLIC)), "a replay frame"
    return secrets


@pytest.mark.parametrize(("kind", "players", "moves"), GAMES, ids=[g[0] for g in GAMES])
async def test_no_reader_meets_a_value_hidden_from_them_at_any_version(
    h: Harness, kind: str, players: int, moves: int
) -> None:
    met = 0
    with views_as_json(kind), trapped_logs("DEBUG") as trap:
        for seed in (1,):
            secrets = await play_and_check(h, kind, players, moves, seed)
            met += secrets.labels_met
            # Every log line too, at DEBUG: none names a move as only its mover knows it.
            assert not trap.holding(secrets.of(PUBLIC)), f"{kind}: a log line holds a hidden value"
    if kind in ("institute", "quadrivium"):
        # Their secret choices come early: an assignment under a die, a card placed face down.
        assert met > 0, f"the {kind} games met no secret choice: the test proved nothing"


class _TellingToy(ToyRules):
    """Sigil Duel whose turn label names the top of the hidden deck (as a careless game might)."""

    def label(self, state: State, seat: int, move: Move) -> str:
        """Name a draw by the sigil it will draw."""
        if move.action == "draw":
            return f"Draw sigil {state['deck'][0]}"
        return super().label(state, seat, move)


def test_a_forced_move_is_shown_in_full_only_when_its_label_names_nothing_hidden() -> None:
    rules, careless = ToyRules(), _TellingToy()
    state = rules.setup(2, {}, 7)
    draw, passing = Move.of("draw"), Move.of("pass")
    assert automatic_label(rules, state, 0, draw) == "Draw a sigil"
    assert automatic_label(rules, state, 0, passing) == "Pass"
    # Its label reads the hidden deck: the board shows the action's name, never the sigil.
    assert careless.label(state, 0, draw).startswith("Draw sigil ")
    assert automatic_label(careless, state, 0, draw) == "Draw"
