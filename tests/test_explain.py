"""cantstop.explain and cantstop.explanation: they agree with the engine and follow the spec."""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cantstop import (
    ORDERED_ROLLS,
    Action,
    Event,
    IllegalAction,
    InvalidState,
    Move,
    Phase,
    Roll,
    Rules,
    State,
    Stop,
    Variant,
    explain,
    format_action,
    parse_action,
    parse_state,
)
from cantstop.dice import roll_outcomes
from cantstop.explanation import FORMAT, TEMPLATES, Explanation, Statement
from cantstop.spec import load_spec
from tests.games import CONFIGS, random_game

SPEC = Path(__file__).resolve().parent.parent / "spec" / "explain.md"
RULES = set(load_spec().rules)
SORTED_ROLLS = [roll for roll, _ in roll_outcomes()]
ALL_MOVES = [Move((a,)) for a in range(2, 13)] + [
    Move((a, b)) for a, b in itertools.combinations_with_replacement(range(2, 13), 2)
]


def custom_rules(seed: int) -> Rules:
    """Return a random custom board (R15.3) with 1 to 4 players and any variant."""
    rng = random.Random(seed)
    while True:
        columns = rng.sample(range(2, 13), rng.randint(3, 11))
        heights = {c: rng.randint(1, 6) for c in columns}
        players = rng.randint(1, 4)
        variant = rng.choice([None, Variant.A, Variant.B])
        for target in (2, 1):
            if len(heights) > players * (target - 1):  # R15.4
                return Rules(players, target, heights, variant)


CONFIGURATIONS: dict[str, Rules] = {
    **CONFIGS,
    **{f"custom-{seed}": custom_rules(seed) for seed in range(4)},
}


#: How many states of each phase the tests take from each configuration.
PER_PHASE = {Phase.ROLL: 3, Phase.CHOOSE: 6, Phase.DECIDE: 5, Phase.OVER: 2}


def sampled_states(seed: int) -> Iterator[State]:
    """Distinct states of random games: for each configuration, PER_PHASE of each phase."""
    rng = random.Random(seed)
    for rules in CONFIGURATIONS.values():
        found: dict[Phase, list[State]] = {phase: [] for phase in Phase}
        game = 0
        while game < 40 and any(len(found[p]) < n for p, n in PER_PHASE.items()):
            for state in random_game(rules, seed * 1000 + game):
                kept = found[state.phase]
                if len(kept) < PER_PHASE[state.phase] and state not in kept and rng.random() < 0.2:
                    kept.append(state)
            game += 1
        for phase in Phase:
            yield from found[phase]


STATES = list(sampled_states(seed=5))


def about_to_roll() -> list[State]:
    return [s for s in STATES if s.phase in (Phase.ROLL, Phase.DECIDE)]


def engine_verdict(state: State, action: Action) -> str | None:
    """Return the rule under which the engine refuses ``action``, or ``None`` if it accepts it."""
    try:
        state.apply(action)
    except IllegalAction as exc:
        return exc.rule
    return None


def markers_json(state: State) -> dict[str, int]:
    return {str(c): v for c, v in state.markers.items()}


# -- agreement with the engine ---------------------------------------------------------


def test_the_derived_moves_of_every_roll_equal_the_engines_legal_moves() -> None:
    """For every roll of many states, the moves the explanation derives are the legal moves.

    The explanation finds them pairing by pairing from the decision table of R5
    (R6.6); the engine from its move tables.  Each move's markers, as the
    explanation predicts them, are those the engine's move leaves.
    """
    states = about_to_roll()
    configurations = {(s.rules.players, s.rules.variant, s.rules.heights) for s in states}
    assert {players for players, _, _ in configurations} == {1, 2, 3, 4}
    assert {variant for _, variant, _ in configurations} == {None, Variant.A, Variant.B}
    pairs = busts = 0
    for state in states:
        for roll in SORTED_ROLLS:
            found = explain(state, roll)
            after, event = state.step(roll)
            expected = () if event is Event.BUSTED else after.legal_moves()
            assert found.moves == expected, (state, roll)
            assert found.legal is True
            pairs += 1
            busts += event is Event.BUSTED
            for statement in found.statements:
                if statement.kind == "move":
                    move = parse_action(statement.data["move"])
                    assert statement.data["markers"] == markers_json(after.apply(move))
            assert found.statements[-1].data["state"] == format_state_of(after)
    assert pairs >= 10_000, pairs
    assert busts > 500  # the busts are checked too, not only rolls with moves


