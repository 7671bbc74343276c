"""``python -m tower.simulate``: seeded games of Off to the Tower, by the layer's simulation.

The command is :func:`dicekit.simulate.command` on the game's object: it
prints what ``cantstop simulate --game tower`` prints for the same options.
"""

from dicekit.simulate import command
from tower.layer import GAME

if __name__ == "__main__":
    raise SystemExit(command(GAME))
