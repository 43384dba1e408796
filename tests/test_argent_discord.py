"""Argent on Discord: a whole 3-player game through /argent commands and buttons in SimCord.

A seeded policy decides each move from the stored state; the move is then made the way a player
would: turn actions through `/argent place` and `/argent bell` with their autocomplete, every other
decision through the buttons and selects of the player's panel, reactions through the board's
React/Pass buttons. Seed 5 with candidate side B seats Jion Erjon, whose starter Tardy reacts to
another player taking the last Bell Tower offering: one window is used, one passed by button, the
rest passed automatically after `/argent reactions mode:pass`. Public messages, public boards and
autocomplete lists are checked never to name a face-down voter before the reveal.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
import simcord

from cogs import argent as cog
from render import argent as drawing
from rules.argent import ARGENT as R
from rules.argent import content
from rules.argent.events import ArgentEvent
from rules.contract import Event, Move, PromptKind
from service import ASK_PREF, Choice, SeatView, move_value
from service.notify import DRAFT, PHASE, TURN_KINDS
from tests import faults
from tests.drawings import views_as_json
from tests.faults import Restart, components

SEED = 5
JION = 1
"""Seed 5 with candidates=B deals Jion Erjon (Tardy) to seat 1."""


@pytest.fixture
def table_seed() -> int:
    """The seed every table of this module is dealt with."""
    return SEED


@pytest.fixture
def view_as_image() -> Iterator[None]:
    """Draw views as their JSON (fast), so what each image is drawn from can be read back exactly."""
    with views_as_json("argent"):
        yield


@dataclass
class Table(faults.Table):
    """A started Argent table, with what the whole-game test counts as it goes."""

    autocompleted: list[str] = field(default_factory=list)
    boards: int = 0
    summaried: int = 0

    def summaries(self) -> int:
        """Count the round summaries posted in the thread."""
        return sum(1 for m in self.public() if "what each room gave" in m.content)

    def board_count(self) -> int:
        """Count the thread's public messages with an image (read from SimCord's store: cheap)."""
        stored = self.env.backend.messages.get(self.thread.id, {}).values()
        return sum(1 for m in stored if m.attachments and not m.flags & 64)


async def open_table(env: simcord.Env, *, close_dm: str | None = None) -> Table:
    base = await faults.open_table(env, "argent", 3, "candidates=B", closed_dm=close_dm)
    table = Table(base.env, base.channel, base.thread, base.members, base.outsider)
    table.boards = table.board_count()
    return table


def _values(state: dict[str, Any], seat: int, move: Move, version: int) -> set[str]:
    """Return what a component may send back for a move: its code, or its index token."""
    index = R.legal_moves(state, seat).index(move)
    return {move.code(), f"#{version}.{index}"}


@dataclass
class Policy:
    """A seeded player: place once a round, then the Bell Tower; Jion leaves the last offering to others."""

    rand: random.Random
    reacted: int = 0
    passed_by_button: int = 0

    def choose(self, state: dict[str, Any], seat: int) -> Move:
        legal = R.legal_moves(state, seat)
        prompt = R.pending(state)[0]
        if prompt.kind is PromptKind.REACTION:
            react = [m for m in legal if m.action == "react"]
            if self.reacted == 0 and react:
                return react[0]
            return Move.of("pass")
        if prompt.decision == "turn":
            placed = sum(1 for m in state["mages"] if m["owner"] == seat and "/" in m["loc"])
            places = [m for m in legal if m.action == "place" and not m.get("fast")]
            bells = [m for m in legal if m.action == "bell"]
            last = len(state["bell"]) == 1
            if places and (placed < 1 or (seat == JION and last)):
                return self.rand.choice(places)
            if bells:
                return self.rand.choice(bells)
        keen = [m for m in legal if m.action not in ("pass", "done")]
        return self.rand.choice(keen or legal)


class Player:
    """One seat's hands: its latest panel (an ephemeral answer or DM), used to play the policy's move."""

    def __init__(self, table: Table, seat: int) -> None:
        self.table, self.seat = table, seat
        self.member = table.members[seat]
        self.panel: Any = None

    async def command(self, name: str, option: str, label: str) -> Any:
        choices = await self.member.autocomplete(self.table.thread, f"argent {name}", option, "")
        self.table.autocompleted.extend(c["name"] for c in choices)
        chosen = next(c for c in choices if c["name"] == label[:100])
        return await self.member.slash(self.table.thread, f"argent {name}", **{option: chosen["value"]})

    async def open_panel(self) -> Any:
        result = await self.member.slash(self.table.thread, "argent panel")
        assert result.ephemeral and result.response is not None
        self.panel = result.response
        return self.panel

    async def use_panel(self, values: set[str]) -> Any:
        for attempt in range(2):
            panel = self.panel if attempt == 0 and self.panel is not None else await self.open_panel()
            for item in components(panel):
                if item["type"] == 2 and item.get("custom_id", "").split(":", 4)[-1] in values:
                    return await self.member.click(panel, custom_id=item["custom_id"])
                if item["type"] == 3:
                    for option in item["options"]:
                        if option["value"] in values:
                            return await self.member.select(
                                panel, [option["value"]], custom_id=item["custom_id"]
                            )
        raise AssertionError(f"no panel offered {values}")

    async def play(self, state: dict[str, Any], move: Move, version: int) -> Any:
        label = R.label(state, self.seat, move)
        turn = R.pending(state)[0].decision == "turn"
        if turn and move.action == "place" and not move.get("fast"):
            result = await self.command("place", "where", label)
        elif turn and move.action == "bell":
            result = await self.command("bell", "offering", label)
        else:
            result = await self.use_panel(_values(state, self.seat, move, version))
        # One board message per turn: a move posts a new one when another seat's turn begins, a
        # phase without turns begins (the resolution) or the game ends; the mover's follow-ups and
        # a decision inside the turn or phase (told by DM, or pinged where DMs are closed) edit it.
        boards = self.table.board_count()
        record, after = await self.table.loaded()
        asked = R.pending(after)
        store = self.table.bot.store
        closed = {s.seat for s in await store.seats(record.id) if s.dm_ok is False}
        since = [r for r in await store.moves(record.id) if r.version > version]
        data = [(e.get("data") or {}) for r in since for e in r.events]
        phased = any(d.get(PHASE) for d in data)
        # The mage draft is one message too: the next picker is told by DM unless its DMs are closed.
        drafting = any(d.get(DRAFT) for d in data)
        passes = bool(asked) and asked[0].seat != self.seat
        begins = passes and ((asked[0].kind in TURN_KINDS and not drafting) or asked[0].seat in closed)
        new_turn = record.status != "active" or begins or phased
        # A round's summary is followed by a new board too (the board never sits above it).
        summary = after["round"] > state["round"] >= 1 and self.table.summaries() > self.table.summaried
        assert boards == self.table.boards + int(new_turn or summary), move
        self.table.summaried = self.table.summaries()
        self.table.boards = boards
        assert result.response is not None, move
        text = result.response.content
        assert "moved on" not in text and "not one of your choices" not in text, text
        self.panel = result.response
        return result


async def react_from_board(table: Table, player: Player, policy: Policy, move: Move) -> Any:
    """Answer a reaction window from the board message's own buttons."""
    board = [m for m in table.public() if m.components][-1]
    # Nobody else is pinged: a reaction window inside another's turn is told to its player by DM
    # (and pinged in the thread only where their DMs are closed); the board's buttons answer it.
    assert all(f"<@{m.id}>" not in board.content for m in table.members if m is not player.member)
    labels = [c.get("label") for c in components(board)]
    assert labels[:2] == ["React…", "Pass"], labels
    if move.action == "pass":
        policy.passed_by_button += 1
        return await player.member.click(board, label="Pass")
    opened = await player.member.click(board, label="React…")
    assert opened.response is not None
    player.panel = opened.response
    policy.reacted += 1
    return None


