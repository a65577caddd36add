"""What a server sends while a review is computed (``docs/review.md``, "In the browser"): the
seat's decisions first, marked as the finished review marks them; and a card drawn and played
named in the review's words (``Play Red 4``, not the prompt's ``Play it``)."""

from __future__ import annotations

from unokit.bots import make_bot
from unokit.bots.runner import play_game
from unokit.core.types import ActionKind
from unokit.narration import action_line
from unokit.record import RecordingGame
from unokit.record.replay import start_game
from unokit.review import review_record
from unokit.review.analysis import estimate_steps, partial_decisions, review_order, review_steps

GAME, _ = RecordingGame.new("classic", 2, seed=5, rounds=1)
play_game(GAME, [make_bot("normal", 1), make_bot("normal", 2)])
RECORD = GAME.to_record()


def test_the_seats_decisions_come_first_and_are_marked_as_the_whole_review_marks_them() -> None:
    order = review_order(RECORD, 0)
    assert sorted(order) == review_steps(RECORD)
    review = review_record(RECORD, 0, "low")
    own = [d.step for d in review.decisions]
    assert order[: len(own)] == own  # every decision with a choice first, in the game's order
    first = estimate_steps(RECORD, 0, "low", 0, own[:3])
    assert partial_decisions(RECORD, 0, {e.step: e for e in first}) == list(review.decisions[:3])


def test_a_card_drawn_and_played_is_named_in_the_reviews_words() -> None:
    game, _ = start_game(RECORD)
    for actor, text in RECORD.actions:
        if game.parse_action(text, actor).kind == ActionKind.PLAY_DRAWN:
            line = action_line(game, text, actor, named=True).to_json()
            plain = line.get("params", {}).get("line", line)
            assert plain["key"] in ("action.play", "action.play.color") and plain["params"]["card"]
            assert action_line(game, text, actor).key.startswith("action.play_drawn")
            return
        game.apply(text, seat=actor)
    raise AssertionError("the game has no card drawn and played: choose another seed")
