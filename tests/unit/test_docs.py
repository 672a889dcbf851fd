"""The documentation site: its generated pages are current, and it builds in strict mode."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.helpers.paths import REPO


def test_the_generated_reference_pages_are_current():
    """A new option, config key, column or corpus without `python scripts/gen_docs.py` fails."""
    done = subprocess.run([sys.executable, "scripts/gen_docs.py", "--check"], cwd=REPO,
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_site_builds_strictly_and_opens_without_a_server(tmp_path: Path):
    mkdocs = Path(sys.executable).parent / "mkdocs"
    done = subprocess.run(
        [str(mkdocs), "build", "--strict", "--site-dir", str(tmp_path)], cwd=REPO,
        capture_output=True, text=True, check=False, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert 'href="getting-started.html"' in index  # file links: no server needed
    assert (tmp_path / "reference" / "cli.html").is_file()


def test_the_readme_is_short_and_links_into_the_site():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    for page in ("docs/getting-started.md", "docs/reference/cli.md", "docs/cluster.md"):
        assert page in readme and (REPO / page).is_file(), page
