"""The card-kind table: everything about a kind of card in one entry, and its handlers.

Each :class:`CardKind` says what a kind is (notation name, printed title, short label, wild
or not, its number), what it does to others as data (what it makes its victim draw or press,
whether the victim loses the turn, whether it can be challenged or stacked, which colour it
discards), its points in each family of decks, and three handlers: what it does when played
(``effect``), when it is the player's last card (``last``, before the round is scored) and
when it is the first card turned up (``first``). The engine dispatches through this table;
bots, environments, the terminal game and narration read it instead of keeping their own
lists.

Adding a card kind is one entry here (with at most one new handler); the building blocks the
handlers call (drawing, pressing, naming a colour, asking for discards, ...) are methods of
:class:`~unokit.core.game.Game` in :mod:`~unokit.core.effects` and :mod:`~unokit.core.draws`.
Kind ids are fixed: the order of card types in a deck, and so the order of legal actions and
the environments' action ids, follow them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .types import Color, DecisionKind, KindId, Seat

if TYPE_CHECKING:
    from .effects import Effects as Game  # the handlers need the game's effect building blocks

#: ``effect(game, seat, kind, chosen, previous)``: ``seat`` just played a card of ``kind``
#: (naming ``chosen``, or ``NO_COLOR``) on ``previous`` (the colour in play before it) and still
#: holds cards. The handler applies the effect and opens the next decision.
Effect = Callable[["Game", Seat, "CardKind", Color, Color], None]
#: ``last(game, seat, kind, chosen)``: the card was ``seat``'s last; do what it makes the others
#: do before the round is scored (R-1.6). ``None``: nothing.
LastCard = Callable[["Game", Seat, "CardKind", Color], None]
#: ``first(game, first_player, kind)``: the card was turned up to start the discard pile (its
#: colour is already in play); apply its first-card rule and open the first decision.
FirstCard = Callable[["Game", Seat, "CardKind"], None]
#: ``target(game, seat, target, kind)``: ``seat`` chose ``target`` for a card of ``kind``.
Target = Callable[["Game", Seat, Seat, "CardKind"], None]

#: The point family of every deck: a kind's points may differ between families (a Wild is
#: worth 50 in Classic and Attack, 40 in the Flip decks).
ANY_FAMILY = "*"


@dataclass(frozen=True, slots=True, eq=False)
class CardKind:
    """One kind of card face. Fields that describe effects are what bots and docs read; the
    handlers are what the engine runs."""

    id: KindId
    name: str  # notation: "wild_draw_four"
    title: str  # printed name: "Wild Draw Four"
    short: str  # label for tight spaces: "W+4"
    effect: Effect
    wild: bool = False  # colourless: playable on anything
    number: int = -1  # 0-9 for number cards
    draws: int = 0  # cards its victim draws (or its player, for Wild Villain's target)
    presses: int = 0  # launcher presses its victim makes
    until: str = ""  # "color": draw until the named colour, "fire": press until it fires, or an icon
    skips: bool = False  # the victim (the next player) loses the turn
    reverses: bool = False
    plays_again: bool = False  # the player plays again (Skip Everyone)
    hits_all: bool = False  # every other player presses (Wild All Hit)
    stackable: bool = False  # a coloured draw or Hit card: with stacking it may be answered (R-1.9, H-3)
    challengeable: bool = False  # the next player may challenge it
    color_with_play: bool = False  # a wild whose play names a colour (``play wild red``)
    discards: str = ""  # "own": every card of its colour goes too; "named": of the colour named
    may_go_out: bool = True  # False: may not be the last card (Trade Hands, R-4.3)
    victim: str = ""  # who it hits: "next", "most" / "fewest" (most or fewest cards), "chosen", "all"
    opens: tuple[DecisionKind, ...] = ()  # decisions it may open besides a turn
    points: Mapping[str, int] = field(default_factory=dict)  # by deck family (ANY_FAMILY: all)
    first: FirstCard | None = None  # None: never turned up first under the by-kind rule
    returned_first: bool = False  # turned up first, it goes back and another is turned
    last: LastCard | None = None
    target: Target | None = None
    rule: str = ""  # the rule ids it implements

    @property
    def again_with_two(self) -> bool:
        """With two players the player of a card of this kind moves again: its victim loses the
        turn, a Reverse acts as a Skip (R-1.10), Skip Everyone skips the only other player."""
        return self.skips or self.reverses or self.plays_again

    def points_in(self, family: str) -> int:
        """Points of this kind left in a hand, in decks of ``family`` (numbers: face value)."""
        if self.number >= 0:
            return self.number
        value = self.points.get(family, self.points.get(ANY_FAMILY))
        if value is None:
            raise KeyError(f"{self.name} has no points in {family} decks")
        return value

    @property
    def is_number(self) -> bool:
        """True for the number cards 0-9."""
        return self.number >= 0

    def __repr__(self) -> str:
        return f"CardKind({self.name!r})"


def _pts(default: int | None = None, **by_family: int) -> dict[str, int]:
    out = dict(by_family)
    if default is not None:
        out[ANY_FAMILY] = default
    return out


# ----------------------------------------------------------------------------- effects
# Each handler cites the rule it implements. ``seat`` is the player of the card.


def pass_turn(game: Game, seat: Seat, kind: CardKind, chosen: Color, previous: Color) -> None:
    """No effect: the next player plays (numbers, Wild, Discard All; R-1.4, R-4.3)."""
    game._start_turn((seat + game.direction) % game.n)


def seven(game: Game, seat: Seat, kind: CardKind, chosen: Color, previous: Color) -> None:
    """A 7: with ``seven_o`` the player chooses whom to swap hands with (H-2), else no effect."""
    if game.options.seven_o:
        game._choose_player(seat)
    else:
        game._advance(seat)


def zero(game: Game, seat: Seat, kind: CardKind, chosen: Color, previous: Color) -> None:
    """A 0: with ``seven_o`` every hand passes one seat in the direction of play (H-2), else
    no effect."""
    if game.options.seven_o:
        game._pass_hands()
    game._advance(seat)


def skip_next(game: Game, seat: Seat, kind: CardKind, chosen: Color, previous: Color) -> None:
    """Skip: the next player loses the turn (R-3.4)."""
    game._skip_next(seat)


def reverse(game: Game, seat: Seat, kind: CardKind, chosen: Color, previous: Color) -> None:
    """Reverse: the direction changes; with two players it acts as a Skip (R-1.10)."""
    game._reverse(seat)


def draw_card(game: Game, seat: Seat, kind: CardKind, chosen: Color, previous: Color) -> None:
    """Draw One / Two / Five: the next player draws and loses the turn (R-2.3, R-3.4); with
    stacking the total grows and passes to the next player (R-1.9)."""
    if game.options.stacking:
        game.stack_total += kind.draws
        game._advance(seat)
    else:
        game._draw(game.next_seat(seat), kind.draws, kind.name)
        game._advance(seat, 2)


def skip_everyone(game: Game, seat: Seat, kind: CardKind, chosen: Color, previous: Color) -> None:
    """Skip Everyone: the player plays again (R-3.4, R-5.4)."""
    game._emit({"type": "skip_everyone", "seat": seat})
    game._start_turn(seat)


def flip(game: Game, seat: Seat, kind: CardKind, chosen: Color, previous: Color) -> None:
    """Flip: everything turns over; the new top card's action is ignored (R-3.7, R-5.3)."""
    game._flip()
    game._after_flip(seat)


