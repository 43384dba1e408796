"""The conformance suite every registered game must pass.

``check_game`` plays seeded random legal games and, at every step, checks the contract of
DESIGN.md: prompts and legal moves agree, ``apply`` never mutates its input and accepts nothing
outside ``legal_moves``, everything round-trips through JSON, no view changes when the things
its seat may not know are re-drawn (so no view can carry them), the game ends within its
declared bound, and replaying the move log from the seed gives the same state. In some playouts
a random seat resigns (``Move.of("resign")``) at one random step; a game that allows it must
still conform to the end, and a game that does not must refuse it without changing the state.

Each failure raises ``ConformanceError`` naming the kind, seed and step, so a broken game fails
loudly and reproducibly.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Iterator
from dataclasses import dataclass

from rules.contract import Event, Move, Result, Rules, RulesError, State


class ConformanceError(AssertionError):
    """A game broke the rules contract."""


@dataclass(frozen=True)
class Case:
    """One playout configuration: players, options and seed."""

    players: int
    options: tuple[tuple[str, str], ...]
    seed: int

    @property
    def option_dict(self) -> dict[str, str]:
        """Return the options as a dict."""
        return dict(self.options)

    def __str__(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options) or "defaults"
        return f"{self.players}p-{opts}-seed{self.seed}"


def cases(rules: Rules, seeds: int = 2) -> Iterator[Case]:
    """Yield every player count with defaults, then every non-default option value alone."""
    defaults = rules.default_options()
    seed = 0
    for players in range(rules.min_players, rules.max_players + 1):
        for _ in range(seeds):
            seed += 1
            yield Case(players, tuple(sorted(defaults.items())), seed)
    for spec in rules.options:
        for choice in spec.choices:
            if choice == spec.default:
                continue
            opts = dict(defaults, **{spec.name: choice})
            for players in (rules.min_players, rules.max_players):
                seed += 1
                yield Case(players, tuple(sorted(opts.items())), seed)


def _snapshot(value: object) -> object:
    """Return an independent deep copy to compare against later (plain JSON data compares with ==)."""
    return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))


def _fail(rules: Rules, case: Case, step: int, what: str) -> ConformanceError:
    return ConformanceError(f"[{rules.kind} {case} step {step}] {what}")


def _roundtrip(rules: Rules, case: Case, step: int, label: str, value: object) -> None:
    try:
        text = json.dumps(value)
    except (TypeError, ValueError) as exc:
        raise _fail(rules, case, step, f"{label} is not JSON: {exc}") from exc
    if json.loads(text) != value:
        raise _fail(rules, case, step, f"{label} does not survive a JSON round trip")


def _check_prompts(rules: Rules, case: Case, step: int, state: State) -> list[int]:
    prompts = rules.pending(state)
    over = rules.is_over(state)
    if over and prompts:
        raise _fail(rules, case, step, "the game is over but still has pending prompts")
    if not over and not prompts:
        raise _fail(rules, case, step, "the game is not over but nobody has a decision")
    for prompt in prompts:
        if not rules.legal_moves(state, prompt.seat):
            raise _fail(
                rules, case, step, f"seat {prompt.seat} is prompted ({prompt.decision}) but has no move"
            )
        _roundtrip(rules, case, step, "a prompt", prompt.to_json())
    return sorted({p.seat for p in prompts})


def _check_views(rules: Rules, case: Case, step: int, state: State, rand: random.Random) -> bool:
    """Check every seat's view for JSON and leaks; return whether any scramble changed the state."""
    bit = False
    for seat in [None, *range(case.players)]:
        view = rules.view(state, seat)
        _roundtrip(rules, case, step, f"the view of seat {seat}", view)
        scrambled = rules.scramble(state, seat, rand)
        if scrambled != state:
            bit = True
        if rules.view(scrambled, seat) != view:
            raise _fail(
                rules, case, step, f"the view of seat {seat} changes when hidden things change: it leaks them"
            )
    return bit


