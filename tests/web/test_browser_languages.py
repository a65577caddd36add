"""Every page in its reader's language.

- A whole game in a ru-RU browser: the page is ``<html lang="ru">`` and, read back at every
  step, speaks Russian and shows no engine identifier.
- The pseudo-language ``en-XA`` (every message accented and 40% longer, marked ``[…~]``):
  every screen (lobby, waiting room, table, game over, score sheet, launcher, replay) has no
  text outside the catalogue and no text clipped by its box.
- Two readers of one room read it in two languages.

Every variant in Russian is ``UNOKIT_TEST_ALL=1`` (``make test-all``); ``make test`` plays one.
"""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from playwright.sync_api import Browser, Page

from unokit.core.variants import VARIANT_NAMES
from unokit.i18n import LANGUAGES
from unokit.i18n.lines import words
from unokit.server.room import DEFAULT_NAMES_LANG, bot_names_for

from ..helpers import TEST_ALL
from ..server.support import ServerProcess
from .player import (
    Clicker,
    create_room,
    is_over,
    join_room,
    layout_problems,
    new_page,
    play_to_the_end,
    start_game,
    wait_for,
    watched,
)

ENGINE_ID = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")
CYRILLIC = re.compile("[\\u0430-\\u044f\\u0451]{3,}", re.IGNORECASE)
RU_VARIANTS = VARIANT_NAMES if TEST_ALL else ("flip_attack",)

#: What a reader reads of the page: its text and the labels, titles and placeholders of its
#: elements (a screen reader reads those too), without the chat's and the seats' names.
READ = """() => {
  const out = [document.body.innerText];
  for (const node of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
    for (const name of ['aria-label', 'title', 'placeholder']) {
      const value = node.getAttribute(name);
      if (value) out.push(value);
    }
  }
  return out.join('\\n');
}"""

#: Text nodes outside the catalogue under the pseudo-language: text that is not a marked
#: message, a number, a symbol, a name the test chose, a room code or a card face's short label.
UNMARKED = """(allowed) => {
  const bad = [];
  const ok = (text) => {
    const t = text.trim();
    if (!t) return true;
    if (/\\[[^\\]]*~+\\]/.test(t)) return true;  // a message of the pseudo-catalogue
    const symbols = /^[\\d\\s·:,.;\\/+#\\u00d7±%()\\-\\u2013—→↻↺⏮⏭◀▶\\u2039\\u203a▲▼★●◆■☀☾⚡⚠✌☝✔❤😂😮😢♛✕☰☺🏆?]*$/u;
    if (symbols.test(t)) return true;
    const parts = t.split(/[\\s,·:()]+/);
    return parts.every((part) => !part || allowed.includes(part) || /^[\\d+#]+$/.test(part));
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const parent = node.parentElement;
    const skipped = 'noscript, script, style, svg, .chat-log, .code, #room-link, option[lang], .brand';
    if (!parent || parent.closest(skipped)) continue;
    if (parent.offsetParent === null && getComputedStyle(parent).position !== 'fixed') continue;
    if (!ok(node.textContent)) bad.push(node.textContent.trim());
  }
  return bad;
}"""

#: Elements whose text is cut by their box (wider than they show, and not a scroller).
CLIPPED = """() => {
  const boxes = 'button, label, h1, h2, h3, legend, summary, th, td, p.hint, .message, .seat-name, a.button';
  return [...document.querySelectorAll(boxes)].filter((el) => {
    const style = getComputedStyle(el);
    if (el.offsetParent === null || style.display === 'inline' || el.closest('.visually-hidden')) return false;
    return el.scrollWidth > el.clientWidth + 1 && !['auto', 'scroll'].includes(style.overflowX);
  }).map((el) => el.outerHTML.slice(0, 120));
}"""


def _page(browser: Browser, locale: str, width: int = 1280) -> Page:
    context = watched(browser.new_context(viewport={"width": width, "height": 900}, locale=locale))
    return context.new_page()


