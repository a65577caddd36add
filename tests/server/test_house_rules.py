"""House rules over the real server: a room takes them as options (the engine checks them), the
seats that may jump in out of turn are offered their jumps and only those seats may make them,
Seven-O swaps and partners play to the end, and the record replays with the team totals (H-1,
H-2, H-6)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from unokit.core.variants import VARIANTS
from unokit.record import GameRecord, Replay, verify
from unokit.server.client import RoomClient, ServerError, create_room, download_record, get_json

from .support import FAST, ServerProcess, choose, leaks, moved_on, run

HOUSE = {"jump_in": True, "seven_o": True, "teams": True, "stacking": "progressive", "rounds": 1}


def test_the_variant_listing_names_the_house_rules(shared_server: ServerProcess) -> None:
    """``GET /api/variants`` lists every option a room of the variant takes, house rules too."""
    listed = get_json(shared_server.url, "/api/variants")["variants"]
    for name, rules in VARIANTS.items():
        assert listed[name]["options"] == sorted(rules.accepted_options)
        assert {"jump_in", "seven_o", "teams", "stacking"} <= set(listed[name]["options"])
    assert "draw_until_playable" in listed["classic"]["options"]
    assert "draw_until_playable" not in listed["attack"]["options"]


@pytest.mark.parametrize(
    ("variant", "players", "options", "named"),
    [
        ("classic", 3, {"teams": True}, "teams"),
        ("attack", 4, {"draw_until_playable": True}, "draw_until_playable"),
        ("flip", 4, {"stacking": "sideways"}, "stacking"),
    ],
)
def test_a_room_refuses_house_rules_that_make_no_sense_there(
    shared_server: ServerProcess, variant: str, players: int, options: dict[str, Any], named: str
) -> None:
    with pytest.raises(ServerError) as refused:
        create_room(shared_server.url, variant, players, options=options, settings=FAST)
    assert refused.value.code == "bad_room" and named in str(refused.value)


async def _settle(clients: list[RoomClient], version: int) -> list[dict[str, Any]]:
    """Every client's state once all of them have seen ``version`` (nothing else moves the
    room: no bots, no timers)."""
    return [await c.wait_for(lambda s: s["version"] >= version) for c in clients]


async def _game(clients: list[RoomClient], host: str) -> tuple[list[tuple[int, int, list[str]]], int, int]:
    """Start a game and drive its four seats to the end: a seat offered a jump takes it (after
    a seat that holds no such card tried the same text and was refused), else the seat to act
    plays ``choose``. Returns each offer seen (game step, seat, legal actions of a seat not to
    act), and the jumps refused and accepted."""
    ack = await clients[0].host("start", host)
    version = ack["version"]
    offers: list[tuple[int, int, list[str]]] = []
    refused = accepted = 0
    while True:
        states = await _settle(clients, version)
        if states[0]["room"]["phase"] in ("finished", "closed"):
            return offers, refused, accepted
        to_act = states[0]["observation"]["to_act"]
        jumps: dict[int, list[str]] = {}
        for seat, state in enumerate(states):
            if seat != to_act:
                legal = state["observation"]["legal_actions"]
                offers.append((state["game_step"], seat, legal))
                plays = [a for a in legal if a.startswith("play ")]
                if plays:
                    jumps[seat] = plays
        if jumps:
            seat, plays = next(iter(jumps.items()))
            outsider = next((s for s in range(4) if s not in (to_act, *jumps)), None)
            if outsider is not None:
                with pytest.raises(ServerError) as no:
                    await clients[outsider].act(plays[0], version)
                assert no.value.code in ("out_of_turn", "illegal"), no.value
                refused += 1
            ack = await clients[seat].act(plays[0], version)
            accepted += 1
        else:
            ack = await clients[to_act].act(choose(states[to_act]["observation"]), version)
        version = ack["version"]


def test_jumps_swaps_and_partners_play_to_the_end_over_the_server(shared_server: ServerProcess) -> None:
    async def body() -> None:
        room = create_room(shared_server.url, "classic", 4, options=HOUSE, settings=FAST)
        code, host = room["room"], room["host_token"]
        info = get_json(shared_server.url, f"/api/rooms/{code}")
        for name in ("jump_in", "seven_o", "teams"):
            assert info["options"][name] is True
        assert info["options"]["stacking"] == "progressive"
        clients = [
            await RoomClient.join(shared_server.url, code, name=n, keep=True) for n in ("Ann", "Ben", "Cy", "Di")
        ]
        seen: set[str] = set()
        game_no = refusals = 0
        while not {"jump_in", "trade"} <= seen and game_no < 4:  # a round without either is rare
            game_no += 1
            offers, refused, accepted = await _game(clients, host)
            text = download_record(shared_server.url, code, game_no)
            record = GameRecord.loads(text)
            verdict = verify(record)
            assert verdict.ok and "team scores" in verdict.message, verdict.message
            assert record.options["jump_in"] is True and record.options["teams"] is True
            assert record.result is not None and record.result.team_scores is not None
            assert sum(record.result.team_scores) == sum(record.result.scores)
            replay = Replay(record)
            # what the server offered each seat not to act is what the engine lists for it
            for step, seat, legal in offers:
                assert legal == [a.text for a in replay.game_at(step).legal_actions(seat)], (step, seat)
            events = [e for step in range(1, len(replay) + 1) for e in replay.events_at(step)]
            jumps = [e for e in events if e["type"] == "jump_in"]
            assert len(jumps) == accepted  # every jump the server accepted, and no other
            refusals += refused
            seen.update(e["type"] for e in events)
            final = clients[0].state
            assert final is not None and final["observation"]["teams"] == [[0, 2], [1, 3]]
            for seat, client in enumerate(clients):  # partners see only their own hands
                assert leaks(client.received, text, seat) == []
        assert {"jump_in", "trade"} <= seen
        assert refusals > 0  # a seat holding no such card tried a jump and was refused
        for client in clients:
            await client.close()

    run(body)


def test_a_jump_sent_late_still_counts_while_jump_seconds_hold_the_next_move(shared_server: ServerProcess) -> None:
    """``jump_seconds`` (docs/server.md): after a card that may be jumped on, in-turn actions
    wait that long, so a jump sent 0.2 s late still beats the next player's move (a bot that
    answers at once). Random bots never act out of turn, so Ann's jumps race only the next
    player's move, and every jump offered to her must succeed. She draws whenever she may, so
    that her growing hand soon holds a card identical to another's. The hold is public: it comes
    after every card that may be jumped on, whoever holds an identical card, and the room's state
    says when it ends (``room.jump_until``)."""

    async def hand(url: str, counts: dict[str, int]) -> None:
        """One hand, until Ann has jumped (the host then closes the room) or it is over."""
        settings = {**FAST, "jump_seconds": 0.6}
        room = create_room(url, "classic", 6, options={"jump_in": True, "rounds": 1}, settings=settings)
        me = await RoomClient.join(url, room["room"], name="Ann")
        for seat in range(1, 6):
            await me.host("add_bot", room["host_token"], seat=seat, bot="random")
        await me.host("start", room["host_token"])
        while counts["jumped"] == 0:
            state = await me.wait_for(lambda s: me.legal_actions != [] or s["room"]["phase"] == "finished", 60)
            if state["room"]["phase"] == "finished":
                break
            if state["observation"]["jump_in"] is not None:
                counts["open windows"] += 1
                counts["held"] += state["room"]["jump_until"] is not None
            jump = next((a for a in me.legal_actions if a.startswith("play ")), None)
            if not me.my_turn and jump is not None:
                counts["offered"] += 1
                await asyncio.sleep(0.2)  # a slow connection
                await me.act(jump, state["version"])  # raises if refused
                assert me.state is not None
                assert {"type": "jump_in", "seat": 0, "on": state["observation"]["jump_in"]} in me.state["events"]
                counts["jumped"] += 1
            elif me.my_turn:
                keeping = [a for a in me.legal_actions if a in ("draw", "keep")]
                await me.act(keeping[0] if keeping else choose(state["observation"]), state["version"])
            await me.wait_for(moved_on(state["version"]), 60)
        if me.phase != "finished":
            await me.host("close", room["host_token"])
        await me.close()

    async def body() -> dict[str, int]:
        counts = dict.fromkeys(("offered", "jumped", "open windows", "held"), 0)
        while counts["offered"] == 0:  # most hands offer Ann a jump
            await hand(shared_server.url, counts)
        return counts

    counts = run(body)  # returns once a jump was offered
    assert counts["jumped"] == counts["offered"]
    assert counts["open windows"] > 0 and counts["held"] == counts["open windows"]
