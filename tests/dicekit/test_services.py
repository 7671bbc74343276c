"""Every service of the layer on every registered game, the toy game included.

One module, parametrized over the games the command line registers
(:func:`cantstop.commands.games.names`) and the toy game of the layer's
tests, so that a service that works for one game and not another fails
here by the game's name:

* the protocol: the capabilities a game declares are the methods it has,
  the player count and the returns of the core protocol, node kinds
  (:mod:`dicekit.nodes`) that never mix;
* ``simulate`` (the same results twice from one seed), ``perft`` (its counts
  against the node kinds of every outcome's state), ``play`` (a person's
  letters scripted against a bot, the record it writes replayed to the game's
  end), ``demo``, the reference port of ``serve`` (its answers against the
  game object), records (written, replayed, tampered), the Hypothesis
  strategies;
* OpenSpiel: ``random_sim_test`` with serialization, and pickling of the
  game objects, the OpenSpiel game and a state.
"""

from __future__ import annotations

import importlib
import io
import json
import pickle
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cantstop.commands.games import load_game, names
from dicekit import record
from dicekit.conformance.choice import conformance_of, layered
from dicekit.conformance.serve import Server
from dicekit.demo import play_demo
from dicekit.errors import IllegalAction
from dicekit.nodes import Kind, decider, decisions, kind
from dicekit.perft import perft, weighted_outcomes
from dicekit.play import Console, play
from dicekit.protocol import CHANCE, Capability, Game, undeclared
from dicekit.seeded import play_out
from dicekit.simulate import simulate
from dicekit.strategies import illegal_actions, legal_actions, reachable_states
from tests.dicekit.toy import TOY
from tests.extras import require

ROOT = Path(__file__).resolve().parents[2]

#: Every registered game, and the toy game, by name.
GAMES: dict[str, Game[Any, Any, Any]] = {name: load_game(name) for name in names()}
GAMES["toy"] = TOY
NAMES = sorted(GAMES)

#: The records each game ships: every one verifies.
SHIPPED = {
    "cantstop": ROOT / "examples" / "records" / "sample-game.jsonl",
    "finishline": ROOT / "finishline" / "examples" / "sample-game.jsonl",
    "tower": ROOT / "tower" / "examples" / "sample-game.jsonl",
}


def _two(game: Game[Any, Any, Any]) -> int:
    """Return the player count the tests play: 2, the count every game here allows."""
    assert game.info.min_players <= 2 <= game.info.max_players
    return 2


def _bot(game: Game[Any, Any, Any]) -> str:
    """Return the name of the game's built-in random player."""
    assert "random" in game.bots()
    return "random"


def _actions(game: Game[Any, Any, Any], seed: int, limit: int = 300) -> list[Any]:
    """Return the actions of a seeded game between random players (at most ``limit``)."""
    config = game.config(_two(game))
    bots = [game.bots()[_bot(game)]() for _ in range(2)]
    steps = play_out(game, game.new_game(config), bots, random.Random(seed), limit)
    return [step.action for step in steps]


# -- the protocol ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_the_game_declares_the_capabilities_it_has(name: str) -> None:
    """Every capability declared has its methods, and every capability had is declared."""
    assert undeclared(GAMES[name]) == ([], [])


@pytest.mark.parametrize("name", NAMES)
def test_the_core_counts_players_and_pays_nothing_before_the_end(name: str) -> None:
    """player_count reads a configuration back; the returns are 0 until a win, then zero-sum."""
    game = GAMES[name]
    for players in range(game.info.min_players, game.info.max_players + 1):
        config = game.config(players)
        assert game.player_count(config) == players
        assert list(game.returns(game.new_game(config))) == [0.0] * players
    state = game.new_game(game.config(2))
    for action in _actions(game, seed=4, limit=100_000):
        state = game.apply(state, action)
    assert game.is_over(state)
    winner = game.winner(state)
    assert winner is not None
    assert list(game.returns(state)) == [1.0 if p == winner else -1.0 for p in range(2)]


