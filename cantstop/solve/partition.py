"""The solve split into independent parts: stages by won columns, parts by the won set.

A stop never takes back a won column, so an anchor's stop successors hold
the same won columns or more.  The anchors are therefore solved in stages,
from the most won columns a game still going on can hold down to none; in a
stage, each set of won columns is a part that reads only its own anchors and
those of finished stages, so the parts of a stage are independent and may
run on different machines.  :func:`solve_in_parts` runs the stages with any
``map`` (the built-in one, a process pool's, or Ray's in
``cantstop.solve.distributed``); the values are the same, bit for bit, as
:func:`cantstop.solve.solve` finds, since each anchor's computation reads
the same finished values in the same order.

>>> from cantstop import Rules
>>> from cantstop.solve import solve
>>> rules = Rules(players=1, heights={6: 2, 7: 2, 8: 2}, columns_to_win=2)
>>> [len(stage) for stage in stages(rules)]  # one won column (3 sets), then none
[3, 1]
>>> bool((solve_in_parts(rules).values == solve(rules).values).all())
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

import numpy as np

from cantstop import Rules
from cantstop.jsonform import rules_from_json, rules_to_json
from cantstop.solve._solution import Solution, run_kernel
from cantstop.solve.board import Board

__all__ = ["Part", "solve_in_parts", "solve_part", "stages"]

#: A part: the rules' JSON form, and its anchors in the order they are solved.
Part = tuple[dict[str, object], np.ndarray]


def _won_masks(board: Board) -> np.ndarray:
    numbers = np.arange(board.anchors, dtype=np.int64)
    masks = np.zeros(board.anchors, np.int64)
    for i, (stride, height) in enumerate(zip(board.stride, board.h, strict=True)):
        masks |= ((numbers // stride % (height + 1)) == height).astype(np.int64) << i
    return masks


def stages(rules: Rules) -> list[list[np.ndarray]]:
    """Return the anchors of ``rules`` in stages and parts, in the order they are solved.

    Each stage is a list of parts; each part is the anchors with one set of
    won columns, in descending order; finished games belong to no part.
    """
    board = Board.of(rules)
    masks = _won_masks(board)
    order = np.argsort(-np.arange(board.anchors), kind="stable")  # descending anchor numbers
    by_size: dict[int, list[np.ndarray]] = {}
    for mask in np.unique(masks):
        if board.over[mask]:
            continue
        anchors = order[masks[order] == mask].astype(np.int64)
        by_size.setdefault(int(mask).bit_count(), []).append(anchors)
    return [by_size[size] for size in sorted(by_size, reverse=True)]


def solve_part(
    rules_json: dict[str, object], values: np.ndarray, anchors: np.ndarray
) -> np.ndarray:
    """Solve one part: return the values of ``anchors``, reading finished ones from ``values``."""
    board = Board.of(rules_from_json(rules_json))
    values = values.copy()
    run_kernel(board, anchors, values, np.zeros(4, np.int64))
    solved: np.ndarray = values[anchors]
    return solved


def solve_in_parts(
    rules: Rules,
    mapper: Callable[[Callable[[Part], np.ndarray], Iterable[Part]], Iterator[np.ndarray]]
    | None = None,
) -> Solution:
    """Solve ``rules`` stage by stage, the parts of a stage through ``mapper`` (default ``map``).

    ``mapper(function, parts)`` must return the function's results in the
    order of ``parts``; each part is ``(rules JSON, anchors)``, and the
    function also needs the values of the finished stages, which it is given
    through a closure here (``cantstop.solve.distributed`` hands them to
    Ray's workers once per stage instead).
    """
    board = Board.of(rules)
    values = np.zeros(board.anchors, np.float64)
    data = rules_to_json(rules)
    run = mapper if mapper is not None else map
    for stage in stages(rules):
        finished = values.copy()

        def one(part: Part, finished: np.ndarray = finished) -> np.ndarray:
            return solve_part(part[0], finished, part[1])

        for part, result in zip(
            stage, run(one, [(data, anchors) for anchors in stage]), strict=True
        ):
            values[part] = result
    return Solution(rules, values)
