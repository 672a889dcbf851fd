"""Record ASLP-lab's normalizer on seeded and real strings: tests/fixtures/aslp/lab_outputs.jsonl.gz.

The lab's file is not part of msbench (its code stays in its repository): fetch
``text_normalization.py`` of ASLP-lab/Smart-Glass-Challenge (Apache-2.0) yourself and pass its
path. Each line of the fixture is ``{"text": ..., "tokens": normalize_text(text).split()}``:
10,000 strings from :func:`tests.helpers.text_cases.seeded_strings` and every non-empty interval
text of the real AISHELL-4 TextGrid of the MS-Bench release (``../shared``). A string on which
the lab's code raises is left out and counted.

    python scripts/make_aslp_fixture.py /path/to/text_normalization.py
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.helpers.text_cases import real_reference_lines, seeded_strings  # noqa: E402


def main() -> int:
    spec = importlib.util.spec_from_file_location("lab", sys.argv[1])
    lab = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lab)
    rows, raised = [], 0
    for text in [*seeded_strings(10_000), *real_reference_lines()]:
        try:
            rows.append({"text": text, "tokens": lab.normalize_text(text).split()})
        except (KeyError, ValueError):
            raised += 1
    out = REPO / "tests/fixtures/aslp/lab_outputs.jsonl.gz"
    body = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode("utf-8")
    out.write_bytes(gzip.compress(body, mtime=0))
    print(f"{len(rows)} strings recorded, {raised} on which the lab's code raises left out: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
