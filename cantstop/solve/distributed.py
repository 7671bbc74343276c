"""The partitioned solve on a Ray cluster: each part of a stage is one Ray task.

Needs the ``ray`` extra.  :func:`solve_on_ray` connects to a running cluster
(``address``) or starts a local one, puts the finished values in the object
store once per stage, and runs the stage's parts
(:mod:`cantstop.solve.partition`) as tasks; the answer is the one
:func:`cantstop.solve.solution.solve` gives on one machine.
"""

from __future__ import annotations

import numpy as np
import ray

from cantstop import Rules
from cantstop.jsonform import rules_to_json
from cantstop.solve.partition import solve_part, stages
from cantstop.solve.solution import Solution

__all__ = ["solve_on_ray"]


@ray.remote
def _part(rules_json: dict[str, object], values: np.ndarray, anchors: np.ndarray) -> np.ndarray:
    return solve_part(rules_json, values, anchors)


def solve_on_ray(rules: Rules, address: str | None = None, cpus: int | None = None) -> Solution:
    """Solve ``rules`` on a Ray cluster, one task per part of each stage; return the solution."""
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, num_cpus=cpus, include_dashboard=False, log_to_driver=False)
    try:
        data = rules_to_json(rules)
        values = np.zeros(int(np.prod([h + 1 for h in rules.heights.values()])), np.float64)
        for stage in stages(rules):
            finished = ray.put(values.copy())
            tasks = [_part.remote(data, finished, anchors) for anchors in stage]
            for anchors, result in zip(stage, ray.get(tasks), strict=True):
                values[anchors] = result
        return Solution(rules, values)
    finally:
        if started:
            ray.shutdown()
