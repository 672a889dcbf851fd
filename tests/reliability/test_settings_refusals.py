"""Settings that used to pass silently (issue 48, root 8): a key repeated in --settings JSON (the
last one won; the YAML path refuses it), an empty probes.families (0 items, exit 0)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from msbench.config import load_config
from msbench.errors import ConfigError
from msbench.stages.options import resolve_settings


def test_a_key_repeated_in_settings_json_is_refused():
    with pytest.raises(ConfigError, match=r"--settings: key 'collar' is given twice in one object"):
        resolve_settings(
            None, '{"scoring": {"collar": 0.25, "tokenizer": "mixed-v1", "collar": 0.5}}'
        )
    assert resolve_settings(None, '{"scoring": {"collar": 0.5}}')["scoring"]["collar"] == 0.5


def test_the_command_line_says_it_in_one_line(tmp_path: Path):
    settings = '{"diagnostics": {"overlap_threshold": 0.5, "overlap_threshold": 0.9}}'
    result = subprocess.run(
        [sys.executable, "-m", "msbench.cli", "diagnose", "--system-dir", ".", "--benchmark", "b.csv",
         "--similarity", "s.jsonl", "--out", "c.json", "--settings", settings],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode != 0
    assert "key 'overlap_threshold' is given twice" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_empty_probe_family_list_is_refused(tmp_path: Path):
    config = tmp_path / "config.yaml"
    config.write_text("probes: {enabled: true, families: []}\n")
    with pytest.raises(ConfigError, match=r"probes.families: \[\] should be non-empty"):
        load_config(config)
