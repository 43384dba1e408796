"""The bench: self-play summaries and the timing report, run in-process on the test game."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

import render
from bench import games
from bench.cli import main
from bench.clocksim import stall_reason
from bench.selfplay import play, selfplay
from rules import registry
from rules.contract import Event, Move, Seat, State
from rules.toy import TOY, ToyRules
from tests.async_helpers import ALICE, BOB, Harness

KEYS = {"game", "players", "games", "finished", "errors", "moves", "seconds"}


def summary(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, dict]:
    """Run the CLI and read the JSON object on its last line of output."""
    code = main(argv)
    last = capsys.readouterr().out.strip().splitlines()[-1]
    return code, json.loads(last)


@pytest.mark.parametrize("kind", sorted({TOY.kind, *registry.kinds()}))
def test_selfplay_finishes_every_game_without_errors(capsys: pytest.CaptureFixture[str], kind: str) -> None:
    players = games.find(kind).min_players
    code, out = summary(
        capsys, ["selfplay", "--game", kind, "--players", str(players), "--games", "2", "--seed", "3"]
    )
    assert set(out) == KEYS
    assert (out["game"], out["players"], out["games"]) == (kind, players, 2)
    assert out["finished"] == out["games"] == 2
    assert out["errors"] == 0 and code == 0
    assert out["moves"] > 0 and out["seconds"] >= 0


def test_selfplay_is_seeded(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["selfplay", "--game", "toy", "--players", "3", "--games", "3", "--seed", "9"]
    first, second = summary(capsys, argv)[1], summary(capsys, argv)[1]
    assert first["moves"] == second["moves"]
    games_one = [play(TOY, 2, TOY.default_options(), seed, keep_steps=True) for seed in (1, 2)]
    games_two = [play(TOY, 2, TOY.default_options(), seed, keep_steps=True) for seed in (1, 2)]
    assert [[s.move for s in g.steps] for g in games_one] == [[s.move for s in g.steps] for g in games_two]


class Breaks(ToyRules):
    """The toy game with an engine bug: the turn after a reveal crashes."""

    def resolve(self, state: State, seat: Seat, move: Move) -> list[Event]:
        if move.action in ("draw", "pass"):
            raise KeyError("deck")
        return super().resolve(state, seat, move)


class Endless(ToyRules):
    """The toy game declaring a bound far too small to finish in."""

    def max_moves(self, players: int, options: dict[str, str]) -> int:
        return 3


@pytest.mark.parametrize("broken", [Breaks(), Endless()])
def test_selfplay_counts_engine_errors_and_games_past_the_bound(broken: ToyRules) -> None:
    seen = []
    out = selfplay(broken, 2, 4, seed=5, on_error=seen.append)
    assert out["errors"] == len(seen) == 4
    assert out["finished"] == 0
    assert all(game.error for game in seen)


def test_timings_report_every_measure(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--kind", "toy", "--seconds", "0.05", "--renders", "5", "--writes", "8"])
    text = capsys.readouterr().out
    assert code == 0
    for name in ("apply", "legal_moves", "view+render", "store write", "store load"):
        line = next(line for line in text.splitlines() if line.strip().startswith(name))
        assert "median" in line and "p99" in line
    assert "store write  median" in text and "n=8" in text
    assert "render n/a" in text  # the toy game has no board drawing


def test_an_unknown_game_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--game", "chess", "--players", "2", "--games", "1"]) == 2
    assert "no game called `chess`" in capsys.readouterr().err


def test_timings_report_the_png_size_of_a_board_drawing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = []

    def board(view: dict) -> bytes:
        drawn.append(view)
        out = io.BytesIO()
        Image.new("RGB", (64 + view["round"], 32), "navy").save(out, "PNG")
        return out.getvalue()

    monkeypatch.setitem(render._BOARDS, TOY.kind, board)
    assert main(["--kind", "toy", "--seconds", "0.05", "--renders", "6", "--writes", "2"]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if "view+render" in line)
    assert "n=6" in line and "png median" in line and "KiB" in line
    assert len(drawn) == 6 and all(view["seat"] is None for view in drawn)  # the public view only


def test_the_replay_bench_times_a_capped_replay(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["replay", "--game", "institute", "--players", "2", "--frames", "4", "--runs", "1"]
    code, out = summary(capsys, argv)
    assert code == 0 and out["game"] == "institute" and out["turns"] > 4
    assert out["frames"] == 4 and 0 < out["bytes"] < 8 * 1024 * 1024 and len(out["runs"]) == 1


def test_the_clock_bench_counts_the_due_work_of_every_service(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["clock", "--tables", "8", "--days", "8", "--seed", "1", "--workers", "1"]
    code, out = summary(capsys, argv)
    assert code == 0 and out["restarts"] == 1, "a week passed: the service was restarted once"
    assert out["stalled"] == out["reminders_doubled"] == out["reminders_missed"] == out["errors"] == 0
    # Every reminder delivered was a remind job run; a vote's stand-in is an autoplay job.
    assert out["jobs_remind"] >= out["reminders"] > 0
    assert out["votes"] > 0 and out["jobs_autoplay"] > 0 and out["jobs_deadline"] > 0


def test_the_clock_bench_gives_the_same_counts_every_run_and_survives_kills(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["clock", "--tables", "8", "--days", "8", "--seed", "1", "--workers", "1"]
    runs = [summary(capsys, argv)[1] for _ in range(2)]
    for out in runs:
        out.pop("seconds"), out.pop("cpu_seconds")
    assert runs[0] == runs[1], "one seed, one outcome"
    code, killed = summary(capsys, [*argv, "--kill-every", "40"])
    assert code == 0 and killed["kills"] > 10
    zero = ("stalled", "reminders_doubled", "reminders_missed", "set_aside", "undelivered", "errors")
    assert {name: killed[name] for name in zero} == dict.fromkeys(zero, 0)
    assert killed["reminders"] > 0 and killed["jobs_deadline"] > 0


def test_a_kill_in_the_last_half_hour_leaves_no_board_undelivered(capsys: pytest.CaptureFixture[str]) -> None:
    # Seed 5 kills a process between a move's commit and its board in the run's last half hour:
    # the delivery is due a minute later, and the bench lets the scheduler run that minute.
    argv = ["clock", "--tables", "6", "--days", "2", "--seed", "5", "--kill-every", "6", "--workers", "1"]
    code, out = summary(capsys, argv)
    assert out["kills"] > 10
    assert code == 0 and out["undelivered"] == out["stalled"] == out["reminders_doubled"] == 0


@pytest.mark.usefixtures("toy_registered")
async def test_the_clock_bench_says_what_a_stalled_table_waits_on(h: Harness) -> None:
    assert h.store is not None and h.svc is not None
    table_id = await h.table(options="clock=fast")
    await h.svc.time.mark_stand_in(table_id, BOB, "skip")
    (wait,) = [w for w in await h.store.table_waits() if w.table.id == table_id]
    said = stall_reason(wait, table_id, wait.table.kind)
    assert said.startswith(f"table {table_id} (toy, v0) waits on ")
    assert f"user {ALICE} in person" in said and f"user {BOB} skip" in said
    assert f"open work: deadline@{ALICE}, " in said and "deliver" in said
    assert stall_reason(None, 7, "toy") == "table 7 (toy): paused or unreadable"
