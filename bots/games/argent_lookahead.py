"""What the bots know of Argent: The Consortium: the evaluator and ``basic``'s look-ahead.

Votes are all that count at the end, and most voters are face down. The evaluator therefore
scores **expected votes**: every voter the seat knows (the white ones, the ones it marked) weighs
its own criterion; every voter it does not know weighs each criterion still possible for it
(the game's voter pool less the voters the seat has seen) equally. For each criterion a seat's
chance of carrying it grows smoothly with its lead over the best rival (a logistic curve, wider
while rounds remain), so a gain that closes a gap counts before it flips a vote. The counts are
*projected*: each mage still waiting on an errand slot adds what that slot's effects would give
(read statically from the card data, a Merit slot without a free badge giving the 1 IP instead).
While rounds remain, resources, free INT/WIS, mages, badges and unused cards add a little for what
they will buy later. All of it reads only the seat's own knowledge: a voter's identity is used only
where the seat may see it, so a sampled state's guesses never sway the score.

``basic`` looks one decision ahead with that evaluator (following its own follow-up decisions, such
as the slot after the room or the reward after the claim, a step or two deep), takes fast
placements, keeps its mages busy before it rings the last bell, and only ends the round when the
rivals lose more unplaced mages than it does.

``strong`` (``bots.games.argent_search``) reads the same tree of its own decisions with a sharper
``Style``: deeper and wider, a tied count leaning to whoever wins the game's tie-break (IP), unplaced
mages and fast placements weighed as they matter; at the decisions that shape a round (the turn's
action, where a mage goes) it repeats the reading over states sampled from its view while its budget
lasts.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any

from bots.core import Seating
from rules.argent import reads
from rules.argent.scoring import measure
from rules.argent.state import DEPARTMENTS, merit_free, merit_total, placed, split_loc
from rules.contract import Move, Rules, Seat, State

MOVE_CAP = 24
"""Moves the heuristic weighs at one decision (shuffled first); follow-ups weigh fewer."""

CRITERIA = (
    "ip",
    "gold",
    "mana",
    "int",
    "wis",
    "supporters",
    "marks",
    "research",
    "diversity",
    "vault_type:treasure",
    "vault_type:consumable",
    *(f"department:{d}" for d in DEPARTMENTS),
)
"""Every count a voter weighs (second-most voters weigh the matching most count)."""
SCALE = {"ip": 2.5, "gold": 3.0, "mana": 2.0}
"""How wide (in the count's units) the road from losing to winning a criterion is; default 1."""
ASSETS = {"gold": 0.02, "mana": 0.04, "int": 0.12, "wis": 0.12}
"""Votes a spare unit of a resource is worth later in the game (at its start; fading to zero)."""
MAGE_WORTH = 0.35
BADGE_WORTH = 0.25
CARD_WORTH = 0.12


@dataclass(frozen=True)
class Style:
    """How deep and how sharply the heuristic reads a decision (``basic``'s and ``strong``'s)."""

    depth: int = 2
    """How many of its own follow-up decisions the look-ahead goes through after a move."""
    nodes: int = 90
    """States the look-ahead may judge for one decision (its time stays bounded)."""
    follow_cap: int = 8
    """Moves weighed at each follow-up decision."""
    ties: bool = False
    """Whether a tied count leans to the tie-break's winner (``expected_votes``)."""
    unplaced: float = 0.3
    """Votes an unplaced mage is worth while its round lasts (why ending the round early costs)."""
    fast_bonus: float = 0.15
    """A fast placement does not spend the turn's action: take it when a slot is worth anything."""


BASIC = Style()
"""``basic``'s reading: two follow-ups deep, ties shared, a few milliseconds a decision."""
DRAFT_ORDER = ("planar_studies", "sorcery", "natural_magick", "divinity", "mysticism", "neutral")
"""Mage types by how much their power tends to help: a fast placement is a free action."""
PLACE_ORDER = ("neutral", "mysticism", "divinity", "natural_magick", "sorcery", "planar_studies")
"""Which mage to send when several would do: keep the ones with useful powers for later."""


# --------------------------------------------------------------------------- what the seat knows


def criterion_weights(state: State, seat: Seat) -> dict[str, float]:
    """Return how many voters the seat expects to weigh each criterion (known voters count whole)."""
    weights: dict[str, float] = {}
    seen: set[str] = set()
    unknown = 0
    for index in range(reads.voter_count(state)):
        if reads.voter_known_to(state, index, seat) or reads.over(state):
            vid = reads.voter_id(state, index)
            crit = reads.criterion(vid)
            weights[crit] = weights.get(crit, 0.0) + 1.0
            seen.add(vid)
        else:
            unknown += 1
    pool = [vid for vid in reads.face_down_pool(state) if vid not in seen]
    if unknown and pool:
        share = unknown / len(pool)
        for vid in pool:
            crit = reads.criterion(vid)
            weights[crit] = weights.get(crit, 0.0) + share
    return weights


# --------------------------------------------------------------------------- static effect values


def _spread(gains: dict[str, float], keys: list[str], amount: float) -> None:
    """Add ``amount`` spread evenly over ``keys`` (an unknown choice among them)."""
    if not keys:
        return
    for k in keys:
        gains[k] = gains.get(k, 0.0) + amount / len(keys)


def _add(gains: dict[str, float], more: dict[str, float], times: float = 1.0) -> None:
    for k, v in more.items():
        gains[k] = gains.get(k, 0.0) + v * times


def _rough(gains: dict[str, float]) -> float:
    """Return a quick worth of a gain vector, to pick among a slot's options without the evaluator."""
    worth = {"gold": 0.06, "mana": 0.12, "ip": 0.2, "int": 0.3, "wis": 0.3, "mark": 0.25, "marks": 0.25}
    return sum(v * worth.get(k, 0.3) for k, v in gains.items() if k != "cost")


def effect_gains(state: State, seat: Seat, effects: list[dict[str, Any]]) -> dict[str, float]:
    """Return what an effect list would add to a seat's counts (a static, approximate reading)."""
    gains: dict[str, float] = {}
    for effect in effects:
        (key, arg), = effect.items()
        if key == "gain":
            for res, n in arg.items():
                if res == "mark":
                    _add(gains, {"marks": n, "know": n})
                elif res == "research":
                    _add(gains, _research(state, seat), n)
                else:
                    _add(gains, {res: n})
        elif key == "gain_per":
            _add(gains, _gain_per(state, seat, reads.gain_per(arg)))
        elif key == "pay":
            for res, n in arg.items():
                if res != "swap":
                    _add(gains, {res: -n})
        elif key == "choose":
            options = [effect_gains(state, seat, opt) for opt in arg]
            if options:
                _add(gains, max(options, key=_rough))
        elif key == "choose_distinct":
            choices, picks = reads.distinct_choice(arg)
            options = sorted((effect_gains(state, seat, opt) for opt in choices), key=_rough)
            for opt in options[-picks:]:
                _add(gains, opt)
        elif key in ("draft", "draw", "secret_supporter", "take_revealed", "buy", "draft_room_card"):
            _add(gains, _card_gain(state, seat, key, arg))
        elif key == "research":
            _add(gains, _research(state, seat), arg.get("amount", 1))
        elif key == "gain_mage":
            _add(gains, {"mage": 0.5 if arg.get("temporary") else 1.0})
        else:
            _add(gains, {"other": 1.0})
    return gains


def _gain_per(state: State, seat: Seat, effect: reads.GainPer) -> dict[str, float]:
    """Return what a ``gain_per`` effect would add, counting the seat's INT, WIS or rivals as it stands."""
    count = 0
    if effect.per == "own:wis":
        count = reads.amount(state, seat, "wis") + sum(level - 1 for level in reads.spell_levels(state, seat))
    elif effect.per == "own:int":
        count = reads.amount(state, seat, "int") + len(reads.spell_levels(state, seat))
    elif effect.per == "players_with_more:ip":
        ip = reads.amount(state, seat, "ip")
        count = sum(1 for s in range(reads.players(state)) if reads.amount(state, s, "ip") > ip)
    amount = effect.each * count / effect.divide + effect.plus
    if effect.most is not None:
        amount = min(amount, effect.most)
    return {effect.resource: amount}


def _research(state: State, seat: Seat) -> dict[str, float]:
    """Return what one Research adds: a spell level, if INT (to learn) or WIS (to upgrade) is free."""
    free_int = reads.amount(state, seat, "int")
    if free_int <= 0 and (reads.amount(state, seat, "wis") <= 0 or not reads.spell_levels(state, seat)):
        return {}
    out: dict[str, float] = {"research": 1.0}
    depts = [reads.book_department(b) for b in reads.tableau(state, "spell")]
    if free_int > 0 and depts:
        _spread(out, [f"department:{d}" for d in depts], 1.0)
        out["diversity"] = 0.4
    else:
        _spread(out, [f"department:{d}" for d in reads.spell_departments(state, seat)], 1.0)
    return out


def _card_gain(state: State, seat: Seat, key: str, arg: dict[str, Any]) -> dict[str, float]:
    """Return what gaining a card adds: a supporter's department, a vault card's type."""
    deck = arg.get("tableau") or arg.get("deck") or ("supporter" if key == "secret_supporter" else "vault")
    count = arg.get("count", 1)
    if deck == "supporter":
        out: dict[str, float] = {"supporters": 1.0, "diversity": 0.3}
        cards = reads.tableau(state, "supporter") if key == "draft" else []
        depts = [reads.supporter_department(c) for c in cards] or list(DEPARTMENTS)
        _spread(out, [f"department:{d}" for d in depts if d in DEPARTMENTS], 1.0)
        if key != "secret_supporter":
            out["card"] = 1.0
        return {k: v * count for k, v in out.items()}
    if deck == "spell":
        return _research(state, seat)
    out = {"vault_type:treasure": 0.5, "vault_type:consumable": 0.5, "card": 1.0}
    if key == "buy":
        out["gold"] = -3.0
        if reads.amount(state, seat, "gold") < 2:
            return {}
    return {k: v * count for k, v in out.items()}


def slot_gains(state: State, seat: Seat, loc: str) -> dict[str, float]:
    """Return what a mage on an errand slot would bring home at the resolution."""
    room, slot_id = split_loc(loc)  # type: ignore[misc]
    effects = reads.slot_effects(state, room, slot_id)
    return {} if effects is None else effect_gains(state, seat, effects)


# --------------------------------------------------------------------------- the evaluator


def _pending(state: State) -> dict[int, dict[str, float]]:
    """Return, per seat, what its mages on errand slots will bring home (errands not yet resolved)."""
    out: dict[int, dict[str, float]] = {}
    if reads.phase(state) not in ("errands", "resolution"):
        return out
    merits: dict[int, int] = {}
    for owner, loc in reads.mage_spots(state):
        if owner is None or not placed(loc):
            continue
        room, slot_id = split_loc(loc)  # type: ignore[misc]
        if reads.instant(state, room):
            continue
        kind = reads.slot_kind(state, room, slot_id)
        if kind is None:
            continue
        gains = out.setdefault(owner, {})
        if kind in ("merit", "shadow_merit"):
            merits[owner] = merits.get(owner, 0) + 1
            if merits[owner] > merit_free(state, owner):
                _add(gains, {"ip": 1.0})
                continue
        _add(gains, slot_gains(state, owner, loc))
    return out


def _logistic(x: float) -> float:
    if x > 30:
        return 1.0
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def _rounds_left(state: State) -> float:
    """Return the share of the game still to play (1 at the start, 0 once the last errands are in)."""
    rounds = reads.rounds(state)
    left = rounds - reads.round_number(state)
    if reads.phase(state) == "errands":
        left += 0.5
    return max(0.0, left / rounds)


def expected_votes(state: State, seat: Seat, ties: bool = False) -> list[float]:
    """Return every seat's expected votes (and later worth) as the given seat judges them.

    With ``ties`` (the search's sharper reading) a tie on a count leans to whoever wins the game's
    tie-break, the IP leader (counting the IP its errands will bring), more so as the end nears.
    """
    players = reads.players(state)
    seats = [s for s in range(players) if not reads.left(state, s)]
    pending = _pending(state)
    future = _rounds_left(state)
    widen = 0.6 + 1.2 * future
    counts: dict[int, dict[str, float]] = {}
    for s in seats:
        row = {c: float(measure(state, s, "most:" + c)) for c in CRITERIA}
        for k, v in pending.get(s, {}).items():
            if k in row:
                row[k] += v
        counts[s] = row
    weights = criterion_weights(state, seat)
    totals = {s: 0.0 for s in seats}
    # The tie-break's order: IP, then the disc lowest in the stack (earlier ``ip_time``).
    ip = {s: counts[s]["ip"] - 1e-6 * reads.ip_time(state, s) for s in seats}
    for crit, weight in weights.items():
        second = crit.startswith("second_most:")
        base = "most:" + crit.split(":", 1)[1] if second else crit
        key = base.split(":", 1)[1]
        scale = SCALE.get(key, 1.0) * widen
        values = {s: counts[s][key] for s in seats}
        for s in seats:
            others = sorted((values[t] for t in seats if t != s), reverse=True)
            if not others:
                continue
            lead = values[s] - others[0]
            if ties:
                rival = max((t for t in seats if t != s), key=lambda t: (values[t], -ip[t]))
                lead += (0.5 if ip[s] > ip[rival] else -0.5) * (1.0 - future)
            first = _logistic(lead / scale + 0.2) * min(1.0, values[s])
            if second:
                third = others[1] if len(others) > 1 else 0.0
                chance = max(0.0, _logistic((values[s] - third) / scale + 0.2) * min(1.0, values[s]) - first)
            else:
                chance = first
            totals[s] += weight * chance
    for s in seats:
        totals[s] += future * _assets(state, s, pending.get(s, {}))
    return [totals.get(s, -math.inf) for s in range(players)]


def _assets(state: State, seat: Seat, pending: dict[str, float]) -> float:
    """Return what a seat's spare means are worth later in the game (in votes, before fading)."""
    worth = sum(w * (reads.amount(state, seat, r) + pending.get(r, 0.0)) for r, w in ASSETS.items())
    worth += MAGE_WORTH * (reads.mages_of(state, seat) + pending.get("mage", 0.0))
    worth += BADGE_WORTH * merit_total(state, seat)
    worth += CARD_WORTH * (reads.cards_held(state, seat) + pending.get("card", 0.0))
    worth += 0.1 * sum(reads.spell_levels(state, seat))
    worth += 0.08 * pending.get("know", 0.0) + 0.05 * pending.get("other", 0.0)
    return worth


def margin(state: State, seat: Seat, ties: bool = False) -> float:
    """Return the seat's expected votes less its strongest rival's (ties leaning to the rival)."""
    totals = expected_votes(state, seat, ties)
    mine = totals[seat]
    rivals = [t for s, t in enumerate(totals) if s != seat and t != -math.inf]
    if not rivals:
        return 0.0
    return mine - (0.6 * max(rivals) + 0.4 * sum(rivals) / len(rivals))


def evaluate_state(rules: Rules, state: State, seat: Seat) -> float:
    """Return a share in [0, 1] from the seat's lead in expected votes."""
    return _logistic(margin(state, seat) / 1.2)


# --------------------------------------------------------------------------- the heuristic


def _bias(state: State, seat: Seat, move: Move, style: Style = BASIC) -> float:
    """Return the nudges the evaluator cannot see: free actions, mage choice, ending the round."""
    action = move.action
    if action == "place" and move.get("fast"):
        return style.fast_bonus
    if action == "draft" and isinstance(move.get("type"), str):
        kind = move.get("type")
        return 0.05 * (len(DRAFT_ORDER) - DRAFT_ORDER.index(kind)) if kind in DRAFT_ORDER else 0.0
    if action == "place" and isinstance(move.get("type"), str):
        kind = move.get("type")
        bonus = 0.001 * PLACE_ORDER.index(kind) if kind in PLACE_ORDER else 0.0
        return -bonus
    if action == "mark":
        index = move.get("voter")
        if isinstance(index, int) and 0 <= index < reads.voter_count(state):
            return 0.0 if reads.voter_known_to(state, index, seat) else 0.06
    return 0.0


def _round_end_bias(state: State, after: State, seat: Seat, style: Style = BASIC) -> float:
    """Return the worth of ending the round now: the rivals' unplaced mages lost less one's own."""
    if reads.phase(state) != "errands" or reads.phase(after) == "errands":
        return 0.0
    seats = [s for s in range(reads.players(state)) if s != seat and not reads.left(state, s)]
    theirs = max((reads.unplaced(state, s) for s in seats), default=0)
    return style.unplaced * (theirs - reads.unplaced(state, seat))


@dataclass
class _Allowance:
    """What one root move's look-ahead may still spend: states to judge, and the clock."""

    nodes: int
    deadline: float | None = None

    def spend(self) -> bool:
        """Count one state judged; return whether a deeper look is still allowed."""
        self.nodes -= 1
        if self.deadline is not None and time.perf_counter() > self.deadline:
            self.nodes = 0
        return self.nodes > 0


def _follow(rules: Rules, state: State, seat: Seat, depth: int, allowance: _Allowance, style: Style) -> float:
    """Return the margin of a state, looking through the seat's own follow-up decisions.

    Once the ``allowance`` is spent (its states or its time), states are judged as they stand.
    """
    allowed = allowance.spend()  # every state judged counts, a leaf too
    follows = depth > 0 and allowed and not reads.over(state) and rules.waiting_on(state) == [seat]
    if follows and reads.follow_up_due(state):
        legal = rules.legal_moves(state, seat)
        if len(legal) > 0:
            best = -math.inf
            seen: set[Any] = set()
            for move in legal:
                key = move.get("slot") if move.action == "place" else move
                if key in seen:
                    continue
                seen.add(key)
                if len(seen) > style.follow_cap:
                    break
                after = rules.copy_state(state)
                rules.resolve(after, seat, move)
                value = _follow(rules, after, seat, depth - 1, allowance, style)
                best = max(best, value + _bias(state, seat, move, style))
            return best
    return margin(state, seat, style.ties)


def score_moves(
    rules: Rules,
    state: State,
    seat: Seat,
    moves: list[Move],
    style: Style = BASIC,
    deadline: float | None = None,
) -> list[tuple[float, Move]]:
    """Return each move with the margin it leads to (following the seat's own next decisions).

    Past the ``deadline`` (``time.perf_counter``) every move left is judged as it stands after it.
    """
    out = []
    for move in moves:
        # Every root move is judged; its follow-ups get an equal share of the budget.
        allowance = _Allowance(max(3, style.nodes // len(moves)), deadline)
        after = rules.copy_state(state)
        rules.resolve(after, seat, move)
        value = _follow(rules, after, seat, style.depth, allowance, style) + _bias(state, seat, move, style)
        if move.action == "bell":
            value += _round_end_bias(state, after, seat, style)
        out.append((value, move))
    return out


def ranked(seating: Seating, rand: random.Random) -> list[Move]:
    """Return the weighed moves, best look-ahead margin first, on a state consistent with the view."""
    rules, seat = seating.rules, seating.seat
    state = seating.sample(rand)
    order = list(seating.legal)
    rand.shuffle(order)
    scored = score_moves(rules, state, seat, order[:MOVE_CAP])
    # A stable sort on the value alone: among equals the shuffled order decides.
    scored.sort(key=lambda vm: -vm[0])
    return [m for _, m in scored]


def heuristic(seating: Seating, rand: random.Random) -> Move:
    """Return the move with the best look-ahead margin (``basic``)."""
    return ranked(seating, rand)[0]


# --------------------------------------------------------------------------- the search's parts

SEARCHED = frozenset({"turn", "turn_place"})
"""Decisions the search reads on many sampled states: the turn's action and where a mage goes.
Rewards, marks and the other follow-ups are bookkeeping once those are settled: one reading does."""


def worth_searching(seating: Seating) -> bool:
    """Whether the search should read this decision on many samples (else on one)."""
    return any(p.seat == seating.seat and p.decision in SEARCHED for p in seating.prompts)
