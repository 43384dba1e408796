"""The one bot interface: what a seat may know (``Seating``), a bot, and the per-game playbooks.

A bot decides for one seat from that seat's information set only: its view (read as the game's
typed record, ``Seating.typed``), its legal moves, and states sampled consistently with the view.
``Seating`` keeps the real state out of reach: the only way to a full state is
``Seating.sample(rng)``, which re-draws every hidden thing with the bot's own generator (the game's
``scramble``) and re-seeds the game's generator (``rules.rng.KEY``), so a bot can neither read a
secret nor foresee a die.

The sample depends on the information set alone as long as the game's ``scramble`` does (it draws
from a canonical order: a pool is sorted before it is shuffled). Then two states that look the same
to the seat give the same samples for the same generator, and a bot's choice is a function of what
its seat knows and its generator: ``tests/test_bots.py`` proves it for every game and level.

A bot seat may also keep a private **memory** between its moves (a game whose playbook has
``remember``): after every applied move each bot seat sees its view (``remember``), and a game keeps
in a small JSON dict what it wants to carry (Wizard's Academy: the spells a cast revealed). The
memory is the seat's own, never shown anywhere; ``observe`` hands the bot a copy (``Seating.memory``),
and a game's ``recall`` makes every sample agree with it. One function, ``remember``, serves the
service (which stores the memory with each move, ``service.bots``) and the arena alike.

Pure: no Discord, no store, no asyncio, no global ``random`` (each bot gets a ``random.Random``).
"""

from __future__ import annotations

import copy
import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from rules import rng as game_rng
from rules.contract import Move, Prompt, Rules, Seat, State, View

LEVELS = ("random", "basic", "strong")
"""Every bot level, weakest first."""
Memory = dict[str, Any]
"""A bot seat's private memory: plain JSON, kept by whoever runs the bot (the service, the arena)."""


@dataclass(frozen=True)
class Seating:
    """What one seat may know when the game waits on it: view, legal moves, prompts, and a sampler."""

    rules: Rules
    seat: Seat
    view: View
    legal: tuple[Move, ...]
    prompts: tuple[Prompt, ...]
    """The pending prompts (public: they never name a secret)."""
    _sampler: Callable[[random.Random], State] = field(repr=False, compare=False)
    memory: Memory = field(default_factory=dict)
    """What this seat remembers from the views it saw before (a private copy: changing it changes
    nothing kept)."""

    @property
    def kind(self) -> str:
        """Return the game's kind."""
        return self.rules.kind

    @cached_property
    def typed(self) -> Any:
        """Return the seat's typed view (the game's record of ``view``; None for a game without one).

        Worked out on first use and kept: a bot that reads only the legal moves pays nothing.
        """
        return self.rules.typed_view(self.view)

    def sample(self, rand: random.Random) -> State:
        """Return a full state consistent with this seat's view, its secrets re-drawn by ``rand``."""
        return self._sampler(rand)


def observe(rules: Rules, state: State, seat: Seat, memory: Memory | None = None) -> Seating:
    """Return what a seat may know of a state (and its ``memory``); the state stays behind the sampler."""
    # A private copy: the caller's state may change later, the bot's information must not.
    frozen = rules.copy_state(state)
    mind = copy.deepcopy(memory) if memory else {}
    recall = playbook(rules.kind).recall if mind else None

    def sampler(rand: random.Random) -> State:
        sampled = rules.scramble(frozen, seat, rand)
        if recall is not None:
            # The seat remembers some hidden things it saw: the sample keeps them as they were seen.
            sampled = recall(rules, sampled, seat, mind)
        if game_rng.KEY in sampled:
            # The generator's position is the future (dice, shuffles): a bot imagines its own.
            sampled[game_rng.KEY] = rand.getrandbits(64)
        return sampled

    legal = tuple(rules.legal_moves(frozen, seat))
    prompts = tuple(rules.pending(frozen))
    return Seating(rules, seat, rules.view(frozen, seat), legal, prompts, sampler, copy.deepcopy(mind))


def keeps_memory(kind: str) -> bool:
    """Whether the game's bots remember anything between moves (its playbook has ``remember``)."""
    return playbook(kind).remember is not None


def remember(rules: Rules, state: State, seat: Seat, memory: Memory | None) -> Memory:
    """Return a seat's memory after it has seen its view of ``state`` (a new dict; ``{}`` for a game
    whose bots keep nothing). Seeing the same view twice changes nothing, so a replayed or doubled
    observation is harmless."""
    mind = copy.deepcopy(memory) if memory else {}
    learn = playbook(rules.kind).remember
    if learn is not None:
        learn(rules, rules.view(state, seat), seat, mind)
    return mind


class Bot(ABC):
    """A player that chooses one legal move for a seat from what that seat may know."""

    level: str = ""

    @abstractmethod
    def choose(self, seating: Seating, rand: random.Random) -> Move:
        """Return one of ``seating.legal``; ``rand`` is the bot's own seeded generator."""


# --------------------------------------------------------------------------- playbooks


