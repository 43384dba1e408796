"""The Institute on Discord: whole games through /institute panels, buttons and selects in SimCord.

The players' panels are the only way moves are made here (selects per die, Confirm, Reroll, and one
button per legal move later). A seeded policy drives both players; who confirms first alternates by
round, so the two secret assignments arrive in either order. Every public message (and, in the real
drawing test, every public image) is checked to show no assignment before the reveal.
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
import simcord

import render
from render import institute as drawing
from rules.contract import Event, Move
from rules.institute.engine import InstituteRules
from service.compose import name_seats
from tests import faults
from tests.drawings import views_as_json
from tests.faults import Restart, Table, components

SEEDS = range(40)
"""Seeds searched (in pure rules, ~2 s) for the shortest whole game under the test's policy."""
R = InstituteRules()
ACTION_WORDS = ("Take Stones", "Cast 1 Stone", "Cast 2 Stones", "TAKE", "CAST 1", "CAST 2")


@pytest.fixture
def table_seed() -> int:
    """A seed whose game is short (drawn for each test)."""
    return short_seed()


@pytest.fixture
def view_as_image() -> Iterator[None]:
    """Draw views as their JSON (fast): what an image is drawn from is then read back exactly."""
    with views_as_json("institute"):
        yield


async def open_table(env: simcord.Env) -> Table:
    return await faults.open_table(env, "institute", 2)


def _die_selects(message: Any) -> list[dict[str, Any]]:
    return [c for c in components(message) if c.get("custom_id", "").startswith("ins:d:")]


def _unassigned(select: dict[str, Any]) -> bool:
    return not any(o.get("default") for o in select["options"])


def _plan(state: dict[str, Any], seat: int) -> list[str]:
    """Plan Phase I like a keen beginner: Take on the highest die, Cast 2 where ahead most, else Cast 1."""
    me = state["players"][seat]
    dice, slots = me["dice"], state["slots"]
    order = sorted(range(4), key=lambda d: -dice[d])
    want = ["cast1"] * 4
    want[order[0]] = "take"
    rest = order[1:]
    if me["stones"] < 2:
        want[rest[-1]] = "take"
        rest = rest[:-1]

    def lead(d: int) -> int:
        slot = slots[dice[d] - 1]
        return slot["stones"][seat] - slot["stones"][1 - seat] if slot["kind"] == "card" else -99

    want[max(rest, key=lead)] = "cast2"
    return want


def choose(rand: random.Random, state: dict[str, Any], seat: int) -> Move | None:
    """Return the seeded policy's move for a seat, or None when it must wait to confirm.

    Who confirms first alternates by round (Blue in odd rounds, Red in even ones), so the two secret
    assignments reach the bot in both orders.
    """
    legal = R.legal_moves(state, seat)
    me = state["players"][seat]
    if state["step"] == "assign" and str(seat) not in state["frames"]:
        want = _plan(state, seat)
        for d in range(4):
            if me["assign"][d] is None:
                move = Move.of("assign", die=d + 1, card=want[d])
                if move in legal:
                    return move
                return next(m for m in legal if m.action == "assign" and m.get("die") == d + 1)
        first = state["round"] % 2
        if seat != first and not state["players"][first]["confirmed"]:
            return None
        return Move.of("confirm")
    keen = [m for m in legal if m.action not in ("pass", "decline", "done", "keep", "refill", "reroll")]
    return rand.choice(keen or legal)


def simulate(seed: int) -> tuple[int, int]:
    """Play the policy in pure rules exactly as play_out does through Discord.

    Return (0 if a contested Portal was chosen in secret else 1, moves): a game that shows the secret
    Portal sorts first.
    """
    rand, state, moves, secret_portal = random.Random(seed), R.setup(2, {}, seed), 0, False
    while not R.is_over(state):
        secret_portal |= state["step"] == "portal" and state["portal_secret"]
        seat = rand.choice(R.waiting_on(state))
        move = choose(rand, state, seat)
        if move is None:
            seat = 1 - seat
            move = choose(rand, state, seat)
        assert move is not None
        state, _ = R.apply(state, seat, move)
        moves += 1
    return (0 if secret_portal else 1, moves)


@functools.cache
def short_seed() -> int:
    """Return the seed whose game is shortest, so the whole game through Discord stays quick
    whatever the current card data makes of game length."""
    return min(SEEDS, key=simulate)


