"""Command line of the bench.

python -m bench [--kind KIND ...] [--seconds S] [--seed S] [--json [--e2e-moves N]]
python -m bench selfplay --game KIND --players N --games G --seed S [--option name=value ...]
python -m bench clock --tables 1000 --days 30 --seed 1
python -m bench chatter --game KIND --players N --games G --seed S   (or --whole --seed S)
python -m bench arena --game KIND --players N --games G --seed S --seats strong,basic [--budget SECONDS]
python -m bench grid --game academy --players N --levels random,basic,strong --games 100,100,20 [--budget S]
python -m bench replay --game argent --players 5 --seed 1 [--frames N] [--runs 3]
python -m bench web [--moves 20] [--viewers 100] [--seed 1]
python -m bench load --tables 200 --moves 10 [--game argent] [--players 5] [--db PATH] [--seed 1]
python -m bench load --db postgresql|sqlite --processes 3 --tables 1000 --moves 10 [--url URL] [--kill]
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from bench import games
from bench.selfplay import Playout, selfplay
from bench.timing import figures, format_report, measure
from rules.contract import RulesError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bench", description="Time Conclave's games and store.")
    parser.add_argument("--kind", action="append", help="bench only this kind (repeatable)")
    parser.add_argument("--players", type=int, help="seats per game (default: the kind's maximum)")
    parser.add_argument("--seconds", type=float, default=1.5, help="playout time per kind (default 1.5)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    parser.add_argument("--renders", type=int, default=40, help="view + render samples per kind")
    parser.add_argument("--writes", type=int, default=150, help="store write + load samples per kind")
    parser.add_argument("--json", action="store_true",
                        help="also time moves through the cogs; the last line is one JSON object by kind")
    parser.add_argument("--e2e-moves", type=int, default=30, help="moves timed through the cogs per kind")
    sub = parser.add_subparsers(dest="command")
    play = sub.add_parser("selfplay", help="play random legal games; the last line is a JSON summary")
    play.add_argument("--game", required=True, help="the kind to play")
    play.add_argument("--players", type=int, required=True)
    play.add_argument("--games", type=int, required=True)
    play.add_argument("--seed", type=int, default=1)
    play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    clock = sub.add_parser("clock", help="simulate tables over weeks of a hand-moved clock; JSON last line")
    clock.add_argument("--tables", type=int, default=1000)
    clock.add_argument("--days", type=int, default=30)
    clock.add_argument("--seed", type=int, default=1)
    clock.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1),
                       help="processes, each a service with its own database (default: 2 or the cores)")
    clock.add_argument("--kill-every", type=int, default=0, metavar="N",
                       help="kill each process about every N-th step (a transaction or a message) at"
                       " random points and start it again on the same file (default 0: never)")
    talk = sub.add_parser(
        "chatter",
        help="play whole games through the cogs in SimCord, count the messages",
        description="Play whole games through the cogs in SimCord; the last line is JSON. forced_clicks:"
        " clicks on a lone move the game could have played (a re-deal of the hidden cards keeps it);"
        " forced_secret: lone moves asked because having a choice depends on a secret; written: a"
        " lone move carrying the player's words. rounds: the view's round, else cycles of the turns.",
    )
    talk.add_argument("--game", help="the kind to play (required unless --whole)")
    talk.add_argument("--players", type=int, default=2)
    talk.add_argument("--games", type=int, default=1)
    talk.add_argument("--seed", type=int, default=1)
    talk.add_argument("--moves", type=int, default=None, help="stop each game after this many decisions")
    talk.add_argument(
        "--budget", action="store_true",
        help="play the game's budget run (bench.chatter.BUDGETS) and exit 1 when a figure is over it",
    )
    talk.add_argument(
        "--whole", action="store_true",
        help="play one whole game of each kind (bench.chatter.WHOLE) with --seed; print a table per"
        " game (posts, pings, DMs, spectator DMs, clicks), then the JSON",
    )
    fight = sub.add_parser("arena", help="bots against bots, seats rotated; the last line is a JSON summary")
    fight.add_argument("--game", required=True, help="the kind to play")
    fight.add_argument("--players", type=int, required=True)
    fight.add_argument("--games", type=int, required=True)
    fight.add_argument("--seed", type=int, default=1)
    fight.add_argument("--seats", required=True, help="one level per seat, e.g. strong,basic,random")
    fight.add_argument("--budget", type=float, help="strong's thinking time per decision in seconds (1)")
    fight.add_argument(
        "--iterations", type=int, help="strong searches this many rounds instead of a time budget"
    )
    fight.add_argument("--horizon", type=int, help="strong's playout length in moves (default: per game)")
    fight.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    fight.add_argument("--cards", action="store_true", help="also print each card holder's win rate")
    fight.add_argument("--quiet", action="store_true", help="no progress line per game")
    coop = sub.add_parser("grid", help="a cooperative game: each level's win rate per scenario, difficulty")
    coop.add_argument("--game", required=True, help="the (cooperative) kind to play")
    coop.add_argument("--players", type=int, required=True)
    coop.add_argument("--levels", default="random,basic,strong", help="levels, each a table of its own")
    coop.add_argument("--games", required=True, help="games per cell: one number, or one per level")
    coop.add_argument("--seed", type=int, default=1)
    coop.add_argument("--budget", type=float, help="strong's thinking time per decision in seconds (1)")
    coop.add_argument("--axes", default="scenario,difficulty", help="the options whose values make the cells")
    coop.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="fix an option")
    film = sub.add_parser("replay", help="time a long random game's replay GIF; the last line is JSON")
    film.add_argument("--game", required=True, help="the kind to play")
    film.add_argument("--players", type=int, required=True)
    film.add_argument("--seed", type=int, default=1)
    film.add_argument("--frames", type=int, help="the frame cap (default: the service's)")
    film.add_argument("--runs", type=int, default=3, help="builds to time; the median is reported")
    pages = sub.add_parser("web", help="serve a table of each game to live viewers; the last line is JSON")
    pages.add_argument("--moves", type=int, default=20, help="moves played at each table")
    pages.add_argument("--viewers", type=int, default=100, help="live pages watching each table")
    pages.add_argument("--seed", type=int, default=1)
    burst = sub.add_parser("load", help="many tables moving at once through the service; JSON last line")
    burst.add_argument("--tables", type=int, default=200)
    burst.add_argument("--moves", type=int, default=10, help="moves per table")
    burst.add_argument("--game", default="argent", help="the kind every table plays (default argent)")
    burst.add_argument("--players", type=int, help="seats per table (default: the kind's maximum)")
    burst.add_argument(
        "--db",
        help="a store path or URL to open (default: a fresh temporary SQLite file); the words "
        "'postgresql' or 'sqlite' run several service processes on one fresh store instead",
    )
    burst.add_argument("--seed", type=int, default=1)
    burst.add_argument("--processes", type=int, default=1, help="service processes (--db postgresql|sqlite)")
    burst.add_argument("--url", help="a PostgreSQL server (default: a throwaway cluster)")
    burst.add_argument("--kill", action="store_true", help="SIGKILL one of the processes mid-run")
    return parser


def _options(pairs: list[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise RulesError(f"Write options as name=value, not `{pair}`.")
        options[name] = value
    return options


def _report_error(game: Playout) -> None:
    print(f"error in game seed {game.seed}: {game.error}", file=sys.stderr)


def run_selfplay(args: argparse.Namespace) -> int:
    """Play the games and print the JSON summary as the last line; 1 if any game failed."""
    rules = games.find(args.game)
    summary = selfplay(rules, args.players, args.games, args.seed, _options(args.option), _report_error)
    print(json.dumps(summary))
    return 0 if summary["errors"] == 0 else 1


def run_clock(args: argparse.Namespace) -> int:
    """Simulate tables over weeks and print the JSON summary last; 1 if anything stalled or was lost."""
    from bench.clocksim import report, run

    summary = run(args.tables, args.days, args.seed, max(1, args.workers), max(0, args.kill_every))
    print(report(summary))
    bad = (
        summary["stalled"] or summary["reminders_doubled"] or summary["reminders_missed"]
        or summary["undelivered"] or summary["set_aside"]
    )
    return 1 if bad else 0


def run_chatter(args: argparse.Namespace) -> int:
    """Play whole games through the cogs in SimCord and print the counts as JSON on the last line."""
    from bench.chatter import BUDGETS, over_budget, run, whole, whole_table

    if args.whole:
        report = whole(args.seed)
        print("\n".join(whole_table(report)))
        print(json.dumps(report))
        return 0 if report["errors"] == 0 else 1
    if not args.game:
        print("bench chatter: name a --game, or play every game with --whole", file=sys.stderr)
        return 2
    rules = games.find(args.game)
    if args.budget:
        budget = BUDGETS[rules.kind]
        summary = run(rules.kind, budget.players, 1, budget.seed, budget.moves)
        summary["over_budget"] = over_budget(summary, budget)
        print(json.dumps(summary))
        return 0 if summary["errors"] == 0 and not summary["over_budget"] else 1
    rules.check_players(args.players)
    summary = run(rules.kind, args.players, args.games, args.seed, args.moves)
    print(json.dumps(summary))
    return 0 if summary["errors"] == 0 else 1
def run_replay(args: argparse.Namespace) -> int:
    """Time one random game's replay GIF and print the JSON summary last; 2 if the game did not finish."""
    from bench.replay import run
    from service.replay import REPLAY_FRAMES

    rules = games.find(args.game)
    rules.check_players(args.players)
    try:
        summary = run(rules, args.players, args.seed, args.frames or REPLAY_FRAMES, args.runs)
    except ValueError as exc:
        print(f"bench: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(summary))
    return 0


def run_web(args: argparse.Namespace) -> int:
    """Serve real tables to live viewers, print the JSON summary last; 1 if any answer leaked."""
    import asyncio

    from bench.web import run

    summary = asyncio.run(run(args.moves, args.viewers, args.seed))
    print(json.dumps(summary))
    return 1 if summary["leaks"] else 0


def run_load(args: argparse.Namespace) -> int:
    """Move many tables at once through the service and print the JSON summary; 1 if a move was lost."""
    from bench.load import run

    if args.db in ("postgresql", "sqlite") or args.processes > 1 or args.kill:
        return _run_load_processes(args)
    rules = games.find(args.game)
    players = args.players or rules.max_players
    rules.check_players(players)
    summary = run(args.db, rules.kind, players, max(1, args.tables), max(1, args.moves), args.seed)
    print(json.dumps(summary))
    return 1 if summary["lost"] or summary["doubled"] else 0


def _run_load_processes(args: argparse.Namespace) -> int:
    """Several service processes on one store (bench/load_multi.py); 1 if anything was lost or doubled."""
    from bench import load_multi

    engine = args.db if args.db in ("postgresql", "sqlite") else "sqlite"
    if min(args.processes, args.tables, args.moves) < 1:
        raise SystemExit("bench: --processes, --tables and --moves must be at least 1")
    summary = load_multi.run(engine, args.processes, args.tables, args.moves, args.url, args.kill)
    print(json.dumps(summary))
    lost = summary["lost"] + summary["doubled"] + summary["reminders_doubled"] + summary["reminders_missed"]
    return 1 if lost else 0


def run_arena(args: argparse.Namespace) -> int:
    """Play bots against bots, print the table and the JSON summary; 1 if any game failed."""
    from bench.arena import ArenaGame, arena, format_report, summary

    rules = games.find(args.game)
    seats = [s.strip() for s in args.seats.split(",") if s.strip()]

    won: dict[str, float] = {}

    def progress(g: int, game: ArenaGame) -> None:
        # A running tally, so a long run that is stopped early still says how it stood.
        for seat, share in game.shares.items():
            won[game.levels[seat]] = won.get(game.levels[seat], 0.0) + share
        if not args.quiet:
            tally = ", ".join(f"{level} {share:g}" for level, share in sorted(won.items()))
            line = f"game {g + 1}/{args.games} done; wins so far: {tally or 'none'}"
            print(line, file=sys.stderr, flush=True)

    try:
        report = arena(
            rules,
            args.players,
            args.games,
            args.seed,
            seats,
            budget=args.budget,
            horizon=args.horizon,
            iterations=args.iterations,
            options=_options(args.option),
            progress=progress,
        )
    except ValueError as exc:
        print(f"bench: {exc}", file=sys.stderr)
        return 2
    if not args.cards:
        for game in report.games:
            game.held = {}
    for game in report.games:
        if game.error:
            print(f"error in game seed {game.seed}: {game.error}", file=sys.stderr)
    print(format_report(report))
    print(json.dumps(summary(report)))
    return 0 if summary(report)["errors"] == 0 else 1


def run_grid(args: argparse.Namespace) -> int:
    """Play each level's table in every cell, print the table and the JSON summary; 1 on any error."""
    from bench.grid import Cell, format_grid, grid, grid_json

    rules = games.find(args.game)
    levels = [s.strip() for s in args.levels.split(",") if s.strip()]
    counts = [int(n) for n in args.games.split(",")]
    counts = counts * len(levels) if len(counts) == 1 else counts

    def progress(cell: Cell) -> None:
        cell_name = "/".join(cell.options.values())
        print(f"{cell_name} {cell.level}: {cell.won:g}/{cell.games} won", file=sys.stderr, flush=True)

    axes = tuple(a for a in args.axes.split(",") if a)  # none: one cell, the options as fixed
    try:
        results = grid(rules, args.players, levels, counts, args.seed, axes=axes, budget=args.budget,
                       fixed=_options(args.option), progress=progress)
    except ValueError as exc:
        print(f"bench: {exc}", file=sys.stderr)
        return 2
    print(format_grid(rules, args.players, levels, results))
    summary = grid_json(rules, args.players, args.seed, args.budget, results)
    print(json.dumps(summary))
    return 0 if summary["errors"] == 0 else 1


def run_timings(args: argparse.Namespace) -> int:
    """Time every kind asked for (default: all) and print a block per kind."""
    kinds = args.kind or games.all_kinds()
    if not kinds:
        print("No game kinds are registered yet.")
        return 0
    failed = False
    engines: dict[str, dict] = {}
    for kind in kinds:
        rules = games.find(kind)
        players = args.players or rules.max_players
        report = measure(rules, players, args.seconds, args.seed, args.renders, args.writes)
        print(format_report(report, rules.title), flush=True)
        failed = failed or bool(report.errors)
        engines[kind] = figures(report)
    if args.json:
        print(json.dumps(_json_figures(args, engines)), flush=True)
        return 1 if failed else 0
    if "argent" in kinds:
        from bench.argent_board import report as argent_board

        print(argent_board(), flush=True)
    if "quadrivium" in kinds:
        from bench.quadrivium_conflicts import report as quadrivium_conflicts

        print(quadrivium_conflicts(), flush=True)
    return 1 if failed else 0


def _json_figures(args: argparse.Namespace, engines: dict[str, dict]) -> dict[str, dict]:
    """Time each kind's moves through the cogs and join them to its engine and drawing figures."""
    from bench import e2e

    out = {}
    for kind, engine in engines.items():
        if kind in games.unregistered_games():
            continue  # the bot does not offer the toy game: there is no table to play through the cogs
        timed = e2e.run(kind, engine["players"], args.e2e_moves, args.seed)
        out[kind] = {**engine, **e2e.summary(timed)}
        print(f"{kind}: {json.dumps(out[kind])}", file=sys.stderr, flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the bench; return the process exit code."""
    given = sys.argv[1:] if argv is None else argv
    if given[:1] == ["loadmp"]:  # several processes on one store: its own parser (bench/load_multi.py)
        from bench import load_multi

        return load_multi.main(given[1:])
    args = _parser().parse_args(argv)
    try:
        if args.command == "selfplay":
            return run_selfplay(args)
        if args.command == "clock":
            return run_clock(args)
        if args.command == "chatter":
            return run_chatter(args)
        if args.command == "arena":
            return run_arena(args)
        if args.command == "grid":
            return run_grid(args)
        if args.command == "replay":
            return run_replay(args)
        if args.command == "web":
            return run_web(args)
        if args.command == "load":
            return run_load(args)
        return run_timings(args)
    except RulesError as exc:
        print(f"bench: {exc.sentence}", file=sys.stderr)
        return 2