def _near_misses(
    rules: Rules, state: State, players: int, seat: int, legal: list[Move], rand: random.Random
) -> list[Move]:
    """Moves that look plausible but may not be legal for this seat now."""
    others: list[Move] = []
    for other in range(players):
        if other != seat:
            others += rules.legal_moves(state, other)[:5]
    mutated = []
    for move in legal[:5]:
        for key, value in move.args:
            if isinstance(value, int) and not isinstance(value, bool):
                mutated.append(
                    Move.of(move.action, **dict(move.params, **{key: value + rand.choice([-7, -1, 1, 9])}))
                )
    bogus = [Move.of("no-such-move"), Move.of(legal[0].action, nonsense=1)] if legal else []
    return others + mutated + bogus


def _check_refusals(
    rules: Rules, case: Case, step: int, state: State, waiting: list[int], rand: random.Random
) -> None:
    before = _snapshot(state)
    for seat in range(case.players):
        legal = rules.legal_moves(state, seat) if seat in waiting else []
        for move in _near_misses(rules, state, case.players, seat, legal, rand):
            if move in legal:
                continue
            try:
                rules.apply(state, seat, move)
            except RulesError as exc:
                if not exc.sentence:
                    raise _fail(rules, case, step, f"refusing {move} gave no sentence") from exc
            except Exception as exc:
                raise _fail(
                    rules, case, step, f"{move} crashed with {exc!r} instead of a RulesError"
                ) from exc
            else:
                raise _fail(rules, case, step, f"seat {seat} was allowed {move}, which is not in legal_moves")
    if state != before:
        raise _fail(rules, case, step, "a refused move changed the state")


RESIGN = Move.of("resign")


def _resign_plan(case: Case) -> tuple[int, int] | None:
    """Return (step, seat) of this playout's resignation, or None (half the playouts have one)."""
    # A generator of its own, so the playouts of games that refuse resignations stay as they were.
    plan = random.Random(case.seed * 104_729 + case.players)
    if plan.random() < 0.5:
        return None
    return plan.randrange(1, 120), plan.randrange(case.players)


def _try_resign(
    rules: Rules, case: Case, step: int, state: State, seat: int
) -> tuple[State, list[Event]] | None:
    """Let a seat resign; return the new state and events, or None when the game refuses."""
    before = _snapshot(state)
    try:
        new, events = rules.apply(state, seat, RESIGN)
    except RulesError as exc:
        if not exc.sentence:
            raise _fail(rules, case, step, "refusing a resignation gave no sentence") from exc
        if state != before:
            raise _fail(rules, case, step, "a refused resignation changed the state") from exc
        return None
    if state != before:
        raise _fail(rules, case, step, "resigning mutated the input state")
    _check_events(rules, case, step, events)
    try:
        rules.apply(new, seat, RESIGN)
    except RulesError:
        pass
    else:
        raise _fail(rules, case, step, f"seat {seat} was allowed to resign twice")
    return new, events


def _check_events(rules: Rules, case: Case, step: int, events: list[Event]) -> None:
    """Each event survives a JSON round trip and carries one of the game's declared kinds."""
    for event in events:
        if not isinstance(event, Event) or Event.from_json(json.loads(json.dumps(event.to_json()))) != event:
            raise _fail(rules, case, step, f"event {event!r} does not survive a JSON round trip")
        if rules.event_kinds is not None and event.kind not in set(rules.event_kinds):
            raise _fail(rules, case, step, f"event kind {event.kind!r} is not one of the game's event kinds")


