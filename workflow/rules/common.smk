# Input functions only; all logic lives in the msbench package.
import json
import re
import time
from pathlib import Path

from msbench.ingest.sheet import check_source_folders, find_source, read_dataset_sheet
from msbench.models.weights import fingerprint
from msbench.features.batches import acoustic_job, count_batches
from msbench.features.job_size import evaluate_job, units_job
from msbench.scoring.evaluate import evaluate_options
from msbench.cluster.causes import causes_of_job
from msbench.cluster.retries import retried, user_requests

RUN_STARTED = time.time()
# SLURM's own logs of each job (the executor plugin's default folder): a retry reads why the
# job's last attempt ended there (msbench.cluster.causes)
SLURM_LOGS = ".snakemake/slurm_logs"
RUN_SUMMARY = "results/manifests/run_summary.json"
# mem_mb and runtime fixed with --set-resources for the jobs msbench sizes: taken out of
# Snakemake's overrides (which would fix every attempt) to be each job's first request, grown
# on retry by what ran out (msbench.cluster.retries)
USER_REQUESTS = user_requests(workflow, ("acoustic", "units", "evaluate"))

SOURCE_SPECS = read_dataset_sheet(config["datasets"])
check_source_folders(SOURCE_SPECS, config["datasets"])
SOURCES = [spec.name for spec in SOURCE_SPECS]


wildcard_constraints:
    source="|".join(SOURCES),


def source_files(wildcards):
    """Annotation and audio files of one source: editing, adding or restoring one re-runs it.

    Names Snakemake would read as wildcards or path variables ({ } < >) are left out of
    the inputs (ingest still reads them, and its log says so)."""
    spec = find_source(SOURCE_SPECS, wildcards.source)
    return spec.watched_files()


def per_source(pattern):
    return expand(pattern, source=SOURCES)


def settings_json(*sections):
    """Config sections a stage depends on, as its params: editing them re-runs that stage only
    (their runtime-only keys left out: changing how a step runs re-runs nothing)."""
    return json.dumps(
        {name: without_runtime(name, config[name]) for name in sections}, sort_keys=True
    )


def without_runtime(name, section):
    """A config section minus its runtime-only keys (RUNTIME_ONLY)."""
    if not isinstance(section, dict):
        return section
    return {k: v for k, v in section.items() if k not in RUNTIME_ONLY.get(name, ())}


def selection_files(wildcards):
    """The kept selection and the QC rejections, when configured, are inputs of their stages."""
    files = [config["selection"]["keep"], config["selection"]["qc_rejected"]]
    return [path for path in files if path]


ACOUSTIC_GPUS = 1 if config["acoustic"]["device"] == "cuda" else 0
# Settings that change how the model step runs, not what it computes: passed at run time,
# not as rule params, so changing them re-runs nothing (weights are identified by checksum).
RUNTIME_ONLY = {
    "acoustic": ("threads", "decode_workers", "mem_mb", "runtime_min"),
    "models": ("search_dirs", "cache_dir", "offline"),
    "scoring": ("threads",),
}


def acoustic_settings():
    """The acoustic and models sections minus the runtime-only keys and weight locations."""
    acoustic = {
        k: v for k, v in config["acoustic"].items() if k not in RUNTIME_ONLY["acoustic"]
    }
    return json.dumps({"acoustic": acoustic}, sort_keys=True)


def acoustic_runtime():
    """The runtime-only keys, and where the weights are (models section), for the stage."""
    runtime = {
        "acoustic": {k: config["acoustic"][k] for k in RUNTIME_ONLY["acoustic"]},
        "models": config["models"],
    }
    return json.dumps(runtime, sort_keys=True)


def collect_settings():
    """What collect depends on: eligibility, the clean-segment length its messages name, and
    whether a source that gives no recording fails the step (strict_sources)."""
    similarity = {"similarity": config["acoustic"]["similarity"]}
    settings = {"eligibility": config["eligibility"], "acoustic": similarity}
    return json.dumps(
        {**settings, "strict_sources": config["strict_sources"]}, sort_keys=True
    )


