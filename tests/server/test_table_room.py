"""What the browser table needs from a room: bots seated when the room is created (at its last
seats, with people's names), the host's seat marked for everyone, and every move a stand-in bot
made for an away player marked in the log, counted on the seat until the player acts again."""

from __future__ import annotations

from typing import Any

import pytest

from unokit.i18n import LANGUAGES
from unokit.server.client import RoomClient, ServerError, create_room, get_json
from unokit.server.entries import entry_of
from unokit.server.room import DEFAULT_NAMES_LANG, RoomSpec, RoomState, bot_names_for, check_name, name_key

from .support import FAST, ServerProcess, choose, moved_on, run


def test_bots_are_seated_when_the_room_is_created(shared_server: ServerProcess) -> None:
    room = create_room(shared_server.url, "flip", 4, settings=FAST, bots=["heuristic", "random"])
    seats = get_json(shared_server.url, f"/api/rooms/{room['room']}")["seats"]
    assert [s["kind"] for s in seats] == ["open", "open", "bot", "bot"]
    assert [s["bot"] for s in seats[2:]] == ["heuristic", "random"]
    names = {seats[2]["name"], seats[3]["name"]}
    assert len(names) == 2 and names <= set(bot_names_for(DEFAULT_NAMES_LANG))

    async def body() -> None:
        me = await RoomClient.join(shared_server.url, room["room"], name="Ann")
        assert me.seat == 0  # people take the first seats
        await me.close()

    run(body)


@pytest.mark.parametrize("lang", ["ru", "de"])
def test_bots_take_names_of_the_language_the_room_was_made_in(shared_server: ServerProcess, lang: str) -> None:
    room = create_room(shared_server.url, "classic", 4, settings=FAST, bots=["normal"] * 3, lang=lang)
    info = get_json(shared_server.url, f"/api/rooms/{room['room']}")
    names = [seat["name"] for seat in info["seats"][1:]]
    assert len(set(names)) == 3 and set(names) <= set(bot_names_for(lang))
    assert bot_names_for(lang) != bot_names_for(DEFAULT_NAMES_LANG)
    assert lang != "ru" or all("\u0400" <= name[0] <= "\u04ff" for name in names), names  # Cyrillic
    assert room["spec"]["lang"] == lang


def test_a_bot_never_takes_a_name_a_person_has_in_another_case() -> None:
    """Bots are named apart from people as people are from each other (``name_key``): a person
    called "алёна" keeps the room from seating a bot called "Алёна"."""
    spec = RoomSpec.build("classic", 2, {}, None, False, "ru")
    first = RoomState("ABCDEF", spec).bot_person_name(1)  # the name a bot would take at seat 1
    room = RoomState("ABCDEF", spec)
    room.apply(entry_of({"type": "join", "seat": 0, "name": first.lower(), "token_hash": "h"}))
    assert room.bot_person_name(1) not in (first, first.lower())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_names_enough_bots(lang: str) -> None:
    """Each catalogue's ``room.bot_names`` gives at least 20 different one-word names that a
    person could take too (so a full room never numbers its bots)."""
    names = bot_names_for(lang)
    assert len(names) >= 20 and len({name_key(name) for name in names}) == len(names)
    assert all(check_name(name) == name and " " not in name for name in names), names


def test_a_rooms_language_is_kept_with_it() -> None:
    spec = RoomSpec.build("classic", 3, {}, None, False, "ru")
    assert RoomSpec.from_json(spec.to_json()) == spec and spec.lang == "ru"
    stored_before_languages = {key: value for key, value in spec.to_json().items() if key != "lang"}
    assert RoomSpec.from_json(stored_before_languages).lang == DEFAULT_NAMES_LANG


@pytest.mark.parametrize("lang", ["xx", "en-XA", "", 7])
def test_a_room_in_an_unknown_language_is_refused(shared_server: ServerProcess, lang: Any) -> None:
    with pytest.raises(ServerError) as caught:
        create_room(shared_server.url, "classic", 2, lang=lang)
    assert caught.value.code == "bad_room" and "'lang'" in str(caught.value)


@pytest.mark.parametrize(
    ("bots", "players", "wanted"),
    [(["deep_blue"], 3, "bad_bot"), (["random"] * 3, 3, "bad_room"), ("random", 3, "bad_room")],
)
def test_a_bad_list_of_bots_is_refused_and_no_room_is_made(
    shared_server: ServerProcess, bots: Any, players: int, wanted: str
) -> None:
    with pytest.raises(ServerError) as caught:
        create_room(shared_server.url, "classic", players, bots=bots)
    assert caught.value.code == wanted, caught.value


def test_the_hosts_seat_is_marked_for_everyone(shared_server: ServerProcess) -> None:
    room = create_room(shared_server.url, "classic", 3, settings=FAST, bots=["random"])

    async def body() -> None:
        ann = await RoomClient.join(shared_server.url, room["room"], name="Ann", host_token=room["host_token"])
        bo = await RoomClient.join(shared_server.url, room["room"], name="Bo")
        state = await bo.wait_for(lambda s: s["room"]["seats"][1]["kind"] == "human")
        assert state["room"]["host_seat"] == 0
        await ann.close()
        await bo.close()

    run(body)
    assert get_json(shared_server.url, f"/api/rooms/{room['room']}")["host_seat"] == 0


