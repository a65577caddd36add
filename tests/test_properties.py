"""Property tests over random games of every variant and option combination.

Each example starts a game of one variant with random options, player count and seed, then
drives it with a seeded chooser for a bounded number of decisions, checking engine-wide
properties after every action: card conservation, legal actions never empty before the end,
every legal action applicable, clones independent, replay and positions reproducing the game,
observations free of the seed and unchanged by swapping hidden cards, rejected actions typed
and harmless, and the action notation round-tripping.

The chooser also picks out-of-turn moves (a ``catch`` or a late ``uno`` of a seat that is not
to act), so those paths are exercised too.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import unokit
from tests.helpers import load_script
from unokit import Action, Game, UnokitError
from unokit import IllegalActionError as Illegal
from unokit.core.cards import COLOR_NAMES
from unokit.core.rng import Rng
from unokit.core.variants import VARIANTS

VARIANT_NAMES = unokit.VARIANT_NAMES

#: The values each option may take in these tests (``launcher_script`` is left out on purpose:
#: a scripted launcher runs out of outcomes, which random play cannot plan for; ``deck``, a
#: variant's own deck file, has its own tests in tests/test_decks.py).
OPTION_VALUES: dict[str, tuple[object, ...]] = {
    "stacking": (False, True, "progressive", "mixed"),
    "bluffing": (True, False),
    "wild_counts_as_color_match": (False, True),
    "flip_wild_chooser": ("player", "next"),
    "pairing": ("physical", "random"),
    "scoring": ("winner", "own_hand", "loser"),
    "launcher": ("random", "pattern", "one_card"),
    "target": (1, 30, 100, 200, 500),
    "rounds": (None, 1, 2, 3),
    "jump_in": (False, True),
    "seven_o": (False, True),
    "draw_until_playable": (False, True),
    "force_play": (False, True),
    "teams": (False, True),
}
NOT_RANDOMISED = frozenset({"launcher_script", "deck"})

MAX_STEPS = 400
#: Examples per test and variant; raise it for a longer hunt: ``UNOKIT_EXAMPLES=500 pytest ...``.
EXAMPLES = int(os.environ.get("UNOKIT_EXAMPLES", "12"))
#: Action kinds that put a card down; an eager chooser prefers them.
PLAYING = frozenset({"play", "play_drawn", "discard"})
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

Move = tuple[int, Action]
Position = dict[str, Any]


@dataclass(frozen=True)
class Setup:
    """One random game: variant, seats, seed, options and the chooser's seed."""

    variant: str
    players: int
    seed: int
    options: dict[str, object] = field(hash=False)
    chooser: int
    steps: int
    bias: float

    def choose(self, rng: Rng, moves: list[Move]) -> Move:
        """The chooser. With probability ``bias`` > 0 it plays a card when it can, so that
        rounds end within the step budget; with probability ``-bias`` it prefers not to, so
        that every card ends up in a hand (reshuffles, empty launchers, blocked rounds).
        Otherwise it picks any legal move, uniformly."""
        if rng.random() < abs(self.bias):
            wanted = self.bias > 0
            preferred = [m for m in moves if (m[1].kind in PLAYING) == wanted]
            if preferred:
                return rng.choice(preferred)
        return rng.choice(moves)

    def start(self) -> Game:
        """The game this setup describes, freshly dealt."""
        return unokit.new_game(self.variant, self.players, self.seed, **self.options)


@st.composite
def setups(draw: st.DrawFn, variant: str) -> Setup:
    """A random :class:`Setup` of ``variant``, with only the options it accepts."""
    rules = VARIANTS[variant]
    options: dict[str, object] = {}
    for name in sorted(rules.accepted_options - NOT_RANDOMISED):
        value = draw(st.none() | st.sampled_from(OPTION_VALUES[name]), label=name)
        if value is not None:
            options[name] = value
    if options.get("teams"):  # partners face each other: 4 or 6 seats (H-6)
        players = draw(st.sampled_from([p for p in (4, 6) if p <= rules.max_players]), label="players")
    else:
        players = draw(st.integers(rules.min_players, rules.max_players), label="players")
    seed = draw(st.integers(0, 2**64 - 1), label="seed")
    chooser = draw(st.integers(0, 2**32 - 1), label="chooser")
    steps = draw(st.integers(1, MAX_STEPS), label="steps")
    bias = draw(st.sampled_from((0.0, 0.6, 0.9, -0.9)), label="bias")
    return Setup(variant, players, seed, options, chooser, steps, bias)


_combinations = load_script("house_combinations")

# --------------------------------------------------------------------------- helpers


def legal_moves(game: Game) -> list[Move]:
    """Every (seat, action) the rules allow now: the seat to act first, then out-of-turn
    (the combination script's listing, one copy for both)."""
    moves: list[Move] = _combinations.moves(game)
    return moves


