"""The rules contract every game implements.

A game is a pure, synchronous engine. Its state is plain JSON data (dicts, lists, str, int,
bool, None); all randomness comes from the generator whose position lives in that state
(see ``rules.rng``). Nothing here touches Discord, the database, Pillow or asyncio.

The shape follows DESIGN.md: ``setup``, ``pending``, ``legal_moves``, ``apply`` (returning
events), ``view``, ``is_over`` and ``result``; plus ``label`` (a readable sentence for a move,
used by autocomplete and the log) and ``scramble`` (used by the conformance suite to prove that a
seat's view carries none of the secrets it must not know).

A player leaving mid-game is the move ``Move.of("resign")`` (``RESIGN``): ``Rules.apply`` takes it
from any seat at any time, bypassing ``pending`` and ``legal_moves``, and hands it to the game's
``resign``, so it lands in the move log like any other move and a replay repeats it. A game that
cannot go on without a player keeps the default ``resign``, which refuses with ``IllegalMove``; a
game that can checks that the seat is seated and has not resigned already.
"""

from __future__ import annotations

import copy
import json
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rules.rng import KEY as RNG_KEY

JSON = Any
State = dict[str, Any]
View = dict[str, Any]
Seat = int

RESIGN = "resign"
"""The action of the move by which a player leaves a game in progress (see ``Rules.resign``)."""


# --------------------------------------------------------------------------- errors


@dataclass(frozen=True, slots=True)
class RuleRef:
    """Where the rule behind a refusal stands: a section of the game's rulebook, or a house ruling.

    ``section`` is a heading of the game's rulebook (``Rules.rulebook``), as printed but without its
    numbering ("Place a Mage" for "1. Place a Mage"); in a text without headings, the opening words
    of the paragraph that states the rule. For a ruling it is the ruling's bold title in
    ``docs/rulings.md``. ``tests/test_refusals.py`` checks that every reference is found there.
    """

    section: str
    ruling: bool = False


class RulesError(ValueError):
    """Base of every error a move can raise; ``sentence`` is what the player reads.

    ``rule`` names the rule a refusal applies (``IllegalMove``); the service cites it in the reply.
    """

    def __init__(self, sentence: str, rule: RuleRef | None = None) -> None:
        super().__init__(sentence)
        self.sentence = sentence
        self.rule = rule


class IllegalMove(RulesError):
    """The move is well formed but the rules do not allow it now; ``rule`` says which rule."""


class UnknownMove(RulesError):
    """The move names an action this game does not have."""


class MalformedMove(RulesError):
    """The move text could not be read (missing or mistyped arguments)."""


class NotYourDecision(IllegalMove):
    """The seat tried to act while the game waits on someone else."""


# --------------------------------------------------------------------------- moves


def _canon(value: JSON) -> JSON:
    """Turn lists into tuples so a Move stays hashable and comparable."""
    if isinstance(value, list | tuple):
        return tuple(_canon(v) for v in value)
    if isinstance(value, dict):
        raise MalformedMove("A move argument cannot be a mapping.")
    return value


