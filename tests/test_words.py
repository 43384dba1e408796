"""Words players read: random games of every kind, every label, event, prompt and board text scanned.

A defect is text a person should never see: a dangling colon ("P1:"), an "(s)" plural, doubled
spaces, a label ending on a dangling word ("gain per"), a raw id or snake_case name, "None", an
unfinished template. The texts come from the rules (labels, prompts, events, results) and from
the service (the thread's board text, each private note), so names substituted there are scanned too.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict

import pytest

import render
from rules import registry
from rules.contract import Rules
from service import TableService

DEFECTS = {
    "dangling colon": re.compile(r":\s*$|:\s*[;,.]"),
    "(s) plural": re.compile(r"\w\((s|es)\)"),
    "doubled space": re.compile(r"\S  +\S"),
    "dangling word": re.compile(r"\b(per|of|for|with|and|or|the|a|an|by)\s*$"),
    "raw id or snake_case": re.compile(r"\b[a-z]+_[a-z0-9_]+\b"),
    "None": re.compile(r"\bNone\b"),
    "unfinished template": re.compile(r"[{}]|%[sd]\b"),
    "doubled full stop": re.compile(r"(?<!\.)\.\.(?!\.)|…\."),
    "one with a plural": re.compile(
        r"(?<![\d.,])\b1 (conflicts|cards|stones|votes|Council Votes|points|tricks|seasons|glyphs|mages"
        r"|rounds|turns|actions|moves|players|wizards|decisions|times|shares|dice)\b"
    ),
    "said twice": re.compile(r"\b(\w+)(?: \(\w+\))? (\w+)\b[^()]*\(\1(?: \(\w+\))? \2\b"),
}
SEAT_CODE = re.compile(r"(?<!\()(?<!you are )\bP\d\b(?!\))(?! (alice|bob|carol)\b)")
"""A seat's placeholder ("P1") left in a text people read (besides "bob (P2)", "P2 bob", "you are P2")."""
BUILTIN = tuple(registry.kinds())


def defects(text: str) -> list[str]:
    """Return the names of the defects found in a text, line by line."""
    return [name for line in text.splitlines() for name, pattern in DEFECTS.items() if pattern.search(line)]


def test_the_scanner_catches_each_defect() -> None:
    seen = {
        "Claim: gain per": "dangling word",
        "Red takes 9 Power Stone(s).": "(s) plural",
        "**Guilds**: P1:": "dangling colon",
        "alice  passes.": "doubled space",
        "Draft a natural_magick mage": "raw id or snake_case",
        "P2 gains None Gold.": "None",
        "P1 takes {amount} Mana.": "unfinished template",
        "Put the mage back in its slot..": "doubled full stop",
        "Discard one personal….": "doubled full stop",
        "After 1 conflicts": "one with a plural",
        "Game over: alice wins (alice wins with 20 VP to 8)": "said twice",
        "Game over: alice wins (alice (Red) wins with 20 VP to 8). Scores: alice 20, bob 8.": "said twice",
    }
    for text, name in seen.items():
        assert name in defects(text), text
    assert defects("alice (Red) takes 9 Power Stones; Waiting on bob (P2): draft a mage.") == []
    assert defects("1 pass. 1 Gold, 1.5 stones... Game over: alice wins (20 VP to 8).") == []
    assert all(SEAT_CODE.search(t) for t in ("P1 asks for your glyph 4", "Waiting on P2."))
    assert SEAT_CODE.search("Waiting on bob (P2).") is None


def _options(rules: Rules, rnd: random.Random) -> dict[str, str]:
    """Pick a random value of every table option (defaults half of the time)."""
    if rnd.random() < 0.5:
        return rules.default_options()
    return {o.name: rnd.choice(o.choices) for o in rules.options}


def _play(rules: Rules, players: int, seed: int, found: dict[str, set[str]]) -> None:
    """Play one random game to its end, scanning everything the rules say along the way."""
    rnd = random.Random(seed)
    state = rules.setup(players, _options(rules, rnd), seed)

    def scan(where: str, text: str) -> None:
        for name in defects(text):
            found[f"{name} in {where}"].add(text)

    for _ in range(rules.max_moves(players, state.get("options", {}))):
        if rules.is_over(state):
            break
        prompts = rules.pending(state)
        for prompt in prompts:
            scan(f"{rules.kind} prompt", prompt.text)
        seat = rnd.choice(prompts).seat
        legal = rules.legal_moves(state, seat)
        for move in legal:
            scan(f"{rules.kind} label", rules.label(state, seat, move))
        state, events = rules.apply(state, seat, rnd.choice(legal))
        for event in events:
            scan(f"{rules.kind} event", event.text)
    assert rules.is_over(state)
    result = rules.result(state)
    assert result is not None
    scan(f"{rules.kind} result", result.reason)


