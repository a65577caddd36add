"""The house rules in every combination, with every variant and the other options, checked by
random games played to the end.

For each variant the table holds **every combination of its house-rule values** (``jump_in``,
``seven_o``, the four readings of ``stacking``, ``draw_until_playable``, ``force_play``,
``teams``; 128 rows, or 32 in the launcher variants). The other options and the number of
players are added to each row so that every pair of values of any two options (house rules
included) appears in some row (a pairwise covering set, built greedily and deterministically,
with a few extra rows where the greedy choice left a pair out; ``teams=true`` only at 4 or 6
seats). ``--exhaustive`` crosses the house rules with every
combination of the other options instead (tens of thousands of games: minutes to hours).

Each game is one round (``rounds=1``) played by a seeded chooser that prefers playing a card,
with the out-of-turn moves (jumps, catches, late UNO calls) among its choices. After every
action the cards are counted (none made, none lost); a legal action exists until the end and
none after; the round must end within ``MAX_ACTIONS`` actions (no stuck, no endless game);
every few actions one seat's observation must not change when the cards it cannot see are
shuffled among themselves, and the position must rebuild into the same game; at the end the
same seed and action texts replay into the same events and position.

    python scripts/house_combinations.py                  # the covering set, 1 game per row
    python scripts/house_combinations.py --games 5 --variant classic
    python scripts/house_combinations.py --exhaustive --games 1

The test suite runs the covering set with one game per row (tests/test_house_combinations.py).
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from unokit import VARIANT_NAMES, Action, Game
from unokit.core.variants import VARIANTS

#: The values each house rule takes in the table.
HOUSE_VALUES: dict[str, tuple[object, ...]] = {
    "jump_in": (False, True),
    "seven_o": (False, True),
    "stacking": (False, True, "progressive", "mixed"),
    "draw_until_playable": (False, True),
    "force_play": (False, True),
    "teams": (False, True),
}
#: The values of the other options (``target`` and ``rounds`` do not matter in one round;
#: ``launcher_script`` and ``deck`` are tested on their own).
OTHER_VALUES: dict[str, tuple[object, ...]] = {
    "bluffing": (True, False),
    "wild_counts_as_color_match": (False, True),
    "flip_wild_chooser": ("player", "next"),
    "pairing": ("physical", "random"),
    "scoring": ("winner", "own_hand", "loser"),
    "launcher": ("random", "pattern", "one_card"),
}
TEAM_TABLES = (4, 6)
#: A round not over after this many actions counts as endless. Most random one-round games
#: end within a few hundred, but a few long ones are fair: the exhaustive run of
#: ``flip_marvel`` met a 6-player round with Seven-O, mixed stacking and draw-until-playable
#: (seed 59970588) in which most of the deck sat in the hands and the draw pile was often
#: empty; it ends with a winner after 4,238 actions.
MAX_ACTIONS = 20000
#: Every this many actions, one seat's observation and the position are checked.
CHECK_EVERY = 6
#: The chooser plays a card when it can with this probability (so that rounds end).
EAGER = 0.85
PLAYING = frozenset({"play", "play_drawn", "discard"})

Row = dict[str, object]
Pair = tuple[tuple[str, object], tuple[str, object]]


def house_factors(variant: str) -> dict[str, tuple[object, ...]]:
    """The house rules ``variant`` accepts, with their values (``stacking`` included)."""
    accepted = VARIANTS[variant].accepted_options
    return {name: values for name, values in HOUSE_VALUES.items() if name in accepted}


def other_factors(variant: str) -> dict[str, tuple[object, ...]]:
    """The other options ``variant`` accepts, and ``players`` (2, 3, 4, 6 and its maximum)."""
    rules = VARIANTS[variant]
    factors = {name: values for name, values in OTHER_VALUES.items() if name in rules.accepted_options}
    seats = sorted({p for p in (2, 3, 4, 6, rules.max_players) if rules.min_players <= p <= rules.max_players})
    factors["players"] = tuple(seats)
    return factors


def valid(row: Row) -> bool:
    """Whether a (partial) row can be played: partners need 4 or 6 seats (H-6), and counting
    wilds as the colour needs bluffing (D-27)."""
    if row.get("teams") is True and "players" in row and row["players"] not in TEAM_TABLES:
        return False
    return not (row.get("wild_counts_as_color_match") is True and row.get("bluffing") is False)


def _pairs(row: Row) -> set[Pair]:
    items = sorted(row.items(), key=lambda item: item[0])
    return {(a, b) for a, b in itertools.combinations(items, 2)}


def _product(factors: dict[str, tuple[object, ...]]) -> Iterator[Row]:
    names = list(factors)
    for values in itertools.product(*(factors[n] for n in names)):
        yield dict(zip(names, values, strict=True))


def all_pairs(variant: str) -> set[Pair]:
    """Every pair of values of two options (or ``players``) that can be played together."""
    factors = {**house_factors(variant), **other_factors(variant)}
    pairs: set[Pair] = set()
    for a, b in itertools.combinations(sorted(factors), 2):
        for va, vb in itertools.product(factors[a], factors[b]):
            if valid({a: va, b: vb}):
                pairs.add(((a, va), (b, vb)))
    return pairs


def covering_rows(variant: str) -> tuple[list[Row], set[Pair]]:
    """Every combination of ``variant``'s house rules, each completed with the other options
    and a player count chosen greedily to cover the most pairs not covered yet, then a few
    more rows for the pairs still missing. Returns the rows and the pairs left uncovered
    (none: a pair no row can hold is not in :func:`all_pairs`)."""
    uncovered = all_pairs(variant)
    others = list(_product(other_factors(variant)))
    rows: list[Row] = []
    for house in _product(house_factors(variant)):
        best: Row | None = None
        best_gain = -1
        for other in others:
            row = {**house, **other}
            if not valid(row):
                continue
            gain = len(_pairs(row) & uncovered)
            if gain > best_gain:
                best, best_gain = row, gain
        assert best is not None
        uncovered -= _pairs(best)
        rows.append(best)
    while uncovered:  # the few pairs the rows above missed, each in one more row
        candidates = (row for row in exhaustive_rows(variant) if _pairs(row) & uncovered)
        extra = max(candidates, key=lambda row: len(_pairs(row) & uncovered), default=None)
        if extra is None:
            break
        uncovered -= _pairs(extra)
        rows.append(extra)
    return rows, uncovered


def exhaustive_rows(variant: str) -> list[Row]:
    """Every combination of every option value and player count of ``variant`` that can be played."""
    return [row for row in _product({**house_factors(variant), **other_factors(variant)}) if valid(row)]


# --------------------------------------------------------------------------- one game


class CheckFailed(AssertionError):
    """A property did not hold; the message names the game and the step."""


@dataclass(frozen=True)
class Setup:
    variant: str
    row: Row
    seed: int

    @property
    def players(self) -> int:
        players = self.row["players"]
        assert isinstance(players, int)
        return players

    @property
    def options(self) -> dict[str, object]:
        return {name: value for name, value in self.row.items() if name != "players"} | {"rounds": 1}

    def start(self) -> tuple[Game, list[dict[str, Any]]]:
        return Game.new(self.variant, self.players, self.seed, **self.options)

    def __str__(self) -> str:
        options = ", ".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.variant}, {self.players} players, seed {self.seed}, {options}"


def moves(game: Game) -> list[tuple[int, Action]]:
    """Every (seat, action) allowed now: the seat to act's, then the out-of-turn ones."""
    if game.is_over:
        return []
    acting = game.to_act
    assert acting is not None
    found = [(acting, a) for a in game.legal_actions()]
    for seat in range(game.players):
        if seat != acting:
            found += [(seat, a) for a in game.legal_actions(seat)]
    return found