async def play_out(table: Table, policy: Policy, limit: int = 900) -> int:
    players = [Player(table, seat) for seat in range(3)]
    record, state = await table.loaded()
    moves = 0
    while record.status == "active" and moves < limit:
        prompt = R.pending(state)[0]
        seat = prompt.seat
        move = policy.choose(state, seat)
        if prompt.kind is PromptKind.REACTION:
            assert seat == JION
            if policy.reacted and policy.passed_by_button:
                # From now on Jion lets the bot pass for him.
                said = await table.members[JION].slash(table.thread, "argent reactions", mode="pass")
                assert said.response is not None and "pass every reaction" in said.response.content
            elif (
                await react_from_board(table, players[seat], policy, move) is None and move.action == "react"
            ):
                await players[seat].play(state, move, record.version)
            table.boards = table.board_count()
        else:
            await players[seat].play(state, move, record.version)
        moves += 1
        record, state = await table.loaded()
    return moves


def _hidden_names(final_view: dict[str, Any]) -> set[str]:
    """Return the names of every voter that was dealt face down (known from the final view)."""
    return {v["name"] for v in final_view["voters"] if not content.voter(v["id"])["always_in_play"]}


async def test_a_whole_three_player_game_through_commands_and_buttons(
    simcord_env: simcord.Env, view_as_image: None
) -> None:
    table = await open_table(simcord_env)
    policy = Policy(random.Random(SEED))
    moves = await play_out(table, policy)
    record, state = await table.loaded()
    assert record.status == "finished", (state["round"], state["phase"], moves)
    assert policy.reacted == 1 and policy.passed_by_button >= 1
    public = table.public()
    texts = [m.content for m in public]
    joined = "\n".join(texts)
    assert "(P2) reacts with Tardy." in joined  # the board names the player beside the seat
    assert "Played automatically: " in joined and "(P2)" in joined
    # The choice is the service's seat preference, kept for this table only.
    assert table.bot.service is not None
    reads = table.bot.service.reads
    assert await reads.seat_pref(record.id, table.members[JION].id, cog.REACT_PREF) == "pass"
    assert joined.count("what each room gave") == 5
    # Each round's summary heads the board message that opens the next round (or ends the game).
    for text in texts:
        if "what each room gave" in text:
            assert "begins" in text or "voters are revealed" in text, text
    # The reveal: a line per voter, in as few messages as fit, then the standings.
    reveal = [t for t in texts if t.startswith("Voter ")]
    lines = [line for t in reveal for line in t.splitlines() if line.startswith("Voter ")]
    assert len(lines) == len(state["voters"]) and len(reveal) <= 3
    standings = next(i for i, t in enumerate(texts) if "**Final standings**" in t)
    assert standings == texts.index(reveal[-1]) and "table is closed" in texts[-1]
    board = texts[texts.index(reveal[0]) - 1]
    assert "voters are revealed below" in board and "wins" not in board
    final = R.view(state, None)
    winner = final["outcome"]["ranking"][0]
    assert table.members[winner].name in texts[standings].splitlines()[-1]
    # Nothing public named a face-down voter before the reveal: texts, boards, autocomplete lists.
    hidden = _hidden_names(final)
    first_reveal = texts.index(reveal[0])
    for text in texts[:first_reveal]:
        assert not any(name in text for name in hidden), text
    for message in public:
        for attachment in message.attachments:
            view = json.loads(await attachment.read())
            if view["outcome"] is None:
                assert all(v["name"] is None for v in view["voters"] if not v["face_up"])
    assert table.autocompleted and not any(n in c for c in table.autocompleted for n in hidden)