class Player:
    """One seat's hands: its latest panel message, used to play exactly the policy's move."""

    def __init__(self, table: Table, seat: int) -> None:
        self.table, self.seat = table, seat
        self.member = table.members[seat]
        self.panel: Any = None

    async def open_panel(self) -> Any:
        result = await self.member.slash(self.table.thread, "institute panel")
        assert result.ephemeral and result.response is not None
        self.panel = result.response
        return self.panel

    async def play(self, move: Move) -> Any:
        """Play a move with the panel's own controls; fail if the panel does not offer it."""
        for _ in range(3):
            panel = self.panel or await self.open_panel()
            result = await self._use(panel, move)
            if result is None:
                await self.open_panel()  # the panel may be older than the game: look again
                continue
            assert result.response is not None
            self.panel = result.response
            if "out of date" not in result.response.content:
                assert not result.followups, [f.content for f in result.followups]
                return result
        raise AssertionError(f"the panel never offered {move.code()}")

    async def _use(self, panel: Any, move: Move) -> Any:
        items = components(panel)
        code = move.code()
        if move.action == "assign":
            for select in _die_selects(panel):
                if select["custom_id"].endswith(f":{move.get('die')}") and any(
                    o["value"] == move.get("card") for o in select["options"]
                ):
                    return await self.member.select(panel, [move.get("card")], custom_id=select["custom_id"])
            return None
        for item in items:
            if item["type"] == 2 and item.get("custom_id", "").endswith(f":{code}"):
                return await self.member.click(panel, custom_id=item["custom_id"])
            if item["type"] == 3 and any(o["value"] == code for o in item["options"]):
                return await self.member.select(panel, [code], custom_id=item["custom_id"])
        return None


async def assigned_table(env: simcord.Env) -> tuple[Table, list[Player]]:
    """Open a table and assign both seats' dice through their panels (nobody confirmed yet)."""
    table = await open_table(env)
    players = [Player(table, seat) for seat in (0, 1)]
    for player in players:
        await assign_all(table, player)
    return table, players


async def play_out(table: Table, rand: random.Random, limit: int = 2000) -> int:
    """Play the seeded policy to the end through the panels; return the number of moves."""
    players = [Player(table, seat) for seat in (0, 1)]
    record, state = await table.loaded()
    moves = 0
    while record.status == "active" and moves < limit:
        seat = rand.choice(R.waiting_on(state))
        move = choose(rand, state, seat)
        if move is None:
            seat = 1 - seat
            move = choose(rand, state, seat)
        assert move is not None
        await players[seat].play(move)
        moves += 1
        record, state = await table.loaded()
    return moves


def _assignment_leaks(table: Table) -> list[str]:
    """Return public texts that name an Action Card before that round's reveal."""
    leaks, revealed = [], False
    for message in table.public():
        text = message.content
        if "Phase I: assign Action Cards" in text:
            revealed = False
        if "reveals:" in text:
            revealed = True
            continue
        if not revealed and any(word in text for word in ACTION_WORDS):
            leaks.append(text)
    return leaks


async def _public_views(table: Table) -> list[dict[str, Any]]:
    """Return every public board posted, read back from its (JSON) drawing."""
    views = []
    for message in table.public():
        for attachment in message.attachments:
            views.append(json.loads(await attachment.read()))
    return views


async def test_a_whole_game_through_panels_with_secrets_kept(
    simcord_env: simcord.Env, view_as_image: None
) -> None:
    table = await open_table(simcord_env)
    moves = await play_out(table, random.Random(short_seed()))
    assert moves > 100
    record, state = await table.loaded()
    assert record.status == "finished", (state["round"], state["step"])
    assert state["round"] >= 3
    # The game ended on the thread with the result, and the table closed (no buttons left to click).
    assert "Game over" in table.public()[-2].content and "table is closed" in table.public()[-1].content
    assert not table.public()[-2].components
    # The secret assignments arrived in both orders: each colour was sometimes the first to lock in.
    first = [
        m.content
        for m in table.public()
        if "has locked in their Action Cards" in m.content and "reveals:" not in m.content
    ]
    assert any("(Red) has locked in" in c for c in first) and any("(Blue) has locked in" in c for c in first)
    # No public text names an Action Card before its round's reveal; reveals did happen.
    assert _assignment_leaks(table) == []
    assert sum("reveals:" in m.content for m in table.public()) >= state["round"] - 1
    # Every public board was drawn from a view holding no unrevealed assignment or portal choice.
    views = await _public_views(table)
    assert len(views) > 10
    secret_portals = 0
    for view in views:
        assert view["seat"] is None
        for p in view["players"]:
            if not p["assignment_visible"]:
                assert p["assignment"] is None
        if view["step"] == "portal" and any(pr["kind"] == "secret" for pr in view["prompts"]):
            secret_portals += 1
            assert all(p["portal_choice"] is None for p in view["players"])
    assert secret_portals >= 1  # a contested Portal was chosen in secret in this seeded game
    # Replaying the log gives the stored game: every click was a real, legal move.
    assert table.bot.service is not None
    assert await table.bot.service.replay(record.id)


