"""The exact solitaire solver (cantstop.solve) against a plain value iteration over every state."""

from __future__ import annotations

import io
import math
import random
import subprocess
import sys
from collections.abc import Mapping, Sequence
from fractions import Fraction

import numpy as np
import pytest

from tests.extras import require

require("numba")

from cantstop import Phase, Roll, Rules, State, new_game  # noqa: E402
from cantstop.players import (  # noqa: E402
    PLAYERS,
    BoldPlayer,
    CautiousPlayer,
    GreedyPlayer,
    Player,
    QuotaPlayer,
    RandomPlayer,
    Rule28Player,
)
from cantstop.simulate import play_game  # noqa: E402
from cantstop.solve import solve  # noqa: E402
from cantstop.solve.board import Board  # noqa: E402
from cantstop.solve.evaluate import (  # noqa: E402
    PolicyTables,
    RandomnessError,
    evaluate,
    evaluate_on_tables,
    policy_tables,
)
from cantstop.solve.fileformat import SolutionFileError, read, write  # noqa: E402
from cantstop.solve.player import OptimalPlayer, find_solution, solution_path  # noqa: E402
from tests.solitaire_vi import (  # noqa: E402
    Graph,
    build,
    player_values,
    random_values,
    value_iteration,
)

#: Tiny boards: every state of each is valued by the plain value iteration.
TINY = [
    Rules(players=1, heights={6: 2, 7: 2, 8: 2}, columns_to_win=2),
    Rules(players=1, heights={2: 1, 4: 2, 7: 3, 10: 2}, columns_to_win=2),
    Rules(players=1, heights={3: 1, 5: 1, 7: 2, 9: 1, 11: 1}, columns_to_win=3),
    Rules(players=1, heights={5: 2, 8: 1, 12: 1}, columns_to_win=1, variant=None),
    # Newton's first choices do not hold at many of this board's anchors (59 passes at 36).
    Rules(players=1, heights={2: 2, 7: 4, 12: 2}, columns_to_win=2),
]


@pytest.fixture(scope="module", params=TINY, ids=lambda r: repr(dict(r.heights)))
def tiny(request: pytest.FixtureRequest) -> tuple[Rules, Graph, dict[State, float]]:
    rules = request.param
    graph = build(rules)
    return rules, graph, value_iteration(graph)


def test_solver_agrees_with_value_iteration_at_every_state(tiny) -> None:  # type: ignore[no-untyped-def]
    """Every start of a turn and every position after a move: the same value to 1e-9."""
    rules, graph, values = tiny
    solution = solve(rules)
    assert len(values) == len(graph.states) > 10
    for state, value in values.items():
        assert solution.expected(state) == pytest.approx(value, abs=1e-9), state
    assert {s for s in values if s.phase is Phase.ROLL}, "anchors are compared too"


def test_optimal_player_value_is_the_solved_value(tiny) -> None:  # type: ignore[no-untyped-def]
    """The player following the solution, valued by the value iteration, is worth the solution."""
    rules, graph, values = tiny
    solution = solve(rules)
    played = player_values(graph, OptimalPlayer(solution))
    start = new_game(rules)
    assert played[start] == pytest.approx(solution.start_value, abs=1e-9)
    for tables in (False, True):  # walked through the engine, and through the tables
        valued = evaluate(OptimalPlayer(solution), rules, tables=tables)
        assert valued == pytest.approx(values[start], abs=1e-9)


def test_exact_evaluation_agrees_with_value_iteration_of_the_player(tiny) -> None:  # type: ignore[no-untyped-def]
    """The Rule of 28 and the greedy player: evaluate() against the player's value iteration."""
    rules, graph, values = tiny
    start = new_game(rules)
    for player in (Rule28Player(), GreedyPlayer()):
        exact = evaluate(player, rules)
        assert exact == pytest.approx(player_values(graph, player)[start], abs=1e-9)
        assert exact >= values[start] - 1e-12  # nobody beats the optimum


TABLED = [Rule28Player(), CautiousPlayer(), BoldPlayer(), QuotaPlayer(2), GreedyPlayer()]


