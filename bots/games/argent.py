"""What the bots know of Argent: ``basic``'s look-ahead and ``strong``'s sampled search, registered.

The evaluator and the look-ahead live in ``argent_lookahead``; the search, which builds on them, in
``argent_search``. This module only registers both, so neither imports the other's importer.
"""

from __future__ import annotations

from bots.core import Playbook, register
from bots.games.argent_lookahead import evaluate_state, heuristic
from bots.games.argent_search import search

PLAYBOOK = register("argent", Playbook(heuristic=heuristic, evaluate=evaluate_state, search=search))
