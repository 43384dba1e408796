"""The games on offer: kinds, rules summaries and guides, option hints and card look-ups.

``Catalogue`` is the service's ``catalogue``; nothing here touches a table.
"""

from __future__ import annotations

import difflib

from rules import registry
from rules.contract import Rules, RulesError
from service import guide, reading
from service.clock import TABLE_OPTIONS
from service.loaded import MAX_CHOICES, VALUE_LIMIT, _clip
from service.replies import TableError


class Catalogue:
    """The registered games and their cards (``svc.catalogue``)."""

    def kinds(self) -> list[tuple[str, str]]:
        """Return every registered kind with its title."""
        return [(kind, registry.get(kind).title) for kind in registry.kinds()]

    def rules_for(self, kind: str) -> Rules:
        """Return the rules of a kind (by kind or title, any case), or raise TableError naming the games."""
        kinds = registry.kinds()
        titles = [registry.get(k).title for k in kinds]
        found = reading.kind_of(kind, kinds, titles)
        try:
            return registry.get(found or kind)
        except RulesError as exc:
            close = difflib.get_close_matches(kind.strip().casefold(), [k.casefold() for k in kinds], n=1)
            hint = f" Did you mean `{close[0]}`?" if close else ""
            raise TableError(exc.sentence + hint) from None

    @staticmethod
    def check_option_names(rules: Rules, chosen: dict[str, str]) -> None:
        """Refuse an option the game and the table do not have, listing those they do (and the closest)."""
        known = [o.name for o in rules.options] + [o.name for o in TABLE_OPTIONS]
        for name in chosen:
            if name not in known:
                close = difflib.get_close_matches(name.casefold(), known, n=1)
                hint = f" Did you mean `{close[0]}`?" if close else ""
                said = f"{rules.title} has no option called `{_clip(name, 40)}`.{hint}"
                raise TableError(f"{said} Its options: {', '.join(known)}.")

    def rules_summary(self, kind: str) -> str:
        """Return a short summary of a game: players, options and where its rulebook is."""
        rules = self.rules_for(kind)
        summary = getattr(rules, "summary", "") or (type(rules).__doc__ or "").strip().splitlines()[0]
        lines = [f"**{rules.title}** (`{rules.kind}`)"]
        if summary:
            lines.append(summary)
        if rules.min_players == rules.max_players:
            players = f"{rules.min_players}"
        else:
            players = f"{rules.min_players}-{rules.max_players}"
        lines.append(f"Players: {players}{' (cooperative)' if rules.cooperative else ''}.")
        for option in rules.options:
            choices = ", ".join(option.choices)
            default = option.default
            lines.append(f"Option `{option.name}`: {option.description} ({choices}; default {default}).")
        if rules.rulebook:
            lines.append(f"Rulebook: `{rules.rulebook}`.")
        return "\n".join(lines)

    def rules_guide(self, kind: str) -> guide.RulesGuide:
        """Return a game's how-to-play summary and the guide file(s) to attach."""
        return guide.guide(self.rules_for(kind))

    def option_hints(self, kind: str, typed: str = "") -> list[str]:
        """Suggest option strings for /game new: the typed pairs plus one more ``name=value``."""
        try:
            rules = self.rules_for(kind)
        except TableError:
            return []
        words = typed.split()
        # The last word is still being typed unless it is a whole pair followed by a space.
        done = words if typed.endswith(" ") else words[:-1]
        partial = "" if typed.endswith(" ") or not words else words[-1]
        named = {w.partition("=")[0] for w in done}
        head = " ".join(done)
        hints = [typed.strip()] if typed.strip() else []
        for option in rules.options:
            if option.name in named:
                continue
            for choice in option.choices:
                pair = f"{option.name}={choice}"
                if pair.startswith(partial):
                    hints.append(f"{head} {pair}".strip())
        unique = list(dict.fromkeys(h for h in hints if len(h) <= VALUE_LIMIT))
        return unique[:MAX_CHOICES]

    def card_names(self, typed: str = "", kind: str | None = None) -> list[str]:
        """Return up to 25 card names matching the typed text, from games that expose cards."""
        wanted = typed.strip().casefold()
        names = [name for name, _ in self._card_entries(kind) if wanted in name.casefold()]
        return names[:MAX_CHOICES]

    def card(self, name: str, kind: str | None = None) -> str:
        """Return the lookup text of one card, or a sentence saying there is no such card.

        An exact name found in no game here (another game's card, or a card named without its
        game in a plain channel) is found in every game, and the answer says which game it is from.
        """
        entries = self._card_entries(kind)
        wanted = name.strip().casefold()
        for entry_name, text in entries:
            if entry_name.casefold() == wanted:
                return text
        elsewhere = [(title, text) for title, bare, text in self._every_card() if bare.casefold() == wanted]
        if elsewhere:
            return "\n\n".join(f"A card of {title}:\n{text}" for title, text in elsewhere)
        if not entries:
            return "No game here has cards to look up yet."
        close = [n for n, _ in entries if wanted and wanted in n.casefold()]
        if close:
            return "No card by that exact name. Did you mean: " + ", ".join(close[:5]) + "?"
        return f"No card called `{_clip(name, 60)}`."

    def _card_entries(self, kind: str | None) -> list[tuple[str, str]]:
        """Collect (name, text) of every card of the kind (or of every kind) whose rules index cards."""
        return [(name if kind else f"{name} ({title})", text)
                for title, name, text in self._every_card([kind] if kind else None)]

    def _every_card(self, kinds: list[str] | None = None) -> list[tuple[str, str, str]]:
        """Collect (game title, card name, text) of every card of the kinds (all by default)."""
        entries: list[tuple[str, str, str]] = []
        for each in kinds or registry.kinds():
            rules = self.rules_for(each)
            index = getattr(rules, "card_index", None)
            if index is not None:
                entries.extend((rules.title, name, text) for name, text in index().items())
        return entries