async def test_a_mark_shows_its_voter_by_dm_at_once_and_to_nobody_else(
    simcord_env: simcord.Env, view_as_image: None
) -> None:
    table = await open_table(simcord_env)
    policy = Policy(random.Random(1))
    players = [Player(table, seat) for seat in range(3)]
    record, state = await table.loaded()
    while state["phase"] == "draft":
        seat = R.pending(state)[0].seat
        await players[seat].play(state, policy.choose(state, seat), record.version)
        record, state = await table.loaded()
    seat = R.pending(state)[0].seat
    move = R.legal_moves(state, seat)[0]
    result = await players[seat].play(state, move, record.version)
    record, state = await table.loaded()
    voter = state["voters"][move.get("voter")]
    name = content.voter(voter["id"])["name"]
    member = table.members[seat]
    # The marker reads it at once, on the answer to its click, with its criterion and standing.
    said = result.response.content
    assert f"Voter {move.get('voter') + 1} is {name}" in said and "It counts" in said
    others = [m for k, m in enumerate(table.members) if k != seat]
    assert all(name not in m.content for o in others for m in o.user.dm_channel.history())
    assert all(name not in m.content for m in table.public())
    listed = await member.slash(table.thread, "argent voters")
    assert listed.ephemeral and name in listed.response.content  # type: ignore[union-attr]
    outsider = await others[0].slash(table.thread, "argent voters")
    assert name not in outsider.response.content  # type: ignore[union-attr]