def wild_draw(game: Game, seat: Seat, kind: CardKind, chosen: Color, previous: Color) -> None:
    """Wild Draw Four / Two / Color: the next player may challenge, else draws (R-2.3, R-3.5,
    R-3.6)."""
    game._wild_draw(seat, kind, chosen, previous)


def hit(game: Game, seat: Seat, kind: CardKind, chosen: Color, previous: Color) -> None:
    """Hit 2 / 2X / 5X: the next player presses and loses the turn (R-4.3, R-5.4); with
    stacking the presses add up and pass to the next player (H-3)."""
    if game.options.stacking:
        game.stack_total += kind.presses
        game._advance(seat)
    else:
        game._penalty(game.next_seat(seat), kind.presses, kind.name)
        game._advance(seat, 2)


def trade_hands(game: Game, seat: Seat, kind: CardKind, chosen: Color, previous: Color) -> None:
    """Trade Hands: the player chooses whom to swap hands with (R-4.3)."""
    game._choose_player(seat)


def all_hit(game: Game, seat: Seat, kind: CardKind, chosen: Color, previous: Color) -> None:
    """Wild All Hit: every other player presses once, then the next player plays (R-4.3)."""
    game._all_hit(seat)
    game._advance(seat)


def hit_fire(game: Game, seat: Seat, kind: CardKind, chosen: Color, previous: Color) -> None:
    """Wild Hit-Fire: the next player presses until it fires and loses the turn (R-4.3)."""
    game._press_until_fire(game.next_seat(seat), kind.name)
    game._advance(seat, 2)


