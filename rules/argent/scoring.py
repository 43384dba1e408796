"""Game end (rulebook: Game End): every voter's criterion, its tie-breaks, then votes and IP.

A voter goes to the player with the most of what it counts. On a tie the tied player with a Mark
on that voter wins; several marked (or none): most IP; still tied: the disc lowest in the IP stack
(who reached that IP first). Nobody with any of the counted thing: nobody gets that vote. The
"second-most" voters go to the best player other than the winner of the matching "most" voter
(FAQ). The most votes wins; tied votes go to the most IP, then the stack.
"""

from __future__ import annotations

from typing import Any

from rules.argent import content, standings
from rules.argent.agenda import Task, ask, option
from rules.argent.state import DEPARTMENTS, DEPT_NAMES, State, ip_rank_key, order_from

WHITE_ASH = standings.WHITE_ASH


def supporters_of(state: State, seat: int) -> list[str]:
    """Return every supporter a seat controls: in its office and in its discard (secret ones too)."""
    office = state["seats"][seat]
    return list(office["supporters"]) + [c["id"] for c in office["discard"] if c["kind"] == "supporter"]


def vaults_of(state: State, seat: int) -> list[str]:
    """Return every vault card a seat has: in its office and in its discard."""
    office = state["seats"][seat]
    return [v["id"] for v in office["vaults"]] + [c["id"] for c in office["discard"] if c["kind"] == "vault"]


def supporter_department(state: State, seat: int, sid: str) -> str | None:
    """Return the department a supporter counts for (White Ash: the one its owner declared)."""
    return standings.supporter_department(state["seats"][seat], sid)


def department_icons(state: State, seat: int, dept: str) -> int:
    """Count a department's icons: spell levels of that department plus its supporters (not the starter)."""
    return measure(state, seat, f"most:department:{dept}")


def measure(state: State, seat: int, criterion: str) -> int:
    """Return how much of a voter's counted thing a seat has (every card counts, its discard's too)."""
    supporters, vaults = supporters_of(state, seat), vaults_of(state, seat)
    return standings.count(state["seats"][seat], criterion, supporters, vaults, state["voters"], seat)


def best(state: State, seats: list[int], criterion: str, marks: list[int]) -> int | None:
    """Return who wins a voter among these seats (None when nobody has any)."""
    values = {s: measure(state, s, criterion) for s in seats}
    top = max(values.values(), default=0)
    if top <= 0:
        return None
    tied = [s for s in seats if values[s] == top]
    marked = [s for s in tied if s in marks]
    pool = marked or tied
    return min(pool, key=lambda s: ip_rank_key(state, s))


def contest(state: State, index: int, winners: dict[str, int | None]) -> tuple[list[int], str, int | None]:
    """Return the seats a voter weighs, the count it uses, and the seat excluded as first (second-most)."""
    voter = state["voters"][index]
    crit = content.voter(voter["id"])["criterion"]
    seats = [s for s in range(state["players"]) if not state["seats"][s].get("left")]
    if not crit.startswith("second_most:"):
        return seats, crit, None
    matching = "most:" + crit.split(":", 1)[1]
    first = winners.get(matching)
    if first is None:
        first = best(state, seats, matching, [])
    if first is None:
        return [], matching, None
    return [s for s in seats if s != first], matching, first


def voter_winner(state: State, index: int, winners: dict[str, int | None]) -> int | None:
    """Return who wins the voter at that position on the board."""
    seats, crit, _ = contest(state, index, winners)
    return best(state, seats, crit, state["voters"][index]["marks"])


