"""The local table: starts without a token, and a scripted session plays a whole game."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import aiosqlite
import pytest

from localtable import parse_slash
from rules.toy import TOY
from service import seat_order
from tests.async_helpers import local_session

pytestmark = pytest.mark.usefixtures("toy_registered")

ROOT = Path(__file__).resolve().parent.parent
SEED = 777


def test_parse_slash_reads_the_command_and_options() -> None:
    assert parse_slash("game join") == ("game join", {})
    new = ("game new", {"kind": "toy", "options": "hand=4"})
    assert parse_slash("game new kind:toy options:hand=4") == new
    assert parse_slash('game play move:"Choose sigil 5"') == ("game play", {"move": "Choose sigil 5"})
    assert parse_slash("game play move:choose sigil=5") == ("game play", {"move": "choose sigil=5"})
    with pytest.raises(ValueError, match="Name a command"):
        parse_slash("move:x")


def test_the_local_table_starts_without_a_token(tmp_path: Path) -> None:
    script = tmp_path / "session.txt"
    script.write_text("users\nalice: /help\nalice: /game new kind:nothing\nquit\n")
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "LOG_LEVEL")}
    done = subprocess.run(
        [sys.executable, "bot.py", "--script", str(script), "--out", str(tmp_path / "out")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Conclave local table" in done.stdout
    assert "[only alice sees] **Conclave** hosts board games" in done.stdout
    assert "[only alice sees] There is no game called `nothing`" in done.stdout
    assert (tmp_path / "out" / "local.db").exists()


def duel_script(players: list[str]) -> list[str]:
    """Write the lines of a whole Sigil Duel, each mage taking its first legal move."""
    order = seat_order(SEED, players)
    state = TOY.setup(len(players), {"hand": "3"}, SEED)
    lines = [f"{players[0]}: /game new kind:toy options:hand=3"]
    lines += [f"{name}: /game join" for name in players[1:]]
    lines += [f"{players[0]}: /game start", f"{order[0]}: click My private view"]
    while not TOY.is_over(state):
        seat = TOY.waiting_on(state)[0]
        move = TOY.legal_moves(state, seat)[0]
        if len(lines) % 2:
            lines.append(f"{order[seat]}: /game play move:{TOY.label(state, seat, move)}")
        else:  # the other way a player moves at the local table: list, then pick by number
            lines += [f"{order[seat]}: moves", f"{order[seat]}: play 1"]
        state, _ = TOY.apply(state, seat, move)
    lines.append(f"{players[0]}: /game log")
    return lines


async def test_a_scripted_session_plays_the_test_game_to_its_end(tmp_path: Path) -> None:
    printed: list[str] = []
    db = tmp_path / "local.db"
    lines = duel_script(["alice", "bob", "carol"])
    failures = await local_session(
        lines, out_dir=tmp_path / "out", db_path=db, echo=printed.append, seed_source=lambda: SEED
    )
    text = "\n".join(printed)
    assert failures == 0, text
    assert "(now in #Sigil Duel #1 — alice's table)" in text
    assert "[#Sigil Duel #1 — alice's table] bot: bob takes a seat." in text
    assert "[DM to carol] Sigil Duel #1 — alice's table: you are P" in text
    assert "button: My private view" in text and "select (Choose your move…):" in text
    assert "Revealed: seat 0:" in text
    assert "Game over:" in text
    assert text.count("You played:") == sum(1 for line in lines if "play" in line and "moves" not in line)
    async with aiosqlite.connect(db) as conn, conn.execute("SELECT status FROM tables WHERE id = 1") as rows:
        assert await rows.fetchone() == ("finished",)


async def test_a_restart_closes_the_old_bot_s_store_and_its_buttons_still_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot

    closed: list[int] = []
    close_store = bot.ConclaveBot.close_store

    async def counted(self: bot.ConclaveBot) -> None:
        closed.append(id(self))
        await close_store(self)

    monkeypatch.setattr(bot.ConclaveBot, "close_store", counted)
    said: list[str] = []
    lines = ["alice: /game new kind:toy", "bob: /game join", "alice: /game start", "restart"]
    lines.append("alice: click My private view")
    failures = await local_session(
        lines, out_dir=tmp_path / "out", db_path=tmp_path / "local.db", echo=said.append
    )
    assert failures == 0, "\n".join(said)
    assert "(the bot restarted; its buttons and selects still work)" in said
    after = said[said.index("> alice: click My private view") :]
    assert any(line.startswith("[only alice sees]") for line in after)
    assert len(closed) == 2 and closed[0] != closed[1]  # the old bot at the restart, the new one at the end


async def test_a_slow_answer_costs_one_line_not_the_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import localtable

    async def too_slow(self: localtable.LocalTable, user: str, text: str) -> None:
        raise TimeoutError

    monkeypatch.setattr(localtable.LocalTable, "_slash", too_slow)
    said: list[str] = []
    lines = ["alice: /help", "users"]
    failures = await local_session(
        lines, out_dir=tmp_path / "out", db_path=tmp_path / "local.db", echo=said.append
    )
    assert failures == 1
    assert any("took more than 60 s" in line for line in said)
    assert any(line.startswith("Users: alice") for line in said)  # the next line still ran


async def test_a_closed_table_is_announced_once_and_its_board_not_reprinted(tmp_path: Path) -> None:
    said: list[str] = []
    lines = ["alice: /game new kind:toy", "bob: /game join", "alice: /game start", "alice: /game abandon"]
    failures = await local_session(
        lines, out_dir=tmp_path / "out", db_path=tmp_path / "local.db", echo=said.append
    )
    assert failures == 0
    after = said[said.index("> alice: /game abandon") :]
    assert any("This table is closed: its buttons no longer play." in line for line in after)
    assert any("an earlier message's buttons were removed" in line for line in after)
    assert not any("The game begins" in line for line in after)


async def test_a_number_option_is_typed_as_a_discord_client_sends_it(tmp_path: Path) -> None:
    # /game practice players:3 is an integer option: the stand-in refuses text, Discord never sends it.
    printed: list[str] = []
    lines = ["alice: /game practice kind:toy players:3", "alice: /game practice kind:toy players:many"]
    failures = await local_session(
        lines, out_dir=tmp_path / "out", db_path=tmp_path / "db", echo=printed.append, seed_source=lambda: 7
    )
    text = "\n".join(printed)
    assert "Your practice table is open" in text and "Bot (basic) #2" in text, text
    assert "expects int, got str" in text and failures == 1  # a word stays text, and is refused as before


async def test_the_local_table_fills_forms_and_reads_values_with_spaces(tmp_path: Path) -> None:
    # Whoever names the covenant gets the form (the other is refused, the game untouched); both
    # then name their mage by typing the move with a quoted value.
    said: list[str] = []
    lines = [
        "alice: /game new kind:quadrivium", "bob: /game join", "alice: /game start",
        "alice: /quad panel", "alice: click Name the covenant…",
        "bob: /quad panel", "bob: click Name the covenant…",
        'alice: fill name="Ashwood Hollow" desc="An old mill in the fens"',
        'bob: fill name="Ashwood Hollow" desc="An old mill in the fens"',
        'alice: /game play move:mage name="Tom Bell"', 'bob: /game play move:mage name="Tom Bell"',
    ]
    await local_session(lines, out_dir=tmp_path / "out", db_path=tmp_path / "local.db", echo=said.append)
    text = "\n".join(said)
    assert text.count("form: Found the covenant") == 1 and "name: The covenant's name (required)" in text
    assert "The covenant is founded: Ashwood Hollow." in text
    assert text.count("You played: Name the covenant.") == 1
    assert text.count("You played: Name your mage.") == 2
    async with aiosqlite.connect(tmp_path / "local.db") as conn, conn.execute(
        "SELECT state FROM snapshots WHERE table_id = 1"
    ) as rows:
        row = await rows.fetchone()
    assert row is not None and row[0].count('"Tom Bell"') == 2


async def test_the_local_table_serves_its_web_pages_and_prints_where(tmp_path: Path) -> None:
    printed: list[str] = []
    lines = ["alice: /game new kind:toy", "bob: /game join", "alice: /game start", "bob: /game web"]
    failures = await local_session(lines, out_dir=tmp_path / "out", db_path=tmp_path / "local.db",
                                 echo=printed.append, seed_source=lambda: SEED, web_port=0)
    text = "\n".join(printed)
    assert failures == 0, text
    address = re.search(r"Web pages: (http://127\.0\.0\.1:\d+)", text)
    assert address is not None, text
    assert f"{address[1]}/t/1-" in text and f"{address[1]}/seat/1/" in text
