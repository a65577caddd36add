"""Expert games as records and as training tables (format ``unokit-dataset/1``).

A dataset is a folder:

* ``manifest.json``: the format, how the dataset was made (variant, players, options, the
  expert and its search budget, who played, the seed, the number of hands), the table schema
  with a line on each column, the shards with the SHA-256 of each file, and the versions;
* ``records/shard-NNNNN.jsonl``: the hands of each shard as unokit records, one a line
  (``docs/records.md``; ``unokit verify`` and ``unokit replay`` read them one by one);
* ``tables/shard-NNNNN.parquet``: one row per decision of the seat to act (:data:`COLUMNS`).

Hand ``i`` is dealt with ``derive_seed(seed, i)`` and its seats' bots are seeded with
``derive_seed(seed, i, 1 + seat)``; a shard holds hands ``k * shard_hands`` onwards and is made
on its own, so the same seed gives the same files whatever the number of workers. The expert is
``ismcts_fast`` with a fixed iteration budget (no time limit), so its searches are reproducible;
its visit distribution at the root is the ``visits`` column. With ``play`` another bot (a policy
file, say) plays the hands while the expert, in the same seat, searches every decision and
labels it: the states the learner visits, labelled by the expert (DAgger).
"""

from __future__ import annotations

import hashlib
import io
import json
import multiprocessing
import platform
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .. import __version__
from ..bots import make_bot
from ..bots.base import Bot
from ..bots.ismcts_fast import FastIsmctsBot
from ..bots.runner import react_all
from ..core.game import Game
from ..core.observation import View
from ..core.variants import get_rules
from ..encoding import Encoding
from ..files import write_atomically
from ..record.format import Seat
from ..record.recorder import RecordingGame
from ..sim.runner import MAX_GAMES, MAX_WORKERS, derive_seed

FORMAT = "unokit-dataset/1"
#: The expert's search budget per decision unless told otherwise: quick enough for the small
#: dataset of ``docs/research.md`` to build in minutes on two cores.
DEFAULT_ITERATIONS = 500
#: Hands per shard unless told otherwise.
DEFAULT_SHARD_HANDS = 1000
#: The table metadata key of the settings a shard was made with (:meth:`DatasetConfig.shard_settings`).
SETTINGS_KEY = b"unokit.shard_settings"


class DatasetError(ValueError):
    """A dataset that cannot be built or resumed as asked, named in the message."""


#: The columns of a table, with their meaning (written into the manifest).
COLUMNS: dict[str, str] = {
    "hand": "the hand's number in the dataset (its deal seed is derive_seed(seed, hand))",
    "step": "the decision's number within the hand, from 0",
    "seat": "the seat that decides",
    "decision": "the open decision (turn, play_or_keep, challenge, choose_color, ...)",
    "observation": "the seat's observation vector of the environments (docs/envs.md), float32",
    "legal_mask": "which action ids are legal now, bool per id of the variant's action table",
    "action": "the action id played",
    "visits": "the expert's visits per action id at the root of its search (one 1 where it did not search)",
    "searched": "whether the expert searched (false: one sensible choice, taken at once)",
    "outcome": "the hand's result for the seat: +1 won, -1/(players-1) lost (the environments' reward='hand')",
    "points": "the hand's points for the seat: the winner the points left in the other hands, "
    "the others minus their own",
}


