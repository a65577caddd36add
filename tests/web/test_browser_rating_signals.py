"""What the operator did to a player's ratings, in a real browser's "My games"
(``docs/ratings.md``, "Signals for the operator"): a game the operator annulled says so in the
history, and a rating the operator reset says when."""

from __future__ import annotations

import json

from playwright.sync_api import Browser

from unokit.server.client import new_identity, ratings_join
from unokit.server.features import store_hooks
from unokit.server.features.ratings.signals import annul, reset_rating
from unokit.server.peers import identity_hash
from unokit.server.storage import Store

from ..server.support import ServerProcess
from ..server.test_rating_signals import Games
from .player import new_page, wait_for


def test_my_games_says_which_game_was_annulled_and_when_a_rating_was_reset(
    browser: Browser, web_server: ServerProcess
) -> None:
    me = new_identity()
    ratings_join(web_server.url, me, "Ann Annulled")
    store = Store(web_server.database, hooks=store_hooks())
    games = Games(store, prefix="AN")
    try:
        ann, ben = identity_hash(me), games.player("Ben")
        games.duel(ann, ben)
        second = games.duel(ann, ben)
        annul(store, second, 1)
        games.duel(ann, ben)
        reset_rating(store, ann, "classic", 2)
    finally:
        games.writer.stop()
        store.close()
    page = new_page(browser)
    try:
        page.goto(f"{web_server.url}/")
        page.evaluate(f"localStorage.setItem('unokit.player', {json.dumps(me)})")
        page.goto(f"{web_server.url}/#/games")
        wait_for(page, "ol.rating-history li")
        lines = page.locator("ol.rating-history li").all_inner_texts()
        assert len(lines) == 3, lines
        assert sum("annulled by the operator" in line for line in lines) == 1, lines
        rating = page.locator("ul.rating-list li").inner_text()
        assert "reset by the operator on" in rating, rating
    finally:
        page.context.close()
