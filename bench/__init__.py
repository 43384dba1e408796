"""Benchmarks: timings of every registered game and of the store, and random self-play.

``python -m bench`` times each kind; ``python -m bench selfplay --game KIND ...`` plays seeded
random legal games and ends with one JSON line. See ``bench.cli``.
"""
