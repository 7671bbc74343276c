"""The partitioned solve on a Ray cluster: each part of a stage is one Ray task.

Needs the ``ray`` extra, imported when :func:`solve_on_ray` runs.
:func:`solve_on_ray` connects to a running cluster (``address``) or starts a
local one, puts the finished values in the object store once per stage, and
runs the stage's parts (:mod:`cantstop.solve.partition`) as tasks; the
answer is the one :func:`cantstop.solve.solve` gives on one machine.

:func:`solve_waves_on_ray` runs the waves of :mod:`cantstop.solve.waves`
instead: tasks of at most a given number of anchors, each checkpointed as
it finishes, retried by Ray when its worker is lost, and skipped when a run
is started again over the same checkpoint folder.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator

import numpy as np

from cantstop import Rules
from cantstop.jsonform import rules_to_json
from cantstop.solve._solution import Solution
from cantstop.solve.partition import solve_part, stages
from cantstop.solve.waves import Task, WaveRun, solve_in_waves

__all__ = ["solve_on_ray", "solve_waves_on_ray"]


def solve_on_ray(rules: Rules, address: str | None = None, cpus: int | None = None) -> Solution:
    """Solve ``rules`` on a Ray cluster, one task per part of each stage; return the solution.

    ``address`` names a running cluster; without it a local one is started
    with ``cpus`` CPUs (by default, every core) and shut down at the end.
    """
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(address=address, num_cpus=cpus, include_dashboard=False, log_to_driver=False)
    try:
        part = ray.remote(solve_part)
        data = rules_to_json(rules)
        values = np.zeros(int(np.prod([h + 1 for h in rules.heights.values()])), np.float64)
        for stage in stages(rules):
            finished = ray.put(values.copy())
            tasks = [part.remote(data, finished, anchors) for anchors in stage]
            for anchors, result in zip(stage, ray.get(tasks), strict=True):
                values[anchors] = result
        return Solution(rules, values)
    finally:
        if started:
            ray.shutdown()


def _run_task(work: Callable[[Task], np.ndarray], data: dict[str, object], finished: np.ndarray,
              anchors: np.ndarray) -> np.ndarray:  # fmt: skip
    return work((data, finished, anchors))


def solve_waves_on_ray(
    rules: Rules,
    folder: str | os.PathLike[str],
    task_anchors: int = 4096,
    address: str | None = None,
    cpus: int | None = None,
    stop_after: int | None = None,
    retries: int = 3,
    work: Callable[[Task], np.ndarray] | None = None,
) -> WaveRun:
    """Solve ``rules`` in waves of Ray tasks of at most ``task_anchors`` anchors, checkpointed.

    ``folder`` is the checkpoint (:class:`cantstop.solve.waves.Checkpoint`):
    on a cluster, a folder every node's driver can reach (only the driver
    writes it).  A task whose worker dies is run again, up to ``retries``
    times; a run stopped or killed resumes from the folder.  ``stop_after``
    stops once that many waves are finished.  ``work`` replaces the task's
    function (by default :func:`cantstop.solve.partition.solve_part` on the
    task); ``address`` and ``cpus`` are as for :func:`solve_on_ray`.
    """
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(address=address, num_cpus=cpus, include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(max_retries=retries, retry_exceptions=False)(_run_task)

        def mapper(
            function: Callable[[Task], np.ndarray], batch: Iterable[Task]
        ) -> Iterator[np.ndarray]:
            chosen = function if work is None else work
            shared: dict[int, ray.ObjectRef[np.ndarray]] = {}
            pending = []
            for data, finished, anchors in batch:
                if id(finished) not in shared:  # a wave's tasks share one copy in the store
                    shared[id(finished)] = ray.put(finished)
                pending.append(remote.remote(chosen, data, shared[id(finished)], anchors))
            for ref in pending:
                yield ray.get(ref)

        return solve_in_waves(rules, folder, task_anchors, mapper, stop_after)
    finally:
        if started:
            ray.shutdown()
