"""The ``msbench`` command line: every workflow stage, runnable by hand on given files.

Each subcommand is a thin wrapper: parse arguments, call the package, write
outputs atomically. ``msbench <command> --help`` documents each one.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from msbench.errors import ConfigError, InputError, ModelUnavailableError


def _describe(args: argparse.Namespace) -> int:
    from msbench.describe import describe_file

    rows = describe_file(args.annotation, args.format, args.uem, args.encoding)
    print(json.dumps(rows, ensure_ascii=False, indent=2))
    return 0


def _ingest(args: argparse.Namespace) -> int:
    from msbench.stages import run_ingest

    run_ingest(args.sheet, args.source, Path(args.out_dir), args.end_tolerance)
    return 0


def _interaction(args: argparse.Namespace) -> int:
    from msbench.stages import run_interaction

    run_interaction(Path(args.ingested), Path(args.out), Path(args.utterances))
    return 0


def _collect(args: argparse.Namespace) -> int:
    from msbench.stages import run_collect

    run_collect(args.features, args.rejected, args.utterances, Path(args.out_dir), args.min_speakers)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="msbench",
        description="Build condition-stratified multi-speaker speech benchmarks. "
        "Stages run one at a time on given files; the Snakemake workflow chains them.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    describe = commands.add_parser(
        "describe",
        help="print the interaction features of one annotation file as JSON (no audio needed)",
        description="Interaction features of every session in ANNOTATION_FILE, as a JSON list. "
        "Duration comes from --uem, else the annotation (TextGrid xmax, lhotse), else the last "
        "segment end.",
    )
    describe.add_argument("annotation", metavar="ANNOTATION_FILE")
    describe.add_argument("--format", choices=("rttm", "textgrid", "chime", "seglst", "lhotse"))
    describe.add_argument("--uem", help="UEM file giving each session's duration")
    describe.add_argument("--encoding", help="text encoding (default: detect UTF-8/UTF-16)")
    describe.set_defaults(run=_describe)

    ingest = commands.add_parser(
        "ingest",
        help="validate one source of the dataset sheet: recordings + rejected list",
        description="Read SOURCE's annotations and audio headers, write "
        "OUT_DIR/recordings.jsonl (one validated recording per line) and OUT_DIR/rejected.jsonl.",
    )
    ingest.add_argument("--sheet", required=True, help="dataset sheet (TSV)")
    ingest.add_argument("--source", required=True, help="source name in the sheet")
    ingest.add_argument("--out-dir", required=True)
    ingest.add_argument("--end-tolerance", type=float, default=0.5,
                        help="seconds an annotation may run past the audio end (clipped)")
    ingest.set_defaults(run=_ingest)

    interaction = commands.add_parser(
        "interaction",
        help="interaction features of ingested recordings (speakers, overlap, turn gaps)",
    )
    interaction.add_argument("ingested", metavar="RECORDINGS_JSONL")
    interaction.add_argument("--out", required=True, help="features (JSONL)")
    interaction.add_argument("--utterances", required=True, help="per-utterance r_ov (CSV)")
    interaction.set_defaults(run=_interaction)

    collect = commands.add_parser(
        "collect", help="merge per-source features and rejections into the run's manifests"
    )
    collect.add_argument("--features", nargs="+", required=True)
    collect.add_argument("--rejected", nargs="*", default=[])
    collect.add_argument("--utterances", nargs="*", default=[])
    collect.add_argument("--out-dir", required=True)
    collect.add_argument("--min-speakers", type=int, default=2)
    collect.set_defaults(run=_collect)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except (InputError, ConfigError, ModelUnavailableError) as error:
        print(f"msbench {args.command}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
