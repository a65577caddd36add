"""Arenas (``docs/arena.md``): timed events in which whoever joins is seated as soon as enough
players are free, scores by finishing place with a streak bonus, and climbs the standings. The
rules are :mod:`.rules`' (pure)."""