@dataclass(frozen=True)
class DatasetConfig:
    """What a dataset is made of; ``play`` is a bot spec that plays the hands instead of the
    expert (the expert still labels every decision), ``None`` for expert against expert."""

    variant: str = "classic"
    players: int = 2
    hands: int = 10_000
    seed: int = 1
    iterations: int = DEFAULT_ITERATIONS
    shard_hands: int = DEFAULT_SHARD_HANDS
    play: str | None = None
    options: dict[str, object] = field(default_factory=dict)

    def validate(self) -> None:
        """Raise ``ValueError`` (``OptionError`` for rules) naming the first bad setting:
        ``hands`` as many as ``unokit sim`` plays at most, the rule options the engine's."""
        rules = get_rules(self.variant)
        if not rules.min_players <= self.players <= rules.max_players:
            raise ValueError(f"{rules.title} is for {rules.min_players} to {rules.max_players} players")
        for name in ("hands", "iterations", "shard_hands"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_GAMES:
                raise ValueError(f"{name} must be a whole number from 1 to {MAX_GAMES:,}, not {value!r}")
        Game.new(self.variant, self.players, derive_seed(self.seed, 0), **{**self.options, "rounds": 1})
        if self.play is not None:
            make_bot(self.play, 0)

    def shard_settings(self, shard: int) -> dict[str, Any]:
        """What shard ``shard`` is made of: every setting but the number of hands, and the
        hands it holds (written into its table, checked when a build is resumed)."""
        start, stop = self.shard_range(shard)
        settings = {k: v for k, v in asdict(self).items() if k != "hands"}
        return {**settings, "first_hand": start, "end_hand": stop}

    def shard_range(self, shard: int) -> tuple[int, int]:
        """The hands ``[start, stop)`` of shard ``shard``."""
        start = shard * self.shard_hands
        return start, min(start + self.shard_hands, self.hands)

    def shard_count(self) -> int:
        """How many shards the dataset has."""
        return -(-self.hands // self.shard_hands)


def schema(encoding: Encoding) -> pa.Schema:
    """The Arrow schema of a table for ``encoding``'s game."""
    return pa.schema(
        [
            pa.field("hand", pa.int64()),
            pa.field("step", pa.int32()),
            pa.field("seat", pa.int8()),
            pa.field("decision", pa.string()),
            pa.field("observation", pa.list_(pa.float32(), encoding.size)),
            pa.field("legal_mask", pa.list_(pa.bool_(), encoding.num_actions)),
            pa.field("action", pa.int16()),
            pa.field("visits", pa.list_(pa.int32(), encoding.num_actions)),
            pa.field("searched", pa.bool_()),
            pa.field("outcome", pa.float32()),
            pa.field("points", pa.float32()),
        ],
        metadata={
            "unokit.format": FORMAT,
            "unokit.variant": encoding.variant,
            "unokit.players": str(encoding.players),
            "unokit.history": str(encoding.history),
            "unokit.observation_size": str(encoding.size),
            "unokit.num_actions": str(encoding.num_actions),
        },
    )


@dataclass
class _Rows:
    """Columns being filled for one shard."""

    hand: list[int] = field(default_factory=list)
    step: list[int] = field(default_factory=list)
    seat: list[int] = field(default_factory=list)
    decision: list[str] = field(default_factory=list)
    observation: list[np.ndarray] = field(default_factory=list)
    legal_mask: list[np.ndarray] = field(default_factory=list)
    action: list[int] = field(default_factory=list)
    visits: list[np.ndarray] = field(default_factory=list)
    searched: list[bool] = field(default_factory=list)
    outcome: list[float] = field(default_factory=list)
    points: list[float] = field(default_factory=list)


def hand_rewards(players: int, winner: int, hand_points: list[int]) -> tuple[list[float], list[float]]:
    """Each seat's ``outcome`` and ``points`` for a hand won by ``winner`` (:data:`COLUMNS`)."""
    outcome = [1.0 if s == winner else -1.0 / (players - 1) for s in range(players)]
    points = [
        float(sum(hand_points) - hand_points[s]) if s == winner else -float(hand_points[s]) for s in range(players)
    ]
    return outcome, points


def play_hand(config: DatasetConfig, index: int, encoding: Encoding, rows: _Rows) -> str:
    """Play hand ``index``, append its decisions to ``rows``; return its record as JSON text."""
    n = config.players
    game, _ = RecordingGame.new(config.variant, n, derive_seed(config.seed, index), **{**config.options, "rounds": 1})
    experts = [FastIsmctsBot(derive_seed(config.seed, index, 1 + s), iterations=config.iterations) for s in range(n)]
    players: list[Bot] = list(experts)
    if config.play is not None:
        players = [make_bot(config.play, derive_seed(config.seed, index, 101 + s)) for s in range(n)]
    for s in range(n):
        experts[s].reset(s)
        players[s].reset(s)
    views = [View(game, s) for s in range(n)]
    start = len(rows.hand)
    seats: list[int] = []
    step = 0
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        view = views[seat]
        observation = encoding.observe(view)
        mask = encoding.mask(view)
        decision = str(game.decision)
        expert = experts[seat]
        expert.last_visits = {}
        label = expert.act(view)
        action = label if config.play is None else players[seat].act(view)
        code = encoding.encode(action, seat)
        if code is not None:
            visits = np.zeros(encoding.num_actions, np.int32)
            searched = bool(expert.last_visits)
            if searched:
                for key, count in expert.last_visits.items():
                    visits[key] = count
            else:
                label_code = encoding.encode(label, seat)
                visits[code if label_code is None else label_code] = 1
            rows.hand.append(index)
            rows.step.append(step)
            rows.seat.append(seat)
            rows.decision.append(decision)
            rows.observation.append(observation)
            rows.legal_mask.append(mask)
            rows.action.append(code)
            rows.visits.append(visits)
            rows.searched.append(searched)
            seats.append(seat)
            step += 1
        game.apply(action, seat)
        if game.windows and not game.is_over:
            react_all(game, players, views)
    ended = game.round_ended
    winner = game.winners[0] if game.winners else -1
    hand_points = list(ended.hand_points) if ended is not None else [0] * n
    outcome, points = hand_rewards(n, winner, hand_points)
    rows.outcome += [outcome[s] for s in seats]
    rows.points += [points[s] for s in seats]
    assert len(rows.outcome) == len(rows.hand) and len(rows.hand) - start == len(seats)
    bot = config.play or f"ismcts_fast(iterations={config.iterations})"
    record = game.to_record([Seat(f"seat {s}", "bot", bot) for s in range(n)])
    record.created = None
    return record.dumps().replace("\n", "")


def _table(rows: _Rows, encoding: Encoding) -> pa.Table:
    n = len(rows.hand)

    def fixed(values: list[np.ndarray], dtype: Any, width: int, arrow: pa.DataType) -> pa.Array:
        flat = np.concatenate(values).astype(dtype) if values else np.zeros(0, dtype)
        return pa.FixedSizeListArray.from_arrays(pa.array(flat, arrow), width)

    columns = [
        pa.array(rows.hand, pa.int64()),
        pa.array(rows.step, pa.int32()),
        pa.array(rows.seat, pa.int8()),
        pa.array(rows.decision, pa.string()),
        fixed(rows.observation, np.float32, encoding.size, pa.float32()),
        fixed(rows.legal_mask, np.bool_, encoding.num_actions, pa.bool_()),
        pa.array(rows.action, pa.int16()),
        fixed(rows.visits, np.int32, encoding.num_actions, pa.int32()),
        pa.array(rows.searched, pa.bool_()),
        pa.array(rows.outcome, pa.float32()),
        pa.array(rows.points, pa.float32()),
    ]
    table = pa.Table.from_arrays(columns, schema=schema(encoding))
    assert table.num_rows == n
    return table


def build_shard(config: DatasetConfig, shard: int) -> tuple[bytes, bytes, int, int]:
    """Shard ``shard`` of ``config``: its Parquet table and its records (JSON lines), with its
    numbers of hands and rows."""
    start, stop = config.shard_range(shard)
    encoding = Encoding(config.variant, config.players)
    rows = _Rows()
    records = ("\n".join(play_hand(config, index, encoding, rows) for index in range(start, stop)) + "\n").encode()
    table = _table(rows, encoding)
    # The shard says what made it, and which records go with it (a resumed build checks both).
    made = {**config.shard_settings(shard), "records_sha256": hashlib.sha256(records).hexdigest()}
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), SETTINGS_KEY: json.dumps(made)})
    buffer = io.BytesIO()
    pq.write_table(table, buffer, compression="zstd")
    return buffer.getvalue(), records, stop - start, len(rows.hand)


