"""The simulator: reproducible statistics for any number of workers, and its outputs."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from unokit.bots.heuristic import HeuristicBot
from unokit.bots.runner import play_decision
from unokit.cli import main
from unokit.core.errors import OptionError
from unokit.core.game import Game
from unokit.core.observation import View
from unokit.sim import SimConfig, run_sim, wilson_interval
from unokit.sim.runner import WIN_DENOM, derive_seed, entry_labels

FLIP4 = SimConfig(
    variant="flip",
    players=4,
    bots=("heuristic", "random", "rlcard_rule", "random"),
    games=24,
    seed=7,
    hands_only=True,
)


def test_results_are_reproducible_and_identical_for_one_and_two_workers() -> None:
    one = run_sim(FLIP4).to_dict(timing=False)
    again = run_sim(FLIP4).to_dict(timing=False)
    two = run_sim(SimConfig(**{**FLIP4.__dict__, "workers": 2})).to_dict(timing=False)
    assert one == again
    one["config"].pop("workers")
    two["config"].pop("workers")
    assert one == two
    assert sum(row["wins"] for row in one["bots"]) == pytest.approx(24)
    assert one["summary"]["games"] == 24 and one["summary"]["rounds"] == 24


def test_counting_effects_does_not_change_the_games() -> None:
    config = SimConfig(variant="attack", players=3, bots=("heuristic", "random", "rlcard_rule"), games=12, seed=3)
    fast = run_sim(config).to_dict(timing=False)
    slow = run_sim(SimConfig(**{**config.__dict__, "effects": True})).to_dict(timing=False)
    for key in ("bots", "summary", "turns_per_round", "rounds_per_game", "round_points"):
        assert fast[key] == slow[key]
    effects = {row["effect"]: row for row in slow["effects"]}
    assert effects["turn"]["presses"] > 0 and effects["turn"]["draws"] == 0
    assert slow["events"]["play"] > 0 and slow["events"]["round_end"] == slow["summary"]["rounds"]
    assert "effects" not in fast


def test_a_different_seed_gives_different_games() -> None:
    other = run_sim(SimConfig(**{**FLIP4.__dict__, "seed": 8})).to_dict(timing=False)
    assert other["turns_per_round"] != run_sim(FLIP4).to_dict(timing=False)["turns_per_round"]


def test_seats_rotate_so_each_entry_plays_every_seat() -> None:
    """Two copies of one bot: over an even number of games they split the first seat."""
    result = run_sim(SimConfig(variant="classic", players=2, bots=("heuristic", "random"), games=20, seed=1))
    rows = result.bot_rows()
    assert [row["label"] for row in rows] == ["heuristic", "random"]
    assert rows[0]["win_rate"] > 0.8  # the heuristic crushes random play
    assert rows[0]["ci_low"] <= rows[0]["win_rate"] <= rows[0]["ci_high"]


def test_whole_games_count_rounds_and_points() -> None:
    result = run_sim(
        SimConfig(variant="classic", players=3, bots=("heuristic",) * 3, games=4, seed=2, options=(("target", "150"),))
    )
    summary = result.summary()
    assert summary["rounds_per_game"] >= 1
    assert sum(result.tally.rounds.values()) == 4
    assert sum(row["mean_points"] for row in result.bot_rows()) >= 150  # every game's winner reached it
    assert sum(result.tally.round_points.values()) == result.tally.round_count


def test_wilson_interval() -> None:
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_labels_seeds_and_shares() -> None:
    assert entry_labels(["heuristic", "random", "random"]) == ["heuristic", "random#1", "random#2"]
    assert derive_seed(1, 2) != derive_seed(1, 3) != derive_seed(2, 2)
    assert derive_seed(1, 2) == derive_seed(1, 2)
    assert WIN_DENOM % 7 == 0 and WIN_DENOM % 9 == 0


def test_bad_configurations_are_refused() -> None:
    with pytest.raises(ValueError, match="2 seats need 2 bots"):
        SimConfig(bots=("random",)).validate()
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        SimConfig(bots=("random", "nobody")).validate()
    with pytest.raises(OptionError, match="hands-only"):
        SimConfig(hands_only=True, options=(("rounds", "3"),)).validate()
    with pytest.raises(OptionError):
        SimConfig(options=(("colour", "red"),)).validate()


def test_json_csv_and_plots(tmp_path: Path) -> None:
    result = run_sim(
        SimConfig(
            variant="flip_attack",
            players=3,
            bots=("heuristic", "random", "random"),
            games=6,
            seed=4,
            hands_only=True,
            effects=True,
        )
    )
    result.write_json(tmp_path / "out.json")
    result.write_csv(tmp_path / "out.csv")
    data = json.loads((tmp_path / "out.json").read_text())
    assert data["config"]["variant"] == "flip_attack" and data["timing"]["seconds"] > 0
    rows = list(csv.DictReader((tmp_path / "out.csv").open()))
    assert [row["label"] for row in rows] == ["heuristic", "random#1", "random#2"]
    from unokit.sim.plots import write_plots

    paths = write_plots(result, tmp_path / "plots")
    assert [p.name for p in paths] == ["win_rates.png", "round_lengths.png", "round_points.png"]
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in paths)


def test_the_command_line(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["sim", "--variant", "classic", "--bots", "heuristic,random", "--games", "10", "--hands-only", "--quiet"]
    out = runner.invoke(
        main, [*args, "--effects", "--json", str(tmp_path / "r.json"), "--csv", str(tmp_path / "r.csv")]
    )
    assert out.exit_code == 0, out.output
    assert "Win rates" in out.output and "Cards taken by effect" in out.output and "heuristic" in out.output
    assert json.loads((tmp_path / "r.json").read_text())["summary"]["games"] == 10
    bad = runner.invoke(main, ["sim", "--bots", "random,nobody", "--games", "2"])
    assert bad.exit_code == 2 and "unknown bot 'nobody'" in bad.output
    option = runner.invoke(main, ["sim", "--bots", "random,random", "--option", "stacking"])
    assert option.exit_code == 2 and "name=value" in option.output


def test_an_external_bot_in_the_simulator(tmp_path: Path) -> None:
    script = tmp_path / "bot.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'ready', 'name': 'last'}), flush=True)\n"
        "    elif m['type'] == 'act':\n"
        "        print(m['legal_actions'][-1], flush=True)\n"
        "    elif m['type'] == 'quit':\n"
        "        break\n",
        encoding="utf-8",
    )
    spec = f"external:{sys.executable} {script}"
    config = SimConfig(variant="classic", players=2, bots=(spec, "rlcard_rule"), games=4, seed=1, hands_only=True)
    one = run_sim(config).to_dict(timing=False)
    two = run_sim(SimConfig(**{**config.__dict__, "workers": 2})).to_dict(timing=False)
    assert one["bots"] == two["bots"] and one["summary"]["games"] == 4
    itself = run_sim(SimConfig(**{**config.__dict__, "bots": (spec, spec)}))  # one process per entry
    assert itself.tally.games == 4


def test_a_bot_breaking_the_protocol_stops_the_command_with_its_message(tmp_path: Path) -> None:
    script = tmp_path / "bad.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    if json.loads(line)['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'ready', 'name': 'bad'}), flush=True)\n"
        "    else:\n"
        "        print('play purple 11', flush=True)\n",
        encoding="utf-8",
    )
    out = CliRunner().invoke(main, ["sim", "--bots", f"external:{sys.executable} {script},random", "--games", "2"])
    assert out.exit_code == 1
    assert "answered 'play purple 11'" in out.output and "not a legal action" in out.output


def test_teams_are_reported_per_team_and_add_up() -> None:
    """H-6: entries k and k + 2 are partners in every game; each game's win goes to one team,
    both partners share it, and the team rows say so; the results do not depend on workers."""
    config = SimConfig(
        variant="classic",
        players=4,
        bots=("heuristic", "random", "heuristic", "random"),
        games=40,
        seed=5,
        options=(("teams", "true"),),
        hands_only=True,
    )
    result = run_sim(config)
    teams = result.team_rows()
    assert [row["entries"] for row in teams] == [[0, 2], [1, 3]]
    assert [row["label"] for row in teams] == ["heuristic#1 + heuristic#2", "random#1 + random#2"]
    assert sum(row["wins"] for row in teams) == pytest.approx(40)
    bots = result.bot_rows()
    for row in teams:
        a, b = row["entries"]
        assert bots[a]["wins"] == pytest.approx(bots[b]["wins"]) == pytest.approx(row["wins"] / 2)
    data = result.to_dict(timing=False)
    assert data["teams"] == teams
    two = run_sim(SimConfig(**{**config.__dict__, "workers": 2})).to_dict(timing=False)
    assert two["teams"] == data["teams"]
    assert "teams" not in run_sim(FLIP4).to_dict(timing=False)


def test_a_jump_counts_as_a_turn_and_the_interval_brackets_the_mean() -> None:
    """H-1: with Jump-In the heuristic bots jump, and each jump counts as a turn: the round's
    turns are its turn and stack decisions plus its jumps."""
    config = SimConfig(
        variant="classic",
        players=4,
        bots=("heuristic",) * 4,
        games=30,
        seed=2,
        options=(("jump_in", "true"),),
        hands_only=True,
        effects=True,
    )
    data = run_sim(config).to_dict(timing=False)
    jumps = data["events"].get("jump_in", 0)
    assert jumps > 0
    # The same games, counted here: seat s holds entry (s - i) % 4's bot, seeded as the sim does.
    decided = 0
    for index in range(config.games):
        game = Game.new("classic", 4, derive_seed(2, index), rounds=1, jump_in=True)[0]
        bots = [HeuristicBot(derive_seed(2, index, 1 + (seat - index) % 4)) for seat in range(4)]
        for seat, bot in enumerate(bots):
            bot.reset(seat)
        views = [View(game, seat) for seat in range(4)]
        while not game.is_over:
            decided += game.decision in ("turn", "stack")
            play_decision(game, bots, views)
    summary = data["summary"]
    turns = sum(int(k) * v for k, v in data["turns_per_round"].items())
    assert turns == decided + jumps
    assert turns == pytest.approx(summary["turns_per_round"] * summary["rounds"])
    low, high = summary["turns_per_round_ci"]
    assert low < summary["turns_per_round"] < high


@pytest.mark.parametrize("variant", ["flip_marvel", "flip_stranger_things", "flip_transformers"])
def test_the_themed_editions_simulate_with_and_without_events(variant: str) -> None:
    """The simulator plays the themed editions (R-7); counting events changes nothing, and
    their special cards' discards and duels are counted."""
    config = SimConfig(variant=variant, players=3, bots=("heuristic", "random", "rlcard_rule"), games=12, seed=5)
    fast = run_sim(config).to_dict(timing=False)
    slow = run_sim(SimConfig(**{**config.__dict__, "effects": True})).to_dict(timing=False)
    for key in ("bots", "summary", "turns_per_round", "rounds_per_game", "round_points"):
        assert fast[key] == slow[key]
    assert fast["summary"]["games"] == 12
    assert sum(slow["summary"]["round_wins_by_place"]["counts"]) == slow["summary"]["rounds"]
    special = {"flip_marvel": "discard", "flip_stranger_things": "discard", "flip_transformers": "duel"}[variant]
    assert slow["events"].get(special, 0) > 0