def why(state: State, index: int, winners: dict[str, int | None], winner: int | None) -> dict[str, Any]:
    """Return the counts that decided a voter and the tie-break used ("mark", "ip", "stack" or None)."""
    seats, crit, first = contest(state, index, winners)
    counts = {s: measure(state, s, crit) for s in seats}
    tiebreak = None
    if winner is not None:
        tied = [s for s in seats if counts[s] == counts[winner]]
        marked = [s for s in tied if s in state["voters"][index]["marks"]]
        if len(tied) > 1:
            if len(marked) == 1:
                tiebreak = "mark"
            else:
                pool = marked or tied
                top_ip = max(state["seats"][s]["ip"] for s in pool)
                level = [s for s in pool if state["seats"][s]["ip"] == top_ip]
                tiebreak = "ip" if len(level) == 1 else "stack"
    return {
        "criterion": crit,
        "counts": {str(s): v for s, v in counts.items()},
        "first": first,
        "tiebreak": tiebreak,
    }


def count_votes(state: State) -> dict[str, Any]:
    """Count every voter's vote; return votes per seat, the ranking and readable lines."""
    votes = [0] * state["players"]
    winners: dict[str, int | None] = {}
    lines = []
    order = sorted(
        range(len(state["voters"])),
        key=lambda i: content.voter(state["voters"][i]["id"])["criterion"].startswith("second_most:"),
    )
    awarded: dict[int, int | None] = {}
    reasons: dict[str, dict[str, Any]] = {}
    for i in order:
        winner = voter_winner(state, i, winners)
        reasons[str(i)] = why(state, i, winners, winner)
        crit = content.voter(state["voters"][i]["id"])["criterion"]
        if crit.startswith("most:"):
            winners[crit] = winner
        awarded[i] = winner
    for i, v in enumerate(state["voters"]):
        rec = content.voter(v["id"])
        winner = awarded[i]
        if winner is None:
            lines.append(f"{rec['name']} ({criterion_text(rec['criterion'])}): no vote.")
        else:
            votes[winner] += 1
            lines.append(f"{rec['name']} ({criterion_text(rec['criterion'])}) votes for P{winner + 1}.")
    seats = [s for s in range(state["players"]) if not state["seats"][s].get("left")]
    ranking = sorted(seats, key=lambda s: (-votes[s], *ip_rank_key(state, s)))
    lines.append("Votes: " + ", ".join(f"P{s + 1} {votes[s]}" for s in ranking) + ".")
    return {
        "votes": votes,
        "ranking": ranking,
        "awarded": {str(k): v for k, v in awarded.items()},
        # Per voter position: the count weighed (second-most voters weigh the matching "most" count
        # without its winner, ``first``), each seat's count, and the tie-break that settled it.
        "awarded_why": {str(i): reasons[str(i)] for i in range(len(state["voters"]))},
        "lines": lines,
    }


def criterion_text(criterion: str) -> str:
    """Return a voter's criterion in words."""
    parts = criterion.split(":")
    prefix = "most" if parts[0] == "most" else "second-most"
    rest = parts[1:]
    if rest[0] == "department":
        return f"{prefix} {DEPT_NAMES.get(rest[1], rest[1])}"
    if rest[0] == "vault_type":
        return f"{prefix} {rest[1]} cards"
    names = {"ip": "Influence", "int": "Intelligence", "wis": "Wisdom"}
    return f"{prefix} {names.get(rest[0], rest[0].capitalize())}"


def ask_white_ash(state: State) -> None:
    """Before the reveal, each holder of White Ash declares the department it counts for."""
    for seat in reversed(order_from(state, state["first"])):
        if WHITE_ASH in supporters_of(state, seat) and not state["seats"][seat].get("white_ash"):
            opts = [
                option("declare", f"White Ash counts for {DEPT_NAMES[d]}", department=d) for d in DEPARTMENTS
            ]
            ask(state, seat, "white_ash", opts, "declare White Ash's department")


def answer_white_ash(state: State, task: Task, opt: dict[str, Any], events: list[Any]) -> None:
    """Record White Ash's declared department."""
    from rules.argent.effects import say

    state["seats"][task["seat"]]["white_ash"] = opt["args"]["department"]
    say(events, f"P{task['seat'] + 1} declares White Ash for {DEPT_NAMES[opt['args']['department']]}.")


ANSWERS = {"white_ash": answer_white_ash}
