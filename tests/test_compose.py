"""compose.yaml and the Dockerfile's health check, checked without Docker (none runs here).

No YAML library is installed either: ``read_compose`` reads the block-style subset of YAML the
file is written in (mappings, lists, ``[...]`` lists of strings, ``&anchor``, ``*alias`` and the
``<<`` merge key); anything else in the file fails the test rather than being misread.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot import parse_shards

COMPOSE = Path(__file__).resolve().parent.parent / "compose.yaml"
_LINE = re.compile(r"^(?P<indent> *)(?P<dash>- )?(?:(?P<key><<|[\w.-]+|\"[^\"]+\"):(?: +|$))?(?P<value>.*)$")


def _scalar(text: str, anchors: dict[str, Any]) -> Any:
    """Read one value: an alias, a ``[...]`` list of strings, a quoted or a plain string."""
    text = text.strip()
    if text.startswith("*"):
        return anchors[text[1:]]
    if text.startswith("["):
        return json.loads(text)
    if text.startswith('"'):
        return json.loads(text)
    return text


def read_compose(text: str) -> dict[str, Any]:
    """Read compose.yaml's subset of YAML into dicts and lists (merge keys applied)."""
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    anchors: dict[str, Any] = {}

    def block(start: int, indent: int) -> tuple[Any, int]:
        first = _LINE.match(lines[start])
        assert first is not None
        node: Any = [] if first["dash"] else {}
        i = start
        while i < len(lines):
            found = _LINE.match(lines[i])
            assert found is not None, lines[i]
            if len(found["indent"]) < indent:
                break
            assert len(found["indent"]) == indent, f"unexpected indent: {lines[i]!r}"
            if found["dash"]:
                assert isinstance(node, list) and found["key"] is None, lines[i]
                node.append(_scalar(found["value"], anchors))
                i += 1
                continue
            assert isinstance(node, dict) and found["key"], f"not a key: {lines[i]!r}"
            key, value = found["key"].strip('"'), found["value"].strip()
            anchor = None
            if value.startswith("&"):
                anchor, _, value = value[1:].partition(" ")
            if value:
                child, i = _scalar(value, anchors), i + 1
            else:
                nxt = _LINE.match(lines[i + 1]) if i + 1 < len(lines) else None
                if nxt is None or len(nxt["indent"]) <= indent:
                    child, i = None, i + 1  # a key with nothing under it (a volume's defaults)
                else:
                    child, i = block(i + 1, len(nxt["indent"]))
            if anchor:
                anchors[anchor] = child
            if key == "<<":
                node = {**child, **node}
            else:
                node[key] = child
        return node, i

    tree, _ = block(0, 0)
    return tree


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return read_compose(COMPOSE.read_text())


def bots(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Return the services that run the bot (those with a CONCLAVE_SHARDS)."""
    services = compose["services"].items()
    return {name: s for name, s in services if "CONCLAVE_SHARDS" in s.get("environment", {})}


def test_the_reader_applies_anchors_and_merges_and_refuses_what_it_does_not_know() -> None:
    text = "a: &x\n  k: 1\n  l: [\"m\"]\nb:\n  <<: *x\n  k: 2\n"
    assert read_compose(text) == {"a": {"k": "1", "l": ["m"]}, "b": {"k": "2", "l": ["m"]}}
    with pytest.raises(AssertionError):
        read_compose("a:\n  - b\n  c: d\n")


def test_two_bot_processes_own_disjoint_shard_ranges_that_cover_the_shard_count(
    compose: dict[str, Any],
) -> None:
    ranges = [parse_shards(s["environment"]["CONCLAVE_SHARDS"]) for s in bots(compose).values()]
    assert len(ranges) == 2
    counts = {count for _, count in ranges}
    assert len(counts) == 1, "every process names the same shard count"
    owned = [shard for ids, _ in ranges for shard in ids]
    assert sorted(owned) == list(range(counts.pop())), "each shard is owned by exactly one process"


def test_every_process_shares_one_postgresql_and_waits_for_it_to_be_healthy(compose: dict[str, Any]) -> None:
    for service in bots(compose).values():
        assert service["environment"]["CONCLAVE_DB"].startswith("postgresql://")
        assert service["environment"]["CONCLAVE_DB"].endswith("@postgres:5432/conclave")
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert len({s["environment"]["CONCLAVE_DB"] for s in bots(compose).values()}) == 1


def test_every_service_restarts_and_has_a_health_check(compose: dict[str, Any]) -> None:
    for name, service in compose["services"].items():
        assert service["restart"] in ("unless-stopped", "always"), name
        check = service["healthcheck"]
        assert check["test"][0] in ("CMD", "CMD-SHELL") and check["interval"] and check["retries"], name
    for service in bots(compose).values():
        # The bot's own /healthz (event loop and store), which needs its web server on.
        assert service["healthcheck"]["test"] == ["CMD", "python", "-m", "web.health"]
        assert service["environment"]["CONCLAVE_WEB"]
    assert compose["services"]["postgres"]["healthcheck"]["test"][1].startswith("pg_isready")


def test_the_database_lives_on_a_named_volume(compose: dict[str, Any]) -> None:
    mounts = compose["services"]["postgres"]["volumes"]
    named = [m.split(":")[0] for m in mounts if m.endswith(":/var/lib/postgresql/data")]
    assert named and named[0] in compose["volumes"], "PostgreSQL's data survives the container"


def test_the_image_checks_its_own_health_through_healthz() -> None:
    dockerfile = (COMPOSE.parent / "Dockerfile").read_text()
    checks = [line for line in dockerfile.splitlines() if line.startswith("HEALTHCHECK ")]
    assert len(checks) == 1 and checks[0].endswith('CMD ["python", "-m", "web.health"]')
    assert "--interval=" in checks[0] and "--retries=" in checks[0]