async def test_a_closed_dm_falls_back_to_game_hand_with_the_office(simcord_env: simcord.Env) -> None:
    table = await open_table(simcord_env, close_dm="carol")
    carol = next(m for m in table.members if m.name == "carol")
    assert any(f"<@{carol.id}>, I can't DM you: use /game hand" in m.content for m in table.public())
    hand = await carol.slash(table.thread, "game hand")
    assert hand.ephemeral and hand.response is not None
    assert hand.response.attachments and hand.response.attachments[0].filename.endswith(".png")
    office = await carol.slash(table.thread, "argent office")
    assert office.ephemeral and office.response is not None and "You are **P" in office.response.content
    assert office.response.attachments


async def test_the_board_message_has_the_drawing_and_buttons_and_refuses_outsiders(
    simcord_env: simcord.Env,
) -> None:
    table = await open_table(simcord_env)
    record, state = await table.loaded()
    seat = R.pending(state)[0].seat
    player = Player(table, seat)
    move = R.legal_moves(state, seat)[0]
    await player.play(state, move, record.version)
    board = table.public()[-1]
    assert board.attachments and board.attachments[0].filename.endswith(".png")
    labels = [c.get("label") for c in components(board)]
    assert "My office" in labels and labels[0] in ("Draft a mage…", "Decide…")
    assert "Players: P1 (circle)" in board.content
    clicked = await table.outsider.click(board, label="My office")
    assert clicked.ephemeral and clicked.response.content == "You have no seat at this table."  # type: ignore[union-attr]
    typed = await table.outsider.autocomplete(table.thread, "argent decide", "choice", "")
    assert typed == []


def _said(text: str, what: str = "note", **data: Any) -> Event:
    return Event(ArgentEvent(what), text, None, data)


SUMMARY_EVENTS = [
    _said("P1 takes the Bell Tower offering Power."),
    _said("The last Bell Tower offering is taken: the rooms resolve.", what="resolution", round=1),
    _said("P2 takes 1 IP for the errand in Courtyard.", what="consolation", seat=1, room="Courtyard"),
    _said("P3 claims the errand in Courtyard, slot 3.", what="claim", seat=2, room="Courtyard"),
    _said("P3 gains 3 Mana.", what="gain", seat=2, gains={"mana": 3}),
    _said("P1 claims the errand in the shadow of Guilds, slot 1.", what="claim", seat=0, room="Guilds"),
    _said("P1 gains 8 Gold.", what="gain", seat=0, gains={"gold": 8}),
    _said("P1 learns Wave.", what="learn", seat=0, card="Wave"),
    _said("P2 claims the errand in Chapel, slot 1.", what="claim", seat=1, room="Chapel"),
    _said("Round 2 begins; P3 goes first.", what="round", round=2, first=2),
    _said("P3 claims the errand in Chapel, slot 1.", what="claim", seat=2, room="Chapel"),
]


def test_round_summary_groups_what_each_room_gave_whom() -> None:
    summary = cog.round_summary(SUMMARY_EVENTS)
    assert summary == (
        "**Courtyard**: P2 1 IP; P3 gains 3 Mana\n"
        "**Guilds**: P1 gains 8 Gold, learns Wave\n"
        "**Chapel**: P2 claims"
    )
    # With the players' names, as the thread shows it: each seat named beside its tag.
    named = cog.round_summary(SUMMARY_EVENTS, {0: "alice", 1: "bob", 2: "carol"})
    assert named is not None and named.startswith("**Courtyard**: bob (P2) 1 IP; carol (P3) gains 3 Mana\n")


def test_round_summary_keeps_ip_taken_after_a_question() -> None:
    # "Benefits are never mandatory" (FAQ): with 3 players the IP of a claim waits for a yes; the yes
    # says how much was gained, so the summary says "carol (P3) claims, gains 2 IP", not "claims".
    from rules.argent.effects.gains import answer_take_ip
    from tests.argent_helpers import round_one

    state = round_one(3)
    events: list[Event] = []
    answer_take_ip(state, {"seat": 2, "data": {"ip": 2}}, {"action": "choose"}, events)
    claim = _said("P3 claims the errand in Chapel, slot 1.", what="claim", seat=2, room="Chapel")
    claimed = [SUMMARY_EVENTS[1], claim]
    summary = cog.round_summary([*claimed, *events], {2: "carol"})
    assert summary == "**Chapel**: carol (P3) gains 2 IP"


