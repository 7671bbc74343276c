"""``python -m finishline.simulate``: many seeded games of the race, by the layer's simulation.

It is :func:`dicekit.simulate.command` on :data:`finishline.layer.GAME`, so
for the same players, games and seed it prints what ``cantstop simulate
--game finishline`` prints.
"""

from dicekit.simulate import command
from finishline.layer import GAME

if __name__ == "__main__":
    raise SystemExit(command(GAME))
