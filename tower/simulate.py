"""Many seeded games between built-in players: ``python -m tower.simulate``, on the layer.

The command is the layer's (:func:`dicekit.simulate.command`): for the same
players, games and seed it prints what ``cantstop simulate --game tower``
prints, since both play the layer's :func:`dicekit.simulate.simulate`.
"""

from __future__ import annotations

from collections.abc import Sequence

from dicekit.simulate import command
from tower.layer import GAME

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command on :data:`tower.layer.GAME`; return its exit status."""
    return command(GAME, argv)


if __name__ == "__main__":
    raise SystemExit(main())
