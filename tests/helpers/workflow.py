"""Run the real Snakemake workflow on a copy of the repository in a temporary folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from tests.helpers.paths import REPO, SHARED_MODELS, require_shared

WORKFLOW_FILES = ("Snakefile", "workflow", "config", "resources", "slurm", "scripts")
DEMO_CONFIG = "resources/demo/config.yaml"
DEMO_SHEET = "resources/demo/datasets.tsv"


def copy_workflow(target: Path) -> Path:
    target.mkdir(parents=True, exist_ok=True)
    for name in WORKFLOW_FILES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, target / name, symlinks=True)
        elif source.exists():
            shutil.copy2(source, target / name)
    # workflow/schemas links into the package; keep the links valid in the copy
    shutil.copytree(
        REPO / "src",
        target / "src",
        symlinks=True,
        ignore=shutil.ignore_patterns("*.egg-info", "__pycache__"),
    )
    # the copy lives elsewhere: point the model search at the shared weights by absolute path
    config_path = target / DEMO_CONFIG
    config = yaml.safe_load(config_path.read_text())
    config["models"]["search_dirs"] = [str(require_shared(SHARED_MODELS))]
    config_path.write_text(yaml.safe_dump(config, sort_keys=False))
    return target


def snakemake(
    workdir: Path,
    *args: str,
    check: bool = True,
    configfiles: tuple[str, ...] = (),
    demo: bool = True,
) -> subprocess.CompletedProcess[str]:
    """``snakemake ARGS`` in ``workdir``; with ``demo``, on the demo's own config (as run_demo.sh)."""
    if demo:
        args = (*args, "--configfile", DEMO_CONFIG, *configfiles, "--replace-workflow-config")
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    result = subprocess.run(
        [sys.executable, "-m", "snakemake", *args],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=3000,
    )
    if check and result.returncode != 0:
        raise AssertionError(
            f"snakemake {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}"
        )
    return result


def manifest_bytes(workdir: Path) -> dict[str, bytes]:
    folder = workdir / "results" / "manifests"
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def loop_bytes(workdir: Path) -> dict[str, bytes]:
    """The baseline's per-unit outputs, every evaluation table, the review site (not baseline.json)."""
    files = [
        *sorted((workdir / "results/systems/baseline").glob("*__*.json")),
        *sorted((workdir / "results/systems/simulated").iterdir()),
        *sorted((workdir / "results/evaluation").rglob("*.csv")),
        *sorted((workdir / "results/evaluation").rglob("*.json")),
        *sorted((workdir / "results/evaluation").glob("*.md")),
        *sorted(p for p in (workdir / "results/review").rglob("*") if p.is_file()),
        *sorted(p for p in (workdir / "results/probes").rglob("*") if p.is_file()),
    ]
    return {str(p.relative_to(workdir)): p.read_bytes() for p in files}
