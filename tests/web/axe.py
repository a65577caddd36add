"""axe-core's WCAG rules on a page as the browser tests check it (docs/accessibility.md)."""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from .player import wait_until

#: axe-core's rules for WCAG 2.0, 2.1 and 2.2, levels A and AA.
AXE_OPTIONS: dict[str, Any] = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]},
    "resultTypes": ["violations"],
}

AXE = Axe()


#: True once no animation or transition runs on the page (cards dealt or played are in place).
AT_REST = "document.getAnimations().every(animation => animation.playState !== 'running')"


def violations(page: Page, where: str) -> list[str]:
    """What axe-core finds on the page once it is at rest, one line per rule broken. (Checked
    while the dealt cards were still flying in, the hand's buttons overlapped and axe said
    their targets were too small; at rest they are not.)"""
    wait_until(page, AT_REST)
    found = AXE.run(page, options=AXE_OPTIONS).response["violations"]
    return [f"{where}: {v['id']} ({v['help']}) at {[n['target'] for n in v['nodes']][:4]}" for v in found]
