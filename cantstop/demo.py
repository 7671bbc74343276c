"""A demonstration game between two simple built-in players, told turn by turn.

The players here are deliberately plain: they exist to show the engine at work.
Both choose moves the same way; they differ in when they stop.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from cantstop.actions import Move, Roll, Stop
from cantstop.game import Event, Phase, State, new_game
from cantstop.notation import format_action
from cantstop.rules import Rules
from cantstop.text import render_board

__all__ = ["PLAYERS", "DemoPlayer", "play_demo"]

#: How likely each column's sum is on one pair of dice, out of 36; central sums
#: are likelier, so a move into them is easier to follow up.
_PAIR_WAYS = {c: 6 - abs(7 - c) for c in range(2, 13)}


@dataclass(frozen=True)
class DemoPlayer:
    """A simple player: prefers moves that advance existing markers, stops after enough progress.

    ``steps_before_stop`` is how many spaces the turn's markers must have gained
    (over the player's squares) before it stops; it always stops when stopping
    would claim a column.
    """

    name: str
    steps_before_stop: int

    def choose(self, state: State) -> Move:
        """Return the move to play: most sums, fewest new markers, likeliest columns."""

        def score(move: Move) -> tuple[int, int, int]:
            new = sum(1 for c in set(move.columns) if c not in state.markers)
            return (len(move.columns), -new, sum(_PAIR_WAYS[c] for c in move.columns))

        return max(state.legal_moves(), key=score)

    def stops(self, state: State) -> bool:
        """Return whether to stop now rather than roll again."""
        heights = state.rules.heights
        if any(pos == heights[c] for c, pos in state.markers.items()):
            return True
        mine = state.squares[state.player]
        gained = sum(pos - mine.get(c, 0) for c, pos in state.markers.items())
        return gained >= self.steps_before_stop


#: The built-in demonstration players, by name.
PLAYERS: dict[str, DemoPlayer] = {
    "cautious": DemoPlayer("cautious", 4),
    "bold": DemoPlayer("bold", 8),
}


def play_demo(
    players: tuple[DemoPlayer, ...], seed: int, rules: Rules | None = None
) -> Iterator[str]:
    """Play one game with dice from ``random.Random(seed)``; yield its story line by line.

    >>> story = list(play_demo(tuple(PLAYERS.values())[:2], seed=1))
    >>> story[-1].startswith('Player ') and ' wins after ' in story[-1]
    True
    """
    rules = rules or Rules(players=len(players))
    dice = random.Random(seed)
    state = new_game(rules)
    turn = 0
    while state.phase is not Phase.OVER:
        turn += 1
        mover = state.player
        me = players[mover]
        words: list[str] = []
        while True:
            roll = Roll(
                (dice.randint(1, 6), dice.randint(1, 6), dice.randint(1, 6), dice.randint(1, 6))
            )
            step = state.step(roll)
            shown = "-".join(map(str, roll.dice))
            if step.event is Event.BUSTED:
                words.append(f"rolls {shown}: bust")
                state = step.state
                break
            state = step.state
            move = me.choose(state)
            words.append(f"rolls {shown}, plays {format_action(move)}")
            state = state.apply(move)
            if me.stops(state):
                step = state.step(Stop())
                words.append("stops" if step.event is Event.STOPPED else "stops and wins")
                state = step.state
                break
        yield f"Turn {turn}: player {mover} ({me.name}) " + "; ".join(words)
        yield render_board(state)
        yield ""
    winner = state.player
    yield f"Player {winner} ({players[winner].name}) wins after {turn} turns."