@pytest.mark.parametrize("player", TABLED, ids=lambda p: f"{p.name}")
def test_evaluation_through_tables_agrees_with_the_engine_walk_at_every_anchor(
    tiny: tuple[Rules, Graph, dict[State, float]], player: Player
) -> None:
    """Each tabled player through the solver's tables and through the engine: every anchor."""
    rules, graph, _ = tiny
    board = Board.of(rules)
    found = evaluate_on_tables(player, rules, board)
    assert found is not None
    assert found.anchors > 1
    starts = [s for s in graph.states if s.phase is Phase.ROLL]
    assert len(starts) > 1
    for state in starts:
        walked = evaluate(player, rules, state, tables=False)
        squares, _ = board.position(state)
        assert float(found.values[board.number(squares)]) == pytest.approx(walked, rel=1e-12), state


@pytest.mark.parametrize(
    "break_it",
    [
        pytest.param(lambda t: t._replace(likely=t.likely * 0.0), id="ties-to-the-first-move"),
        pytest.param(lambda t: t._replace(choice=-t.choice), id="worst-move"),
        pytest.param(lambda t: t._replace(stop=~t.stop), id="stop-reversed"),
    ],
)
def test_a_broken_table_of_the_player_is_caught(monkeypatch, break_it) -> None:  # type: ignore[no-untyped-def]
    """Each of the player's tables matters: broken, the value leaves the engine walk's."""
    from cantstop.solve import evaluate as module

    rules = TINY[0]  # a board where each of the three changes the value (by 0.0018 at least)
    walked = evaluate(Rule28Player(), rules, tables=False)
    assert evaluate(Rule28Player(), rules) == pytest.approx(walked, rel=1e-12)
    honest = module.policy_tables
    monkeypatch.setattr(module, "policy_tables", lambda p, b: break_it(honest(p, b)))
    broken = evaluate(Rule28Player(), rules)
    assert broken != pytest.approx(walked, rel=1e-9)


@pytest.mark.parametrize(
    "break_it",
    [
        pytest.param(lambda t: t._replace(choice=-t.choice), id="worst-move"),
        pytest.param(lambda t: t._replace(stop=~t.stop), id="stop-reversed"),
        pytest.param(
            lambda t: t._replace(stop=t.stop[:, :, :, :1].repeat(2, axis=3)), id="claims-ignored"
        ),
    ],
)
def test_a_broken_table_of_the_cautious_player_is_caught(monkeypatch, break_it) -> None:  # type: ignore[no-untyped-def]
    """The quota player's tables too: broken, the value leaves the engine walk's."""
    from cantstop.solve import evaluate as module

    rules = TINY[0]
    walked = evaluate(CautiousPlayer(), rules, tables=False)
    assert evaluate(CautiousPlayer(), rules) == pytest.approx(walked, rel=1e-12)
    honest = module.policy_tables
    monkeypatch.setattr(module, "policy_tables", lambda p, b: break_it(honest(p, b)))
    assert evaluate(CautiousPlayer(), rules) != pytest.approx(walked, rel=1e-9)


@pytest.mark.parametrize(
    "break_it",
    [
        pytest.param(lambda t: t._replace(choice=-t.choice), id="worst-move"),
        pytest.param(
            lambda t: t._replace(choice=t.choice.reshape(-1, 3)[:, :1].repeat(3, axis=1).ravel()),
            id="new-markers-ignored",
        ),
        pytest.param(lambda t: t._replace(stop=~t.stop), id="outright-stops-reversed"),
        pytest.param(lambda t: t._replace(limit=t.limit * 0), id="no-loss-expected"),
        pytest.param(lambda t: t._replace(limit=t.limit + 324), id="a-quarter-space-more"),
        pytest.param(lambda t: t._replace(limit=t.limit[::-1]), id="bust-chance-reversed"),
    ],
)
def test_a_broken_table_of_the_greedy_player_is_caught(monkeypatch, break_it) -> None:  # type: ignore[no-untyped-def]
    """The greedy player's tables: each broken, the value leaves the engine walk's somewhere."""
    from cantstop.solve import evaluate as module

    honest = module.policy_tables
    monkeypatch.setattr(module, "policy_tables", lambda p, b: break_it(honest(p, b)))
    differs = []
    for rules in TINY:
        walked = evaluate(GreedyPlayer(), rules, tables=False)
        differs.append(evaluate(GreedyPlayer(), rules) != pytest.approx(walked, rel=1e-9))
    assert any(differs)


