"""Many games between built-in players: win rates with confidence intervals.

``cantstop simulate --players rule28,random --games 10000 --seed 1`` plays the
games on every core and prints each seat's win rate with its 95% confidence
interval (the Wilson score interval); with one player it prints the mean
number of turns the player needs to win.

Game ``i`` of a run gets its own generator, ``random.Random(f"{seed}/{i}")``,
which rolls the dice and feeds the players' own draws, and seat ``i % n``
begins it (R2.2), so a run's results depend on the seed and nothing else: not
on the number of processes or the order they finish in.  The process pool,
the progress bar and :func:`~dicekit.simulate.wilson_interval` are the
layer's (:mod:`dicekit.simulate`), which simulates any game the same way.

>>> result = simulate(["rule28", "random"], games=4, seed=1, processes=1)
>>> result.games, sum(result.wins)
(4, 4)
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from cantstop.actions import Action, Roll, Stop
from cantstop.config import Rules
from cantstop.dice import ORDERED_ROLLS
from cantstop.errors import InvalidRules
from cantstop.jsonform import rules_from_json, rules_to_json
from cantstop.players import PLAYERS, Decision, Player, decide
from cantstop.state import Event, Phase, State, new_game
from dicekit.simulate import (
    MAX_GAMES,
    MAX_PROCESSES,
    chunks,
    mean_interval,
    run_chunks,
    tally_wins,
    wilson_interval,
    win_rows,
)

__all__ = [
    "MAX_GAMES",
    "MAX_PROCESSES",
    "GameResult",
    "Simulation",
    "play_game",
    "roll_dice",
    "simulate",
    "wilson_interval",
]


@dataclass(frozen=True, slots=True)
class GameResult:
    """The outcome of one game."""

    #: The seat that won.
    winner: int
    #: Turns begun in the game, by every player together.
    turns: int
    #: Actions played (rolls, moves and stops).
    actions: int


def roll_dice(rng: random.Random) -> Roll:
    """Return a uniformly random roll: one draw, ordered roll number ``int(r * 1296)``.

    >>> roll_dice(random.Random(1))
    Roll(dice=(1, 5, 6, 1))
    """
    return ORDERED_ROLLS[int(rng.random() * len(ORDERED_ROLLS))]


def play_game(
    rules: Rules,
    players: Sequence[Player],
    rng: random.Random,
    first_player: int = 0,
    record: list[Action] | None = None,
) -> tuple[State, GameResult]:
    """Play one game between ``players`` (one per seat); return the final state and result.

    The dice come from :func:`roll_dice` with ``rng``, which the players draw
    from too.  Each decision to stop is :func:`~cantstop.players.decide`'s: a stop that
    Variant B forbids (R14.2) is played as a roll.
    When ``record`` is a list, every action is appended to it.

    >>> from cantstop.players import Rule28Player
    >>> final, result = play_game(Rules(players=1), [Rule28Player()], random.Random(3))
    >>> final.winner, result.turns > 1
    (0, True)
    """
    state = new_game(rules, first_player)
    turns = 1
    actions = 0
    while state.phase is not Phase.OVER:
        me = players[state.player]
        if state.phase is Phase.CHOOSE:
            action: Action = me.choose(state, rng)
        elif state.phase is Phase.DECIDE and decide(me, state, rng) is Decision.STOP:
            action = Stop()
        else:
            action = roll_dice(rng)
        state, event = state.step(action)
        actions += 1
        if record is not None:
            record.append(action)
        if event in (Event.BUSTED, Event.STOPPED):
            turns += 1
    return state, GameResult(state.player, turns, actions)


def _play_chunk(job: tuple[tuple[str, ...], str, int, int, int]) -> list[GameResult]:
    """Play games ``start`` to ``stop`` of a run (the work of one process)."""
    names, rules_json, seed, start, stop = job
    rules = rules_from_json(json.loads(rules_json))
    results = []
    for game in range(start, stop):
        players = [PLAYERS[name]() for name in names]
        rng = random.Random(f"{seed}/{game}")
        _, result = play_game(rules, players, rng, first_player=game % len(names))
        results.append(result)
    return results


@dataclass(frozen=True)
class Simulation:
    """The results of :func:`simulate`."""

    #: The players' names, one per seat.
    players: tuple[str, ...]
    #: The rules the games were played under.
    rules: Rules
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

    def mean_turns(self) -> tuple[float, float]:
        """Return the mean number of turns per game and the half-width of its 95% interval."""
        return mean_interval([r.turns for r in self.results])

    def table(self) -> str:
        """Return the report that ``cantstop simulate`` prints."""
        n = len(self.players)
        lines = [
            f"{self.games} games, {n} player{'s' if n > 1 else ''}, seed {self.seed}"
            + (", seats take turns to begin" if n > 1 else "")
        ]
        mean, half = self.mean_turns()
        if len(self.players) == 1:
            d = _interval_decimals(half)
            lines.append(
                f"{self.players[0]} wins in {mean:.{d}f} turns on average "
                f"(95% confidence interval {mean - half:.{d}f} to {mean + half:.{d}f})"
            )
            return "\n".join(lines)
        lines += win_rows(self.players, self.wins, self.games, 8)
        lines.append(f"mean game length: {mean:.2f} turns (± {half:.2f})")
        return "\n".join(lines)


def _interval_decimals(half: float) -> int:
    """Return the decimals a mean with an interval of half-width ``half`` is written with.

    The last digit written is that of the half-width's first significant
    digit: digits below it are noise.  An interval of no width, or of none
    known (one game), keeps two decimals.

    >>> _interval_decimals(0.305), _interval_decimals(0.0072), _interval_decimals(3.4)
    (1, 3, 0)
    >>> _interval_decimals(math.inf), _interval_decimals(0.0)
    (2, 2)
    """
    if not math.isfinite(half) or half <= 0:
        return 2
    return max(0, -math.floor(math.log10(half)))


def simulate(
    players: Sequence[str],
    games: int,
    seed: int,
    rules: Rules | None = None,
    processes: int | None = None,
    progress: TextIO | None = None,
    start_method: str | None = None,
) -> Simulation:
    """Play ``games`` games between the named built-in players; return the results.

    ``processes`` defaults to every core; the results do not depend on it.
    The workers are started with ``start_method`` (``"fork"``, ``"spawn"`` or
    ``"forkserver"``; by default the platform's own); they ignore Ctrl-C,
    which stops the run in the calling process with :class:`KeyboardInterrupt`
    once the workers are gone.  With a ``progress`` stream, a progress bar is
    drawn on it.
    """
    names = tuple(players)
    unknown = [n for n in names if n not in PLAYERS]
    if unknown or not 1 <= len(names) <= 4:
        raise InvalidRules(
            f"players must be 1 to 4 of {', '.join(PLAYERS)}, not {','.join(names)!r}", "R15.1"
        )
    if rules is None:
        rules = Rules(players=len(names))
    if rules.players != len(names):
        raise InvalidRules(
            f"the rules are for {rules.players} players but {len(names)} were named", "R15.1"
        )
    rules_json = json.dumps(rules_to_json(rules))
    size = max(1, min(100, games // 50 or 1))
    jobs = [(names, rules_json, seed, start, stop) for start, stop in chunks(games, size)]
    results = run_chunks(_play_chunk, jobs, games, processes, progress, start_method)
    return Simulation(names, rules, seed, tuple(results))