WEIGHTS = json.dumps(fingerprint(config["models"]), sort_keys=True)
ACOUSTIC_RUNTIME = acoustic_runtime()


# Attempt logs: a job sized by the memory model (acoustic, units, evaluate) keeps every
# attempt's lines. Snakemake deletes a job's log before a retry, so the log is also appended to
# <log>.attempts, under a line naming the attempt's memory; a job SLURM killed for memory thus
# leaves the recording it was on and its expected peak (stdout and stderr both go to the log).
# The rules spell the two shell pieces out (snakemake --lint: no command built with '+').


def made(path):
    """`path`, or FileNotFoundError while it is not made yet: Snakemake then shows <TBD>
    and evaluates the resource again when the job is about to run."""
    if not Path(path).exists():
        raise FileNotFoundError(2, "not made yet", path)
    return path


def request(rule, wildcards, job, attempt):
    """A sized job's mem_mb and runtime for `attempt`: the first request (the user's
    --set-resources, else `job`, msbench's model or the config), grown on retry by what ran
    out in the earlier attempts (msbench.cluster.retries)."""
    first = {name: int(job[name]) for name in ("mem_mb", "runtime")}
    first.update(USER_REQUESTS.get(rule, {}))
    if attempt == 1:
        return first
    causes = causes_of_job(SLURM_LOGS, rule, list(wildcards), RUN_STARTED)
    return retried(first, int(job["predicted_mb"]), causes)


def acoustic_resource(name):
    """Resource callable: an acoustic batch's `name` (mem_mb, runtime) from the audio it holds.

    Computed by the measured memory and runtime model (msbench.features.job_size), or the
    config's acoustic.mem_mb and acoustic.runtime_min; a retry grows what ran out (request).
    """

    def resource(wildcards, input, attempt):
        job = acoustic_job(made(input[0]), int(wildcards.batch), config["acoustic"])
        return request("acoustic", wildcards, job, attempt)[name]

    return resource


def units_resource(name):
    """Resource callable: the units job's `name` (mem_mb, runtime) from the selected audio."""

    def resource(wildcards, input, attempt):
        return request("units", wildcards, units_job(made(input.benchmark)), attempt)[
            name
        ]

    return resource


def evaluate_resource(name):
    """Resource callable: a system's evaluate job's `name` (mem_mb, runtime) from its units.

    The longest selected recording bounds the longest unit (memory); every recording's
    length gives the runtime (msbench.features.job_size); a retry grows what ran out.
    """

    def resource(wildcards, input, attempt):
        job = evaluate_job(made(input.benchmark))
        return request("evaluate", wildcards, job, attempt)[name]

    return resource


def source_batches(suffix):
    """Input function: one source's extraction batches (known once its ingest has run).

    Only that source's ingest is asked: a source whose ingest fails holds back no
    other source's model jobs."""

    def inputs(wildcards):
        ingested = checkpoints.ingest.get(source=wildcards.source).output.recordings
        batches = count_batches(ingested, config["acoustic"])
        return [
            f"results/features/{wildcards.source}/acoustic/{batch}-of-{batches}{suffix}.jsonl"
            for batch in range(batches)
        ]

    return inputs


#: The cascaded baseline, when enabled: scored like any system, on the units msbench cuts.
ASR_NAMES = {
    None: "Whisper tiny.en or base by language",
    "tiny.en": "Whisper tiny.en",
    "whisper-base": "Whisper base",
}
ASR_MODEL = config["baseline"]["asr"]["model"]
BASELINE = {
    "id": "baseline",
    "name": (
        "msbench baseline (Silero VAD + CAM++ clustering"
        f" + {ASR_NAMES.get(ASR_MODEL, f'Whisper from {ASR_MODEL}')})"
    ),
    "outputs": "results/systems/baseline",
    "units": "results/units/units.csv",
}
SYSTEMS = {entry["id"]: entry for entry in config["systems"]}
if config["baseline"]["enabled"]:
    SYSTEMS = {"baseline": BASELINE, **SYSTEMS}