def play(setup: Setup) -> Iterator[tuple[Game, Move | None]]:
    """Yield the game before each move with the move the chooser picks (``None`` at the end).

    The caller may inspect the game but must not change it; the move is applied after the
    caller resumes. Stops after ``setup.steps`` moves or when the game is over.
    """
    game = setup.start()
    chooser = Rng(setup.chooser)
    for _ in range(setup.steps):
        moves = legal_moves(game)
        if not moves:
            break
        move = setup.choose(chooser, moves)
        yield game, move
        game.apply(move[1], move[0])
    yield game, None


def card_multiset(game: Game) -> Counter[int]:
    """Every card the game holds: all hands, the discard pile and the draw pile/launcher."""
    held: Counter[int] = Counter()
    for hand in game.hands:
        held.update(hand)
    held.update(game.discard)
    held.update(game.draw)
    return held


def assert_conserved(game: Game) -> None:
    held = card_multiset(game)
    deck = Counter(game.deck.cards())
    assert held == deck, f"cards not conserved: extra {dict(held - deck)}, missing {dict(deck - held)}"


def as_json(obj: Any) -> Any:
    """``obj`` after a trip through JSON text."""
    return json.loads(json.dumps(obj))


def walk(obj: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every (path, value) in a JSON value, dict keys included as values at ``path#key``."""
    yield path, obj
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield f"{path}#key", key
            yield from walk(value, f"{path}.{key}")
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            yield from walk(value, f"{path}[{i}]")


# --------------------------------------------------------------------------- meta


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_every_option_of_the_variant_is_randomised(variant: str) -> None:
    """A new option must be added to OPTION_VALUES, so the properties cover it."""
    missing = VARIANTS[variant].accepted_options - NOT_RANDOMISED - set(OPTION_VALUES)
    assert not missing, f"add {sorted(missing)} to OPTION_VALUES in {__file__}"


def test_the_variant_list_is_complete() -> None:
    assert set(VARIANT_NAMES) == set(VARIANTS)


# --------------------------------------------------------------------------- properties


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@SETTINGS
@given(data=st.data())
def test_conservation_liveness_and_notation(variant: str, data: st.DataObject) -> None:
    """After every action: cards conserved; a legal action exists until the game is over
    (and none after); every legal action's text parses back to it."""
    setup = data.draw(setups(variant), label="setup")
    for game, _move in play(setup):
        assert_conserved(game)
        moves = legal_moves(game)
        if game.is_over:
            assert moves == []
            assert game.to_act is None
            assert game.decision == "over"
            assert game.winners, "a finished game has winners"
            assert all(game.legal_actions(s) == [] for s in range(game.players))
        else:
            assert game.to_act is not None
            assert game.legal_actions(), f"no legal action in decision {game.decision}"
            assert len(set(game.legal_actions())) == len(game.legal_actions()), "duplicates"
        for seat, action in moves:
            assert game.parse_action(str(action), seat) == action, (seat, str(action))


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@SETTINGS
@given(data=st.data())
def test_every_legal_action_applies_on_a_clone(variant: str, data: st.DataObject) -> None:
    """Every legal move applies without error on a clone, as an Action or as text (same
    result), and through the fast ``step`` path (same position); the original is untouched.
    Applying to the original leaves an earlier clone untouched."""
    setup = data.draw(setups(variant), label="setup")
    witness: tuple[Game, Position] | None = None
    for game, _move in play(setup):
        if witness is not None:
            assert witness[0].to_position() == witness[1], "applying to the original changed a clone"
        before = game.to_position()
        for seat, action in legal_moves(game):
            by_value = game.clone()
            events = by_value.apply(action, seat)
            assert_conserved(by_value)
            by_text = game.clone()
            assert by_text.apply(str(action), seat) == events, str(action)
            assert by_text.to_position() == by_value.to_position(), str(action)
            if seat == game.to_act:
                fast = game.clone()
                fast.step(action)
                assert fast.to_position() == by_value.to_position(), str(action)
        assert game.to_position() == before, "applying to a clone changed the original"
        witness = (game.clone(), before)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@SETTINGS
@given(data=st.data())
def test_replay_reproduces_the_game(variant: str, data: st.DataObject) -> None:
    """The same seed, options and action texts give the same events and position each step."""
    setup = data.draw(setups(variant), label="setup")
    first, first_events = Game.new(setup.variant, setup.players, setup.seed, **setup.options)
    second, second_events = Game.new(setup.variant, setup.players, setup.seed, **setup.options)
    assert first_events == second_events
    assert first.to_position() == second.to_position()
    chooser = Rng(setup.chooser)
    record: list[tuple[int, str, list[dict[str, Any]], Position]] = []
    for _ in range(setup.steps):
        moves = legal_moves(first)
        if not moves:
            break
        seat, action = setup.choose(chooser, moves)
        events = first.apply(action, seat)
        record.append((seat, str(action), events, first.to_position()))
    replay = setup.start()
    for step, (seat, text, events, position) in enumerate(record):
        assert replay.apply(text, seat) == events, f"step {step}: {text}"
        assert replay.to_position() == position, f"step {step}: {text}"


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@SETTINGS
@given(data=st.data())
def test_positions_round_trip_and_continue(variant: str, data: st.DataObject) -> None:
    """``to_position`` → JSON → ``from_position`` → ``to_position`` is the identity, and a game
    rebuilt that way (every ``every``-th step) continues exactly like the original."""
    setup = data.draw(setups(variant), label="setup")
    every = data.draw(st.integers(1, 40), label="rebuild every")
    rebuilt = setup.start()
    for step, (game, move) in enumerate(play(setup)):
        position = game.to_position()
        text = json.dumps(position)
        assert json.loads(text) == position, "a position must be plain JSON"
        again = Game.from_position(json.loads(text))
        assert again.to_position() == position, f"step {step}: round trip changed the position"
        assert again.legal_actions() == game.legal_actions()
        if step % every == 0:
            rebuilt = Game.from_position(as_json(rebuilt.to_position()))
        assert rebuilt.to_position() == position, f"step {step}: the rebuilt game diverged"
        if move is not None:
            seat, action = move
            assert rebuilt.apply(str(action), seat) == game.clone().apply(action, seat), (
                f"step {step}: {action} gave other events on the rebuilt game"
            )


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@SETTINGS
@given(data=st.data())
def test_observations_are_json_and_hide_the_seed(variant: str, data: st.DataObject) -> None:
    """``observe(seat)`` is plain JSON and never holds a seed/RNG key or the RNG state."""
    setup = data.draw(setups(variant), label="setup")
    secrets = {setup.seed} if setup.seed >= 2**32 else set()
    for game, _move in play(setup):
        state = game.to_position()["seed"]
        hidden = secrets | ({state} if state >= 2**32 else set())
        for seat in range(game.players):
            obs = game.observe(seat)
            assert as_json(obs) == obs, "an observation must be plain JSON"
            for path, value in walk(obs):
                if path.endswith("#key"):
                    assert "seed" not in value.lower() and "rng" not in value.lower(), path
                elif isinstance(value, int) and not isinstance(value, bool):
                    assert value not in hidden, f"the seed/RNG state leaks at {path}"
                elif isinstance(value, str):
                    assert not any(str(h) in value for h in hidden), f"seed leaks at {path}"


Slot = tuple[int, int]  # (seat, index in hand) or (-1, index in the draw list, top first)


def slot_card(position: Position, slot: Slot) -> str:
    """The card text at ``slot`` of a position."""
    where, index = slot
    pile = position["draw"] if where < 0 else position["hands"][where]
    text: str = pile[index]
    return text


def back_of(text: str, side: int) -> str:
    """The face of a card that the table sees from behind: its inactive face."""
    faces = text.split("/")
    return faces[1 - side] if len(faces) == 2 else ""


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@SETTINGS
@given(data=st.data())
def test_observations_ignore_hidden_cards(variant: str, data: st.DataObject) -> None:
    """Swapping two hidden cards (an opponent's card and a draw-pile/launcher card below the
    top, or cards of two opponents; on two-sided decks only cards with the same back) leaves
    ``observe(seat)`` unchanged. Cards the seat has seen go into a hand (``known``: a revealed
    or traded hand) are not hidden from it; a rebuilt game has no such memory, so ``known`` is
    compared apart."""
    setup = data.draw(setups(variant), label="setup")
    picker = Rng(data.draw(st.integers(0, 2**32 - 1), label="picker"))
    for step, (game, _move) in enumerate(play(setup)):
        if game.is_over:
            break
        position = game.to_position()
        side = VARIANTS[variant].side_names.index(position["side"])
        observer = step % game.players
        pending = position["pending"]
        locked: tuple[int, str] | None = None  # the drawn card of play_or_keep stays put
        if pending["kind"] == "play_or_keep":
            locked = (pending["seat"], pending["card"])
        # The hidden cards: opponents' hands and the draw pile (launcher) below its top.
        known: dict[str, list[str]] = game.observe(observer).get("known", {})
        slots: list[Slot] = [(-1, j) for j in range(1, len(position["draw"]))]
        for seat, hand in enumerate(position["hands"]):
            if seat != observer:
                seen = Counter(known.get(str(seat), []))
                for i, card in enumerate(hand):
                    if seen[card]:
                        seen[card] -= 1
                    elif locked != (seat, card):
                        slots.append((seat, i))
        if not slots:
            continue
        first = picker.choice(slots)
        a = slot_card(position, first)
        partners = [
            slot
            for slot in slots
            if slot[0] != first[0]
            and slot_card(position, slot) != a
            and back_of(slot_card(position, slot), side) == back_of(a, side)
        ]
        if not partners:
            continue
        second = picker.choice(partners)
        b = slot_card(position, second)
        swapped = as_json(position)
        for slot, card in ((first, b), (second, a)):
            where, index = slot
            (swapped["draw"] if where < 0 else swapped["hands"][where])[index] = card
        assert swapped != position
        other = Game.from_position(swapped)
        seen_before = game.observe(observer)
        seen_before.pop("known", None)
        assert other.observe(observer) == seen_before, (
            f"step {step}: seat {observer} saw the swap of {a!r} and {b!r} ({first}, {second})"
        )


# --------------------------------------------------------------------------- rejections

VERBS = (
    "play",
    "draw",
    "press",
    "play_drawn",
    "keep",
    "challenge",
    "accept",
    "color",
    "trade",
    "press_again",
    "stop",
    "discard",
    "uno",
    "catch",
)


@st.composite
def action_texts(draw: st.DrawFn) -> str:
    """Strings shaped like actions (verb, card, colour, seat, ``uno``) or arbitrary text."""
    if draw(st.booleans()):
        return draw(st.text(max_size=30))
    words = [draw(st.sampled_from(VERBS))]
    if draw(st.booleans()):
        color = draw(st.sampled_from(COLOR_NAMES))
        kind = draw(st.sampled_from(("5", "skip", "reverse", "draw_two", "flip", "hit_2", "discard_all", "x")))
        words.append(f"{color} {kind}")
    if draw(st.booleans()):
        words.append(draw(st.sampled_from((*COLOR_NAMES, "wild", "wild_draw_four"))))
    if draw(st.booleans()):
        words.append(str(draw(st.integers(-1, 11))))
    if draw(st.booleans()):
        words.append("uno")
    return " ".join(words)


def assert_rejected(
    game: Game,
    action: Action | str,
    seat: int | None,
    why: str,
    error: type[UnokitError] = UnokitError,
) -> None:
    """Applying ``action`` for ``seat`` raises ``error`` and leaves the position unchanged."""
    before = game.to_position()
    with pytest.raises(error):
        game.apply(action, seat)
        pytest.fail(f"{why}: {action!s} was accepted for seat {seat}")
    assert game.to_position() == before, f"{why}: rejected {action!s} changed the game"


def is_legal_text(game: Game, text: str, seat: int) -> bool:
    """Whether ``text`` names an action in ``legal_actions(seat)`` (without applying it)."""
    try:
        action = game.parse_action(text, seat)
    except UnokitError:
        return False
    return action in game.legal_actions(seat)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@SETTINGS
@given(data=st.data())
def test_rejected_actions_raise_and_change_nothing(variant: str, data: st.DataObject) -> None:
    """Random text, another seat's action and a play of a card not in hand all raise a
    :class:`UnokitError` subclass and leave ``to_position()`` unchanged."""
    setup = data.draw(setups(variant), label="setup")
    texts = data.draw(st.lists(action_texts(), min_size=1, max_size=6), label="texts")
    picker = Rng(data.draw(st.integers(0, 2**32 - 1), label="picker"))
    last: Game | None = None
    for game, _move in play(setup):
        last = game
        if game.is_over:
            break
        acting = game.to_act
        assert acting is not None
        for text in texts:
            seat = picker.below(game.players)
            if not is_legal_text(game, text, seat):
                assert_rejected(game, text, seat, "random text")
        for action in game.legal_actions():
            for seat in range(game.players):
                if action not in game.legal_actions(seat):
                    assert_rejected(game, action, seat, "another seat's action", Illegal)
                    assert_rejected(game, str(action), seat, "another seat's action", Illegal)
        hand = set(game.hands[acting])
        absent = [t for t in range(len(game.deck.types)) if t not in hand]
        for t in [picker.choice(absent) for _ in range(3)] if absent else []:
            text = f"play {game.deck.text[t]}"
            assert_rejected(game, text, None, "card not in hand", Illegal)
            color = COLOR_NAMES[picker.below(len(COLOR_NAMES))]
            assert_rejected(game, f"{text} {color}", None, "card not in hand", Illegal)
            assert_rejected(game, f"{text} uno", None, "card not in hand", Illegal)
        for bad_seat in (-1, game.players):
            assert_rejected(game, game.legal_actions()[0], bad_seat, "no such seat", Illegal)
    assert last is not None
    if last.is_over:
        assert_rejected(last, "draw", None, "game over", Illegal)
        assert_rejected(last, "draw", 0, "game over", Illegal)