async def assign_all(table: Table, player: Player) -> None:
    """Put an Action Card under each of the player's dice (not confirming)."""
    _, state = await table.loaded()
    for d, card in enumerate(_plan(state, player.seat)):
        await player.play(Move.of("assign", die=d + 1, card=card))


async def test_phase_one_panels_stay_valid_while_the_rival_assigns(
    simcord_env: simcord.Env, view_as_image: None
) -> None:
    table = await open_table(simcord_env)
    red, blue = Player(table, 0), Player(table, 1)
    red_panel = await red.open_panel()
    spare = (await red.member.slash(table.thread, "institute panel")).response
    await assign_all(table, blue)
    # Blue's assignments did not make Red's panel stale: Red's select still plays.
    select = _die_selects(red_panel)[0]
    result = await red.member.select(red_panel, ["cast1"], custom_id=select["custom_id"])
    assert result.response is not None
    assert result.response.content.startswith("You played: Assign Cast 1 Stone to die 1")
    # The thread heard nothing of either player's assignments.
    assert _assignment_leaks(table) == []
    assert not any("Assign" in m.content for m in table.public())
    # Red's other, older copy of the panel is out of date now: it is refreshed, not obeyed.
    assert spare is not None
    again = await red.member.select(spare, ["take"], custom_id=_die_selects(spare)[0]["custom_id"])
    assert again.response is not None and "out of date" in again.response.content
    _, state = await table.loaded()
    assert state["players"][0]["assign"][0] == "cast1"


async def test_confirm_posts_who_locked_in_and_the_reveal_follows(
    simcord_env: simcord.Env, view_as_image: None
) -> None:
    table, players = await assigned_table(simcord_env)
    before = len(table.public())
    assert before == 2  # opened (the join edited it), the game began; nothing from eight assignments
    await players[1].play(Move.of("confirm"))
    # Red was already asked: no new message, no ping; the living board says Blue locked in.
    assert len(table.public()) == before
    living = table.public()[-1].content
    assert "(Blue) has locked in their Action Cards" in living and "reveals" not in living
    await players[0].play(Move.of("confirm"))
    # The reveal is a milestone: a new message of its own.
    assert len(table.public()) == before + 1
    last = table.public()[-1].content
    assert "(Red) reveals:" in last and "(Blue) reveals:" in last


async def test_the_panel_button_survives_a_restart_and_refuses_outsiders(
    simcord_env: simcord.Env, view_as_image: None, restart_bot: Restart
) -> None:
    table, players = await assigned_table(simcord_env)
    await players[0].play(Move.of("confirm"))
    board = [m for m in table.public() if m.components][-1]
    assert [c.get("label") for c in components(board)] == ["My private view"]
    await restart_bot()
    shown = await table.members[1].click(board, label="My private view")
    assert shown.ephemeral and shown.response is not None
    assert "you play **Blue" in shown.response.content and len(_die_selects(shown.response)) == 4
    outsider = await table.outsider.click(board, label="My private view")
    assert outsider.response is not None and outsider.response.content == "You have no seat at this table."
    # Blue's panel from before the restart still plays its Confirm.
    confirm = next(c for c in components(players[1].panel) if c.get("label") == "Confirm my Action Cards")
    done = await table.members[1].click(players[1].panel, custom_id=confirm["custom_id"])
    assert done.response is not None and "You played: Confirm" in done.response.content
    assert "(Red) reveals:" in table.public()[-1].content


