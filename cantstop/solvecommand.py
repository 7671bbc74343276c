"""The ``solve`` command: solve solitaire boards, value players exactly, make the table.

``cantstop solve board`` solves a board and keeps its solution where the
``optimal`` player finds it; ``cantstop solve evaluate`` gives a built-in
player's exact expected turns on a board; ``cantstop solve check`` plays the
optimal player on a solved board and says whether the solved value lies in
the 99% interval of its mean turns (exit status 1 if not); ``cantstop solve
table`` solves and evaluates the scaled boards (:mod:`cantstop.solve.family`)
one after another, appending one JSON row per board to a file as each
finishes, so that a stopped run continues where it stopped (``--solved`` and
``--evaluated`` give one board's solve and evaluation already made, which
are then not made again); ``cantstop solve
report`` writes the table, plan and plot of the documentation page from the
rows.  They need the ``solve`` extra.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from cantstop.commands.options import int_option
from cantstop.commands.report import UsageError
from cantstop.config import Rules
from cantstop.errors import CantStopError
from cantstop.jsonform import rules_from_json
from cantstop.players import PLAYERS

__all__ = ["add_commands", "table_row"]

#: The normal quantile of a two-sided 99% interval.
Z99 = 2.5758293035489004


def _rules(args: argparse.Namespace) -> Rules:
    from cantstop.solve.family import scaled_rules

    if (args.rules is None) == (args.scaled is None):
        raise UsageError("give the board with exactly one of --rules JSON and --scaled K")
    if args.scaled is not None:
        return scaled_rules(args.scaled)
    try:
        data = json.loads(args.rules)
    except ValueError:
        raise UsageError(f"--rules takes the rules' JSON form, not {args.rules[:40]!r}") from None
    return rules_from_json(data)


def _solve(args: argparse.Namespace) -> int:
    from cantstop.solve import solve
    from cantstop.solve.fileformat import save
    from cantstop.solve.player import solution_path

    rules = _rules(args)
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    if show:
        sys.stderr.write("solving: laying out the board")
        sys.stderr.flush()
    solution = solve(rules, _progress if show else None)
    if show:
        print(file=sys.stderr)  # ends the progress line
    path = Path(args.out) if args.out is not None else solution_path(rules)
    path.parent.mkdir(parents=True, exist_ok=True)
    save(solution, path)
    stats = solution.stats
    assert stats is not None
    if args.json:
        print(json.dumps({"start": solution.start_value, "file": str(path), **stats.to_json()}))
    else:
        print(
            f"{solution.start_value:.9f} turns from the empty board; {stats.anchors:,} anchors, "
            f"{stats.positions:,} in-turn positions, {stats.seconds:.1f} s; saved to {path}"
        )
    return 0


def _progress(done: int, total: int) -> None:
    """Redraw the solver's progress on stderr, in place: anchors solved of all."""
    percent = 100 * done // max(1, total)
    sys.stderr.write(f"\rsolving: {done:,} of {total:,} anchors ({percent}%)")
    sys.stderr.flush()


def _evaluate(args: argparse.Namespace) -> int:
    from cantstop.solve.evaluate import RandomnessError, evaluate

    if args.player not in PLAYERS:
        raise UsageError(f"--player takes one of {', '.join(PLAYERS)}, not {args.player!r}")
    rules = _rules(args)
    start = time.process_time()
    try:
        value = evaluate(PLAYERS[args.player](), rules)
    except RandomnessError as exc:  # a player that draws has no exact value: the wrong player
        raise UsageError(f"--player {args.player}: {exc}") from None
    seconds = time.process_time() - start
    never = math.isinf(value)  # every turn the player plays ends in a bust
    if args.json:
        expected = None if never else value
        print(
            json.dumps({"player": args.player, "expected": expected, "seconds": round(seconds, 3)})
        )
    elif never:
        print(
            f"{args.player} never wins on this board: every turn it plays ends in a bust "
            f"(exact, {seconds:.1f} s)"
        )
    else:
        print(f"{args.player} wins in {value:.9f} turns on average (exact, {seconds:.1f} s)")
    return 0


