"""How many threads one unit's scoring uses, and the pool that runs its independent steps.

A large unit's scoring has five independent pieces of work after its words are prepared: the
cpWER and tcpWER assignments with their alignments, the speaker-agnostic WER's counts, and the
diagnosis' two merged-stream alignments. Their kernels are compiled with ``nogil`` (numba), so
threads run them on several cores at once; the numbers do not depend on the thread count (each
piece is a pure function of the unit), which ``tests/unit/test_fast_scoring.py`` checks.

The default is the CPUs this process may run on (its affinity mask, which SLURM sets to the CPUs
a job asked for, and ``SLURM_CPUS_PER_TASK`` where set), at most :data:`DEFAULT_MAX`: a cluster
job that asked for one CPU scores on one thread. ``msbench score --threads``, ``msbench evaluate
--threads`` and the workflow's ``scoring.threads`` (the evaluate rule's ``threads``) set it.
Units under :data:`LARGE_UNIT_TOKENS` tokens are scored on the calling thread: starting threads
costs more than they save there.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

#: The default thread count's ceiling (the pieces of work of one unit are five).
DEFAULT_MAX = 4
#: Units with fewer tokens (both sides) than this are scored on one thread.
LARGE_UNIT_TOKENS = 5000


def available_cpus() -> int:
    """The CPUs this process may run on: its affinity mask, and a SLURM job's CPUs per task."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    slurm = os.environ.get("SLURM_CPUS_PER_TASK", "")
    if slurm.isdigit() and int(slurm) > 0:
        cpus = min(cpus, int(slurm))
    return max(1, cpus)


def scoring_threads(requested: int | None = None) -> int:
    """``requested`` when given (at least 1), else the available CPUs up to :data:`DEFAULT_MAX`.

    >>> scoring_threads(3)
    3
    """
    if requested is not None:
        if requested < 1:
            raise ValueError(f"threads must be at least 1, got {requested}")
        return requested
    return min(DEFAULT_MAX, available_cpus())


class _Inline(Executor):
    """An executor that runs each task at once on the calling thread."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:  # noqa: BLE001 - handed to the caller by result()
            future.set_exception(error)
        return future


@contextmanager
def unit_pool(threads: int, tokens: int) -> Iterator[Executor]:
    """A pool for one unit's independent steps: ``threads`` workers where the unit is large,
    else the calling thread."""
    if threads <= 1 or tokens < LARGE_UNIT_TOKENS:
        yield _Inline()
        return
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="msbench-score") as pool:
        yield pool
