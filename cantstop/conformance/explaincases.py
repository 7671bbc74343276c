"""The generated cases of the ``explain`` capability: explanations and unreadable requests.

Every state of the spec's examples is explained alone and with its first
action, then states of random games, until every sentence and fragment of the
template table of ``spec/explain.md`` has appeared; each case needs the
``explain`` capability and names the rules its statements cite.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from cantstop.actions import Action, Stop
from cantstop.conformance.pool import (
    ACTION_CHARS,
    ALL_MOVES,
    STATE_CHARS,
    edit,
    make_case,
    random_roll,
)
from cantstop.errors import NotationError
from cantstop.explanation import TEMPLATES, explain
from cantstop.notation import format_action, format_state, parse_action, parse_state
from cantstop.spec import load_spec
from cantstop.state import Phase, State
from dicekit.conformance.suite import Case

__all__ = ["explain_cases", "explain_error_cases", "explanation_features"]


#: The rule a dropped sum's reason cites, and the reason's key (spec/explain.md).
_REASON_OF_RULE = {
    "R9.2": "reason.won",
    "R8.1": "reason.top",
    "R5.3": "reason.no-marker",
    "R15.3": "reason.no-column",
}

#: The opening words of each ``where.*`` fragment, as a sum statement's text shows them.
_WHERE_WORDS = {
    "where.top": ", the top space",
    "where.above": ", above player ",
    "where.skip-one": ", skipping space ",
    "where.skip-many": ", skipping spaces ",
}


def explanation_features(explanation: Mapping[str, Any]) -> set[str]:
    """Return the template keys (spec/explain.md, X4.2) an explanation's JSON form uses.

    Statement kinds are read from ``kind``; a dropped sum's reason from the rule it
    cites; a ``where.*`` fragment from its words in a sum statement.

    >>> from cantstop import explain, parse_state
    >>> found = explanation_features(explain(parse_state('- - 0c1166 h2:1,7:1 w1')).to_json())
    >>> sorted(k for k in found if k.startswith(("where", "reason")))
    ['reason.no-column', 'reason.top', 'where.top']
    """
    found: set[str] = set()
    for statement in explanation["statements"]:
        kind = statement["kind"]
        found.add(kind)
        if kind in ("sum.dropped", "illegal.dropped"):
            found.update(_REASON_OF_RULE[r] for r in statement["rules"] if r in _REASON_OF_RULE)
        elif kind in ("sum.advance", "sum.place"):
            found.update(k for k, words in _WHERE_WORDS.items() if words in statement["text"])
    return found


def _explain_case(number: int, state: State, action: Action | None) -> Case:
    data = explain(state, action).to_json()
    rules = [r for statement in data["statements"] for r in statement["rules"]]
    fields: dict[str, Any] = {"state": format_state(state)}
    if action is not None:
        fields["action"] = format_action(action)
    case = make_case(f"explain-{number:05d}", rules, "explain", state, **fields)
    case["needs"] = ["explain", *case.get("needs", [])]
    case["expect"] = {"explanation": data}
    return case


def _explain_choices(state: State, rng: random.Random) -> Iterator[Action | None]:
    """Yield the actions worth explaining in ``state``: none, a legal one and others."""
    yield None
    if state.phase is Phase.CHOOSE:
        yield rng.choice(state.legal_moves())
        yield rng.choice(ALL_MOVES)
        yield rng.choice((Stop(), random_roll(rng)))
    else:
        yield random_roll(rng)
        yield Stop()
        yield rng.choice(ALL_MOVES)


def explain_cases(pool: list[State], count: int) -> list[Case]:
    """Explanations (spec/explain.md) of the spec's example states and of reachable states.

    Every example state is explained alone and with its first action; then
    ``count`` random states of the pool, alone or with an action; then more
    actions on pool states until every sentence and fragment of the template
    table has appeared, or the pool has nothing more to show.
    """
    rng = random.Random("explain")
    chosen: dict[tuple[State, Action | None], None] = {}
    for ex in load_spec().examples:
        text = ex.fields.get("state")
        if text is None:
            continue
        state = parse_state(text)
        actions = (ex.fields.get("actions") or ex.fields.get("action") or "").split()
        chosen.setdefault((state, None))
        if actions:
            chosen.setdefault((state, parse_action(actions[0])))
    ordered = sorted(set(pool), key=format_state)
    target = len(chosen) + count
    while len(chosen) < target:
        state = rng.choice(ordered)
        choices = list(_explain_choices(state, rng))
        chosen.setdefault((state, rng.choice(choices)))
    cases = [_explain_case(n, s, a) for n, (s, a) in enumerate(chosen, start=1)]
    seen = set().union(*(explanation_features(c["expect"]["explanation"]) for c in cases))
    missing = set(TEMPLATES) - seen
    for state in rng.sample(ordered, len(ordered)):
        if not missing:
            break
        for action in [None, *(state.legal_moves() if state.dice else ()), *ALL_MOVES, Stop()]:
            if (state, action) in chosen:
                continue
            case = _explain_case(len(cases) + 1, state, action)
            new = explanation_features(case["expect"]["explanation"]) & missing
            if new:
                chosen[(state, action)] = None
                cases.append(case)
                missing -= new
    return cases


def explain_error_cases(pool: list[State], count: int) -> list[Case]:
    """Explain requests whose state or action cannot be read, with the rule each breaks."""
    rng = random.Random("explain-errors")
    ordered = sorted(set(pool), key=format_state)
    cases: list[Case] = []
    seen: set[tuple[str, str | None]] = set()
    while len(cases) < count:
        state = rng.choice(ordered)
        text, action = format_state(state), None
        if len(cases) % 2 == 0:
            text = edit(text, rng, STATE_CHARS)
        else:
            action = edit(format_action(rng.choice(ALL_MOVES)), rng, ACTION_CHARS)
        if (text, action) in seen:
            continue
        try:
            parse_state(text)
            if action is not None:
                parse_action(action)
        except NotationError as exc:
            seen.add((text, action))
            fields: dict[str, Any] = {"state": text}
            if action is not None:
                fields["action"] = action
            case = make_case(f"explain-error-{len(cases) + 1:03d}", [exc.rule], "explain", None)
            case["needs"] = ["explain"]
            case.update(fields)
            case["expect"] = {"error": exc.rule}
            cases.append(case)
    return cases