@pytest.mark.parametrize("name", NAMES)
def test_node_kinds_never_mix(name: str) -> None:
    """A decision has decisions; chance acts only where nobody decides, or once chosen.

    The layer's loops read them from decisions(), or decider() where they are hot.
    """
    game = GAMES[name]
    decide = decider(game)
    state = game.new_game(game.config(2))
    for action in _actions(game, seed=9):
        found = kind(game, state)
        options = decisions(game, state)
        assert decide(state) == options
        if found is Kind.DECISION:
            assert options
            if CHANCE in options:
                assert game.chance_outcomes(state)
                assert game.info.provides(Capability.CHANCE_BY_CHOICE)
            else:
                assert not game.chance_outcomes(state)
        elif found is Kind.CHANCE:
            assert not options
            assert game.chance_outcomes(state)
        state = game.apply(state, action)


# -- play ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_simulate_plays_the_same_games_from_one_seed(name: str) -> None:
    """Six games between random players: every game has a winner, and the seed fixes them."""
    game = GAMES[name]
    players = [_bot(game)] * _two(game)
    first = simulate(game, players, games=6, seed=3, processes=1)
    assert first.games == 6
    assert sum(first.wins) == 6
    assert simulate(game, players, games=6, seed=3, processes=1) == first


@pytest.mark.parametrize("name", NAMES)
def test_perft_counts_agree_with_the_node_kinds_of_every_outcome(name: str) -> None:
    """At the opening, the counts are the weighted decisions after each outcome of chance."""
    game = GAMES[name]
    opening = game.new_game(game.config(2))
    assert kind(game, opening) is Kind.CHANCE
    counts = perft(game, opening)
    weighted = weighted_outcomes(game.chance_outcomes(opening))
    after = [(game.apply(opening, outcome), weight) for outcome, weight in weighted]
    assert counts.weight == sum(weight for _, weight in weighted)
    assert counts.choices == sum(weight * len(game.legal_actions(s)) for s, weight in after)
    assert counts.no_decision == sum(
        weight for s, weight in after if kind(game, s) is not Kind.DECISION
    )


@pytest.mark.parametrize("name", NAMES)
def test_play_with_a_person_at_the_keyboard_writes_a_record_that_replays(name: str) -> None:
    """A person who always answers 'a' against a bot: the record replays to where play stopped."""
    game = GAMES[name]
    config = game.config(2)
    out = io.StringIO()
    writer = record.RecordWriter(out, game, config)
    console = Console(io.StringIO("a\n" * 400), io.StringIO())
    bot = game.bots()[_bot(game)]()
    final = play(game, game.new_game(config), [None, bot], ["you", "bot"], 5, console, writer)
    replayed, count = record.replay(game, io.StringIO(out.getvalue()))
    assert replayed == final
    assert count == len(out.getvalue().splitlines()) - 1 > 0
    shown = console.output.getvalue()  # type: ignore[attr-defined]
    assert "your choice" in shown
    assert "wins!" in shown or "game left unfinished" in shown


@pytest.mark.parametrize("name", NAMES)
def test_demo_tells_a_whole_game_and_its_winner(name: str) -> None:
    """The story ends with the winner; one seed tells one story."""
    game = GAMES[name]
    players = [_bot(game)] * 2
    story = list(play_demo(game, players, seed=8))
    assert story[0].startswith("Turn 1: player ")
    assert story[-1].startswith("Player ")
    assert " wins after " in story[-1]
    assert list(play_demo(game, players, seed=8)) == story


# -- serve and records ----------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_the_reference_port_answers_as_the_game_object(name: str) -> None:
    """The port of ``cantstop serve --game NAME``, and the layer's for any game, speak for it."""
    game = GAMES[name]
    state = game.new_game(game.config(2))
    for action in _actions(game, seed=6, limit=12):
        state = game.apply(state, action)
    text = game.format_state(state)
    ports = {"served": conformance_of(game).answer, "layer's": Server(game).handle}
    for port, answer in ports.items():
        hello = answer({"seq": 1, "op": "hello", "protocol": 1, "game": name})
        assert hello["ok"] is True, (port, hello)
        assert hello["game"] == name
        moves = answer({"seq": 2, "op": "moves", "state": text})["moves"]
        assert moves == [game.format_action(a) for a in game.legal_actions(state)], port
        if moves:
            applied = answer({"seq": 3, "op": "apply", "state": text, "action": moves[0]})
            after = game.apply(state, game.legal_actions(state)[0])
            assert applied["state"] == game.format_state(after), port


