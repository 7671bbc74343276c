"""The exact odds of a throw, for any game: the chance of each kind of outcome it names.

A state about to throw (a chance node, or a decision where the player may
let chance act, :mod:`dicekit.nodes`) has chance's outcomes with exact
probabilities.  For each throw, the layer asks the game what it leads to:

- the kinds of the throw itself (a throw that forfeits the turn);
- when the same player then chooses, the kinds that at least one of the
  legal actions has (a capture that can be made, a counter that can cross).

The chance of a kind is the sum of the probabilities of the throws that have
it, an exact :class:`~fractions.Fraction`.  The kinds are the game's own
(:class:`~dicekit.protocol.Outcomes`), each read from what the engine
decided; a game that names none but reports events
(:class:`~dicekit.protocol.Stepping`) has one kind per event.

>>> from pathlib import Path
>>> from dicekit.protocol import Capability, GameInfo, OutcomeKind
>>> class Coin:  # throw a coin: heads wins, tails passes the turn
...     info = GameInfo("coin", "Coin", 1, 1, Path("spec"), frozenset({Capability.OUTCOMES}))
...     outcome_kinds = (OutcomeKind("win", "the player wins", "R1"),)
...     def is_over(self, state): return state == "won"
...     def player(self, state): return 0
...     def legal_actions(self, state): return ()
...     def chance_outcomes(self, state):
...         return (("heads", Fraction(1, 2)), ("tails", Fraction(1, 2)))
...     def apply(self, state, action): return "won" if action == "heads" else "start"
...     def outcomes(self, state, action): return frozenset({"win"} if action == "heads" else ())
>>> found = throw_odds(Coin(), "start")
>>> [(odds.kind.name, odds.chance) for odds in found.kinds]
[('win', Fraction(1, 2))]
>>> print(found.text())
the next throw of player 0 (2 outcomes):
  win  1/2  50.00%  the player wins (R1)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from dicekit.errors import RuleError
from dicekit.nodes import Kind, decisions, kind
from dicekit.protocol import CHANCE, Capability, OutcomeKind, capable

__all__ = [
    "KindOdds",
    "NoThrow",
    "ThrowOdds",
    "about_to_throw",
    "after_each",
    "outcome_kinds",
    "throw_odds",
]


class NoThrow(RuleError):
    """A state that is not about to throw: the game is over, or the player must choose first."""


@dataclass(frozen=True)
class KindOdds:
    """One kind of outcome and the exact chance that the next throw has it."""

    #: The kind, as the game names it.
    kind: OutcomeKind
    #: The chance, exact.
    chance: Fraction


@dataclass(frozen=True)
class ThrowOdds:
    """The odds of the next throw of a state: whose throw, how many outcomes, each kind's chance."""

    #: The player the dice are thrown for.
    player: int
    #: The number of distinct outcomes of the throw.
    outcomes: int
    #: Each kind the game names, in its order, with its chance.
    kinds: tuple[KindOdds, ...]

    def text(self) -> str:
        """Return the odds as lines of text: each kind's chance, exact and as a percentage."""
        width = max((len(odds.kind.name) for odds in self.kinds), default=0)
        exact = max((len(str(odds.chance)) for odds in self.kinds), default=0)
        lines = [f"the next throw of player {self.player} ({self.outcomes} outcomes):"]
        for odds in self.kinds:
            percent = f"{float(odds.chance) * 100:.2f}%"
            rule = f" ({odds.kind.rule})" if odds.kind.rule else ""
            lines.append(
                f"  {odds.kind.name:<{width}}  {odds.chance!s:>{exact}}  {percent:>7}  "
                f"{odds.kind.text}{rule}"
            )
        return "\n".join(lines)

    def line(self) -> str:
        """Return the odds on one line: each kind's name and exact chance."""
        return ", ".join(f"{odds.kind.name} {odds.chance}" for odds in self.kinds)