def choose(rng: random.Random, found: list[tuple[int, Action]]) -> tuple[int, Action]:
    if rng.random() < EAGER:
        plays = [m for m in found if m[1].kind in PLAYING]
        if plays:
            return rng.choice(plays)
    return rng.choice(found)


def hidden_cards_shuffled(game: Game, observer: int, rng: random.Random) -> dict[str, Any] | None:
    """The position with every card ``observer`` cannot see (other hands, the draw pile or
    launcher) shuffled among the slots showing the same back; ``None`` if nothing moves.
    Cards the observer has seen go into a hand (``known``) and a drawn card waiting to be
    played or kept stay where they are."""
    position = game.to_position()
    side = VARIANTS[game.variant].side_names.index(position["side"])
    known = game.observe(observer).get("known", {})
    pending = position["pending"]
    locked = (pending["seat"], pending["card"]) if pending["kind"] == "play_or_keep" else None

    def back(text: str) -> str:
        faces = text.split("/")
        return faces[1 - side] if len(faces) == 2 else ""

    slots: list[tuple[list[str], int]] = [(position["draw"], i) for i in range(len(position["draw"]))]
    for seat, hand in enumerate(position["hands"]):
        if seat == observer:
            continue
        seen = Counter(known.get(str(seat), []))
        held = Counter([locked[1]] if locked is not None and locked[0] == seat else [])
        for i, card in enumerate(hand):
            if seen[card]:
                seen[card] -= 1
            elif held[card]:
                held[card] -= 1
            else:
                slots.append((hand, i))
    groups: dict[str, list[tuple[list[str], int]]] = {}
    for pile, i in slots:
        groups.setdefault(back(pile[i]), []).append((pile, i))
    moved = False
    for group in groups.values():
        cards = [pile[i] for pile, i in group]
        shuffled = cards[:]
        rng.shuffle(shuffled)
        moved = moved or shuffled != cards
        for (pile, i), card in zip(group, shuffled, strict=True):
            pile[i] = card
    return position if moved else None


