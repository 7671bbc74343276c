"""The solve in waves of bounded tasks, each finished task checkpointed, so that a run resumes.

A stop moves at least one marker's square up and takes back nothing, so an
anchor's stop successors hold more squares in all than it does.  Wave ``t``
is the anchors of a game still going on with ``t`` squares in all: its
values read only those of waves above it, so the waves run from the most
squares down to none, and the anchors of one wave are independent.  A wave
is cut into tasks of at most ``task_anchors`` anchors each, solved by
:func:`cantstop.solve.partition.solve_part`; the kernel's first guess reads
only solved anchors, so each anchor's value is the same, bit for bit, as
:func:`cantstop.solve.solve` finds, whatever the tasks.

A :class:`Checkpoint` is a folder: the values of each finished task in a
file named by the SHA-256 of its bytes (``values/HASH.f8``, little-endian
doubles), and one manifest per wave (``manifest/WAVE.json``) mapping each
finished task of the wave to its hash, under the board and the task size
it was cut for.  Both are written whole or not at all (a temporary file, then a
rename), so a run that is killed leaves only finished tasks behind, and a
run started again over the same folder solves only the others.

>>> import tempfile
>>> from cantstop import Rules
>>> from cantstop.solve import solve
>>> rules = Rules(players=1, heights={6: 2, 7: 2, 8: 2}, columns_to_win=2)
>>> [len(wave) for wave in waves(rules)]  # 4 squares in all (one column won) down to 0
[3, 7, 6, 3, 1]
>>> with tempfile.TemporaryDirectory() as folder:
...     first = solve_in_waves(rules, folder, task_anchors=4, stop_after=2)
...     again = solve_in_waves(rules, folder, task_anchors=4)
>>> first.solution is None, first.computed, again.reused, again.computed
(True, 3, 3, 4)
>>> again.solution.values.tobytes() == solve(rules).values.tobytes()
True
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cantstop import Rules
from cantstop.errors import CantStopError
from cantstop.jsonform import rules_to_json
from cantstop.solve._solution import Solution
from cantstop.solve.board import Board
from cantstop.solve.partition import solve_part

__all__ = [
    "Checkpoint",
    "CheckpointError",
    "Task",
    "WaveRun",
    "solve_in_waves",
    "tasks",
    "waves",
]

#: A task: the rules' JSON form, the finished values it reads, and its anchors.
Task = tuple[dict[str, object], np.ndarray, np.ndarray]


class CheckpointError(CantStopError, ValueError):
    """A checkpoint folder that does not fit the run: another board or task size, or damaged."""


def waves(rules: Rules) -> list[np.ndarray]:
    """Return the anchors of games still going on, by squares in all, the most squares first.

    Each wave lists its anchors in descending anchor numbers.
    """
    board = Board.of(rules)
    numbers = np.arange(board.anchors, dtype=np.int64)
    total = np.zeros(board.anchors, np.int64)
    won = np.zeros(board.anchors, np.int64)
    for i, (stride, height) in enumerate(zip(board.stride, board.h, strict=True)):
        square = numbers // stride % (height + 1)
        total += square
        won |= (square == height).astype(np.int64) << i
    going = ~board.over[won]
    return [
        numbers[(total == t) & going][::-1].copy()
        for t in range(int(total.max()), -1, -1)
        if ((total == t) & going).any()
    ]


def tasks(wave: np.ndarray, task_anchors: int) -> list[np.ndarray]:
    """Return ``wave`` cut into tasks of at most ``task_anchors`` anchors, in order."""
    if task_anchors < 1:
        raise ValueError(f"a task holds at least one anchor, not {task_anchors}")
    return [wave[i : i + task_anchors] for i in range(0, len(wave), task_anchors)]


def _write_whole(path: Path, data: bytes) -> None:
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class Checkpoint:
    """A folder of finished tasks' values, content-addressed, and the manifests that name them.

    ``manifest/WAVE.json`` maps each finished task of wave ``WAVE`` to the
    hash of its values, under the board and task size; :meth:`store` keeps
    the values at once and :meth:`flush` writes the manifests of the waves
    with new tasks, so a large wave's manifest is not rewritten for every
    task.  A task whose values are kept but not yet named is solved again
    by the next run, to the same file.
    """

    def __init__(self, folder: str | os.PathLike[str], rules: Rules, task_anchors: int):
        #: The folder.
        self.folder = Path(folder)
        self._identity = {"rules": rules_to_json(rules), "task_anchors": task_anchors}
        (self.folder / "values").mkdir(parents=True, exist_ok=True)
        (self.folder / "manifest").mkdir(exist_ok=True)
        #: Finished tasks: ``"wave/task"`` to the SHA-256 of their values.
        self.finished: dict[str, str] = {}
        self._unsaved: set[int] = set()
        for path in sorted((self.folder / "manifest").glob("*.json")):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                identity = {"rules": data["rules"], "task_anchors": data["task_anchors"]}
                finished = data["finished"]
            except (ValueError, KeyError, TypeError) as exc:
                raise CheckpointError(f"{path} is damaged: {exc}") from None
            if identity != self._identity:
                raise CheckpointError(
                    f"{path} is for another run: {json.dumps(identity)}, "
                    f"not {json.dumps(self._identity)}"
                )
            self.finished.update({f"{path.stem}/{k}": str(v) for k, v in finished.items()})

    @staticmethod
    def key(wave: int, task: int) -> str:
        """Return the key of task ``task`` of wave ``wave`` in :attr:`finished`."""
        return f"{wave}/{task}"

    def load(self, wave: int, task: int, anchors: int) -> np.ndarray | None:
        """Return the values of a finished task, checked against their hash; None if unfinished."""
        digest = self.finished.get(self.key(wave, task))
        if digest is None:
            return None
        path = self.folder / "values" / f"{digest}.f8"
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CheckpointError(f"{path} is missing: {exc.strerror}") from None
        if hashlib.sha256(data).hexdigest() != digest or len(data) != 8 * anchors:
            raise CheckpointError(f"{path} is damaged: its bytes do not match its name")
        return np.frombuffer(data, dtype="<f8").astype(np.float64)

    def store(self, wave: int, task: int, values: np.ndarray) -> str:
        """Keep a finished task's values, to be named at the next :meth:`flush`; return the hash."""
        data = np.ascontiguousarray(values, dtype="<f8").tobytes()
        digest = hashlib.sha256(data).hexdigest()
        path = self.folder / "values" / f"{digest}.f8"
        if not path.exists():
            _write_whole(path, data)
        self.finished[self.key(wave, task)] = digest
        self._unsaved.add(wave)
        return digest

    def flush(self) -> None:
        """Write the manifest of every wave with tasks stored since the last flush."""
        for wave in sorted(self._unsaved):
            prefix = f"{wave}/"
            finished = {
                key[len(prefix) :]: digest
                for key, digest in self.finished.items()
                if key.startswith(prefix)
            }
            manifest = {**self._identity, "finished": finished}
            _write_whole(self.folder / "manifest" / f"{wave}.json", json.dumps(manifest).encode())
        self._unsaved.clear()

    def nbytes(self) -> int:
        """Return the bytes of the values files the checkpoint holds."""
        return sum(path.stat().st_size for path in (self.folder / "values").glob("*.f8"))


