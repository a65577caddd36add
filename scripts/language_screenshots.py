"""Screenshots of the browser client in Russian (``--lang zh-Hans``, ``--lang tr``: Chinese,
Turkish) for docs/i18n.md: the lobby on a phone held upright (390x844) and at a desk
(1280x800), and an UNO Attack table of three people (Ann at the desk hosting, Боря on a phone,
Света on a phone held sideways) and a bot, each on that player's own turn, all in browsers set
to ru-RU (zh-CN, tr-TR).

    .venv/bin/python scripts/language_screenshots.py [--out docs/screenshots]

Uses the server, room and play helpers of ``scripts/web_screenshots.py`` (its own ``unokit
serve`` on a free port, Debian's Chromium). Files: ``lobby_ru-390.png``, ``lobby_ru-1280.png``,
``attack_ru-390.png``, ``attack_ru-844.png``, ``attack_ru-1280.png``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.web.player import new_page, wait_until  # noqa: E402

import web_screenshots as shots  # noqa: E402

#: Each language shot: the browser's locale, the files' tag (``lobby_ru-390.png``) and the names
#: of the two players who join from phones.
LANGUAGES = {
    "ru": ("ru-RU", "ru", ("Боря", "Света")),
    "zh-Hans": ("zh-CN", "zh", ("小红", "阿强")),
    "tr": ("tr-TR", "tr", ("Burak", "Gül")),
}
SCREENS = {"phone": 390, "laptop": 1280}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--lang", choices=sorted(LANGUAGES), default="ru", help="the language (default: ru)")
    args = parser.parse_args()
    locale, tag, (first, second) = LANGUAGES[args.lang]
    args.out.mkdir(parents=True, exist_ok=True)
    with shots.server() as url, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for screen, width in SCREENS.items():
            page = new_page(browser, screen, locale=locale)
            page.goto(f"{url}/")
            page.wait_for_selector("#create-room")
            shots.settle(page)
            page.screenshot(path=str(args.out / f"lobby_{tag}-{width}.png"))
            page.context.close()
        desk, phone, side = (new_page(browser, s, locale=locale) for s in ("laptop", "phone", "phone-landscape"))
        code = shots.create(desk, url, "attack")
        shots.join(phone, url, code, first)
        shots.join(side, url, code, second)
        wait_until(desk, "document.querySelectorAll('.waiting > ol.seat-list > li[data-kind=human]').length === 3")
        desk.click("#start-game")
        for page in (desk, phone, side):
            page.wait_for_selector(".hand-card")
        tables = {f"attack_{tag}-390.png": phone, f"attack_{tag}-844.png": side, f"attack_{tag}-1280.png": desk}
        shots.shoot_on_turns({str(args.out / name): page for name, page in tables.items()}, 3)
        browser.close()
    names = [f"lobby_{tag}-390.png", f"lobby_{tag}-1280.png", *tables]
    print(f"screenshots in {args.out}: {', '.join(names)}")


if __name__ == "__main__":
    main()