def test_no_public_text_label_view_or_image_names_a_face_down_voter_over_many_games() -> None:
    """Random games of 2-5 players: public events, the round summaries, every legal move's label,
    the public view and (sampled) the public board's pixels never show a voter still face down."""
    hidden_everywhere = {v["name"] for v in content.voters() if not v["always_in_play"]}
    rand = random.Random(77)
    checked_images = 0
    for game in range(4):
        players = 2 + game % 4
        state = R.setup(players, {"candidates": "B" if game % 2 else "A"}, 1000 + game)
        public: list[Event] = []
        for step in range(3000):
            if state["over"]:
                break
            prompt = R.pending(state)[0]
            legal = R.legal_moves(state, prompt.seat)
            assert not any(name in prompt.text for name in hidden_everywhere)
            if step % 2 == 0 or prompt.kind is not PromptKind.TURN:
                # Every decision's list is checked; ordinary turns every other step, to keep this quick.
                for move in legal:
                    label = R.label(state, prompt.seat, move)
                    assert not any(name in label for name in hidden_everywhere), label
                view = R.view(state, None)
                shown = json.dumps(view)
                assert not any(name in shown for name in hidden_everywhere), step
            if step % 200 == 100:
                board = drawing.draw_board(R.view(state, None))
                assert drawing.draw_board(R.view(R.scramble(state, None, rand), None)) == board
                checked_images += 1
            state, events = R.apply(state, prompt.seat, rand.choice(legal))
            if state["over"]:
                break
            public += [e for e in events if e.public]
            assert not any(name in e.text for e in public[-len(events) :] for name in hidden_everywhere)
        summary = cog.round_summary(public) or ""
        assert not any(name in summary for name in hidden_everywhere)
    assert checked_images >= 4


def _record(version: int) -> Any:
    from store import TableRecord

    return TableRecord(7, "argent", "t", {}, 1, 2, 3, 4, "active", 1, version, 0.0, 0.0, None)


def _seat_view(record: Any, state: dict[str, Any], seat: int) -> SeatView:
    """Build the seat view the service would give for this state (the service's own test checks it)."""
    legal = R.legal_moves(state, seat)
    labels = [R.label(state, seat, m) for m in legal]
    moves = tuple(
        Choice(x if len(x) <= 100 else x[:99] + "…", move_value(record.version, i, m), m)
        for i, (x, m) in enumerate(zip(labels, legal, strict=True))
    )
    view = R.view(state, seat)
    return SeatView(
        record, record.version, seat, view, moves, tuple(R.pending(state)), typed=R.typed_view(view)
    )


async def test_every_panel_offers_every_legal_move_once_over_random_games() -> None:
    """Turn panels (selects per kind of action, Bell Tower and End turn buttons) and decision panels
    (a button per choice, or selects) reach every legal move, each exactly once."""
    rand = random.Random(9)
    seen_groups: set[str] = set()
    for players in (2, 3, 5):
        state = R.setup(players, {}, 300 + players)
        for step in range(120):
            if state["over"]:
                break
            seat = R.pending(state)[0].seat
            now = _seat_view(_record(step), state, seat)
            ui = cog.panel_view(now)
            assert ui is not None
            offered: list[str] = []
            for wrapper in ui.children:
                item = getattr(wrapper, "item", wrapper)  # a DynamicItem wraps its button or select
                if isinstance(item, discord.ui.Select):
                    offered += [o.value for o in item.options]
                    assert len(item.options) <= 25
                else:
                    offered.append(item.custom_id.split(":", 4)[-1])  # type: ignore[union-attr]
            legal = R.legal_moves(state, seat)
            values = [o.value for o in now.moves]
            assert sorted(offered) == sorted(values), (step, now.asked)
            assert len(ui.children) <= 25 and all(
                len(str(getattr(i, "custom_id", ""))) <= 100 for i in ui.children
            )
            seen_groups |= {cog.group_of(o, now) for o in now.moves}
            ui.stop()
            state, _ = R.apply(state, seat, rand.choice(legal))
    assert {"place", "bell", "fast"} <= seen_groups


