"""Hypothesis strategies for Off to the Tower: random valid boards, configurations and states.

:func:`boards` draws boards that meet every rule of R2: a track with one
crossing and a loop of two fields or more, two to four colours with their
own ways in, entries, gates and goals, and a star on step 6 of every route.
:func:`reachable_states` plays a seeded random game on a configuration and
stops after a drawn number of actions, so every state it gives is one the
rules can reach.

A port's tests can draw positions here and compare their answers with the
engine's; here ``port_moves`` stands in for the port's own move generator:

>>> from hypothesis import given, settings
>>> from tower import format_action, format_state, parse_state
>>> def port_moves(text):
...     return [format_action(m) for m in parse_state(text).legal_moves()]
>>> @settings(max_examples=10)
... @given(reachable_states())
... def test_port_lists_the_legal_moves(state):
...     expected = [format_action(m) for m in state.legal_moves()]
...     assert port_moves(format_state(state)) == expected
>>> test_port_lists_the_legal_moves()
"""

from __future__ import annotations

import random
import string
from typing import Any

from hypothesis import strategies as st

from tower import (
    Board,
    Config,
    Move,
    Phase,
    State,
    Throw,
    board_from_json,
    load_board,
    make_config,
    new_game,
)


@st.composite
def _board_data(draw: st.DrawFn) -> dict[str, Any]:
    letters = draw(
        st.lists(st.sampled_from(string.ascii_uppercase), min_size=2, max_size=4, unique=True)
    )
    prefix = draw(st.integers(0, 6))
    loop = draw(st.integers(2, 8))
    suffix = draw(st.integers(0, 6))
    ways = [draw(st.integers(0, 3)) for _ in letters]
    total = prefix + 1 + loop + suffix + sum(ways) + len(letters)
    numbers = draw(st.lists(st.integers(1, 999), min_size=total, max_size=total, unique=True))
    pool = iter(numbers)
    crossing = next(pool)
    body = [next(pool) for _ in range(prefix + loop + suffix)]
    track = [
        *body[:prefix],
        crossing,
        *body[prefix : prefix + loop],
        crossing,
        *body[prefix + loop :],
    ]
    colours: dict[str, Any] = {}
    fields: dict[int, dict[str, Any]] = {}
    for number in [crossing, *body]:
        fields[number] = {"colour": draw(st.sampled_from([None, *letters]))}
    fields[crossing] = {"star": True}
    for letter, way in zip(letters, ways, strict=True):
        way_in = [next(pool) for _ in range(way)]
        for number in way_in:
            fields[number] = {"colour": draw(st.sampled_from([None, *letters]))}
        least = max(1, 6 - way)  # track fields needed for a step 6 on the route
        entry = draw(st.integers(1, len(track) - least + 1)) if len(track) >= least else 1
        gate = draw(st.integers(min(len(track), entry + least - 1), len(track)))
        goal = next(pool)
        fields[goal] = {"colour": letter}
        colours[letter] = {
            "name": "colour " + letter.lower(),
            "paint": "#" + "".join(draw(st.sampled_from("0123456789abcdef")) for _ in range(6)),
            "way_in": way_in,
            "entry": entry,
            "gate": gate,
            "goal": goal,
        }
        route = [*way_in, *track[entry - 1 : gate]]
        if len(route) >= 6:
            fields[route[5]] = {"star": True}
    drawn = draw(st.booleans())
    data: dict[str, Any] = {
        "format": "tower-board/1",
        "name": "drawn",
        "title": "A board drawn by Hypothesis",
        "fields": {
            str(n): {
                **{k: v for k, v in f.items() if v is not None},
                **({"at": [n * 7 % 1000, n * 13 % 1000]} if drawn else {}),
            }
            for n, f in fields.items()
        },
        "track": track,
        "colours": colours,
    }
    return data


def _playable(data: dict[str, Any]) -> bool:
    track = data["track"]
    return (
        all(len(c["way_in"]) + c["gate"] - c["entry"] + 1 >= 6 for c in data["colours"].values())
        and len(track) >= 1
    )


def board_data() -> st.SearchStrategy[dict[str, Any]]:
    """Draw the JSON form of a board that meets every rule of R2."""
    return _board_data().filter(_playable)


def boards() -> st.SearchStrategy[Board]:
    """Draw a valid board: two times in three a random one, else a shipped one."""
    drawn = board_data().map(board_from_json)
    return st.one_of(drawn, drawn, st.sampled_from([load_board("small"), load_board("ours")]))


@st.composite
def configs(draw: st.DrawFn, board: st.SearchStrategy[Board] | None = None) -> Config:
    """Draw a configuration: a board, 2 to 4 players, and a choice of its colours."""
    chosen = draw(boards() if board is None else board)
    players = draw(st.integers(2, len(chosen.colours)))
    colours = draw(st.permutations(chosen.letters))[:players]
    return make_config(chosen, players, tuple(colours))


def random_game(config: Config, seed: int, actions: int, first: int = 0) -> list[State]:
    """Return the states of a seeded random game, up to ``actions`` actions or its end."""
    rng = random.Random(seed)
    state = new_game(config, first % config.players)
    states = [state]
    for _ in range(actions):
        if state.phase is Phase.OVER:
            break
        if state.phase is Phase.THROW:
            state = state.apply(Throw((rng.randint(1, 6), rng.randint(1, 6))))
        else:
            state = state.apply(rng.choice(state.legal_moves()))
        states.append(state)
    return states


@st.composite
def reachable_states(draw: st.DrawFn, config: st.SearchStrategy[Config] | None = None) -> State:
    """Draw a state that a random game reaches on a drawn configuration."""
    chosen = draw(configs() if config is None else config)
    seed = draw(st.integers(0, 2**32))
    length = draw(st.integers(0, 400))
    return random_game(chosen, seed, length, draw(st.integers(0, 3)))[-1]


def throws() -> st.SearchStrategy[Throw]:
    """Draw a throw of two dice, in the order they fell."""
    return st.tuples(st.integers(1, 6), st.integers(1, 6)).map(Throw)


def moves() -> st.SearchStrategy[Move]:
    """Draw any move value: a step from 0 to 40 and points from 1 to 6."""
    return st.builds(Move, st.integers(0, 40), st.integers(1, 6))
