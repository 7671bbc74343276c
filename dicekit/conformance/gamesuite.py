"""The suite of any game on the layer, as the harness takes it: generic kinds, needs and evidence.

:class:`GameVectorsSuite` is the :class:`~dicekit.conformance.suite.GameSuite`
of a game's generic vectors (:mod:`dicekit.conformance.vectors`): the checks
of :mod:`dicekit.conformance.checks`, the needs a port declares in ``hello``
(``players=N`` against ``supports.players``, ``KEY=VALUE`` against the list
``supports.KEY``, ``KEY`` against the flag ``supports.KEY``), and the
evidence of a failing case, read from the game's own rule tags
(:class:`dicekit.protocol.Tagging`):

- a request the rules refuse, of any kind, that the port accepts or refuses
  under another rule blames the rule that refuses it (a refusal under the
  right rule with the error at the wrong place blames no rule of play);
- an action a port lists but the rules refuse blames the rule that refuses it;
- a legal action the port misses, or refuses when asked to apply it, blames
  the rules that make it legal: those of its rules that also decide which
  actions are legal in the state (:meth:`~dicekit.protocol.Tagging.choice_rules`),
  not the rules of what it does once taken;
- a whole game blames the rules of its first action whose answer differs
  (the rules that make it legal, when the port refuses it).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from dicekit.conformance.checks import GENERIC_CHECKS
from dicekit.conformance.compare import same_json
from dicekit.conformance.ranking import PortGone, add_blame, answer_of, normal
from dicekit.conformance.suite import Ask, Case, Check, Evidence, Message
from dicekit.errors import RuleError
from dicekit.protocol import Capability, Game
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
        if not game.info.provides(Capability.TAGGING):
            return None
        if "error" in case.get("expect", {}):
            return _refusal_evidence(self.checks[case["kind"]], case, ask)
        if case["kind"] == "moves":
            return _moves_evidence(game, case, ask)
        if case["kind"] == "apply":
            return _apply_evidence(game, case, ask)
        if case["kind"] == "game":
            return _game_evidence(game, case, ask)
        return None


@cache
def _titles(game: Game[Any, Any, Any]) -> Mapping[str, str]:
    return {rid: rule.title for rid, rule in load_game_spec(game).rules.items()}


class _Recorder:
    """Stands in for the port while a case is asked again, keeping the last exchange."""

    def __init__(self, ask: Ask) -> None:
        self.ask = ask
        self.last: tuple[Message, Message] | None = None

    def request(self, message: Message) -> Message:
        answer = answer_of(self.ask, message)
        self.last = (message, answer)
        return answer


def _refusal_evidence(check: Check, case: Case, ask: Ask) -> Evidence | None:
    """Blame the refusing rule of a case the rules refuse, when the port does not refuse it so.

    The case is asked again as its check asks it; the request it fails on must
    be the one the rules refuse (the last action of an example), else the
    case's tags stand.  A refusal under the right rule blames no rule of play
    (what differs is where the error points).
    """
    recorder = _Recorder(ask)
    try:
        check(recorder, case)
    except PortGone:
        raise
    except Exception:  # a Mismatch, or an answer of a shape the check did not foresee
        pass
    else:
        return None  # it passes now
    if recorder.last is None:
        return None
    message, answer = recorder.last
    actions = case.get("actions")
    if case["kind"] == "example" and actions and message.get("action") != actions[-1]:
        return None  # it failed before the action the rules refuse
    rule = case["expect"]["error"]
    error = answer.get("error")
    got = error.get("rule") if isinstance(error, dict) else None
    if answer.get("ok") is False and got == rule:
        return None
    what = (
        f"refused under {got} instead of {rule}"
        if answer.get("ok") is False
        else f"accepted; the rules refuse it under {rule}"
    )
    state = message.get("state")
    shown = {k: v for k, v in answer.items() if k not in ("seq", "json")}
    return Evidence(
        case["id"],
        {rule: 1.0},
        what,
        state if isinstance(state, str) else "",
        message,
        dict(case["expect"]),
        shown,
    )


def _refused(answer: Message) -> bool:
    """Whether the port refused the request: an error that is not an internal error.

    An internal error (``spec/protocol.md``) is a defect of the port, not a
    refusal under the rules, so it says nothing of which rules decide legality.
    """
    error = answer.get("error")
    said = error.get("message") if isinstance(error, dict) else None
    return answer.get("ok") is False and not (
        isinstance(said, str) and said.startswith("internal error")
    )


def _legality_rules(game: Any, state: Any, action: Any) -> tuple[str, ...]:
    """Return the rules that make ``action`` legal in ``state``: its own rules that decide legality.

    Those are the action's rules (:meth:`~dicekit.protocol.Tagging.action_rules`)
    that are also among the rules deciding which actions are legal in the
    state; when none is, all of the action's rules.
    """
    rules = tuple(game.action_rules(state, action))
    choice = set(game.choice_rules(state))
    return tuple(r for r in rules if r in choice) or rules


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
        add_blame(blame, _legality_rules(game, state, game.parse_action(text)))
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


def _apply_evidence(game: Any, case: Case, ask: Ask) -> Evidence | None:
    """Blame the rules that make a legal action legal when the port refuses to apply it.

    A port that applies it, but answers another state or event, leaves the
    case's tags to stand: what the action does is the whole of what they decide.
    """
    request: Message = {"op": "apply", "state": case["state"], "action": case["action"]}
    answer = answer_of(ask, request)
    if not _refused(answer):
        return None
    state = game.parse_state(case["state"])
    blame: dict[str, float] = defaultdict(float)
    add_blame(blame, _legality_rules(game, state, game.parse_action(case["action"])))
    error = answer.get("error")
    return Evidence(
        case["id"],
        normal(blame),
        f"the port refused the legal action {case['action']}",
        case["state"],
        request,
        dict(case["expect"]),
        {"error": error},
    )


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
            before, taken = game.parse_state(state), game.parse_action(action)
            rules = (
                _legality_rules(game, before, taken)
                if _refused(answer)
                else game.action_rules(before, taken)
            )
            blame: dict[str, float] = defaultdict(float)
            add_blame(blame, rules)
            return Evidence(
                case["id"], normal(blame), f"the answer to {action}", state, request, wanted, got
            )
        state = after
    return None
