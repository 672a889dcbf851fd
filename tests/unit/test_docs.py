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


#: Pages whose tables name this project's tests as the proof of a claim.
PAGES_NAMING_TESTS = ("docs/cluster.md", "docs/development.md", "README.md")


def test_every_test_a_page_names_exists():
    """A claim's proof must not be a test that was renamed or merged away (docs/cluster.md
    named a cancel test for a while after it became part of another)."""
    import re

    defined = set()
    for path in (REPO / "tests").rglob("test_*.py"):
        defined.add(path.stem)
        defined |= set(re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M))
    named = {
        (page, name)
        for page in PAGES_NAMING_TESTS
        for name in re.findall(r"`(?:[\w/.]+::)?(test_\w+)", (REPO / page).read_text("utf-8"))
    }
    assert len(named) >= 20, named
    assert not {(page, name) for page, name in named if name not in defined}
