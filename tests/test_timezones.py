"""Quiet hours in IANA time zones (issue 24 item 6): daylight saving moves them with the user's clock.

Europe/Paris springs forward on 2027-03-28 at 01:00 UTC (CET, UTC+1, to CEST, UTC+2) and falls
back on 2026-10-25 at 01:00 UTC. Quiet hours 22-7 end at 07:00 on the user's wall clock: 05:00
UTC after the change in spring, 06:00 UTC after the change in autumn.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
import simcord

from service import TableError
from service.clock import HOUR, ManualClock, quiet_until
from store import UserPrefs
from tests.async_helpers import ALICE, BOB, Harness, OpenStore

pytestmark = pytest.mark.usefixtures("toy_registered")


def utc(text: str) -> float:
    """Return the Unix time of a UTC date and time written ``2027-03-28 05:00``."""
    return datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=UTC).timestamp()


def test_quiet_hours_end_on_the_wall_clock_across_the_spring_change() -> None:
    # 01:00 UTC is 02:00 CET, in quiet hours; they end at 07:00 CEST, 05:00 UTC (an hour early in UTC).
    assert quiet_until(utc("2027-03-28 00:00"), 22, 7, 0, "Europe/Paris") == utc("2027-03-28 05:00")
    # A fixed UTC+1 offset would have said 06:00 UTC: the old way ignores daylight saving.
    assert quiet_until(utc("2027-03-28 00:00"), 22, 7, 1) == utc("2027-03-28 06:00")


def test_quiet_hours_end_on_the_wall_clock_across_the_autumn_change() -> None:
    assert quiet_until(utc("2026-10-24 21:00"), 22, 7, 0, "Europe/Paris") == utc("2026-10-25 06:00")
    assert quiet_until(utc("2026-10-24 21:00"), 22, 7, 2) == utc("2026-10-25 05:00")


def test_quiet_hours_start_at_the_local_hour_in_summer_and_winter() -> None:
    # 20:30 UTC is 22:30 in Paris in July (quiet), but 21:30 in January (not yet).
    assert quiet_until(utc("2027-07-01 20:30"), 22, 7, 0, "Europe/Paris") == utc("2027-07-02 05:00")
    assert quiet_until(utc("2027-01-15 20:30"), 22, 7, 0, "Europe/Paris") is None
    # A half-hour zone, which whole-hour offsets could not say: 22:00 UTC is 03:30 in Kolkata.
    assert quiet_until(utc("2027-01-15 22:00"), 22, 7, 0, "Asia/Kolkata") == utc("2027-01-16 01:30")


async def test_set_pings_takes_iana_names_and_the_old_offsets_still_read(h: Harness) -> None:
    assert h.svc is not None
    prefs = await h.svc.time.set_pings(ALICE, quiet="22-7", tz="europe/paris")
    assert prefs.tz == "Europe/Paris"
    with pytest.raises(TableError, match="time zone"):
        await h.svc.time.set_pings(ALICE, tz="Mars/Olympus_Mons")
    assert (await h.store.user_prefs(ALICE)).tz == "Europe/Paris"  # type: ignore[union-attr]
    # An offset is the older way: it replaces the zone.
    prefs = await h.svc.time.set_pings(ALICE, utc_offset=3)
    assert prefs.tz is None and prefs.utc_offset == 3


async def test_preferences_saved_before_time_zones_read_as_offsets(
    tmp_path: Path, open_store: OpenStore
) -> None:
    store = await open_store(str(tmp_path / "old.db"))
    # A row as the older schema wrote it: no zone, a whole-hour offset.
    async with store._transaction() as db:
        await db.execute(
            "INSERT INTO user_prefs (user_id, pings, quiet_from, quiet_to, utc_offset)"
            " VALUES (?, ?, ?, ?, ?)",
            (ALICE, "every", 22, 7, 5),
        )
    assert await store.user_prefs(ALICE) == UserPrefs(ALICE, "every", 22, 7, 5, None)


async def test_a_reminder_in_quiet_hours_waits_for_the_wall_clock_morning_across_the_change(
    tmp_path: Path,
) -> None:
    harness = Harness(tmp_path / "tables.db", clock=ManualClock(utc("2027-03-27 12:00")))
    svc = await harness.open()
    try:
        table_id = await harness.table(options="clock=fast", users=(ALICE, BOB))
        waited_on = {c.user_id for c in await svc.store.seat_clocks(table_id) if c.running_since is not None}
        for user in (ALICE, BOB):
            await svc.time.set_pings(user, quiet="22-7", tz="Europe/Paris")
        # The fast clock's one reminder is due 12 hours in: 00:00 UTC, 01:00 in Paris, quiet.
        await harness.wait(12 * HOUR)
        assert harness.notices("reminder") == []
        later = [w for w in await svc.store.due(utc("2027-04-30 00:00")) if w.kind == "remind"]
        assert sorted(w.user_id for w in later) == sorted(waited_on)
        assert all(w.due_at == utc("2027-03-28 05:00") for w in later)
        await harness.wait(5 * HOUR)
        assert sorted(n.user_id for n in harness.notices("reminder")) == sorted(waited_on)
    finally:
        await harness.close()


async def test_the_time_zone_option_autocompletes_iana_names(
    simcord_env: simcord.Env, tmp_path: Path
) -> None:
    user = simcord_env.create_user("alice")
    guild = simcord_env.create_guild("Zones")
    guild.add_member(user)
    offered = await user.autocomplete("me pings", "tz", "paris")
    assert [c["value"] for c in offered] == ["Europe/Paris"]
    assert len(await user.autocomplete("me pings", "tz", "america/")) == 25
    said = await user.slash("me pings", quiet="22-7", tz="Europe/Paris")
    assert said.response is not None and "Europe/Paris" in said.response.content