def _read(page: Page) -> str:
    return str(page.evaluate(READ))


#: The elements whose whole text is one of the names given and that show it on more than one
#: line (a name broken mid-word, as a short name cut after its first letter).
NAMES_BROKEN = """(names) => [...document.querySelectorAll('body *')].flatMap((node) => {
  const text = node.textContent.trim();
  if (!names.includes(text) || node.offsetParent === null) return [];
  const range = document.createRange();
  range.selectNodeContents(node);
  const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
  return lines.size > 1 ? [`${node.className || node.tagName}: ${text}`] : [];
})"""


@pytest.mark.parametrize("variant", RU_VARIANTS)
def test_a_whole_game_in_russian(browser: Browser, web_server: ServerProcess, variant: str) -> None:
    """A whole game on a phone in a ru-RU browser: Russian from the lobby to the end, the help's
    rules too; the bots' names Russian; no name broken mid-word, no printed word off its card."""
    page = new_page(browser, "phone", locale="ru-RU", reduced_motion="reduce")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        code = create_room(page, web_server.url, name="Аня", variant=variant, players=5, bots=4, bot="heuristic")
        assert page.evaluate("document.documentElement.lang") == "ru"
        # the room was made in Russian: its bots sit down with Russian names
        seats = json.loads(urllib.request.urlopen(f"{web_server.url}/api/rooms/{code}", timeout=10).read())["seats"]
        bots = {seat["name"] for seat in seats if seat["kind"] == "bot"}
        assert len(bots) == 4 and bots <= set(bot_names_for("ru")), bots
        names = ["Аня", *bots, words("ru").t("table.you")]
        start_game(page)
        wait_for(page, ".hand-card")
        page.keyboard.press("?")
        wait_for(page, "dialog#help[open] .rules-text p")
        rules = page.locator("dialog#help .rules-text").inner_text()
        assert CYRILLIC.search(rules) and not re.search(r"\b(players|the|side|cards?|whole rules)\b", rules), rules
        page.keyboard.press("Escape")
        texts: list[str] = []
        broken: list[str] = []
        faces: list[str] = []

        def look() -> None:
            texts.append(_read(page))
            if len(texts) <= 12:  # the names and the faces at the first dozen decisions
                broken.extend(page.evaluate(NAMES_BROKEN, names))
                faces.extend(page.evaluate(FACE_WORDS_OUT))

        play_to_the_end([Clicker(page)], on_idle=look, timeout=200)
        assert is_over(page)
        texts.append(_read(page))
        broken.extend(page.evaluate(NAMES_BROKEN, names))  # the standings
        whole = "\n".join(texts)
        assert CYRILLIC.search(whole) and "Игра окончена" in whole
        assert ENGINE_ID.findall(whole) == []
        assert not re.search(r"\b(Your turn|Draw a card|played|drew|Round \d|Game over)\b", whole)
        assert broken == [] and faces == [], (broken, faces)
        assert errors == []
    finally:
        page.context.close()


def _check_pseudo(page: Page, where: str, allowed: list[str]) -> None:
    page.wait_for_timeout(150)
    bad = page.evaluate(UNMARKED, allowed)
    assert bad == [], f"{where}: text outside the catalogue: {bad}"
    clipped = page.evaluate(CLIPPED)
    assert clipped == [], f"{where}: clipped text: {clipped}"


