"""The action ids and the observation vector: masks are exactly the legal actions, ids round
trip, and an observation depends only on what its seat may know."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import unokit
from unokit import Game, IllegalActionError, InvalidActionError, OptionError, new_game
from unokit.core.actions import CATCH, UNO
from unokit.core.cards import COLOR_NAMES
from unokit.core.observation import View
from unokit.core.rng import Rng
from unokit.encoding import MAX_HISTORY, Encoding
from unokit.envs.session import Session

VARIANTS = list(unokit.VARIANT_NAMES)


def random_positions(variant: str, players: int, seed: int, decisions: int, **options: Any) -> list[Game]:
    """Clones of a game under random legal play (catches and late UNO calls included)."""
    game = new_game(variant, players, seed=seed, rounds=1, **options)
    chooser = Rng(seed)
    out = []
    for _ in range(decisions):
        if game.is_over:
            break
        out.append(game.clone())
        game.apply(chooser.choice(game.legal_actions()))
    return out


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_mask_is_the_legal_actions_and_ids_round_trip(variant: str, players: int) -> None:
    if variant == "flip_attack" and players > 6:
        pytest.skip("Flip Attack takes 2 to 6 players")
    enc = Encoding(variant, players)
    checked = 0
    options: dict[str, Any] = {"stacking": True} if variant in ("classic", "flip") else {}
    for seed in range(3):
        for game in random_positions(variant, players, seed, 400, **options):
            seat = game.to_act
            assert seat is not None
            view = View(game, seat)
            legal = [a for a in game.legal_actions() if a.kind not in (CATCH, UNO)]
            mask = enc.mask(view)
            ids = [enc.encode(a, seat) for a in legal]
            assert None not in ids
            assert len(set(ids)) == len(legal), "two legal actions share an id"
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(ids)  # type: ignore[type-var]
            for a, i in zip(legal, ids, strict=True):
                assert i is not None
                assert enc.decode(i, game.side, seat) is a
            checked += len(legal)
            # Every other seat has nothing to do in turn order.
            for other in range(players):
                if other != seat:
                    assert not enc.mask(View(game, other)).any()
    assert checked > 500


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_id_decodes_to_its_label(variant: str) -> None:
    enc = Encoding(variant, 4)
    for i, label in enumerate(enc.action_labels):
        for side in (0, 1):
            action = enc.decode(i, side, seat=1)
            if action is None:
                continue
            assert enc.encode(action, 1) == i
            if action.kind == "trade":
                assert label == f"trade +{(action.seat - 1) % 4}"
                continue
            assert label.split(" ")[0] == action.kind
            assert label.endswith(" uno") == action.uno
            if action.card >= 0:
                assert enc.deck.text[action.card] in label
            if action.color >= 0:
                assert COLOR_NAMES[action.color] in label


def test_trade_ids_are_relative_seats() -> None:
    enc = Encoding("attack", 4)
    start = enc.trade_start
    assert str(enc.decode(start, 0, seat=2)) == "trade 3"
    assert str(enc.decode(start + 2, 0, seat=2)) == "trade 1"
    assert enc.decode(start + 3, 0, seat=2) is None  # offset 4 does not exist with 4 seats
    assert enc.encode(enc.table.trade[0], 2) == start + 1


def test_out_of_range_ids_are_refused() -> None:
    enc = Encoding("classic", 2)
    with pytest.raises(InvalidActionError, match="outside"):
        enc.decode(enc.num_actions, 0, 0)
    with pytest.raises(InvalidActionError, match="outside"):
        enc.decode(-1, 0, 0)


def test_bad_encoding_arguments() -> None:
    with pytest.raises(OptionError, match="2 to 6 players"):
        Encoding("flip_attack", 7)
    with pytest.raises(OptionError, match="history"):
        Encoding("classic", 2, history=-1)
    with pytest.raises(OptionError, match="unknown variant"):
        Encoding("uno", 2)


def test_a_history_past_its_bound_is_an_option_error_before_any_allocation() -> None:
    """``history=10**9`` asked numpy for 402 GiB and failed with its MemoryError; every
    environment now refuses it with an OptionError naming the bound."""
    from unokit.envs.gymnasium import UnoEnv
    from unokit.envs.pettingzoo import raw_env

    bound = f"history must be a whole number from 0 to {MAX_HISTORY}, not {10**9}"
    for make in (
        lambda: Encoding("classic", 2, 10**9),
        lambda: UnoEnv("classic", ["random"], history=10**9),
        lambda: raw_env("classic", 2, history=10**9),
    ):
        with pytest.raises(OptionError, match=bound):
            make()
    assert Encoding("flip", 10, MAX_HISTORY).size > Encoding("flip", 10, MAX_HISTORY - 1).size


@pytest.mark.parametrize("variant", VARIANTS)
def test_action_space_does_not_depend_on_the_number_of_seats(variant: str) -> None:
    sizes = {Encoding(variant, n).num_actions for n in (2, 3, 6)}
    labels = {Encoding(variant, n).action_labels for n in (2, 6)}
    assert len(sizes) == 1
    assert len(labels) == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_layout_blocks_tile_the_vector(variant: str) -> None:
    enc = Encoding(variant, 3)
    at = 0
    for block in enc.blocks:
        assert block.start == at
        at += block.size
    assert at == enc.size == len(enc.high)
    assert (enc.high > 0).all()


def observation(game: Game, seat: int, enc: Encoding, history: list[list[int]] | None = None) -> np.ndarray[Any, Any]:
    return enc.observe(View(game, seat), history or [[] for _ in range(game.players)])


@pytest.mark.parametrize("variant", VARIANTS)
def test_observation_is_within_bounds_and_names_the_basics(variant: str) -> None:
    enc = Encoding(variant, 3)
    for game in random_positions(variant, 3, 4, 300):
        for seat in range(3):
            obs = observation(game, seat, enc)
            assert obs.dtype == np.float32
            assert obs.shape == (enc.size,)
            assert (obs >= 0).all()
            assert (obs <= enc.high).all()
            hand = enc.block("hand")
            assert obs[hand.start : hand.start + hand.size].sum() == len(game.hands[seat])
            top = enc.block("top")
            assert obs[top.start + game.top_card] == 1
            decision = enc.block("decision")
            assert obs[decision.start + enc.decisions.index(game.decision)] == 1
            sizes = enc.block("hand_sizes")
            assert obs[sizes.start : sizes.start + 3].tolist() == [len(game.hands[(seat + r) % 3]) for r in range(3)]


def swap_hidden(game: Game, seat: int, rng: Rng) -> Game | None:
    """The same game with hidden cards moved: an opponent's card swapped with one of the draw
    pile (on double-sided decks only when the two show the same back, and never the top of
    the Flip draw pile, whose back is visible), and the rest of the draw pile shuffled."""
    pos = game.to_position()
    deck = game.deck
    hands: list[list[str]] = pos["hands"]
    draw: list[str] = pos["draw"]
    first = 1 if deck.double_sided and game.launcher is None else 0  # a Flip draw pile's top back is public
    pending = pos["pending"]
    protected = pending.get("card") if pending["kind"] == "play_or_keep" else None
    inactive = 1 - game.side
    candidates = []
    for other in range(game.players):
        if other == seat:
            continue
        for i, card in enumerate(hands[other]):
            if card == protected:
                continue
            for j in range(first, len(draw)):
                if draw[j] == card:
                    continue
                a, b = deck.type_id(card), deck.type_id(draw[j])
                assert a is not None and b is not None
                if deck.double_sided and deck.back_class[inactive][a] != deck.back_class[inactive][b]:
                    continue
                candidates.append((other, i, j))
    if not candidates:
        return None
    other, i, j = candidates[rng.below(len(candidates))]
    hands[other][i], draw[j] = draw[j], hands[other][i]
    rest = draw[first:]
    rng.shuffle(rest)
    pos["draw"] = draw[:first] + rest
    return Game.from_position(pos)


@pytest.mark.parametrize("variant", VARIANTS)
def test_observation_ignores_hidden_cards(variant: str) -> None:
    enc = Encoding(variant, 3)
    rng = Rng(9)
    history = [[0, 1], [2], []]
    swapped = 0
    for game in random_positions(variant, 3, 2, 200)[::4]:
        for seat in range(3):
            other = swap_hidden(game, seat, rng)
            if other is None:
                continue
            assert other.to_position() != game.to_position()
            before = observation(game, seat, enc, history)
            after = observation(other, seat, enc, history)
            assert np.array_equal(before, after)
            assert np.array_equal(enc.mask(View(game, seat)), enc.mask(View(other, seat)))
            swapped += 1
    assert swapped > 20


@pytest.mark.parametrize("variant", VARIANTS)
def test_observation_sees_a_change_of_its_own_hand(variant: str) -> None:
    # The counterpart of the test above: a change the seat can see changes the vector.
    enc = Encoding(variant, 2)
    game = new_game(variant, 2, seed=3, rounds=1)
    seat = game.to_act
    assert seat is not None
    pos = game.to_position()
    own, draw = pos["hands"][seat], pos["draw"]
    j = next(j for j in range(1, len(draw)) if draw[j] not in own)
    own[0], draw[j] = draw[j], own[0]
    other = Game.from_position(pos)
    assert not np.array_equal(observation(game, seat, enc), observation(other, seat, enc))


def test_flip_backs_are_visible() -> None:
    enc = Encoding("flip", 2)
    game = Game.from_position(
        {
            "variant": "flip",
            "players": 2,
            "turn": 0,
            "color": "red",
            "hands": [["red 5/pink 2"], ["yellow 3/purple 1", "blue 4/purple 1", "green 7/teal 2"]],
            "discard": ["red 9/teal reverse"],
            "seed": 1,
        }
    )
    obs = observation(game, 0, enc)
    backs = enc.block("backs")
    seen = obs[backs.start : backs.start + backs.size]
    assert seen.sum() == 3
    assert sorted(seen[seen > 0].tolist()) == [1.0, 2.0]  # two purple 1 backs, one teal 2


def test_drawn_card_and_challenge_colour_are_shown() -> None:
    enc = Encoding("classic", 2)
    game = Game.from_position(
        {
            "variant": "classic",
            "players": 2,
            "turn": 0,
            "color": "red",
            "hands": [["blue 1", "wild_draw_four", "green 2"], ["yellow 3", "yellow 4"]],
            "discard": ["red 9"],
            "draw": ["red 7"],
            "seed": 1,
        }
    )
    game.apply("draw")
    assert game.decision == "play_or_keep"
    obs = observation(game, 0, enc)
    drawn = enc.block("drawn")
    red7 = game.deck.type_id("red 7")
    assert red7 is not None
    assert obs[drawn.start + red7] == 1
    assert obs[drawn.start : drawn.start + drawn.size].sum() == 1
    assert observation(game, 1, enc)[drawn.start : drawn.start + drawn.size].sum() == 0  # hidden from seat 1
    game.apply("keep")
    game.apply("draw")  # seat 1 draws whatever comes next; make it keep if it may play
    if game.decision == "play_or_keep":
        game.apply("keep")
    game.apply("play wild_draw_four blue")
    assert game.decision == "challenge"
    challenge = enc.block("challenge_color")
    obs = observation(game, 1, enc)
    assert obs[challenge.start : challenge.start + challenge.size].tolist() == [1, 0, 0, 0]  # red before


def test_session_refuses_random_pairing_and_bad_options() -> None:
    with pytest.raises(OptionError, match="pairing"):
        Session("flip", 2, options={"pairing": "random"})
    with pytest.raises(OptionError, match="draw_until_playable"):
        Session("attack", 2, options={"draw_until_playable": True})
    with pytest.raises(OptionError, match="uno_catch"):
        Session("classic", 2, uno_catch="sometimes")
    with pytest.raises(OptionError, match="catch_probability"):
        Session("classic", 2, catch_probability=1.5)
    with pytest.raises(OptionError, match="reward"):
        Session("classic", 2, reward="score")


def test_illegal_ids_raise_and_change_nothing() -> None:
    session = Session("classic", 2)
    session.reset(5)
    game = session.game
    seat = game.to_act
    assert seat is not None
    mask = session.mask(seat)
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = game.to_position()
    with pytest.raises(IllegalActionError, match=r"not legal for seat .* legal ids"):
        session.act(illegal)
    with pytest.raises(InvalidActionError, match="outside"):
        session.act(10_000)
    with pytest.raises(InvalidActionError, match="integer id"):
        session.act(1.0)
    with pytest.raises(InvalidActionError, match="integer id"):
        session.act(None)
    assert game.to_position() == before
    assert game.played == [None, None]