def test_moves_of_a_stand_in_are_marked_and_counted_until_the_player_acts(shared_server: ServerProcess) -> None:
    """Ann lets her turn timer run out: the stand-in's moves come marked (``standin``) and are
    counted on her seat; when Ann acts again the count goes back to 0."""
    settings = {**FAST, "turn_seconds": 1.0}
    room = create_room(shared_server.url, "classic", 2, options={"rounds": 1}, settings=settings, bots=["random"])

    async def body() -> None:
        ann = await RoomClient.join(shared_server.url, room["room"], name="Ann", keep=True)
        await ann.host("start", room["host_token"])
        marked = await ann.wait_for(lambda s: s.get("standin") == 0 or s["room"]["phase"] != "playing", timeout=30)
        assert marked.get("standin") == 0, "no move of a stand-in came marked"
        assert marked["room"]["seats"][0]["standin_moves"] >= 1
        assert 0 in marked["room"]["away"]
        # The stand-in's move is in the log as Ann's seat's action, and the record has it.
        await ann.back()
        await ann.wait_for(lambda s: 0 not in s["room"]["away"])
        # Ann acts at her next turn. Her timer is one second: on a busy machine the stand-in may
        # play first and her action is refused as out of date; she acts at the turn after then.
        for _ in range(20):
            await ann.wait_for(lambda s: ann.my_turn or s["room"]["phase"] != "playing", timeout=30)
            if ann.phase != "playing":
                break
            state = ann.state
            assert state is not None
            try:
                await ann.act(ann.legal_actions[0], state["version"])
            except ServerError as refusal:
                assert refusal.code in ("stale", "out_of_turn"), refusal  # the stand-in was quicker
                await ann.wait_for(moved_on(state["version"]))
                continue
            after = await ann.wait_for(lambda s: s["room"]["seats"][0]["standin_moves"] == 0)
            assert after.get("standin") != 0
            break
        else:
            raise AssertionError("the stand-in played every turn of Ann's before her action came")
        await ann.close()

    run(body)


def _lines_since_the_deal(received: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lines of every ``state`` a client received since the game's deal, in order (its own
    ``log`` first, when it came back in the middle of the game)."""
    states = [m for m in received if m.get("type") == "state" and m.get("observation") is not None]
    lines: list[dict[str, Any]] = []
    for state in states:
        if "log" in state:
            lines = [line for group in state["log"] for line in group["lines"]]
        lines += state["lines"]
    return lines


def test_a_client_that_comes_back_gets_the_whole_log_of_the_game(shared_server: ServerProcess) -> None:
    """A spectator watches from the deal, another arrives in the middle of the game, and Ann
    connects again at one of her turns: the ``log`` of the state that answers each hello holds
    the same lines, move by move, as the client that never left received (each redacted for its
    reader: Ann's own draws name her cards, a spectator's never do)."""
    room = create_room(shared_server.url, "flip", 3, options={"rounds": 1}, settings=FAST, bots=["random", "random"])

    def flat(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [line for group in log for line in group["lines"]]

    async def body() -> None:
        ann = await RoomClient.join(shared_server.url, room["room"], name="Ann", keep=True)
        watcher = await RoomClient.join(shared_server.url, room["room"], role="spectator", keep=True)
        await ann.host("start", room["host_token"])
        for _ in range(6):  # a few moves of everyone
            await ann.wait_for(lambda s: ann.my_turn or s["room"]["phase"] != "playing", timeout=30)
            if ann.phase != "playing":
                break
            await ann.act(choose(ann.observation or {}))
        await ann.wait_for(lambda s: ann.my_turn or s["room"]["phase"] != "playing", timeout=30)
        step = ann.state["game_step"] if ann.state else -1
        stayed = _lines_since_the_deal(ann.received)
        await ann.close()
        again = await RoomClient.join(shared_server.url, room["room"], token=ann.token)
        late = await RoomClient.join(shared_server.url, room["room"], role="spectator")
        # The game waits for Ann: the latest state of each is the one that answered its hello.
        assert again.state is not None and late.state is not None and again.state["game_step"] == step
        log = again.state["log"]
        assert flat(log) == stayed and len(log) >= 7
        assert log[0]["lines"][0]["key"] in ("event.dealer", "event.round_start")
        mine = [line for line in flat(log) if line["key"].startswith("event.draw") and line["params"]["player"] == 0]
        assert all(isinstance(line["params"]["cards"], list) for line in mine), mine
        await watcher.wait_for(lambda s: s["game_step"] >= step)
        assert flat(late.state["log"]) == _lines_since_the_deal(watcher.received)
        draws = [line for line in flat(late.state["log"]) if line["key"].startswith("event.draw")]
        assert all(isinstance(line["params"]["cards"], dict) for line in draws), draws
        for client in (again, late, watcher):
            await client.close()

    run(body)


def test_the_log_of_a_room_marks_the_moves_of_a_stand_in(shared_server: ServerProcess) -> None:
    """A move that a stand-in bot made for Ann is marked with her seat in the log she gets back."""
    settings = {**FAST, "turn_seconds": 1.0}
    room = create_room(shared_server.url, "classic", 2, options={"rounds": 1}, settings=settings, bots=["random"])

    async def body() -> None:
        ann = await RoomClient.join(shared_server.url, room["room"], name="Ann")
        await ann.host("start", room["host_token"])
        await ann.wait_for(lambda s: s.get("standin") == 0 or s["room"]["phase"] != "playing", timeout=30)
        await ann.close()
        again = await RoomClient.join(shared_server.url, room["room"], token=ann.token, keep=True)
        hello = next(m for m in again.received if m.get("type") == "state")  # the state that answers the hello
        log = hello["log"]
        assert any(group.get("standin") == 0 for group in log), log
        assert all(group.get("standin") in (None, 0) for group in log)
        await again.close()

    run(body)
