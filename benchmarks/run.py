"""Speed of the engine: one command prints a table and writes the figures as JSON.

``python -m benchmarks`` (or ``python benchmarks/run.py``) measures

* legal moves on random reachable states, for every roll: a roll followed by
  ``legal_moves()`` per second, and ``legal_moves()`` alone;
* whole-roll counts (:func:`cantstop.perft`) per second;
* random playouts (:mod:`cantstop.playout`; policy: a uniformly random legal
  move, roll again with probability 0.7) in games and actions per second, for
  2 and 4 players, both with the fast :func:`~cantstop.playout.playout` and by
  folding :meth:`State.apply <cantstop.State.apply>` over
  :func:`~cantstop.playout.random_action`;
* the public-API figure (:mod:`benchmarks.public_api`): the same games played
  by a plain loop over ``legal_moves()`` and ``apply()``, for 2 and 4 players
  (``python -m benchmarks.compare REV`` sets it against an older commit);
* each framework adapter's overhead per step against the engine alone, and
  the time of an OpenSpiel ``clone()`` (:mod:`benchmarks.adapters`), for the
  frameworks that are installed;
* the batched solitaire environment (``gymnasium.make_vec`` with its
  ``vector_entry_point``) in steps per second at 1, 16 and 256 games, against
  one ``gymnasium.make`` environment and Gymnasium's ``SyncVectorEnv``
  (:mod:`benchmarks.batched`), when Gymnasium is installed;
* the exact bust probability of a state (:func:`cantstop.odds.bust_probability`),
  warm (tables filled) and cold (tables emptied first), in calls per second;
* state and action notation, parsed and formatted per second;
* ``cantstop verify`` on a recorded game, in actions per second.

Each figure is the best of a few timed rounds of CPU time of this process
(``time.process_time``), so other work on the machine disturbs it less than
wall-clock time would; it is still best run on a quiet machine.  The table
is printed; the figures are written as JSON only when asked: ``--write``
replaces the committed record, ``benchmarks/results.json`` (for figures from
a quiet machine), and ``--json FILE`` writes them anywhere else.
"""

from __future__ import annotations

import argparse
import io
import json
import platform
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.adapters import bench_adapters
from benchmarks.adapters import rows as adapter_rows
from benchmarks.batched import bench_batched
from benchmarks.batched import rows as batched_rows
from benchmarks.public_api import games_per_second
from cantstop import (
    ORDERED_ROLLS,
    Phase,
    Roll,
    Rules,
    State,
    __version__,
    _tables,
    format_action,
    format_state,
    new_game,
    parse_action,
    parse_state,
    perft,
)
from cantstop.actions import Action
from cantstop.odds import bust_probability
from cantstop.playout import playout, random_action

#: The committed record of the figures, which ``--write`` replaces.
RESULTS = Path(__file__).with_name("results.json")


def _best(rounds: int, run: Callable[[], int]) -> tuple[float, int]:
    """Run ``run`` ``rounds`` times; return the fastest CPU time and the count it returned."""
    best = float("inf")
    count = 0
    for _ in range(rounds):
        start = time.process_time()
        count = run()
        best = min(best, time.process_time() - start)
    return max(best, 1e-9), count


def reachable_states(rules: Rules, games: int, seed: int) -> list[State]:
    """Return every state of ``games`` random games (the playout policy), in order."""
    rng = random.Random(seed)
    states = []
    for _ in range(games):
        state = new_game(rules)
        states.append(state)
        actions: list[Action] = []
        playout(state, random.Random(rng.random()), actions=actions)
        for action in actions:
            state = state.apply(action)
            states.append(state)
    return states


def bench_legal_moves(states: list[State], rounds: int) -> dict[str, Any]:
    """Legal moves over every roll of sampled states about to roll.

    A state finds its legal moves when it is made (the roll that brings the
    dice), so the honest figure is a roll followed by ``legal_moves()``, for
    each of the 1296 ordered rolls; ``legal_moves()`` on a state that has
    them is measured apart, and so is :func:`~cantstop.perft`.
    """
    rolling = [s for s in states if s.phase in (Phase.ROLL, Phase.DECIDE)][::10]
    rolls = ORDERED_ROLLS

    def generate() -> int:
        for state in rolling:
            for roll in rolls:
                state.apply(roll).legal_moves()
        return len(rolling) * len(rolls)

    seconds, generated = _best(rounds, generate)
    after_rolls = (state.apply(Roll(dice)) for state in rolling for dice in _tables.SORTED_ROLLS)
    choosing = [after for after in after_rolls if after.phase is Phase.CHOOSE]

    def cached() -> int:
        for state in choosing:
            state.legal_moves()
        return len(choosing)

    cached_seconds, calls = _best(rounds, cached)

    def run_perft() -> int:
        for state in rolling:
            perft(state)
        return len(rolling)

    perft_seconds, perfts = _best(rounds, run_perft)
    return {
        "states": len(rolling),
        "roll_and_legal_moves_per_s": generated / seconds,
        "legal_moves_call_per_s": calls / cached_seconds,
        "perft_per_s": perfts / perft_seconds,
        "perft_rolls_per_s": 1296 * perfts / perft_seconds,
    }


