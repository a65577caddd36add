"""``unokit dataset``: expert games as unokit records and Parquet training tables (extra
``dataset``); see :mod:`unokit.dataset.builder` and ``docs/research.md``."""
