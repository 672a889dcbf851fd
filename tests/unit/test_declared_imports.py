"""Every import the package makes is declared: a module of the core's dependencies, or of the
extra that msbench.extras names for it (and that pyproject.toml's extra installs), so a command
of the core install never meets an undeclared ModuleNotFoundError."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib import metadata

from msbench.extras import MODULE_EXTRAS, NO_DEPS_MODULES
from tests.helpers.paths import REPO


def _name(requirement: str) -> str:
    """``"pyannote.core>=5,<7"`` -> ``pyannote-core`` (PEP 503 normalised)."""
    name = re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0]
    return re.sub(r"[-_.]+", "-", name).lower()


def _imported_modules() -> dict[str, set[str]]:
    """Third-party top-level module -> the package files that import it (any depth)."""
    found: dict[str, set[str]] = {}
    for path in sorted((REPO / "src" / "msbench").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top != "msbench" and top not in sys.stdlib_module_names:
                    found.setdefault(top, set()).add(str(path.relative_to(REPO)))
    return found


def test_every_imported_module_is_declared():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    core = {_name(r) for r in project["dependencies"]}
    extras = {
        extra: {_name(r) for r in requirements}
        for extra, requirements in project["optional-dependencies"].items()
    }
    providers = metadata.packages_distributions()
    undeclared = []
    for module, files in sorted(_imported_modules().items()):
        distributions = {_name(d) for d in providers.get(module, [module])}
        extra = MODULE_EXTRAS.get(module)
        if distributions & core:
            assert extra is None, f"{module} is in the core; msbench.extras names extra {extra}"
            continue
        if extra is not None and (distributions & extras[extra] or module in NO_DEPS_MODULES):
            continue
        undeclared.append(f"{module} ({', '.join(sorted(files)[:2])}): extra {extra}")
    assert not undeclared, undeclared


def test_the_core_has_no_torch_and_lhotse_is_an_extra():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    core = {_name(r) for r in project["dependencies"]}
    assert not core & {"torch", "lhotse", "datasets", "snakemake", "onnxruntime"}
    assert {"lhotse", "urllib3"} <= {_name(r) for r in project["optional-dependencies"]["lhotse"]}
    assert project["name"] == "msbench-toolkit"
