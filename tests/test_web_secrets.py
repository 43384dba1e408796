"""No web page or image shows a value hidden from its viewer, at any version (issue 30, safety).

Random games of all four kinds run through the service. After every move, the table's page, its
newest step and board (as the public), and each player's own page and sheet (through their
signed link) are read; at the end every version's step and board is read again. Each is searched
for the values hidden from its viewer, found by the information-set check of
tests/test_public_history.py (a label its reader cannot tell from a differently named move; a
card some other seat holds that the reader's view lacks). Drawings are replaced by their views
as JSON (tests/drawings.py), so an image is searched as the data it was drawn from.
"""

from __future__ import annotations

import contextlib
import random

import pytest

from rules import registry
from service import TableError
from tests.async_helpers import NAMES, Harness
from tests.drawings import views_as_json
from tests.test_public_history import GAMES, PLAYERS, PUBLIC, Secrets, hidden_cards, hidden_labels, leaks
from tests.web_helpers import links, web_client


async def _texts(client: object, paths: list[str]) -> list[str]:
    """Return the bodies of GET answers (text, or an image's bytes read as text)."""
    found = []
    for path in paths:
        answer = await client.get(path)  # type: ignore[attr-defined]
        assert answer.status in (200, 404), (path, answer.status)
        found.append((await answer.read()).decode("utf-8", "replace"))
    return found


@pytest.mark.parametrize(("kind", "players", "moves"), GAMES, ids=[g[0] for g in GAMES])
async def test_no_page_or_image_shows_a_viewer_what_is_hidden_from_them(
    h: Harness, kind: str, players: int, moves: int
) -> None:
    assert h.svc is not None and h.store is not None
    svc, rules, rand = h.svc, registry.get(kind), random.Random(3)
    users = PLAYERS[:players]
    signer = links()
    with views_as_json(kind):
        table_id = await h.table(kind, users=users)
        base = f"/t/{signer.table_token(table_id)}"
        by_seat = {s.seat: s.user_id for s in await svc.seats(table_id)}
        secrets = Secrets()
        public_cards: dict[int, set[str]] = {}
        read = 0
        async with web_client(svc) as client:
            for _ in range(moves):
                record, state = await h.store.load(table_id)
                if record.status != "active":
                    break
                seat = rand.choice(rules.waiting_on(state))
                move = rand.choice(rules.legal_moves(state, seat))
                for reader, label in hidden_labels(rules, state, seat, move, players).items():
                    secrets.labels_met += 1
                    secrets.add(reader if reader is PUBLIC else by_seat[reader], [label])
                secrets.own.setdefault(by_seat[seat], set()).add(rules.label(state, seat, move))
                await svc.act(table_id, by_seat[seat], move)
                if rand.random() < 0.1:
                    with contextlib.suppress(TableError):
                        await svc.play.undo(table_id, by_seat[seat])
                record, now = await h.store.load(table_id)
                told = " ".join(await svc.reads.public_events(table_id))
                cards = {r: {c for c in hidden_cards(kind, now, players, r) if c not in told}
                         for r in [PUBLIC, *range(players)]}
                public_cards[record.version] = cards[PUBLIC]
                step, board = f"{base}/step/{record.version}.json", f"{base}/board/{record.version}.png"
                seen = await _texts(client, [base, f"{base}?q=a", step, board])
                found = leaks(seen, secrets.of(PUBLIC) | cards[PUBLIC])
                assert not found, f"{kind} v{record.version}: the public page shows {found[:2]}"
                for reader_seat, user in by_seat.items():
                    own = signer.seat_path(table_id, user, int(h.clock.now()) + 3600)
                    mine = await _texts(client, [own, f"{own}/sheet.png"])
                    found = leaks(mine, secrets.of(user) | cards[reader_seat])
                    assert not found, f"{kind}: {NAMES[user]}'s own page shows another's secret {found[:2]}"
                read += 1
            # Every version of the history, as the public, once more at the end. A version's board
            # is that moment alone; its page and step also show the table now (its log, whom it
            # waits on), where a card told since is public.
            versions = [int(v) for v in (await (await client.get(f"{base}/step/0.json")).json())["versions"]]
            still = public_cards.get(versions[-1], set())
            for version in versions:
                then = public_cards.get(version, set())
                board = await _texts(client, [f"{base}/board/{version}.png"])
                found = leaks(board, secrets.of(PUBLIC) | then)
                assert not found, f"{kind}: the board of version {version} shows {found[:2]}"
                seen = await _texts(client, [f"{base}/step/{version}.json", f"{base}?v={version}"])
                found = leaks(seen, secrets.of(PUBLIC) | (then & still))
                assert not found, f"{kind}: version {version} of the history shows {found[:2]}"
    assert read > 10
    if kind in ("institute", "quadrivium"):
        assert secrets.labels_met > 0, f"the {kind} game met no secret choice: the test proved nothing"