def _plain(value: JSON) -> JSON:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Move:
    """One decision: an action name and its arguments (scalars or flat lists)."""

    action: str
    args: tuple[tuple[str, JSON], ...] = ()

    @classmethod
    def of(cls, action: str, **args: JSON) -> Move:
        """Build a move with its arguments in canonical order."""
        return cls(action, tuple(sorted((k, _canon(v)) for k, v in args.items())))

    def get(self, key: str, default: JSON = None) -> JSON:
        """Return one argument, or ``default`` when the move does not carry it."""
        for k, v in self.args:
            if k == key:
                return v
        return default

    @property
    def params(self) -> dict[str, JSON]:
        """Return the arguments as a plain dict (lists, not tuples)."""
        return {k: _plain(v) for k, v in self.args}

    def to_json(self) -> dict[str, JSON]:
        """Serialise to a JSON object."""
        return {"action": self.action, "args": self.params}

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> Move:
        """Read a move written by ``to_json``."""
        if not isinstance(data, dict) or not isinstance(data.get("action"), str):
            raise MalformedMove("That move could not be read.")
        args = data.get("args") or {}
        if not isinstance(args, dict):
            raise MalformedMove("That move could not be read.")
        return cls.of(data["action"], **args)

    def code(self) -> str:
        """Return the compact text form, e.g. ``cast die=2 targets=[1,3]``."""
        parts = [self.action]
        for k, v in self.args:
            parts.append(f"{k}={json.dumps(_plain(v), separators=(',', ':'))}")
        return " ".join(parts)

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read the text form written by ``code`` (bare words are taken as strings).

        Typed text is bounded before it is read: at most ``MOVE_TEXT_LIMIT`` characters, numbers
        of at most ``NUMBER_DIGITS`` digits and ``NESTING_LIMIT`` levels of brackets, so no input
        can make the reader fail with anything but a sentence.
        """
        if len(text) > MOVE_TEXT_LIMIT:
            raise MalformedMove(
                f"That move is too long ({len(text)} characters): pick one from the list."
            )
        words = _words(text)
        if not words:
            raise MalformedMove("Type a move, or pick one from the list.")
        action, args = words[0], {}
        for word in words[1:]:
            key, sep, raw = word.partition("=")
            if not sep or not key:
                raise MalformedMove(f"I could not read `{excerpt(word)}`: write arguments as name=value.")
            args[key] = _argument(key, raw)
        return cls.of(action, **args)

    def __str__(self) -> str:
        return self.code()


MOVE_TEXT_LIMIT = 400
"""The longest move text read; every legal move's code is far shorter."""
NUMBER_DIGITS = 18
"""The most digits of a number in a move (no count in any game comes near)."""
NESTING_LIMIT = 8
"""The deepest nesting of lists and objects in a move's argument."""
EXCERPT_LIMIT = 40
_LONG_NUMBER = re.compile(rf"\d{{{NUMBER_DIGITS + 1},}}")


def excerpt(text: str, limit: int = EXCERPT_LIMIT) -> str:
    """Return at most ``limit`` characters of what a user typed, for quoting it back."""
    text = text.replace("`", "'")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _words(text: str) -> list[str]:
    """Split a move's text on spaces outside quoted strings and brackets (``name="Ashwood Hollow"``)."""
    words, word, quoted, escaped, depth = [], "", False, False, 0
    for char in text.strip():
        if quoted:
            quoted = escaped or char != '"'
            escaped = not escaped and char == "\\"
        elif char == '"':
            quoted = True
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char.isspace() and depth <= 0:
            if word:
                words.append(word)
            word = ""
            continue
        word += char
    return [*words, word] if word else words


def _argument(key: str, raw: str) -> JSON:
    """Read one argument's value as JSON (else as a bare word), refusing huge or deep values."""
    if _LONG_NUMBER.search(raw):
        raise MalformedMove(f"The number in `{excerpt(key)}` is too long.")
    if _depth(raw) > NESTING_LIMIT:
        raise MalformedMove(f"The value of `{excerpt(key)}` is nested too deeply.")
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw
    except (ValueError, RecursionError):
        # Belt and braces: the bounds above keep json from failing any other way.
        raise MalformedMove(f"I could not read the value of `{excerpt(key)}`.") from None


def _depth(raw: str) -> int:
    """Return the deepest bracket nesting in a value (brackets inside strings count too: harmless)."""
    depth = deepest = 0
    for char in raw:
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


# --------------------------------------------------------------------------- events, prompts


class EventKind(StrEnum):
    """Base of a game's closed set of event kinds; each game declares its own (``Rules.event_kinds``).

    A member is a ``str``, so an event stores and compares as its plain name (``"round"``), and a
    presenter asks ``event.kind == ArgentEvent.ROUND`` instead of reading words out of ``data``.
    """