def check_game(setup: Setup) -> int:
    """Play ``setup`` to the end, checking every property; return the number of actions.
    Raises :class:`CheckFailed` naming the game and the step."""

    def fail(step: int, what: str) -> CheckFailed:
        return CheckFailed(f"{setup}: step {step}: {what}")

    game, start_events = setup.start()
    deck = Counter(game.deck.cards())
    rng = random.Random(setup.seed)
    played: list[tuple[int, str]] = []
    events: list[dict[str, Any]] = list(start_events)
    step = 0
    while True:
        held: Counter[int] = Counter(game.draw) + Counter(game.discard)
        for hand in game.hands:
            held.update(hand)
        if held != deck:
            raise fail(step, f"cards not conserved: extra {dict(held - deck)}, missing {dict(deck - held)}")
        found = moves(game)
        if game.is_over:
            if found or not game.winners:
                raise fail(step, "a finished game must have winners and no legal action")
            break
        if not found:
            raise fail(step, f"stuck: no legal action in decision {game.decision}")
        if step >= MAX_ACTIONS:
            raise fail(step, f"endless: the round is not over after {MAX_ACTIONS} actions")
        if step % CHECK_EVERY == 0:
            observer = (step // CHECK_EVERY) % game.players
            shuffled = hidden_cards_shuffled(game, observer, rng)
            if shuffled is not None:
                seen = game.observe(observer)
                seen.pop("known", None)
                if Game.from_position(shuffled).observe(observer) != seen:
                    raise fail(step, f"seat {observer}'s observation shows a card it may not see")
            again = Game.from_position(game.to_position())
            if again.to_position() != game.to_position() or again.legal_actions() != game.legal_actions():
                raise fail(step, "the position does not rebuild into the same game")
        seat, action = choose(rng, found)
        events += game.apply(action, seat)
        played.append((seat, str(action)))
        step += 1
    replay, replay_events = setup.start()
    for seat, text in played:
        replay_events += replay.apply(text, seat)
    if replay_events != events or replay.to_position() != game.to_position():
        raise fail(step, "the same seed and actions do not replay into the same game")
    return step


def run(variants: Sequence[str], games: int, exhaustive: bool, seed: int) -> tuple[int, int, list[str]]:
    """Check ``games`` games of each row of each variant; return (games, actions, failures)."""
    played = actions = 0
    failures: list[str] = []
    for variant in variants:
        rows = exhaustive_rows(variant) if exhaustive else covering_rows(variant)[0]
        for index, row in enumerate(rows):
            for game in range(games):
                setup = Setup(variant, row, seed + 7919 * index + game)
                try:
                    actions += check_game(setup)
                except CheckFailed as exc:
                    failures.append(str(exc))
                played += 1
    return played, actions, failures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", action="append", choices=VARIANT_NAMES, help="repeatable; default: all")
    parser.add_argument("--games", type=int, default=1, help="games per row (default 1)")
    parser.add_argument("--exhaustive", action="store_true", help="every combination of every option")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    variants = args.variant or list(VARIANT_NAMES)
    start = time.perf_counter()
    played, actions, failures = run(variants, args.games, args.exhaustive, args.seed)
    seconds = time.perf_counter() - start
    for failure in failures:
        print("FAILED", failure)
    print(f"{played} games, {actions} actions, {len(failures)} failed, {seconds:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