def test_the_suite_of_a_game_is_chosen_by_what_it_declares_not_by_its_name() -> None:
    """A namesake of Can't Stop without its own suite gets the layer's; the real one its own."""
    cantstop = GAMES["cantstop"]
    assert conformance_of(cantstop).suite is not layered(cantstop).suite
    own = cantstop.info.capabilities - {Capability.OWN_SUITE}

    class Namesake:
        info = replace(TOY.info, name="cantstop", capabilities=own)

        def __getattr__(self, attribute: str) -> Any:
            return getattr(TOY, attribute)

    chosen = conformance_of(Namesake())
    assert type(chosen.suite) is type(layered(TOY).suite)
    assert chosen.root == layered(TOY).root


@pytest.mark.parametrize("name", NAMES)
def test_records_round_trip_and_a_false_claim_is_found_at_its_line(name: str) -> None:
    """A seeded game written with claims replays to its end; a wrong state claim fails its line."""
    game = GAMES[name]
    config = game.config(2)
    actions = _actions(game, seed=11, limit=60)
    out = io.StringIO()
    final = record.write_record(out, game, config, actions)
    lines = out.getvalue().splitlines()
    assert record.replay(game, io.StringIO(out.getvalue())) == (final, len(actions))
    claim = json.loads(lines[2])
    claim["state"] = game.format_state(game.new_game(config))
    lines[2] = json.dumps(claim)
    with pytest.raises(record.RecordError) as caught:
        record.replay(game, io.StringIO("\n".join(lines)))
    assert caught.value.line == 3


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_every_shipped_record_verifies(name: str) -> None:
    """The sample records of the games replay to their end through the layer."""
    out = io.StringIO()
    assert record.verify_record(GAMES[name], SHIPPED[name], out) == 0, out.getvalue()
    assert " valid: " in out.getvalue()


@pytest.mark.parametrize("name", NAMES)
def test_the_strategies_draw_legal_and_illegal_actions(name: str) -> None:
    """A drawn legal action applies to a drawn reachable state; a drawn illegal one is refused."""
    game = GAMES[name]

    @settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.data())
    def actions(data: st.DataObject) -> None:
        state = data.draw(reachable_states(game, max_actions=30))
        if game.is_over(state):
            return
        game.check(game.apply(state, data.draw(legal_actions(game, state))))
        wrong = data.draw(illegal_actions(game, state) | st.none())
        if wrong is not None:
            with pytest.raises(IllegalAction):
                game.apply(state, wrong)

    actions()


# -- OpenSpiel and pickling -----------------------------------------------------------------


def _spiel_name(name: str) -> str:
    """Return the OpenSpiel name of a game: its package's registration, or the toy's here."""
    if name == "toy":
        from dicekit.openspiel import register

        register(TOY, "python_services_toy")
        return "python_services_toy"
    package = type(GAMES[name]).__module__.split(".")[0]
    spiel_name: str = importlib.import_module(f"{package}.openspiel").GAME_NAME
    return spiel_name


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_random_sim_test(name: str) -> None:
    """OpenSpiel's own check of the game, serialization included."""
    pyspiel = require("pyspiel")
    game = pyspiel.load_game(_spiel_name(name), {"players": 2})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", NAMES)
def test_game_objects_pickle(name: str) -> None:
    """The game object is the one object after a round trip; the OpenSpiel game and a state too."""
    game = GAMES[name]
    assert pickle.loads(pickle.dumps(game)) is game
    pyspiel = require("pyspiel")
    spiel = pyspiel.load_game(_spiel_name(name), {"players": 2})
    assert str(pickle.loads(pickle.dumps(spiel))) == str(spiel)
    state = spiel.new_initial_state()
    rng = random.Random(1)
    for _ in range(15):
        if state.is_terminal():
            break
        choices = [a for a, _ in state.chance_outcomes()] or state.legal_actions()
        state.apply_action(rng.choice(choices))
    again = pickle.loads(pickle.dumps(state))
    assert (str(again), again.history()) == (str(state), state.history())
