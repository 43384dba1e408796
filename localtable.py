"""The local table: the real bot and cogs against SimCord (offline Discord), in a terminal.

Several local users type slash commands and use buttons and selects; every bot message in the
channel and the table threads, every ephemeral answer and every DM is printed, and every posted
file is saved under ``out/``. Lines look like::

    alice: /game new kind:institute options:goal=25
    bob: /game join
    alice: /game start
    bob: moves                      (bob's legal moves here, numbered, as /game play offers them)
    bob: play 2                     (play the second move of bob's last list)
    bob: /game play move:Take Stones on die 1
    alice: click My private view    (a button by its label, or by its number: alice: click 1)
    alice: select 2 1               (option 1 of numbered select 2; or the option's label)
    wait 2d                         (move the bot's clock: 2d, 3h, 1d 6h, 90m; deadlines pass)
    users | channels | go 2 | restart | help | quit

Run it with ``python bot.py`` (no DISCORD_TOKEN), ``python bot.py --script FILE``, or pipe lines
into stdin. Each run starts a fresh world and a fresh database (``out/local.db``) unless
``--db`` names another file. The tables' web pages are served on 127.0.0.1 (``--web PORT``,
default 8080, or any free port when it is taken; ``--web off``) and their address is printed:
``/game web`` hands out links to them.

The bot comes from ``bot.py``, which hands in its factory (``make_bot``): ``bot.main`` opens this
table when there is no token, so this module does not import it back.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import shlex
import socket
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
import simcord
from simcord.results import to_discord_message

from service.clock import ManualClock, parse_span, span
from web import WebConfig

if TYPE_CHECKING:
    from bot import ConclaveBot

BotFactory = Callable[..., "ConclaveBot"]
"""``bot.create_bot``: builds the bot for a database path (``clock``, ``seed_source``, ``web_config``)."""

USERS = ("alice", "bob", "carol", "dave", "eve")
SETTLE_SECONDS = 60.0
"""How long the local table waits for the bot to finish answering one line."""
LOCAL_HELP = __doc__.split("::", 1)[1].split("Run it with", 1)[0].rstrip() if __doc__ else ""
_LINE = re.compile(r"^(?P<user>\w+)\s*:\s*(?P<rest>.*)$")
_OPTION = re.compile(r"(?:^|\s)(?P<name>[a-z_]+):")


@dataclass
class Control:
    """A numbered button or select on a printed message."""

    message_id: int
    channel_id: int
    kind: str
    custom_id: str
    label: str
    options: list[tuple[str, str]]


class LocalTable:
    """One local world: a guild with a #tables channel and five users, and what they have seen."""

    def __init__(
        self,
        env: simcord.Env,
        out_dir: Path,
        db_path: str,
        echo: Callable[[str], None],
        clock: ManualClock | None = None,
        *,
        bot: ConclaveBot,
        make_bot: BotFactory,
    ) -> None:
        self.env = env
        self.bot = bot
        """The bot running now (a restart builds another with ``make_bot``)."""
        self.make_bot = make_bot
        self.clock = clock or ManualClock(time.time())
        self.out_dir = out_dir
        self.db_path = db_path
        self.echo = echo
        guild = env.create_guild("Conclave (local)")
        self.channel = guild.create_text_channel("tables")
        managers = guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
        self.members = {
            name: guild.add_member(env.create_user(name), roles=[managers] if name == "alice" else [])
            for name in USERS
        }
        self.names = {m.id: name for name, m in self.members.items()}
        self.current = self.channel
        self.seen: dict[int, tuple] = {}
        self.controls: list[Control] = []
        self.listed: dict[str, list[str]] = {}
        self.forms: dict[str, tuple[Any, Any]] = {}
        """Each user's open form (a Discord modal): the interaction that opened it and who fills it."""
        self.failures = 0

    # ------------------------------------------------------------------ input

    async def handle(self, line: str) -> bool:
        """Carry out one typed line; return False to stop."""
        line = line.strip()
        if not line or line.startswith("#"):
            return True
        word = line.split()[0].lower()
        if word in ("quit", "exit"):
            return False
        if word == "help":
            self.echo(LOCAL_HELP)
        elif word == "users":
            self.echo("Users: " + ", ".join(USERS) + " (alice has Manage Server).")
        elif word == "channels":
            self._list_channels()
        elif word == "go":
            self._go(line[2:].strip())
        elif word == "restart":
            await self._restart()
        elif word == "wait":
            await self._wait(line[4:].strip())
        else:
            match = _LINE.match(line)
            if match is None or match["user"] not in self.members:
                self.echo("! Start with a user (alice, bob, carol, dave, eve), e.g. `bob: /game join`.")
                self.failures += 1
                return True
            await self._act(match["user"], match["rest"].strip())
        self.flush()
        return True

    async def _act(self, user: str, rest: str) -> None:
        try:
            if rest.startswith("/"):
                await self._slash(user, rest[1:])
            elif rest.startswith("click "):
                await self._click(user, rest[6:].strip())
            elif rest.startswith("select "):
                await self._select(user, rest[7:].strip())
            elif rest.split()[:1] == ["moves"]:
                await self._moves(user, rest[5:].strip())
            elif rest.split()[:1] == ["play"]:
                await self._play(user, rest[4:].strip())
            elif rest.split()[:1] == ["fill"]:
                await self._fill(user, rest[4:].strip())
            else:
                self.echo("! Type a slash command (/game ...), click, select, fill, moves or play.")
                self.failures += 1
        except (simcord.SetupError, simcord.OptionError, ValueError) as exc:
            self.echo(f"! {exc}")
            self.failures += 1
        except TimeoutError:
            # The bot may still finish later; the session goes on with the next line.
            self.echo(f"! The bot took more than {SETTLE_SECONDS:g} s to answer that line.")
            self.failures += 1

    async def _slash(self, user: str, text: str) -> None:
        name, text_options = parse_slash(text)
        options = typed_options(self.env.bot.tree, name, text_options)
        member = self.members[user]
        # A table opens from the text channel: its thread cannot hold another thread.
        where = self.channel if name.startswith("game new") else self.current
        before = {t.id for t in self.channel.threads}
        self._opened(user, member, await member.slash(where, name, **options))
        fresh = [t for t in self.channel.threads if t.id not in before]
        if fresh:
            self.current = fresh[-1]
            self.echo(f"(now in #{self.current.name})")

    async def _moves(self, user: str, typed: str) -> None:
        choices = await self.members[user].autocomplete(self.current, "game play", "move", typed)
        self.listed[user] = [c["value"] for c in choices]
        if not choices:
            self.echo(f"[only {user} sees] (no moves for you here)")
        for number, choice in enumerate(choices, start=1):
            self.echo(f"[only {user} sees] {number}) {choice['name']}   (move:{choice['value']})")

    async def _play(self, user: str, ref: str) -> None:
        listed = self.listed.get(user, [])
        if not ref.isdigit() or not 0 < int(ref) <= len(listed):
            raise ValueError(f"Type `{user}: moves` first, then `{user}: play N` with N from that list.")
        member = self.members[user]
        self._opened(user, member, await member.slash(self.current, "game play", move=listed[int(ref) - 1]))

    def _control(self, ref: str, user: str, kind: str) -> Control:
        if ref.isdigit():
            index = int(ref) - 1
            if not 0 <= index < len(self.controls) or self.controls[index].kind != kind:
                raise ValueError(f"There is no {kind} number {ref}.")
            return self.controls[index]
        # By label: the latest such control the user can see.
        for control in reversed(self.controls):
            named = control.kind == kind and control.label.casefold() == ref.casefold()
            if named and self._visible(control, user):
                return control
        raise ValueError(f"No {kind} labelled {ref!r} that {user} can see.")

    def _visible(self, control: Control, user: str) -> bool:
        message = self._message(control)
        if message is None:
            return False
        if isinstance(message.channel, discord.DMChannel | discord.PartialMessageable):
            dm = self.members[user].user.dm_channel.id
            return control.channel_id == dm
        meta = message.interaction_metadata
        return not message.flags.ephemeral or (meta is not None and meta.user.id == self.members[user].id)

    def _message(self, control: Control) -> discord.Message | None:
        for message in self._channel_history(control.channel_id):
            if message.id == control.message_id:
                return message
        return None

    def _actor(self, user: str, control: Control) -> Any:
        member = self.members[user]
        return member.user if control.channel_id == member.user.dm_channel.id else member

    async def _click(self, user: str, ref: str) -> None:
        control = self._control(ref, user, "button")
        message = self._message(control)
        if message is None:
            raise ValueError("That message is gone.")
        actor = self._actor(user, control)
        self._opened(user, actor, await actor.click(message, custom_id=control.custom_id))

    async def _select(self, user: str, ref: str) -> None:
        number, _, wanted = ref.partition(" ")
        control = self._control(number, user, "select")
        message = self._message(control)
        if message is None:
            raise ValueError("That message is gone.")
        values = []
        for item in shlex.split(wanted) or ["1"]:
            if item.isdigit() and 0 < int(item) <= len(control.options):
                values.append(control.options[int(item) - 1][1])
                continue
            found = [v for label, v in control.options if item.casefold() in (label.casefold(), v.casefold())]
            if not found:
                raise ValueError(f"Select {number} has no option {item!r}.")
            values.append(found[0])
        actor = self._actor(user, control)
        self._opened(user, actor, await actor.select(message, values, custom_id=control.custom_id))

    def _opened(self, user: str, actor: Any, result: Any) -> None:
        """Show a form the interaction opened (a Discord modal) and keep it for ``fill``."""
        modal = getattr(result, "modal", None)
        if modal is None:
            return
        self.forms[user] = (result, actor)
        self.echo(f"[only {user} sees] form: {modal.get('title', '')}")
        example = []
        for field in form_fields(modal):
            need = "required" if field.get("required", True) else "optional"
            key = field["custom_id"].rsplit(":", 1)[-1]
            self.echo(f"    {key}: {field.get('label', '')} ({need})")
            example.append(f'{key}="…"')
        self.echo(f"    (fill it: `{user}: fill {' '.join(example)}`)")

    async def _fill(self, user: str, text: str) -> None:
        """Submit the user's open form with ``key=value`` pairs (quote a value with spaces)."""
        if user not in self.forms:
            raise ValueError(f"{user} has no form open: a button or command opens one.")
        result, actor = self.forms[user]
        fields = {f["custom_id"].rsplit(":", 1)[-1]: f["custom_id"] for f in form_fields(result.modal)}
        values: dict[str, str] = {}
        for pair in shlex.split(text):
            key, sep, value = pair.partition("=")
            if not sep or key not in fields:
                raise ValueError(f"Fill the form as key=\"value\"; its keys: {', '.join(fields)}.")
            values[fields[key]] = value
        del self.forms[user]
        await actor.submit_modal(result, values)

    def _list_channels(self) -> None:
        for number, channel in enumerate([self.channel, *self.channel.threads], start=1):
            here = " (here)" if channel.id == self.current.id else ""
            self.echo(f"  {number}. #{channel.name}{here}")

    def _go(self, ref: str) -> None:
        channels = [self.channel, *self.channel.threads]
        chosen = None
        if ref.isdigit() and 0 < int(ref) <= len(channels):
            chosen = channels[int(ref) - 1]
        else:
            wanted = ref.lstrip("#").casefold()
            chosen = next((c for c in channels if (c.name or "").casefold() == wanted), None)
        if chosen is None:
            self.echo("! No such channel; `channels` lists them.")
            self.failures += 1
            return
        self.current = chosen
        self.echo(f"(now in #{chosen.name})")

    async def _wait(self, text: str) -> None:
        try:
            seconds = parse_span(text)
        except ValueError as exc:
            self.echo(f"! {exc}")
            self.failures += 1
            return
        self.clock.advance(seconds)
        await self.env.settle()
        when = datetime.fromtimestamp(self.clock.now(), UTC).strftime("%a %d %b %H:%M UTC")
        self.echo(f"(the clock moved {span(seconds)}; it is now {when})")

    async def _restart(self) -> None:
        new = self.make_bot(self.db_path, clock=self.clock)
        await self.env.restart_bot(new)
        old, self.bot = self.bot, new
        await old.close_store()
        self.echo("(the bot restarted; its buttons and selects still work)")

    # ------------------------------------------------------------------ output

    def _channels(self) -> list[tuple[int, str]]:
        found = [(self.channel.id, "#tables")]
        found += [(t.id, f"#{t.name}") for t in self.channel.threads]
        found += [(m.user.dm_channel.id, f"DM to {name}") for name, m in self.members.items()]
        return found

    def _channel_history(self, channel_id: int) -> list[discord.Message]:
        """Every message of a channel, ephemeral ones included (the narrator sees all)."""
        stored = self.env.backend.messages.get(channel_id, {})
        return [to_discord_message(self.env, stored[i]) for i in sorted(stored)]

    def flush(self) -> None:
        """Print every bot message that is new or changed since the last flush."""
        bot_id = self.env.bot.user.id if self.env.bot.user else None
        for channel_id, place in self._channels():
            for message in self._channel_history(channel_id):
                if message.author.id != bot_id:
                    continue
                signature = (message.content, len(message.attachments), repr(message.components))
                before = self.seen.get(message.id)
                if before == signature:
                    continue
                self.seen[message.id] = signature
                if before is not None and before[:2] == signature[:2] and not message.components:
                    # A closed table's last board loses its buttons: say so, don't show it again.
                    self.echo(f"[{place}] (an earlier message's buttons were removed)")
                    continue
                if not message.content and not message.attachments and not message.components:
                    continue  # an answer still "thinking"
                self._print(message, channel_id, place)

    def _print(self, message: discord.Message, channel_id: int, place: str) -> None:
        if message.flags.ephemeral and message.interaction_metadata is not None:
            who = self.names.get(message.interaction_metadata.user.id, "someone")
            head = f"[only {who} sees]"
        elif place.startswith("DM to"):
            head = f"[{place}]"
        else:
            head = f"[{place}] bot:"
        text = self._readable(message.content)
        lines = text.splitlines() or [""]
        self.echo(f"{head} {lines[0]}")
        for line in lines[1:]:
            self.echo(f"    {line}")
        for attachment in message.attachments:
            self.echo(f"    (file saved: {self._save(attachment, message.id)})")
        for row in message.components:
            for item in getattr(row, "children", [row]):
                self._number(item, message, channel_id)

    def _number(self, item: Any, message: discord.Message, channel_id: int) -> None:
        if isinstance(item, discord.Button) and item.custom_id:
            self.controls.append(
                Control(message.id, channel_id, "button", item.custom_id, item.label or "", [])
            )
            self.echo(f"    [{len(self.controls)}] button: {item.label}")
        elif isinstance(item, discord.SelectMenu) and item.custom_id:
            options = [(o.label, o.value) for o in item.options]
            self.controls.append(
                Control(message.id, channel_id, "select", item.custom_id, item.placeholder or "", options)
            )
            self.echo(f"    [{len(self.controls)}] select ({item.placeholder or 'choose'}):")
            for n, (label, _) in enumerate(options, start=1):
                self.echo(f"        {n}) {label}")

    def _save(self, attachment: discord.Attachment, message_id: int) -> str:
        data = self.env.backend.cdn.get(attachment.url) or b""
        self.out_dir.mkdir(parents=True, exist_ok=True)
        path = self.out_dir / f"{message_id}-{attachment.filename}"
        path.write_bytes(data)
        return str(path)

    def _readable(self, text: str) -> str:
        text = re.sub(r"<@!?(\d+)>", lambda m: "@" + self.names.get(int(m[1]), m[1]), text)
        threads = {t.id: t.name for t in self.channel.threads}
        return re.sub(r"<#(\d+)>", lambda m: "#" + str(threads.get(int(m[1]), m[1])), text)


