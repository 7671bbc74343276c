"""What the rules say about a state, and about an action in it, for any game on the layer.

:func:`explain` builds an :class:`Explanation` from what the game itself
decides, never from a second reading of the rules:

- whose turn it is and what the state waits for (:mod:`dicekit.nodes`);
- with an action, whether the engine takes it: a refusal is the game's own
  :class:`~dicekit.errors.IllegalAction`, with its reason and rule;
- which rules decide the legal actions, and which decide what an action
  does (:class:`~dicekit.protocol.Tagging`, the engine's decision tags);
- what each legal action or throw does: its event
  (:class:`~dicekit.protocol.Stepping`) and the kinds of outcome the game
  names (:class:`~dicekit.protocol.Outcomes`);
- and, rule by rule, each rule cited, with its title and first sentence
  from the game's spec (:mod:`dicekit.specfile`).

Each statement carries the ids of the rules it rests on.  The text form
writes one statement a line, indented by its depth, with its rules in
brackets; the JSON form (``dicekit-explain/1``) holds the same statements.

>>> from fractions import Fraction
>>> from pathlib import Path
>>> from dicekit.protocol import GameInfo
>>> class Coin:  # one throw of a coin: heads wins, tails loses
...     info = GameInfo("coin", "Coin", 1, 1, Path("no-spec"))
...     def is_over(self, state): return state != "start"
...     def winner(self, state): return 0 if state == "heads" else None
...     def player(self, state): return 0
...     def legal_actions(self, state): return ()
...     def chance_outcomes(self, state):
...         return () if self.is_over(state) else (("heads", Fraction(1, 2)),
...                                                ("tails", Fraction(1, 2)))
...     def apply(self, state, action): return action
...     def format_state(self, state): return state
...     def format_action(self, action): return action
>>> print(explain(Coin(), "start").text(), end="")
Player 0 is to throw the dice.
The throws, each with its chance:
  heads (1/2): legal
  tails (1/2): legal
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from dicekit.errors import IllegalAction
from dicekit.nodes import Kind, kind
from dicekit.odds import about_to_throw
from dicekit.protocol import JSON, Capability, capable
from dicekit.specfile import Rule

__all__ = ["FORMAT", "Explanation", "Statement", "explain", "rule_sentence"]

#: The ``format`` field of the JSON form.
FORMAT = "dicekit-explain/1"


@dataclass(frozen=True)
class Statement:
    """One statement of an explanation: its kind, depth, text and the rules it rests on."""

    #: What the statement says: ``position.*``, ``verdict.*``, ``choice``, ``action``,
    #: ``throw``, ``rule``, ...
    kind: str
    #: How far it is indented under the statement before it.
    depth: int
    #: The sentence.
    text: str
    #: The ids of the rules it rests on.
    rules: tuple[str, ...] = ()

    def line(self) -> str:
        """Return the statement as one line of the text form."""
        rules = f" ({', '.join(self.rules)})" if self.rules else ""
        return f"{'  ' * self.depth}{self.text}{rules}"


@dataclass(frozen=True)
class Explanation:
    """What the rules say about a state and, if one is given, an action in it."""

    #: The state, in the game's notation.
    state: str
    #: The action, in the game's notation, or ``None``.
    action: str | None
    #: With an action, whether it is legal; otherwise ``None``.
    legal: bool | None
    #: The statements, in reading order.
    statements: tuple[Statement, ...]
    #: For an action the rules refuse: the reason and the rule that refuses it.
    refusal: tuple[str, str] | None = field(default=None)

    def text(self) -> str:
        """Return the text form: one statement a line."""
        return "".join(statement.line() + "\n" for statement in self.statements)

    def to_json(self) -> JSON:
        """Return the JSON form (``format`` is :data:`FORMAT`)."""
        return {
            "format": FORMAT,
            "state": self.state,
            "action": self.action,
            "legal": self.legal,
            "statements": [
                {"kind": s.kind, "depth": s.depth, "text": s.text, "rules": list(s.rules)}
                for s in self.statements
            ],
        }

    def to_json_text(self) -> str:
        """Return the JSON form as one line of text."""
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(*`])")


def rule_sentence(rule: Rule) -> str:
    """Return a rule's title and the first sentence of its text, for a reader.

    >>> print(rule_sentence(Rule("R2.1", "Dice", "Two dice are thrown. Then (R3) ...", "a", 1)))
    R2.1 Dice: Two dice are thrown.
    """
    text = " ".join(rule.text.split()).replace("*", "")
    first = _SENTENCE_END.split(text, maxsplit=1)[0] if text else ""
    return f"{rule.id} {rule.title}: {first}" if first else f"{rule.id} {rule.title}."


def _rules_of_spec(game: Any) -> dict[str, Rule]:
    """Return the rules of the game's spec by id; an empty mapping if it cannot be read."""
    from dicekit.spec import load_game_spec

    try:
        return load_game_spec(game).rules
    except (OSError, ValueError):
        return {}


