"""The ``msbench`` command line: every workflow stage, runnable by hand on given files.

Each subcommand is a thin wrapper: parse arguments, call the package, write
outputs atomically. ``msbench <command> --help`` documents each one.
"""

from __future__ import annotations

import argparse
import json
import signal
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


def _acoustic(args: argparse.Namespace) -> int:
    from msbench.stages import run_acoustic

    run_acoustic(
        Path(args.ingested),
        args.shard,
        args.num_shards,
        Path(args.out),
        Path(args.rejected),
        Path(args.similarity),
        _settings(args),
    )
    return 0


def _collect(args: argparse.Namespace) -> int:
    from msbench.stages import run_collect

    run_collect(
        args.features,
        args.acoustic,
        args.rejected,
        args.utterances,
        args.similarity,
        Path(args.out),
        Path(args.manifests),
        args.min_speakers,
    )
    return 0


def _settings(args: argparse.Namespace) -> dict:
    """Config file (or the defaults), with ``--settings`` JSON sections laid over it, validated."""
    from msbench.config import load_config, validate_against

    config = load_config(args.config)
    if args.settings:
        try:
            override = json.loads(args.settings)
        except json.JSONDecodeError as error:
            raise ConfigError(f"--settings is not valid JSON: {error}") from error
        config.update(override)
        validate_against("config.schema.yaml", config, "--settings")
    return config


def _bin(args: argparse.Namespace) -> int:
    from msbench.benchmark.stages import run_bin

    run_bin(
        Path(args.features),
        Path(args.out),
        _settings(args),
        args.space_out and Path(args.space_out),
    )
    return 0


def _pool(args: argparse.Namespace) -> int:
    from msbench.benchmark.stages import run_pool

    run_pool(
        Path(args.labelled), Path(args.space), Path(args.out), Path(args.excluded), _settings(args)
    )
    return 0


def _select(args: argparse.Namespace) -> int:
    from msbench.benchmark.selection import SelectionInfeasible
    from msbench.benchmark.stages import run_select

    try:
        run_select(
            Path(args.pool),
            Path(args.labelled),
            Path(args.space),
            Path(args.out_dir),
            _settings(args),
        )
    except SelectionInfeasible as error:
        print(f"msbench select: infeasible: {error}", file=sys.stderr)
        return 3
    return 0


def _report(args: argparse.Namespace) -> int:
    from msbench.benchmark.stages import run_report

    run_report(
        Path(args.labelled),
        Path(args.pool),
        Path(args.excluded),
        Path(args.benchmark),
        Path(args.space),
        Path(args.out_dir),
    )
    return 0


def _summary(args: argparse.Namespace) -> int:
    from msbench.benchmark.conditions import build_condition_space, label_rows
    from msbench.benchmark.summary import summarize
    from msbench.tables import read_table

    rows = read_table(args.manifest)
    if any(not row.get("conditions") for row in rows):
        rows = label_rows(rows, build_condition_space(_settings(args)["condition_space"]))
    print(json.dumps(summarize(rows), ensure_ascii=False, indent=2))
    return 0


def _add_settings(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", help="config.yaml (default: the schema defaults)")
    parser.add_argument("--settings", help="JSON object of config sections laid over --config")


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
    ingest.add_argument(
        "--end-tolerance",
        type=float,
        default=0.5,
        help="seconds an annotation may run past the audio end (clipped)",
    )
    ingest.set_defaults(run=_ingest)

    interaction = commands.add_parser(
        "interaction",
        help="interaction features of ingested recordings (speakers, overlap, turn gaps)",
    )
    interaction.add_argument("ingested", metavar="RECORDINGS_JSONL")
    interaction.add_argument("--out", required=True, help="features (JSONL)")
    interaction.add_argument("--utterances", required=True, help="per-utterance r_ov (CSV)")
    interaction.set_defaults(run=_interaction)

    acoustic = commands.add_parser(
        "acoustic",
        help="speaker similarity (CAM++), DNSMOS P.835 and NISQA of ingested recordings",
        description="Model features of every NUM_SHARDS-th recording starting at SHARD. "
        "Recordings whose audio is damaged go to --rejected; the others go on.",
    )
    acoustic.add_argument("ingested", metavar="RECORDINGS_JSONL")
    acoustic.add_argument("--shard", type=int, default=0)
    acoustic.add_argument("--num-shards", type=int, default=1)
    acoustic.add_argument("--out", required=True, help="features (JSONL)")
    acoustic.add_argument("--rejected", required=True, help="rejected recordings (JSONL)")
    acoustic.add_argument(
        "--similarity", required=True, help="pairwise similarity matrices (JSONL)"
    )
    _add_settings(acoustic)
    acoustic.set_defaults(run=_acoustic)

    collect = commands.add_parser(
        "collect", help="join features, rank quality over the pool (d_N), write the run's manifests"
    )
    collect.add_argument("--features", nargs="+", required=True)
    collect.add_argument("--acoustic", nargs="*", default=[])
    collect.add_argument("--rejected", nargs="*", default=[])
    collect.add_argument("--utterances", nargs="*", default=[])
    collect.add_argument("--similarity", nargs="*", default=[])
    collect.add_argument("--out", required=True, help="characterized recordings (JSONL)")
    collect.add_argument("--manifests", required=True, help="folder for rejected.csv etc.")
    collect.add_argument("--min-speakers", type=int, default=2)
    collect.set_defaults(run=_collect)

    bin_ = commands.add_parser(
        "bin",
        help="label a features table (CSV/JSONL, official field names) with condition ranges",
        description="Add `conditions` (P, O, S, T, N labels) and `profile` to every row of FEATURES, "
        "keeping every input field. Works on the official release metadata.jsonl.",
    )
    bin_.add_argument("features", metavar="FEATURES")
    bin_.add_argument("-o", "--out", required=True, help="output table (.csv or .jsonl)")
    bin_.add_argument("--space-out", help="write the condition space used (YAML)")
    _add_settings(bin_)
    bin_.set_defaults(run=_bin)

    pool = commands.add_parser("pool", help="build the candidate pool and score its utility")
    pool.add_argument("labelled", metavar="LABELLED_JSONL")
    pool.add_argument("--space", required=True, help="condition_space.yaml written by `bin`")
    pool.add_argument("-o", "--out", required=True, help="candidate_pool.csv")
    pool.add_argument(
        "--excluded", required=True, help="JSONL of recordings left out, with reasons"
    )
    _add_settings(pool)
    pool.set_defaults(run=_pool)

    select = commands.add_parser(
        "select",
        help="solve the integer program: benchmark.csv, metadata.jsonl, selection_report.json",
    )
    select.add_argument("pool", metavar="CANDIDATE_POOL_CSV")
    select.add_argument(
        "--labelled", required=True, help="labelled recordings (for QC replacement)"
    )
    select.add_argument("--space", required=True)
    select.add_argument("--out-dir", required=True)
    _add_settings(select)
    select.set_defaults(run=_select)

    report = commands.add_parser("report", help="recordings.csv, summary.json and coverage.png")
    for name in ("labelled", "pool", "excluded", "benchmark", "space", "out-dir"):
        report.add_argument(f"--{name}", required=True)
    report.set_defaults(run=_report)

    summary = commands.add_parser(
        "summary", help="print the summary of a manifest (CSV/JSONL with official field names)"
    )
    summary.add_argument("manifest", metavar="MANIFEST")
    _add_settings(summary)
    summary.set_defaults(run=_summary)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `msbench ... | head` ends quietly
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except (InputError, ConfigError, ModelUnavailableError) as error:
        print(f"msbench {args.command}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
