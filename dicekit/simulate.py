"""Many games of any game between its built-in players: win rates with Wilson intervals.

:func:`simulate` plays ``games`` games of a game object between the bots
it names (``game.bots()``), on several processes if asked, and returns a
:class:`Simulation`, whose :meth:`~Simulation.table` is what ``cantstop
simulate --game NAME`` prints: each seat's wins and win rate with its 95%
Wilson score interval, and the mean length of a game in throws of the dice.

Game ``i`` of a run gets its own generator, ``random.Random(f"{seed}/{i}")``,
which throws the dice (:func:`dicekit.playing.throw`) and feeds the bots'
own draws, and seat ``i % n`` begins it, so a run's results depend on the
seed and nothing else: not on the number of processes or the order they
finish in.  The process pool and the progress bar (:func:`run_chunks`) and
:func:`wilson_interval` serve every game's simulation, those a game runs
on its own included.  :func:`command` is a game's ``python -m
GAME.simulate``, which prints what ``cantstop simulate --game GAME`` prints
for the same players, games and seed.

>>> from tests.dicekit.toy import TOY  # the layer's toy game
>>> result = simulate(TOY, ["random", "random"], games=6, seed=1, processes=1)
>>> result.games, sum(result.wins), result.firsts
(6, 6, (3, 3))
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import signal
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn, TextIO, TypeVar

from dicekit.playing import play_out, player_count
from dicekit.protocol import Game

__all__ = [
    "MAX_GAMES",
    "MAX_PROCESSES",
    "Z95",
    "GameResult",
    "ProgressBar",
    "Simulation",
    "chunks",
    "command",
    "default_players",
    "mean_interval",
    "play_game",
    "run_chunks",
    "simulate",
    "tally_wins",
    "wilson_interval",
    "win_rows",
]

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054

#: The most games one run plays (each game's result is kept until the table is made).
MAX_GAMES = 1_000_000
#: The most worker processes one run starts.
MAX_PROCESSES = 256

_Job = TypeVar("_Job")
_Result = TypeVar("_Result")


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Return the Wilson score interval of a proportion (95% by default).

    >>> low, high = wilson_interval(50, 100)
    >>> round(low, 4), round(high, 4)
    (0.4038, 0.5962)
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """Return the mean of ``values`` and the half-width of its confidence interval (95%).

    The half-width is ``z`` standard errors of the sample; with fewer than two
    values it is infinite.

    Three values 2, 4, 6 have a sample deviation of 2, so a standard error of 2/√3:

    >>> mean, half = mean_interval([2, 4, 6])
    >>> mean, round(half, 4), round(1.96 * 2 / 3**0.5, 4)
    (4.0, 2.2632, 2.2632)
    >>> mean_interval([5])
    (5.0, inf)
    """
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, math.inf
    variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, z * math.sqrt(variance / len(values))


def tally_wins(winners: Iterable[int], seats: int) -> tuple[int, ...]:
    """Return the games each of ``seats`` seats won, given each game's winning seat.

    >>> tally_wins([0, 2, 0, 0], 3)
    (3, 0, 1)
    """
    counts = Counter(winners)
    return tuple(counts[seat] for seat in range(seats))


def win_rows(players: Sequence[str], wins: Sequence[int], games: int, width: int) -> list[str]:
    """Return a win table's lines: its header, then each seat's wins, win rate and 95% interval.

    ``width`` is the width of the player column.

    >>> for line in win_rows(["a", "b"], [3, 1], 4, 6):
    ...     print(line)
    seat  player    wins  win rate  95% interval
    0     a            3    75.00%  30.06% to 95.44%
    1     b            1    25.00%  4.56% to 69.94%
    """
    lines = [f"{'seat':<5} {'player':<{width}} {'wins':>7} {'win rate':>9}  95% interval"]
    for seat, (name, won) in enumerate(zip(players, wins, strict=True)):
        low, high = wilson_interval(won, games)
        lines.append(
            f"{seat:<5} {name:<{width}} {won:>7} {won / games:>9.2%}  {low:.2%} to {high:.2%}"
        )
    return lines


@dataclass(frozen=True, slots=True)
class GameResult:
    """The outcome of one game."""

    #: The seat that won.
    winner: int
    #: The seat that began.
    first: int
    #: The throws of the dice (chance's actions) in the game.
    throws: int
    #: Every action of the game, chance's included.
    actions: int


def play_game(
    game: Game[Any, Any, Any],
    config: Any,
    bots: Sequence[Any],
    rng: random.Random,
    first_player: int = 0,
    record: list[Any] | None = None,
) -> tuple[Any, GameResult]:
    """Play one game under ``config`` between ``bots`` (one per seat); return the end and result.

    The dice and the bots draw from ``rng`` (:func:`dicekit.playing.play_out`).
    When ``record`` is a list, every action is appended to it.
    """
    state = game.new_game(config, first_player)
    throws = actions = 0
    for step in play_out(game, state, bots, rng):
        state = step.after
        throws += step.by_chance
        actions += 1
        if record is not None:
            record.append(step.action)
    winner = game.winner(state)
    assert winner is not None, "a game that is over has a winner"
    return state, GameResult(winner, first_player, throws, actions)


@dataclass(frozen=True)
class Simulation:
    """The results of :func:`simulate`."""

    #: The game's name (``game.info.name``).
    game: str
    #: The players' names, one per seat.
    players: tuple[str, ...]
    #: The seed of the run.
    seed: int
    #: Each game's result, in game order.
    results: tuple[GameResult, ...]

    @property
    def games(self) -> int:
        """The number of games played."""
        return len(self.results)

    @property
    def wins(self) -> tuple[int, ...]:
        """Games won by each seat."""
        return tally_wins((r.winner for r in self.results), len(self.players))

    @property
    def firsts(self) -> tuple[int, ...]:
        """Games each seat began."""
        return tuple(
            sum(r.first == seat for r in self.results) for seat in range(len(self.players))
        )

    def mean_throws(self) -> tuple[float, float]:
        """Return the mean number of throws per game and the half-width of its 95% interval."""
        return mean_interval([r.throws for r in self.results])

    def table(self) -> str:
        """Return the report that ``cantstop simulate --game NAME`` prints."""
        n = len(self.players)
        lines = [
            f"{self.game}: {self.games} games, {n} player{'s' if n > 1 else ''}, seed {self.seed}"
            + (", seats take turns to begin" if n > 1 else "")
        ]
        width = max(6, *(len(name) for name in self.players))
        lines += win_rows(self.players, self.wins, self.games, width)
        mean, half = self.mean_throws()
        lines.append(f"mean game length: {mean:.2f} throws of the dice (± {half:.2f})")
        return "\n".join(lines)


def _play_chunk(
    job: tuple[Game[Any, Any, Any], tuple[str, ...], str, int, int, int],
) -> list[GameResult]:
    """Play games ``start`` to ``stop`` of a run (the work of one process)."""
    game, names, config_json, seed, start, stop = job
    config = game.config_from_json(json.loads(config_json))
    makers = game.bots()
    results = []
    for number in range(start, stop):
        bots = [makers[name]() for name in names]
        rng = random.Random(f"{seed}/{number}")
        _, result = play_game(game, config, bots, rng, first_player=number % len(names))
        results.append(result)
    return results


def simulate(
    game: Game[Any, Any, Any],
    players: Sequence[str],
    games: int,
    seed: int,
    config: Any = None,
    processes: int | None = None,
    progress: TextIO | None = None,
    start_method: str | None = None,
) -> Simulation:
    """Play ``games`` games of ``game`` between the named built-in players; return the results.

    ``config`` defaults to the game's standard configuration for as many
    players as are named (a number of players the game does not allow
    raises the game's own :class:`~dicekit.errors.InvalidConfig`, naming
    its rule).  An unknown player, or a configuration for another number of
    players, raises :class:`ValueError`.  ``processes``, ``progress`` and
    ``start_method`` are :func:`run_chunks`'s.
    """
    names = tuple(players)
    known = game.bots()
    unknown = [name for name in names if name not in known]
    if unknown:
        raise ValueError(
            f"{game.info.name} has no player {unknown[0]!r}; it has {', '.join(known)}"
        )
    if config is None:
        config = game.config(len(names))
    seats = player_count(game, config)
    if seats != len(names):
        raise ValueError(f"the configuration is for {seats} players, but {len(names)} were named")
    config_json = json.dumps(game.config_to_json(config))
    size = max(1, min(100, games // 50 or 1))
    jobs = [(game, names, config_json, seed, start, stop) for start, stop in chunks(games, size)]
    results = run_chunks(_play_chunk, jobs, games, processes, progress, start_method)
    return Simulation(game.info.name, names, seed, tuple(results))


def _worker_start() -> None:
    """Start a worker process: Ctrl-C is the parent's to handle, not every worker's."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_chunks(
    work: Callable[[_Job], list[_Result]],
    jobs: Sequence[_Job],
    total: int,
    processes: int | None = None,
    progress: TextIO | None = None,
    start_method: str | None = None,
) -> list[_Result]:
    """Return the results of ``work`` on every job, in job order, on one or more processes.

    ``processes`` defaults to every core, and never exceeds the jobs; the
    workers are started with ``start_method`` (``"fork"``, ``"spawn"`` or
    ``"forkserver"``; by default the platform's own).  They ignore Ctrl-C,
    which stops the run in the calling process with
    :class:`KeyboardInterrupt` once the workers are gone.  With a
    ``progress`` stream, a :class:`ProgressBar` of ``total`` games is drawn
    on it.
    """
    processes = max(1, min(processes or os.cpu_count() or 1, len(jobs)))
    results: list[_Result] = []
    bar = ProgressBar(total, progress)
    try:
        if processes == 1:
            for job in jobs:
                results.extend(work(job))
                bar.update(len(results))
        else:
            context = multiprocessing.get_context(start_method)
            with context.Pool(processes, initializer=_worker_start) as pool:
                for chunk in pool.imap(work, jobs):
                    results.extend(chunk)
                    bar.update(len(results))
    finally:
        bar.close()
    return results