def form_fields(modal: dict[str, Any]) -> list[dict[str, Any]]:
    """Return a modal's text inputs (each row holds one)."""
    return [item for row in modal.get("components", []) for item in row.get("components", [])]


def parse_slash(text: str) -> tuple[str, dict[str, str]]:
    """Split ``game play move:Choose sigil 5`` into the command name and its options."""
    first = _OPTION.search(text)
    name = (text[: first.start()] if first else text).strip()
    options: dict[str, str] = {}
    if first:
        marks = list(_OPTION.finditer(text))
        for mark, after in zip(marks, [*marks[1:], None], strict=True):
            end = after.start() if after else len(text)
            value = text[mark.end() : end].strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                value = value[1:-1]
            options[mark["name"]] = value
    if not name:
        raise ValueError("Name a command, e.g. /game join.")
    return name, options


NUMERIC = (discord.AppCommandOptionType.integer, discord.AppCommandOptionType.number)


def typed_options(
    tree: discord.app_commands.CommandTree, name: str, options: dict[str, str]
) -> dict[str, Any]:
    """Return the options with numbers as numbers, as a Discord client sends an integer option.

    A value that does not read as a number stays text, so the command answers it as Discord would.
    """
    command: Any = tree.get_command(name.split()[0])
    for part in name.split()[1:]:
        command = command.get_command(part) if isinstance(command, discord.app_commands.Group) else None
    if not isinstance(command, discord.app_commands.Command):
        return dict(options)
    kinds = {p.name: p.type for p in command.parameters}
    typed: dict[str, Any] = {}
    for key, value in options.items():
        kind = kinds.get(key)
        try:
            typed[key] = int(value) if kind is NUMERIC[0] else float(value) if kind is NUMERIC[1] else value
        except ValueError:
            typed[key] = value
    return typed


