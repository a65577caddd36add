"""An external bot that sits at a public table of ``unokit serve`` like a person would: it finds a
game with "play now", greets the table, plays, says "good game" and plays again, then lists the
games it played (under its own player identity).

    .venv/bin/python examples/table_bot.py http://127.0.0.1:8000 --variant flip --games 3

Its decisions are the simplest (the first legal action); put a real bot's choice in ``choose``.
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from unokit.server.client import join_play_now, my_games, new_identity, play_again


def choose(observation: dict[str, Any]) -> str:
    """Say UNO with the card when it may, else the first legal action."""
    legal: list[str] = observation["legal_actions"]
    first = legal[0]
    return f"{first} uno" if f"{first} uno" in legal else first


async def sit(url: str, variant: str, players: int | None, games: int) -> None:
    identity = new_identity()
    bot = await join_play_now(url, "Table bot", variant, players, player=identity)
    print(f"seated at seat {bot.seat} of room {bot.room}")
    await bot.say("hello, table! good luck")
    finals = await play_again(bot, choose, games=games)
    await bot.react("gg")
    await bot.close()
    for final in finals:
        print(f"game {final['room']['game_no']}: scores {final['observation']['scores']}")
    print(f"{len(my_games(url, identity))} games in this bot's list")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="the server, e.g. http://127.0.0.1:8000")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    asyncio.run(sit(args.url, args.variant, args.players, args.games))


if __name__ == "__main__":
    main()