def format_state_of(state: State) -> str:
    from cantstop import format_state

    return format_state(state)


def test_a_chosen_state_explains_the_moves_it_has() -> None:
    """In the CHOOSE phase the explanation derives exactly the state's legal moves."""
    choosing = [s for s in STATES if s.phase is Phase.CHOOSE]
    assert len(choosing) >= 70
    for state in choosing:
        assert explain(state).moves == state.legal_moves(), state


def test_every_verdict_agrees_with_illegal_action() -> None:
    """Every action in every phase: legal exactly when the engine accepts it, else its rule.

    With dice on the table every move of one or two sums is tried; the verdicts
    met cover every refusal of spec/explain.md X2.3.
    """
    checked = refused = 0
    kinds = set()
    rng = random.Random(3)
    for state in STATES:
        if state.phase is Phase.CHOOSE:
            actions: list[Action] = [*ALL_MOVES, Stop(), rng.choice(ORDERED_ROLLS)]
        else:
            actions = [Stop(), rng.choice(ORDERED_ROLLS), *rng.sample(ALL_MOVES, 2)]
        for action in actions:
            found = explain(state, action)
            rule = engine_verdict(state, action)
            verdict = found.statements[1]
            check_form(verdict)
            kinds.add(verdict.kind)
            assert found.legal is (rule is None), (state, action)
            assert verdict.data == {
                "action": format_action(action),
                "legal": rule is None,
                "rule": rule,
            }, (state, action)
            if rule is not None:
                assert verdict.kind.startswith("illegal."), verdict.kind
                assert verdict.rules == (rule,), (state, action, verdict.text)
                refused += 1
            else:
                assert verdict.kind.startswith("verdict."), verdict.kind
            checked += 1
    assert checked > 6000
    assert refused > 5000
    verdicts = {k for k in TEMPLATES if k.startswith(("illegal.", "verdict."))}
    assert verdicts <= kinds, verdicts - kinds


def test_what_a_stop_would_do_is_what_the_stop_does() -> None:
    """R11.2, R11.3, R9.3 and R12.1 as predicted in the DECIDE phase, against the engine's stop."""
    deciding = [s for s in STATES if s.phase is Phase.DECIDE]
    assert len(deciding) >= 60
    outcomes = set()
    for state in deciding:
        statements = explain(state).statements
        kinds = [s.kind for s in statements]
        if "stop.refused" in kinds:
            assert engine_verdict(state, Stop()) == "R14.2"
            outcomes.add("refused")
            continue
        after, event = state.step(Stop())
        (squares,) = [s for s in statements if s.kind in ("stop.square", "stop.squares")]
        assert (squares.kind == "stop.square") is (len(state.markers) == 1)
        me = state.player
        mine = {str(c): v for c, v in after.squares[me].items()}
        assert squares.data["squares"] == mine, state
        won = [s.data["column"] for s in statements if s.kind == "stop.column"]
        assert won == [c for c in after.won if c not in state.won], state
        removed = {
            (s.data["player"], s.data["column"], s.data["space"])
            for s in statements
            if s.kind == "stop.removes"
        }
        assert removed == {
            (p, c, theirs[c])
            for p, theirs in enumerate(state.squares)
            for c in theirs
            if c not in after.squares[p]
        }, state
        (end,) = [s for s in statements if s.kind in ("stop.wins", "stop.passes")]
        assert end.data["held"] == sum(1 for owner in after.won.values() if owner == me)
        if event is Event.WON:
            assert end.kind == "stop.wins"
        else:
            assert (end.kind, end.data["next"]) == ("stop.passes", after.player)
        outcomes.add(end.kind)
        outcomes.update("removes" for s in statements if s.kind == "stop.removes")
    assert outcomes == {"refused", "stop.wins", "stop.passes", "removes"}


def test_the_chance_of_a_bust_counts_the_busting_rolls() -> None:
    """The chance statement counts the ordered rolls that the engine busts on (R10.1)."""
    for state in about_to_roll()[::6]:
        (chance,) = [s for s in explain(state).statements if s.kind.startswith("chance.")]
        busts = sum(1 for roll in ORDERED_ROLLS if state.step(roll).event is Event.BUSTED)
        assert chance.data["busts"] == busts
        assert chance.data["rolls"] == 1296
        n, d = (int(x) for x in chance.data["chance"].split("/"))
        assert n * 1296 == busts * d
        assert (chance.kind == "chance.none") is (busts == 0)


