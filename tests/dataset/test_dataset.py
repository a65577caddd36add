"""``unokit dataset``: the tables' schema, the records, and the same files from the same seed."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from unokit.cli import main
from unokit.dataset.builder import COLUMNS, FORMAT, DatasetConfig, build, read_table
from unokit.encoding import Encoding
from unokit.record.format import GameRecord
from unokit.record.replay import verify

TINY = DatasetConfig(hands=4, shard_hands=2, iterations=40, seed=11)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    out = tmp_path_factory.mktemp("dataset") / "tiny"
    return out, build(TINY, out)


def test_the_tables_have_the_documented_schema(built: tuple[Path, dict[str, Any]]) -> None:
    out, manifest = built
    assert manifest["format"] == FORMAT
    table = read_table(out)
    assert table.column_names == list(COLUMNS)
    encoding = Encoding("classic", 2)
    meta = {k.decode(): v.decode() for k, v in (table.schema.metadata or {}).items()}
    assert meta["unokit.observation_size"] == str(encoding.size)
    assert meta["unokit.num_actions"] == str(encoding.num_actions)
    rows = table.num_rows
    assert rows == manifest["rows"] and rows > 4 * 10
    masks = table.column("legal_mask").combine_chunks().values.to_numpy(zero_copy_only=False).reshape(rows, -1)
    visits = table.column("visits").combine_chunks().values.to_numpy().reshape(rows, -1)
    actions = table.column("action").to_numpy()
    assert masks[np.arange(rows), actions].all(), "every action played is legal"
    assert (visits[~masks] == 0).all(), "the expert visits legal actions only"
    assert (visits.sum(axis=1) > 0).all()
    searched = table.column("searched").to_numpy(zero_copy_only=False)
    assert searched.any() and (visits[~searched].sum(axis=1) == 1).all()
    assert set(table.column("hand").to_pylist()) == {0, 1, 2, 3}
    assert set(np.unique(table.column("outcome").to_numpy())) == {-1.0, 1.0}


def test_the_records_replay_and_agree_with_the_tables(built: tuple[Path, dict[str, Any]]) -> None:
    out, _ = built
    table = read_table(out)
    records = [
        GameRecord.loads(line) for f in sorted((out / "records").iterdir()) for line in f.read_text().splitlines()
    ]
    assert len(records) == 4
    for hand, record in enumerate(records):
        assert verify(record).ok
        assert record.result is not None and record.result.over
        winner = record.result.winners[0]
        rows = table.filter(table.column("hand").to_numpy() == hand)
        for seat, outcome in zip(rows.column("seat").to_pylist(), rows.column("outcome").to_pylist(), strict=True):
            assert outcome == (1.0 if seat == winner else -1.0)


def test_the_same_seed_gives_the_same_files(built: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    _, manifest = built
    again = build(TINY, tmp_path / "again")
    assert [s["table_sha256"] for s in again["shards"]] == [s["table_sha256"] for s in manifest["shards"]]
    assert [s["records_sha256"] for s in again["shards"]] == [s["records_sha256"] for s in manifest["shards"]]
    other = build(DatasetConfig(hands=2, shard_hands=2, iterations=40, seed=12), tmp_path / "other")
    assert other["shards"][0]["table_sha256"] != manifest["shards"][0]["table_sha256"]
    # a resumed build keeps the shards it finds and makes the same dataset
    (tmp_path / "again" / "manifest.json").unlink()
    (tmp_path / "again" / "tables" / "shard-00001.parquet").unlink()
    resumed = build(TINY, tmp_path / "again", resume=True)
    assert resumed["shards"] == again["shards"]
    assert pq.read_metadata(tmp_path / "again" / "tables" / "shard-00000.parquet").num_rows > 0


def test_the_command_refuses_a_folder_that_holds_a_dataset(built: tuple[Path, dict[str, Any]]) -> None:
    out, _ = built
    result = CliRunner().invoke(main, ["dataset", str(out), "--hands", "1", "--no-progress"])
    assert result.exit_code == 2 and "already holds a dataset" in result.output
    bad = CliRunner().invoke(main, ["dataset", str(out.parent / "x"), "--hands", "0", "--no-progress"])
    assert bad.exit_code == 2 and "hands" in bad.output
    assert json.loads((out / "manifest.json").read_text())["hands"] == 4


class _Stop(Exception):
    """Stands for a build killed after its first shard."""


def test_each_shard_is_written_when_done_and_a_resume_refuses_other_settings(tmp_path: Path) -> None:
    from unokit.dataset.builder import DatasetError

    config = DatasetConfig(hands=3, shard_hands=1, iterations=20, seed=9)
    out = tmp_path / "killed"

    def stop_after_one(_hands: int) -> None:
        raise _Stop

    with pytest.raises(_Stop):
        build(config, out, progress=stop_after_one)
    # the first shard is on disk (whole: no temporary file beside it); the manifest is not
    assert sorted(p.name for p in (out / "tables").iterdir()) == ["shard-00000.parquet"]
    assert sorted(p.name for p in (out / "records").iterdir()) == ["shard-00000.jsonl"]
    assert not (out / "manifest.json").exists()
    kept = (out / "tables" / "shard-00000.parquet").read_bytes()
    # another seed's resume is refused, naming the setting, and leaves the folder as it was
    for other, said in (({"seed": 10}, "seed=9, not 10"), ({"iterations": 21}, "iterations=20, not 21")):
        with pytest.raises(DatasetError, match=said):
            build(DatasetConfig(**{**asdict(config), **other}), out, resume=True)
    assert sorted(p.name for p in (out / "tables").iterdir()) == ["shard-00000.parquet"]
    # records that are not the shard's are refused too
    records = out / "records" / "shard-00000.jsonl"
    saved = records.read_bytes()
    records.write_bytes(saved + b"\n")
    with pytest.raises(DatasetError, match="is not the records of"):
        build(config, out, resume=True)
    records.write_bytes(saved)
    # the same settings keep it and make the same dataset as a build in one go
    resumed = build(config, out, resume=True)
    assert (out / "tables" / "shard-00000.parquet").read_bytes() == kept
    whole = build(config, tmp_path / "whole")
    assert resumed["shards"] == whole["shards"]


def test_bad_settings_and_damaged_shards_are_one_line(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x")
    damaged = tmp_path / "damaged"
    (damaged / "tables").mkdir(parents=True)
    (damaged / "records").mkdir()
    (damaged / "tables" / "shard-00000.parquet").write_bytes(b"not parquet")
    cases = [
        (["--option", "stacking=zz", str(tmp_path / "a")], "option 'stacking'"),
        (["--hands", str(10**12), str(tmp_path / "b")], "from 1 to 1,000,000,000"),
        ([str(afile / "sub")], "is a file, not a folder"),
        ([str(tmp_path / ("d" * 300))], "300 bytes long"),
        (["--workers", "1000000000", str(tmp_path / "c")], "--workers"),
        (["--resume", "--hands", "1", str(damaged)], "cannot be read"),
    ]
    for args, said in cases:
        result = CliRunner().invoke(main, ["dataset", "--iterations", "5", *args, "--no-progress"])
        assert result.exit_code == 2 and said in result.output, (args, result.output)
        assert isinstance(result.exception, SystemExit | None), result.exception
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()
    assert (damaged / "tables" / "shard-00000.parquet").read_bytes() == b"not parquet"
