"""A demonstration game of any game between its built-in players, told turn by turn.

:func:`play_demo` plays one game with every throw of the dice and every
choice drawn from ``random.Random(seed)`` (:func:`dicekit.seeded.play_out`)
and tells it: each turn on one line, in the game's action notation (``throws``
for chance's actions, ``plays`` for the player's), then the state as the
game draws it for a terminal (:class:`~dicekit.protocol.TextPicture`, or its
notation for a game without a picture).  A turn runs while the same player
is to act, so a throw again on one's own colour stays in the turn.

>>> from tests.dicekit.toy import TOY  # the layer's toy game
>>> story = list(play_demo(TOY, ["random", "random"], seed=1))
>>> story[0].startswith('Turn 1: player 0 (random) throws r')
True
>>> story[-1].startswith('Player ') and ' wins after ' in story[-1]
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from dicekit.protocol import Capability, Game, capable
from dicekit.seeded import Acted, play_out

__all__ = ["picture", "play_demo", "told"]


def picture(game: Game[Any, Any, Any], state: Any) -> str:
    """Return ``state`` as the game draws it for a terminal, or its notation if it draws none."""
    drawn = capable(game, Capability.TEXT_PICTURE)
    if drawn is not None:
        return drawn.state_text(state)
    return f"position: {game.format_state(state)}"


def told(game: Game[Any, Any, Any], step: Acted) -> str:
    """Return one action of a game in words: ``throws r34`` or ``plays +C3,+D4``."""
    verb = "throws" if step.by_chance else "plays"
    return f"{verb} {game.format_action(step.action)}"


def play_demo(
    game: Game[Any, Any, Any], players: Sequence[str], seed: int, config: Any = None
) -> Iterator[str]:
    """Play one game between the named built-in players and yield its story, line by line.

    ``config`` defaults to the game's standard configuration for as many
    players as are named.  An unknown player raises :class:`ValueError`.
    """
    makers = game.bots()
    unknown = [name for name in players if name not in makers]
    if unknown:
        raise ValueError(
            f"{game.info.name} has no player {unknown[0]!r}; its players are {', '.join(makers)}"
        )
    bots = [makers[name]() for name in players]
    state = game.new_game(game.config(len(players)) if config is None else config)
    turn = 0
    words: list[str] = []
    mover = game.player(state)
    for step in play_out(game, state, bots, random.Random(seed)):
        words.append(told(game, step))
        state = step.after
        if game.is_over(state) or game.player(state) != mover:
            turn += 1
            yield f"Turn {turn}: player {mover} ({players[mover]}) " + ", ".join(words)
            yield picture(game, state)
            yield ""
            words = []
            mover = game.player(state)
    winner = game.winner(state)
    yield f"Player {winner} ({players[winner or 0]}) wins after {turn} turns."
