"""``unokit eval``: measure a bot on fixed suites with the protocol ``unokit-eval/1`` (extra
``eval``); see :mod:`unokit.eval.protocol` and ``docs/research.md``."""