def bench_playouts(players: int, games: int, rounds: int) -> dict[str, Any]:
    """Random playouts under the policy, fast and through ``State.apply``."""
    start = new_game(Rules(players=players))
    warm = random.Random(0)
    for _ in range(games):  # fill the move table first
        playout(start, warm)

    def fast() -> int:
        rng = random.Random(1)
        actions: list[Action] = []
        for _ in range(games):
            playout(start, rng, actions=actions)
        return len(actions)

    def fast_silent() -> int:
        rng = random.Random(1)
        for _ in range(games):
            playout(start, rng)
        return games

    seconds, actions = _best(rounds, fast_silent)
    _, actions = _best(1, fast)
    slow_games = max(1, games // 10)

    def folded() -> int:
        rng = random.Random(1)
        count = 0
        for _ in range(slow_games):
            state = start
            while state.phase is not Phase.OVER:
                state = state.apply(random_action(state, rng))
                count += 1
        return count

    fold_seconds, fold_actions = _best(rounds, folded)
    return {
        "players": players,
        "games": games,
        "actions": actions,
        "games_per_s": games / seconds,
        "actions_per_s": actions / seconds,
        "apply_games": slow_games,
        "apply_games_per_s": slow_games / fold_seconds,
        "apply_actions_per_s": fold_actions / fold_seconds,
    }


def bench_public_api(games: int, rounds: int) -> dict[str, Any]:
    """Time the public-API loop of :mod:`benchmarks.public_api`, for 2 and 4 players."""
    out: dict[str, Any] = {"games": games}
    for players in (2, 4):
        per_game, per_action = games_per_second(games, players, rounds)
        out[f"games_per_s_{players}p"] = per_game
        out[f"actions_per_s_{players}p"] = per_action
    return out


def bench_bust(states: list[State], rounds: int) -> dict[str, Any]:
    """Exact bust probability, warm and cold."""
    rolling = [s for s in states if s.phase in (Phase.ROLL, Phase.DECIDE)]

    def run() -> int:
        for state in rolling:
            bust_probability(state)
        return len(rolling)

    run()
    seconds, calls = _best(rounds, run)

    def cold() -> int:
        for state in rolling[:300]:
            _tables._BUSTS.clear()
            bust_probability(state)
        return min(300, len(rolling))

    cold_seconds, cold_calls = _best(rounds, cold)
    return {
        "states": len(rolling),
        "calls_per_s": calls / seconds,
        "warm_us": 1e6 * seconds / calls,
        "cold_calls_per_s": cold_calls / cold_seconds,
        "cold_us": 1e6 * cold_seconds / cold_calls,
    }


def bench_notation(states: list[State], rounds: int) -> dict[str, Any]:
    """Format and parse states and actions."""
    sample = states[::5]
    texts = [format_state(s) for s in sample]
    actions: list[Action] = []
    playout(new_game(), random.Random(5), actions=actions)
    action_texts = [format_action(a) for a in actions]

    def fmt() -> int:
        for state in sample:
            format_state(state)
        return len(sample)

    def parse() -> int:
        for text in texts:
            parse_state(text)
        return len(texts)

    def fmt_actions() -> int:
        for action in actions:
            format_action(action)
        return len(actions)

    def parse_actions() -> int:
        for text in action_texts:
            parse_action(text)
        return len(action_texts)

    out: dict[str, Any] = {"states": len(sample), "actions": len(actions)}
    for name, run in (
        ("format_state_per_s", fmt),
        ("parse_state_per_s", parse),
        ("format_action_per_s", fmt_actions),
        ("parse_action_per_s", parse_actions),
    ):
        seconds, count = _best(rounds, run)
        out[name] = count / seconds
    return out


def bench_verify(games: int, rounds: int) -> dict[str, Any] | None:
    """``cantstop verify`` on records of ``games`` random games, with and without claims."""
    try:
        from cantstop.conformance.verify import verify_record
        from cantstop.record import write_record
    except ImportError:
        return None
    rng = random.Random(3)
    start = new_game()
    games_actions = []
    for _ in range(games):
        actions: list[Action] = []
        playout(start, rng, actions=actions)
        games_actions.append(actions)
    total = sum(len(a) for a in games_actions)
    out: dict[str, Any] = {"records": games, "actions": total}
    with tempfile.TemporaryDirectory() as tmp:
        for claims in (True, False):
            paths = []
            for i, actions in enumerate(games_actions):
                path = Path(tmp) / f"game-{i}-{claims}.jsonl"
                with path.open("w", encoding="utf-8") as f:
                    write_record(f, Rules(), actions, claims=claims)
                paths.append(path)

            def run(paths: list[Path] = paths) -> int:
                for path in paths:
                    if verify_record(path, io.StringIO()) != 0:
                        raise AssertionError(f"{path} does not verify")
                return total

            seconds, count = _best(rounds, run)
            key = "actions_per_s_with_claims" if claims else "actions_per_s_without_claims"
            out[key] = count / seconds
    return out


def run_all(quick: bool = False) -> dict[str, Any]:
    """Run every benchmark; return the figures."""
    rounds = 2 if quick else 3
    scale = 0.2 if quick else 1.0
    states = reachable_states(Rules(), max(2, int(20 * scale)), seed=1)
    figures: dict[str, Any] = {
        "machine": {
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "platform": platform.platform(),
            "cantstop": __version__,
            "clock": "process CPU time, best of rounds",
        },
        "legal_moves": bench_legal_moves(states, rounds),
        "playout_2p": bench_playouts(2, max(50, int(2000 * scale)), rounds),
        "playout_4p": bench_playouts(4, max(50, int(1000 * scale)), rounds),
        # The headline figure gets more rounds: its best is less at the mercy of a busy moment.
        "public_api": bench_public_api(max(20, int(300 * scale)), 2 * rounds + 1),
        "adapters": bench_adapters(max(2, int(20 * scale)), rounds),
        "bust_probability": bench_bust(states, rounds),
        "notation": bench_notation(states, rounds),
    }
    verify = bench_verify(max(2, int(20 * scale)), rounds)
    if verify is not None:
        figures["verify"] = verify
    batched = bench_batched(int(100_000 * scale), rounds)
    if batched is not None:
        figures["batched_env"] = batched
    return figures


def table(figures: dict[str, Any]) -> str:
    """Return the figures as a text table."""
    rows = []
    lm = figures["legal_moves"]
    rows.append(
        (
            "roll + legal_moves (reachable states, all 1296 rolls)",
            f"{lm['roll_and_legal_moves_per_s']:,.0f}/s",
        )
    )
    rows.append(("legal_moves() on a state with dice", f"{lm['legal_moves_call_per_s']:,.0f}/s"))
    rows.append(
        (
            "perft: whole-roll counts",
            f"{lm['perft_per_s']:,.0f}/s ({lm['perft_rolls_per_s']:,.0f} rolls/s)",
        )
    )
    for key in ("playout_2p", "playout_4p"):
        p = figures[key]
        n = p["players"]
        rows.append((f"random playouts, {n} players (playout)", f"{p['games_per_s']:,.0f} games/s"))
        rows.append((f"  actions, {n} players (playout)", f"{p['actions_per_s']:,.0f}/s"))
        rows.append(
            (
                f"random playouts, {n} players (State.apply)",
                f"{p['apply_games_per_s']:,.0f} games/s",
            )
        )
        rows.append((f"  actions, {n} players (State.apply)", f"{p['apply_actions_per_s']:,.0f}/s"))
    api = figures["public_api"]
    for players in (2, 4):
        rows.append(
            (
                f"public API loop (legal_moves + apply), {players} players",
                f"{api[f'games_per_s_{players}p']:,.0f} games/s",
            )
        )
        rows.append(
            (
                f"  actions, {players} players (public API)",
                f"{api[f'actions_per_s_{players}p']:,.0f}/s",
            )
        )
    rows.extend(adapter_rows(figures["adapters"]))
    if "batched_env" in figures:
        rows.extend(batched_rows(figures["batched_env"]))
    b = figures["bust_probability"]
    rows.append(
        ("exact bust probability, warm", f"{b['calls_per_s']:,.0f}/s ({b['warm_us']:.1f} us)")
    )
    rows.append(
        ("exact bust probability, cold", f"{b['cold_calls_per_s']:,.0f}/s ({b['cold_us']:.1f} us)")
    )
    n = figures["notation"]
    rows.append(("format_state", f"{n['format_state_per_s']:,.0f}/s"))
    rows.append(("parse_state", f"{n['parse_state_per_s']:,.0f}/s"))
    rows.append(("format_action", f"{n['format_action_per_s']:,.0f}/s"))
    rows.append(("parse_action", f"{n['parse_action_per_s']:,.0f}/s"))
    if "verify" in figures:
        v = figures["verify"]
        rows.append(
            (
                "cantstop verify, record with claims",
                f"{v['actions_per_s_with_claims']:,.0f} actions/s",
            )
        )
        rows.append(
            (
                "cantstop verify, record without claims",
                f"{v['actions_per_s_without_claims']:,.0f} actions/s",
            )
        )
    width = max(len(r[0]) for r in rows)
    lines = [f"{'benchmark':<{width}}  result", f"{'-' * width}  {'-' * 24}"]
    lines += [f"{name:<{width}}  {value}" for name, value in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks and print the table; write the figures as JSON when asked."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description=__doc__.split("\n")[0]
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--json", type=Path, help="also write the figures to this file")
    where.add_argument(
        "--write", action="store_true", help=f"replace the committed figures, {RESULTS.name}"
    )
    parser.add_argument("--quick", action="store_true", help="smaller samples, for a smoke test")
    args = parser.parse_args(argv)
    if args.write and args.quick:
        parser.error("--quick figures are a smoke test, not a record: drop --write or --quick")
    figures = run_all(quick=args.quick)
    print(table(figures))
    path = RESULTS if args.write else args.json
    if path is not None:
        path.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        print(f"\nwritten to {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