def test_every_screen_in_the_pseudo_language(browser: Browser, web_server: ServerProcess) -> None:
    url = web_server.url
    names = ["Ann", "Bo", "UNO", "unokit", *bot_names_for(DEFAULT_NAMES_LANG)]  # people's names, the bots' too
    phone = _page(browser, "en-US", width=390)
    page = _page(browser, "en-US")
    try:
        for p in (page, phone):
            p.goto(f"{url}/?lang=en-XA")
            wait_for(p, "#create-room")
            assert p.evaluate("document.documentElement.lang") == "en-XA"
            _check_pseudo(p, "lobby", names)
        phone.click("#sound-button")  # the sound and notification settings, on a phone
        wait_for(phone, "#push-switch")
        _check_pseudo(phone, "sound panel", names)
        phone.click("#sound-button")
        # The language is remembered: the next pages need no ?lang=.
        code = create_room(page, url, name="Ann", variant="flip", players=3, bots=1)
        join_room(phone, url, code, "Bo")
        _check_pseudo(page, "waiting room", names)
        start_game(page)
        wait_for(page, ".hand-card")
        _check_pseudo(page, "table", names)
        _check_pseudo(phone, "table on a phone", names)
        play_to_the_end([Clicker(page), Clicker(phone)], timeout=200)
        _check_pseudo(page, "game over", names)
        page.goto(f"{url}/#/replay/{code}/1")
        wait_for(page, "#replay-step")
        page.click("#replay-next")
        _check_pseudo(page, "replay", names)
        page.goto(f"{url}/#/sheet")
        wait_for(page, "#sheet-new")
        _check_pseudo(page, "score sheet", names)
        page.goto(f"{url}/#/launcher")
        page.click("#launcher-press")
        wait_for(page, "#launcher-result[data-cards]:not([data-cards=''])")
        _check_pseudo(page, "launcher", names)
    finally:
        page.context.close()
        phone.context.close()


def test_two_readers_of_one_room_read_two_languages(browser: Browser, web_server: ServerProcess) -> None:
    ann = _page(browser, "en-US")
    ana = _page(browser, "ru-RU")
    try:
        code = create_room(ann, web_server.url, name="Ann", variant="classic", players=3, bots=1)
        join_room(ana, web_server.url, code, "Ана")
        start_game(ann)
        wait_for(ana, ".log li")
        wait_for(ann, ".log li")
        assert "Первая карта" in ana.locator(".log").inner_text()
        assert "First card" in ann.locator(".log").inner_text()
        assert (
            ana.evaluate("document.documentElement.lang") == "ru"
            and ann.evaluate("document.documentElement.lang") == "en"
        )
    finally:
        ann.context.close()
        ana.context.close()


#: Chinese on a phone and Turkish at a desk (make test); the other way round, and the card faces
#: with words of UNO Attack and UNO Flip Attack in both, on top (make test-all).
NEW_LANGUAGE_GAMES = [
    pytest.param("zh-CN", "zh-Hans", "attack", "phone"),
    pytest.param("tr-TR", "tr", "flip_attack", "laptop"),
    pytest.param("zh-CN", "zh-Hans", "flip_attack", "laptop", marks=pytest.mark.matrix),
    pytest.param("tr-TR", "tr", "attack", "phone", marks=pytest.mark.matrix),
]
#: A word each language writes and English does not: Han characters, Turkish letters.
OWN_SCRIPT = {"zh-Hans": re.compile("[\\u4e00-\\u9fff]{3}"), "tr": re.compile("[çğışöüİ]")}
#: The printed words of every card face on the page that stick out of the card's coloured body
#: (from 4 to 56 of its 60 units; the page's hidden ruler that measures them aside).
FACE_WORDS_OUT = """() => [...document.querySelectorAll('svg:not(.label-ruler) .face-label')].flatMap((label) => {
  const box = label.getBBox();
  if (!box.width) return [];  // not drawn now (the closed help's legend)
  return box.x < 4 || box.x + box.width > 56 ? [label.textContent + ' ' + box.width.toFixed(1)] : [];
})"""
#: Every face of a variant with printed words, drawn on the page in one language.
DRAW_FACES = """async ([lang, variant]) => {
  const cards = await import("/static/js/cards.js");
  const i18n = await import("/static/js/i18n.js");
  const catalog = await (await fetch("/api/catalog")).json();
  cards.useCatalog(catalog);
  await i18n.loadLanguage(lang);
  cards.useVariant(variant);
  const box = document.createElement("div");
  box.className = "drawn-faces";
  const shown = catalog.variants[variant];
  shown.kinds.forEach((kinds, side) => {
    for (const kind of kinds) {
      const wild = catalog.kinds.find((k) => k.name === kind).wild;
      box.append(cards.cardNode(wild ? kind : `${shown.side_colors[side][1]} ${kind}`, side, shown.side_colors[side]));
    }
  });
  document.querySelector(".drawn-faces")?.remove();
  document.body.append(box);
  await document.fonts.ready;
}"""


