"""Deck files and the ``deck`` option (docs/formats.md "Deck files", D-26): playing a variant
with the cards of one's own copy."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import unokit
from unokit import Game, OptionError
from unokit.core.decks import deck_text, read_deck_header, read_deck_text
from unokit.record import Replay, record_game, verify
from unokit.record.recorder import RecordingGame


#: A Marvel deck with four of each special and no plain wilds: 112 cards.
def _all_special(card: str) -> str:
    light, dark = card.split("/")
    return f"{'wild_super_hero' if light == 'wild' else light}/{'wild_villain' if dark == 'wild' else dark}"


MY_MARVEL = [_all_special(card) for card in unokit.deck_cards("flip_marvel")]


def test_a_deck_file_reads_counts_comments_headers_and_icons() -> None:
    text = """# a comment
variant: flip_marvel
title: My deck

2 x red 1/pink 3   # two cards
red 2/orange reverse +waffle
"""
    pairs, icons = read_deck_text(text, double_sided=True)
    assert [f"{a}/{b}" for a, b in pairs] == ["red 1/pink 3", "red 1/pink 3", "red 2/orange reverse"]
    assert {name: sorted(f"{a}/{b}" for a, b in marked) for name, marked in icons.items()} == {
        "waffle": ["red 2/orange reverse"]
    }
    assert read_deck_header(text) == {"variant": "flip_marvel", "title": "My deck"}


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["red 1/pink 3", "wild/red wild_draw_two"], "deck line 2: a wild card has no printed colour"),
        (["red 1"], "deck line 1: write a two-sided card as light/dark"),
        (["red 1/pink 3 +waffle", "red 1/pink 3"], r"some copies of red 1/pink 3 show \+waffle"),
        (["0 x red 1/pink 3"], "deck line 1: cannot read"),
    ],
)
def test_unreadable_deck_lines_are_named(lines: list[str], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        read_deck_text("\n".join(lines), double_sided=True)


def test_a_game_is_played_with_exactly_the_cards_of_its_deck() -> None:
    """D-26: the deck option replaces the default deck; the game holds those 112 cards."""
    g = unokit.new_game("flip_marvel", 4, 3, deck=MY_MARVEL)
    every = [g.card_text(t) for hand in g.hands for t in hand]
    every += [g.card_text(t) for t in g.discard + g.draw]
    assert Counter(every) == Counter(MY_MARVEL)
    assert Counter(every)["wild_super_hero/pink 5"] == 1 and "wild/purple 7" not in every
    assert g.options.as_dict(g.rules)["deck"] == MY_MARVEL


def test_a_deck_given_as_one_text_equals_the_same_lines() -> None:
    text = deck_text(unokit.new_game("flip_marvel", 2, 1, deck=MY_MARVEL).deck)
    a = unokit.new_game("flip_marvel", 2, 7, deck=text)
    b = unokit.new_game("flip_marvel", 2, 7, deck=MY_MARVEL)
    assert Counter(a.deck.card_texts()) == Counter(b.deck.card_texts())


@pytest.mark.parametrize(
    ("variant", "deck", "players", "message"),
    [
        ("flip_marvel", ["pink 5/red 1", *MY_MARVEL[1:]], 4, "'pink 5' is not a card of the light side"),
        ("flip_marvel", ["red 1/pink 3", "red 2/pink 2", "red 3/pink 7"] * 2, 4, "cannot deal 7 to each of 4"),
        ("classic", ["red draw_one", "red 5", "red 6"] * 10, 2, "'red draw_one' is not a card"),
        ("classic", ["red 5"] * 40, 2, "two cut values"),
        ("classic", [], 2, "lists no card"),
        ("classic", [5, 6], 2, "lists the cards as text lines"),
    ],
)
def test_decks_that_do_not_fit_the_variant_are_refused(
    variant: str, deck: list[object], players: int, message: str
) -> None:
    with pytest.raises(OptionError, match=message):
        unokit.new_game(variant, players, 1, deck=deck)


def test_positions_and_records_carry_the_deck() -> None:
    g = RecordingGame.new("flip_marvel", 3, 4, deck=MY_MARVEL, rounds=1)[0]
    for _ in range(30):
        if g.is_over:
            break
        g.apply(g.legal_actions()[0])
    position = json.loads(json.dumps(g.to_position()))
    assert position["options"]["deck"] == MY_MARVEL
    assert Game.from_position(position).to_position() == position
    record = g.to_record()
    assert verify(record).ok
    assert Replay(record).final.to_position() == g.to_position()
    assert record_game(g).to_record().start is not None


def test_random_pairing_of_a_deck_keeps_its_faces() -> None:
    g = unokit.new_game("flip_marvel", 2, 9, deck=MY_MARVEL, pairing="random")
    lights = Counter(text.split("/")[0] for text in g.deck.card_texts())
    darks = Counter(text.split("/")[1] for text in g.deck.card_texts())
    assert lights == Counter(text.split("/")[0] for text in MY_MARVEL)
    assert darks == Counter(text.split("/")[1] for text in MY_MARVEL)
    assert Game.from_position(g.to_position()).to_position() == g.to_position()


def test_a_deck_on_one_line_separates_its_cards_with_semicolons() -> None:
    """docs/formats.md: ``--option "deck=2 x red 1/pink 3; ..."`` on a command line."""
    one_line = "; ".join(MY_MARVEL)
    g = unokit.new_game("flip_marvel", 2, 3, deck=one_line)
    assert Counter(g.deck.card_texts()) == Counter(MY_MARVEL)


def test_games_share_the_actions_of_equal_decks_and_let_go_of_decks_made_for_one_game() -> None:
    """Two live games of one deck share its interned actions; the decks made for one game (a
    random pairing each) and their actions go with their games, so a long-running process
    playing many such games does not grow (at most the few tables kept between games stay)."""
    import gc

    from unokit.bots import heuristic, make_bot
    from unokit.bots.runner import play_game
    from unokit.core import game as game_module

    first = unokit.new_game("classic", 2, seed=1)
    second = unokit.new_game("classic", 2, seed=2)
    assert first.actions is second.actions
    assert second.from_position(first.to_position()).actions is first.actions
    gc.collect()
    tables_before = len(game_module._ACTION_TABLES)
    for seed in range(40):
        game = unokit.new_game("flip", 2, seed=seed, rounds=1, pairing="random")
        play_game(game, [make_bot("heuristic", seed), make_bot("random", seed)])
        assert game.is_over
    del game
    gc.collect()
    kept = len(game_module._RECENT_TABLES)
    assert len(game_module._ACTION_TABLES) <= tables_before + kept
    assert len(game_module._ACTION_TABLES) < tables_before + 40
    assert len(heuristic._TABLES) <= heuristic._TABLES_KEPT  # the heuristic bot's own deck tables
