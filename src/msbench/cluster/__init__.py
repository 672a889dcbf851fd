"""Running the workflow on a SLURM cluster through its maintenance windows and failures.

:mod:`~msbench.cluster.causes`   why SLURM ended a job (memory, time limit, cancel, node), from
                                 the job's own log;
:mod:`~msbench.cluster.retries`  what a retried job asks for: the resource that ran out grows;
:mod:`~msbench.cluster.submit`   ``sbatch`` that waits through refused submissions;
:mod:`~msbench.cluster.live`     each failure's cause on the terminal when SLURM reports it.

``docs/cluster.md`` has the table of faults, what msbench does and the test that proves it.
"""