def test_the_greedy_players_tables_compare_its_own_floating_point_keys() -> None:
    """On heights where 1/6 and 1/10 + 1/15 are equal but their floats are not, as the player sees.

    The roll (1, 4, 3, 4) offers 5 alone or 4 and 8 together.  The player's
    float key ranks 4 and 8 higher; exact fractions would tie and then
    prefer the single new marker.  The tables follow the player, and a
    player keyed by exact fractions is worth something else.
    """
    rules = Rules(players=1, heights={4: 10, 5: 6, 8: 15}, columns_to_win=2)
    state = new_game(rules).apply(Roll((1, 4, 3, 4)))
    assert GreedyPlayer().choose(state, random.Random(0)).columns == (4, 8)

    class Exact(GreedyPlayer):
        def score(
            self, columns: Sequence[int], new: int, heights: Mapping[int, int]
        ) -> tuple[float, int]:
            exact = sum(Fraction(1, heights[c]) for c in columns)
            return (exact, -new)  # type: ignore[return-value]

    assert Exact().choose(state, random.Random(0)).columns == (5,)
    board = Board.of(rules)
    found = evaluate_on_tables(GreedyPlayer(), rules, board)
    assert found is not None
    for squares in [(9, 0, 14), (8, 0, 13)]:
        start = board.state(squares)
        walked = evaluate(GreedyPlayer(), rules, start, tables=False)
        tabled = float(found.values[board.number(squares)])
        assert tabled == pytest.approx(walked, rel=1e-12)
        assert evaluate(Exact(), rules, start) != pytest.approx(walked, rel=1e-6)


def test_the_optimal_player_of_a_damaged_solution_through_tables_is_its_walk() -> None:
    """The optimal player plays its solution's decisions: damaged, they are worth what they are.

    Every anchor's value through the tables agrees with the engine's walk of
    the same player (to 1e-12), and the damaged play is worse than the
    optimum by a visible margin somewhere; the honest solution is its own
    value.  A solution with a value below 0 is walked.
    """
    rules = TINY[1]
    solution = solve(rules)
    honest = evaluate_on_tables(OptimalPlayer(solution), rules)
    assert honest is not None
    assert float(abs(honest.values - solution.values).max()) <= 1e-12
    damaged = solve(rules)
    damaged.values[:] *= np.random.default_rng(1).uniform(0.5, 1.5, len(damaged.values))
    board = Board.of(rules)
    found = evaluate_on_tables(OptimalPlayer(damaged), rules, board)
    assert found is not None
    starts = [s for s in build(rules).states if s.phase is Phase.ROLL]
    for state in starts:
        walked = evaluate(OptimalPlayer(damaged), rules, state, tables=False)
        squares, _ = board.position(state)
        assert float(found.values[board.number(squares)]) == pytest.approx(walked, rel=1e-12)
    assert float((found.values - solution.values).max()) > 0.1
    damaged.values[1] = -1.0
    assert policy_tables(OptimalPlayer(damaged), board) is None


def test_only_the_tabled_players_themselves_give_tables() -> None:
    """Other players, and subclasses that may decide otherwise, are walked through the engine."""

    class Bolder(Rule28Player):
        threshold = 40

    class Reckless(QuotaPlayer):
        def stop_rule(self, progress: int, claims: bool) -> bool:
            return progress >= 3

    class Hasty(GreedyPlayer):
        def gain_limit(self, bust: Fraction, progress: int) -> Fraction:
            return 2 * bust * progress

    board = Board.of(TINY[0])
    assert policy_tables(GreedyPlayer(), board) is not None
    for player in (Bolder(), Reckless(3), Hasty()):
        assert policy_tables(player, board) is None
        assert evaluate_on_tables(player, TINY[0]) is None
        assert evaluate(player, TINY[0]) > evaluate(Rule28Player(), TINY[0]) - 1.0  # walked


