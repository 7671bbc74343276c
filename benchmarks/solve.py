"""Speed of the solitaire solver, and the partitioned solve on Ray against one machine's.

``python -m benchmarks.solve --board K`` solves scaled board ``K``
(:mod:`cantstop.solve.family`) and prints, as JSON, its counts, CPU time,
memory, and the cost per anchor and per in-turn position; the plan for the
full board on the documentation site extrapolates from these figures.  In
the same run it solves the board again with the reference kernel (the
first one, which values every roll of every position on each of Newton's
passes), each solve on a fresh board whose move table is asked of the
engine, and prints both kernels' microseconds per in-turn position (CPU
time less the engine's), their ratio, and the largest difference between
the two solutions' values.  ``--no-reference`` skips that second solve.
``--evaluate`` also evaluates every built-in player (the Rule of 28, the
cautious, the bold, the greedy and the random player, and the optimal
player of the solution just made) exactly through the solver's tables
(:func:`cantstop.solve.evaluate.evaluate_on_tables`), each on a fresh
board, and prints each one's CPU time (its tables' making included), the
engine's part, and its ratio to the solve's.
``--ray`` also solves it on a local Ray cluster (the ``ray`` extra), one
task per part (:mod:`cantstop.solve.partition`), and reports the largest
difference between the two solutions' values (0.0: the same, bit for bit).
"""

from __future__ import annotations

import argparse
import json
import time

from cantstop.solve import SolveStats, solve
from cantstop.solve.family import scaled_rules


def kernel_us(stats: SolveStats) -> float:
    """Return the kernel's microseconds per in-turn position: CPU time less the engine's."""
    return round(1e6 * (stats.seconds - stats.engine_seconds) / stats.positions, 3)


def main() -> None:
    """Run the benchmark and print its JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", type=int, default=3, help="scaled board, 1 to 13 (default: 3)")
    parser.add_argument("--ray", action="store_true", help="also solve on a local Ray cluster")
    parser.add_argument("--cpus", type=int, default=2, help="CPUs of the local Ray cluster")
    parser.add_argument(
        "--no-reference", action="store_true", help="skip the solve with the reference kernel"
    )
    parser.add_argument(
        "--evaluate", action="store_true", help="also evaluate the tabled players exactly"
    )
    args = parser.parse_args()
    rules = scaled_rules(args.board)
    wall = time.perf_counter()
    solution = solve(rules)
    wall = time.perf_counter() - wall
    stats = solution.stats
    assert stats is not None
    report: dict[str, object] = {
        "board": args.board,
        "start": solution.start_value,
        **stats.to_json(),
        "wall_seconds": round(wall, 3),
        "us_per_anchor": round(1e6 * stats.seconds / stats.anchors, 3),
        "ns_per_position": round(1e9 * stats.seconds / stats.positions, 3),
        "passes_per_anchor": round(stats.passes / stats.anchors, 3),
        "kernel_us_per_position": kernel_us(stats),
    }
    if not args.no_reference:
        reference = solve(rules, kernel="reference")
        old = reference.stats
        assert old is not None
        report["reference_seconds"] = old.seconds
        report["reference_engine_seconds"] = old.engine_seconds
        report["reference_kernel_us_per_position"] = kernel_us(old)
        report["kernel_speedup"] = round(kernel_us(old) / kernel_us(stats), 2)
        report["solve_speedup"] = round(old.seconds / stats.seconds, 2)
        report["reference_max_difference"] = float(abs(reference.values - solution.values).max())
    if args.evaluate:
        from cantstop.players import (
            BoldPlayer,
            CautiousPlayer,
            GreedyPlayer,
            RandomPlayer,
            Rule28Player,
        )
        from cantstop.solve.evaluate import evaluate_on_tables
        from cantstop.solve.player import OptimalPlayer

        players = (
            Rule28Player(),
            CautiousPlayer(),
            BoldPlayer(),
            GreedyPlayer(),
            RandomPlayer(),
            OptimalPlayer(solution),
        )
        for player in players:
            found = evaluate_on_tables(player, rules)
            assert found is not None
            prefix = "evaluate" if player.name == "rule28" else f"evaluate_{player.name}"
            report[f"{prefix}_seconds"] = found.seconds
            report[f"{prefix}_engine_seconds"] = found.engine_seconds
            report[f"{prefix}_positions"] = found.positions
            report[player.name] = float(found.values[0])  # the empty board is anchor 0
            if isinstance(player, OptimalPlayer):  # its play is worth its solution
                report["evaluate_optimal_max_difference"] = float(
                    abs(found.values - solution.values).max()
                )
            report[f"{prefix}_over_solve"] = round(found.seconds / stats.seconds, 2)
    if args.ray:
        from cantstop.solve.distributed import solve_on_ray

        wall = time.perf_counter()
        spread = solve_on_ray(rules, cpus=args.cpus)
        report["ray_wall_seconds"] = round(time.perf_counter() - wall, 3)
        report["ray_start"] = spread.start_value
        report["ray_max_difference"] = float(abs(spread.values - solution.values).max())
    print(json.dumps(report))


if __name__ == "__main__":
    main()
