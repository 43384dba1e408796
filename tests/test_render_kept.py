"""The drawn pieces' cache: bounded by count and pixels, a large piece kept only once drawn twice."""

from __future__ import annotations

from render.kept import Kept


def test_a_small_piece_is_kept_at_once() -> None:
    kept: Kept[str] = Kept(count=10, pixels=1000, small=100)
    assert kept.offer("seat name", "mask", 40)
    assert kept.get("seat name") == "mask" and kept.held == 40


def test_a_large_piece_is_kept_only_when_offered_again() -> None:
    kept: Kept[str] = Kept(count=10, pixels=1000, small=100)
    assert not kept.offer("Last: mage1 drafts", "mask", 300)
    assert kept.get("Last: mage1 drafts") is None and kept.held == 0
    assert not kept.offer("Round 1/5", "mask", 300)
    assert kept.offer("Round 1/5", "mask", 300)  # its second drawing: it repeats
    assert kept.get("Round 1/5") == "mask" and kept.held == 300


def test_past_a_bound_it_starts_again() -> None:
    kept: Kept[int] = Kept(count=3, pixels=100, small=100)
    for n in range(3):
        kept.offer(n, n, 30)
    assert len(kept) == 3 and kept.held == 90
    kept.offer(3, 3, 30)  # over the count: starts from nothing
    assert len(kept) == 1 and kept.get(3) == 3 and kept.held == 30
    kept.offer(4, 4, 30)
    kept.offer(5, 5, 50)  # over the pixels
    assert kept.values() == [5] and kept.held == 50


def test_a_piece_larger_than_the_whole_bound_is_never_kept() -> None:
    kept: Kept[str] = Kept(count=10, pixels=100, small=10)
    kept.offer("a", "a", 5)
    for _ in range(3):
        assert not kept.offer("huge", "huge", 500)
    assert kept.values() == ["a"]  # and it pushed nothing out


def test_the_large_keys_seen_once_are_bounded() -> None:
    kept: Kept[int] = Kept(count=4, pixels=10_000, small=10)
    for n in range(50):  # one-off sentences
        assert not kept.offer(n, n, 20)
    assert len(kept._seen) <= 4
