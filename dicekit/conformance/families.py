"""The generic case families of play for any game: examples, legal actions, apply, chance, games.

Each function returns the cases of one vector file, drawn from a
:class:`~dicekit.conformance.pool.Pool` with a random generator seeded by the
family's name, and tagged with the rules the game's engine records for each
answer (:class:`dicekit.protocol.Tagging`): :meth:`~dicekit.protocol.Tagging.choice_rules`
for what may be done in a state, :meth:`~dicekit.protocol.Tagging.action_rules`
for what an action does, the rule that refuses an illegal action first.
A game whose chance actions come in more forms than its chance outcomes list
(:class:`ChanceForms`) has those forms applied too (:func:`chance_form_cases`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from dicekit.conformance.pool import Pool, Setup, VectorError, make_case, play_game
from dicekit.conformance.suite import Case
from dicekit.errors import IllegalAction, RuleError
from dicekit.protocol import Capability, Game, Tagging, capable
from dicekit.spec import Example, load_game_spec, parse_setup

__all__ = [
    "ChanceForms",
    "apply_cases",
    "chance_cases",
    "chance_form_cases",
    "example_cases",
    "example_outcome",
    "game_cases",
    "illegal_cases",
    "moves_cases",
    "tagging",
]

#: What a case needs, from the setup its state was reached under.
Needs = Callable[[str], Sequence[str]]


class ChanceForms(Protocol):
    """:attr:`~dicekit.protocol.Capability.CHANCE_FORMS`: chance's actions in every form they take.

    A game whose chance outcomes each stand for several actions a port may be
    sent (two dice thrown in either order, which the state then writes
    sorted) lists them all, so that the suite also applies the forms that
    :meth:`~dicekit.protocol.Core.chance_outcomes` does not list.
    """

    def chance_forms(self, state: Any) -> Sequence[Any]:
        """Return every action chance may take in ``state``, each form of each outcome."""
        ...


def tagging(game: Game[Any, Any, Any]) -> Tagging[Any, Any]:
    """Return ``game`` as a :class:`~dicekit.protocol.Tagging`; raise ``VectorError`` if not.

    The vectors name, for every case, the rules that decide its answer, and
    only the game's engine knows them.
    """
    tagged = capable(game, Capability.TAGGING)
    if tagged is None:
        raise VectorError(
            f"the game {game.info.name!r} does not say which rules decide its answers "
            "(dicekit.protocol.Tagging: action_rules and choice_rules), which its vectors name"
        )
    return tagged


def _needs(pool: Pool) -> Needs:
    return lambda text: pool.setups[text].needs


def _outcomes(game: Game[Any, Any, Any], state: Any) -> list[dict[str, Any]]:
    return [
        {"action": game.format_action(a), "p": [p.numerator, p.denominator]}
        for a, p in game.chance_outcomes(state)
    ]


def example_cases(game: Game[Any, Any, Any]) -> list[Case]:
    """Return one case for every example of the game's spec, with the example's own expectations.

    Only the keys every game shares are asked (``dicekit.spec.EXAMPLE_KEYS``);
    a game's own keys are checked by its spec runner, not through the port.
    An example that gives nothing a port reads (no state, setup, notation
    or action text, only keys of the game's own) has no case.
    """
    return [
        _example_case(ex)
        for ex in load_game_spec(game).examples
        if any(key in ex.fields for key in _ASKED)
    ]


#: The keys of an example that give a port something to read.
_ASKED = ("setup", "notation", "action-text", "state")


def example_outcome(f: Mapping[str, str]) -> dict[str, Any]:
    """Return what a spec example's fields expect of its actions, as a case expects it.

    The refusal (``error``, and ``at``, its position in a text), the events
    of the actions (``events``, or one ``event``) and the state they lead
    to (``result``), each only when the example names it.

    >>> example_outcome({"events": "rolled won", "result": "x"})
    {'events': ['rolled', 'won'], 'state': 'x'}
    """
    expect: dict[str, Any] = {}
    if "error" in f:
        expect["error"] = f["error"]
        if "at" in f:
            expect["at"] = int(f["at"])
    if "events" in f:
        expect["events"] = f["events"].split()
    elif "event" in f:
        expect["event"] = f["event"]
    if "result" in f:
        expect["state"] = f["result"]
    return expect


def _example_case(ex: Example) -> Case:
    f = ex.fields
    fields: dict[str, Any] = {"title": f["title"]}
    if "setup" in f:
        fields["setup"] = f["setup"]
        config, first = parse_setup(f["setup"])
        fields["new"] = {"config": config, "first_player": first}
    elif "notation" in f:
        fields["text"] = f["notation"]
    elif "action-text" in f:
        fields["action_text"] = f["action-text"]
    else:
        fields["state"] = f["state"]
        actions = (f.get("actions") or f.get("action") or "").split()
        if actions:
            fields["actions"] = actions
    expect = example_outcome(f)
    if "moves" in f:
        expect["moves"] = [] if f["moves"] == "none" else f["moves"].split()
    if "json" in f:
        expect["json"] = json.loads(f["json"])
    if "action-json" in f:
        expect["action_json"] = json.loads(f["action-json"])
    return make_case(f"spec-{ex.id}", ex.rules, "example", (), **fields, expect=expect)


def moves_cases(game: Game[Any, Any, Any], pool: Pool, count: int) -> list[Case]:
    """Return the legal actions, in the game's order, of reachable states where a player acts."""
    tags = tagging(game)
    needs = _needs(pool)
    found = pool.where(lambda state: bool(game.legal_actions(state)))
    chosen = random.Random("moves").sample(found, min(count, len(found)))
    return [
        make_case(
            f"moves-{index:05d}",
            tags.choice_rules(pool.states[text]),
            "moves",
            needs(text),
            state=text,
            expect={
                "moves": [game.format_action(a) for a in game.legal_actions(pool.states[text])]
            },
        )
        for index, text in enumerate(chosen, start=1)
    ]


def _result(game: Game[Any, Any, Any], state: Any, action: Any) -> dict[str, Any]:
    stepper = capable(game, Capability.STEPPING)
    if stepper is not None:
        after, event = stepper.step(state, action)
        return {"state": game.format_state(after), "event": event}
    return {"state": game.format_state(game.apply(state, action))}


def apply_cases(game: Game[Any, Any, Any], pool: Pool, count: int) -> list[Case]:
    """Return legal actions and chance's outcomes applied to reachable states: the state after each.

    A game that reports events (:class:`~dicekit.protocol.Stepping`) has the
    event of each action expected too.
    """
    return _applied(
        game,
        pool,
        count,
        1,
        "apply",
        pool.where(lambda state: not game.is_over(state)),
        lambda state: [*game.legal_actions(state), *(a for a, _ in game.chance_outcomes(state))],
    )


def _applied(
    game: Game[Any, Any, Any],
    pool: Pool,
    count: int,
    first: int,
    seed: str,
    live: list[str],
    options: Callable[[Any], list[Any]],
) -> list[Case]:
    """Return up to ``count`` ``apply`` cases, numbered from ``first``, drawn with ``seed``.

    Each is a state of ``live`` (state texts) drawn at random and an action
    of ``options(state)`` drawn at random (a state with none is drawn again),
    each pair once, with the state after it expected and the rules the
    engine records for the action as its tags.
    """
    tags = tagging(game)
    needs = _needs(pool)
    rng = random.Random(seed)
    cases: list[Case] = []
    seen: set[tuple[str, str]] = set()
    for _ in range(count * 20):
        if len(cases) >= count or not live:
            break
        text = rng.choice(live)
        state = pool.states[text]
        choices = options(state)
        if not choices:
            continue
        action = choices[rng.randrange(len(choices))]
        key = (text, game.format_action(action))
        if key in seen:
            continue
        seen.add(key)
        cases.append(
            make_case(
                f"apply-{first + len(cases):05d}",
                tags.action_rules(state, action),
                "apply",
                needs(text),
                state=text,
                action=key[1],
                expect=_result(game, state, action),
            )
        )
    return cases


def chance_form_cases(game: Game[Any, Any, Any], pool: Pool, count: int, first: int) -> list[Case]:
    """Return chance's actions in forms its outcomes do not list, applied: the state after each.

    Only a game that declares :class:`ChanceForms` has them: drawn from the
    reachable states where chance acts, each a form of an outcome whose text
    is not among the outcomes' (the dice in another order), numbered as
    ``apply`` cases from ``first``, after the family's others.  Each is
    tagged with the rules the game's engine records for it, as any action is.
    """
    forms = capable(game, Capability.CHANCE_FORMS)
    if forms is None:
        return []

    def unlisted(state: Any) -> list[Any]:
        listed = {game.format_action(a) for a, _ in game.chance_outcomes(state)}
        return [a for a in forms.chance_forms(state) if game.format_action(a) not in listed]

    live = pool.where(lambda state: bool(game.chance_outcomes(state)))
    return _applied(game, pool, count, first, "apply-forms", live, unlisted)


def illegal_cases(game: Game[Any, Any, Any], pool: Pool, count: int) -> list[Case]:
    """Return actions the rules refuse in reachable states, each with the rule that refuses it.

    The actions are those seen anywhere in the pool, tried where they are not
    legal.  The game's :meth:`~dicekit.protocol.Tagging.action_rules` must name
    the refusing rule first, as the engine's refusal does.
    """
    tags = tagging(game)
    needs = _needs(pool)
    rng = random.Random("illegal")
    actions = list(pool.actions.items())
    texts = pool.texts
    cases: list[Case] = []
    seen: set[tuple[str, str]] = set()
    for _ in range(count * 50):
        if len(cases) >= count or not actions or not texts:
            break
        text = rng.choice(texts)
        name, action = rng.choice(actions)
        if (text, name) in seen:
            continue
        seen.add((text, name))
        state = pool.states[text]
        try:
            game.apply(state, action)
        except IllegalAction as exc:
            rules = tags.action_rules(state, action)
            if not rules or rules[0] != exc.rule:
                raise VectorError(
                    f"{name} in {text!r} is refused under {exc.rule}, but the game's "
                    f"action_rules name {' '.join(rules) or 'no rule'} (the refusing rule first)"
                ) from None
            cases.append(
                make_case(
                    f"illegal-{len(cases) + 1:05d}",
                    rules,
                    "apply",
                    needs(text),
                    state=text,
                    action=name,
                    expect={"error": exc.rule},
                )
            )
        except RuleError:
            continue  # not a refusal of play: the notation cases cover such values
    return cases


def chance_cases(game: Game[Any, Any, Any], pool: Pool, count: int) -> list[Case]:
    """Return chance's outcomes and their exact probabilities in reachable states where it acts."""
    tags = tagging(game)
    needs = _needs(pool)
    found = pool.where(lambda state: bool(game.chance_outcomes(state)))
    chosen = random.Random("chance").sample(found, min(count, len(found)))
    return [
        make_case(
            f"chance-{index:05d}",
            tags.choice_rules(pool.states[text]),
            "chance",
            needs(text),
            state=text,
            expect={"outcomes": _outcomes(game, pool.states[text])},
        )
        for index, text in enumerate(chosen, start=1)
    ]


def game_cases(
    game: Game[Any, Any, Any], setups: Sequence[Setup], per_setup: int, max_actions: int
) -> list[Case]:
    """Return seeded random games of every setup: every action, with the state after it.

    A game ends when it is over or after ``max_actions`` actions.
    """
    tags = tagging(game)
    cases = []
    for setup in setups:
        for index in range(per_setup):
            rng = random.Random(f"game-{setup.name}-{index}")
            moves = list(play_game(game, setup, rng, max_actions))
            if not moves:
                continue
            opening = moves[0].before
            new = {
                "config": game.config_to_json(setup.config),
                "first_player": game.player(opening),
            }
            expect: dict[str, Any] = {
                "start": game.format_state(opening),
                "states": [game.format_state(m.after) for m in moves],
            }
            if game.info.provides(Capability.STEPPING):
                expect["events"] = [m.event for m in moves]
            cases.append(
                make_case(
                    f"game-{setup.name}-{index + 1:02d}",
                    [r for m in moves for r in tags.action_rules(m.before, m.action)],
                    "game",
                    setup.needs,
                    new=new,
                    actions=[game.format_action(m.action) for m in moves],
                    expect=expect,
                )
            )
    return cases