Heuristic = Callable[[Seating, random.Random], Move]
"""A game's fast move choice from the view and the legal moves (the ``basic`` level)."""
Evaluator = Callable[[Rules, State, Seat], float]
"""A game's estimate, in [0, 1], of how well a seat stands in a (sampled) state."""
Policy = Callable[[Rules, State, Seat, list[Move], random.Random], Move]
"""A fast move choice inside a search's imagined playout (it may read the sampled state)."""
Remember = Callable[[Rules, View, Seat, Memory], None]
"""Updates a seat's memory in place from a view it was shown (idempotent: the same view twice is once)."""
Recall = Callable[[Rules, State, Seat, Memory], State]
"""Makes a sampled state agree with the seat's memory (re-draws only among the hidden things)."""
Belief = Callable[[Rules, State, Seat, random.Random], State]
"""Re-draws a sampled state's hidden things as sensible rivals would have chosen them.

It may read only what the seat knows (the sample's secrets are already the bot's own draws), so a
search's samples still depend on the seat's information set and its generator alone.
"""
Ranking = Callable[[Seating, random.Random], list[Move]]
"""A game's legal moves best first; its head must be the move ``strong`` plays without a search (the
``sharp`` policy's, else the heuristic's) for the same generator."""
Search = Callable[[Seating, random.Random, float, int | None], Move]
"""A game's own ``strong`` choice: seating, generator, budget (seconds), samples (None: the clock)."""


@dataclass
class Playbook:
    """What a game teaches its bots; every field is optional, the generic bots fill the gaps."""

    heuristic: Heuristic | None = None
    sharp: Heuristic | None = None
    """The ``strong`` level's own policy, where a game has a sharper one than ``basic``'s (None: the
    heuristic): ``strong`` plays it where it does not search, and the game's ``rank`` puts its move
    first."""
    evaluate: Evaluator | None = None
    rollout: Policy | None = None
    horizon: int | None = None
    """Plies a search plays out before it evaluates (None: to the end of the game)."""
    believe: Belief | None = None
    """Reshapes a search's sampled state toward what the rivals likely hid (None: keep the sample)."""
    race: bool = False
    """Whether the search drops candidates that clearly trail the basic move (``bots.levels.race``)."""
    until: Callable[[State], Callable[[State], bool]] | None = None
    """Given a playout's first state, the test of where it may stop and be judged (e.g. once the
    fight it began in is decided, or the turn it began in is over)."""
    margin: float = 0.0
    """How much better (in evaluator units) a searched move must do on average to replace basic's."""
    confidence: float | None = None
    """Standard errors by which it must do so (None: ``bots.levels.CONFIDENCE``); a game whose evaluator
    knows less than its policy asks for more."""
    searches: Callable[[Seating], bool] | None = None
    """Whether a search can tell this decision's moves apart (else ``strong`` plays ``basic``'s move)."""
    rank: Ranking | None = None
    """Orders the legal moves best first, so the search weighs basic's runners-up (None: at random)."""
    candidates: int | None = None
    """How many root moves the search weighs (None: ``bots.levels.STRONG_CANDIDATES``)."""
    search: Search | None = None
    """The game's own search for ``strong`` (None: the generic determinized Monte Carlo search)."""
    remember: Remember | None = None
    """Keeps a seat's private memory between its moves (None: a bot knows only its view)."""
    recall: Recall | None = None
    """Makes a sample agree with the seat's memory (a spell it saw keeps its identity)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Hooks for the bench alone: ``holdings`` (the arena's card balance check), ``feats`` (what the
    arena counts per level)."""


_PLAYBOOKS: dict[str, Playbook] = {}


def register(kind: str, playbook: Playbook) -> Playbook:
    """Teach the bots a game (a module ``bots.games.<kind>`` calls this on import)."""
    _PLAYBOOKS[kind] = playbook
    return playbook


def playbook(kind: str) -> Playbook:
    """Return the game's playbook, importing ``bots.games.<kind>`` once; an empty one if none."""
    if kind not in _PLAYBOOKS:
        try:
            importlib.import_module(f"bots.games.{kind}")
        except ModuleNotFoundError as exc:
            if exc.name != f"bots.games.{kind}":
                raise
        _PLAYBOOKS.setdefault(kind, Playbook())
    return _PLAYBOOKS[kind]


def outcome_share(rules: Rules, state: State, seat: Seat) -> float:
    """Return a finished game's worth to a seat: 1 for a win, 1/k for a win shared by k, else 0.

    In a cooperative game the table wins or loses together: a win is worth 1 to every seat.
    """
    result = rules.result(state)
    if result is None or seat not in result.winners:
        return 0.0
    return 1.0 if rules.cooperative else 1.0 / len(result.winners)


def evaluate(rules: Rules, state: State, seat: Seat) -> float:
    """Return how well a seat stands: the outcome once over, else the game's evaluator (0.5 without).

    A game that ends with no winner at all (a story game) is judged by its evaluator even then.
    """
    judge = playbook(rules.kind).evaluate
    if rules.is_over(state):
        result = rules.result(state)
        if judge is None or rules.cooperative or (result is not None and result.winners):
            return outcome_share(rules, state, seat)
    return judge(rules, state, seat) if judge is not None else 0.5


def bot_rng(*keys: int | str) -> random.Random:
    """Return a generator seeded from the given keys (table, version, seat...), reproducibly."""
    return random.Random("/".join(str(k) for k in keys))