def test_a_move_whose_sums_are_not_its_climbs_sends_the_quota_player_to_the_walk(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Tables that read sums from climbs are refused on a board with a move where they differ."""
    rules = TINY[1]
    assert evaluate_on_tables(CautiousPlayer(), rules) is not None
    assert evaluate_on_tables(Rule28Player(), rules) is not None
    fill = Board.fill

    def differing(self: Board, misses: object) -> None:
        fill(self, misses)  # type: ignore[arg-type]
        self.sums_are_climbs = False

    monkeypatch.setattr(Board, "fill", differing)
    assert evaluate_on_tables(CautiousPlayer(), rules) is None
    assert evaluate_on_tables(Rule28Player(), rules) is not None  # its scores read placings


@pytest.mark.parametrize("board", [1, 2])
def test_laid_out_kernel_agrees_with_the_reference_kernel(board: int) -> None:
    """Scaled boards 1 and 2: every anchor's value the same to 1e-12 under both kernels.

    The reference kernel reads the move table for every roll on every pass;
    the laid-out kernel groups the rolls into templates and lays each turn
    out once, so an error in either shows up as a difference here.
    """
    from cantstop.solve.family import scaled_rules

    rules = scaled_rules(board)
    laid = solve(rules)
    reference = solve(rules, kernel="reference")
    assert laid.stats is not None
    assert reference.stats is not None
    assert laid.stats.positions == reference.stats.positions > 9000
    assert float(abs(laid.values - reference.values).max()) <= 1e-12
    # Newton's method takes a pass more to see that it has settled, unless
    # the pass before shows that its choices hold that far.
    assert laid.stats.passes < 0.75 * reference.stats.passes
    # The rolls of a position whose stop wins are never asked of the engine.
    assert laid.stats.entries < reference.stats.entries


def test_the_solve_asks_the_engine_nothing_after_its_discovery(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Every table entry the laid-out kernel needs is found before it solves the first anchor."""
    from cantstop.solve import _solution

    calls: list[str] = []
    fill = Board.fill

    def counted(self: Board, misses: object) -> None:
        calls.append("fill")
        fill(self, misses)  # type: ignore[arg-type]

    discover = _solution.discover

    def discovering(board: Board, anchors: object, policy: object) -> float:
        found = discover(board, anchors, policy)  # type: ignore[arg-type]
        calls.append("discovered")
        return found

    monkeypatch.setattr(Board, "fill", counted)
    monkeypatch.setattr(_solution, "discover", discovering)
    solution = solve(TINY[1])
    assert calls[-1] == "discovered"
    assert calls.count("fill") >= 1
    assert solution.stats is not None
    assert solution.stats.entries > 0


def test_the_kernels_hash_table_finds_what_was_put() -> None:
    """The template table: absent keys, updates, refusal once half full, and growth."""
    from cantstop.solve import _templates

    table = _templates.new_table(8)
    assert _templates.find(table, 5) == _templates.ABSENT
    assert all(_templates.put(table, key, 10 * key) for key in (5, 13, 2**40, 0))
    assert not _templates.put(table, 77, 1)  # a fifth key would fill more than half of 8 slots
    assert _templates.put(table, 13, 7)  # a key already there is updated
    bigger = _templates.grown(table)
    assert len(bigger[0]) == 16
    assert _templates.put(bigger, 77, 1)
    found = {key: _templates.find(bigger, key) for key in (5, 13, 2**40, 0, 77, 6)}
    assert found == {5: 50, 13: 7, 2**40: 2**40 * 10, 0: 0, 77: 1, 6: _templates.ABSENT}


def test_kernels_agree_when_the_template_store_starts_again(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A tiny template store, emptied again and again, changes no value."""
    from cantstop.solve import _solution

    monkeypatch.setattr(_solution, "TEMPLATE_BYTES", 1)
    rules = TINY[1]
    small = solve(rules)
    assert float(abs(small.values - solve(rules, kernel="reference").values).max()) <= 1e-12


def test_an_unknown_kernel_is_named() -> None:
    """Only the kernels of KERNELS run."""
    with pytest.raises(ValueError, match="no kernel 'fast'"):
        solve(TINY[0], kernel="fast")


def test_a_wrong_value_is_caught() -> None:
    """Non-vacuity: a solution whose values are off by a little disagrees with the iteration."""
    rules = TINY[0]
    values = value_iteration(build(rules))
    solution = solve(rules)
    solution.values[1:] += 1e-6  # every anchor but the empty board's
    assert max(abs(solution.expected(s) - v) for s, v in values.items()) > 1e-9


def test_single_column_value_is_geometric() -> None:
    """One column of one space: the turns to roll a 7 (chance 139/216) are 216/139."""
    solution = solve(Rules(players=1, heights={7: 1}, columns_to_win=1))
    assert solution.start_value == pytest.approx(216 / 139, rel=1e-14)


def test_solution_file_round_trip_and_damage() -> None:
    """The file holds the rules and values; a flipped byte or a cut file is named, not read."""
    solution = solve(TINY[0])
    buffer = io.BytesIO()
    write(solution, buffer)
    data = buffer.getvalue()
    again = read(io.BytesIO(data))
    assert again.rules == solution.rules
    assert (again.values == solution.values).all()
    damaged = bytearray(data)
    damaged[-3] ^= 1
    with pytest.raises(SolutionFileError, match="checksum"):
        read(io.BytesIO(bytes(damaged)))
    with pytest.raises(SolutionFileError, match="bytes of values"):
        read(io.BytesIO(data[:-8]))
    with pytest.raises(SolutionFileError, match="not a solution file"):
        read(io.BytesIO(b"hello\n"))


def test_solver_refuses_more_than_one_player() -> None:
    """The solver plays solitaire: two players is refused naming R15.1."""
    with pytest.raises(ValueError, match=r"1 player.*R15\.1"):
        solve(Rules(players=2))


def test_the_engine_walk_refuses_a_player_that_draws() -> None:
    """A random player is not a function of the state: the walk, which asks it once, names it."""
    with pytest.raises(RandomnessError, match="random"):
        evaluate(RandomPlayer(), TINY[0], tables=False)


@pytest.mark.parametrize("roll_again", [0.7, 0.25])
def test_the_random_player_through_tables_is_the_mean_over_its_draws(tiny, roll_again) -> None:  # type: ignore[no-untyped-def]
    """Every anchor against a plain recursion: the mean of the moves, and of stop and roll."""
    rules, graph, optimal = tiny
    player = RandomPlayer(roll_again)
    board = Board.of(rules)
    found = evaluate_on_tables(player, rules, board)
    assert found is not None
    expected = random_values(graph, 1.0 - roll_again)
    starts = [s for s in graph.states if s.phase is Phase.ROLL]
    for state in starts:
        squares, _ = board.position(state)
        value = float(found.values[board.number(squares)])
        assert value == pytest.approx(expected[state], rel=1e-9), state
        assert value >= optimal[state] - 1e-12


def _tables(found: object) -> PolicyTables:
    assert isinstance(found, PolicyTables)
    return found


def test_a_wrong_stop_chance_of_the_random_player_is_caught(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Non-vacuity: the random player's table with another stop chance leaves the expected value."""
    from cantstop.solve import evaluate as module

    rules = TINY[0]
    graph = build(rules)
    expected = random_values(graph, 0.3)[new_game(rules)]
    assert evaluate(RandomPlayer(0.7), rules) == pytest.approx(expected, rel=1e-9)
    honest = module.policy_tables
    monkeypatch.setattr(
        module,
        "policy_tables",
        lambda p, b: _tables(honest(p, b))._replace(likely=np.array([0.35])),
    )
    assert evaluate(RandomPlayer(0.7), rules) != pytest.approx(expected, rel=1e-6)


def test_optimal_player_finds_its_solution_in_the_folder(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Simulate's games with the optimal player: it reads the board's kept solution."""
    monkeypatch.setenv("CANTSTOP_SOLUTIONS", str(tmp_path))
    rules = TINY[1]
    with pytest.raises(FileNotFoundError, match="no solution of this board"):
        find_solution(rules)
    from cantstop.solve.fileformat import save

    save(solve(rules), solution_path(rules))
    rng = random.Random(5)
    turns = [play_game(rules, [OptimalPlayer()], rng)[1].turns for _ in range(300)]
    mean = sum(turns) / len(turns)
    sd = math.sqrt(sum((t - mean) ** 2 for t in turns) / (len(turns) - 1))
    # 99% interval of the mean of 300 games around the exact value.
    assert abs(mean - find_solution(rules).start_value) < 2.576 * sd / math.sqrt(len(turns))


def test_best_move_and_stop_follow_the_values() -> None:
    """The move chosen leaves the least expected turns; a stop is chosen exactly when no worse."""
    rules = TINY[1]
    solution = solve(rules)
    state = new_game(rules).apply(Roll((1, 1, 3, 6)))  # 2+9, 4+7 or 5+6
    moves = state.legal_moves()
    best = solution.best_move(state)
    after = {m: solution.expected(state.apply(m)) for m in moves}
    assert after[best] == min(after.values())
    decided = state.apply(best)
    squares, climbs = solution.board.position(decided)
    turn = solution.turn(squares)
    assert solution.stops(decided) == (turn.stopping(climbs) <= turn.rolling(climbs))


def test_committed_table_and_plot_are_what_the_rows_give() -> None:
    """The page's table, plan and plot of the gap: regenerated from benchmarks/solitaire.jsonl."""
    import json
    from pathlib import Path

    from cantstop.solve.report import gap_svg, markdown_table, plan_markdown

    root = Path(__file__).resolve().parent.parent
    rows = [
        json.loads(line)
        for line in (root / "benchmarks/solitaire.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    rows.sort(key=lambda row: row["k"])
    assert rows, "the table has rows"
    assert all(row["gap"] == row["rule28"] - row["optimal"] >= 0 for row in rows)
    table = (root / "benchmarks/solitaire-table.md").read_text(encoding="utf-8")
    assert table == markdown_table(rows)
    assert (root / "benchmarks/solitaire-plan.md").read_text(encoding="utf-8") == plan_markdown(
        rows
    )
    assert (root / "docs/_static/solitaire-gap.svg").read_text(encoding="utf-8") == gap_svg(rows)


def test_variants_change_nothing_in_solitaire() -> None:
    """Variants A and B speak of other players' squares: alone, the values are the same."""
    from cantstop import Variant

    plain = solve(TINY[1])
    for variant in Variant:
        rules = Rules(players=1, heights=TINY[1].heights, columns_to_win=2, variant=variant)
        assert (solve(rules).values == plain.values).all()


def test_a_state_of_another_board_is_named() -> None:
    """Asking a solution about a state of other rules names the state and R15.3."""
    solution = solve(TINY[0])
    with pytest.raises(ValueError, match=r"'- - 0r h7:3 w1'.*R15\.3"):
        solution.expected(new_game(Rules(players=1, heights={7: 3}, columns_to_win=1)))


def test_simulate_command_plays_the_optimal_player(tmp_path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    """The simulate command plays the optimal player by name on a solved board given by --rules."""
    import json

    from cantstop.cli import main
    from cantstop.jsonform import rules_to_json
    from cantstop.solve.fileformat import save

    monkeypatch.setenv("CANTSTOP_SOLUTIONS", str(tmp_path))
    rules = TINY[0]
    text = json.dumps(rules_to_json(rules))
    args = ["simulate", "--players", "optimal", "--rules", text, "--games", "200"]
    assert main([*args, "--processes", "1"]) == 2  # not solved yet: the file is named
    assert "no solution of this board" in capsys.readouterr().err
    save(solve(rules), solution_path(rules))
    assert main([*args, "--processes", "1"]) == 0
    out = capsys.readouterr().out
    assert "optimal wins in" in out


def test_command_line_errors_are_one_line() -> None:
    """The solver's command line: a bad board number is a usage error, status 2, one line."""
    done = subprocess.run(
        [sys.executable, "-m", "cantstop", "solve", "board", "--scaled", "14"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("cantstop solve board: error: "), done.stderr
    assert done.stderr.count("\n") == 1


class _NeverStops:
    """A deterministic player that never stops, so every turn it plays ends in a bust."""

    name = "never"

    def choose(self, state: State, rng: random.Random):  # type: ignore[no-untyped-def]
        return state.legal_moves()[0]

    def stops(self, state: State, rng: random.Random) -> bool:
        return False


def test_a_player_that_never_wins_is_worth_infinity() -> None:
    """A player that never stops never wins: its expected turns are infinite, not a huge number."""
    assert evaluate(_NeverStops(), TINY[0]) == math.inf


def test_evaluate_command_refuses_a_player_that_draws_as_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A player that draws and gives no tables: exit 2 and one line naming the player."""
    from cantstop import players
    from cantstop.commands import main

    class Drawing(RandomPlayer):
        name = "drawing"

    monkeypatch.setitem(players.PLAYERS, "random", Drawing)
    assert main(["solve", "evaluate", "--scaled", "1", "--player", "random"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("cantstop solve")
    assert "error: --player random: player 'drawing' draws from its generator" in err[0]


def test_evaluate_command_gives_the_random_players_mean(capsys: pytest.CaptureFixture[str]) -> None:
    """``solve evaluate --player random``: its expected turns, the mean over its draws too."""
    import json

    from cantstop.commands import main
    from cantstop.solve.family import scaled_rules

    assert main(["solve", "evaluate", "--scaled", "1", "--player", "random", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["player"] == "random"
    assert printed["expected"] == pytest.approx(
        evaluate(RandomPlayer(), scaled_rules(1)), rel=1e-12
    )
    assert printed["expected"] > solve(scaled_rules(1)).start_value


def test_evaluate_command_says_plainly_that_a_player_never_wins(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    """``solve evaluate`` says that a player never wins; its JSON gives no expected number."""
    import json

    from cantstop.cli import main
    from cantstop.jsonform import rules_to_json

    monkeypatch.setitem(PLAYERS, "never", _NeverStops)
    rules = json.dumps(rules_to_json(TINY[0]))
    assert main(["solve", "evaluate", "--player", "never", "--rules", rules]) == 0
    out = capsys.readouterr().out
    assert out.startswith("never never wins on this board: every turn it plays ends in a bust")
    assert main(["solve", "evaluate", "--player", "never", "--rules", rules, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["expected"] is None


def test_solve_board_shows_its_progress_on_stderr(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """``solve board --progress`` tells the anchors solved on stderr; stdout is unchanged."""
    import json
    import re

    from cantstop.cli import main
    from cantstop.jsonform import rules_to_json

    rules = json.dumps(rules_to_json(TINY[1]))
    argv = ["solve", "board", "--rules", rules, "--out", str(tmp_path / "s.bin")]
    assert main([*argv, "--no-progress"]) == 0
    quiet = capsys.readouterr()
    assert quiet.err == ""
    assert main([*argv, "--progress"]) == 0
    shown = capsys.readouterr()
    assert shown.out.split(";")[0] == quiet.out.split(";")[0]
    reports = re.findall(r"\rsolving: ([\d,]+) of ([\d,]+) anchors \((\d+)%\)", shown.err)
    assert reports, shown.err
    assert reports[-1][0] == reports[-1][1]
    assert reports[-1][2] == "100"
    assert shown.err.endswith("\n")


def test_the_solver_benchmark_evaluates_every_built_in_player() -> None:
    """``benchmarks.solve --evaluate`` values every built-in player through the tables.

    Each against the solve's CPU time; the optimal player of the solution
    just made is worth that solution at every anchor.
    """
    import json

    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.solve", "--board", "1", "--evaluate", "--no-reference"],
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(done.stdout)
    names = [n for n in PLAYERS if n != "optimal"]
    assert all(f"evaluate_{n}_over_solve" in report for n in names if n != "rule28")
    assert report["evaluate_over_solve"] > 0
    assert report["optimal"] == pytest.approx(report["start"], abs=1e-12)
    assert report["evaluate_optimal_max_difference"] <= 1e-12
    assert report["rule28"] >= report["start"] - 1e-12