def test_a_bust_says_where_each_marker_goes_back() -> None:
    """R10.2: each marker comes off; the player's own square in its column, if any, stays.

    A bust is described only when some roll busts: after "none of the 1296
    rolls busts" nothing is said of one.
    """
    described = silent = 0
    for state in [s for s in STATES if s.phase is Phase.DECIDE]:
        statements = explain(state).statements
        busts = any(state.step(roll).event is Event.BUSTED for roll in SORTED_ROLLS)
        if not busts:
            assert not [s for s in statements if s.kind.startswith("bust.")], state
            silent += 1
            continue
        described += 1
        columns = {
            s.data["column"]: s.data["square"]
            for s in statements
            if s.kind in ("bust.back", "bust.gone")
        }
        own = state.squares[state.player]
        assert columns == {c: own.get(c) for c in state.markers}
        tops = [s.data["column"] for s in statements if s.kind == "bust.top"]
        assert tops == [c for c, p in state.markers.items() if p == state.rules.heights[c]]
    assert described > 20
    assert silent > 0


# -- the spec's examples and hand-worked positions ------------------------------------


def spec_examples() -> list[Any]:
    return [ex for ex in load_spec().examples if ex.get("state")]


@pytest.mark.parametrize(
    "example", [e for e in spec_examples() if e.get("moves")], ids=lambda e: e.id
)
def test_the_moves_of_every_spec_example_are_derived(example: Any) -> None:
    """Each spec example's legal moves, written by hand in the spec, are those explained."""
    state = parse_state(example.get("state"))
    for text in (example.get("actions") or example.get("action") or "").split():
        state = state.apply(parse_action(text))
    expected = (example.get("moves") or "").split()
    found = explain(state).moves
    if state.phase is Phase.CHOOSE:
        assert found is not None
        wanted = [parse_action(m) for m in expected]
        assert list(found) == sorted(m for m in wanted if isinstance(m, Move))
        assert len(wanted) == len(found)
    else:
        assert found is None
        assert expected == ["none"]


@pytest.mark.parametrize(
    "example",
    [e for e in spec_examples() if e.get("error") and (e.get("action") or e.get("actions"))],
    ids=lambda e: e.id,
)
def test_every_spec_refusal_is_explained_under_its_rule(example: Any) -> None:
    """Each spec example of a refused action: the explanation refuses it under that rule."""
    state = parse_state(example.get("state"))
    *before, last = (example.get("actions") or example.get("action")).split()
    for text in before:
        state = state.apply(parse_action(text))
    found = explain(state, parse_action(last))
    assert found.legal is False
    assert found.statements[1].rules == (example.get("error"),)


def spec_text() -> str:
    return SPEC.read_text(encoding="utf-8")


def test_the_spec_example_is_what_explain_prints() -> None:
    """spec/explain.md X5: the text and JSON of the worked turn's first roll, written by hand."""
    text = spec_text()
    section = text[text.index("## X5 Example") :]
    block = section[section.index("```\n") + 4 :]
    block = block[: block.index("```\n")]
    found = explain(parse_state("7:2/- - 0c3455"))
    assert found.text() == block
    snippets = re.findall(r"^`(\{.*\})`", section, re.MULTILINE)
    snippets += re.findall(r"^`(\{\"format\".*,)`$", section, re.MULTILINE)
    assert len(snippets) == 2
    canonical = found.to_json_text()
    for snippet in snippets:
        assert snippet in canonical


def test_the_spec_table_of_sentences_is_the_modules() -> None:
    """spec/explain.md X4.2 and TEMPLATES hold the same sentences and rule ids."""
    text = spec_text()
    table = text[text.index("| key | template | rules |") :]
    rows: dict[str, tuple[str, tuple[str, ...]]] = {}
    for line in table.splitlines()[2:]:
        if not line.startswith("| `"):
            break
        key, template, cited = (cell.strip() for cell in line.strip("|").split(" | "))
        rows[key.strip("`")] = (template, tuple(cited.split()))
    assert rows == dict(TEMPLATES)
    for key, (_, ids) in rows.items():
        assert set(ids) <= RULES, key


