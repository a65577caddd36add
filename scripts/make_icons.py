"""The PNG icons of the browser client, drawn from its SVG icons by Debian's Chromium: the app
icon at 192 and 512 pixels and the maskable one at 512 (``static/icons/``). Run it after
changing an SVG icon:

    .venv/bin/python scripts/make_icons.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

ICONS = ROOT / "src" / "unokit" / "server" / "static" / "icons"
#: (the SVG, the PNG made from it, its size in pixels)
RENDERS = (
    ("icon.svg", "icon-192.png", 192),
    ("icon.svg", "icon-512.png", 512),
    ("icon-maskable.svg", "icon-maskable-512.png", 512),
)


def main() -> None:
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for svg, png, size in RENDERS:
            page = browser.new_page(viewport={"width": size, "height": size})
            markup = (ICONS / svg).read_text(encoding="utf-8")
            page.set_content(f"<body style='margin:0;background:transparent'>{markup}</body>")
            page.eval_on_selector(
                "svg", f"s => {{ s.setAttribute('width', {size}); s.setAttribute('height', {size}); }}"
            )
            page.screenshot(
                path=str(ICONS / png), omit_background=True, clip={"x": 0, "y": 0, "width": size, "height": size}
            )
            page.close()
            print(f"{png}: {size}x{size}")
        browser.close()


if __name__ == "__main__":
    main()