LEGACY_KINDS: dict[str, tuple[str, str]] = {"argent": ("what", "note")}
"""Events stored before a game's kinds were typed: the stored kind named the game, and the real kind
sat in a data key (else it was a plain line). ``Event.from_json`` reads them under the real kind, so
old move logs, replays and histories read like new ones. Maps the old kind to (data key, default)."""


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened; ``seats`` None means everyone may read it.

    ``kind`` is one of the game's ``event_kinds`` (an ``EventKind``; the service's own events, such
    as ``"undo"``, are plain names); ``data`` holds the facts a presenter reads, never a sentence.
    """

    kind: str
    text: str
    seats: tuple[Seat, ...] | None = None
    data: dict[str, JSON] = field(default_factory=dict)

    @property
    def public(self) -> bool:
        """Whether every player and spectator may read this event."""
        return self.seats is None

    def visible_to(self, seat: Seat | None) -> bool:
        """Whether the given seat (None: spectator) may read this event."""
        return self.seats is None or (seat is not None and seat in self.seats)

    def to_json(self) -> dict[str, JSON]:
        """Serialise to a JSON object (a kind as its plain name: state and store hold plain data)."""
        return {
            "kind": str(self.kind),
            "text": self.text,
            "seats": None if self.seats is None else list(self.seats),
            "data": self.data,
        }

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> Event:
        """Read an event written by ``to_json`` (an event stored under a legacy kind gets its real one)."""
        seats = data.get("seats")
        audience = None if seats is None else tuple(seats)
        kind, facts = data["kind"], data.get("data") or {}
        if kind in LEGACY_KINDS:
            key, plain = LEGACY_KINDS[kind]
            facts = dict(facts)
            kind = facts.pop(key, None) or plain
        return cls(kind, data["text"], audience, facts)


class PromptKind(StrEnum):
    """What sort of decision a prompt asks for; it decides how the table pings and waits."""

    TURN = "turn"
    """An ordinary decision: the game waits on this one seat."""
    SECRET = "secret"
    """A simultaneous secret choice: several seats decide, nobody sees the others' answers."""
    REACTION = "reaction"
    """An optional answer to someone else's action: react or pass."""
    DECISION = "decision"
    """A choice inside a multi-step effect (a target, a reward, a voter to mark)."""


@dataclass(frozen=True, slots=True)
class Prompt:
    """Who must decide what, right now. ``text`` is public: it never names a secret."""

    seat: Seat
    kind: PromptKind
    decision: str
    text: str

    def to_json(self) -> dict[str, JSON]:
        """Serialise to a JSON object."""
        return {"seat": self.seat, "kind": self.kind.value, "decision": self.decision, "text": self.text}

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> Prompt:
        """Read a prompt written by ``to_json``."""
        return cls(data["seat"], PromptKind(data["kind"]), data["decision"], data["text"])


# --------------------------------------------------------------------------- results, options


