"""Finding model weights: configured path, then known folders and the cache, then a download.

Order, for each model:

1. ``models.<name>.path`` from config: a file, or a folder holding one of the
   model's known file names;
2. each folder of ``models.search_dirs`` and the cache
   (``models.cache_dir``, else ``$MSBENCH_CACHE``, else ``~/.cache/msbench``),
   looking for the known file names (also under ``<dir>/<name>/``);
3. unless ``models.offline`` is true, a download into the cache (CAM++ from
   ModelScope with the ``modelscope`` client, NISQA from its GitHub repository);
4. otherwise :class:`ModelUnavailableError`, saying which file to put where.

Every file found is verified by loading it into its architecture before use
(see the model modules); a download is written to a temporary name and moved
into place only once complete.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from msbench.errors import ModelUnavailableError


@dataclass(frozen=True)
class WeightSpec:
    name: str
    file_names: tuple[str, ...]
    source: str  # human description of the download source
    licence: str


CAMPPLUS = WeightSpec(
    "campplus",
    ("campplus_cn_common.bin", "campplus_cn_en_common.pt", "pytorch_model.bin"),
    "ModelScope iic/speech_campplus_sv_zh-cn_16k-common (campplus_cn_common.bin)",
    "Apache-2.0",
)
NISQA = WeightSpec(
    "nisqa",
    ("nisqa.tar",),
    "the NISQA repository (weights/nisqa.tar)",
    "CC BY-NC-SA 4.0 (non-commercial; never redistribute it with msbench)",
)


def cache_dir(settings: Mapping[str, Any]) -> Path:
    configured = settings.get("cache_dir") or os.environ.get("MSBENCH_CACHE")
    return Path(configured).expanduser() if configured else Path.home() / ".cache" / "msbench"


def _in_folder(folder: Path, spec: WeightSpec) -> Path | None:
    for candidate_dir in (folder, folder / spec.name):
        for name in spec.file_names:
            if (candidate_dir / name).is_file():
                return candidate_dir / name
    return None


def find_local(spec: WeightSpec, settings: Mapping[str, Any]) -> Path | None:
    model = settings.get(spec.name) or {}
    configured = model.get("path")
    if configured:
        path = Path(configured).expanduser()
        found = path if path.is_file() else _in_folder(path, spec) if path.is_dir() else None
        if found is None:
            raise ModelUnavailableError(
                f"models.{spec.name}.path = {configured!r} holds none of {list(spec.file_names)}; "
                f"fix the path in config/config.yaml"
            )
        return found
    folders: Sequence[str | Path] = [*settings.get("search_dirs", []), cache_dir(settings)]
    for folder in folders:
        found = _in_folder(Path(folder).expanduser(), spec)
        if found:
            return found
    return None


def resolve_weights(
    spec: WeightSpec, settings: Mapping[str, Any], download: Callable[[Path], Path]
) -> Path:
    found = find_local(spec, settings)
    if found:
        return found
    target_dir = cache_dir(settings) / spec.name
    problem = "downloads are switched off (models.offline: true)"
    if not settings.get("offline"):
        try:
            return download(target_dir)
        except Exception as error:  # noqa: BLE001 - any network/client failure means "offline"
            problem = f"the download from {spec.source} failed ({type(error).__name__}: {error})"
    raise ModelUnavailableError(
        f"{spec.name} weights not found and {problem}. Put {spec.file_names[0]} from {spec.source} "
        f"into {target_dir}/ (or set models.{spec.name}.path in config/config.yaml to the file). "
        f"Licence: {spec.licence}."
    )


def download_url(url: str, target: Path, timeout: float = 60.0) -> Path:
    """Fetch ``url`` to ``target`` atomically (temporary file, then rename)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, suffix=".part")
    try:
        with (
            urllib.request.urlopen(url, timeout=timeout) as response,
            os.fdopen(handle, "wb") as out,
        ):
            shutil.copyfileobj(response, out)
        os.replace(temporary, target)
    finally:
        Path(temporary).unlink(missing_ok=True)
    return target


def fingerprint(settings: Mapping[str, Any]) -> dict[str, str]:
    """Per model, what identifies its weights: the file's sha256 (first 16 hex digits).

    Used as a rule parameter instead of the folders: moving the same weights
    (``models.search_dirs``, ``models.<name>.path``) re-runs nothing, other
    weights re-run the model step. A model not found locally is identified by
    the file that will be downloaded (its checksum is known only after).
    Checksums are cached by file size and modification time
    (:func:`cached_sha256`): the Snakefile is parsed by every job, SLURM jobs
    included, and the NISQA file alone is 2 x 100 MB to hash.
    """
    out = {}
    for spec in (CAMPPLUS, NISQA):
        try:
            found = find_local(spec, settings)
        except ModelUnavailableError as error:
            out[spec.name] = f"unavailable: {error}"
            continue
        if found is None:
            out[spec.name] = f"to download: {spec.file_names[0]}"
            continue
        out[spec.name] = f"sha256:{cached_sha256(found, cache_dir(settings))[:16]}"
    return out


#: The checksum cache inside the weights cache folder: path -> size, mtime_ns, sha256.
CHECKSUM_CACHE = "checksums.json"


def cached_sha256(path: Path, cache: Path) -> str:
    """The file's sha256, recomputed only when its size or modification time changed.

    The cache (``<cache>/checksums.json``) is written atomically; when it
    cannot be read or written, the checksum is computed every time.
    """
    import hashlib
    import json

    from msbench.textio import write_atomic

    stat = path.stat()
    key, facts = str(path.resolve()), [stat.st_size, stat.st_mtime_ns]
    table: dict[str, Any] = {}
    try:
        table = json.loads((cache / CHECKSUM_CACHE).read_text(encoding="utf-8"))
        if table.get(key, {}).get("facts") == facts:
            return str(table[key]["sha256"])
    except (OSError, ValueError, AttributeError):
        table = {}
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    table[key] = {"facts": facts, "sha256": digest.hexdigest()}
    try:
        write_atomic(cache / CHECKSUM_CACHE, json.dumps(table, indent=1, sort_keys=True) + "\n")
    except OSError:
        pass  # a read-only cache: the checksum is still right, only not kept
    return digest.hexdigest()