async def test_board_buttons_still_work_after_a_restart(
    simcord_env: simcord.Env, restart_bot: Restart
) -> None:
    table = await open_table(simcord_env)
    record, state = await table.loaded()
    seat = R.pending(state)[0].seat
    await Player(table, seat).play(state, R.legal_moves(state, seat)[0], record.version)
    board = table.public()[-1]
    await restart_bot()
    _, state = await table.loaded()
    waiting = table.members[R.pending(state)[0].seat]
    office = await waiting.click(board, label="My office")
    assert office.ephemeral and office.response is not None and office.response.attachments
    panel = await waiting.click(board, custom_id=components(board)[0]["custom_id"])
    assert panel.response is not None and "**Your decision:**" in panel.response.content
    buttons = [c for c in components(panel.response) if c["type"] == 2]
    played = await waiting.click(panel.response, custom_id=buttons[0]["custom_id"])
    assert played.response is not None and played.response.content.startswith("You played")


async def test_the_hooks_offered_to_game_build_argent_messages(simcord_env: simcord.Env) -> None:
    """If the kit offers per-game hooks, /game start and /game play get Argent's board and panel."""
    table = await open_table(simcord_env)
    svc = table.bot.service
    assert svc is not None
    record, state = await table.loaded()
    board = await svc.reads.status(record.id)
    message = await cog.board_panel(table.bot, board)
    assert "Players: P1 (circle)" in message["content"] and "Seats:" not in message["content"]
    labels = [getattr(c, "item", c).label for c in message["view"].children]
    assert labels[-1] == "My office" and labels[0] == "Draft a mage…"
    user = table.members[R.pending(state)[0].seat]
    note = await svc.reads.hand(record.id, user.id)
    private = await cog.private_panel(table.bot, record, note)
    assert "**Your decision:** draft a mage." in private["content"] and private["view"].children


async def test_game_play_posts_argent_boards_and_an_abandoned_table_reveals_nothing(
    simcord_env: simcord.Env,
) -> None:
    table = await open_table(simcord_env)
    opening = table.public()[-1]
    assert "Players: P1 (circle)" in opening.content
    assert [c.get("label") for c in components(opening)][-1] == "My office"
    record, state = await table.loaded()
    seat = R.pending(state)[0].seat
    move = R.legal_moves(state, seat)[0]
    played = await table.members[seat].slash(table.thread, "game play", move=move.code())
    assert played.response is not None and played.response.content.startswith("You played")
    board = table.public()[-1]
    assert "Players: P1 (circle)" in board.content and "My office" in [
        c.get("label") for c in components(board)
    ]
    before = len(table.public())
    host = next(m for m in table.members if m.name == "alice")
    await host.slash(table.thread, "game abandon")
    record, _ = await table.loaded()
    assert record.status == "abandoned"
    after = [m.content for m in table.public()[before:]]
    assert after and not any(t.startswith(("Voter ", "**Final standings**", "**Round")) for t in after), after


def test_the_cast_select_names_each_spells_book_from_the_casters_view() -> None:
    """The second line of a cast option ("<book>, level N") comes from the seat's own view."""
    rand = random.Random(4)
    casts = 0
    for players in (2, 4):
        state = R.setup(players, {"candidates": "B"}, 60 + players)
        while not state["over"] and casts < 60:
            seat = R.pending(state)[0].seat
            legal = R.legal_moves(state, seat)
            view = R.view(state, seat)
            starter = view["offices"][seat]["starter"]
            for move in legal:
                if move.action != "cast" or not move.get("spell"):
                    assert cog.hint(Choice("x", "y", move), R.typed_view(view)) is None
                    continue
                casts += 1
                spell = move.get("spell")
                wanted = (
                    "your starter spell"
                    if starter and starter["id"] == spell
                    else f"{content.book(spell)['name']}, level {move.get('level')}"
                )
                assert cog.hint(Choice("x", "y", move), R.typed_view(view)) == wanted
            state, _ = R.apply(state, seat, rand.choice(legal))
    assert casts >= 20