async def run_session(
    lines: Iterable[str] | None,
    *,
    make_bot: BotFactory,
    out_dir: Path,
    db_path: Path,
    echo: Callable[[str], None] = print,
    seed_source: Callable[[], int] | None = None,
    web_port: int | None = None,
) -> int:
    """Run a local session from lines (None: read the terminal) with a bot ``make_bot`` builds;
    return the number of failed lines.

    ``web_port`` serves the web pages on 127.0.0.1 (0: any free port; None: no web pages).
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    clock = ManualClock(time.time())
    web_config = None if web_port is None else WebConfig("127.0.0.1", web_port)
    bot = make_bot(str(db_path), seed_source=seed_source, clock=clock, web_config=web_config)
    # A person at a terminal never minds a slow answer: a busy machine must not end the session.
    async with simcord.run(bot, check_errors=False, settle_timeout=SETTLE_SECONDS) as env:
        table = LocalTable(env, out_dir, str(db_path), echo, clock, bot=bot, make_bot=make_bot)
        echo("Conclave local table: users alice, bob, carol, dave, eve in #tables. Type `help`.")
        if bot.web is not None:
            echo(f"Web pages: {bot.web.url} (`/game web` in a table's thread gives its links).")
        try:
            if lines is None:
                while await table.handle(await _prompt()):
                    pass
            else:
                for line in lines:
                    if line.strip() and not line.lstrip().startswith("#"):
                        echo(f"> {line.rstrip()}")
                    if not await table.handle(line):
                        break
            for error in env.errors:
                echo(f"! bot error: {error!r}")
        finally:
            current = table.bot
    await current.close_store()
    return table.failures + len(env.errors)


async def _prompt() -> str:
    try:
        return await asyncio.to_thread(input, "> ")
    except EOFError:
        return "quit"


def main(argv: list[str], make_bot: BotFactory) -> int:
    """Parse the local table's arguments and run it with the bot ``make_bot`` builds."""
    parser = argparse.ArgumentParser(prog="bot.py", description="Conclave's local table (no Discord token).")
    parser.add_argument("--script", type=Path, help="read lines from this file instead of the terminal")
    parser.add_argument("--out", type=Path, default=Path("out"), help="where posted files are saved")
    parser.add_argument("--db", type=Path, help="database file (default: a fresh out/local.db each run)")
    parser.add_argument("--web", default="8080", help="the web pages' local port, or off (default 8080)")
    args = parser.parse_args(argv)
    db_path = args.db or args.out / "local.db"
    if args.db is None:
        # A fresh world each run: old tables would point at threads that no longer exist.
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db_path}{suffix}").unlink(missing_ok=True)
    if args.script is not None:
        lines: list[str] | None = args.script.read_text().splitlines()
    elif not sys.stdin.isatty():
        lines = sys.stdin.read().splitlines()
    else:
        lines = None
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (line editing and history for input())
    web_port = None if args.web == "off" else _free_or_any(int(args.web))
    session = run_session(lines, make_bot=make_bot, out_dir=args.out, db_path=db_path, web_port=web_port)
    failures = asyncio.run(session)
    return 1 if failures and lines is not None else 0


def _free_or_any(port: int) -> int:
    """Return the port when nothing listens on it on 127.0.0.1, else 0 (any free port)."""
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return 0
    return port
