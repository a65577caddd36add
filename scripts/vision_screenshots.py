"""Screenshots of the cards and of a table as colour-blind eyes and forced colours see them.

    .venv/bin/python scripts/vision_screenshots.py [--out docs/screenshots/vision]

For Classic UNO and UNO Flip (the two schemes of colour-blind marks, docs/accessibility.md): each
deck's faces (``cards-VARIANT-EYE.png``) and a table at a turn (``table-classic-EYE.png``) under
Chromium's emulation of protanopia, deuteranopia, tritanopia and achromatopsia (the DevTools
Protocol's ``Emulation.setEmulatedVisionDeficiency``) and under forced colours (Windows high
contrast: Playwright's ``forced_colors="active"``), beside the plain view. Every colour must still
be told by its mark and its word.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.web.player import create_room, new_page, start_game, until_your_turn  # noqa: E402

from web_screenshots import CARD_SHEET, server, settle  # noqa: E402

#: The emulations, by the name in a file: a vision deficiency of the DevTools Protocol, or
#: forced colours.
EYES = ("none", "protanopia", "deuteranopia", "tritanopia", "achromatopsia", "forced")


def looking(browser: Browser, eye: str) -> Page:
    """A phone page as ``eye`` sees it."""
    page = new_page(browser, "phone", forced_colors="active" if eye == "forced" else "none")
    if eye not in ("none", "forced"):
        session = page.context.new_cdp_session(page)
        session.send("Emulation.setEmulatedVisionDeficiency", {"type": eye})
    return page


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots/vision"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with server() as url, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for eye in EYES:
            page = looking(browser, eye)
            page.goto(f"{url}/")
            page.wait_for_selector("#create-room")
            for variant in ("classic", "flip"):
                page.evaluate(CARD_SHEET, variant)
                settle(page)
                page.screenshot(path=str(args.out / f"cards-{variant}-{eye}.png"), full_page=True)
            create_room(page, url, name="Ann", variant="classic", players=2, bots=1)
            start_game(page)
            until_your_turn(page)
            settle(page)
            page.screenshot(path=str(args.out / f"table-classic-{eye}.png"))
            page.context.close()
            print(f"{eye}: cards-classic-{eye}.png, cards-flip-{eye}.png, table-classic-{eye}.png")
        browser.close()


if __name__ == "__main__":
    main()
