"""Pool-level noise difficulty ``d_N`` from raw DNSMOS OVRL and NISQA MOS.

Over the characterized pool of ``N`` recordings that have both scores:
``p_D = rank(DNSMOS OVRL) / N`` and ``p_N = rank(NISQA MOS) / N``, ranks
``1..N`` ascending with ties given their average rank (the official release's
values are consistent with this on its pool of 1,406 recordings);
``Q = (p_D + p_N) / 2``; ``d_N = 1 - Q``. High d_N = worse quality than most of
the pool. Raw scores stay in the manifests, so changing the pool re-ranks
without re-running any model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy.stats import rankdata


def add_noise_difficulty(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    scored = [
        i
        for i, r in enumerate(rows)
        if r.get("dnsmos_ovrl") is not None and r.get("nisqa_mos") is not None
    ]
    out = [
        dict(r, noise_difficulty=None, quality_rank_dnsmos=None, quality_rank_nisqa=None)
        for r in rows
    ]
    if not scored:
        return out
    count = len(scored)
    p_d = rankdata(np.array([rows[i]["dnsmos_ovrl"] for i in scored]), method="average") / count
    p_n = rankdata(np.array([rows[i]["nisqa_mos"] for i in scored]), method="average") / count
    for k, i in enumerate(scored):
        out[i].update(
            quality_rank_dnsmos=float(p_d[k]),
            quality_rank_nisqa=float(p_n[k]),
            noise_difficulty=float(1.0 - (p_d[k] + p_n[k]) / 2),
        )
    return out
