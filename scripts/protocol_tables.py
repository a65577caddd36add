"""Write the tables of docs/protocol.md that are made from the protocol's declarations: the
client and the server messages with their fields (:mod:`unokit.server.messages`) and the room
log's entries (:mod:`unokit.server.entries`).

    python scripts/protocol_tables.py          # rewrite them in place
    python scripts/protocol_tables.py --check  # exit 1 when the page does not hold them as made
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from unokit.server import entries, messages
from unokit.server.shapes import splice

PAGE = Path(__file__).resolve().parents[1] / "docs" / "protocol.md"


def tables() -> dict[str, str]:
    """Every generated table of the page, by its marks' name."""
    return {**messages.markdown_tables(), **entries.markdown_tables()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether the page is up to date")
    args = parser.parse_args()
    page = PAGE.read_text(encoding="utf-8")
    made = splice(page, tables())
    if args.check:
        if made != page:
            print(f"{PAGE} does not hold the tables made from the declarations: run {sys.argv[0]}")
            return 1
        return 0
    PAGE.write_text(made, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
