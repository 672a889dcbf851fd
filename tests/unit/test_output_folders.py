"""An output folder msbench replaces whole is msbench's (msbench.output_folders): a user's files,
a user's file inside an earlier output, and a path that is a file are refused, never deleted."""

from __future__ import annotations

from pathlib import Path

import pytest

from msbench.errors import InputError
from msbench.output_folders import MARKER, foreign_files
from msbench.textio import atomic_folder

#: runs from the core install alone (scripts/core_tests.sh, Python 3.13, no extras)
pytestmark = pytest.mark.core


def _fill(out: Path, name: str = "site", force: bool = False) -> None:
    with atomic_folder(out, "msbench test", force) as folder:
        (folder / "index.html").write_text(name)
        (folder / "data").mkdir()
        (folder / "data" / "a.json").write_text("{}")


def test_a_new_or_earlier_output_is_replaced_and_marked(tmp_path: Path):
    out = tmp_path / "out"
    _fill(out, "one")
    assert foreign_files(out) == [] and (out / MARKER).exists()
    _fill(out, "two")
    assert (out / "index.html").read_text() == "two"
    empty = tmp_path / "empty"
    empty.mkdir()
    _fill(empty)
    assert (empty / "index.html").exists()


def test_a_users_files_are_refused_and_kept(tmp_path: Path):
    out = tmp_path / "out"
    (out / "mine").mkdir(parents=True)
    (out / "notes.txt").write_text("mine")
    (out / "mine" / "data.txt").write_text("mine")
    with pytest.raises(
        InputError,
        match=r"holds 2 file\(s\) msbench did not write there \(mine/data.txt, notes.txt\)",
    ):
        _fill(out)
    assert (out / "notes.txt").read_text() == "mine" and (out / "mine/data.txt").exists()
    assert not any(p.name.startswith(".out.") for p in tmp_path.iterdir())  # nothing left over


def test_a_users_file_inside_an_earlier_output_is_refused(tmp_path: Path):
    out = tmp_path / "out"
    _fill(out)
    (out / "data" / "feats.scp").write_text("a user's")
    with pytest.raises(InputError, match="data/feats.scp"):
        _fill(out)
    assert (out / "data" / "feats.scp").exists()


def test_a_file_in_the_way_is_refused_and_force_deletes_naming_it(tmp_path: Path, capsys):
    out = tmp_path / "results"
    out.write_text("a file")
    with pytest.raises(InputError, match="is a file"):
        _fill(out)
    assert out.read_text() == "a file"
    _fill(out, force=True)
    assert out.is_dir() and "--force: deleting what" in capsys.readouterr().err


def test_the_check_planted_away_deletes_the_users_file(tmp_path: Path, monkeypatch):
    """Planted fault: no ownership check (as before): the user's file is gone."""
    import msbench.output_folders as folders

    monkeypatch.setattr(folders, "foreign_files", lambda folder: [])
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    _fill(out)
    assert not (out / "notes.txt").exists()