@dataclass(frozen=True, slots=True)
class WaveRun:
    """What one run over a checkpoint did."""

    #: The solution, or None when the run stopped before the last wave.
    solution: Solution | None
    #: Waves finished, counting those finished by earlier runs.
    waves: int
    #: Tasks whose values came from the checkpoint.
    reused: int
    #: Tasks solved by this run.
    computed: int


def _solve_task(task: Task) -> np.ndarray:
    return solve_part(task[0], task[1], task[2])


def solve_in_waves(
    rules: Rules,
    folder: str | os.PathLike[str],
    task_anchors: int = 4096,
    mapper: Callable[[Callable[[Task], np.ndarray], Iterable[Task]], Iterator[np.ndarray]]
    | None = None,
    stop_after: int | None = None,
    flush_seconds: float = 30.0,
) -> WaveRun:
    """Solve ``rules`` wave by wave over the checkpoint ``folder``; return what the run did.

    ``mapper(function, tasks)`` solves a wave's unfinished tasks and yields
    their values in order (default ``map``); each result's values are kept
    as it arrives, and the manifests are written at the end of each wave and
    at least every ``flush_seconds`` within one.  ``stop_after`` stops the
    run once that many waves are finished (the run then has no solution).
    """
    checkpoint = Checkpoint(folder, rules, task_anchors)
    board = Board.of(rules)
    values = np.zeros(board.anchors, np.float64)
    data = rules_to_json(rules)
    run = mapper if mapper is not None else map
    reused = computed = 0
    all_waves = waves(rules)
    for number, wave in enumerate(all_waves):
        if stop_after is not None and number >= stop_after:
            return WaveRun(None, number, reused, computed)
        todo: list[tuple[int, np.ndarray]] = []
        for index, anchors in enumerate(tasks(wave, task_anchors)):
            found = checkpoint.load(number, index, len(anchors))
            if found is None:
                todo.append((index, anchors))
            else:
                values[anchors] = found
                reused += 1
        if todo:
            finished = values.copy()
            work = [(data, finished, anchors) for _, anchors in todo]
            flushed = time.monotonic()
            for (index, anchors), result in zip(todo, run(_solve_task, work), strict=True):
                checkpoint.store(number, index, result)
                values[anchors] = result
                computed += 1
                if time.monotonic() - flushed >= flush_seconds:
                    checkpoint.flush()
                    flushed = time.monotonic()
            checkpoint.flush()
    return WaveRun(Solution(rules, values), len(all_waves), reused, computed)