def press_your_luck(game: Game, seat: Seat, kind: CardKind, chosen: Color, previous: Color) -> None:
    """Wild Press Your Luck: the player presses as long as they like (R-5.5)."""
    game._start_press_your_luck(seat)


def all_out_attack(game: Game, seat: Seat, kind: CardKind, chosen: Color, previous: Color) -> None:
    """Wild All-Out Attack: presses from the next player until it fires; that player takes every
    ejected card and plays next (R-5.6)."""
    target = game.next_seat(seat)
    game._all_out_attack(target)
    game._start_turn(target)


def wild_discard_all(game: Game, seat: Seat, kind: CardKind, chosen: Color, previous: Color) -> None:
    """Wild Discard All: the colour named with the play was discarded; now the player names
    the colour for the pile (R-5.7)."""
    game._choose_color(seat, game.next_seat(seat))


def super_hero(game: Game, seat: Seat, kind: CardKind, chosen: Color, previous: Color) -> None:
    """Wild Super Hero: the player holding the most cards discards one of their choice, then
    names the colour (R-7, D-19, D-20)."""
    game._ask_discards(game._holding(seat, most=True), 1, kind, game.next_seat(seat), names_color=True)


def villain(game: Game, seat: Seat, kind: CardKind, chosen: Color, previous: Color) -> None:
    """Wild Villain: the player holding the fewest cards draws three, then names the colour
    (R-7, D-19)."""
    victim = game._holding(seat, most=False)
    game._draw(victim, kind.draws, kind.name)
    game._choose_color(victim, game.next_seat(seat))


def jim_hopper(game: Game, seat: Seat, kind: CardKind, chosen: Color, previous: Color) -> None:
    """Wild Jim Hopper: the player holding the most cards discards half of them, rounded up,
    of their choice; the player of the card named the colour with the play (R-7, D-19, D-20)."""
    victim = game._holding(seat, most=True)
    count = (len(game.hands[victim]) + 1) // 2
    game._ask_discards(victim, count, kind, game.next_seat(seat), names_color=False)


def elevens_waffle(game: Game, seat: Seat, kind: CardKind, chosen: Color, previous: Color) -> None:
    """Wild Eleven's Waffle: the player holding the fewest cards draws until a card with the
    waffle icon; the player of the card named the colour with the play (R-7, D-19, D-21)."""
    game._draw_until(game._holding(seat, most=False), kind.name, icon=kind.until)
    game._advance(seat)


def choose_target(game: Game, seat: Seat, kind: CardKind, chosen: Color, previous: Color) -> None:
    """A card that challenges another player: its player chooses whom (R-7)."""
    game._choose_target(seat, kind)


def optimus_prime(game: Game, seat: Seat, target: Seat, kind: CardKind) -> None:
    """Wild The Might of Optimus Prime: the higher best number card wins, a tie or a target
    without numbers goes to the player; the winner discards two cards, never the last (R-7,
    D-22)."""
    mine, theirs = game._best_number(seat, highest=True), game._best_number(target, highest=True)
    winner = target if theirs > mine else seat  # -1: no number card
    game._duel(seat, target, kind, winner, highest=True)
    count = min(2, len(game.hands[winner]) - 1)
    if count > 0:
        game._ask_discards(winner, count, kind, game.next_seat(seat), names_color=False)
    else:
        game._advance(seat)


def megatron(game: Game, seat: Seat, target: Seat, kind: CardKind) -> None:
    """Wild The Tyranny of Megatron: the one whose lowest number card is lower draws two, a tie
    against the target; the winner names the colour (R-7, D-22)."""
    mine, theirs = game._best_number(seat, highest=False), game._best_number(target, highest=False)
    player_loses = mine >= 0 and (theirs < 0 or mine < theirs)  # -1: no number card
    loser, winner = (seat, target) if player_loses else (target, seat)
    game._duel(seat, target, kind, winner, highest=False)
    game._draw(loser, kind.draws, kind.name)
    game._choose_color(winner, game.next_seat(seat))


# ----------------------------------------------------------------------------- last card


