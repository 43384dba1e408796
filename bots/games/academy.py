"""What the bots know of Wizard's Academy.

``basic`` plays the cooperative policy of the Academy's balance tool (``bots.games.academy_policy``) from
the seat's view and its private memory (``remember``): the spell each cast revealed, by slot, until
that level is shuffled (the view counts each level's shuffles) or the spell is bound, and the rooms its
wizard stood in this turn. Under ``memory=strict`` a reveal shows for one turn only, so without the
memory the policy forgot every spell it had seen (about 3% at 2 players, basic game, normal, against
31% with it, the balance policy's own figure).

``strong`` plays a sharper policy, ``SharpPolicy``: the balance policy with the basic game's sharper
moves (``bots.games.academy_basic``) and the advanced scenarios' (``bots.games.academy_advanced``).
Alone, over 200 games per cell at 2 players, it wins 1312 of 3000 games against the balance policy's
1093, more in every cell; in the basic game at normal and hard the margin is small on those seeds (63
against 62, 28 against 24) and clearer over 1,600 (434 against 395, 151 against 131; data/academy/README.md
has the table).

Around that policy ``strong`` searches the decisions where the face-down spells matter (``searches``:
actions with a spell in reach, an effect's choice) among its policy's move, every cast and ending the
turn or taking a glyph (``rank``). It plays each candidate to the start of the next turn's actions (the
rest of this turn, the threats endured, the next disaster) on states sampled from the seat's view in
which every remembered spell keeps its slot (``recall``), all candidates on the same samples and luck.
Its playouts play the rest of the turn with the same policy, carrying the seat's memory and learning
what the playout reveals (a policy that knew every sampled spell would bind them in the Library for
free and lure the search there). The evaluator judges where a playout stops by the crystal's mana, the
threats and creatures in the academy, the spells bound, the scenario's progress and the glyphs the
table holds, and by what the playout's memory knows (``insight``: a look at a face-down spell is worth
something, most of all when it finds the goal spell). The evaluator knows less than the policy: the
search leaves the policy's move only for one better by about a mana at two standard errors
(``MARGIN``, ``CONFIDENCE``); with a looser bar it spent Abjure's pair while a fire burned.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable

from bots.core import Memory, Playbook, Seating, register
from bots.games.academy_advanced import SharpAdvanced
from bots.games.academy_basic import SharpBasic
from bots.games.academy_layout import LAYOUT, best_layout_choice
from bots.games.academy_policy import BAD, GOAL, Mind, Policy, best_shift
from rules.academy import reads
from rules.academy.state import CRYSTAL, distances, slot_level, slot_of, swap_spells
from rules.contract import Move, Rules, Seat, State, View


class SharpPolicy(SharpBasic, SharpAdvanced, Policy):
    """``strong``'s policy: the balance policy with sharper moves in the basic game
    (``bots.games.academy_basic``) and in the advanced scenarios (``bots.games.academy_advanced``)."""


HORIZON = 80
"""A cap on a playout's plies (it normally stops sooner, at the next turn's actions)."""
CORNERS = (0, 3, 12, 15)
MARGIN = 0.06
"""The search leaves the policy's move only for one worth about a mana more (in evaluator units)."""
CONFIDENCE = 2.0
"""...and only when it is that much better by two standard errors (the policy knows more than the
evaluator: with no margin and one standard error the search won 16 of 100 basic games at normal, where
it won 34 with the margin of half a mana at 1.5; at this bar it plays as well as its policy, 169 of 400
advanced games at normal against 157 at the old bar)."""
GLYPHS_WORTH = 8
"""Glyphs a wizard holds beyond this add nothing to the evaluation (hands are capped in play)."""
INSIGHT_GOAL = 1.5
INSIGHT_OTHER = 0.3
INSIGHT_BAD = 0.1
"""What knowing a face-down spell is worth to the evaluator (goal spell, any other, a botch)."""
CANDIDATES = 5
"""Root moves the search weighs: its policy's and the four next in ``rank``."""
PLAYOUT_MEMORY = "bot_memory"
"""Where a search's sampled state carries the playout's memory (a private copy's key; the rules and
views never read it)."""