def test_the_worked_turn_second_and_third_rolls() -> None:
    """The rules write-up's turn, rolls 2 and 3, worked by hand (E022, E024, E025)."""
    second = explain(parse_state("7:2/- 7:3,10:1 0c2346"))
    # 2+3/4+6: 5 is new, 10 advances (a marker is free for the 5): both, R6.1.
    # 2+4/3+6: 6 and 9 both new, one marker free: either, R6.3.
    # 2+6/3+4: 8 new, 7 advances: both.
    offers = [(s.kind, s.data["moves"]) for s in second.statements if s.kind.startswith("offer.")]
    assert offers == [
        ("offer.both", ["5+10"]),
        ("offer.either", ["6", "9"]),
        ("offer.both", ["7+8"]),
    ]
    third = explain(parse_state("7:2/- 7:4,8:1,10:1 0c2236"), parse_action("5+8"))
    lines = third.text().splitlines()
    assert lines[1] == (
        "5+8 is not legal: 5 cannot be played, because column 5 has no marker "
        "and all three are in use (R5.3)."
    )
    assert lines[2] == "  Player 0 may play 8 instead (R6.6)."
    assert "  Only the 8 can be played, so pairing 2 offers 8 alone and the 5 is lost (R6.2)." in (
        lines
    )


def test_a_bust_explained_before_the_roll_is_applied() -> None:
    """E104: 2-1-1-1 with markers on 7, 8 and 10: every pairing makes 2 and 3, none free."""
    found = explain(parse_state("7:2/- 7:4,8:2,10:1 0d"), parse_action("r2111"))
    assert found.text() == (
        "Player 0 has played the roll and may roll again or stop (R3.4).\n"
        "r2111 is legal: after a move the player may roll again (R3.4).\n"
        "The markers stand in column 7 on space 4, in column 8 on space 2 and in column 10 "
        "on space 1; none is free (R1.4).\n"
        "The dice were thrown as 2-1-1-1; sorted, they are 1-1-1-2, and their order "
        "does not matter (R4.1).\n"
        "Pairing 1: 1+1 and 1+2 make 2 and 3 (R4.2).\n"
        "  The 2 is dropped: column 2 has no marker and all three are in use (R5.3).\n"
        "  The 3 is dropped: column 3 has no marker and all three are in use (R5.3).\n"
        "  Neither sum can be played, so pairing 1 offers no move (R6.5).\n"
        "Pairing 2: 1+1 and 1+2 again, the same sums as pairing 1 (R4.2).\n"
        "Pairing 3: 1+1 and 1+2 again, the same sums as pairing 1 (R4.2).\n"
        "No pairing plays anything, so the roll is a bust (R10.1).\n"
        "On a bust the markers come off, the squares stay, and the turn passes to "
        "player 1 (R10.2).\n"
        "  In column 7 the marker on space 4 comes off, and player 0's square stays "
        "on space 2 (R10.2).\n"
        "  In column 8 the marker on space 2 comes off, and player 0 keeps nothing "
        "there (R10.2).\n"
        "  In column 10 the marker on space 1 comes off, and player 0 keeps nothing "
        "there (R10.2).\n"
        "The state becomes 7:2/- - 1r, and it is player 1's turn (R10.2).\n"
    )
    assert found.moves == ()


def test_variant_a_skips_are_shown() -> None:
    """E129: the first 7 skips player 1's square on space 12 and lands on the top space."""
    found = explain(parse_state("-/7:12 7:11 0c1256 A"))
    (first,) = [s for s in found.statements if s.kind == "sum.advance" and s.data["sum"] == 7]
    assert first.data["from"] == 11
    assert first.data["to"] == 13
    assert first.data["skipped"] == [12]
    assert first.rules == ("R5.1", "R8.1", "R14.1")
    (second,) = [s for s in found.statements if s.data.get("step") == 2]
    assert (second.kind, second.rules) == ("sum.dropped", ("R7.3", "R8.1"))


def test_variant_b_refuses_the_stop_in_words() -> None:
    """E131: the marker in column 7 shares space 1 with player 1's square."""
    found = explain(parse_state("-/7:1 3:1,7:1 0d B"), Stop())
    assert found.legal is False
    assert found.statements[1].text == (
        "stop is not legal under Variant B: the marker in column 7 shares space 1 "
        "with player 1's square."
    )
    (refused,) = [s for s in found.statements if s.kind == "stop.refused"]
    assert refused.data == {"shares": [{"column": 7, "space": 1, "player": 1}]}