@dataclass(frozen=True, slots=True)
class Result:
    """How a finished game ended: winners (empty for a draw or a cooperative loss), scores, why."""

    winners: tuple[Seat, ...]
    scores: dict[Seat, float]
    reason: str
    ranking: tuple[Seat, ...] = ()

    @property
    def draw(self) -> bool:
        """Whether nobody won outright while several shared the top (a competitive tie)."""
        return len(self.winners) != 1

    def to_json(self) -> dict[str, JSON]:
        """Serialise to a JSON object (seat keys become strings, as JSON requires)."""
        return {
            "winners": list(self.winners),
            "scores": {str(k): v for k, v in self.scores.items()},
            "reason": self.reason,
            "ranking": list(self.ranking),
        }

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> Result:
        """Read a result written by ``to_json``."""
        return cls(
            tuple(data["winners"]),
            {int(k): v for k, v in data["scores"].items()},
            data["reason"],
            tuple(data.get("ranking") or ()),
        )


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One table option a host may set at ``/game new`` (a variant, a room side...)."""

    name: str
    description: str
    choices: tuple[str, ...]
    default: str

    def check(self, value: str) -> str:
        """Return the value if allowed, else raise MalformedMove with the allowed choices."""
        if value not in self.choices:
            allowed = ", ".join(self.choices)
            raise MalformedMove(f"Option {self.name} must be one of: {allowed}.")
        return value


# --------------------------------------------------------------------------- the game


class Rules(ABC):
    """Base class of a game engine. Subclasses implement the abstract methods below.

    The base ``apply`` copies the state, checks the move against ``legal_moves`` and the
    pending prompts, then calls ``resolve`` on the copy: a game's own code never has to
    worry about mutating its input or accepting a move outside ``legal_moves``.
    """

    kind: str = ""
    title: str = ""
    min_players: int = 1
    max_players: int = 1
    options: tuple[OptionSpec, ...] = ()
    cooperative: bool = False
    has_secrets: bool = False
    """Whether some seat may not see everything; the suite then demands a scramble that bites."""
    event_kinds: type[EventKind] | None = None
    """The closed set of kinds this game's events carry (the conformance suite checks every event)."""
    actions: frozenset[str] = frozenset()
    """Every action name the game knows; a move naming another raises UnknownMove."""
    seat_names: tuple[str, ...] = ()
    """Names of the seats in the game's own terms (colours), shown beside each player; empty: numbers."""
    rulebook: str = ""
    """File name in shared/rules (and docs/) that the /game rules command points at."""
    book: str = ""
    """How a refusal names the rulebook ("Argent rulebook"); empty: the title and "rulebook"."""
    turn_rule: RuleRef | None = None
    """The rule saying who decides when (``turn_rule_at`` may name the part of the game in play)."""
    end_rule: RuleRef | None = None
    """The rule saying when the game ends: cited for a move made after it has."""
    leave_rule: RuleRef | None = None
    """The rule cited when the default ``resign`` refuses a player who wants to leave."""

    # ---- the game must provide these

    @abstractmethod
    def setup(self, players: int, options: dict[str, str], seed: int) -> State:
        """Return the opening state for ``players`` seats."""

    @abstractmethod
    def pending(self, state: State) -> list[Prompt]:
        """Return who must decide what now; empty once the game is over."""

    @abstractmethod
    def legal_moves(self, state: State, seat: Seat) -> list[Move]:
        """Return every legal move for that seat now."""

    @abstractmethod
    def resolve(self, state: State, seat: Seat, move: Move) -> list[Event]:
        """Carry out a move already known to be legal, mutating ``state``."""

    @abstractmethod
    def view(self, state: State, seat: Seat | None) -> View:
        """Return what that seat (None: a spectator) may know, as JSON."""

    @abstractmethod
    def is_over(self, state: State) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def result(self, state: State) -> Result | None:
        """Return the outcome once the game is over, else None."""

    def label(self, state: State, seat: Seat, move: Move) -> str:
        """Return a short sentence naming the move for that seat (override for games)."""
        return move.code()

    def labelled_moves(self, state: State, seat: Seat) -> list[tuple[Move, str]]:
        """Return every legal move with its label, in ``legal_moves`` order (override to build once)."""
        return [(move, self.label(state, seat, move)) for move in self.legal_moves(state, seat)]

    def public_label(self, state: State, seat: Seat, move: Move) -> str:
        """Return how everyone may name the move (the public history, automatic lines, undo).

        ``label`` names the move for its mover and may name what only the mover knows (a card
        put face down, an Action Card under a die). The public reads the move's public events
        beside this name. Safe default: the action's name ("Assign", "Leave room"); a game
        overrides it only with words built from what every seat may know.
        """
        return move.action.replace("_", " ").capitalize()

    def scramble(self, state: State, seat: Seat | None, rng: Any) -> State:
        """Return a copy with everything ``seat`` must not know re-drawn at random.

        The conformance suite checks ``view(scramble(s, seat), seat) == view(s, seat)``: a
        view that changes when hidden things change is leaking them. ``rng`` is a
        ``random.Random`` owned by the test. Games without secrets keep this default.

        Draw from a canonical order (sort a pool before shuffling it) so that the result depends
        only on what ``seat`` knows and on ``rng``: bots sample the states they search this way,
        and their choices must not change when the hidden things do (``tests/test_bots.py``).
        """
        return copy.deepcopy(state)

    def resign(self, state: State, seat: Seat) -> tuple[State, list[Event]]:
        """Take a leaving player out of the game on a copy; games that allow it override this.

        Called by ``apply`` for ``Move.of("resign")`` from any seat, whether or not the game waits
        on it. An override must refuse (``IllegalMove``) a seat that is not seated or has already
        resigned, never change its input, and leave a state the game can play on from.
        """
        raise IllegalMove("This game cannot go on without a player.", self.leave_rule)

    def copy_state(self, state: State) -> State:
        """Return an independent copy of a state for ``apply`` to resolve on (override for speed)."""
        return copy.deepcopy(state)

    def max_moves(self, players: int, options: dict[str, str]) -> int:
        """Return a bound on the number of moves any game can take (for the test suite)."""
        return 10_000

    def card_index(self) -> dict[str, str]:
        """Return card name -> lookup text (public facts and its source) for ``/game card``."""
        return {}

    def seat_tag(self, seat: Seat) -> str:
        """Return how the game's own texts name a seat: its name in ``seat_names``, else P1, P2...

        The service puts each player's name beside this tag in public texts ("alice (Red)"), so a
        game's events must name seats by exactly this tag.
        """
        return self.seat_names[seat] if seat < len(self.seat_names) else f"P{seat + 1}"

    def default_move(self, state: State, seat: Seat) -> Move | None:
        """Return the move to play for an absent seat the game waits on (None: it cannot be skipped).

        The service plays it when the other players vote to skip a player who ran out of time.
        The default is the seat's first legal move; a game overrides it where a better stand-in
        exists (a pass, a harmless secret choice).
        """
        legal = self.legal_moves(state, seat)
        return legal[0] if legal else None

    def reveals(self, before: State, seat: Seat, move: Move, after: State, events: list[Event]) -> bool:
        """Whether a move showed something hidden (a card drawn, a secret revealed, a die rolled).

        A move that reveals cannot be taken back alone (undo then needs the others' vote). The
        safe default: any event that not everyone may read, or any use of the random generator.
        """
        if any(not event.public for event in events):
            return True
        return before.get(RNG_KEY) != after.get(RNG_KEY)

    def typed_view(self, view: View) -> Any:
        """Return the typed record of a view (``view``'s JSON) that presenters read, or None.

        A game with typed views returns frozen dataclasses with the facts a presenter needs worked
        out once in the rules (standings, which moves are fast, the decision in words). The record
        is built from the view alone, so it carries nothing that view's seat may not see; the JSON
        stays the stored and compared form. Default: None (the game has no typed view yet).
        """
        return None

    def view_beside(self, state: State, seat: Seat, public: View) -> View:
        """Return ``view(state, seat)`` given ``public``, the spectator's ``view(state, None)`` of this state.

        The service works out a version's public view first, then each seat's beside it: a game
        whose seats' views repeat the public parts overrides this to put the public view's own
        objects there (views are only read, never written, by what takes them), building only
        what the seat alone may see. The result must equal ``view(state, seat)``, and no part of
        the seat's own may go into ``public``. Default: ``view(state, seat)``.
        """
        return self.view(state, seat)

    def typed_seat_view(self, view: View, public: View, public_typed: Any) -> Any:
        """Return ``typed_view(view)`` for a seat's view, given a public view and its typed record.

        The service reads every seat's record of a version beside that version's public one: a
        game whose seats' views repeat the public parts overrides this to take the public record's
        pieces where the two views hold equal data, so the shared parts are read once a version.
        The result must equal ``typed_view(view)`` (the pieces are frozen and compared on their
        data, never on the version). Default: ``typed_view(view)``.
        """
        return self.typed_view(view)

    def view_text(self, view: View) -> str:
        """Return the view as plain text, for games without a board image yet."""
        return json.dumps(view, indent=1)

    def view_lines(self, view: View) -> Iterable[str]:
        """Return ``view_text(view)`` line by line (joined by newlines, the same text).

        A picture's alt text reads only the text's first thousand characters: a game whose text is
        long overrides this with a generator, so the rest is never written. Default: the lines of
        ``view_text``.
        """
        return self.view_text(view).splitlines()

    def round_of(self, view: View) -> int | None:
        """Return the round a public view shows (a spectator's digest comes once a round).

        Default: the view's ``round``; None for a game that counts no rounds (each turn is one).
        """
        number = view.get("round")
        return number if isinstance(number, int) and not isinstance(number, bool) else None

    def public_scores(self, view: View) -> dict[Seat, str]:
        """Return each seat's score so far as a public view shows it, in the game's words ("3 VP").

        The web page's seats list shows it. Default: none, for a game whose score stays hidden
        until the end or that scores nobody apart (a cooperative game).
        """
        return {}

    # ---- provided for every game

    def default_options(self) -> dict[str, str]:
        """Return every option at its default."""
        return {o.name: o.default for o in self.options}

    def check_options(self, options: dict[str, str]) -> dict[str, str]:
        """Return the full option set, raising MalformedMove for an unknown name or value."""
        known = {o.name: o for o in self.options}
        full = self.default_options()
        for name, value in options.items():
            if name not in known:
                raise MalformedMove(f"{self.title} has no option called {excerpt(name)}.")
            full[name] = known[name].check(value)
        return full

    def check_players(self, players: int) -> None:
        """Raise IllegalMove when the number of seats does not suit the game."""
        if not self.min_players <= players <= self.max_players:
            if self.min_players == self.max_players:
                need = f"exactly {self.min_players}"
            else:
                need = f"{self.min_players} to {self.max_players}"
            raise IllegalMove(f"{self.title} needs {need} players.")

    def waiting_on(self, state: State) -> list[Seat]:
        """Return the seats the game waits for, without repeats, in seat order."""
        return sorted({p.seat for p in self.pending(state)})

    def apply(self, state: State, seat: Seat, move: Move) -> tuple[State, list[Event]]:
        """Validate and resolve one move on a copy; the input state is never changed.

        ``Move.of("resign")`` is the one move taken outside ``pending``: it goes to ``resign``.
        """
        if self.is_over(state):
            raise IllegalMove("This game is already over.", self.end_rule)
        if move.action == RESIGN and not move.args:
            return self.resign(state, seat)
        if seat not in self.waiting_on(state):
            raise NotYourDecision("The game is not waiting on you right now.", self.turn_rule_at(state))
        if self.actions and move.action not in self.actions:
            raise UnknownMove(f"{self.title} has no move called `{excerpt(move.action)}`.")
        return self.apply_listed(state, seat, move)

    def apply_listed(self, state: State, seat: Seat, move: Move) -> tuple[State, list[Event]]:
        """Check the move against ``legal_moves`` and resolve it on a copy (the seat is awaited).

        A game overrides this to build the seat's options once for both the check and the
        resolution; it must refuse exactly what ``legal_moves`` leaves out.
        """
        if move not in self.legal_moves(state, seat):
            raise self.why_not(state, seat, move)
        new = self.copy_state(state)
        events = self.resolve(new, seat, move)
        return new, events

    def auto_resolvable(self, state: State, prompt: Prompt, move: Move) -> bool:
        """Whether the service may play ``move``, the seat's only legal move, for this prompt.

        Say True only where no player could want anything else AND whether the seat has a
        choice does not depend on anything hidden (a card in hand, a face-down card): the others
        would learn it from the automatic move. Safe default: every prompt is asked.
        """
        return False

    def writes(self, move: Move) -> bool:
        """Whether the move carries words the player writes: a lone such move is still a choice
        (what to say), never forced. Safe default: no move carries free text."""
        return False

    def decline(self, state: State, seat: Seat, prompt: Prompt) -> Move | None:
        """Return the move that declines an optional reaction prompt (played for a seat that
        asked to pass every reaction), or None when the prompt cannot be declined."""
        return None

    def presumed(self, state: State, seat: Seat, prompt: Prompt) -> Move | None:
        """Return the answer a seat is presumed to give to an optional question that most players
        never want asked, or None to ask it. The service plays it for a seat (never a bot's) unless
        that seat asked to be asked (seat setting ``ask``) or turned automatic play off.

        Say a move only where the question and the answer depend on nothing hidden: the others
        see it played. Safe default: every prompt is asked.
        """
        return None

    def why_not(self, state: State, seat: Seat, move: Move) -> IllegalMove:
        """Return the refusal of a move that is not legal now: its sentence and the rule it applies.

        ``apply`` raises it. A game overrides this to name the rule (``RuleRef``); the sentence
        must depend only on what the seat may know, since ``/game why`` shows it on request.
        """
        return IllegalMove("That move is not allowed right now.")

    def turn_rule_at(self, state: State) -> RuleRef | None:
        """Return the rule that says whose decision it is now: cited when another seat acts."""
        return self.turn_rule

    def cite(self, rule: RuleRef) -> str:
        """Return where a rule stands, as a refusal names it ("Argent rulebook, Room Clarifications")."""
        if rule.ruling:
            return f"Conclave house ruling “{rule.section}”, docs/rulings.md"
        return f"{self.book or self.title + ' rulebook'}, {rule.section}"

    def find(self, state: State, seat: Seat, text: str) -> Move:
        """Read a move typed by a player: its code, or the exact label of a legal move.

        Typed text never resigns: leaving a game is a deliberate command, not a typo away.
        """
        wanted = text.strip()
        for move, label in self.labelled_moves(state, seat):
            if wanted in (move.code(), label):
                return move
        move = Move.parse(wanted)
        if move.action == RESIGN:
            raise IllegalMove("To leave the game, use the leave command.")
        return move
