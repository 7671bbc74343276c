"""The waves as Ray tasks on a local two-CPU cluster: a lost worker and a stopped run.

The answer must be the single-machine solve's, byte for byte, and a run
started again over its checkpoint must solve no finished task twice.  The
default board solves in seconds; ``CANTSTOP_RAY_BOARD=3`` runs the same
checks on scaled board 3 (minutes on two cores).
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tests.extras import reason, require

require("numba")
# Skipped, even in CI, without the ray extra: CI installs it to run these.
ray = pytest.importorskip("ray", reason=reason("ray"))

from cantstop import Rules  # noqa: E402
from cantstop.solve import solve  # noqa: E402
from cantstop.solve.distributed import solve_waves_on_ray  # noqa: E402
from cantstop.solve.family import scaled_rules  # noqa: E402
from cantstop.solve.partition import solve_part  # noqa: E402
from cantstop.solve.waves import Checkpoint, CheckpointError, Task, tasks, waves  # noqa: E402

BOARD = os.environ.get("CANTSTOP_RAY_BOARD")
RULES = (
    scaled_rules(int(BOARD))
    if BOARD
    else Rules(players=1, heights={5: 2, 6: 3, 7: 3, 8: 2}, columns_to_win=2)
)
TASK_ANCHORS = 400 if BOARD else 5


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def reference() -> bytes:
    return solve(RULES).values.astype("<f8").tobytes()


def _all_tasks() -> int:
    return sum(len(tasks(wave, TASK_ANCHORS)) for wave in waves(RULES))


def _crash_once(marker: str, task: Task) -> np.ndarray:
    """Solve the task, but end the worker's process the first time any task starts."""
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return solve_part(*task)
    os._exit(1)


def test_a_lost_worker_is_retried_and_the_answer_is_the_same_bits(
    cluster: None, reference: bytes, tmp_path: Path
) -> None:
    marker = tmp_path / "crashed"
    run = solve_waves_on_ray(
        RULES,
        tmp_path / "checkpoint",
        TASK_ANCHORS,
        work=functools.partial(_crash_once, str(marker)),
    )
    assert marker.exists()  # a worker did end mid-run
    assert run.solution is not None
    assert run.reused == 0
    assert run.computed == _all_tasks()
    got = run.solution.values.astype("<f8").tobytes()
    assert hashlib.sha256(got).hexdigest() == hashlib.sha256(reference).hexdigest()


def test_a_stopped_run_resumes_without_solving_a_finished_task_again(
    cluster: None, reference: bytes, tmp_path: Path
) -> None:
    folder = tmp_path / "checkpoint"
    total = _all_tasks()
    first = solve_waves_on_ray(RULES, folder, TASK_ANCHORS, stop_after=2)
    assert first.solution is None
    assert first.waves == 2
    assert first.reused == 0
    done = sum(len(tasks(wave, TASK_ANCHORS)) for wave in waves(RULES)[:2])
    assert first.computed == done
    second = solve_waves_on_ray(RULES, folder, TASK_ANCHORS)
    assert second.reused == done
    assert second.computed == total - done
    assert second.solution is not None
    assert second.solution.values.astype("<f8").tobytes() == reference
    third = solve_waves_on_ray(RULES, folder, TASK_ANCHORS)  # all finished: nothing to solve
    assert third.computed == 0
    assert third.reused == total
    assert third.solution is not None
    assert third.solution.values.astype("<f8").tobytes() == reference


def test_a_checkpoint_refuses_another_task_size_and_damaged_values(tmp_path: Path) -> None:
    checkpoint = Checkpoint(tmp_path, RULES, TASK_ANCHORS)
    digest = checkpoint.store(0, 0, np.array([1.5, 2.5]))
    assert Checkpoint(tmp_path, RULES, TASK_ANCHORS).finished == {}  # named at the flush
    checkpoint.flush()
    assert Checkpoint(tmp_path, RULES, TASK_ANCHORS).finished == {"0/0": digest}
    assert (tmp_path / "values" / f"{digest}.f8").read_bytes() == np.array([1.5, 2.5]).tobytes()
    with pytest.raises(CheckpointError, match="another run"):
        Checkpoint(tmp_path, RULES, TASK_ANCHORS + 1)
    (tmp_path / "values" / f"{digest}.f8").write_bytes(np.array([1.5, 2.0]).tobytes())
    with pytest.raises(CheckpointError, match="damaged"):
        Checkpoint(tmp_path, RULES, TASK_ANCHORS).load(0, 0, 2)