@pytest.mark.parametrize("kind", BUILTIN)
def test_random_games_of_every_kind_say_nothing_badly(kind: str) -> None:
    rules = registry.get(kind)
    found: dict[str, set[str]] = defaultdict(set)
    counts = range(rules.min_players, rules.max_players + 1)
    for seed in range(4):
        for players in counts:
            _play(rules, players, 1000 * seed + players, found)
    report = {where: sorted(texts)[:5] for where, texts in found.items()}
    assert not report, report


@pytest.fixture
def table_seed() -> int:
    """The seed every table of this module is dealt with."""
    return 4321


@pytest.fixture
def svc(svc: TableService, monkeypatch: pytest.MonkeyPatch) -> TableService:
    """The shared service, drawing nothing."""
    # The texts are what is scanned here; drawing every board would only slow the games down.
    monkeypatch.setattr(render, "board", lambda kind, view, caption=None: None)
    monkeypatch.setattr(render, "private", lambda kind, view: None)
    return svc


@pytest.mark.parametrize("kind", BUILTIN)
async def test_boards_and_private_notes_through_the_service_read_well(svc: TableService, kind: str) -> None:
    rules = registry.get(kind)
    users = {101: "alice", 102: "bob", 103: "carol"}
    players = min(3, rules.max_players)
    table = await svc.open_table(kind, None, guild_id=1, channel_id=2, host_id=101, host_name="alice")
    for user in list(users)[1:players]:
        await svc.join(table.id, user, users[user])
    texts = []
    reply = await svc.start(table.id, 101)
    rnd = random.Random(5)
    for _ in range(rules.max_moves(players, {})):
        assert reply.board is not None
        texts.append(reply.board.text)
        texts.extend(note.text for note in reply.private)
        if reply.board.finished:
            break
        public = await svc.reads.public_view(table.id)
        user = public.users[rnd.choice(public.prompts).seat]
        # Picked from the list, as autocomplete offers it (stamped): the same pick twice is meant.
        choice = rnd.choice(await svc.reads.choices(table.id, user, stamped=True))
        reply = await svc.act(table.id, user, choice.value)
    assert reply.board is not None and reply.board.finished
    texts.extend(await svc.reads.log_lines(table.id, limit=200))
    bad = {text: defects(text) + ["seat code"] * bool(SEAT_CODE.search(text)) for text in texts}
    bad = {text: found for text, found in bad.items() if found}
    assert not bad, list(bad.items())[:5]


def _argent_at(decision: str, players: int = 3, seed: int = 5, **options: str) -> tuple[Rules, dict, int]:
    """Return an Argent state at the first prompt with this decision (first legal move each time)."""
    rules = registry.get("argent")
    state = rules.setup(players, {**rules.default_options(), **options}, seed)
    for _ in range(500):
        asked = [p for p in rules.pending(state) if p.decision == decision]
        if asked:
            return rules, state, asked[0].seat
        seat = rules.pending(state)[0].seat
        state, _ = rules.apply(state, seat, rules.legal_moves(state, seat)[0])
    raise AssertionError(decision)


def test_a_merit_slot_warns_when_no_badge_is_left() -> None:
    from rules.argent import state as argent_state

    rules, state, seat = _argent_at("turn")
    office = state["seats"][seat]
    office["merit_spent"] = argent_state.merit_total(state, seat)
    merit_rooms = {
        room
        for room in argent_state.rooms_in_play(state)
        for slot in argent_state.slots(state, room)
        if argent_state.is_merit(slot)
    }
    place = next(
        m for m in rules.legal_moves(state, seat) if m.action == "place" and m.get("room") in merit_rooms
    )
    state, _ = rules.apply(state, seat, place)
    labels = [rules.label(state, seat, m) for m in rules.legal_moves(state, seat)]
    warned = [x for x in labels if x.endswith("(Merit slot, no badge left: likely only 1 IP)")]
    assert warned and len(warned) < len(labels), labels
    assert all(len(x) <= 100 for x in labels)


