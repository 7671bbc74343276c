"""The states, games and helpers the generated conformance cases are drawn from.

Every generated case comes from a fixed set of random games (seeded by name,
so the vectors are the same on every run) under the configurations of
:data:`CONFIGS`, and names what a port must support to run it (:func:`needs`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from cantstop.actions import Action, Move, Roll, Stop
from cantstop.board import COLUMNS, STANDARD_HEIGHTS
from cantstop.config import Rules, Variant
from cantstop.dice import roll_outcomes
from cantstop.errors import IllegalAction
from cantstop.notation import format_state
from cantstop.state import Event, Phase, State, new_game
from cantstop.tags import state_rules
from dicekit.conformance.ranking import rule_key
from dicekit.conformance.suite import Case

__all__ = [
    "ACTION_CHARS",
    "ALL_MOVES",
    "CONFIGS",
    "STATE_CHARS",
    "edit",
    "make_case",
    "needs",
    "play_game",
    "random_roll",
    "reading_rules",
    "setup_rules",
    "sorted_rolls",
    "state_pool",
]

#: The configurations whose games supply the generated states.
CONFIGS: Mapping[str, Rules] = {
    "2p": Rules(),
    "1p": Rules(players=1),
    "3p-w4": Rules(players=3, columns_to_win=4),
    "4p": Rules(players=4),
    "2p-A": Rules(variant=Variant.A),
    "2p-B": Rules(variant=Variant.B),
    "3p-B": Rules(players=3, variant=Variant.B),
    "4p-A": Rules(players=4, variant=Variant.A),
    "tiny": Rules(players=2, columns_to_win=2, heights={5: 2, 6: 1, 7: 3, 8: 2, 9: 1}),
    "tiny-4p-A": Rules(
        players=4, columns_to_win=1, heights={c: 2 for c in COLUMNS}, variant=Variant.A
    ),
    "mid-3p-B": Rules(
        players=3, columns_to_win=2, heights={c: 3 for c in range(4, 11)}, variant=Variant.B
    ),
}


def needs(rules: Rules) -> list[str]:
    """Return what a port must support for a case under ``rules`` (empty for the standard game).

    >>> needs(Rules(players=3, variant=Variant.B))
    ['players=3', 'variant=B']
    """
    out = []
    if rules.players != 2:
        out.append(f"players={rules.players}")
    if rules.variant is not None:
        out.append(f"variant={rules.variant.value}")
    if rules.heights != STANDARD_HEIGHTS:
        out.append("heights")
    return out


def make_case(
    case_id: str, rules: Sequence[str], kind: str, source: State | None, **fields: Any
) -> Case:
    """Return a case: its id, its rules in the spec's order, its kind, what it needs, ``fields``."""
    case: Case = {"id": case_id, "rules": sorted(set(rules), key=rule_key), "kind": kind}
    if source is not None:
        wanted = needs(source.rules)
        if wanted:
            case["needs"] = wanted
    case.update(fields)
    return case


def random_roll(rng: random.Random) -> Roll:
    """Return a roll of four dice drawn from ``rng``."""
    return Roll((rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)))


def play_game(rules: Rules, rng: random.Random) -> Iterator[tuple[State, Action, State, Event]]:
    """Yield (state, action, next state, event) for one random legal game."""
    state = new_game(rules, rng.randrange(rules.players))
    stop_chance = rng.choice((0.15, 0.3, 0.5))
    while state.phase is not Phase.OVER:
        action: Action
        if state.phase is Phase.CHOOSE:
            action = rng.choice(state.legal_moves())
        elif state.phase is Phase.DECIDE and rng.random() < stop_chance:
            action = Stop()
            try:
                state.apply(action)
            except IllegalAction:  # Variant B may forbid the stop (R14.2)
                action = random_roll(rng)
        else:
            action = random_roll(rng)
        step = state.step(action)
        yield state, action, step.state, step.event
        state = step.state


def state_pool(games_per_config: int = 6) -> list[State]:
    """Return the distinct states of a fixed set of random games, in the order first reached."""
    seen: dict[State, None] = {}
    for name, rules in CONFIGS.items():
        for index in range(games_per_config):
            rng = random.Random(f"pool-{name}-{index}")
            for before, _, after, _ in play_game(rules, rng):
                seen.setdefault(before)
                seen.setdefault(after)
    return list(seen)


def reading_rules(state: State) -> list[str]:
    """Return the rules needed to read ``state``: a piece on a top space needs the height."""
    return [r for r in state_rules(state) if r in ("R1.1", "R15.3")]


def sorted_rolls() -> list[str]:
    """Return the 126 distinct rolls as sorted dice: ``"1111"``, ``"1112"``, ..."""
    return ["".join(map(str, roll.dice)) for roll, _ in roll_outcomes()]


def setup_rules(opening: State) -> list[str]:
    """Return the rules that decide the opening state ``opening`` of a game."""
    rules = ["R2.1", "N3.1"]
    if opening.player != 0:
        rules.append("R2.2")
    default = Rules()
    if opening.rules.players != default.players:
        rules.append("R15.1")
    if opening.rules.columns_to_win != default.columns_to_win:
        rules.append("R15.2")
    if opening.rules.heights != default.heights:
        rules.append("R15.3")
    if len(format_state(opening).split(" ")) > 3:
        rules.append("N1.5")
    return rules


#: Every move the notation can write: one sum or two, of columns 2 to 12.
ALL_MOVES = [Move((a,)) for a in COLUMNS] + [
    Move((a, b)) for a in COLUMNS for b in COLUMNS if a <= b
]


#: The characters an edit of a state's text draws from.
STATE_CHARS = "0123456789:,/- rcdxhwABq"
#: The characters an edit of an action's text draws from.
ACTION_CHARS = "0123456789r+stopS "


def edit(text: str, rng: random.Random, alphabet: str) -> str:
    """Return ``text`` with one character deleted, inserted or replaced from ``alphabet``."""
    pos = rng.randrange(len(text) + 1)
    what = rng.random()
    if what < 0.35 and pos < len(text):
        return text[:pos] + text[pos + 1 :]
    if what < 0.7:
        return text[:pos] + rng.choice(alphabet) + text[pos:]
    if pos < len(text):
        return text[:pos] + rng.choice(alphabet) + text[pos + 1 :]
    return text + rng.choice(alphabet)
