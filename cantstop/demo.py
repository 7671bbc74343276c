"""A demonstration game between built-in players, told turn by turn.

Any players of :data:`cantstop.players.PLAYERS` may play it; by default the
cautious and the bold player (:class:`~cantstop.players.CautiousPlayer`,
:class:`~cantstop.players.BoldPlayer`), whose plain rules show the engine at
work: both choose moves the same way and differ in when they stop.  The game
follows the rules it is given, variants included: a stop that Variant B
forbids is a roll (:func:`~cantstop.players.decide`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence

from cantstop.actions import Roll, Stop
from cantstop.config import Rules
from cantstop.notation import format_action
from cantstop.players import BoldPlayer, CautiousPlayer, Decision, Player, QuotaPlayer, decide
from cantstop.state import Event, Phase, new_game
from cantstop.text import render_board

__all__ = ["PLAYERS", "play_demo"]

#: The demonstration's two players by name, as they play by default (``cantstop demo`` takes
#: any of :data:`cantstop.players.PLAYERS`).
PLAYERS: Mapping[str, QuotaPlayer] = {"cautious": CautiousPlayer(), "bold": BoldPlayer()}


def play_demo(players: Sequence[Player], seed: int, rules: Rules | None = None) -> Iterator[str]:
    """Play one game with dice from ``random.Random(seed)``; yield its story line by line.

    ``players`` holds one player per seat; those that draw at random draw from
    the same generator as the dice.

    >>> story = list(play_demo(tuple(PLAYERS.values()), seed=1))
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
            move = me.choose(state, dice)
            words.append(f"rolls {shown}, plays {format_action(move)}")
            state = state.apply(move)
            if decide(me, state, dice) is Decision.STOP:
                step = state.step(Stop())
                words.append("stops" if step.event is Event.STOPPED else "stops and wins")
                state = step.state
                break
        yield f"Turn {turn}: player {mover} ({me.name}) " + "; ".join(words)
        yield render_board(state)
        yield ""
    winner = state.player
    yield f"Player {winner} ({players[winner].name}) wins after {turn} turns."