def _check(args: argparse.Namespace) -> int:
    import math
    import random

    from cantstop.simulate import play_game
    from cantstop.solve.player import OptimalPlayer, find_solution

    rules = _rules(args)
    solution = find_solution(rules)
    player = OptimalPlayer(solution)
    total = squares = 0.0
    for game in range(args.games):
        # The seeds of ``cantstop simulate``: game i is played with Random(f"{seed}/{i}").
        _, result = play_game(rules, [player], random.Random(f"{args.seed}/{game}"))
        total += result.turns
        squares += result.turns**2
    mean = total / args.games
    sd = math.sqrt(max(0.0, squares / args.games - mean**2) * args.games / (args.games - 1))
    half = Z99 * sd / math.sqrt(args.games)
    inside = abs(mean - solution.start_value) <= half
    report = {
        "games": args.games,
        "seed": args.seed,
        "mean": mean,
        "half_width_99": half,
        "solved": solution.start_value,
        "inside": inside,
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(
            f"{args.games} games: {mean:.5f} turns (99% interval {mean - half:.5f} to "
            f"{mean + half:.5f}); solved value {solution.start_value:.5f}: "
            f"{'inside' if inside else 'OUTSIDE'} the interval"
        )
    return 0 if inside else 1


def table_row(
    k: int,
    keep: Path | None = None,
    solved: dict[str, Any] | None = None,
    evaluated: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Solve scaled board ``k`` and evaluate the Rule of 28 on it, each in its own process.

    The solution is kept in ``keep``, by default in the solutions folder.
    ``solved`` is a solve already made of board ``k`` (the JSON object that
    ``cantstop solve board --scaled K --json`` printed), ``evaluated`` an
    evaluation already made (that of ``cantstop solve evaluate --scaled K
    --player rule28 --json``): either is then not made again.  Returns the
    table's row: the board, its counts, time and memory, the two values and
    the gap.
    """
    from cantstop.solve.family import scaled_rules

    rules = scaled_rules(k)
    solve_cmd = ["solve", "board", "--scaled", str(k), "--json"]
    if keep is not None:
        solve_cmd += ["--out", str(keep)]
    eval_cmd = ["solve", "evaluate", "--scaled", str(k), "--player", "rule28", "--json"]
    if solved is None:
        solved = _child(solve_cmd)
    rule28 = _child(eval_cmd) if evaluated is None else evaluated
    return {
        "k": k,
        "heights": [rules.heights[c] for c in rules.columns],
        "anchors": solved["anchors"],
        "positions": solved["positions"],
        "seconds": solved["seconds"],
        "engine_seconds": solved.get("engine_seconds", 0.0),
        "array_bytes": solved["array_bytes"],
        "peak_bytes": solved["peak_bytes"],
        "entries": solved["entries"],
        "optimal": solved["start"],
        "rule28": rule28["expected"],
        "gap": rule28["expected"] - solved["start"],
        "rule28_seconds": rule28["seconds"],
    }


def _child(argv: list[str]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "cantstop", *argv], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise CantStopError(f"'{' '.join(argv)}' failed: {done.stderr.strip()[-300:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _given(args: argparse.Namespace) -> dict[str, str]:
    given = {
        name: path
        for name, path in (("solved", args.solved), ("evaluated", args.evaluated))
        if path is not None
    }
    if given and args.first != args.last:
        raise UsageError(
            f"--{' and --'.join(given)} give the figures of one board: "
            f"give --first and --last the same board (got {args.first} and {args.last})"
        )
    return given


def _summary(path: str, name: str) -> dict[str, Any]:
    keys = ("start", "anchors", "positions", "seconds", "array_bytes", "peak_bytes", "entries")
    needed = keys if name == "solved" else ("expected", "seconds")
    try:
        found = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise UsageError(f"--{name} {path}: not a readable JSON file ({error})") from None
    missing = [key for key in needed if not isinstance(found, dict) or key not in found]
    if missing:
        raise UsageError(f"--{name} {path}: the JSON object has no {', '.join(missing)}")
    result: dict[str, Any] = found
    return result


def _check_given(given: dict[str, dict[str, Any]], k: int) -> None:
    """Refuse figures that are not board ``k``'s solve or the Rule of 28's evaluation."""
    from cantstop.solve.family import scaled_rules
    from cantstop.solve.report import full_waves

    rules = scaled_rules(k)
    waves = full_waves([rules.heights[c] for c in rules.columns])
    counts = (sum(w[1] for w in waves), sum(w[2] for w in waves))
    solved = given.get("solved")
    if solved is not None and (solved["anchors"], solved["positions"]) != counts:
        raise UsageError(
            f"--solved: {solved['anchors']:,} anchors and {solved['positions']:,} in-turn "
            f"positions, but scaled board {k} has {counts[0]:,} and {counts[1]:,}"
        )
    evaluated = given.get("evaluated")
    if evaluated is not None and evaluated.get("player") != "rule28":
        raise UsageError(
            f"--evaluated: the player is {evaluated.get('player')!r}, the table needs 'rule28'"
        )


def _table(args: argparse.Namespace) -> int:
    out = Path(args.out)
    done = set()
    if out.exists():
        for line in out.read_text(encoding="utf-8").splitlines():
            if line.strip():
                done.add(json.loads(line)["k"])
    given = {name: _summary(path, name) for name, path in _given(args).items()}
    _check_given(given, args.first)
    for k in range(args.first, args.last + 1):
        if k in done:
            continue
        row = table_row(k, solved=given.get("solved"), evaluated=given.get("evaluated"))
        with out.open("a", encoding="utf-8") as stream:
            stream.write(json.dumps(row) + "\n")
        print(
            f"board {k}: optimal {row['optimal']:.6f}, rule of 28 {row['rule28']:.6f}, "
            f"{row['seconds']:.0f} s",
            flush=True,
        )
    return 0


def _report(args: argparse.Namespace) -> int:
    from cantstop.solve.report import cluster_markdown, gap_svg, markdown_table, plan_markdown

    if not (args.table or args.svg or args.plan or args.nodes is not None):
        raise UsageError("report needs a file to write (--table, --svg, --plan) or --nodes")
    if args.nodes is None and (args.cores is not None or args.task_anchors != 4096):
        raise UsageError("--cores and --task-anchors plan a cluster: give --nodes too")
    if args.nodes is not None and args.cores is None:
        raise UsageError("--nodes needs --cores, the cores of each node")
    rows = [json.loads(line) for line in Path(args.rows).read_text(encoding="utf-8").splitlines()]
    rows.sort(key=lambda row: row["k"])
    if args.table:
        Path(args.table).write_text(markdown_table(rows), encoding="utf-8")
    if args.svg:
        Path(args.svg).write_text(gap_svg(rows), encoding="utf-8")
    if args.plan:
        Path(args.plan).write_text(plan_markdown(rows), encoding="utf-8")
    if args.nodes is not None:
        row = max(rows, key=lambda r: r["positions"])
        print(cluster_markdown(row, args.nodes, args.cores, args.task_anchors), end="")
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``solve`` and its subcommands."""
    top = sub.add_parser(
        "solve",
        help="solve solitaire exactly; value players; the table of scaled boards",
        description="Solve solitaire Can't Stop exactly (needs the solve extra).",
        epilog="example: cantstop solve board --scaled 3",
    )
    inner = top.add_subparsers(dest="solve_command", required=True, metavar="SUBCOMMAND")
    for name, run, text in (
        ("board", _solve, "solve a board and keep its solution for the optimal player"),
        ("evaluate", _evaluate, "a built-in player's exact expected turns on a board"),
        ("check", _check, "simulate the optimal player: is the solved value in the 99%% interval?"),
    ):
        p = inner.add_parser(name, help=text, description=text)
        p.add_argument("--rules", help="the rules' JSON form, with players 1")
        p.add_argument("--scaled", type=int_option(1, 13), help="scaled board K, 1 to 13")
        p.add_argument("--json", action="store_true", help="print one JSON object")
        p.set_defaults(run=run)
        if name == "board":
            p.add_argument("--out", help="the solution file (default: the solutions folder)")
            p.add_argument(
                "--progress",
                action=argparse.BooleanOptionalAction,
                default=None,
                help="show the anchors solved on stderr (default: when stderr is a terminal)",
            )
        elif name == "evaluate":
            p.add_argument("--player", default="rule28", help="a built-in player (default: rule28)")
        else:
            p.add_argument("--games", type=int_option(2, 10**7), default=100_000, help="games")
            p.add_argument("--seed", type=int_option(0, 2**63), default=1, help="seed (default: 1)")
    p = inner.add_parser("table", help="solve and evaluate scaled boards, one JSON row each")
    p.add_argument(
        "--first", type=int_option(1, 13), default=1, help="the first board (default: 1)"
    )
    p.add_argument("--last", type=int_option(1, 13), default=6, help="the last board (default: 6)")
    p.add_argument("--out", required=True, help="the rows' file; rows already in it are kept")
    p.add_argument(
        "--solved",
        help="the board's solve already made: what 'solve board --json' printed (one board)",
    )
    p.add_argument(
        "--evaluated",
        help="the Rule of 28's evaluation already made: what 'solve evaluate --json' printed",
    )
    p.set_defaults(run=_table)
    p = inner.add_parser("report", help="write the table's Markdown and the plot of the gap")
    p.add_argument("rows", help="the rows that table wrote")
    p.add_argument("--table", help="the Markdown table to write")
    p.add_argument("--svg", help="the plot to write")
    p.add_argument("--plan", help="the plan's figures to write (Markdown)")
    p.add_argument(
        "--nodes", type=int_option(1, 10**6), help="print the run plan for this many nodes"
    )
    p.add_argument("--cores", type=int_option(1, 10**4), help="cores per node (with --nodes)")
    p.add_argument(
        "--task-anchors",
        type=int_option(1, 10**9),
        default=4096,
        help="anchors per task at most (default: 4096)",
    )
    p.set_defaults(run=_report)
