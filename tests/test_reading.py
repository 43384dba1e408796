"""Typed input that understands people: moves by loose label words, kinds and options in any case."""

from __future__ import annotations

import pytest

from rules import registry
from rules.contract import Move, Rules, State
from service import TableError, TableService, parse_options, reading

pytestmark = pytest.mark.usefixtures("toy_registered")

ALICE, BOB = 101, 102


@pytest.fixture
def table_seed() -> int:
    """The seed every table of this module is dealt with."""
    return 12345


def _advance(rules: Rules, state: State, until: str, steps: int = 400) -> tuple[State, int]:
    """Play the first legal move until some seat's prompt has the wanted decision."""
    for _ in range(steps):
        prompts = rules.pending(state)
        asked = [p for p in prompts if p.decision == until]
        if asked:
            return state, asked[0].seat
        seat = prompts[0].seat
        state, _ = rules.apply(state, seat, rules.legal_moves(state, seat)[0])
    raise AssertionError(f"never reached {until}")


def _labelled(rules: Rules, state: State, seat: int) -> tuple[list[Move], list[str]]:
    legal = rules.legal_moves(state, seat)
    return legal, [rules.label(state, seat, m) for m in legal]


def test_a_room_name_alone_places_a_mage_there_in_argent() -> None:
    rules = registry.get("argent")
    state, seat = _advance(rules, rules.setup(3, rules.default_options(), 5), "turn")
    legal, labels = _labelled(rules, state, seat)
    assert "Place a mage in Guilds" in labels
    for typed in ("Guilds", "guilds", "GUILDS in mage place", "guil"):
        move = reading.read_move(typed, legal, labels, rules.actions)
        assert rules.label(state, seat, move) == "Place a mage in Guilds", typed


def test_words_of_an_institute_label_in_any_order_pick_the_one_move() -> None:
    rules = registry.get("institute")
    state = rules.setup(2, rules.default_options(), 5)
    legal, labels = _labelled(rules, state, 0)
    move = reading.read_move("Take Stones on die 1", legal, labels, rules.actions)
    assert move.action == "assign" and move.get("die") == 1 and "Take Stones" in rules.label(state, 0, move)
    move = reading.read_move("die 1 take stones", legal, labels, rules.actions)
    assert move.get("die") == 1 and move.action == "assign"


def test_several_matches_are_listed_and_no_match_shows_what_moves_look_like() -> None:
    labels = ["Choose sigil 3", "Choose sigil 5", "Choose sigil 12", "Pass"]
    legal = [Move.of("choose", sigil=n) for n in (3, 5, 12)] + [Move.of("pass")]
    with pytest.raises(reading.ReadingError, match="fits 3 of your moves: “Choose sigil 3”"):
        reading.read_move("sigil", legal, labels)
    with pytest.raises(reading.ReadingError) as none:
        reading.read_move("fly away now", legal, labels)
    assert "They look like “Choose sigil 3”" in none.value.sentence
    assert "fly" not in none.value.sentence  # never quote a fragment of the typed text back
    # A number matches whole: "1" is not the start of "12".
    assert reading.matches("sigil 1", labels) == []
    assert reading.matches("sigil 12", labels) == [2]
    assert reading.matches("pass", labels) == [3]


def test_a_long_list_of_moves_is_shortened() -> None:
    labels = [f"Choose sigil {n}" for n in range(1, 13)]
    sentence = reading.several(labels)
    assert sentence.count("“") == reading.SHOWN and "and 7 more" in sentence


async def _duel(svc: TableService, kind: str = "toy", options: str = "") -> int:
    table = await svc.open_table(kind, options, guild_id=1, channel_id=2, host_id=ALICE, host_name="alice")
    await svc.join(table.id, BOB, "bob")
    await svc.start(table.id, ALICE)
    return table.id


async def test_a_move_typed_out_of_turn_says_whom_the_game_waits_for(svc: TableService) -> None:
    table_id = await _duel(svc)
    # Both choose in secret, then the lowest sigil's mage alone draws or passes.
    for user in (ALICE, BOB):
        choice = (await svc.reads.choices(table_id, user))[0]
        await svc.act(table_id, user, choice.value)
    public = await svc.reads.public_view(table_id)
    waiting = next(iter({p.seat for p in public.prompts}))
    other = next(u for s, u in public.users.items() if s != waiting)
    with pytest.raises(TableError) as refused:
        await svc.act(table_id, other, "a typed draw please")
    name = public.names[waiting]
    expected = f"It is not your decision now: the game waits for {name} (P{waiting + 1})."
    assert refused.value.sentence == expected


async def test_kinds_and_option_names_match_in_any_case(svc: TableService) -> None:
    table = await svc.open_table("TOY", "HAND=4", guild_id=1, channel_id=2, host_id=ALICE, host_name="a")
    assert table.kind == "toy" and table.options == {"hand": "4"}
    titled = await svc.open_table("sigil duel", None, guild_id=1, channel_id=2, host_id=ALICE, host_name="a")
    assert titled.kind == "toy"
    assert svc.catalogue.rules_for("Institute").kind == "institute"


def test_an_option_given_twice_is_refused() -> None:
    with pytest.raises(TableError, match="Option goal is given twice"):
        parse_options("goal=25 goal=30")
    with pytest.raises(TableError, match="given twice"):
        parse_options("hand=3 HAND=4")


def test_a_move_with_spaces_in_its_words_reads_back() -> None:
    from rules.contract import Move

    for move in (
        Move.of("covenant", name="Ashwood Hollow", desc='An "old" mill [by the fen] \\ east'),
        Move.of("mark", seats=["bob smith", "carol"], n=2),
    ):
        assert Move.parse(move.code()) == move
    assert Move.parse('mage  name="Tom Bell"   desc=x') == Move.of("mage", name="Tom Bell", desc="x")