def remember(rules: Rules, view: View, seat: Seat, memory: Memory) -> None:
    """Keep what a seat saw: each revealed spell by slot until its level is shuffled or it is bound,
    and the rooms its wizard stood in this turn (the policy never walks back into one).

    Idempotent: the shuffle counts seen last are kept, so the same view twice forgets nothing twice.
    """
    slot, spell = reads.revealed(view) or (None, None)
    bound = {reads.slot_id(x) for x in reads.slots(view) if reads.bound(x)}
    _note(memory, reads.shuffles(view), bound, slot, spell)
    if reads.current(view) == seat and reads.step(view) == "actions" and reads.wizards(view):
        trail = memory.get("trail")
        if not trail or (trail["turn"], trail["seat"]) != (reads.turn(view), seat):
            trail = {"turn": reads.turn(view), "seat": seat, "rooms": []}
        room = reads.room_of(view, seat)
        if room not in trail["rooms"]:
            trail["rooms"].append(room)
        memory["trail"] = trail


def _note(memory: Memory, shuffles: list[int], bound: set[str], slot: str | None, spell: str | None) -> None:
    """Forget the levels shuffled since the counts last seen and the spells bound since; learn a reveal."""
    known: dict[str, str] = memory.setdefault("known", {})
    now = list(shuffles)
    seen = memory.get("shuffles", now)
    for level, (before, after) in enumerate(zip(seen, now, strict=True), start=1):
        if before != after:
            for k in [k for k in known if slot_level(k) == level]:
                del known[k]
    memory["shuffles"] = now
    for k in bound & known.keys():
        del known[k]  # face up for everyone now: nothing to remember
    if slot and spell and slot not in bound:
        known[slot] = spell


def witness(state: State) -> None:
    """Let a playout's memory (in the sampled state) see what its last ply showed, views or not."""
    memory = state.setdefault(PLAYOUT_MEMORY, {})
    slot, spell = reads.state_reveal(state)
    _note(memory, reads.state_shuffles(state), reads.bound_slots(state), slot, spell)


def insight(state: State) -> float:
    """Return what a playout's memory is worth, in rough units of one mana: knowing where the goal
    spell lies is half the way to casting it; any other face-down spell known saves a blind cast."""
    memory = state.get(PLAYOUT_MEMORY) or {}
    goal = GOAL.get(reads.state_scenario(state))
    grid = reads.spell_grid(state)
    worth = 0.0
    for slot, spell in memory.get("known", {}).items():
        if reads.fixed(grid[slot]):
            continue
        worth += INSIGHT_GOAL if spell == goal else INSIGHT_BAD if spell in BAD else INSIGHT_OTHER
    return worth


def recall(rules: Rules, state: State, seat: Seat, memory: Memory) -> State:
    """Put each remembered spell back on its slot in a sample (swapping within its level's face-down
    spells), and give the sample the memory its playouts carry on."""
    known = memory.get("known", {})
    slots = reads.spell_grid(state)
    for slot in sorted(known):
        spell = known[slot]
        entry = slots.get(slot)
        if entry is None or reads.fixed(entry) or reads.laid(entry) == spell:
            continue
        level = slot_level(slot)
        holders = [
            k
            for k, v in sorted(slots.items())
            if reads.laid(v) == spell
            and not reads.fixed(v)
            and slot_level(k) == level
            and known.get(k) != spell
        ]
        if holders:
            other = min(holders, key=lambda k: k in known)  # a slot the seat knows nothing of first
            swap_spells(state, slot, other)
    state[PLAYOUT_MEMORY] = copy.deepcopy(memory)
    return state


def mind_of(memory: Memory, view: View) -> Mind:
    """Return the policy's memory: the spells the seat remembers, and this view's reveal."""
    mind = Mind()
    mind.known = dict(memory.get("known", {}))
    mind.observe(view, [])
    return mind


