"""A picture of the table for ``render_mode="rgb_array"``: an RGB ``uint8`` array.

Video recorders (Gymnasium's ``RecordVideo``, Stable-Baselines3's ``VecVideoRecorder``) and
``make_vec_env`` ask environments for this mode. The picture shows what ``render_mode="ansi"``
prints: the top card and the colour in play, then one row per seat with every card of its hand
face up (its active face, in its colour; wild faces dark), the seat to act marked with a white
bar. Each card carries a short label in a 3x5 pixel font: its number, ``+2`` for a draw card,
or the initials of its kind (``S`` skip, ``R`` reverse, ``W`` wild, ``F`` flip, ...).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..core.cards import KIND_NAMES
from ..core.colors import NO_COLOR
from ..core.game import Game

#: The picture's width in pixels; its height grows with the number of seats.
WIDTH = 640
#: Screen colours of the card colours (red … purple), then of a wild face and the table.
PALETTE: tuple[tuple[int, int, int], ...] = (
    (214, 48, 49),
    (246, 200, 40),
    (52, 168, 83),
    (40, 110, 220),
    (232, 96, 170),
    (0, 160, 160),
    (240, 130, 30),
    (130, 60, 180),
)
WILD_RGB = (40, 40, 40)
TABLE_RGB = (24, 80, 48)
INK = (255, 255, 255)

# A 3x5 pixel font: five rows of three cells per glyph ("#" lit).
_GLYPHS: dict[str, tuple[str, ...]] = {
    "0": ("###", "#.#", "#.#", "#.#", "###"),
    "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("###", "..#", "###", "#..", "###"),
    "3": ("###", "..#", ".##", "..#", "###"),
    "4": ("#.#", "#.#", "###", "..#", "..#"),
    "5": ("###", "#..", "###", "..#", "###"),
    "6": ("###", "#..", "###", "#.#", "###"),
    "7": ("###", "..#", "..#", ".#.", ".#."),
    "8": ("###", "#.#", "###", "#.#", "###"),
    "9": ("###", "#.#", "###", "..#", "###"),
    "+": ("...", ".#.", "###", ".#.", "..."),
    "A": (".#.", "#.#", "###", "#.#", "#.#"),
    "C": ("###", "#..", "#..", "#..", "###"),
    "D": ("##.", "#.#", "#.#", "#.#", "##."),
    "E": ("###", "#..", "##.", "#..", "###"),
    "F": ("###", "#..", "##.", "#..", "#.."),
    "H": ("#.#", "#.#", "###", "#.#", "#.#"),
    "L": ("#..", "#..", "#..", "#..", "###"),
    "O": ("###", "#.#", "#.#", "#.#", "###"),
    "P": ("###", "#.#", "###", "#..", "#.."),
    "R": ("##.", "#.#", "##.", "#.#", "#.#"),
    "S": ("###", "#..", "###", "..#", "###"),
    "T": ("###", ".#.", ".#.", ".#.", ".#."),
    "W": ("#.#", "#.#", "#.#", "###", "#.#"),
    ">": ("#..", ".#.", "..#", ".#.", "#.."),
    "<": ("..#", ".#.", "#..", ".#.", "..#"),
    "?": ("###", "..#", ".##", "...", ".#."),
}
_NUMBER_WORDS = {"one": "1", "two": "2", "four": "4", "five": "5", "color": "C"}


def label(kind_name: str) -> str:
    """A card's short label: ``7``, ``+2`` (``draw_two``), ``+C`` (``wild_draw_color``), ``S``
    (``skip``), ``SE`` (``skip_everyone``), ``W`` (``wild``), at most two characters."""
    if kind_name.isdigit():
        return kind_name
    words = kind_name.split("_")
    if "draw" in words:
        return "+" + _NUMBER_WORDS.get(words[-1], "?")
    letters = [w[0].upper() for w in words if w != "wild"] or ["W"]
    return "".join(c if c in _GLYPHS else "?" for c in letters[:2])


def _text(image: NDArray[np.uint8], text: str, x: int, y: int, scale: int, rgb: tuple[int, int, int]) -> None:
    """Write ``text`` at (x, y), each font cell ``scale`` pixels square (clipped at the edges)."""
    height, width = image.shape[:2]
    for ch in text:
        for row, cells in enumerate(_GLYPHS.get(ch, _GLYPHS["?"])):
            for col, cell in enumerate(cells):
                if cell == "#":
                    top, left = y + row * scale, x + col * scale
                    if 0 <= top < height and 0 <= left < width:
                        image[top : top + scale, left : left + scale] = rgb
        x += 4 * scale


def _card(image: NDArray[np.uint8], game: Game, t: int, x: int, y: int, w: int, h: int) -> None:
    deck, side = game.deck, game.side
    color = deck.color[side][t]
    image[y : y + h, x : x + w] = PALETTE[color] if color != NO_COLOR else WILD_RGB
    image[y : y + h, x : x + 1] = TABLE_RGB  # a thin gap between overlapping cards
    text = label(KIND_NAMES[deck.kind[side][t]])
    scale = 2 if w >= 4 * 2 * len(text) + 2 else 1
    if w >= 4 * scale * len(text):
        _text(image, text, x + 2, y + 2, scale, INK if color in (NO_COLOR, 0, 3, 6, 7) else (0, 0, 0))


def table_image(game: Game) -> NDArray[np.uint8]:
    """The picture of ``game`` (every hand face up), ``(height, 640, 3)`` ``uint8``."""
    rows = game.n
    row_height, card_h, card_w = 40, 32, 22
    header = 56
    image = np.empty((header + rows * row_height + 8, WIDTH, 3), np.uint8)
    image[:] = TABLE_RGB
    if game.discard:
        _card(image, game, game.discard[-1], 8, 8, 32, 40)
    if game.color >= 0:  # the colour in play beside the top card
        image[8:48, 48:64] = PALETTE[game.color]
    _text(image, ">" if game.direction == 1 else "<", 76, 14, 4, INK)
    _text(image, str(len(game.draw)), 110, 18, 3, INK)
    to_act = game.to_act
    left = 40
    for seat, hand in enumerate(game.hands):
        y = header + seat * row_height
        _text(image, str(seat), 8, y + 8, 3, INK)
        if seat == to_act:
            image[y : y + card_h, 28:32] = INK
        cards = sorted(hand)
        step = card_w if len(cards) * card_w <= WIDTH - left - 8 else max(1, (WIDTH - left - 8 - card_w) // len(cards))
        for k, t in enumerate(cards):
            width = card_w if k == len(cards) - 1 else min(card_w, step)
            _card(image, game, t, left + k * step, y, width, card_h)
    return image
