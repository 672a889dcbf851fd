# Paths and input functions only; all logic lives in the msbench package.
from pathlib import Path

from msbench.dataset_sheet import find_source, read_dataset_sheet

SOURCE_SPECS = read_dataset_sheet(config["datasets"])
SOURCES = [spec.name for spec in SOURCE_SPECS]
RESULTS = Path(config["results"])


wildcard_constraints:
    source="|".join(SOURCES),


def manifest(name):
    return RESULTS / "manifests" / name


def annotation_files(wildcards):
    """Annotation files of one source: editing one re-runs that source only."""
    spec = find_source(SOURCE_SPECS, wildcards.source)
    return spec.annotation_files()


def per_source(pattern):
    return expand(RESULTS / pattern, source=SOURCES)
