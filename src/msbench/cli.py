"""The ``msbench`` command line, generated from the stage functions of :mod:`msbench.stages`.

Every subcommand is one stage module's ``run`` function: its parameters become
the options (``out_dir`` -> ``--out-dir``), their annotations give the type
and the help (``Annotated[Path, Arg("help")]``), their defaults the defaults,
and the docstring's first line and rest the command's help and description.
A parameter without a default is required; ``tuple[X, ...]`` takes several
values; ``bool`` is a switch.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import inspect
import io
import signal
import sys
import types
import typing
from collections.abc import Callable, Sequence
from typing import Any

from msbench.errors import ConfigError, InputError, ModelUnavailableError
from msbench.stages import COMMANDS
from msbench.stages.options import Arg
from msbench.verbosity import NORMAL, QUIET, VERBOSE, set_level

#: Exit status of each failure the stages report (anything else is a bug: a traceback).
EXIT_STATUS = {InputError: 2, ConfigError: 2, ModelUnavailableError: 2}


def stage_function(command: str) -> Callable[..., Any]:
    function: Callable[..., Any] = importlib.import_module(COMMANDS[command]).run
    return function


def _unwrap(annotation: Any) -> tuple[Any, Arg]:
    """``Annotated[T, Arg(...)]`` -> ``(T, Arg)``."""
    base, *extras = typing.get_args(annotation)
    facts = next(extra for extra in extras if isinstance(extra, Arg))
    return base, facts


def _scalar(base: Any) -> tuple[Any, bool]:
    """``X | None`` -> ``(X, True)``; ``X`` -> ``(X, False)``."""
    if isinstance(base, types.UnionType) or typing.get_origin(base) is typing.Union:
        members = [m for m in typing.get_args(base) if m is not type(None)]
        return members[0], True
    return base, False


def _add_parameter(parser: argparse.ArgumentParser, name: str, parameter: Any, hint: Any) -> None:
    base, facts = _unwrap(hint)
    base, _ = _scalar(base)
    required = parameter.default is inspect.Parameter.empty
    options: dict[str, Any] = {"help": facts.help, "metavar": facts.metavar}
    if typing.get_origin(base) is tuple:
        options["type"] = typing.get_args(base)[0]
        options["nargs"] = "+" if required else "*"
    elif base is bool:
        options = {"help": facts.help, "action": "store_true"}
    else:
        options["type"] = base
    if facts.choices:
        options["choices"] = facts.choices
    if not required:
        options["default"] = parameter.default
        if parameter.default not in (None, (), False):
            options["help"] += f" (default: {parameter.default})"
    parser.add_argument(f"--{name.replace('_', '-')}", dest=name, required=required, **options)


def _talk_options() -> argparse.ArgumentParser:
    """``--quiet`` and ``--verbose``, on the main parser and after every subcommand alike."""
    options = argparse.ArgumentParser(add_help=False)
    talk = options.add_mutually_exclusive_group()
    talk.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        default=argparse.SUPPRESS,
        help="say nothing on standard error but errors",
    )
    talk.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        default=argparse.SUPPRESS,
        help="progress lines wherever standard error goes (msbench.verbosity)",
    )
    return options


def add_command(commands: Any, command: str) -> None:
    function = stage_function(command)
    summary, _, description = (inspect.getdoc(function) or command).partition("\n")
    parser = commands.add_parser(
        command,
        help=summary.rstrip("."),
        description=f"{summary}\n{description}".strip(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        parents=[_talk_options()],
    )
    hints = typing.get_type_hints(function, include_extras=True)
    for name, parameter in inspect.signature(function).parameters.items():
        _add_parameter(parser, name, parameter, hints[name])
    parser.set_defaults(command=command)


def build_parser() -> argparse.ArgumentParser:
    from importlib.metadata import version

    parser = argparse.ArgumentParser(
        prog="msbench",
        description="Build and use condition-stratified multi-speaker speech benchmarks. "
        "Stages run one at a time on given files; the Snakemake workflow chains them.",
        parents=[_talk_options()],
    )
    from msbench.extras import DISTRIBUTION

    parser.add_argument(
        "--version", action="version", version=f"msbench {version(DISTRIBUTION)} ({DISTRIBUTION})"
    )
    commands = parser.add_subparsers(dest="subcommand", required=True, metavar="COMMAND")
    for command in COMMANDS:
        add_command(commands, command)
    return parser


def _exit_status(error: BaseException) -> int | None:
    from msbench.construction.selection import SelectionInfeasible

    if isinstance(error, SelectionInfeasible):
        return 3
    return next((code for kind, code in EXIT_STATUS.items() if isinstance(error, kind)), None)


def main(argv: Sequence[str] | None = None) -> int:
    from msbench.extras import foreign_msbench

    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `msbench ... | head` ends quietly
    if warning := foreign_msbench():
        print(f"msbench: warning: {warning}", file=sys.stderr)
    args = vars(build_parser().parse_args(argv))
    command = args.pop("command")
    args.pop("subcommand")
    quiet, verbose = args.pop("quiet", False), args.pop("verbose", False)
    set_level(QUIET if quiet else VERBOSE if verbose else NORMAL)
    try:
        with contextlib.redirect_stderr(io.StringIO()) if quiet else contextlib.nullcontext():
            stage_function(command)(**args)
    except ModuleNotFoundError as error:  # a module of an extra this install left out
        from msbench.extras import missing_extra

        line = missing_extra(error, command)
        if line is None:
            raise
        print(f"msbench {command}: {line}", file=sys.stderr)
        return 2
    except PermissionError as error:  # an output folder or file msbench may not write (or read)
        print(
            f"msbench {command}: error: {error.filename}: permission denied: make it writable "
            "(or readable) for this user, or choose another path",
            file=sys.stderr,
        )
        return 2
    except Exception as error:
        status = _exit_status(error)
        if status is None:
            raise
        kind = "infeasible" if status == 3 else "error"
        print(f"msbench {command}: {kind}: {error}", file=sys.stderr)
        return status
    return 0


if __name__ == "__main__":
    sys.exit(main())