def _tags(game: Any) -> Any:
    return capable(game, Capability.TAGGING)


def _action_rules(game: Any, state: Any, action: Any) -> tuple[str, ...]:
    tagger = _tags(game)
    return () if tagger is None else tuple(tagger.action_rules(state, action))


def _does(game: Any, state: Any, action: Any) -> str:
    """Return what a legal ``action`` does: its event and the game's kinds of outcome."""
    parts = []
    stepper = capable(game, Capability.STEPPING)
    if stepper is not None:
        parts.append(stepper.step(state, action).event)
    named = capable(game, Capability.OUTCOMES)
    if named is not None:
        kinds = named.outcomes(state, action)
        parts += [k.text for k in named.outcome_kinds if k.name in kinds]
    return "; ".join(parts) if parts else "legal"


def _position(game: Any, state: Any) -> Statement:
    player = game.player(state)
    node = kind(game, state)
    if node is Kind.OVER:
        winner = game.winner(state)
        said = "nobody won" if winner is None else f"player {winner} won"
        return Statement("position.over", 0, f"The game is over: {said}.")
    if node is Kind.CHANCE:
        return Statement("position.throw", 0, f"Player {player} is to throw the dice.")
    count = len(game.legal_actions(state))
    if about_to_throw(game, state):
        some = "the one legal action" if count == 1 else f"one of {count} legal actions"
        text = f"Player {player} may take {some}, or throw the dice."
        return Statement("position.choose-or-throw", 0, text)
    if count == 1:
        return Statement("position.choose", 0, f"Player {player} has one legal action.")
    return Statement("position.choose", 0, f"Player {player} is to choose one of {count} actions.")


def explain(game: Any, state: Any, action: Any = None) -> Explanation:
    """Return what the rules say about ``state`` and, if given, ``action`` in it."""
    said: list[Statement] = [_position(game, state)]
    cited: list[str] = []

    def cite(rules: Sequence[str]) -> tuple[str, ...]:
        cited.extend(rule for rule in rules if rule not in cited)
        return tuple(rules)

    legal: bool | None = None
    refusal: tuple[str, str] | None = None
    shown = None if action is None else game.format_action(action)
    if action is not None:
        rules = _action_rules(game, state, action)
        try:
            after = game.apply(state, action)
        except IllegalAction as refused:
            legal = False
            refusal = (refused.reason, refused.rule)
            rest = tuple(rule for rule in rules if rule != refused.rule)
            said.append(
                Statement(
                    "verdict.illegal",
                    0,
                    f"{shown} is not legal: {refused.reason}.",
                    cite((refused.rule,)),
                )
            )
            if rest:
                said.append(Statement("verdict.rules", 1, "Also at stake:", cite(rest)))
        else:
            legal = True
            said.append(
                Statement(
                    "verdict.legal",
                    0,
                    f"{shown} is legal: {_does(game, state, action)}.",
                    cite(rules),
                )
            )
            said.append(Statement("verdict.after", 1, f"After it: {game.format_state(after)}"))
    said += _choices(game, state, cite)
    spec = _rules_of_spec(game) if cited else {}
    known = [rule for rule in cited if rule in spec]
    if known:
        said.append(Statement("rules", 0, "The rules cited, one by one:"))
        said += [Statement("rule", 1, rule_sentence(spec[rule])) for rule in known]
    return Explanation(game.format_state(state), shown, legal, tuple(said), refusal)


def _choices(game: Any, state: Any, cite: Any) -> list[Statement]:
    """Return the statements of the state's choices: which rules decide them, what each does."""
    said: list[Statement] = []
    tagger = _tags(game)
    choice = () if tagger is None else tuple(tagger.choice_rules(state))
    node = kind(game, state)
    if node is Kind.OVER:
        if choice:
            said.append(
                Statement("choice", 0, "Nothing follows the end of the game.", cite(choice))
            )
        return said
    legal = list(game.legal_actions(state))
    if legal:
        texts = [game.format_action(a) for a in legal]
        plural = "action" if len(texts) == 1 else "actions"
        listed = " ".join(texts)  # as ``cantstop moves`` lists them: an action may hold a comma
        said.append(Statement("choice", 0, f"The legal {plural}: {listed}.", cite(choice)))
        said.append(Statement("actions", 0, "What each legal action does:"))
        for action, text in zip(legal, texts, strict=True):
            rules = cite(_action_rules(game, state, action))
            said.append(Statement("action", 1, f"{text}: {_does(game, state, action)}", rules))
    if about_to_throw(game, state):
        if not legal and choice:
            said.append(
                Statement("choice", 0, "Chance acts next: the dice are thrown.", cite(choice))
            )
        said.append(Statement("throws", 0, "The throws, each with its chance:"))
        for throw, chance in game.chance_outcomes(state):
            rules = cite(_action_rules(game, state, throw))
            text = f"{game.format_action(throw)} ({chance}): {_does(game, state, throw)}"
            said.append(Statement("throw", 1, text, rules))
    return said