def playout(rules: Rules, case: Case, *, deep_every: int = 1) -> tuple[State, list[tuple[int, Move]]]:
    """Play one random legal game, checking the contract; return the final state and the log."""
    rand = random.Random(case.seed * 7919 + case.players)
    resign_at = _resign_plan(case)
    state = rules.setup(case.players, case.option_dict, case.seed)
    bound = rules.max_moves(case.players, case.option_dict)
    log: list[tuple[int, Move]] = []
    scrambles_bit = False
    step = 0
    while not rules.is_over(state):
        if step >= bound:
            raise _fail(rules, case, step, f"the game did not end within its declared bound of {bound} moves")
        if resign_at is not None and step == resign_at[0]:
            leaver = resign_at[1]
            resign_at = None
            resigned = _try_resign(rules, case, step, state, leaver)
            if resigned is not None:
                log.append((leaver, RESIGN))
                state = resigned[0]
                if rules.is_over(state):
                    break
        waiting = _check_prompts(rules, case, step, state)
        deep = step % deep_every == 0
        if deep:
            _roundtrip(rules, case, step, "the state", state)
            scrambles_bit |= _check_views(rules, case, step, state, rand)
            _check_refusals(rules, case, step, state, waiting, rand)
        seat = rand.choice(waiting)
        move = rand.choice(rules.legal_moves(state, seat))
        if Move.from_json(json.loads(json.dumps(move.to_json()))) != move or Move.parse(move.code()) != move:
            raise _fail(rules, case, step, f"{move} does not survive a round trip through JSON and text")
        before = _snapshot(state)
        try:
            state_after, events = rules.apply(state, seat, move)
        except RulesError as exc:
            raise _fail(rules, case, step, f"legal move {move} by seat {seat} was refused: {exc}") from exc
        if state != before:
            raise _fail(rules, case, step, f"apply({move}) mutated its input state")
        _check_events(rules, case, step, events)
        if not isinstance(rules.label(state, seat, move), str) or not rules.label(state, seat, move):
            raise _fail(rules, case, step, f"{move} has no readable label")
        log.append((seat, move))
        state = state_after
        step += 1
    _check_prompts(rules, case, step, state)
    _check_views(rules, case, step, state, rand)
    _check_end(rules, case, step, state, log)
    if rules.has_secrets and not scrambles_bit:
        raise _fail(rules, case, step, "the game declares secrets but scramble never changed anything")
    return state, log


def _check_end(rules: Rules, case: Case, step: int, state: State, log: list[tuple[int, Move]]) -> None:
    result = rules.result(state)
    if not isinstance(result, Result):
        raise _fail(rules, case, step, "a finished game has no result")
    if Result.from_json(json.loads(json.dumps(result.to_json()))) != result:
        raise _fail(rules, case, step, "the result does not survive a JSON round trip")
    if any(w not in range(case.players) for w in result.winners):
        raise _fail(rules, case, step, f"the result names a winner who is not seated: {result.winners}")
    # The snapshot as the store would keep it: the state through JSON.
    stored = json.loads(json.dumps(state))
    replayed = replay(rules, case.players, case.option_dict, case.seed, log)
    if replayed != stored:
        raise _fail(
            rules, case, step, "replaying the move log from the seed does not give the stored snapshot"
        )


def replay(
    rules: Rules, players: int, options: dict[str, str], seed: int, log: list[tuple[int, Move]]
) -> State:
    """Rebuild a state from its seed and move log."""
    state = rules.setup(players, options, seed)
    for seat, move in log:
        state, _ = rules.apply(state, seat, move)
    return state


def check_game(rules: Rules, seeds: int = 2, deep_every: int = 1) -> int:
    """Run every case of a game; return the number of moves played."""
    moves = 0
    for case in cases(rules, seeds):
        state = rules.setup(case.players, case.option_dict, case.seed)
        if rules.setup(case.players, case.option_dict, case.seed) != state:
            raise _fail(rules, case, 0, "the same seed gave two different opening states")
        if copy.deepcopy(state) != json.loads(json.dumps(state)):
            raise _fail(rules, case, 0, "the opening state is not plain JSON")
        _, log = playout(rules, case, deep_every=deep_every)
        moves += len(log)
    return moves
