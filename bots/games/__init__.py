"""Per-game playbooks: a module named after a game's kind registers what the bots know of it."""