def test_one_marker_is_the_marker_and_a_square() -> None:
    """One marker is "the marker" in a move and a stop; several are "the markers" (X2.4, X2.7)."""
    lines = explain(parse_state("-/- - 0c1111")).text().splitlines()
    assert lines[-1] == (
        "  2+2 comes from pairings 1, 2 and 3 and leaves the marker in column 2 on space 2 (R6.6)."
    )
    one = explain(parse_state("-/- 7:3 0d")).text().splitlines()
    assert (
        one[2] == "If player 0 stops, the marker becomes a square in column 7 on space 3 (R11.2)."
    )
    two = explain(parse_state("-/- 7:3,8:1 0d")).text().splitlines()
    assert two[2] == (
        "If player 0 stops, the markers become squares in column 7 on space 3 "
        "and in column 8 on space 1 (R11.2)."
    )
    several = explain(parse_state("-/- 7:3 0c3455")).statements
    assert [(s.kind, s.data["markers"]) for s in several if s.kind.startswith("move.")] == []
    assert [s.data["markers"] for s in several if s.kind == "move"] == [
        {"7": 4, "10": 1},
        {"7": 3, "8": 1, "9": 1},
    ]


def test_dice_thrown_in_order_are_named_once() -> None:
    """The dice statement says the dice twice only when the throw was not already sorted (X2.5)."""
    state = parse_state("-/- - 0r")
    thrown = explain(state, Roll((1, 2, 3, 4))).statements
    (sorted_throw,) = [s for s in thrown if s.kind.startswith("dice")]
    assert sorted_throw.kind == "dice.sorted"
    assert sorted_throw.line() == (
        "The dice were thrown as 1-2-3-4, already sorted, and their order does not matter (R4.1)."
    )
    assert sorted_throw.data == {"thrown": [1, 2, 3, 4], "dice": [1, 2, 3, 4]}
    (shuffled,) = [s for s in explain(state, Roll((2, 1, 3, 4))).statements if s.kind == "dice"]
    assert shuffled.text == (
        "The dice were thrown as 2-1-3-4; sorted, they are 1-2-3-4, "
        "and their order does not matter."
    )


def test_no_bust_is_described_when_no_roll_busts() -> None:
    """With one marker and two free, every roll plays: the explanation stops at the chance."""
    found = explain(parse_state("-/- 7:1 0d"))
    assert found.text() == (
        "Player 0 has played the roll and may roll again or stop (R3.4).\n"
        "One marker stands in column 7 on space 1; two are free (R1.4).\n"
        "If player 0 stops, the marker becomes a square in column 7 on space 1 (R11.2).\n"
        "  Player 0 would then hold no won column, short of the target of 3, and the turn "
        "would pass to player 1 (R11.4).\n"
        "If player 0 rolls, none of the 1296 rolls busts (R10.1).\n"
    )


def test_a_finished_game_names_the_winner_and_the_columns() -> None:
    found = explain(parse_state("2:3,3:5,4:7/7:13 - 0x"))
    assert [s.line() for s in found.statements] == [
        "The game is over: player 0 has won, and no action is possible any more (R12.3).",
        "  Player 0 won with columns 2, 3 and 4, reaching the target of 3 (R12.1).",
        "  Player 1 holds column 7 (R9.1).",
    ]
    assert found.moves is None


def test_the_chance_is_exact_and_rounded_halves_up() -> None:
    """728 of 1296 rolls bust with markers on 2, 3 and 12 (perft E: 91/162 = 56.17%)."""
    found = explain(parse_state("-/- 2:1,3:1,12:1 0d"))
    (chance,) = [s for s in found.statements if s.kind == "chance.some"]
    assert chance.data == {"busts": 728, "rolls": 1296, "chance": "91/162"}
    assert chance.text.endswith("(728 of the 1296 rolls), about 56.2%.")


# -- form: rules, text, JSON -----------------------------------------------------------

#: The data fields of each kind, in order (spec/explain.md, X3).
FIELDS = {
    "position": ["player", "phase", "dice"],
    "verdict": ["action", "legal", "rule"],
    "illegal": ["action", "legal", "rule"],
    "alternatives": ["moves"],
    "markers": ["markers", "free"],
    "dice": ["thrown", "dice"],
    "pairing": ["pairing", "pairs", "sums", "same_as"],
    "sum": ["pairing", "sum", "step", "play", "from", "to", "skipped", "owner"],
    "offer": ["pairing", "moves"],
    "moves": ["moves"],
    "move": ["move", "pairings", "markers"],
    "result": ["state", "event"],
    "stop.squares": ["squares"],
    "stop.square": ["squares"],
    "stop.column": ["column"],
    "stop.removes": ["column", "player", "space"],
    "stop.wins": ["held", "target", "next"],
    "stop.passes": ["held", "target", "next"],
    "stop.refused": ["shares"],
    "stop.not-yet": [],
    "chance": ["busts", "rolls", "chance"],
    "bust.loss": ["next"],
    "bust.nothing": ["next"],
    "bust.back": ["column", "space", "square"],
    "bust.gone": ["column", "space", "square"],
    "bust.top": ["column"],
    "over.won": ["player", "columns", "target"],
    "over.holds": ["player", "columns"],
}

