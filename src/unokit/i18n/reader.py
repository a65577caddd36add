"""The reader in a person's place: a message that may name its own reader has a form for it.

A table names the reader's seat "You" ("Вы", "Du", "你"), and a name put into a sentence as it
is reads wrong there: "You's hand", "You was dealt", «Ждём игрока Вы», «Вы: игра на паузе».
So a message whose person places (the parameters :data:`~.lines.PARAM_TYPES` types as seats:
``player``, ``target``, ``winner``, ``winners``, ...) may name the reader has, beside its key,
one **reader form** for each way the reader can be in it, written whole by each language:

* ``<key>.you_<place>``: the reader is ``{place}`` ("You played {card}", «Вы сыграли: {card}»);
* ``<key>.you_<place>_<place>``: the reader is both (``event.duel.you_player_winner``: the
  reader challenged and won);
* ``<key>.you_and_<place>``: the reader is one of the seats of a list ``{place}`` names with
  others, which ``{place}`` then names ("you and {winners} won").

A form never holds the placeholder it stands for. Whoever says a line and knows its reader
(the browser's ``say(line, names, me)``, :class:`~.lines.Words` with ``me``) picks the form by
:func:`~.lines.reader_form`: the places holding the reader's seat, sorted by name, give its
suffix; a message without that form is said as it is. :data:`READER_FORMS` declares every
form (the catalogues have each); :data:`NOT_THE_READER` names every other message with a
person place and why its reader is never there. A test holds the two to every such message of
the catalogue and says each form with the reader in its places, in every language.
"""

from __future__ import annotations

from types import MappingProxyType

_PLAYER = ("you_player",)
_BOTH = ("you_player", "you_target")
_WINNER = ("you_winner",)
_WINNERS = ("you_winners", "you_and_winners")

#: Every message that may name its reader, with its reader forms (see the module docstring).
READER_FORMS = MappingProxyType(
    {
        # The log (unokit.narration): what each seat did; the reader's own seat is one of them.
        "event.accept": _PLAYER,
        "event.blocked": _WINNER,
        "event.catch": _BOTH,
        "event.challenge": _BOTH,
        "event.challenge.failed": _BOTH,
        "event.challenge.failed.revealed": _BOTH,
        "event.challenge.succeeded": _BOTH,
        "event.challenge.succeeded.revealed": _BOTH,
        "event.color": _PLAYER,
        "event.deal": _PLAYER,
        "event.dealer": _PLAYER,
        "event.discard": _PLAYER,
        "event.draw": _PLAYER,
        "event.draw.reason": _PLAYER,
        "event.draw_failed": _PLAYER,
        # The winner is one of the two duellists.
        "event.duel": ("you_player", "you_player_winner", "you_target", "you_target_winner"),
        "event.game_end": _WINNERS,
        "event.jump_in": _BOTH,
        "event.keep": _PLAYER,
        "event.play": _PLAYER,
        "event.play.color": _PLAYER,
        "event.play.color.discarding": _PLAYER,
        "event.play.discarding": _PLAYER,
        "event.press": _PLAYER,
        "event.press.empty": _PLAYER,
        "event.press.for": _BOTH,
        "event.press.nothing": _PLAYER,
        "event.round_end": _WINNER,
        "event.round_end.one_side": _WINNER,
        "event.skip": _PLAYER,
        "event.skip_everyone": _PLAYER,
        "event.stop": _PLAYER,
        "event.take_back": _PLAYER,
        "event.take_back.none": _PLAYER,
        "event.trade": _BOTH,
        "event.uno": _PLAYER,
        # The terminal game (its one person is its reader).
        "play.round_blocked": _WINNER,
        "play.round_out": _WINNER,
        "play.game_over": _WINNERS,
        "play.pressing": _PLAYER,
        # The room's log: the reader may be the one who paused or asked for time.
        "room.more_time": _PLAYER,
        "room.paused_by": _PLAYER,
        "room.resumed_by": _PLAYER,
        # The browser's table.
        "table.game_over": _WINNERS,
        "table.revealed_failed": _PLAYER,
        "table.revealed_succeeded": _PLAYER,
        "table.round_blocked": _PLAYER,
        "table.round_out": _PLAYER,
        "table.waiting_for": _PLAYER,
        "together.won": _WINNERS,
    }
)

_ANOTHER = "names the seat the reader acts on, never the reader"
_NOBODY = "said where no seat is the reader's (bots only, a record's or a score sheet's names)"

#: Every other message with a person place, and why that place never holds its reader.
NOT_THE_READER = MappingProxyType(
    {
        "action.catch": _ANOTHER,
        "action.swap.cards": _ANOTHER,
        "action.target": _ANOTHER,
        "action.trade": _ANOTHER,
        "action.trade.cards": _ANOTHER,
        "decision.challenge": "names who played the card the reader may challenge",
        "error.cannot_catch": _ANOTHER,
        "error.not_your_turn": "names the seat whose turn it is, which is not the reader's",
        "last.your_hand_traded": "names who takes the reader's hand",
        "play.catch_window": "names another seat (the reader's own is play.you_forgot_uno)",
        "play.challenge_bluff": "names who played the card the reader may challenge",
        "play.challenge_color": "names who played the card the reader may challenge",
        "play.thinking": "names a bot at work (the reader's own turn shows its question)",
        "plain.turn": "names another seat (the reader's own turn is play.your_move)",
        "read.may_catch": "names another seat (the reader's own is read.forgot_uno)",
        "seat.backs_label": "names another seat: the reader sees their own cards' faces",
        "score.entry": "a label, the name beside its points, not a sentence",
        "cli.demo_action": _NOBODY,
        "cli.demo_stopped": _NOBODY,
        "render.action": _NOBODY,
        "render.catchable": _NOBODY,
        "render.log_action": _NOBODY,
        "render.seat": _NOBODY,
        "render.to_act": _NOBODY,
        "replay.answer_of": _NOBODY,
        "replay.view_of": _NOBODY,
        "review.moment": _NOBODY,
        "review.said.move": _NOBODY,
        "review.title": _NOBODY,
        "sheet.cards_of": _NOBODY,
        "sheet.points_counted": _NOBODY,
        "viewer.to_act": _NOBODY,
        # {target} is a number of points here, not a seat.
        "sheet.caption": "its {target} is the points to reach, not a seat",
        "sheet.caption_rounds": "its {target} is the points to reach, not a seat",
        "table.scores": "its {target} is the points to reach, not a seat",
        "table.scores_rounds": "its {target} is the points to reach, not a seat",
    }
)


def reader_keys() -> list[str]:
    """Every reader form's key (the catalogues hold each)."""
    return [f"{key}.{form}" for key, forms in READER_FORMS.items() for form in forms]


__all__ = ["NOT_THE_READER", "READER_FORMS", "reader_keys"]