def _shard_task(args: tuple[DatasetConfig, int]) -> tuple[int, tuple[bytes, bytes, int, int]]:
    config, shard = args
    return shard, build_shard(config, shard)


def build(
    config: DatasetConfig,
    out: Path,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    resume: bool = False,
) -> dict[str, Any]:
    """Build the dataset of ``config`` into the folder ``out`` (made if missing; it must hold no
    dataset yet) with ``workers`` processes (1 to ``MAX_WORKERS``, never more than shards to
    make); ``progress`` is told the hands of each finished shard. Each shard is written as soon
    as it is made (its records, then its table, each replaced in one step), so an interrupted
    build leaves every finished shard. With ``resume`` the shards already in ``out`` are kept,
    not played again: each must have been made with the same settings (its table says which;
    a shard depends on them alone) and its records must be the ones its table names, else
    :class:`DatasetError` names it and nothing is written. Return the manifest, also written
    (last) to ``out/manifest.json``."""
    config.validate()
    if not 1 <= workers <= MAX_WORKERS:
        raise DatasetError(f"the number of workers must be from 1 to {MAX_WORKERS}, not {workers}")
    if (out / "manifest.json").exists():
        raise DatasetError(f"{out} already holds a dataset; choose an empty folder")
    done: dict[int, dict[str, Any]] = {}
    kept = _kept_shards(config, out) if resume else {}
    (out / "tables").mkdir(parents=True, exist_ok=True)
    (out / "records").mkdir(parents=True, exist_ok=True)
    for shard, (table, records, hands, rows) in kept.items():
        done[shard] = _shard_entry(shard, table, records, hands, rows)
        if progress is not None:
            progress(hands)
    todo = [k for k in range(config.shard_count()) if k not in kept]
    for shard, (table, records, hands, rows) in _run(config, todo, workers):
        name = _shard_name(shard)
        write_atomically(out / "records" / f"{name}.jsonl", records)
        write_atomically(out / "tables" / f"{name}.parquet", table)
        done[shard] = _shard_entry(shard, table, records, hands, rows)
        if progress is not None:
            progress(hands)
    encoding = Encoding(config.variant, config.players)
    manifest = {
        "format": FORMAT,
        "config": asdict(config),
        "expert": {"bot": "ismcts_fast", "iterations": config.iterations},
        "played_by": config.play or "the expert",
        "hands": config.hands,
        "rows": sum(s["rows"] for s in done.values()),
        "observation_size": encoding.size,
        "num_actions": encoding.num_actions,
        "action_labels": list(encoding.action_labels),
        "columns": COLUMNS,
        "shards": [done[k] for k in sorted(done)],
        "versions": versions(),
    }
    write_atomically(out / "manifest.json", json.dumps(manifest, indent=2) + "\n")
    return manifest