def _policy(
    view: View, seat: Seat, memory: Memory, rand: random.Random, kind: type[Policy] = Policy
) -> Policy:
    """Return the policy (``basic``'s balance policy, or ``strong``'s ``SharpPolicy``) as this seat's
    memory makes it (what it knows, where it has been)."""
    policy = kind(rand.getrandbits(32))
    policy.mind = mind_of(memory, view)
    trail = memory.get("trail")
    if trail and (trail["turn"], trail["seat"]) == (reads.turn(view), seat):
        here = reads.room_of(view, seat)
        policy.trail = ((reads.turn(view), seat), [r for r in trail["rooms"] if r != here])
    return policy


def _turns_rooms(why: str) -> bool:
    """Whether a choice, by its words, turns or swaps rooms (the policy answers it by how open the
    academy stays)."""
    return any(w in why for w in LAYOUT)


def _layout(state: State) -> bool:
    """Whether a sampled state's choice turns or swaps rooms."""
    choice = reads.state_choice(state)
    return choice is not None and _turns_rooms(reads.why(choice))


def _layout_seen(seating: Seating) -> bool:
    """Whether the choice the seat sees turns or swaps rooms."""
    choice = seating.typed.choice
    return choice is not None and _turns_rooms(choice.why)


def heuristic(seating: Seating, rand: random.Random, kind: type[Policy] = Policy) -> Move:
    """Return the policy's move for the seat (``basic``'s), from its view and what it remembers."""
    if seating.typed.step == "shifts":
        return best_shift(seating.sample(rand))  # the board is public: any sample has the real one
    if _layout_seen(seating):
        return best_layout_choice(seating.sample(rand))
    policy = _policy(seating.view, seating.seat, seating.memory, rand, kind)
    return policy.decide(seating.view, seating.seat, list(seating.legal))


def sharp(seating: Seating, rand: random.Random) -> Move:
    """Return ``strong``'s own move for the seat: the sharper policy's (``SharpPolicy``)."""
    return heuristic(seating, rand, SharpPolicy)


def rollout_policy(rules: Rules, state: State, seat: Seat, legal: list[Move], rand: random.Random) -> Move:
    """Play a playout's moves on the sampled state: ``strong``'s policy's actions, the rest at once.

    A playout stops at the next turn's actions (``next_actions``), so every action it plays belongs to
    the turn the search began in: ``SharpPolicy`` plays them on the sampled state's view, as ``strong``
    would go on. What follows the turn is read from the state alone, without a view: a glyph
    request is granted, the glyph share is skipped, a lone move is played; an effect's choice (where
    fire goes, which room turns) is the policy's again.
    """
    if len(legal) == 1:
        return legal[0]
    if reads.state_request(state) is not None and reads.state_choice(state) is None:
        yes = Move.of("consent", ok=True)
        return yes if yes in legal else legal[0]
    if reads.state_step(state) == "share" and reads.state_choice(state) is None:
        done = Move.of("done")
        return done if done in legal else legal[0]
    return view_policy(rules, state, seat, legal, rand)


def view_policy(rules: Rules, state: State, seat: Seat, legal: list[Move], rand: random.Random) -> Move:
    """Play the balance policy on the sampled state's view (it knows no more than a player would)."""
    if reads.state_step(state) == "shifts" and reads.state_choice(state) is None:
        return best_shift(state)
    if _layout(state):
        return legal[0]  # a look-ahead over every turn of a room costs a playout's whole budget
    view = rules.view(state, seat)
    # It knows what the searching seat remembered and what the playout revealed since, though the
    # sample fixes every spell: a policy that knew them all would bind them in the Library for free
    # and lure the search there.
    memory = state.setdefault(PLAYOUT_MEMORY, {})
    remember(rules, view, seat, memory)
    return _policy(view, seat, memory, rand, SharpPolicy).decide(view, seat, legal)


def searches(seating: Seating) -> bool:
    """Whether the search weighs this decision: an effect's choice, or actions where a spell can be cast
    (where the samples' guesses at the face-down spells tell the moves apart); not a walk or a glyph
    taken with no spell in reach, the setup shifts or a turned room (the policy already looks ahead
    there), a glyph request or the glyph share."""
    if _layout_seen(seating):
        return False
    if any(p.decision == "choice" for p in seating.prompts):
        return True
    acting = any(p.decision in ("actions", "binding") for p in seating.prompts)
    return acting and any(m.action == "cast" for m in seating.legal)


