"""Quadrivium on Discord: a whole sitting, with a council, through /quad panels, buttons, selects and forms.

Three players make the covenant and their mages with the forms (modals) and the panel's selects,
declare intents, oppose, name conflict types, write and revise conditions, play their cards from the
private panel, aid, act, tell the finale, sit through a council (repair, bidding, taking, mage
actions, the seasons) and vote to end the tale. Every public message is checked to name no card that
is still in someone's hand, and every public board to be drawn from a view without a hand.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

import pytest
import simcord

from cogs import quadrivium as cog
from cogs.kit import delivery
from rules.contract import Move
from tests import faults
from tests.drawings import views_as_json
from tests.faults import Table, components
from tests.quadrivium_helpers import R

TRAITS = ("vigor", "craft", "influence", "insight")

SEED = 7


@pytest.fixture
def table_seed() -> int:
    """The seed every table of this module is dealt with."""
    return SEED


@pytest.fixture
def view_as_image() -> Iterator[None]:
    """Draw views as their JSON (fast), so what each image shows is read back exactly."""
    with views_as_json("quadrivium"):
        yield


WORDS = {
    "covenant": {"name": "Fengheld", "desc": "A covenant on an island in the fens."},
    "intent": {"text": "I seek the lost codex in the drowned abbey."},
    "conditions": {"win": "If I win, the codex is ours, because I dared the water.",
                   "lose": "If I lose, the abbey's ghost follows me home, because I woke it."},
    "revise": {"text": "If you win, the codex is yours but the water takes your health."},
    "finale": {"text": "The bells rang under the water, and it was done."},
}


def words_for(move: Move, seat: int) -> dict[str, str]:
    """Return what the player writes in a form (their mage's name is theirs)."""
    if move.action == "mage":
        return {"name": f"Magus {'ABC'[seat]}", "desc": "A scholar of the fens."}
    return WORDS[move.action]


def choose(state: dict[str, Any], seat: int) -> Move:
    """A simple, keen policy: every scene a conflict, one revision, one aid, then let tricks stand."""
    legal = R.legal_moves(state, seat)
    actions = {m.action for m in legal}

    def first(action: str, **args: Any) -> Move | None:
        for m in legal:
            if m.action == action and all(m.get(k) == v for k, v in args.items()):
                return m
        return None

    c = state["conflict"]
    picks = [
        first("boon", kind="companion", trait="influence"),
        first("oppose") if state["scene"] and seat == (state["scene"]["pro"] + 1) % state["players"]
        else None,
        first("allow"),
        first("type", trait="influence" if c and seat == c["sides"][0] else "vigor"),
        first("conditions", win_harm="none", lose_harm="vigor"),
        first("revise", part="win", harm="none") if c and c["revisions"] == 0 and state["conflicts"] == 1
        else None,
        first("accept"),
        first("tricks", n=1),
        first("reveal"),
        first("aid", side=1) if c and c["trick"] and state["conflicts"] == 1 else None,
        first("bid", n=1) if state["council"] and state["council"]["step"] == "bid"
        and state["council"]["bid"]["high"] == 0 else None,
        first("take", n=1, raise_by=0)
        if state["council"] and not any(state["mages"][seat]["shares"].values()) else None,
        first("pass", raise_by=0),
        first("pass"),
        first("stand"),
        first("done"),
        first("refill"),
        first("rest"),
        first("seasons", n=1, end=True),
    ]
    for pick in picks:
        if pick is not None:
            return pick
    if "place" in actions:
        return next(m for m in legal if m.action == "place")
    return legal[0]


async def open_table(env: simcord.Env) -> Table:
    return await faults.open_table(env, "quadrivium", 3, "years=1")


async def use_panel(table: Table, seat: int, move: Move) -> Any:
    """Open the seat's /quad panel and play the move with its own control (a form when it has words)."""
    member = table.members[seat]
    shown = await member.slash(table.thread, "quad panel")
    assert shown.ephemeral and shown.response is not None
    panel = shown.response
    code = move.code()
    for item in components(panel):
        if item["type"] == 2 and item.get("custom_id", "").endswith(f":{code}"):
            result = await member.click(panel, custom_id=item["custom_id"])
            if item["custom_id"].startswith("qd:t:"):
                assert result.modal is not None
                values = {f"qd:w:{k}": v for k, v in words_for(move, seat).items()}
                return await member.submit_modal(result, values)
            return result
        if item["type"] == 3 and any(o["value"] == code for o in item["options"]):
            result = await member.select(panel, [code], custom_id=item["custom_id"])
            if result.modal is not None:  # a worded move chosen in a select opens its form
                values = {f"qd:w:{k}": v for k, v in words_for(move, seat).items()}
                return await member.submit_modal(result, values)
            return result
    raise AssertionError(f"seat {seat}'s panel does not offer {code}: {panel.content}")


async def reach(table: Table, decision: str) -> tuple[dict[str, Any], int]:
    """Play the panels with ``choose`` until a seat is asked ``decision``; return the state and that seat."""
    record, state = await table.loaded()
    while not any(p.decision == decision for p in R.pending(state)):
        assert record.status == "active"
        seat = min(R.waiting_on(state))
        await use_panel(table, seat, choose(state, seat))
        record, state = await table.loaded()
    return state, next(p.seat for p in R.pending(state) if p.decision == decision)


def _shown(card: str) -> str:
    return cog.show(card)


async def test_a_whole_sitting_with_a_council(
    simcord_env: simcord.Env, view_as_image: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The living board is edited at once here (the kit spaces edits by a second for Discord's limits).
    monkeypatch.setattr(delivery, "EDIT_SPACING", 0.0)
    table = await open_table(simcord_env)
    record, state = await table.loaded()
    moves = 0
    councils = 0
    while record.status == "active":
        assert moves < 400
        seat = min(R.waiting_on(state))
        move = choose(state, seat)
        result = await use_panel(table, seat, move)
        assert result.response is not None or result.followups
        moves += 1
        record, state = await table.loaded()
        # A council seen at any step (its repair, bid and take steps may play themselves).
        councils += state["council"] is not None
        # Nothing in the thread (posted or edited in place) names a card still held in a hand.
        held = {_shown(c) for hand in state["hands"] for c in hand}
        for message in table.public()[-3:]:
            assert not [c for c in held if c in message.content], message.content
            for attachment in message.attachments:
                view = json.loads(await attachment.read())
                assert view["hand"] == [] and view["placed"] is None
    assert record.status == "finished"
    assert councils >= 1 and state["conflicts"] >= 3
    texts = "\n".join(m.content for m in table.public())
    # The story was told in the thread, in the players' own words.
    assert "The covenant is founded: Fengheld." in texts
    assert "I seek the lost codex in the drowned abbey." in texts
    assert "the water takes your health" in texts and "The bells rang under the water" in texts
    assert "The tale ends" in texts
    # The council was held through the panels: a bid for first pick, points taken (the table's log).
    assert table.bot.service is not None
    told = "\n".join(await table.bot.service.reads.public_events(record.id))
    assert "bids 1 for first pick of" in told and "takes 1 point of" in told
    # The tale reads back from the table's log (/game log), and the log replays to the stored game.
    log = await table.members[0].slash(table.thread, "game log")
    assert log.response is not None and "The tale ends" in log.response.content
    assert table.bot.service is not None and await table.bot.service.replay(record.id)


async def test_private_panel_shows_only_your_hand(simcord_env: simcord.Env, view_as_image: None) -> None:
    table = await open_table(simcord_env)
    _, state = await table.loaded()
    for seat, member in enumerate(table.members):
        shown = await member.slash(table.thread, "quad panel")
        assert shown.response is not None and shown.ephemeral
        text = shown.response.content
        assert "Your hand (secret): " + " ".join(_shown(c) for c in state["hands"][seat]) in text
        # The private sheet is drawn from the seat's own view.
        view = json.loads(await shown.response.attachments[0].read())
        assert view["hand"] == state["hands"][seat] and view["you"] == seat
    # The private view button and /game hand give the same panel (the kit's private panel hook).
    hand = await table.members[1].slash(table.thread, "game hand")
    assert hand.response is not None
    assert "Your hand (secret): " + " ".join(_shown(c) for c in state["hands"][1]) in hand.response.content


async def test_quadrivium_is_the_group_and_quad_its_short_name(
    simcord_env: simcord.Env, view_as_image: None
) -> None:
    table = await open_table(simcord_env)
    member, table_id = table.members[0], await table.table_id()
    long = await member.slash(table.thread, "quadrivium panel")
    short = await member.slash(table.thread, "quad panel")
    assert long.response is not None and short.response is not None and long.ephemeral
    assert long.response.content == short.response.content
    for group in ("quadrivium", "quad"):
        sheet = await member.slash(table.thread, f"{group} sheet")
        assert sheet.ephemeral and sheet.response.content.startswith("The covenant, at version")
        assert [a.filename for a in sheet.response.attachments] == [f"quadrivium-{table_id}-covenant.png"]
    helped = (await member.slash(table.thread, "quadrivium help")).response.content
    assert "`/quadrivium panel`" in helped and "`/quadrivium sheet`" in helped


def test_form_fields_keep_the_engines_length_limits() -> None:
    from rules.quadrivium.engine import TEXT_ARGS
    from rules.quadrivium.state import TEXT_LIMITS

    assert set(cog.TEXT_FORMS) == set(TEXT_ARGS)
    for action, (_, fields) in cog.TEXT_FORMS.items():
        assert {f[0] for f in fields} == set(TEXT_ARGS[action])
        for arg, _, _, limit, _ in fields:
            assert limit == TEXT_LIMITS[arg]


async def test_form_words_never_ping(simcord_env: simcord.Env, view_as_image: None) -> None:
    table = await open_table(simcord_env)
    member = table.members[0]
    shown = await member.slash(table.thread, "quad panel")
    assert shown.response is not None
    button = next(i for i in components(shown.response) if i.get("custom_id", "").startswith("qd:t:"))
    opened = await member.click(shown.response, custom_id=button["custom_id"])
    assert opened.modal is not None
    await member.submit_modal(opened, {"qd:w:name": "@everyone Keep", "qd:w:desc": ""})
    _, state = await table.loaded()
    assert state["covenant"]["name"] == "@\u200beveryone Keep"
    assert not any("@everyone" in m.content for m in table.public())


async def test_a_stale_panel_is_refused(simcord_env: simcord.Env, view_as_image: None) -> None:
    table = await open_table(simcord_env)
    member = table.members[1]
    old = (await member.slash(table.thread, "quad panel")).response
    assert old is not None
    _, state = await table.loaded()
    await use_panel(table, 1, choose(state, 1))
    # Bob's panel offered naming his mage, which he has done: the form opens, its submit is
    # refused, and his current panel comes instead.
    button = next(i for i in components(old) if i.get("custom_id", "").startswith("qd:t:"))
    opened = await member.click(old, custom_id=button["custom_id"])
    before = await table.loaded()
    again = await member.submit_modal(opened, {"qd:w:name": "Late"})
    assert again.response is not None and "out of date" in again.response.content
    assert "**Your decision:**" in again.response.content and components(again.response)
    assert await table.loaded() == before


async def test_one_seat_answering_leaves_the_others_panels_valid(
    simcord_env: simcord.Env, view_as_image: None
) -> None:
    # Creation: one player names the covenant while the others name their mages, all at once.
    table = await open_table(simcord_env)
    _, state = await table.loaded()
    awaited = R.waiting_on(state)
    assert len(awaited) > 1 and "covenant" in {choose(state, s).action for s in awaited}
    panels = {s: (await table.members[s].slash(table.thread, "quad panel")).response for s in awaited}
    named = {}
    for seat in awaited:  # each answers on the panel opened before anyone answered
        member, move = table.members[seat], choose(state, seat)
        named[seat] = words_for(move, seat)["name"]
        version, _ = await table.loaded()
        code = f":{move.code()}"
        button = next(i for i in components(panels[seat]) if i.get("custom_id", "").endswith(code))
        opened = await member.click(panels[seat], custom_id=button["custom_id"])
        done = await member.submit_modal(opened, {f"qd:w:{k}": v for k, v in words_for(move, seat).items()})
        assert done.response is not None and "out of date" not in done.response.content
        assert (await table.loaded())[0].version == version.version + 1
    _, after = await table.loaded()
    assert after["covenant"]["name"] == WORDS["covenant"]["name"]
    assert {s: after["mages"][s]["name"] for s in named if choose(state, s).action == "mage"} == {
        s: name for s, name in named.items() if choose(state, s).action == "mage"}


async def test_the_dm_is_the_panel_and_plays(
    simcord_env: simcord.Env, view_as_image: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(delivery, "EDIT_SPACING", 0.0)
    table = await open_table(simcord_env)
    _, state = await table.loaded()
    # Make the covenant and mages (forms and selects), up to the antagonist's first placement: the
    # protagonist's card going down is news to the antagonist, who gets the panel by DM.
    def antagonist_places(state: dict[str, Any]) -> bool:
        c = state["conflict"]
        return bool(c and c["stage"] == "place" and c["trick"]["turn"] == 1)

    while not antagonist_places(state):
        seat = min(R.waiting_on(state))
        await use_panel(table, seat, choose(state, seat))
        _, state = await table.loaded()
    ant = state["conflict"]["sides"][1]
    member = table.members[ant]
    panel = member.user.dm_channel.history()[-1]
    assert "Your hand (secret): " + " ".join(_shown(c) for c in state["hands"][ant]) in panel.content
    card = state["hands"][ant][0]
    code = Move.of("place", card=card).code()
    control = next(i for i in components(panel) if i.get("custom_id", "").endswith(f":{code}")
                   or any(o.get("value") == code for o in i.get("options", [])))
    if control["type"] == 2:
        played = await member.user.click(panel, custom_id=control["custom_id"])
    else:
        played = await member.user.select(panel, [code], custom_id=control["custom_id"])
    assert played.response is not None and "You played: Place" in played.response.content
    _, state = await table.loaded()
    assert state["conflict"]["trick"]["cards"][1]["card"] == card
    # The thread says a card went down, never which.
    assert not any(_shown(card) in m.content for m in table.public())


async def test_the_conditions_offer_every_harm_and_take_the_players_words(
    simcord_env: simcord.Env, view_as_image: None
) -> None:
    # At "State the win and loss conditions" every Harm pair is offered (25, in a select), and the
    # player's own words go with the chosen pair (never stock words).
    table = await open_table(simcord_env)
    state, seat = await reach(table, "conditions")
    offered = {m.code() for m in R.legal_moves(state, seat) if m.action == "conditions"}
    assert len(offered) == 25
    member = table.members[seat]
    panel = (await member.slash(table.thread, "quad panel")).response
    assert panel is not None
    listed = {o["value"] for i in components(panel) if i["type"] == 3 for o in i["options"]}
    assert offered <= listed
    wanted = Move.of("conditions", win_harm="craft", lose_harm="insight").code()
    selects = [i for i in components(panel) if i["type"] == 3]
    select = next(i for i in selects if wanted in {o["value"] for o in i["options"]})
    opened = await member.select(panel, [wanted], custom_id=select["custom_id"])
    assert opened.modal is not None
    win, lose = "If I win, the heron speaks for us.", "If I lose, I owe the fen a year."
    await member.submit_modal(opened, {"qd:w:win": win, "qd:w:lose": lose})
    _, after = await table.loaded()
    cond = after["conflict"]["cond"]
    assert (cond["win"], cond["lose"]) == (win, lose)
    assert (cond["win_harm"], cond["lose_harm"]) == ("craft", "insight")


async def test_choices_too_many_to_list_are_asked_as_numbers(
    simcord_env: simcord.Env, view_as_image: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With room for one select only, the 31 spreads of a mage's Traits become a form of numbers
    # (as a bid or a take would once the engine lifts its caps): every move stays reachable.
    table = await open_table(simcord_env)
    # The bot loaded its own copy of the cog's module (discord.py's extensions do).
    monkeypatch.setattr(sys.modules["cogs.quadrivium"], "SELECT_ROWS", 1)
    _, state = await table.loaded()
    while not any(p.decision == "create:traits" for p in R.pending(state)):
        seat = min(R.waiting_on(state))
        await use_panel(table, seat, choose(state, seat))
        _, state = await table.loaded()
    seat = next(p.seat for p in R.pending(state) if p.decision == "create:traits")
    spreads = [m for m in R.legal_moves(state, seat) if m.action == "traits"]
    assert len(spreads) > 25
    member = table.members[seat]
    panel = (await member.slash(table.thread, "quad panel")).response
    assert panel is not None
    button = next(i for i in components(panel) if i.get("custom_id", "").startswith("qd:n:"))
    assert button["label"].endswith("(a number)")
    opened = await member.click(panel, custom_id=button["custom_id"])
    assert opened.modal is not None
    fields = {c["components"][0]["custom_id"] for c in opened.modal["components"]}
    assert fields == {f"qd:nw:{t}" for t in TRAITS}
    # A spread the engine refuses is refused, the table untouched; a legal one is played.
    before = await table.loaded()
    wrong = await member.submit_modal(opened, {f"qd:nw:{t}": "9" for t in TRAITS})
    assert wrong.response is not None and await table.loaded() == before
    chosen = spreads[-1]
    again = await member.click(panel, custom_id=button["custom_id"])
    await member.submit_modal(again, {f"qd:nw:{t}": str(chosen.get(t)) for t in TRAITS})
    _, after = await table.loaded()
    traits = after["mages"][seat]["traits"]
    assert {t: traits[t]["value"] for t in TRAITS} == {t: chosen.get(t) for t in TRAITS}


async def test_game_play_at_the_conditions_opens_the_form(
    simcord_env: simcord.Env, view_as_image: None
) -> None:
    # `/game play` naming a move whose words the player writes opens its form as the first answer
    # (never stock words): by its code, by an autocompleted token, and by its code with the
    # arguments in another order; the words submitted are the ones the engine keeps.
    table = await open_table(simcord_env)
    state, seat = await reach(table, "conditions")
    member = table.members[seat]
    wanted = Move.of("conditions", win_harm="craft", lose_harm="insight")
    offered = await member.autocomplete(table.thread, "game play", "move", "craft")
    token = next(o["value"] for o in offered if o["name"] == R.label(state, seat, wanted))
    before = await table.loaded()
    for typed in (wanted.code(), token, "conditions lose_harm=insight win_harm=craft"):
        opened = await member.slash(table.thread, "game play", move=typed)
        assert opened.modal is not None, typed
        assert await table.loaded() == before  # opening the form plays nothing
    win, lose = "If I win, the reeds bow to us.", "If I lose, the fen keeps my voice."
    await member.submit_modal(opened, {"qd:w:win": win, "qd:w:lose": lose})
    _, after = await table.loaded()
    cond = after["conflict"]["cond"]
    assert (cond["win"], cond["lose"], cond["win_harm"], cond["lose_harm"]) == (win, lose, "craft", "insight")


async def test_game_play_plays_a_move_without_words_as_typed(
    simcord_env: simcord.Env, view_as_image: None
) -> None:
    # A move that takes no words is played at once by `/game play` (no form), and a worded move
    # typed with its words is played with them.
    table = await open_table(simcord_env)
    _, seat = await reach(table, "conditions")
    member = table.members[seat]
    typed = Move.of("conditions", win_harm="none", lose_harm="vigor", win="We keep the reeds.",
                    lose="The fen keeps us.").code()
    played = await member.slash(table.thread, "game play", move=typed)
    assert played.modal is None
    _, after = await table.loaded()
    assert (after["conflict"]["cond"]["win"], after["conflict"]["cond"]["lose"]) == (
        "We keep the reeds.", "The fen keeps us.")
    answerer = next(p.seat for p in R.pending(after) if p.decision == "answer")
    accepted = await table.members[answerer].slash(table.thread, "game play", move="accept")
    assert accepted.modal is None
    _, last = await table.loaded()
    assert last["conflict"]["stage"] != "answer"


def test_every_worded_move_is_named_by_a_word_game_play_looks_for() -> None:
    """``/game play`` acknowledges at once unless the typed text may name a worded move: each
    worded move's label (how a player types it loosely) holds one of the words it looks for."""
    from cogs.kit.messages import may_name_a_form
    from rules.quadrivium.labels import label_of

    for action in cog.TEXT_FORMS:
        typed = label_of({}, 0, Move(action, ()))
        assert may_name_a_form(typed), (action, typed)
    assert not may_name_a_form("pass") and may_name_a_form("#12.3")
