"""The Institute's steps, declared once: who is asked, what they may do, what a move does, what runs.

``STEPS`` holds one record per ``Step``: its prompts, its legal moves, what a move does, the
automatic part that runs when the game reaches it (``rules.institute.flow``), the rule that says
who acts and the step's name in a refusal. The engine, the flow's ``advance`` and the refusals
read this table; no step is spread over parallel if-chains. A power in use (an effect frame)
comes before every step: its holder answers it first (``rules.institute.effects``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules import rng
from rules.contract import Event, Move, Prompt, PromptKind, RuleRef
from rules.institute import effects, flow, moves, scoring
from rules.institute.state import (
    ACTION_NAMES,
    MAX_REROLLS,
    SEATS,
    WINDOWS,
    State,
    Step,
    card,
    counted,
    player,
    say,
    who,
)

Apply = Callable[[State, int, Move, list[Event]], None]


@dataclass(frozen=True)
class StepRules:
    """One step of a round: who it asks, their moves, what a move does, what runs on reaching it."""

    prompts: Callable[[State], list[Prompt]]
    moves: Callable[[State, int], list[Move]]
    apply: Apply
    run: Callable[[State, list[Event]], bool]
    """The automatic part: True while some seat must decide, else it moved the game on."""
    rule: RuleRef | None = None
    """The section that says who acts in this step, and in what order."""
    name: str = "the round"
    """The step in a refusal's words."""
    beside_powers: bool = False
    """Whether the step's own prompts stand beside a power in use (Phase I is simultaneous)."""


# --------------------------------------------------------------------------- prompts


def power_prompt(s: State, seat: int) -> Prompt:
    """Return the prompt of a seat answering the power it is using."""
    return Prompt(seat, PromptKind.DECISION, "power", effects.prompt_text(s, seat))


def _assign_prompts(s: State) -> list[Prompt]:
    out = []
    for seat in SEATS:
        if effects.frame(s, seat) is not None:
            out.append(power_prompt(s, seat))
        elif not player(s, seat)["confirmed"]:
            # The dice are already rolled when this is asked: assign, reroll if wanted, confirm.
            text = f"{who(seat)}: assign your Action Cards in secret (reroll if you like), then confirm."
            out.append(Prompt(seat, PromptKind.SECRET, "assign", text))
    return out


def _window_prompts(s: State) -> list[Prompt]:
    phase = WINDOWS[Step(s["step"])]
    text = "{}: use a Phase {} one-time power, or pass."
    return [Prompt(seat, PromptKind.REACTION, "window", text.format(who(seat), phase))
            for seat in s["window"]]


def _cast_prompts(s: State) -> list[Prompt]:
    text = "{}: too few stones; choose which Cast Card to fulfil."
    return [Prompt(int(k), PromptKind.DECISION, "cast", text.format(who(int(k))))
            for k in sorted(s["cast_left"])]


def _portal_prompts(s: State) -> list[Prompt]:
    kind = PromptKind.SECRET if s["portal_secret"] else PromptKind.TURN
    text = "{}: move your Portal stones to a card or 1 to the Ethereal Realm."
    return [
        Prompt(seat, kind, "portal", text.format(who(seat)))
        for seat in moves.portal_choosers(s)
        if player(s, seat)["portal"] is None
    ]


def _realm_prompts(s: State) -> list[Prompt]:
    holder = flow.realm_holder(s)
    assert holder is not None
    text = f"{who(holder)}: claim the Ethereal Realm award or wait."
    return [Prompt(holder, PromptKind.DECISION, "realm", text)]


def _phase4_prompts(s: State) -> list[Prompt]:
    current = moves.phase4_current(s)
    assert current is not None
    cid, owner = current
    text = f"{who(owner)}: trigger {card(cid).name} (#{card(cid).number}) or decline."
    return [Prompt(owner, PromptKind.TURN, "phase4", text)]


def _nobody(s: State) -> list[Prompt]:
    return []


# --------------------------------------------------------------------------- legal moves


def _assign_moves(s: State, seat: int) -> list[Move]:
    return [] if player(s, seat)["confirmed"] else moves.assign_moves(s, seat)