def _cast_slot(move: Move) -> str:
    return slot_of(move.get("a"), move.get("b"))


def rank(seating: Seating, rand: random.Random) -> list[Move]:
    """Return the moves the search weighs, its own policy's first (``sharp``): then every cast (with
    one's own glyphs first, the higher levels first), then ending the turn and taking a glyph; an
    effect's choice weighs all its options. Walks and guesses in the Library stay the policy's."""
    first = sharp(seating, rand)
    rest = [m for m in seating.legal if m != first]
    if seating.typed.choice is not None:
        return [first, *rest]
    casts = sorted(
        (m for m in rest if m.action == "cast"),
        key=lambda m: (m.get("helper") is not None, -int(_cast_slot(m)[-1]), _cast_slot(m)),
    )
    plain = [m for m in rest if m.action in ("end", "take")]
    return [first, *casts, *plain]


def next_actions(start: State) -> Callable[[State], bool]:
    """Return the test that stops a playout at the next turn's actions (after its disaster)."""
    turn = reads.state_turn(start)

    def done(state: State) -> bool:
        # Every ply of a playout passes here: its memory sees each reveal, even one no policy looked at.
        witness(state)
        return (
            reads.state_turn(state) > turn
            and reads.state_step(state) == "actions"
            and reads.state_choice(state) is None
        )

    return done


def standing(state: State) -> float:
    """Return how well the table stands, in rough units of one mana."""
    board = reads.board(state)
    rooms = reads.on_board(state)
    fire = sum(reads.count(r, "fire") for r in rooms)
    score = 1.0 * reads.mana(state) - 0.6 * fire
    # A creature close to the crystal is about to cost mana: nearer counts up to twice as much.
    near = distances(state, CRYSTAL) if CRYSTAL in board else {}
    for key, r in zip(board, rooms, strict=True):
        imp, troll, demon = reads.count(r, "imp"), reads.count(r, "troll"), reads.count(r, "demon")
        burning = reads.count(r, "fire")
        if imp or troll or demon or burning:
            close = 1.0 + 1.0 / (1.0 + near.get(key, 9))
            score -= close * (0.4 * imp + 0.8 * troll + 1.5 * demon + 0.3 * burning)
    score -= sum(_lingering(r) for r in rooms)
    kind = reads.state_scenario(state)
    goal = GOAL.get(kind)
    for v in reads.spell_grid(state).values():
        if reads.fixed(v) and reads.laid(v) not in BAD:
            score += 2.5 if reads.laid(v) == goal else 0.6
    hands = reads.hands(state)
    score += 0.08 * sum(min(GLYPHS_WORTH, len(h)) for h in hands)
    score += 0.04 * sum(len(set(h)) for h in hands)
    if kind == "golem":
        score += 2.0 * sum(1 for p in CORNERS if reads.count(rooms[p], "guardian"))
    elif kind == "gates":
        score -= 1.0 * sum(len(reads.portals_in(r)) for r in rooms)
    elif kind == "basic" and fire == 0:
        score += 0.5  # Abjure only saves the academy while no fire burns
    return score


def _lingering(r: reads.Record) -> float:
    """Return what a room's lasting threats cost (ice, water, darkness, a haunting)."""
    return (
        0.15 * reads.count(r, "ice")
        + 0.1 * reads.count(r, "water")
        + 0.1 * reads.count(r, "darkness")
        + 0.1 * reads.count(r, "haunt")
    )


def evaluate(rules: Rules, state: State, seat: Seat) -> float:
    """Return a share in [0, 1] from the table's standing (a finished game scores its outcome instead)."""
    return 1.0 / (1.0 + math.exp(-(standing(state) + insight(state) - 6.0) / 4.0))


PLAYBOOK = register(
    "academy",
    Playbook(
        heuristic=heuristic,
        sharp=sharp,
        evaluate=evaluate,
        rollout=rollout_policy,
        horizon=HORIZON,
        until=next_actions,
        margin=MARGIN,
        confidence=CONFIDENCE,
        searches=searches,
        rank=rank,
        candidates=CANDIDATES,
        remember=remember,
        recall=recall,
    ),
)