def last_draw(game: Game, seat: Seat, kind: CardKind, chosen: Color) -> None:
    """A draw card as the last card: the next player still draws, the stacked total too."""
    total = kind.draws + game.stack_total
    game.stack_total = 0
    game._draw(game.next_seat(seat), total, kind.name)


def last_wild_draw(game: Game, seat: Seat, kind: CardKind, chosen: Color) -> None:
    """A Wild Draw card as the last card: no challenge, the next player draws (D-3); played on
    a stacked draw (H-3), the whole total."""
    if game.stack_total:
        total = game.stack_total + kind.draws
        game.stack_total = 0
        game._draw(game.next_seat(seat), total, kind.name)
    else:
        game._wild_draw_penalty(game.next_seat(seat), kind, chosen, fair_challenged=False)


def last_hit(game: Game, seat: Seat, kind: CardKind, chosen: Color) -> None:
    """A Hit card as the last card: the next player still presses, the stacked total too (H-3)."""
    total = kind.presses + game.stack_total
    game.stack_total = 0
    game._penalty(game.next_seat(seat), total, kind.name)


def last_all_hit(game: Game, seat: Seat, kind: CardKind, chosen: Color) -> None:
    """Wild All Hit as the last card: everyone else still presses."""
    game._all_hit(seat)


def last_hit_fire(game: Game, seat: Seat, kind: CardKind, chosen: Color) -> None:
    """Wild Hit-Fire as the last card: the next player still presses until it fires."""
    game._press_until_fire(game.next_seat(seat), kind.name)


def last_all_out_attack(game: Game, seat: Seat, kind: CardKind, chosen: Color) -> None:
    """Wild All-Out Attack as the last card: the presses still happen."""
    game._all_out_attack(game.next_seat(seat))


def last_flip(game: Game, seat: Seat, kind: CardKind, chosen: Color) -> None:
    """Flip as the last card: everything flips and the round is scored on the new side."""
    game._flip()
    game.color = game.deck.color[game.side][game.discard[-1]]  # a wild on top names no colour: the round is over


# ----------------------------------------------------------------------------- first card


def first_play(game: Game, first: Seat, kind: CardKind) -> None:
    """The first player plays on it."""
    game._start_turn(first)


def first_skip(game: Game, first: Seat, kind: CardKind) -> None:
    """Skip: the first player is skipped."""
    game._emit({"type": "skip", "seat": first})
    game._start_turn(game.next_seat(first))


def first_reverse(game: Game, first: Seat, kind: CardKind) -> None:
    """Reverse: the dealer plays first and play goes right."""
    game.direction = -1
    game._emit({"type": "reverse", "direction": "counterclockwise"})
    game._start_turn(game.dealer)


def first_draw(game: Game, first: Seat, kind: CardKind) -> None:
    """Draw Two / Draw One: the first player draws and loses the turn."""
    game._draw(first, kind.draws, "first_card")
    game._start_turn(game.next_seat(first))


def first_choose_color(game: Game, first: Seat, kind: CardKind) -> None:
    """A wild: the first player names the colour (a themed special acts as a plain Wild, D-23)."""
    game._choose_color(first, first)


def first_flip(game: Game, first: Seat, kind: CardKind) -> None:
    """Flip: everything turns to the other side before the first player plays; the new top's
    action is ignored, a wild's colour is named by the first player (R-3.8, D-18)."""
    game._flip()
    top = game.discard[-1]
    if game.deck.kinds[game.side][top].wild:
        game._choose_color(first, first)
    else:
        game.color = game.deck.color[game.side][top]
        game._start_turn(first)


def first_hit(game: Game, first: Seat, kind: CardKind) -> None:
    """Hit 2: the first player presses twice and loses the turn."""
    game._penalty(first, kind.presses, "first_card")
    game._start_turn(game.next_seat(first))


def first_all_hit(game: Game, first: Seat, kind: CardKind) -> None:
    """Wild All Hit: every player but the dealer presses once from the first player, then the
    first player names the colour and plays (D-6)."""
    seat = first
    while seat != game.dealer:
        game._press(seat, "first_card")
        seat = game.next_seat(seat)
    game._choose_color(first, first)


def first_hit_fire(game: Game, first: Seat, kind: CardKind) -> None:
    """Wild Hit-Fire: the first player presses until it fires and loses the turn; the player
    after them names the colour and plays (D-6)."""
    game._press_until_fire(first, "first_card")
    second = game.next_seat(first)
    game._choose_color(second, second)


