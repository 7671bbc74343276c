"""Write the bundled sample record ``examples/records/sample-game.jsonl``.

``python -m cantstop.conformance.sample [PATH]`` plays one game between the two
demonstration players with dice from a fixed seed and records it with every
claim (``spec/record.md``).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from cantstop.actions import Action, Roll, Stop
from cantstop.config import Rules
from cantstop.demo import PLAYERS
from cantstop.record import write_record
from cantstop.state import Phase, new_game

__all__ = ["SAMPLE_SEED", "main", "sample_actions"]

#: The seed of the sample game's dice.
SAMPLE_SEED = 2026


def sample_actions(rules: Rules, seed: int = SAMPLE_SEED) -> Iterator[Action]:
    """Yield the actions of a game between the cautious and the bold demonstration players.

    >>> actions = list(sample_actions(Rules()))
    >>> len(actions) > 20
    True
    """
    players = (PLAYERS["cautious"], PLAYERS["bold"])
    dice = random.Random(seed)
    state = new_game(rules)
    while state.phase is not Phase.OVER:
        action: Action
        if state.phase is Phase.CHOOSE:
            action = players[state.player].choose(state)
        elif state.phase is Phase.DECIDE and players[state.player].stops(state):
            action = Stop()
        else:
            action = Roll(tuple(dice.randint(1, 6) for _ in range(4)))  # type: ignore[arg-type]
        state = state.apply(action)
        yield action


def main(argv: Sequence[str] | None = None) -> int:
    """Write the sample record to the path given (default: the bundled one)."""
    args = list(sys.argv[1:] if argv is None else argv)
    root = Path(__file__).resolve().parents[2]
    path = Path(args[0]) if args else root / "examples" / "records" / "sample-game.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as file:
        final = write_record(file, Rules(), sample_actions(Rules()))
    print(f"wrote {path}: player {final.winner} wins")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
