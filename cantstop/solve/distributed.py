"""The partitioned solve on a Ray cluster: each part of a stage is one Ray task.

Needs the ``ray`` extra, imported when :func:`solve_on_ray` runs.
:func:`solve_on_ray` connects to a running cluster (``address``) or starts a
local one, puts the finished values in the object store once per stage, and
runs the stage's parts (:mod:`cantstop.solve.partition`) as tasks; the
answer is the one :func:`cantstop.solve.solve` gives on one machine.
"""

from __future__ import annotations

import numpy as np

from cantstop import Rules
from cantstop.jsonform import rules_to_json
from cantstop.solve._solution import Solution
from cantstop.solve.partition import solve_part, stages

__all__ = ["solve_on_ray"]


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