# ----------------------------------------------------------------------------- the table
#: What challenging a fair Wild Draw play costs the challenger beyond the card's own draw: this
#: many cards more (R-2.3: 4 + 2 = 6; R-3.5: 2 + 2; R-3.6: until the colour, then 2 more; a
#: stacked total + 2, H-3). A challenged bluff costs its player the card's own draw.
FAIR_CHALLENGE_EXTRA = 2

_C = DecisionKind.CHALLENGE
_CS = (DecisionKind.CHALLENGE, DecisionKind.STACK)  # a stack with progressive or mixed stacking (H-3)
_COLOR = DecisionKind.CHOOSE_COLOR
#: The numbers' effects: none, but a 0 and a 7 under ``seven_o`` (H-2).
_NUMBER_EFFECTS: dict[int, Effect] = {0: zero, 7: seven}
_NUMBERS = tuple(
    CardKind(n, str(n), str(n), str(n), _NUMBER_EFFECTS.get(n, pass_turn), number=n, first=first_play, rule="R-1.4")
    for n in range(10)
)

# fmt: off
#: Every kind, indexed by its id.
KINDS: tuple[CardKind, ...] = (
    *_NUMBERS,
    CardKind(10, "skip", "Skip", "S", skip_next, skips=True, victim="next", points=_pts(20), first=first_skip,
             rule="R-3.4"),
    CardKind(11, "reverse", "Reverse", "R", reverse, reverses=True, points=_pts(20), first=first_reverse,
             rule="R-1.10"),
    CardKind(12, "draw_two", "Draw Two", "+2", draw_card, draws=2, skips=True, stackable=True, victim="next",
             opens=(DecisionKind.STACK,), points=_pts(20), first=first_draw, last=last_draw, rule="R-2.3"),
    CardKind(13, "draw_one", "Draw One", "+1", draw_card, draws=1, skips=True, stackable=True, victim="next",
             opens=(DecisionKind.STACK,), points=_pts(10), first=first_draw, last=last_draw, rule="R-3.4"),
    CardKind(14, "draw_five", "Draw Five", "+5", draw_card, draws=5, skips=True, stackable=True, victim="next",
             opens=(DecisionKind.STACK,), points=_pts(20), first=first_draw, last=last_draw, rule="R-3.4"),
    CardKind(15, "skip_everyone", "Skip Everyone", "SE", skip_everyone, plays_again=True, victim="all",
             points=_pts(30), rule="R-3.4"),
    CardKind(16, "flip", "Flip", "F", flip, opens=(_COLOR,), points=_pts(20), first=first_flip, last=last_flip,
             rule="R-3.7"),
    CardKind(17, "hit_2", "Hit 2", "H2", hit, presses=2, skips=True, stackable=True, victim="next",
             opens=(DecisionKind.STACK,), points=_pts(20), first=first_hit, last=last_hit, rule="R-4.3"),
    CardKind(18, "hit_2x", "Hit 2X", "H2x", hit, presses=2, skips=True, stackable=True, victim="next",
             opens=(DecisionKind.STACK,), points=_pts(10), last=last_hit, rule="R-5.4"),
    CardKind(19, "hit_5x", "Hit 5X", "H5x", hit, presses=5, skips=True, stackable=True, victim="next",
             opens=(DecisionKind.STACK,), points=_pts(20), last=last_hit, rule="R-5.4"),
    CardKind(20, "discard_all", "Discard All", "DA", pass_turn, discards="own", points=_pts(attack=30, flip_attack=20),
             first=first_play, rule="R-4.3"),
    CardKind(21, "trade_hands", "Trade Hands", "TH", trade_hands, may_go_out=False, victim="chosen",
             opens=(DecisionKind.CHOOSE_PLAYER,), points=_pts(30), returned_first=True, rule="R-4.3"),
    CardKind(22, "wild", "Wild", "W", pass_turn, wild=True, color_with_play=True,
             points=_pts(classic=50, attack=50, flip=40, flip_attack=40), first=first_choose_color, rule="R-1.4"),
    CardKind(23, "wild_draw_four", "Wild Draw Four", "W+4", wild_draw, wild=True, color_with_play=True, draws=4,
             skips=True, challengeable=True, victim="next", opens=_CS, points=_pts(50), returned_first=True,
             last=last_wild_draw, rule="R-2.3"),
    CardKind(24, "wild_draw_two", "Wild Draw Two", "W+2", wild_draw, wild=True, color_with_play=True, draws=2,
             skips=True, challengeable=True, victim="next", opens=_CS, points=_pts(50), returned_first=True,
             last=last_wild_draw, rule="R-3.5"),
    CardKind(25, "wild_draw_color", "Wild Draw Color", "W+C", wild_draw, wild=True, color_with_play=True,
             until="color", skips=True, challengeable=True, victim="next", opens=(_C,), points=_pts(60),
             last=last_wild_draw, rule="R-3.6"),
    CardKind(26, "wild_all_hit", "Wild All Hit", "WAH", all_hit, wild=True, color_with_play=True, presses=1,
             hits_all=True, victim="all", points=_pts(50), first=first_all_hit, last=last_all_hit, rule="R-4.3"),
    CardKind(27, "wild_hit_fire", "Wild Hit-Fire", "WHF", hit_fire, wild=True, color_with_play=True, until="fire",
             skips=True, victim="next", points=_pts(50), first=first_hit_fire, last=last_hit_fire, rule="R-4.3"),
    CardKind(28, "wild_press_your_luck", "Wild Press Your Luck", "WPL", press_your_luck, wild=True,
             color_with_play=True, opens=(DecisionKind.PRESS_YOUR_LUCK, DecisionKind.CHOOSE_DISCARD),
             points=_pts(60), rule="R-5.5"),
    CardKind(29, "wild_all_out_attack", "Wild All-Out Attack", "WAA", all_out_attack, wild=True,
             color_with_play=True, until="fire", victim="next", points=_pts(60), last=last_all_out_attack,
             rule="R-5.6"),
    CardKind(30, "wild_discard_all", "Wild Discard All", "WDA", wild_discard_all, wild=True, color_with_play=True,
             discards="named", opens=(_COLOR,), points=_pts(50), rule="R-5.7"),
    # UNO Flip Marvel: each special is a wild worth 40; as the last card it does nothing (D-24).
    CardKind(31, "wild_super_hero", "Wild Super Hero", "WSH", super_hero, wild=True, victim="most",
             opens=(DecisionKind.DISCARD_CARDS, _COLOR), points=_pts(40), first=first_choose_color, rule="R-7"),
    CardKind(32, "wild_villain", "Wild Villain", "WV", villain, wild=True, draws=3, victim="fewest",
             opens=(_COLOR,), points=_pts(40), first=first_choose_color, rule="R-7"),
    # UNO Flip Stranger Things.
    CardKind(33, "wild_jim_hopper", "Wild Jim Hopper", "WJH", jim_hopper, wild=True, color_with_play=True,
             victim="most", opens=(DecisionKind.DISCARD_CARDS,), points=_pts(40), first=first_choose_color,
             rule="R-7"),
    CardKind(34, "wild_elevens_waffle", "Wild Eleven's Waffle", "WEW", elevens_waffle, wild=True,
             color_with_play=True, until="waffle", victim="fewest", points=_pts(40), first=first_choose_color,
             rule="R-7"),
    # UNO Flip Transformers.
    CardKind(35, "wild_optimus_prime", "Wild The Might of Optimus Prime", "WOP", choose_target, wild=True,
             color_with_play=True, victim="chosen", opens=(DecisionKind.CHOOSE_TARGET, DecisionKind.DISCARD_CARDS),
             points=_pts(40), first=first_choose_color, target=optimus_prime, rule="R-7"),
    CardKind(36, "wild_megatron", "Wild The Tyranny of Megatron", "WM", choose_target, wild=True, draws=2,
             victim="chosen", opens=(DecisionKind.CHOOSE_TARGET, _COLOR), points=_pts(40), first=first_choose_color,
             target=megatron, rule="R-7"),
)
# fmt: on

KIND_BY_NAME: dict[str, KindId] = {kind.name: kind.id for kind in KINDS}
#: Names, titles and wildness by kind id, for the hot paths and for notation.
KIND_NAMES: tuple[str, ...] = tuple(kind.name for kind in KINDS)
KIND_TITLES: tuple[str, ...] = tuple(kind.title for kind in KINDS)
IS_WILD: tuple[bool, ...] = tuple(kind.wild for kind in KINDS)

assert all(kind.id == i for i, kind in enumerate(KINDS)), "kind ids must be their index"
