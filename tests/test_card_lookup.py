"""/game card finds every card of every game, with its source, and says which content is designed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules import registry

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("kind", "name", "words"),
    [
        ("argent", "Wave", "banish"),
        ("argent", "Nostros Calahan", "most Influence"),
        ("institute", "Ring of Influence", "roll"),
        ("institute", "Novice Crystal Ball", "Cost 4 / Surpass 3"),
    ],
)
def test_a_known_card_is_found_with_its_facts(kind: str, name: str, words: str) -> None:
    text = registry.get(kind).card_index()[name]
    assert name in text and words.lower() in text.lower()
    assert "Source:" in text


def test_every_institute_record_is_indexed_and_designed_ones_say_so() -> None:
    records = json.loads((ROOT / "data" / "institute" / "cards.json").read_text())["cards"]
    index = registry.get("institute").card_index()
    assert {r["name"] for r in records} == set(index)
    for record in records:
        text = index[record["name"]]
        assert f"Source: {record['source']}" in text
        if record["source"] == "designed" or record.get("designed"):
            assert "designed" in text, record["name"]


def test_argent_index_covers_every_kind_of_card() -> None:
    index = registry.get("argent").card_index()
    kinds = {
        line.split("(")[1].split(")")[0]
        for line in (t.splitlines()[0].rsplit("** ", 1)[1] for t in index.values())
    }
    assert {"room", "spell", "starter spell", "vault", "supporter", "voter", "candidate"} <= kinds
    assert len(index) > 200
