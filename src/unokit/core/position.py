"""The position format: a game's whole state as a JSON object (like FEN for chess).

``to_position(game)`` works at any point of a game, with the open decision in ``pending``;
``from_position(obj)`` rebuilds it. Cards are written in the text notation, full form on
double-sided decks (``red 5/pink 2``). Deck cards named nowhere are shuffled with ``seed``
and placed under the named ``draw`` cards, so a test can name only the cards that matter.
See ``docs/formats.md`` for every field.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from . import cards as C
from .decisions import DECISION_TYPES, OVER
from .decks import Deck, Pair
from .errors import OptionError, PositionError, quote
from .game import Game, action_table
from .launcher import launcher_from_state, make_launcher
from .rng import Rng
from .types import CardId, Color, DecisionKind, Seat
from .variants import check_table, custom_deck, get_rules, make_options, paired_deck
from .windows import JumpIn, UnoCatch, Window

FORMAT = "unokit-position/1"
_FIELDS = frozenset(
    {
        "format",
        "variant",
        "options",
        "players",
        "dealer",
        "round",
        "scores",
        "side",
        "direction",
        "turn",
        "color",
        "hands",
        "discard",
        "draw",
        "launcher",
        "seed",
        "pending",
        "uno_exposed",
        "stack",
        "passes",
        "winners",
        "deck",
        "jump_in",
    }
)


def pending_to_json(game: Game) -> dict[str, Any]:
    """The open decision with every fact the engine needs to continue it."""
    return game.open_decision.to_json(game)


def public_pending(game: Game, seat: Seat | None) -> dict[str, Any]:
    """:func:`pending_to_json` less what ``seat`` may not know (fairness, another's drawn card);
    ``seat=None`` is a spectator, who knows what every player knows."""
    return game.open_decision.public(game, seat)


def exposed_seat(game: Game) -> Seat | None:
    """The seat of the open UNO catch window (R-1.5, D-2), caught or not, or ``None``."""
    for window in game.windows:
        if isinstance(window, UnoCatch):
            return window.seat
    return None


def jump_in_seat(game: Game) -> Seat | None:
    """The seat that played the top card while a Jump-In window is open on it (H-1), or ``None``."""
    for window in game.windows:
        if isinstance(window, JumpIn):
            return window.by
    return None


def jumps_may_come(game: Game) -> bool:
    """Whether another seat may jump in now (H-1): a Jump-In window is open and the next player
    has not begun its turn. Public, like the window itself: it does not say whether anyone holds
    an identical card."""
    return any(isinstance(window, JumpIn) and window.open_to_jumps(game) for window in game.windows)


def to_position(game: Game) -> dict[str, Any]:
    """The full state of ``game`` as a JSON-serialisable position object."""
    text = game.deck.text
    obj: dict[str, Any] = {
        "format": FORMAT,
        "variant": game.variant,
        "options": game.options.as_dict(game.rules),
        "players": game.n,
        "dealer": game.dealer,
        "round": game.round_number,
        "scores": list(game.scores),
        "side": game.side_name,
        "direction": "clockwise" if game.direction == 1 else "counterclockwise",
        "turn": game.turn,
        "color": C.COLOR_NAMES[game.color] if game.color >= 0 else None,
        "hands": [[text[t] for t in hand] for hand in game.hands],
        "discard": [text[t] for t in game.discard],
        "draw": [text[t] for t in reversed(game.draw)],
        "launcher": game.launcher.state() if game.launcher is not None else None,
        "seed": game.rng.state,
        "pending": pending_to_json(game),
        "uno_exposed": exposed_seat(game),
        "stack": game.stack_total,
        "passes": game.passes,
        "winners": game.winners,
    }
    if game.options.pairing == "random" and game.rules.double_sided:
        obj["deck"] = [str(game.deck.types[t]) for t in game.deck.cards()]
    jumped_on = jump_in_seat(game)
    if jumped_on is not None:
        obj["jump_in"] = jumped_on
    return obj


def _need(obj: dict[str, Any], key: str) -> Any:
    if key not in obj:
        raise PositionError(f"the position has no {key!r}")
    return obj[key]


def _int(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise PositionError(f"{what} must be a whole number from {low} to {high}, not {quote(value)}")
    return value


def _parse_card(deck: Deck, text: Any, side: int, where: str) -> CardId:
    if not isinstance(text, str):
        raise PositionError(f"{where}: a card is text like 'red 5', not {quote(text)}")
    try:
        if "/" in text:
            light, _, dark = text.partition("/")
            canonical = f"{C.face_text(C.parse_face(light))}/{C.face_text(C.parse_face(dark))}"
            t = deck.type_id(canonical)
            if t is None:
                raise PositionError(f"{where}: there is no card {quote(text)} in this deck")
            return t
        face = C.face_text(C.parse_face(text))
    except PositionError:
        raise
    except ValueError as exc:
        raise PositionError(f"{where}: {exc}") from None
    matches = [t for t in range(len(deck.types)) if deck.face_texts[side][t] == face]
    if not matches:
        raise PositionError(f"{where}: there is no card {face!r} on this side of the deck")
    if len(matches) > 1:
        names = ", ".join(deck.text[t] for t in matches)
        raise PositionError(f"{where}: {face!r} could be any of {names}; name the card in full")
    return matches[0]


def _parse_cards(deck: Deck, value: Any, side: int, where: str) -> list[int]:
    if not isinstance(value, list):
        raise PositionError(f"{where} must be a list of cards")
    return [_parse_card(deck, text, side, where) for text in value]


def _color(value: Any, where: str) -> Color:
    if value is None:
        return C.NO_COLOR
    if not isinstance(value, str) or value not in C.COLOR_BY_NAME:
        raise PositionError(f"{where} must be a colour name or null, not {quote(value)}")
    return C.COLOR_BY_NAME[value]


class _Reader:
    """How decisions read their fields from a position (:class:`~unokit.core.decisions.Reader`)."""

    def __init__(self, deck: Deck, side: int, players: int) -> None:
        self.deck = deck
        self.side = side
        self.players = players

    def card(self, value: object, where: str) -> CardId:
        return _parse_card(self.deck, value, self.side, where)

    def cards(self, value: object, where: str) -> list[CardId]:
        return _parse_cards(self.deck, value, self.side, where)

    def seat(self, value: object, where: str) -> Seat:
        return _int(value, where, 0, self.players - 1)

    def color(self, value: object, where: str) -> Color:
        return _color(value, where)

    def whole(self, value: object, where: str, low: int, high: int) -> int:
        return _int(value, where, low, high)


def from_position(obj: dict[str, Any]) -> Game:
    """Rebuild a :class:`Game` from a position; raise :class:`PositionError` naming the problem."""
    if not isinstance(obj, dict):
        raise PositionError("a position is a JSON object")
    unknown = set(obj) - _FIELDS
    if unknown:
        raise PositionError(f"unknown position field(s): {', '.join(sorted(unknown))}")
    if obj.get("format", FORMAT) != FORMAT:
        raise PositionError(f"unsupported position format {quote(obj.get('format'))}; expected {FORMAT!r}")
    variant = _need(obj, "variant")
    if not isinstance(variant, str):
        raise PositionError(f"'variant' must be the name of a variant, such as 'classic', not {quote(variant)}")
    try:
        rules = get_rules(variant)
        raw_options = obj.get("options") or {}
        if not isinstance(raw_options, dict):
            raise PositionError("'options' must be an object")
        options = make_options(rules, raw_options)
    except OptionError as exc:
        raise PositionError(str(exc)) from None
    players = _int(_need(obj, "players"), "players", rules.min_players, rules.max_players)
    try:
        check_table(options, players)
    except OptionError as exc:
        raise PositionError(str(exc)) from None
    seed = _need(obj, "seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise PositionError(f"'seed' must be a whole number of 0 or more, not {quote(seed)}")
    base = custom_deck(rules, options.deck) if options.deck else rules.standard_deck()
    if options.pairing == "random" and rules.double_sided:
        deck_texts = _need(obj, "deck")
        if not isinstance(deck_texts, list) or not all(isinstance(x, str) and "/" in x for x in deck_texts):
            raise PositionError("'deck' must list every card as 'light/dark'")
        try:
            pairs: list[Pair] = []
            for text in deck_texts:
                light, _, dark = text.partition("/")
                pairs.append((C.parse_face(light), C.parse_face(dark)))
        except ValueError as exc:
            raise PositionError(f"'deck': {exc}") from None
        reference = base.pairs()
        if Counter(p[0] for p in pairs) != Counter(p[0] for p in reference) or Counter(p[1] for p in pairs) != Counter(
            p[1] for p in reference
        ):
            raise PositionError(f"'deck' does not hold the faces of {rules.title}")
        deck = paired_deck(base, pairs)
    else:
        deck = base
    game = Game(rules, options, players, seed, deck, action_table(deck))
    side_name = obj.get("side", rules.side_names[0])
    if side_name not in rules.side_names or (not rules.double_sided and side_name != rules.side_names[0]):
        raise PositionError(f"'side' must be {' or '.join(rules.side_names[: 2 if rules.double_sided else 1])}")
    side = rules.side_names.index(side_name)
    game.side = side
    direction = obj.get("direction", "clockwise")
    if direction not in ("clockwise", "counterclockwise"):
        raise PositionError("'direction' must be clockwise or counterclockwise")
    game.direction = 1 if direction == "clockwise" else -1
    game.dealer = _int(obj.get("dealer", 0), "dealer", 0, players - 1)
    game.turn = _int(_need(obj, "turn"), "turn", 0, players - 1)
    game.round_number = _int(obj.get("round", 1), "round", 1, 10**9)
    scores = obj.get("scores", [0] * players)
    if not isinstance(scores, list) or len(scores) != players:
        raise PositionError(f"'scores' must list {players} numbers")
    game.scores = [_int(s, "a score", 0, 10**9) for s in scores]
    hands = _need(obj, "hands")
    if not isinstance(hands, list) or len(hands) != players:
        raise PositionError(f"'hands' must list {players} hands")
    game.hands = [_parse_cards(deck, hand, side, f"hand of seat {i}") for i, hand in enumerate(hands)]
    game.discard = _parse_cards(deck, _need(obj, "discard"), side, "discard")
    named_draw = _parse_cards(deck, obj.get("draw", []), side, "draw")
    named: Counter[int] = Counter(t for hand in game.hands for t in hand)
    named.update(game.discard)
    named.update(named_draw)
    for t, count in named.items():
        if count > deck.counts[t]:
            raise PositionError(f"the position names {count} of {deck.text[t]}, but the deck has {deck.counts[t]}")
    rest = [t for t in range(len(deck.types)) for _ in range(deck.counts[t] - named.get(t, 0))]
    game.rng = Rng(seed)
    game.rng.shuffle(rest)
    game.draw = rest + named_draw[::-1]
    if rules.uses_launcher:
        state = obj.get("launcher")
        game.launcher = (
            make_launcher(options.launcher, options.launcher_script) if state is None else launcher_from_state(state)
        )
        if game.launcher.model != options.launcher:
            raise PositionError(f"launcher model {game.launcher.model!r} differs from option {options.launcher!r}")
        game._atomic = game.launcher.can_fail
    elif obj.get("launcher") is not None:
        raise PositionError(f"{rules.title} has no launcher")
    game.color = _color(obj.get("color"), "'color'")
    if game.color >= 0 and game.color not in C.SIDE_COLORS[side]:
        raise PositionError(f"colour {C.COLOR_NAMES[game.color]} is not on the {side_name} side")
    windows: list[Window] = []
    exposed = obj.get("uno_exposed")
    if exposed is not None:
        windows.append(UnoCatch(_int(exposed, "'uno_exposed'", 0, players - 1)))
    jumped_on = obj.get("jump_in")
    if jumped_on is not None:
        if not options.jump_in:
            raise PositionError("'jump_in' (a Jump-In window) needs the option jump_in=true")
        windows.append(JumpIn(_int(jumped_on, "'jump_in'", 0, players - 1)))
    game.windows = tuple(windows)
    game.stack_total = _int(obj.get("stack", 0), "'stack'", 0, 10**6)
    if game.stack_total and not options.stacking:
        raise PositionError("'stack' needs the option stacking=true")
    game.passes = _int(obj.get("passes", 0), "'passes'", 0, players)
    pending = obj.get("pending") or {
        "kind": "stack" if game.stack_total else "turn",
        "seat": game.turn,
    }
    kind = pending.get("kind") if isinstance(pending, dict) else None
    if not isinstance(kind, str) or kind not in DECISION_TYPES:
        names = ", ".join(DECISION_TYPES)
        raise PositionError(f"'pending' must be an object whose kind is one of {names}")
    decision_type = DECISION_TYPES[DecisionKind(kind)]
    if decision_type is type(OVER):
        winners = obj.get("winners") or []
        if not isinstance(winners, list) or not winners:
            raise PositionError("a finished game lists its 'winners'")
        game._winners = [_int(w, "a winner", 0, players - 1) for w in winners]
        game._decision = OVER
        game.is_over = True
        return game
    if not game.discard:
        raise PositionError("'discard' needs at least its top card while the game runs")
    if jumped_on is not None and game.deck.color[side][game.discard[-1]] < 0:
        raise PositionError("a Jump-In window ('jump_in') opens only on a coloured top card (H-1)")
    seat = _int(pending.get("seat", game.turn), "pending 'seat'", 0, players - 1)
    if kind in (DecisionKind.TURN, DecisionKind.STACK):
        if (kind == DecisionKind.STACK) != bool(game.stack_total):
            raise PositionError("a 'stack' decision goes with a positive 'stack' total, and only then")
        if game.color < 0:
            raise PositionError("'color' must name the colour in play")
    decision = decision_type.from_json(game, pending, seat, _Reader(deck, side, players))
    if not decision.arises_in(game):
        where = f"on the {rules.side_names[side]} side of " if rules.double_sided else "in "
        opener = decision.facts(game).get("card")
        for_card = f" for a {opener}" if opener else ""
        raise PositionError(f"a {kind!r} decision{for_card} cannot arise {where}{game.variant}: no card there opens it")
    game._decision = decision
    return game