def _shard_name(shard: int) -> str:
    return f"shard-{shard:05d}"


def _shard_entry(shard: int, table: bytes, records: bytes, hands: int, rows: int) -> dict[str, Any]:
    name = _shard_name(shard)
    return {
        "hands": hands,
        "rows": rows,
        "table": f"tables/{name}.parquet",
        "table_sha256": hashlib.sha256(table).hexdigest(),
        "records": f"records/{name}.jsonl",
        "records_sha256": hashlib.sha256(records).hexdigest(),
    }


def _kept_shards(config: DatasetConfig, out: Path) -> dict[int, tuple[bytes, bytes, int, int]]:
    """The finished shards of an interrupted build of ``config`` in ``out`` (a shard whose
    table is there; one without its table is made again). Raise :class:`DatasetError` for a
    shard made with other settings, or one that cannot be read."""
    kept: dict[int, tuple[bytes, bytes, int, int]] = {}
    for shard in range(config.shard_count()):
        name = _shard_name(shard)
        table_path, records_path = out / "tables" / f"{name}.parquet", out / "records" / f"{name}.jsonl"
        if not table_path.exists():
            continue
        try:
            table = table_path.read_bytes()
            metadata = pq.read_metadata(pa.BufferReader(table))
            records = records_path.read_bytes()
        except (OSError, pa.ArrowException) as exc:
            raise DatasetError(f"cannot resume: the shard {table_path} cannot be read ({exc}); remove it") from None
        made = _loads_settings((metadata.metadata or {}).get(SETTINGS_KEY))
        wanted = config.shard_settings(shard)
        if made is None:
            raise DatasetError(f"cannot resume: {table_path} does not say how it was made; remove it")
        differ = [f"{key}={made.get(key)!r}, not {value!r}" for key, value in wanted.items() if made.get(key) != value]
        if differ:
            raise DatasetError(f"cannot resume: {table_path} was made with other settings ({'; '.join(differ)})")
        if made.get("records_sha256") != hashlib.sha256(records).hexdigest():
            raise DatasetError(f"cannot resume: {records_path} is not the records of {table_path}; remove both")
        start, stop = config.shard_range(shard)
        kept[shard] = (table, records, stop - start, metadata.num_rows)
    return kept


def _loads_settings(raw: bytes | None) -> dict[str, Any] | None:
    if raw is None:
        return None
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _run(config: DatasetConfig, shards: list[int], workers: int) -> Iterator[tuple[int, tuple[bytes, bytes, int, int]]]:
    tasks = [(config, k) for k in shards]
    if workers <= 1 or len(tasks) <= 1:
        yield from map(_shard_task, tasks)
        return
    with multiprocessing.get_context("spawn").Pool(min(workers, len(tasks))) as pool:  # no more than the work
        yield from pool.imap_unordered(_shard_task, tasks)


def versions() -> dict[str, str]:
    """The versions that make a dataset what it is."""
    return {
        "unokit": __version__,
        "python": platform.python_version(),
        "pyarrow": pa.__version__,
        "numpy": np.__version__,
    }


def read_table(folder: Path) -> pa.Table:
    """Every shard of the dataset in ``folder`` as one table (checked against the manifest)."""
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    if manifest.get("format") != FORMAT:
        raise ValueError(f"{folder} is not a {FORMAT} dataset")
    tables = []
    for shard in manifest["shards"]:
        data = (folder / shard["table"]).read_bytes()
        if hashlib.sha256(data).hexdigest() != shard["table_sha256"]:
            raise ValueError(f"{shard['table']} does not match its SHA-256 in the manifest")
        tables.append(pq.read_table(pa.BufferReader(data)))
    return pa.concat_tables(tables)