def _window_moves(s: State, seat: int) -> list[Move]:
    if seat not in s["window"]:
        return []
    cards = moves.usable_one_time(s, seat, WINDOWS[Step(s["step"])])
    return [Move.of("power", card=c) for c in cards] + [Move.of("pass")]


def _portal_moves(s: State, seat: int) -> list[Move]:
    if seat in moves.portal_choosers(s) and player(s, seat)["portal"] is None:
        return moves.portal_moves(s, seat)
    return []


def _realm_moves(s: State, seat: int) -> list[Move]:
    return [Move.of("claim"), Move.of("keep")] if flow.realm_holder(s) == seat else []


def _phase4_moves(s: State, seat: int) -> list[Move]:
    current = moves.phase4_current(s)
    if current and current[1] == seat:
        return [Move.of("power", card=current[0]), Move.of("decline")]
    return []


def _no_moves(s: State, seat: int) -> list[Move]:
    return []


# --------------------------------------------------------------------------- what a move does


def _assign_move(s: State, seat: int, move: Move, events: list[Event]) -> None:
    me = player(s, seat)
    act = move.action
    if act == "reroll":
        dice = move.get("dice")
        free = moves.free_reroll(s, seat)
        if not free:
            me["rerolls"] -= 1
        for d in dice:
            me["dice"][d - 1] = rng.roll(s)
        how = (
            "rerolls for free"
            if free
            else "spends a Reroll Cube and rerolls " + ", ".join(f"die {d}" for d in dice)
        )
        text = f"{who(seat)} {how}: dice now {flow.dice_text(me['dice'])}."
        say(s, events, "roll", text, seat=seat, dice=list(me["dice"]))
    elif act == "refill":
        me["charms"] -= 1
        me["score"] -= 1
        me["rerolls"] = MAX_REROLLS
        say(s, events, "refill", f"{who(seat)} returns a Charm (-1 VP) and refills their Reroll Cubes to 3.")
    elif act == "assign":
        d = move.get("die") - 1
        if me["assign"][d] is not None:
            me["changes"] += 1
        me["assign"][d] = move.get("card")
        # Private: only the assigning seat learns which card went where.
        text = f"You put {ACTION_NAMES[move.get('card')]} under die {d + 1} ({me['dice'][d]})."
        say(s, events, "assign", text, (seat,))
    elif act == "confirm":
        me["confirmed"] = True
        say(s, events, "confirm", f"You locked in: {flow.assignment_text(me)}.", (seat,))
        say(s, events, "confirm", f"{who(seat)} has locked in their Action Cards.", seat=seat)
    elif act == "power":
        use_one_time(s, seat, move.get("card"), events)


def use_one_time(s: State, seat: int, cid: int, events: list[Event]) -> None:
    """Turn a one-time card inactive and start its power."""
    me = player(s, seat)
    me["active"].remove(cid)
    me["inactive"].append(cid)
    say(s, events, "power", f"{who(seat)} uses {card(cid).name}.")
    effects.start(s, seat, cid, events)


def _window_move(s: State, seat: int, move: Move, events: list[Event]) -> None:
    if move.action == "pass":
        s["window"].remove(seat)
    else:
        use_one_time(s, seat, move.get("card"), events)


def _cast_move(s: State, seat: int, move: Move, events: list[Event]) -> None:
    d = move.get("die") - 1
    s["cast_left"][str(seat)].remove(d)
    flow.cast_one(s, seat, d, events)
    flow.auto_cast(s, seat, events)


def _portal_move(s: State, seat: int, move: Move, events: list[Event]) -> None:
    player(s, seat)["portal"] = move.get("to")
    if s["portal_secret"]:
        say(s, events, "portal", f"You chose {move.get('to')} for your Portal stones.", (seat,))
        say(s, events, "portal", f"{who(seat)} has made their Portal choice.")


def _realm_move(s: State, seat: int, move: Move, events: list[Event]) -> None:
    s["realm_done"] = True
    if move.action == "claim":
        scoring.claim_realm(s, seat, events)
    else:
        left = counted(s["realm"][seat], "stone")
        say(s, events, "realm", f"{who(seat)} leaves {left} on the Ethereal Realm.")


