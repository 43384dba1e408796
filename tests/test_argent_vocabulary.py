"""An honest vocabulary (issue 13): what the loader accepts is exactly what the engine implements,
and a word outside it fails loudly, at load and at run time (rules/argent/VOCABULARY.md)."""

from __future__ import annotations

import pytest

from rules.argent import cards, effects, hooks, protection, vocab
from tests.argent_helpers import give_mage, round_one, run, seat_now


def test_every_registry_holds_exactly_the_loaders_keys() -> None:
    """Effect keys, statuses, mage powers, room rules, trigger events and hooks: one set each."""
    assert set(effects.HANDLERS) == set(cards.EFFECT_KEYS)
    assert set(vocab.STATUSES) == set(cards.STATUSES)
    assert set(vocab.POWERS) == set(cards.POWER_KEYS)
    assert set(vocab.ROOM_RULES) == set(cards.ROOM_RULES)
    assert set(vocab.TRIGGERS) == set(cards.TRIGGER_EVENTS)
    assert set(hooks.HOOKS) == set(cards.HOOKS)


def test_the_data_uses_only_registered_words() -> None:
    """Every status, power, room rule and trigger the data names is in its registry."""
    data = cards.read_all()
    sides = [side for room in data["rooms"] for side in room["sides"].values()]
    used_rules = {r for side in sides for r in side.get("rules", [])}
    assert used_rules <= set(vocab.ROOM_RULES)
    powers = {p["key"] for m in data["mages"] for p in m["powers"].values() if p}
    assert powers <= set(vocab.POWERS)
    triggers = {
        on
        for level in cards.spell_levels().values()
        for on in (level.get("trigger") or {}).get("on", [])
    }
    assert triggers <= set(vocab.TRIGGERS)


def test_an_unknown_key_fails_at_load() -> None:
    """The loader names the unknown effect key, status and trigger."""
    assert cards.check_effect({"teleport": {}}, "x") == ["x has unknown effect key 'teleport'"]
    problems = cards.check_effect({"status": {"name": "invisible", "duration": "this_turn"}}, "x")
    assert problems and "invisible" in problems[0]
    data = cards.read_all()
    data["rooms"][0]["sides"]["A"]["rules"] = ["no_gravity"]
    assert any("no_gravity" in p for p in cards.check(data))


def test_an_unknown_key_fails_at_run_time() -> None:
    """An effect, status, power, room rule or trigger the engine does not know raises, never skips."""
    state = round_one(3)
    me = seat_now(state)
    with pytest.raises(vocab.UnknownKey):
        run(state, me, [{"teleport": {}}])
    with pytest.raises(vocab.UnknownKey):
        vocab.covers(state, me, "invisible")
    with pytest.raises(vocab.UnknownKey):
        vocab.has_power(state, give_mage(state, me, "sorcery"), "flight")
    with pytest.raises(vocab.UnknownKey):
        vocab.room_has(state, "guilds", "no_gravity")
    with pytest.raises(vocab.UnknownKey):
        vocab.trigger_fits(state, me, {"on": ["sneezed"]}, {"on": "sneezed"})
    with pytest.raises(ValueError):
        protection.protected(state, me, give_mage(state, me, "sorcery"), "tickle", "spell")


def test_auric_catalyst_runs_through_its_declared_trigger() -> None:
    """Auric Catalyst is data: its `pay_gold` trigger offers it and its `waive_cost` effect does the
    waiving; no code names the card."""
    import inspect

    from rules.argent import engine, offers

    for module in (effects, engine, offers, vocab, protection):
        assert "auric_catalyst" not in inspect.getsource(module)
    rec = next(v for v in cards.vaults() if v["id"] == "auric_catalyst")
    assert rec["trigger"] == {"on": ["pay_gold"]} and rec["effects"] == [{"waive_cost": {"resource": "gold"}}]
