"""What a stop does, decided once (``cantstop.decide.decide_stop``), and all that reads it.

* hand-worked stops: no column claimed, a claim that takes another player's
  square away, a stop that claims two columns and wins, the turn passing
  round in a three-player game, a custom board and target, a Variant A stop;
* over many seeded games, at every stop the engine plays: the state
  :meth:`State.apply <cantstop.State.apply>` builds, the built-in players'
  stop tests, the explanation's statements of a stop, the rule tags of a
  stop, and the plain-dict stop the fast playouts play, all agree with
  ``decide_stop``; the fast playout plays the same games as the engine.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from cantstop import (
    Action,
    ColumnMap,
    Phase,
    Rules,
    State,
    Stop,
    Variant,
    new_game,
    parse_state,
)
from cantstop.decide import decide_stop, play_stop
from cantstop.explanation import explain
from cantstop.players import claims_a_column, stopping_wins
from cantstop.playout import playout, random_action
from cantstop.tags import action_aspects


def test_a_stop_short_of_every_top_passes_the_turn() -> None:
    # Standard board: column 7 has 13 spaces, column 9 has 9.  Player 0 holds
    # 7:2; the markers stand on 7:5 and 9:1, neither on a top space, so the
    # markers simply become squares (R11.2), nothing is claimed, and the turn
    # passes to player 1 (R2.3).
    state = parse_state("7:2/- 7:5,9:1 0d")
    found = decide_stop(state)
    assert found.claimed == ()
    assert not found.wins
    assert found.held == 0
    assert found.lost == ()
    assert found.next_player == 1
    assert found.player == 1
    assert found.squares == (ColumnMap({7: 5, 9: 1}), ColumnMap())
    assert found.won == ColumnMap()
    # Player 1's squares do not change, so they are handed on as they are.
    assert found.squares[1] is state.squares[1]


def test_a_claim_takes_the_other_players_squares_off_the_column() -> None:
    # Columns 4 and 10 both have 7 spaces.  Player 1 stops with markers on 4:7
    # and 10:7, both top spaces: both columns are claimed (R11.3).  Player 0
    # had a square on 4:2, which leaves the board (R9.3); player 0's 12:1
    # stays.  Player 1 then holds 2 columns, short of 3, so the turn passes
    # back to player 0.
    found = decide_stop(parse_state("4:2,12:1/4:5,10:3 4:7,10:7 1d"))
    assert found.claimed == (4, 10)
    assert found.lost == ((4, 0, 2),)
    assert found.squares == (ColumnMap({12: 1}), ColumnMap({4: 7, 10: 7}))
    assert found.won == ColumnMap({4: 1, 10: 1})
    assert found.held == 2
    assert not found.wins
    assert found.next_player == 0


def test_claiming_two_columns_at_once_can_win() -> None:
    # Player 0 already holds column 2 (a square on its top space, 3).  The
    # markers on 3:5 and 12:3 are on the top spaces of columns 3 (5 spaces)
    # and 12 (3 spaces): two more columns, three in all, the target (R12.1).
    # A winning stop has no next player; the winner stays the player to move.
    found = decide_stop(parse_state("2:3/- 3:5,12:3 0d"))
    assert found.claimed == (3, 12)
    assert found.held == 3
    assert found.wins
    assert found.next_player is None
    assert found.player == 0


def test_the_turn_passes_round_to_the_first_seat() -> None:
    # Three players; player 2 stops on 8:2 (column 8 has 11 spaces).  The
    # next seat after the last one is player 0.
    found = decide_stop(parse_state("-/-/7:4 8:2 2d"))
    assert found.next_player == 0
    assert found.squares[2] == ColumnMap({7: 4, 8: 2})


def test_a_custom_board_and_target() -> None:
    # The board has column 7 alone, of 3 spaces, and one column wins.  The
    # marker on 7:3 is on the top space, so the stop claims 7 and wins.
    found = decide_stop(parse_state("-/- 7:3 0d h7:3 w1"))
    assert found.claimed == (7,)
    assert found.wins
    assert found.held == 1


def test_a_stop_that_claims_nothing_does_not_win_whatever_is_held() -> None:
    # Player 1 holds two columns (squares on the tops of 2 and 12) and stops on
    # 7:6: nothing new is claimed, two is short of three, player 0 is next.
    found = decide_stop(parse_state("-/2:3,12:3 7:6 1d"))
    assert found.claimed == ()
    assert found.held == 2
    assert not found.wins
    assert found.next_player == 0


def test_play_stop_on_plain_dicts() -> None:
    # The plain form the playouts use: player 1 stops with markers on 8:2 and
    # 7:13 (top of 7): 7 is claimed, player 0's 7:4 goes, player 0's 8:1 stays,
    # and with a target of one column the stop wins.
    mine: dict[int, int] = {}
    squares: list[Mapping[int, int]] = [{7: 4, 8: 1}, mine]
    claimed, wins, won = play_stop({7: 13, 8: 11}, 1, 1, {8: 2, 7: 13}, squares, {})
    assert claimed == [7]
    assert wins
    assert won == {7: 1}
    # The stopper's own dict is the one written into; player 0 gets a new one.
    assert squares == [{8: 1}, {8: 2, 7: 13}]
    assert squares[1] is mine


def _games(seed: int) -> list[tuple[Rules, random.Random]]:
    games = []
    for n in range(40):
        players = 2 + n % 3
        variant = (None, Variant.A, Variant.B)[n // 3 % 3]
        games.append((Rules(players=players, variant=variant), random.Random(seed + n)))
    return games


def _stops(rules: Rules, rng: random.Random) -> list[State]:
    """Play one game with the random policy; return every state in which it stopped."""
    state = new_game(rules)
    stopped = []
    while state.phase is not Phase.OVER:
        action = random_action(state, rng, roll_again=0.5)
        if isinstance(action, Stop):
            stopped.append(state)
        state = state.apply(action)
    return stopped


@pytest.mark.parametrize("seed", [0, 1000])
def test_every_reader_agrees_with_decide_stop(seed: int) -> None:
    checked = wins = claims = losses = 0
    for rules, rng in _games(seed):
        for state in _stops(rules, rng):
            found = decide_stop(state)
            after = state.apply(Stop())
            # The engine's transition.
            assert after.squares == found.squares
            assert after.won == found.won
            assert (after.phase is Phase.OVER) == found.wins
            assert after.player == found.player
            # The built-in players.
            assert stopping_wins(state) == found.wins
            assert claims_a_column(state) == bool(found.claimed)
            # The explanation of the state says the same stop.
            said = {s.kind: s.data for s in explain(state).statements}
            assert ("stop.wins" in said) == found.wins
            verdict = said["stop.wins" if found.wins else "stop.passes"]
            assert verdict["held"] == found.held
            assert verdict["next"] == found.next_player
            removed = [
                (s.data["column"], s.data["player"], s.data["space"])
                for s in explain(state).statements
                if s.kind == "stop.removes"
            ]
            assert removed == list(found.lost)
            # The rule tags of the stop.
            what = [a.what for a in action_aspects(state, Stop())]
            assert ("the game won" in what) == found.wins
            leaving = [w for w in what if w.startswith("the squares leaving column")]
            assert leaving == [
                f"the squares leaving column {c}"
                for c in found.claimed
                if any(lost[0] == c for lost in found.lost)
            ]
            # The playouts' plain stop.
            plain: list[Mapping[int, int]] = [dict(theirs) for theirs in state.squares]
            claimed, won_game, won = play_stop(
                dict(rules.heights),
                rules.columns_to_win,
                state.player,
                dict(state.markers),
                plain,
                dict(state.won),
            )
            assert sorted(claimed) == list(found.claimed)
            assert won_game == found.wins
            assert ColumnMap(won) == found.won
            assert [ColumnMap(theirs) for theirs in plain] == list(found.squares)
            checked += 1
            wins += found.wins
            claims += bool(found.claimed)
            losses += bool(found.lost)
    # The games reach every kind of stop.
    assert checked > 500
    assert wins == 40
    assert claims > 100
    assert losses > 5


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_playout_plays_the_engine_game(players: int) -> None:
    for seed in range(30):
        rules = Rules(players=players, variant=(None, Variant.A, Variant.B)[seed % 3])
        state = new_game(rules)
        actions: list[Action] = []
        fast = playout(state, random.Random(seed), actions=actions)
        rng = random.Random(seed)
        folded = state
        while folded.phase is not Phase.OVER:
            folded = folded.apply(random_action(folded, rng))
        assert fast == folded
        assert len(actions) > 10