def _phase4_move(s: State, seat: int, move: Move, events: list[Event]) -> None:
    cid = s["phase4"]["order"][s["phase4"]["at"]]
    s["phase4"]["at"] += 1
    if move.action == "decline":
        say(s, events, "phase4", f"{who(seat)} declines {card(cid).name}.")
        return
    me = player(s, seat)
    if card(cid).power == "permanent":
        me["stones"] -= 1
        s["supply"][seat] += 1
        say(s, events, "power", f"{who(seat)} pays 1 stone to trigger {card(cid).name}.")
        effects.start(s, seat, cid, events)
    else:
        use_one_time(s, seat, cid, events)


def _no_move(s: State, seat: int, move: Move, events: list[Event]) -> None:
    raise AssertionError(f"no seat decides in the {s['step']} step")


def _ended(s: State, events: list[Event]) -> bool:
    return True  # nothing runs once the game is over (``advance`` stops on ``over`` first)


# --------------------------------------------------------------------------- the table

_WINDOW = StepRules(_window_prompts, _window_moves, _window_move, flow.run_window)

STEPS: dict[Step, StepRules] = {
    Step.ASSIGN: StepRules(
        _assign_prompts,
        _assign_moves,
        _assign_move,
        flow.run_assign,
        moves.PHASE_I,
        "Phase I, assigning Action Cards",
        beside_powers=True,
    ),
    Step.WINDOW2: _WINDOW,
    Step.CAST: StepRules(
        _cast_prompts,
        moves.cast_moves,
        _cast_move,
        flow.run_cast,
        RuleRef("Step B: Cast Power Stones"),
        "Phase II, casting stones",
    ),
    Step.PORTAL: StepRules(
        _portal_prompts,
        _portal_moves,
        _portal_move,
        flow.run_portal,
        RuleRef("Method for Declaring One's Option"),
        "Phase III, the Portal",
    ),
    Step.REALM: StepRules(
        _realm_prompts,
        _realm_moves,
        _realm_move,
        flow.run_realm,
        moves.REALM,
        "Phase III, the Ethereal Realm",
    ),
    Step.WINDOW3: _WINDOW,
    Step.PHASE4: StepRules(
        _phase4_prompts,
        _phase4_moves,
        _phase4_move,
        flow.run_phase4,
        RuleRef("Phase IV: Trigger Permanent Powers"),
        "Phase IV, permanent powers",
    ),
    Step.WINDOW5: _WINDOW,
    Step.CHECK: StepRules(_nobody, _no_moves, _no_move, flow.run_check),
    Step.OVER: StepRules(_nobody, _no_moves, _no_move, _ended),
}


def step_rules(s: State) -> StepRules:
    """Return the declared record of the step the game is at."""
    return STEPS[Step(s["step"])]


def pending(s: State) -> list[Prompt]:
    """Return who must decide what now: a power in use first, else the step's prompts."""
    if s["over"]:
        return []
    rules = step_rules(s)
    if s["frames"] and not rules.beside_powers:
        return [power_prompt(s, seat) for seat in SEATS if effects.frame(s, seat) is not None]
    return rules.prompts(s)


def legal_moves(s: State, seat: int) -> list[Move]:
    """Return every legal move for that seat now."""
    if s["over"] or seat not in SEATS:
        return []
    if effects.frame(s, seat) is not None:
        return effects.choices(s, seat)
    rules = step_rules(s)
    if s["frames"] and not rules.beside_powers:
        return []
    return rules.moves(s, seat)


def resolve(s: State, seat: int, move: Move, events: list[Event]) -> None:
    """Carry out a legal move (the seat's power first, else the step's), then run what follows."""
    if effects.frame(s, seat) is not None:
        effects.answer(s, seat, move, events)
    else:
        step_rules(s).apply(s, seat, move, events)
    advance(s, events)


def advance(s: State, events: list[Event]) -> None:
    """Run the steps' automatic parts until a seat must decide or the game ends."""
    while not s["over"] and not s["frames"]:
        if step_rules(s).run(s, events):
            return
