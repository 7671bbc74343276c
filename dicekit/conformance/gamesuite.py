"""The suite of any game on the layer, as the harness takes it: generic kinds, needs and evidence.

:class:`GameVectorsSuite` is the :class:`~dicekit.conformance.suite.GameSuite`
of a game's generic vectors (:mod:`dicekit.conformance.vectors`): the checks
of :mod:`dicekit.conformance.checks`, the needs a port declares in ``hello``
(``players=N`` against ``supports.players``, ``KEY=VALUE`` against the list
``supports.KEY``, ``KEY`` against the flag ``supports.KEY``), and the
evidence of a failing case, read from the game's own rule tags
(:class:`dicekit.protocol.Tagging`): an action a port lists but the rules
refuse blames the rule that refuses it, a legal action it misses the rules
that decide what that action does, and a whole game the rules of its first
action whose answer differs.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from dicekit.conformance.checks import GENERIC_CHECKS
from dicekit.conformance.compare import same_json
from dicekit.conformance.ranking import add_blame, answer_of, normal
from dicekit.conformance.suite import Ask, Case, Check, Evidence, Message
from dicekit.errors import RuleError
from dicekit.protocol import Game, Tagging
from dicekit.spec import load_game_spec

__all__ = ["GameVectorsSuite"]

#: The weight of a failing whole game, against 1 for every other case.
GAME_WEIGHT = 0.25


@dataclass(frozen=True)
class GameVectorsSuite:
    """The suite of ``game``'s generic vectors (see :class:`~dicekit.conformance.suite.GameSuite`).

    >>> from types import SimpleNamespace
    >>> suite = GameVectorsSuite(SimpleNamespace(info=SimpleNamespace(name="toy")))
    >>> suite.name, suite.game
    ('toy-conformance', 'toy')
    >>> suite.lacking({"supports": {"players": [2], "boards": True}}, ["players=2", "players=3"])
    'players=3'
    >>> [suite.need_words(n) for n in ("players=3", "boards", "variant=B")]
    ['3 players', 'the option boards', 'variant B']
    """

    #: The game object.
    engine: Any
    protocol: int = 1
    accepts_unnamed: bool = False
    default_limit: int = 400

    @property
    def name(self) -> str:
        """The name every vector file of the game carries: ``NAME-conformance``."""
        return f"{self.game}-conformance"

    @property
    def game(self) -> str:
        """The game's name, which the harness's ``hello`` and a port name."""
        name: str = self.engine.info.name
        return name

    @property
    def title(self) -> str:
        """The game's name, which a summary puts before ``suite vN``."""
        return self.game

    @property
    def checks(self) -> Mapping[str, Check]:
        """The check of each generic kind of case."""
        return GENERIC_CHECKS

    @property
    def weights(self) -> Mapping[str, float]:
        """A failing whole game weighs a quarter of a case."""
        return {"game": GAME_WEIGHT}

    @property
    def evidence_limits(self) -> Mapping[str, int]:
        """Whole games cost a request an action: at most 8 are asked again."""
        return {"game": 8}

    def supports_problem(self, supports: Mapping[str, Any]) -> str | None:
        """Say what is wrong with the ``supports`` object of a ``hello`` answer, or ``None``.

        ``players`` is a list of integers; every other entry is true or false,
        or a list of strings.
        """
        players = supports.get("players", [])
        if not isinstance(players, list) or not all(type(p) is int for p in players):
            return "'supports.players' is not a list of integers"
        for key, value in supports.items():
            if key == "players":
                continue
            if not isinstance(value, bool) and not (
                isinstance(value, list) and all(isinstance(v, str) for v in value)
            ):
                return f"'supports.{key}' is neither true or false nor a list of strings"
        return None

    def lacking(self, hello: Message | None, needs: Sequence[str]) -> str | None:
        """Return the first of a case's ``needs`` the port did not declare, or ``None``."""
        supports = (hello or {}).get("supports") or {}
        for need in needs:
            key, equals, value = need.partition("=")
            declared = supports.get(key)
            if key == "players":
                if not (isinstance(declared, list) and value.isdigit() and int(value) in declared):
                    return need
            elif equals:
                if not (isinstance(declared, list) and value in declared):
                    return need
            elif declared is not True:
                return need
        return None

    def need_words(self, need: str) -> str:
        """Return how a summary names a need of a case."""
        key, equals, value = need.partition("=")
        if key == "players":
            return f"{value} player" + ("" if value == "1" else "s")
        return f"{key} {value}" if equals else f"the option {key}"

    def rule_titles(self) -> Mapping[str, str]:
        """Return the title of every rule of the game's spec, by id."""
        return _titles(self.engine)

    # -- evidence ------------------------------------------------------------------------
    def evidence(self, case: Case, ask: Ask) -> Evidence | None:
        """Ask a failing case again; return what differs and the rules to blame, or ``None``.

        ``None`` (the case's tags stand) for a game without rule tags and for
        the kinds whose tags already name what decides their one answer.
        """
        game = self.engine
        if not isinstance(game, Tagging):
            return None
        if case["kind"] == "moves":
            return _moves_evidence(game, case, ask)
        if case["kind"] == "game":
            return _game_evidence(game, case, ask)
        return None


@cache
def _titles(game: Game[Any, Any, Any]) -> Mapping[str, str]:
    return {rid: rule.title for rid, rule in load_game_spec(game).rules.items()}


def _moves_evidence(game: Any, case: Case, ask: Ask) -> Evidence | None:
    request: Message = {"op": "moves", "state": case["state"]}
    got = answer_of(ask, request).get("moves")
    want: list[str] = case["expect"]["moves"]
    if same_json(got, want):
        return None
    state = game.parse_state(case["state"])
    blame: dict[str, float] = defaultdict(float)
    listed = got if isinstance(got, list) else []
    missing = [m for m in want if m not in listed]
    extra = [m for m in listed if m not in want]
    for text in missing:
        add_blame(blame, game.action_rules(state, game.parse_action(text)))
    for text in extra:
        try:
            rules = game.action_rules(state, game.parse_action(text))
        except (RuleError, TypeError, ValueError):
            continue  # not an action of the game: the notation, not a rule of play
        add_blame(blame, rules[:1])
    if not blame:  # the same actions in another order
        add_blame(blame, game.choice_rules(state))
    parts = [
        f"missing {' '.join(missing)}" if missing else "",
        f"not legal {' '.join(map(str, extra))}" if extra else "",
    ]
    what = ", ".join(p for p in parts if p) or "the order of the legal actions"
    return Evidence(case["id"], normal(blame), what, case["state"], request, want, got)


def _game_evidence(game: Any, case: Case, ask: Ask) -> Evidence | None:
    expect = case["expect"]
    state = expect["start"]
    events = expect.get("events", [None] * len(case["actions"]))
    for action, after, event in zip(case["actions"], expect["states"], events, strict=True):
        request: Message = {"op": "apply", "state": state, "action": action}
        answer = answer_of(ask, request)
        wanted: dict[str, Any] = (
            {"state": after} if event is None else {"state": after, "event": event}
        )
        got = (
            {key: answer.get(key) for key in wanted}
            if answer.get("ok") is True
            else answer.get("error")
        )
        if not same_json(got, wanted):
            rules = game.action_rules(game.parse_state(state), game.parse_action(action))
            blame: dict[str, float] = defaultdict(float)
            add_blame(blame, rules)
            return Evidence(
                case["id"], normal(blame), f"the answer to {action}", state, request, wanted, got
            )
        state = after
    return None
