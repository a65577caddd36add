"""The arena's rules (:mod:`unokit.server.features.arena.rules`, docs/arena.md): points by
place, the streak bonus, the standings' order and the pairing, each against answers worked by
hand."""

from __future__ import annotations

import pytest

from unokit.server.features.arena.rules import (
    Free,
    Standing,
    Table,
    pair,
    place_points,
    scored,
    standings,
)


def test_points_by_place() -> None:
    assert [place_points(p, 2) for p in (1, 2)] == [2, 0]
    assert [place_points(p, 3) for p in (1, 2, 3)] == [3, 1, 0]
    assert [place_points(p, 4) for p in (1, 2, 3, 4)] == [4, 2, 1, 0]
    with pytest.raises(ValueError, match="no place 5"):
        place_points(5, 4)
    with pytest.raises(ValueError):
        place_points(1, 1)


def test_two_wins_light_the_fire_and_a_non_win_puts_it_out_after_counting_double() -> None:
    line = Standing("p", "Pat")
    history = []
    for at, place in enumerate([1, 1, 1, 2, 1, 1, 3], start=1):
        result = scored(line, place, 4, left=False, at=float(at))
        history.append((result.points, result.doubled))
        line = result.standing
    # win 4, win 4 (now on fire), win 8, second 2*2=4 (fire out), win 4, win 4 (on fire), third 2*1=2
    assert history == [(4, False), (4, False), (8, True), (4, True), (4, False), (4, False), (2, True)]
    assert line == Standing("p", "Pat", points=30, wins=5, games=7, streak=0, since=7.0)


def test_a_leaver_loses_scores_nothing_and_ends_the_streak() -> None:
    hot = Standing("p", "Pat", points=8, wins=2, games=2, streak=2, since=2.0)
    result = scored(hot, 1, 2, left=True, at=3.0)
    assert (result.points, result.doubled) == (0, True)
    assert result.standing == Standing("p", "Pat", points=8, wins=2, games=3, streak=0, since=2.0)


def test_the_standings_break_ties_by_wins_then_fewer_games_then_who_got_there_first() -> None:
    lines = [
        Standing("a", "Ann", points=6, wins=1, games=3, since=9.0),
        Standing("b", "Bob", points=6, wins=2, games=4, since=9.0),
        Standing("c", "Cy", points=6, wins=1, games=2, since=9.0),
        Standing("d", "Di", points=6, wins=1, games=2, since=5.0),
        Standing("e", "Ed", points=7, wins=0, games=9, since=20.0),
        Standing("f", "Al", points=6, wins=1, games=2, since=5.0),
    ]
    assert [line.player for line in standings(lines)] == ["e", "b", "f", "d", "c", "a"]


def _free(player: str, rank: int, since: float = 0.0, address: str | None = None) -> Free:
    return Free(player, address or f"addr-{player}", since, rank)


def test_the_leaders_sit_together_and_the_rest_wait_for_their_table() -> None:
    free = [_free(p, rank) for rank, p in enumerate("fedcba", start=1)][::-1]  # given in any order
    assert pair(free, 2, now=1.0, bot_wait=10.0) == [Table(("f", "e"), 0), Table(("d", "c"), 0), Table(("b", "a"), 0)]
    five = [f for f in free if f.player != "a"]
    assert pair(five, 4, now=1.0, bot_wait=10.0) == [Table(("f", "e", "d", "c"), 0)]  # "b" waits


def test_one_persons_identities_or_addresses_never_share_a_table() -> None:
    free = [
        _free("p1", 1, address="home"),
        _free("p2", 2, address="home"),  # the same address as the leader: another table
        _free("p3", 3),
        _free("p1", 4),  # one identity listed twice counts once
        _free("p4", 5),
    ]
    assert pair(free, 2, now=0.0, bot_wait=30.0) == [Table(("p1", "p3"), 0), Table(("p2", "p4"), 0)]
    alone = [_free("x", 1, address="home"), _free("y", 2, address="home")]
    assert pair(alone, 2, now=5.0, bot_wait=30.0) == []  # they may not sit together, and have not waited
    assert pair(alone, 2, now=30.0, bot_wait=30.0) == [Table(("x",), 1), Table(("y",), 1)]


def test_bots_fill_a_table_after_the_wait_with_the_compatible_players_left() -> None:
    free = [_free("a", 1, since=0.0), _free("b", 2, since=8.0), _free("c", 3, since=9.0)]
    assert pair(free, 4, now=10.0, bot_wait=15.0) == []  # nobody has waited 15 s
    assert pair(free, 4, now=15.0, bot_wait=15.0) == [Table(("a", "b", "c"), 1)]
    late = [_free("a", 1, since=14.0), _free("b", 2, since=0.0, address="same"), _free("c", 3, address="same")]
    # b waited longest: seated with a (c shares b's address), then c, who waited as long, with bots
    assert pair(late, 3, now=15.0, bot_wait=15.0) == [Table(("a", "b"), 1), Table(("c",), 2)]


def test_pairing_is_deterministic_and_checks_the_size() -> None:
    free = [_free(p, rank, since=float(rank)) for rank, p in enumerate("abcde", start=1)]
    assert pair(free, 3, 100.0, 5.0) == pair(list(reversed(free)), 3, 100.0, 5.0)
    with pytest.raises(ValueError, match="2 to 10 seats"):
        pair(free, 1, 0.0, 1.0)
