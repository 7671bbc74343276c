"""The toy game's port for the layer's tests: the layer's reference server, or one with a bug.

``python tests/dicekit/toyport.py`` serves the toy game; with the name of a
bug of :data:`BUGS` it serves a copy of the game with that one mistake, as a
port written from a misreading of one rule would.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":  # run as a script: the repository's root holds ``tests``
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dicekit.conformance.serve import Server, serve
from dicekit.protocol import Step
from tests.dicekit.toy import Action, Roll, Toy, ToyState

__all__ = ["BUGS", "main"]


class _ExactTargetDoesNotWin(Toy):
    """R3.1 misread: a hold must pass the target, not reach it, to win."""

    def step(self, state: ToyState, action: Action) -> Step[ToyState]:
        done = super().step(state, action)
        if done.event == "won" and done.state.scores[state.player] == state.config.target:
            following = (state.player + 1) % state.config.players
            after = ToyState(state.config, done.state.scores, 0, following, "roll")
            return Step(after, "held")
        return done


class _TwoBusts(Toy):
    """R2.3 misread: a 2 loses the turn's points as a 1 does."""

    def step(self, state: ToyState, action: Action) -> Step[ToyState]:
        if isinstance(action, Roll) and action.die == 2 and state.phase != "over":
            return super().step(state, Roll(1))
        return super().step(state, action)


#: The seeded bugs by name, and the rule each gets wrong.
BUGS: dict[str, tuple[Toy, str]] = {
    "exact-target": (_ExactTargetDoesNotWin(), "R3.1"),
    "two-busts": (_TwoBusts(), "R2.3"),
}


def main(argv: list[str]) -> int:
    """Serve the toy game, or the copy with the bug ``argv[0]``, on stdin and stdout."""
    game = BUGS[argv[0]][0] if argv else Toy()
    return serve(Server(game, name="toy port").handle)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