def test_the_reveal_words_the_engines_reason_for_each_voter() -> None:
    """Who won each voter and why come from the outcome (awarded, awarded_why): the cog recounts nothing."""
    seen_tiebreaks: set[str] = set()
    seen_first = 0
    for game in range(6):
        players = 2 + game % 4
        state = R.setup(players, {"candidates": "AB"[game % 2]}, 500 + game)
        rand = random.Random(game)
        while not state["over"]:
            seat = R.pending(state)[0].seat
            state, _ = R.apply(state, seat, rand.choice(R.legal_moves(state, seat)))
        view = R.view(state, None)
        names = {s: f"name{s}" for s in range(players)}
        lines = cog.reveal_lines(R.typed_view(view), names)
        outcome = view["outcome"]
        assert len(lines) == len(view["voters"]) + 1
        for voter, line in zip(view["voters"], lines, strict=False):
            why = outcome["awarded_why"][str(voter["position"])]
            winner = outcome["awarded"][str(voter["position"])]
            title = content.voter(voter["id"])["title"]
            assert line.startswith(f"Voter {voter['position'] + 1}: **{voter['name']}** ({title}), ")
            if winner is None:
                assert "— no vote: nobody" in line
            else:
                count = why["counts"][str(winner)]
                assert f"votes for **P{winner + 1} name{winner}**: with {count} (" in line
            for seat, count in why["counts"].items():
                assert f"P{int(seat) + 1} {count}" in line
            first = why["first"]
            assert ("is first on that count" in line) == (first is not None)
            seen_first += first is not None
            for key, words in cog.TIEBREAK_WORDS.items():
                assert (words in line) == (why["tiebreak"] == key), (line, why)
            if why["tiebreak"]:
                seen_tiebreaks.add(why["tiebreak"])
        assert lines[-1].startswith("**Final standings**")
        assert lines[-1].endswith(f"**name{outcome['ranking'][0]} wins.**")
    assert seen_first and "mark" in seen_tiebreaks


async def test_a_room_name_typed_alone_places_and_out_of_turn_says_who_plays(
    simcord_env: simcord.Env,
) -> None:
    table = await open_table(simcord_env)
    record, state = await table.loaded()
    for _ in range(200):  # setup: the first legal move each time, through the service
        prompt = R.pending(state)[0]
        if prompt.decision == "turn":
            break
        assert table.bot.service is not None
        first = R.legal_moves(state, prompt.seat)[0]
        await table.bot.service.act(record.id, table.members[prompt.seat].id, first)
        record, state = await table.loaded()
    seat = R.pending(state)[0].seat
    other = table.members[(seat + 1) % 3]
    wrong = await other.slash(table.thread, "game play", move="Guilds")
    assert wrong.response is not None
    assert wrong.response.content == (
        f"It is not your decision now: the game waits for {table.members[seat].name} (P{seat + 1})"
        " (Argent rulebook, Errands Phase)."
    )
    room = next(R.label(state, seat, m) for m in R.legal_moves(state, seat) if m.action == "place")
    typed = room.removeprefix("Place a mage in ").upper()
    placed = await table.members[seat].slash(table.thread, "argent place", where=typed)
    assert placed.response is not None and placed.response.content.startswith(f"You played: {room}"), typed
    unknown = await table.members[seat].slash(table.thread, "argent place", where="Nowhere Hall")
    assert unknown.response is not None and "Nowhere" not in unknown.response.content


async def test_argent_ip_sets_whether_a_declinable_ip_gain_asks(simcord_env: simcord.Env) -> None:
    """FAQ, benefits are optional: ``/argent ip mode:ask`` has the IP a player could decline asked
    first; ``mode:take`` (the default) takes it for them. Only a seated player may set it."""
    table = await open_table(simcord_env)
    record, _ = await table.loaded()
    svc = table.bot.service
    assert svc is not None
    player = table.members[1]
    said = await player.slash(table.thread, "argent ip", mode="ask")
    assert said.ephemeral and said.response is not None and "You will be asked" in said.response.content
    assert await svc.reads.seat_pref(record.id, player.id, ASK_PREF) == "on"
    said = await player.slash(table.thread, "argent ip", mode="take")
    assert said.response is not None and "I will take every IP gain" in said.response.content
    assert await svc.reads.seat_pref(record.id, player.id, ASK_PREF) is None
    refused = await table.outsider.slash(table.thread, "argent ip", mode="ask")
    assert refused.ephemeral and refused.response is not None
    assert await svc.reads.seat_prefs(record.id, ASK_PREF) == {}


def test_a_move_played_automatically_is_told_before_its_results() -> None:
    from service import Board

    events = (_said("P1 takes 1 Gold."), _said("P2 passes."), _said("P3 gains 2 Mana."))
    board = Board(1, 5, "", events=events, automatic=("P2: Pass",), automatic_at=(1,))
    from cogs.argent import board as argent_board

    lines = argent_board.board_lines(board)
    told = ["P1 takes 1 Gold.", "Played automatically: P2: Pass.", "P2 passes.", "P3 gains 2 Mana."]
    assert lines[:4] == told
