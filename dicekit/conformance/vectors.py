"""A game's conformance vectors in one call: every generic family, written as versioned files.

A game that provides :class:`dicekit.protocol.Tagging` gets its vectors with
:func:`write_vectors` (or their texts with :func:`generate_vectors`): the
spec's examples, legal actions, apply (legal and illegal), chance outcomes,
whole seeded games, notation round trips and rejections, and ``schema.json``.
They live in ``conformance/vN/`` beside the game's spec (:func:`suite_root`),
one folder per version; a released version is frozen
(:mod:`dicekit.conformance.frozen`), and the one call refuses to write into
one.  The output depends only on the game and the plan, never on the clock
or on hash seeds, so a second run writes the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dicekit.conformance import families, textfamilies
from dicekit.conformance.cases import suite_versions
from dicekit.conformance.frozen import refuse_frozen
from dicekit.conformance.pool import Pool, Setup, default_setups, state_pool
from dicekit.conformance.schema import schema_text
from dicekit.conformance.suite import Case
from dicekit.conformance.vectorfiles import render, write_files
from dicekit.protocol import Game

__all__ = [
    "Plan",
    "generate_vectors",
    "suite_name",
    "suite_root",
    "vectors_dir",
    "versions",
    "write_vectors",
]


@dataclass(frozen=True)
class Plan:
    """How many cases of each family, drawn from which setups: the defaults give over 3,000."""

    #: The configurations played; by default one standard setup per player count.
    setups: Sequence[Setup] | None = None
    #: Seeded games per setup that supply the states, and the most actions a game plays.
    pool_games: int = 12
    max_actions: int = 600
    moves: int = 700
    apply: int = 800
    #: Chance's actions in the forms its outcomes do not list, for a game that has them
    #: (:class:`~dicekit.conformance.families.ChanceForms`), applied after the others.
    chance_forms: int = 100
    illegal: int = 500
    chance: int = 200
    #: Whole games per setup, and the most actions each plays.
    games: int = 3
    game_actions: int = 300
    #: States read in both forms (every action seen is read in both forms too).
    notation: int = 300
    invalid: int = 800
    #: Files to leave out, by name (``"chance"`` for a game whose ports cannot answer it yet).
    skip: frozenset[str] = field(default_factory=frozenset)


def suite_name(game: Game[Any, Any, Any]) -> str:
    """Return the name every vector file of ``game`` carries: ``NAME-conformance``."""
    return f"{game.info.name}-conformance"


def suite_root(game: Game[Any, Any, Any]) -> Path:
    """Return the folder of every version of ``game``'s suite: ``conformance`` in its spec."""
    return game.info.spec_dir / "conformance"


def vectors_dir(game: Game[Any, Any, Any], version: int) -> Path:
    """Return the folder of version ``version`` of ``game``'s suite (``.../conformance/vN``)."""
    return suite_root(game) / f"v{version}"


def versions(game: Game[Any, Any, Any]) -> list[int]:
    """Return the versions of ``game``'s suite installed, oldest first."""
    return suite_versions(suite_root(game))


#: The files, their descriptions and the kinds of case they hold.
FILES = {
    "spec-examples": "every example of the spec, with its own expectations",
    "moves": "legal actions of reachable states, in the game's order",
    "apply": "legal actions and chance's outcomes from reachable states: the state after each",
    "illegal": "actions the rules refuse in reachable states, with the rule each breaks",
    "chance": "chance's outcomes and their exact probabilities in reachable states",
    "games": "whole seeded games: the state after every action",
    "notation": "valid states and actions in text and JSON",
    "invalid": "text, JSON and setups that must be rejected, with the rule each breaks",
}


def generate_vectors(
    game: Game[Any, Any, Any], version: int, plan: Plan | None = None
) -> dict[str, str]:
    """Return every vector file of ``game``'s suite ``version``, and ``schema.json``, by name.

    Raise :class:`~dicekit.conformance.pool.VectorError` if the game does not
    provide :class:`~dicekit.protocol.Tagging`, or contradicts itself (an
    illegal action whose refusing rule its tags do not name first).
    """
    plan = plan or Plan()
    families.tagging(game)
    setups = list(plan.setups) if plan.setups is not None else default_setups(game)
    pool = state_pool(game, setups, plan.pool_games, plan.max_actions)
    invalid = textfamilies.invalid_cases(game, pool, setups, plan.invalid)
    built: dict[str, Callable[[], list[Case]]] = {
        "spec-examples": lambda: families.example_cases(game),
        "moves": lambda: families.moves_cases(game, pool, plan.moves),
        "apply": lambda: _apply(game, pool, plan),
        "illegal": lambda: families.illegal_cases(game, pool, plan.illegal),
        "chance": lambda: families.chance_cases(game, pool, plan.chance),
        "games": lambda: families.game_cases(game, setups, plan.games, plan.game_actions),
        "notation": lambda: textfamilies.notation_cases(
            game, pool, plan.notation, textfamilies.reading_rules(invalid)
        ),
        "invalid": lambda: invalid,
    }
    suite = suite_name(game)
    out = {
        f"{name}.json": render(suite, version, name, FILES[name], build())
        for name, build in built.items()
        if name not in plan.skip
    }
    out["schema.json"] = schema_text(suite, version)
    return out


def _apply(game: Game[Any, Any, Any], pool: Pool, plan: Plan) -> list[Case]:
    """Return the ``apply`` cases: actions and chance's outcomes, then chance's other forms."""
    cases = families.apply_cases(game, pool, plan.apply)
    return cases + families.chance_form_cases(game, pool, plan.chance_forms, len(cases) + 1)


def write_vectors(
    game: Game[Any, Any, Any],
    version: int,
    plan: Plan | None = None,
    directory: Path | None = None,
) -> dict[str, int]:
    """Write ``game``'s suite ``version`` (by default to :func:`vectors_dir`); return case counts.

    A released version is frozen: writing into a folder the frozen-hash list
    of the suite names raises :class:`~dicekit.conformance.frozen.FrozenError`.
    """
    target = vectors_dir(game, version) if directory is None else directory
    refuse_frozen(target)
    texts = generate_vectors(game, version, plan)
    schema = texts.pop("schema.json")
    counts = write_files(target, texts)
    (target / "schema.json").write_text(schema, encoding="utf-8", newline="\n")
    return counts