#: The kinds at depth 1 and 2 (spec/explain.md, X4.2); every other kind is at depth 0.
DEPTH_1 = {"alternatives", "move", "move.one-marker", "stop.column", "stop.wins", "stop.passes"}
DEPTH_1 |= {"bust.back", "bust.gone", "over.won", "over.holds"}
DEPTH_1 |= {k for k in TEMPLATES if k.startswith(("sum.", "offer."))}
DEPTH_2 = {"stop.removes", "bust.top"}


def every_explanation() -> Iterator[Explanation]:
    rng = random.Random(11)
    for state in STATES:
        yield explain(state)
        if state.phase is Phase.CHOOSE:
            yield explain(state, rng.choice(ALL_MOVES))
            yield explain(state, rng.choice(state.legal_moves()))
        elif state.phase is not Phase.OVER:
            yield explain(state, rng.choice(ORDERED_ROLLS))
            yield explain(state, Stop())


def no_floats(value: object) -> bool:
    if isinstance(value, float):
        return False
    if isinstance(value, dict):
        return all(isinstance(k, str) and no_floats(v) for k, v in value.items())
    if isinstance(value, list):
        return all(no_floats(v) for v in value)
    return value is None or isinstance(value, str | int | bool)


RULE_ID = re.compile(r"\b[RN]\d+\.\d+\b")


def check_form(statement: Statement) -> None:
    """Check that the rules exist, the text is a plain sentence, the depth and data fields."""
    assert statement.kind in TEMPLATES
    assert statement.rules, statement
    assert set(statement.rules) <= RULES, statement
    assert len(set(statement.rules)) == len(statement.rules)
    assert statement.text.isascii()
    assert statement.text.endswith(".")
    assert not RULE_ID.search(statement.text), statement.text
    assert "{" not in statement.text
    assert "None" not in statement.text
    expected = 2 if statement.kind in DEPTH_2 else 1 if statement.kind in DEPTH_1 else 0
    assert statement.depth == expected, statement.kind
    family = statement.kind.split(".")[0]
    fields = FIELDS.get(statement.kind, FIELDS.get(family))
    assert list(statement.data) == fields, statement.kind


def test_every_statement_names_existing_rules_in_a_plain_sentence() -> None:
    """Rules exist in the spec; texts are ASCII sentences without rule ids; depths and data."""
    kinds = set()
    for found in every_explanation():
        previous_depth = -1
        for statement in found.statements:
            kinds.add(statement.kind)
            check_form(statement)
            assert statement.depth <= previous_depth + 1
            previous_depth = statement.depth
    # Verdicts are checked with every action in the verdict test; the rest here.
    statements = {k for k in TEMPLATES if not k.startswith(("where.", "reason."))}
    statements -= {k for k in TEMPLATES if k.startswith(("illegal.", "verdict."))}
    assert statements <= kinds, statements - kinds


def test_the_json_form_is_canonical_and_has_no_floats() -> None:
    for found in itertools.islice(every_explanation(), 0, None, 7):
        data = found.to_json()
        assert list(data) == ["format", "state", "action", "legal", "moves", "statements"]
        assert data["format"] == FORMAT
        text = found.to_json_text()
        assert text.isascii()
        assert json.loads(text) == data
        assert text == json.dumps(data, separators=(",", ":"))
        assert no_floats(data)
        for statement in data["statements"]:
            assert list(statement) == ["kind", "depth", "text", "rules", "data"]
            for value in statement["data"].values():
                if isinstance(value, dict) and value and all(k.isdigit() for k in value):
                    assert list(value) == sorted(value, key=int)
        assert found.text() == "".join(s.line() + "\n" for s in found.statements)
        assert str(found) == found.text()


def test_explain_refuses_what_is_not_a_state() -> None:
    """A value that is not a State gets the project's error, not an AttributeError from inside."""
    with pytest.raises(InvalidState, match="explain needs a State, not a str"):
        explain("-/- - 0r")  # type: ignore[arg-type]
