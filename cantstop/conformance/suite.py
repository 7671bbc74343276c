"""Can't Stop's conformance suite, as the game-neutral harness takes it: kinds, checks, options.

:data:`SUITE` is what :mod:`cantstop.conformance.harness` hands to the run
loop of :mod:`dicekit.conformance`: the name the vector files carry,
the protocol version, the check of each kind of case
(:mod:`~cantstop.conformance.checks`), what a port may declare in ``hello``
(player counts, variants, custom boards, the ``explain`` capability), the
evidence of a failing case (:mod:`~cantstop.conformance.evidence`) and the
titles of the rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from cantstop.conformance.checks import CHECKS
from cantstop.conformance.evidence import evidence
from cantstop.spec import load_spec
from dicekit.conformance.suite import Ask, Case, Check, Evidence, Message

__all__ = ["EVIDENCE_LIMIT", "EVIDENCE_LIMITS", "GAME_WEIGHT", "SUITE", "CantStopSuite"]

#: The weight of a failing whole game, against 1 for every other case.
GAME_WEIGHT = 0.25
#: How many failing cases of one kind are asked again, at most: whole games
#: and roll tables cost many requests, the others one or two.
EVIDENCE_LIMITS: Mapping[str, int] = {"game": 8, "perft": 10, "rolls": 10}
#: How many failing cases of any other kind are asked again, at most.
EVIDENCE_LIMIT = 5000

#: The flags of ``supports`` that are true or false; a missing one is false.
_FLAGS = ("heights", "explain")


@dataclass(frozen=True)
class CantStopSuite:
    """Can't Stop's conformance suite (see :class:`~dicekit.conformance.suite.GameSuite`)."""

    name: str = "cantstop-conformance"
    #: The game's name in ``hello``; a port that names none is a Can't Stop port (protocol 1
    #: ports were written before ``hello`` named the game).
    game: str = "cantstop"
    accepts_unnamed: bool = True
    #: The summary says ``(suite v3)``: Can't Stop is the command line's own game.
    title: str = ""
    protocol: int = 1
    checks: Mapping[str, Check] = field(default_factory=lambda: CHECKS)
    weights: Mapping[str, float] = field(default_factory=lambda: {"game": GAME_WEIGHT})
    evidence_limits: Mapping[str, int] = field(default_factory=lambda: EVIDENCE_LIMITS)
    default_limit: int = EVIDENCE_LIMIT

    def supports_problem(self, supports: Mapping[str, Any]) -> str | None:
        """Say what is wrong with the ``supports`` object of a ``hello`` answer, or ``None``.

        >>> SUITE.supports_problem({"players": [2], "explain": "yes"})
        "'supports.explain' is not true or false"
        """
        players = supports.get("players", [2])
        if not isinstance(players, list) or not all(type(p) is int for p in players):
            return "'supports.players' is not a list of integers"
        variants = supports.get("variants", [])
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            return "'supports.variants' is not a list of strings"
        for flag in _FLAGS:
            if not isinstance(supports.get(flag, False), bool):
                return f"'supports.{flag}' is not true or false"
        return None

    def lacking(self, hello: Message | None, needs: Sequence[str]) -> str | None:
        """Return the first of a case's ``needs`` the port did not declare, or ``None``.

        >>> hello = {"supports": {"players": [2, 3], "variants": ["A"]}}
        >>> SUITE.lacking(hello, ["players=3", "variant=A"]), SUITE.lacking(hello, ["heights"])
        (None, 'heights')
        """
        supports = (hello or {}).get("supports") or {}
        for need in needs:
            key, _, value = need.partition("=")
            if key == "players" and int(value) not in supports.get("players", [2]):
                return need
            if key == "variant" and value not in supports.get("variants", []):
                return need
            if key in _FLAGS and supports.get(key, False) is not True:
                return need
        return None

    def need_words(self, need: str) -> str:
        """Return how a summary names a need of a case.

        >>> [SUITE.need_words(n) for n in ("explain", "heights", "players=3", "variant=B")]
        ['the capability explain', 'custom boards (heights)', '3 players', 'Variant B']
        """
        key, _, value = need.partition("=")
        if key == "players":
            return f"{value} player" + ("" if value == "1" else "s")
        if key == "variant":
            return f"Variant {value}"
        if key == "heights":
            return "custom boards (heights)"
        return f"the capability {need}"

    def evidence(self, case: Case, ask: Ask) -> Evidence | None:
        """Ask the requests of a failing case again; return what differs and its rules."""
        return evidence(case, ask)

    def rule_titles(self) -> Mapping[str, str]:
        """Return the title of every rule of the spec, by id."""
        return _titles()


@cache
def _titles() -> Mapping[str, str]:
    return {rid: rule.title for rid, rule in load_spec().rules.items()}


#: Can't Stop's suite.
SUITE = CantStopSuite()