def test_every_printed_word_stays_on_its_card_in_every_language(browser: Browser, web_server: ServerProcess) -> None:
    """The words UNO Attack and Flip Attack faces print fit the card's coloured body in every
    language: a long word is printed smaller (Russian «ИСПЫТАЙ УДАЧУ», «ДО ВЫСТРЕЛА» ran over
    the body's edge, sized by an estimate of their letters' width)."""
    page = new_page(browser, "phone")
    try:
        page.goto(web_server.url)
        wait_for(page, "#create-room")
        out = []
        for lang in LANGUAGES:
            for variant in ("attack", "flip_attack"):
                page.evaluate(DRAW_FACES, [lang, variant])
                out += [f"{lang} {variant}: {word}" for word in page.evaluate(FACE_WORDS_OUT)]
        assert out == []
    finally:
        page.context.close()


#: The Chinese font files the page asked for.
CJK_FONTS = "() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes('/fonts/'))"


@pytest.mark.parametrize(("locale", "lang", "variant", "screen"), NEW_LANGUAGE_GAMES)
def test_a_whole_game_in_chinese_and_turkish(
    browser: Browser, web_server: ServerProcess, locale: str, lang: str, variant: str, screen: str
) -> None:
    """A browser set to zh-CN (tr-TR) shows Chinese (Turkish) from the lobby to the game's end:
    its own words and no English one, no engine identifier, the table laid out by its promises
    at every step, the card faces' printed words inside the cards; a Chinese page draws with the
    page's Chinese font, a Turkish one never downloads it."""
    page = new_page(browser, screen, locale=locale)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        name = "小明" if lang == "zh-Hans" else "Ayşe"
        code = create_room(page, web_server.url, name=name, variant=variant, players=3, bots=2, bot="heuristic")
        assert page.evaluate("document.documentElement.lang") == lang
        seats = json.loads(urllib.request.urlopen(f"{web_server.url}/api/rooms/{code}", timeout=10).read())["seats"]
        bots = {seat["name"] for seat in seats if seat["kind"] == "bot"}
        assert len(bots) == 2 and bots <= set(bot_names_for(lang)), bots
        start_game(page)
        wait_for(page, ".hand-card")
        texts: list[str] = []
        problems: list[str] = []
        faces: list[str] = []

        def look() -> None:
            texts.append(_read(page))
            if len(texts) <= 12:  # the layout and the faces at the first dozen decisions
                problems.extend(layout_problems(page))
                faces.extend(page.evaluate(FACE_WORDS_OUT))

        play_to_the_end([Clicker(page)], on_idle=look, timeout=240)
        assert is_over(page)
        texts.append(_read(page))
        whole = "\n".join(texts)
        said = words(lang)
        assert OWN_SCRIPT[lang].search(whole) and said.t("table.game_over", winners="").split("{")[0][:4] in whole
        assert ENGINE_ID.findall(whole) == []
        assert not re.search(r"\b(Your turn|Draw a card|played|drew|Round \d|Game over|Press|launcher)\b", whole)
        assert problems == [], problems
        assert faces == [], faces
        fonts = page.evaluate(CJK_FONTS)
        if lang == "zh-Hans":
            assert any(f.endswith("/static/fonts/unokit-sc.woff") for f in fonts), fonts
            assert page.evaluate("document.fonts.check('16px \"unokit SC\"', '轮到你了')")
        else:
            assert not any(f.endswith("unokit-sc.woff") for f in fonts), fonts
        assert errors == []
    finally:
        page.context.close()
