"""Bounded model checking: traces from the opening state to chosen events.

From the opening state of a small custom board (:data:`BMC_RULES`), the
transitions are unrolled step by step, each step any one of roll, bust, move,
stop and win, up to a depth.  At each depth z3 is asked for a trace that ends
in the goal; the first found is the shortest.  Each trace is printed in the
notation and replayed on the engine, which must reach the same states with
the same events.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from cantstop import Event, Rules, format_state, new_game, parse_action
from cantstop.actions import Action as EngineAction
from dicekit.proofs.results import Check
from dicekit.proofs.solver import Z3, Outcome, Solver, Term, int_var
from proofs.checks import action_text, fresh_action
from proofs.model import Model
from proofs.properties import Step
from proofs.render import state_text
from proofs.state import OVER, TRANSITIONS, Config, Vars

__all__ = ["BMC_RULES", "GOALS", "MAX_DEPTH", "Trace", "find_trace", "run_bmc"]

#: The board of the traces: two players, five short columns, the standard target of 3.
BMC_RULES = Rules(players=2, heights={4: 2, 6: 2, 7: 3, 8: 2, 10: 2})

#: The deepest trace searched: a win on :data:`BMC_RULES` takes at least seven steps.
MAX_DEPTH = 7

_EVENTS = {
    "roll": Event.ROLLED,
    "bust": Event.BUSTED,
    "move": Event.MOVED,
    "stop": Event.STOPPED,
    "win": Event.WON,
}


@dataclass
class Trace:
    """A trace found by the solver: states, actions and transition names."""

    #: The states, from the opening state on; one more than there are actions.
    states: list[str]
    #: The actions in the notation (N2).
    actions: list[str]
    #: The model's transition for each action.
    transitions: list[str]

    def text(self) -> str:
        """Return the trace as ``state --action (transition)--> state ...``."""
        parts = [self.states[0]]
        for action, name, state in zip(
            self.actions, self.transitions, self.states[1:], strict=True
        ):
            parts.append(f"--{action} ({name})--> {state}")
        return " ".join(parts)

    def replay(self, rules: Rules) -> list[str]:
        """Replay the trace on the engine; return the differences (empty if none)."""
        problems = []
        state = new_game(rules)
        if format_state(state) != self.states[0]:
            problems.append(f"opening: engine {format_state(state)}, trace {self.states[0]}")
        for i, (text, name) in enumerate(zip(self.actions, self.transitions, strict=True)):
            action: EngineAction = parse_action(text)
            try:
                step = state.step(action)
            except ValueError as exc:
                problems.append(f"step {i + 1}: the engine refuses {text}: {exc}")
                break
            if step.event is not _EVENTS[name]:
                problems.append(f"step {i + 1}: engine {step.event.value}, model {name}")
            if format_state(step.state) != self.states[i + 1]:
                problems.append(
                    f"step {i + 1}: engine {format_state(step.state)}, model {self.states[i + 1]}"
                )
            state = step.state
        return problems


Goal = Callable[[Model, list[tuple[Vars, Term, Step]], Vars], Term]


def _bust_now(model: Model, steps: list[tuple[Vars, Term, Step]], last: Vars) -> Term:
    return steps[-1][1] == TRANSITIONS.index("bust")


def _double_now(model: Model, steps: list[tuple[Vars, Term, Step]], last: Vars) -> Term:
    o = model.ops
    before, kind, _ = steps[-1]
    on_top = o.count(before.markers[c] == model.height(c) for c in model.config.columns)
    stopping = o.any([kind == TRANSITIONS.index("stop"), kind == TRANSITIONS.index("win")])
    return o.all([stopping, on_top >= 2])


def _won_now(model: Model, steps: list[tuple[Vars, Term, Step]], last: Vars) -> Term:
    return last.phase == OVER


#: The goals: a bust, a stop that wins two columns at once, and a won game.
GOALS: dict[str, tuple[str, Goal]] = {
    "bust": ("R10.1 a bust is reachable", _bust_now),
    "double": ("R11.3 a stop that wins two columns is reachable", _double_now),
    "win": ("R12.1 a win is reachable", _won_now),
}


def find_trace(
    goal: str, rules: Rules = BMC_RULES, max_depth: int = MAX_DEPTH
) -> tuple[Trace | None, int]:
    """Return the shortest trace to ``goal`` (a key of :data:`GOALS`) and its depth.

    Returns ``(None, max_depth)`` if there is none up to ``max_depth`` steps.
    """
    model = Model(Config.of(rules), Z3)
    o = model.ops
    check = GOALS[goal][1]
    solver = Solver()
    first = model.fresh("s0")
    solver.add(model.equal(first, model.initial(0)))
    current = first
    steps: list[tuple[Vars, Term, Step]] = []
    for depth in range(1, max_depth + 1):
        action = fresh_action(f"a{depth}")
        kind = int_var(f"kind{depth}")
        following = model.fresh(f"s{depth}")
        options = []
        taken: Step | None = None
        for number, name in enumerate(TRANSITIONS):
            step = Step(current, action, action.transition(model, current, name))
            options.append(
                o.all([kind == number, step.transition.guard, model.equal(following, step.after)])
            )
            if taken is None:
                taken = step
        solver.add(o.any(options))
        assert taken is not None
        steps.append((current, kind, taken))
        found = solver.check(check(model, steps, following))
        if found.status == "sat":
            states = [s for s, _, _ in steps] + [following]
            return _trace(model, found, steps, states), depth
        current = following
    return None, max_depth


def _trace(
    model: Model, found: Outcome, steps: list[tuple[Vars, Term, Step]], states: list[Vars]
) -> Trace:
    config = model.config
    texts = [state_text(config, s.map(found.value)) for s in states]
    actions, names = [], []
    for before, kind, step in steps:
        name = TRANSITIONS[found.value(kind)]
        chosen = Step(before, step.action, step.action.transition(model, before, name))
        actions.append(action_text(model, found, chosen))
        names.append(name)
    return Trace(texts, actions, names)


def run_bmc(rules: Rules = BMC_RULES, max_depth: int = MAX_DEPTH) -> Iterator[Check]:
    """Find and replay a trace for every goal; the result is ``witness`` when both succeed."""
    config_name = "bmc " + state_text(Config.of(rules), Model(Config.of(rules), Z3).initial(0))
    for goal, (name, _) in GOALS.items():
        start = time.perf_counter()
        trace, depth = find_trace(goal, rules, max_depth)
        seconds = time.perf_counter() - start
        if trace is None:
            yield Check(
                f"{name} | bmc",
                "bmc",
                name,
                None,
                config_name,
                "unknown",
                seconds,
                f"no trace within {depth} steps",
            )
            continue
        problems = trace.replay(rules)
        result = "witness" if not problems else "counterexample"
        detail = f"{depth} steps: {trace.text()}"
        if problems:
            detail += " | engine replay differs: " + "; ".join(problems)
        else:
            detail += " | replayed on the engine"
        yield Check(f"{name} | bmc", "bmc", name, None, config_name, result, seconds, detail)
