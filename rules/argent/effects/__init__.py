"""The interpreter of the effect vocabulary (rules/argent/VOCABULARY.md).

An effect list runs as a frame on the agenda (``agenda.push_effects``). ``run_frame`` carries out
its next effect: plain gains happen at once; anything that needs a choice (a target, a reward, a
voter to mark, a spell to research) becomes an ``ask`` at the front of the agenda, answered by
the next move through ``answer``. Harm done to mages is recorded in ``state["harms"]`` so the
engine can open the reaction window once the action has resolved.

The interpreter is split by effect family: ``base`` (events, descriptions, small lookups),
``gains`` (resources, plain choices, Marks), ``deck`` (research and cards), ``targets`` (mage
selectors and harm), ``placing`` (placing, gaining and swapping mages), ``shadows`` (shadows and
locks) and ``flow`` (turn-level keys). This module holds the registries that dispatch to them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.argent import hooks, vocab
from rules.argent.agenda import Task, push
from rules.argent.effects.base import (
    RESOURCES,
    Handler,
    describe,
    has_status,
    powers_of,
    say,
)
from rules.argent.effects.deck import (
    answer_add_room_card,
    answer_astronomy,
    answer_buy,
    answer_discard_spell,
    answer_draft,
    answer_held_spell,
    answer_legendary,
    answer_look,
    answer_name_department,
    answer_refresh,
    answer_research,
    answer_room_card,
    card_label,
    do_add_room_card,
    do_astronomy,
    do_astronomy_any_earlier,
    do_buy,
    do_discard,
    do_draft,
    do_draft_room_card,
    do_draw,
    do_look,
    do_refresh,
    do_research,
    do_research_legendary,
    do_retire,
    do_secret_supporter,
    do_take_revealed,
    fit_label,
    research_options,
    run_buy,
    run_draft,
    run_refresh,
    run_research,
    secret_supporter,
)
from rules.argent.effects.flow import (
    do_become_first,
    do_cast,
    do_extra_action,
    do_hook,
    do_if,
    do_redirect,
    do_status,
    do_waive_cost,
    still_harmed,
)
from rules.argent.effects.gains import (
    answer_choose,
    answer_distinct,
    answer_gold_cost,
    answer_mark,
    answer_mark_for_all,
    answer_repeat,
    answer_steal,
    answer_take_ip,
    can_pay,
    do_choose,
    do_choose_distinct,
    do_gain,
    do_gain_per,
    do_mark_for_all,
    do_pay,
    do_repeat,
    do_steal,
    gold_reactions,
    mark_options,
    place_mark,
    run_distinct,
    run_mark,
)
from rules.argent.effects.placing import (
    answer_gain_mage,
    answer_mage_swap,
    answer_place_room,
    answer_place_slot,
    answer_swap_mage,
    any_slot_targets,
    can_gain_mage,
    can_place_somewhere,
    do_gain_mage,
    do_place,
    do_swap_mage,
    grant_mage,
    iter_placeable_rooms,
    merit_note,
    merit_words,
    place_option,
    placeable_rooms,
    run_place,
)
from rules.argent.effects.shadows import (
    answer_lock,
    answer_rearrange,
    answer_rearrange_room,
    answer_shadow,
    answer_shadow_room,
    answer_shadow_type,
    do_lock,
    do_rearrange,
    do_shadow,
    run_rearrange,
    run_shadow,
    shadow_targets,
)
from rules.argent.effects.targets import (
    answer_dest_room,
    answer_dest_slot,
    answer_pick_room,
    answer_select,
    answer_take_slot,
    answer_wound_slot,
    candidates,
    dest_slots,
    destination_rooms,
    do_target,
    harm,
    iter_candidates,
    put,
    run_destination,
    run_pick_room,
    run_select,
    shadowed_host,
    wound,
)
from rules.argent.state import State, occupant, placed
from rules.contract import Event

__all__ = [
    "ANSWERS",
    "HANDLERS",
    "RESOURCES",
    "TASKS",
    "any_slot_targets",
    "can_gain_mage",
    "can_pay",
    "can_place_somewhere",
    "candidates",
    "card_label",
    "describe",
    "dest_slots",
    "destination_rooms",
    "fit_label",
    "gold_reactions",
    "grant_mage",
    "harm",
    "has_status",
    "iter_candidates",
    "iter_placeable_rooms",
    "mark_options",
    "merit_note",
    "merit_words",
    "occupant",
    "place_mark",
    "place_option",
    "placeable_rooms",
    "placed",
    "powers_of",
    "put",
    "research_options",
    "run_frame",
    "say",
    "secret_supporter",
    "shadow_targets",
    "shadowed_host",
    "still_harmed",
    "wound",
]


def run_frame(state: State, task: Task, events: list[Event]) -> None:
    """Carry out the next effect of a frame (already taken off the agenda)."""
    if not task["list"]:
        return
    effect = task["list"].pop(0)
    # The frame stays behind whatever this effect asks, so its context outlives the choices.
    push(state, task)
    key, arg = next(iter(effect.items()))
    handler = HANDLERS.get(key)
    if handler is None:
        # The loader refuses unknown keys; one reaching here is a bug, never a skipped effect.
        raise vocab.UnknownKey(f"unknown effect key {key!r}")
    handler(state, task, arg, events)



HANDLERS: dict[str, Handler] = {
    "gain": do_gain,
    "pay": do_pay,
    "gain_per": do_gain_per,
    "steal": do_steal,
    "repeat": do_repeat,
    "choose": do_choose,
    "choose_distinct": do_choose_distinct,
    "buy": do_buy,
    "draw": do_draw,
    "draft": do_draft,
    "secret_supporter": do_secret_supporter,
    "look": do_look,
    "research": do_research,
    "research_legendary": do_research_legendary,
    "discard": do_discard,
    "refresh": do_refresh,
    "retire": do_retire,
    "mark_for_all": do_mark_for_all,
    "wound": lambda s, t, a, e: do_target(s, t, "wound", a, e),
    "banish": lambda s, t, a, e: do_target(s, t, "banish", a, e),
    "move": lambda s, t, a, e: do_target(s, t, "move", a, e),
    "heal": lambda s, t, a, e: do_target(s, t, "heal", dict(a, scope="infirmary"), e),
    "push_shadow": lambda s, t, a, e: do_target(s, t, "push_shadow", a, e),
    "place": do_place,
    "shadow": do_shadow,
    "rearrange": do_rearrange,
    "lock": do_lock,
    "unlock": lambda s, t, a, e: do_lock(s, t, a, e, value=False),
    "gain_mage": do_gain_mage,
    "swap_mage": do_swap_mage,
    "redirect": do_redirect,
    "status": do_status,
    "become_first_player": do_become_first,
    "extra_action": do_extra_action,
    "if": do_if,
    "cast": do_cast,
    "hook": do_hook,
    "waive_cost": do_waive_cost,
    "astronomy": do_astronomy,
    "astronomy_any_earlier": do_astronomy_any_earlier,
    "take_revealed": do_take_revealed,
    "add_room_card": do_add_room_card,
    "draft_room_card": do_draft_room_card,
}

ANSWERS: dict[str, Callable[[State, Task, dict[str, Any], list[Event]], None]] = {
    "steal": answer_steal,
    "repeat": answer_repeat,
    "choose": answer_choose,
    "distinct": answer_distinct,
    "mark": lambda s, t, o, e: answer_mark(s, t, o, e) if o["action"] == "mark" else None,
    "mark_for_all": answer_mark_for_all,
    "research": answer_research,
    "held_spell": answer_held_spell,
    "name_department": answer_name_department,
    "legendary": answer_legendary,
    "draft": answer_draft,
    "look": answer_look,
    "buy": answer_buy,
    "discard_spell": answer_discard_spell,
    "refresh": answer_refresh,
    "pick_room": answer_pick_room,
    "select": answer_select,
    "take_slot": answer_take_slot,
    "wound_slot": answer_wound_slot,
    "dest_room": answer_dest_room,
    "dest_slot": answer_dest_slot,
    "place_room": answer_place_room,
    "place_slot": answer_place_slot,
    "shadow_type": answer_shadow_type,
    "shadow_room": answer_shadow_room,
    "shadow": answer_shadow,
    "rearrange_room": answer_rearrange_room,
    "rearrange": answer_rearrange,
    "lock": answer_lock,
    "gain_mage": answer_gain_mage,
    "swap_mage": answer_swap_mage,
    "astronomy": answer_astronomy,
    "add_room_card": answer_add_room_card,
    "room_card": answer_room_card,
    "gold_cost": answer_gold_cost,
    "take_ip": answer_take_ip,
    "mage_swap": answer_mage_swap,
    **hooks.ANSWERS,
}

TASKS: dict[str, Callable[[State, Task, list[Event]], None]] = {
    "effects": run_frame,
    "mark": run_mark,
    "research": run_research,
    "distinct": run_distinct,
    "draft": run_draft,
    "buy": run_buy,
    "refresh": run_refresh,
    "pick_room": run_pick_room,
    "select": run_select,
    "destination": run_destination,
    "place": run_place,
    "shadow": run_shadow,
    "rearrange": run_rearrange,
}