def test_candidates_and_powers_say_what_they_do_within_discords_limit() -> None:
    rules, state, seat = _argent_at("candidate", candidates="chosen", mage_powers="chosen")
    labels = [rules.label(state, seat, m) for m in rules.legal_moves(state, seat)]
    assert "Rheye Cal (Divinity A): brings wounded mages straight back to work" in labels
    assert "Jion Erjon (Student Body B): slips in late placements after the bell; +1 Merit Badge" in labels
    assert all(len(x) <= 100 and "…" not in x for x in labels)
    rules, state, seat = _argent_at("power", candidates="chosen", mage_powers="chosen")
    labels = [rules.label(state, seat, m) for m in rules.legal_moves(state, seat)]
    assert [x[:3] for x in labels] == ["A: ", "B: "] and all(len(x) <= 100 for x in labels)


def test_institute_phase_one_prompt_and_an_empty_phase_five() -> None:
    rules = registry.get("institute")
    state = rules.setup(2, rules.default_options(), 3)
    prompt = rules.pending(state)[0].text
    assert prompt == "Red: assign your Action Cards in secret (reroll if you like), then confirm."
    rnd = random.Random(3)
    fives = 0
    while not rules.is_over(state):
        seat = rnd.choice(rules.pending(state)).seat
        state, events = rules.apply(state, seat, rnd.choice(rules.legal_moves(state, seat)))
        texts = [e.text for e in events]
        if "Phase V: Award Institute Cards." in texts:
            fives += 1
            after = texts[texts.index("Phase V: Award Institute Cards.") + 1 :]
            # The phase always says how it went: a card won, or that none was.
            assert any("wins" in t or "No Institute Card is won" in t for t in after) or rules.pending(state)
    assert fives > 3


def test_a_choice_that_picks_a_card_says_what_the_card_does() -> None:
    from rules.argent import content
    from rules.argent.effects import card_label

    vault = card_label("Take Phase Steppers", "vault", "phase_steppers")
    assert vault.startswith("Take Phase Steppers: When one of your mages would be wounded")
    assert len(vault) <= 100
    supporter = next(iter(content.supporter_cards()))
    said = card_label(f"Draft {supporter['name']}", "supporter", supporter["id"])
    assert said.startswith(f"Draft {supporter['name']}: ") and len(said) <= 100
    book = content.spell_books()[0]
    spell = card_label(f"Draft {book['name']}", "spell", book["id"])
    assert f"L1 {book['levels'][0]['name']}: " in spell and len(spell) <= 100


def test_a_prompt_naming_another_seat_names_its_player() -> None:
    from rules.contract import Prompt, PromptKind
    from service.replies import waiting_sentence

    asked = Prompt(1, PromptKind.REACTION, "consent", "P2: P1 asks for your glyph 4 to cast with.")
    said = waiting_sentence([asked], {0: "alice", 1: "bob"}, {0: "P1", 1: "P2"})
    assert said == "Waiting on bob (P2): alice (P1) asks for your glyph 4 to cast with."
    assert not SEAT_CODE.search(said)


@pytest.mark.parametrize("kind", ["argent", "institute", "quadrivium"])
async def test_a_panel_waiting_on_others_names_them(svc: TableService, kind: str) -> None:
    from cogs import institute, quadrivium
    from cogs.argent import panel as argent_panel

    rules = registry.get(kind)
    table = await svc.open_table(kind, None, guild_id=1, channel_id=2, host_id=101, host_name="alice")
    await svc.join(table.id, 102, "bob")
    await svc.start(table.id, 101)

    async def text_of(user: int) -> str:
        now = await svc.reads.seat_view(table.id, user)
        if kind == "argent":
            return argent_panel.panel_text(now)
        if kind == "institute":
            return institute.panel_text("t", await institute.read_panel(svc, now))
        return quadrivium.panel_text("t", await quadrivium.read_panel(svc, now))

    rnd = random.Random(2)
    waiting = ""
    for _ in range(400):  # play until someone waits while the other decides
        public = await svc.reads.public_view(table.id)
        awaited = {p.seat for p in public.prompts}
        for seat, user in public.users.items():
            lines = [] if seat in awaited else (await text_of(user)).splitlines()
            waiting = next((x for x in lines if x.startswith("Nothing to decide now.")), waiting)
        if waiting:
            break
        user = public.users[rnd.choice(sorted(awaited))]
        await svc.act(table.id, user, rnd.choice(await svc.reads.choices(table.id, user)).value)
    assert "Waiting on " in waiting and ("alice" in waiting or "bob" in waiting), waiting
    assert not SEAT_CODE.search(waiting) and not defects(waiting), waiting
    assert rules.kind == kind