wildcard_constraints:
    # results/evaluation/compare/ is the comparison's folder, not a system's
    system="|".join(re.escape(name) for name in SYSTEMS) or "(?!)",


BASELINE_GPUS = 1 if config["baseline"]["device"] == "cuda" else 0


def system_options(wildcards):
    """One system's config entry as msbench evaluate's options (the evaluate rule's param:
    editing the entry re-runs that system only)."""
    entry = SYSTEMS[wildcards.system]
    return evaluate_options(entry)


def system_files(wildcards):
    """A system's output files (a folder's files, or the one file), and its units manifest."""
    entry = SYSTEMS[wildcards.system]
    if entry is BASELINE:  # made by the baseline rule: its sidecar is written last
        return [rules.baseline.output.sidecar, rules.units.output.units]
    if "simulate" in entry:  # made by the simulate rule: its sidecar is written last
        sidecar = f"results/systems/{entry['id']}/simulated.json"
        return [sidecar] + ([entry["units"]] if entry.get("units") else [])
    outputs = Path(entry["outputs"])
    files = (
        sorted(str(p) for p in outputs.iterdir())
        if outputs.is_dir()
        else [str(outputs)]
    )
    return files + ([entry["units"]] if entry.get("units") else [])


def simulated_entry(wildcards):
    """A simulated system's config entry (the simulate rule's param), refused for any other."""
    entry = SYSTEMS.get(wildcards.system)
    if not entry or "simulate" not in entry:
        raise ValueError(f"system {wildcards.system!r} has no simulate: settings")
    return json.dumps(entry, sort_keys=True)


#: Pairwise comparison: on when two or more systems are scored, unless compare.enabled is false.
COMPARE = len(SYSTEMS) >= 2 and config["compare"]["enabled"] is not False


def comparison_pairs():
    """compare's pairs.csv when the run compares (the leaderboard's rank groups), else nothing."""
    return ["results/evaluation/compare/pairs.csv"] if COMPARE else []


def comparison_option(wildcards, input):
    """The leaderboard's `--comparison` option when the run compares."""
    return f"--comparison {input.comparison[0]}" if COMPARE else ""


def evaluation_outputs():
    """The leaderboard and the condition analyses when systems are configured (nothing otherwise),
    and the comparison when two or more are."""
    if not SYSTEMS:
        return []
    compared = [*rules.compare.output] if COMPARE else []
    return [*rules.leaderboard.output, *rules.table2.output, *compared]


def review_evaluations():
    """Each system's scored tables (the review site's results view reads them)."""
    return [
        f"results/evaluation/{system}/{name}"
        for system in SYSTEMS
        for name in (
            "unit_scores.csv",
            "utterance_scores.csv",
            "recording_scores.csv",
            "alignments",
        )
    ]


def review_results():
    """The review's `--results` option when systems are scored (its results page), else nothing."""
    return "--results results/evaluation" if SYSTEMS else ""


def probes_outputs():
    """The probe set when `probes.enabled` (nothing otherwise)."""
    return ["results/probes"] if config["probes"]["enabled"] else []


def review_probes():
    """The review's `--probes` option when the run makes probes (its quality page), else nothing."""
    if not config["probes"]["enabled"]:
        return ""
    return "--probes results/probes/probe_summary.json"


def audit_outputs():
    """The audit when `release:` names a published metadata.jsonl (nothing otherwise)."""
    return rules.audit.output if config["release"] else []


def export_outputs():
    """The export folder when `export.formats` names any (nothing otherwise)."""
    return ["results/export"] if config["export"]["formats"] else []


def export_probes():
    """The probe set, an input of the export when it writes hf and the run makes probes."""
    return probes_outputs() if "hf" in config["export"]["formats"] else []


def export_systems():
    """Every scored system's config entry, shell-quoted JSON (seglst converts their outputs)."""
    import shlex

    return " ".join(
        shlex.quote(json.dumps(e, sort_keys=True)) for e in SYSTEMS.values()
    )
