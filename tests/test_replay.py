"""The replay GIF of a finished game: capped in frames and bytes, first and final positions kept, public."""

from __future__ import annotations

import io
import itertools
import random
import time
from typing import Any

import pytest
from PIL import Image

import render
from bench.selfplay import play
from render.replay import REPLAY_LIMIT, gif
from rules import registry
from service import replay
from service.replay import pick, replay_gif
from tests.async_helpers import Harness, LoopTicks


def _png(width: int, height: int, noise: random.Random | None = None, shade: int = 90) -> bytes:
    """Return a PNG: flat grey, or random noise (which a GIF cannot compress)."""
    if noise is None:
        image = Image.new("RGB", (width, height), (shade, shade, shade))
    else:
        image = Image.frombytes("RGB", (width, height), noise.randbytes(width * height * 3))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def test_pick_keeps_every_frame_under_the_cap() -> None:
    assert pick([1, 1, 2, 2, 3], 5) == [0, 1, 2, 3, 4]


def test_pick_caps_evenly_with_the_first_the_last_and_each_round_start() -> None:
    rounds = [1] * 100 + [2] * 100 + [3] * 150
    chosen = pick(rounds, 20)
    assert len(chosen) == 20 and chosen == sorted(set(chosen))
    assert {0, 100, 200, 349} <= set(chosen)
    gaps = [b - a for a, b in itertools.pairwise(chosen)]
    assert max(gaps) <= 2 * 350 / 20, "spread over the whole game, not bunched"


def test_pick_thins_round_starts_when_they_alone_pass_the_cap() -> None:
    chosen = pick(list(range(500)), 10)
    assert len(chosen) == 10 and chosen[0] == 0 and chosen[-1] == 499
    assert pick([None] * 30, 1) == [29], "a lone frame is the final position"


def test_a_replay_too_big_for_discord_is_shrunk_under_the_limit() -> None:
    noise = random.Random(5)
    frames = [_png(480, 800, noise) for _ in range(30)]
    assert sum(len(f) for f in frames) > REPLAY_LIMIT
    data = gif(frames)
    assert data is not None and len(data) < REPLAY_LIMIT
    assert Image.open(io.BytesIO(data)).n_frames == 30


def test_a_long_argent_game_replays_in_capped_public_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = registry.get("argent")
    options = rules.check_options({})
    game = play(rules, 5, options, 1, keep_steps=True)
    assert game.finished and game.start is not None
    moves = [(s.seat, s.move) for s in game.steps]
    public = replay.turn_views(rules, 5, options, 1, moves)
    assert len(public) > replay.REPLAY_FRAMES, "the game is long enough to be capped"
    drawn: list[dict[str, Any]] = []

    def spy(kind: str, view: dict[str, Any], caption: Any = None) -> bytes:
        drawn.append(view)
        return _png(48, 64, shade=3 * len(drawn))  # distinct: a GIF merges equal frames

    monkeypatch.setattr(render, "board", spy)
    data = replay_gif(rules, 5, options, 1, moves)
    assert data is not None and Image.open(io.BytesIO(data)).n_frames == len(drawn) == replay.REPLAY_FRAMES
    assert drawn[0] == rules.view(game.start, None), "the first frame is the position dealt"
    assert drawn[-1] == rules.view(game.steps[-1].after, None), "the last frame is the final position"
    assert [v for v in public if v in drawn] == drawn, "every frame is a spectator's view, in order"
    rounds = sorted({v["round"] for v in public})
    assert rounds == sorted({v["round"] for v in drawn}) and len(rounds) > 1, "every round is shown"
    for view in drawn[:-1]:
        assert view["you"] is None
        assert all(v["id"] is None for v in view["voters"] if not v["face_up"]), "unseen voters stay hidden"


async def test_the_replay_is_drawn_off_the_event_loop(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """A slow drawing never stops the bot answering others: the loop ticks on while frames are drawn."""
    assert h.svc is not None
    table = await h.table("institute")

    def slow(kind: str, view: dict[str, Any], caption: Any = None) -> bytes:
        time.sleep(0.4)  # a drawing on a busy machine, in the worker thread
        return _png(48, 64)

    monkeypatch.setattr(render, "board", slow)
    async with LoopTicks(0.01) as ticks:
        data = await h.svc.history.replay_image(table)
    assert data is not None
    assert ticks.count >= 10, "the event loop went on while the replay was drawn"


async def test_every_replay_frame_names_the_players(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """Frames name the players (as the thread's boards do), not only their colours or characters."""
    assert h.svc is not None
    table = await h.table("institute")
    captions: list[Any] = []

    def drawn(kind: str, view: dict[str, Any], caption: Any = None) -> bytes:
        captions.append(caption)
        return _png(48, 64)

    monkeypatch.setattr(render, "board", drawn)
    assert await h.svc.history.replay_image(table) is not None
    names = {s.seat: s.name for s in await h.svc.seats(table)}
    assert captions and all(c is not None and c.names == names for c in captions)
    assert set(names.values()) == {"alice", "bob"}


def test_a_quadrivium_replay_shows_its_scenes_conflicts_and_councils_with_the_players_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Not the covenant sheet alone: the frames show the scenes, conflicts and councils as they
    # happened, each drawn with what was under way and the players' names.
    rules = registry.get("quadrivium")
    options = rules.check_options({"creation": "quick", "years": "1"})
    game = play(rules, 3, options, 3, keep_steps=True)
    assert game.finished
    moves = [(s.seat, s.move) for s in game.steps]
    names = {0: "alice", 1: "bob", 2: "carol"}
    under: list[str] = []

    def spy(kind: str, view: dict[str, Any], caption: Any = None) -> bytes:
        table = drawing.read_view(view)
        what = drawing._under_way(table, drawing._who(table, caption))
        under.append(what[0] if what else "")
        assert caption is not None and caption.names == names
        return _png(48, 64, shade=3 * len(under))  # the headings are what is looked at here

    from render import quadrivium as drawing

    monkeypatch.setattr(render, "board", spy)
    assert replay_gif(rules, 3, options, 3, moves, names=names) is not None
    assert any(h.startswith("Conflict: ") for h in under), under
    assert any("Council of" in h for h in under), under
    assert any(h.startswith("Scene ") for h in under), under
    assert all(name in " ".join(under) for name in names.values())