def outcome_kinds(game: Any) -> tuple[OutcomeKind, ...]:
    """Return the kinds of outcome ``game`` names, or one kind per event; none if it has neither."""
    named = capable(game, Capability.OUTCOMES)
    if named is not None:
        return tuple(named.outcome_kinds)
    stepper = capable(game, Capability.STEPPING)
    if stepper is not None:
        return tuple(
            OutcomeKind(event, f"the throw or an action after it has the event {event}", "")
            for event in stepper.events
        )
    return ()


def _kinds_of(game: Any, state: Any, action: Any) -> frozenset[str]:
    """Return the names of the kinds ``action`` has in ``state``: the game's, or its event."""
    named = capable(game, Capability.OUTCOMES)
    if named is not None:
        return named.outcomes(state, action)
    stepper = capable(game, Capability.STEPPING)
    if stepper is not None:
        return frozenset({stepper.step(state, action).event})
    return frozenset()


def about_to_throw(game: Any, state: Any) -> bool:
    """Return whether chance acts next in ``state``, or may if the player decides so."""
    if game.is_over(state):
        return False
    if kind(game, state) is Kind.CHANCE:
        return True
    chooser = capable(game, Capability.CHANCE_BY_CHOICE)
    return chooser is not None and chooser.chance_by_choice(state)


def throw_odds(game: Any, state: Any) -> ThrowOdds:
    """Return the exact odds of the throw that ``state`` is about to make.

    Raises :class:`NoThrow` naming the rules that decide the state's
    choices (:class:`~dicekit.protocol.Tagging`, where the game tags them)
    when the game is over or the player must choose an action first.
    """
    if not about_to_throw(game, state):
        where = f" in state {game.format_state(state)!r}"
        raise NoThrow(_not_a_throw(game, state) + where, _rules_of_choice(game, state))
    player = game.player(state)
    found: dict[str, Fraction] = {}
    outcomes = game.chance_outcomes(state)
    for throw, chance in outcomes:
        names = set(_kinds_of(game, state, throw))
        after = game.apply(state, throw)
        if not game.is_over(after) and game.player(after) == player:
            for action in game.legal_actions(after):
                names |= _kinds_of(game, after, action)
        for name in names:
            found[name] = found.get(name, Fraction(0)) + chance
    kinds = tuple(
        KindOdds(named, found.get(named.name, Fraction(0))) for named in outcome_kinds(game)
    )
    return ThrowOdds(player, len(outcomes), kinds)


def after_each(game: Any, state: Any) -> list[str]:
    """Return, for each of the player's decisions in ``state``, the odds of the throw it leads to.

    One line a decision, in the order of :func:`dicekit.nodes.decisions`: the
    decision, whose throw follows it, and each kind's chance
    (:meth:`ThrowOdds.line`); letting chance act is the throw of ``state``
    itself.  In a state about to throw with no decision, the one line is
    that throw's.
    """
    lines = []
    for decision in decisions(game, state) or (CHANCE,):
        if decision is CHANCE:
            name, after = "throw", state
        else:
            name, after = game.format_action(decision), game.apply(state, decision)
        if game.is_over(after):
            lines.append(f"{name}: the game is over")
        elif not about_to_throw(game, after):
            lines.append(f"{name}: player {game.player(after)} chooses next")
        else:
            odds = throw_odds(game, after)
            lines.append(f"{name}: then player {odds.player} throws: {odds.line()}")
    return lines


def _not_a_throw(game: Any, state: Any) -> str:
    if game.is_over(state):
        return "the game is over, and no throw follows"
    count = len(game.legal_actions(state))
    return (
        f"the odds are of a state about to throw, and player {game.player(state)} "
        f"must first choose one of {count} actions"
    )


def _rules_of_choice(game: Any, state: Any) -> str:
    tagger = capable(game, Capability.TAGGING)
    rules = () if tagger is None else tagger.choice_rules(state)
    return ", ".join(rules) if rules else "-"