async def test_the_opening_dm_is_the_panel_and_game_hand_too(
    simcord_env: simcord.Env, view_as_image: None
) -> None:
    table = await open_table(simcord_env)
    red = table.members[0]
    opening = red.user.dm_channel.history()[-1]
    # The DM sent at the start IS the panel: a select per die, then the buttons.
    assert "you play **Red" in opening.content and len(_die_selects(opening)) == 4
    # The same panel from /game hand in the thread (for a player whose DMs are closed).
    hand = await table.members[1].slash(table.thread, "game hand")
    assert hand.ephemeral and hand.response is not None
    assert "you play **Blue" in hand.response.content and len(_die_selects(hand.response)) == 4
    # Moves from the DM play, and the DM becomes the fresh panel; the thread hears nothing.
    before = len(table.public())
    select = _die_selects(opening)[0]
    played = await red.user.select(opening, ["take"], custom_id=select["custom_id"])
    assert played.response is not None and played.response.content.startswith(
        "You played: Assign Take Stones"
    )
    assert played.response.id == opening.id
    assert len(table.public()) == before
    # No second DM either: the mover's panel was refreshed in place.
    assert red.user.dm_channel.history()[-1].id == opening.id


async def test_panel_outside_a_thread_and_help(simcord_env: simcord.Env) -> None:
    guild = simcord_env.create_guild("G")
    channel = guild.create_text_channel("tables")
    alice = guild.add_member(simcord_env.create_user("alice"))
    outside = await alice.slash(channel, "institute panel")
    assert (
        outside.response is not None
        and outside.response.content == "Use this command inside a table's thread."
    )
    helped = await alice.slash(channel, "institute help")
    assert helped.ephemeral and helped.response is not None and "Phase I" in helped.response.content


@pytest.fixture
def real_board_only() -> Iterator[None]:
    """Draw the real public board but the private sheets as JSON (they are not looked at here)."""
    with views_as_json("institute", board=False):
        yield


async def test_real_drawings_of_phase_one_never_depend_on_the_secret(
    simcord_env: simcord.Env, real_board_only: None
) -> None:
    """With the real renderer: every public board of round 1 equals the board of a scrambled state."""
    table, players = await assigned_table(simcord_env)
    await players[0].play(Move.of("confirm"))
    await players[1].play(Move.of("confirm"))
    record, _ = await table.loaded()
    assert table.bot.store is not None
    log = await table.bot.store.moves(record.id)
    seats = {s.seat: s for s in await table.bot.store.seats(record.id) if s.seat is not None}
    named = name_seats(R, {n: f"{s.name} ({R.seat_tag(n)})" for n, s in seats.items()})
    checked = 0
    for message in table.public():
        for attachment in message.attachments:
            found = re.search(r"-v(\d+)\.png$", attachment.filename)
            assert found, attachment.filename
            version = int(found[1])
            state = R.setup(2, record.options, record.seed)
            before = None
            for entry in log[:version]:
                before = state
                state, _ = R.apply(state, entry.seat, Move.from_json(entry.move))
            if state["revealed"]:
                continue
            # The caption holds only public things: names, the move's public events, the view before.
            events = [Event.from_json(e) for e in log[version - 1].events] if version else []
            earlier = None if before is None else R.scramble(before, None, random.Random(-version))
            caption = render.Caption(
                names={n: s.name for n, s in seats.items()},
                last=tuple(named(e.text) for e in events if e.public),
                before=None if earlier is None else R.view(earlier, None),
            )
            scrambled = R.scramble(state, None, random.Random(version))
            assert await attachment.read() == drawing.draw_board(R.view(scrambled, None), caption)
            checked += 1
    # The opening board (edited in place at Red's lock-in) and nothing else came before the reveal.
    assert checked == 1




async def test_the_sheet_and_panel_say_who_locked_in_as_the_thread_does(
    simcord_env: simcord.Env, view_as_image: None
) -> None:
    # Blue locks in: the thread says so, and Red's private view (the panel's words and the sheet's
    # view) says the same of Blue, and that Red has not locked in yet; never what Blue chose.
    table, players = await assigned_table(simcord_env)
    await players[1].play(Move.of("confirm"))
    assert "(Blue) has locked in their Action Cards" in table.public()[-1].content
    hand = await table.members[0].slash(table.thread, "game hand")
    assert hand.response is not None
    said = "Red has not locked in yet. Blue has locked in their Action Cards."
    assert said in hand.response.content
    sheets = [json.loads(await a.read()) for a in hand.response.attachments]
    assert sheets and all(sheet["locked_in"] == said for sheet in sheets)
    assert all(sheet["players"][1]["assignment"] is None for sheet in sheets)