def chunks(total: int, size: int) -> Iterator[tuple[int, int]]:
    """Yield the ``(start, stop)`` ranges that cut ``total`` games into chunks of ``size``.

    >>> list(chunks(5, 2))
    [(0, 2), (2, 4), (4, 5)]
    """
    for start in range(0, total, size):
        yield start, min(total, start + size)


class ProgressBar:
    """A one-line progress bar of games, redrawn in place with carriage returns."""

    def __init__(self, total: int, stream: TextIO | None, width: int = 30) -> None:
        self.total = total
        self.stream = stream
        self.width = width
        self.shown = -1

    def update(self, done: int) -> None:
        """Redraw the bar for ``done`` games, when its filled part has grown."""
        if self.stream is None:
            return
        filled = self.width * done // max(1, self.total)
        if filled == self.shown and done != self.total:
            return
        self.shown = filled
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r[{bar}] {done}/{self.total} games")
        self.stream.flush()

    def close(self) -> None:
        """End the bar's line."""
        if self.stream is not None:
            self.stream.write("\n")
            self.stream.flush()


class _UsageError(Exception):
    """A command line :func:`command` cannot read."""


class _Parser(argparse.ArgumentParser):
    """An argument parser that raises :class:`_UsageError` rather than printing and exiting."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(message)


def default_players(game: Game[Any, Any, Any]) -> str:
    """Return the seats of a run that names none: the game's best built-in player against random.

    The best is the first of ``game.bots()`` that does not play at random;
    more seats of random play fill the game's least number of players.

    >>> from tests.dicekit.toy import TOY
    >>> list(TOY.bots()), default_players(TOY)
    (['random'], 'random,random')
    """
    names = list(game.bots())
    best = next((name for name in names if name != "random"), names[0])
    return ",".join([best, "random"] + ["random"] * (game.info.min_players - 2))


def command(game: Game[Any, Any, Any], argv: Sequence[str] | None = None) -> int:
    """Run ``python -m GAME.simulate`` for ``game``; return its exit status.

    It prints :meth:`Simulation.table` for ``--players``, ``--games`` and
    ``--seed``: what ``cantstop simulate --game GAME`` prints for the same
    options.  A usage error is one line on stderr, ``python -m
    GAME.simulate: error: ...``, and exit status 2.
    """
    prog = f"python -m {game.info.name}.simulate"

    def fail(message: str) -> int:
        print(f"{prog}: error: {message}", file=sys.stderr)
        return 2

    parser = _Parser(
        prog=prog,
        description=f"Play games of {game.info.name} between built-in players and print each "
        "seat's win rate with its 95% confidence interval; the results depend on the seed alone.",
    )
    parser.add_argument(
        "--players",
        default=default_players(game),
        help=f"seats, comma-separated, of {', '.join(game.bots())} (default: %(default)s)",
    )
    parser.add_argument("--games", type=int, default=1000, help="games (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the run (default: 1)")
    parser.add_argument(
        "--processes", type=int, default=None, help="worker processes (default: every core)"
    )
    try:
        args = parser.parse_args(argv)
    except _UsageError as exc:
        return fail(str(exc))
    if not 1 <= args.games <= MAX_GAMES:
        return fail(f"--games takes 1 to {MAX_GAMES:,}, not {args.games}")
    if args.processes is not None and not 1 <= args.processes <= MAX_PROCESSES:
        return fail(f"--processes takes 1 to {MAX_PROCESSES}, not {args.processes}")
    names = [name.strip() for name in args.players.split(",")]
    try:
        result = simulate(game, names, args.games, args.seed, processes=args.processes)
    except ValueError as exc:
        return fail(str(exc))
    print(result.table())
    return 0
