"""A port with switchable single-rule bugs, for measuring how well the suite names a rule.

``cantstop serve --mutant NAME`` speaks the protocol of ``spec/protocol.md``
like ``cantstop serve``, but with one rule implemented wrongly: the bug
:data:`MUTANTS` names.  Each bug is one that a port author can plausibly make
(several are found in published implementations of the game), and each
belongs to one rule, the *rule at fault*.  The seeded-bug study
(:mod:`cantstop.conformance.study`) runs the conformance suite against every
mutant and records whether the suite catches the bug and where the diagnosis
ranks the rule at fault.

The mutant port reads states and actions with the reference reader, then
plays them with a small rules implementation of its own, written on plain
values so that a bug can produce the states a buggy port would print (four
markers, a marker above the top space).  With no bug it answers exactly as the
reference does.

>>> port = MutantPort("forced-play")
>>> port.handle({"seq": 1, "op": "moves", "state": "-/- - 0c3455"})["moves"]
['7', '7+10', '8', '8+9', '9', '10']
>>> MutantPort(None).handle({"seq": 1, "op": "moves", "state": "-/- - 0c3455"})["moves"]
['7+10', '8+9']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from cantstop.actions import Action, Move, Roll, Stop
from cantstop.dice import ORDERED_ROLLS, pairings, sorted_dice
from cantstop.errors import CantStopError, IllegalAction, NotationError, RuleError
from cantstop.game import DROP_RULES, Phase, Play, State, new_game
from cantstop.jsonform import (
    action_from_json,
    rules_from_json,
    rules_to_json,
    state_from_json,
)
from cantstop.notation import format_action, format_state, parse_action, parse_state
from cantstop.rules import MARKERS, STANDARD_HEIGHTS, Rules, Variant

__all__ = ["MUTANTS", "Mutant", "MutantPort"]

Message = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Mutant:
    """One seeded bug: its name, the rule it breaks and what the port does wrong.

    >>> MUTANTS["top-advances"].rule
    'R8.1'
    """

    #: The name given to ``cantstop serve --mutant``.
    name: str
    #: The rule at fault: the spec rule the bug breaks.
    rule: str
    #: What the port gets wrong, in one line.
    summary: str


_LIST = (
    Mutant("short-columns", "R1.1", "every column of the standard board is one space short"),
    Mutant("first-player-ignored", "R2.2", "a new game always starts with player 0"),
    Mutant("turn-passes-backwards", "R2.3", "the turn passes to the previous player"),
    Mutant("stop-with-dice-on-table", "R3.3", "a stop is accepted before the roll is played"),
    Mutant("two-pairings", "R4.2", "only two of the three pairings of the dice are considered"),
    Mutant("placed-on-space-one", "R5.2", "a placed marker goes on space 1, ignoring own squares"),
    Mutant("four-markers", "R5.3", "a fourth marker can be placed"),
    Mutant("forced-play", "R6.1", "either sum may be played alone when both can be played"),
    Mutant("two-new-columns", "R6.3", "with one free marker for two new columns, only the first"),
    Mutant("moves-listed-twice", "R6.6", "a move offered by two pairings is listed twice"),
    Mutant("double-on-new-column", "R7.2", "equal sums on a new column place the marker only"),
    Mutant("double-past-top", "R7.3", "equal sums offer both steps when the first reaches the top"),
    Mutant("top-advances", "R8.1", "a marker on the top space can still advance"),
    Mutant("won-column-open", "R9.2", "a won column stays open to the players who lost it"),
    Mutant("won-column-not-cleared", "R9.3", "winning a column leaves the others' squares in it"),
    Mutant("bust-on-first-pairing", "R10.1", "a roll busts when its first pairing plays nothing"),
    Mutant("bust-keeps-turn", "R10.2", "after a bust the same player rolls again"),
    Mutant("stop-before-rolling", "R11.1", "a stop is accepted at the start of a turn"),
    Mutant("squares-stay-low", "R11.2", "a stop does not move a square that is already there"),
    Mutant("win-needs-one-more", "R12.1", "the game is won only with one column more than needed"),
    Mutant("shared-space-skips", "R13.1", "markers skip other players' squares without Variant A"),
    Mutant(
        "variant-a-skips-once", "R14.1", "under Variant A only a placement skips, not an advance"
    ),
    Mutant("variant-b-ignored", "R14.2", "under Variant B a stop on a shared space is accepted"),
    Mutant("columns-to-win-ignored", "R15.2", "the game is always won with three columns"),
    Mutant("marker-on-own-square", "R16.3", "a state whose marker is not above the square is read"),
    Mutant("markers-in-play-order", "N1.3", "markers are written in the order they were placed"),
    Mutant("roll-text-sorted", "N2.2", "a roll is written with its dice sorted"),
    Mutant("json-needs-won", "N3.1", "the JSON reader refuses a state without won and winner"),
    Mutant("json-double-once", "N3.2", "the JSON form of a move 7+7 lists the column once"),
)

#: Every seeded bug, by name.
MUTANTS: Mapping[str, Mutant] = {m.name: m for m in _LIST}


@dataclass(frozen=True, slots=True)
class _Pos:
    """A position as the mutant port keeps it: plain values, in the order it built them."""

    rules: Rules
    player: int
    phase: Phase
    dice: tuple[int, ...] | None
    #: Column and space of each marker, in the order the port placed them.
    markers: tuple[tuple[int, int], ...]
    squares: tuple[tuple[tuple[int, int], ...], ...]
    #: The options of the state's text (N1.5), which the port writes back unchanged.
    options: tuple[str, ...]


_LETTERS = {Phase.ROLL: "r", Phase.CHOOSE: "c", Phase.DECIDE: "d", Phase.OVER: "x"}
_RULE_OF_PLAY = {Play.ADVANCE: "R5.1", Play.PLACE: "R5.2", **DROP_RULES}


class _Refused(Exception):
    """A request the mutant port refuses: rule and reason, as in a protocol error."""

    def __init__(self, rule: str | None, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message


class MutantPort:
    """The protocol answered with the bug ``name`` switched on (``None``: no bug).

    :meth:`handle` answers one request object, as :func:`cantstop.conformance.serve.handle`.
    """

    def __init__(self, name: str | None) -> None:
        if name is not None and name not in MUTANTS:
            raise ValueError(f"no seeded bug is called {name!r}; see cantstop serve --help")
        self.bug = name
        # What the port works out about one position, kept while it answers one request.
        self._for: _Pos | None = None
        self._won_memo: dict[int, int] = {}
        self._moves_memo: dict[tuple[int, ...], list[tuple[int, ...]]] = {}

    # -- the protocol ------------------------------------------------------------

    def handle(self, request: object) -> Message:
        """Return the response to one request object (see ``spec/protocol.md``)."""
        if not isinstance(request, dict):
            return {"seq": None, "ok": False, "error": {"rule": None, "message": "not an object"}}
        seq = request.get("seq")
        op = request.get("op")
        ops: dict[str, Callable[[Message], Message]] = {
            "hello": self._hello,
            "new": self._new,
            "state": self._state,
            "action": self._action,
            "moves": self._moves_op,
            "apply": self._apply_op,
            "rolls": self._rolls_op,
            "perft": self._perft_op,
            "quit": lambda request: {},
        }
        answer = ops.get(op) if isinstance(op, str) else None
        try:
            if answer is None:
                raise _Refused(None, f"unknown op {op!r}")
            result = answer(request)
        except (RuleError, IllegalAction) as exc:
            return {"seq": seq, "ok": False, "error": {"rule": exc.rule, "message": str(exc)}}
        except NotationError as exc:
            error: Message = {"rule": exc.rule, "message": str(exc)}
            if op in ("state", "action") and "text" in request:
                error["at"] = exc.position
            return {"seq": seq, "ok": False, "error": error}
        except _Refused as exc:
            return {"seq": seq, "ok": False, "error": {"rule": exc.rule, "message": exc.message}}
        except CantStopError as exc:
            return {"seq": seq, "ok": False, "error": {"rule": None, "message": str(exc)}}
        return {"seq": seq, "ok": True, **result}

    def _hello(self, request: Message) -> Message:
        name = "cantstop reference engine (Python)"
        if self.bug is not None:
            name += f" with the seeded bug {self.bug}"
        return {
            "protocol": 1,
            "name": name,
            "supports": {"players": [1, 2, 3, 4], "variants": ["A", "B"], "heights": True},
        }

    def _new(self, request: Message) -> Message:
        rules = rules_from_json(request.get("rules", {}))
        first = request.get("first_player", 0)
        if self.bug == "first-player-ignored":
            first = 0
        return {"state": self._text(self._pos(new_game(rules, first)))}

    def _state(self, request: Message) -> Message:
        if "json" in request:
            data = request["json"]
            if self.bug == "json-needs-won" and isinstance(data, dict):
                for key in ("won", "winner"):
                    if key not in data:
                        raise _Refused("N3.1", f"a state needs {key!r}")
            pos = self._pos(state_from_json(data))
        else:
            text = _string(request, "text")
            try:
                pos = self._read(text)
            except NotationError as exc:
                if self.bug == "marker-on-own-square" and exc.rule == "R16.3":
                    return {"state": text, "json": None}
                raise
        return {"state": self._text(pos), "json": self._json(pos)}

    def _action(self, request: Message) -> Message:
        if "json" in request:
            action = action_from_json(request["json"])
        else:
            action = parse_action(_string(request, "text"))
        text = format_action(action)
        json: Message
        if isinstance(action, Roll):
            dice = list(action.dice)
            if self.bug == "roll-text-sorted":
                text = "r" + "".join(map(str, sorted(dice)))
            json = {"type": "roll", "dice": dice}
        elif isinstance(action, Move):
            columns = list(action.columns)
            if self.bug == "json-double-once":
                columns = sorted(set(columns))
            json = {"type": "move", "columns": columns}
        else:
            json = {"type": "stop"}
        return {"action": text, "json": json}

    def _moves_op(self, request: Message) -> Message:
        pos = self._read(_string(request, "state"))
        if pos.dice is None:
            return {"moves": []}
        return {"moves": [_move_text(m) for m in self.moves(pos, pos.dice)]}

    def _apply_op(self, request: Message) -> Message:
        pos = self._read(_string(request, "state"))
        action = parse_action(_string(request, "action"))
        after, event = self.step(pos, action)
        return {"state": self._text(after), "event": event}

    def _rolls_op(self, request: Message) -> Message:
        pos = self._read(_string(request, "state"))
        if pos.phase not in (Phase.ROLL, Phase.DECIDE):
            raise _Refused("R3.3", "only a state that is about to roll can roll")
        return {"moves": [[_move_text(m) for m in self._roll_moves(pos, r)] for r in ORDERED_ROLLS]}

    def _perft_op(self, request: Message) -> Message:
        pos = self._read(_string(request, "state"))
        if pos.phase not in (Phase.ROLL, Phase.DECIDE):
            raise _Refused("R3.3", "whole-roll counts need a state that is about to roll")
        table = [self._roll_moves(pos, r) for r in ORDERED_ROLLS]
        return {"choices": sum(map(len, table)), "busts": sum(not m for m in table)}

    def _roll_moves(self, pos: _Pos, roll: Roll) -> list[tuple[int, ...]]:
        if self._busts(pos, roll.dice):
            return []
        return self.moves(pos, sorted_dice(roll.dice))

    # -- reading and writing -------------------------------------------------------

    def _read(self, text: str) -> _Pos:
        pos = self._pos(parse_state(text))
        heights = self._heights(pos.rules)
        for column, space in [*pos.markers, *(cell for s in pos.squares for cell in s)]:
            if space > heights[column]:
                raise NotationError(
                    f"space {space} is above the top of column {column}", text, 0, "R16.2"
                )
        return pos

    @staticmethod
    def _pos(state: State) -> _Pos:
        return _Pos(
            state.rules,
            state.player,
            state.phase,
            state.dice,
            tuple(state.markers.items()),
            tuple(tuple(s.items()) for s in state.squares),
            tuple(format_state(state).split(" ")[3:]),
        )

    def _text(self, pos: _Pos) -> str:
        markers = pos.markers if self.bug == "markers-in-play-order" else sorted(pos.markers)
        dice = "".join(map(str, pos.dice)) if pos.dice is not None else ""
        return " ".join(
            [
                "/".join(_cells(sorted(s)) for s in pos.squares),
                _cells(markers),
                f"{pos.player}{_LETTERS[pos.phase]}{dice}",
                *pos.options,
            ]
        )

    def _json(self, pos: _Pos) -> Message:
        won = self._won(pos)
        counts = [sum(owner == p for owner in won.values()) for p in range(pos.rules.players)]
        winners = [p for p, n in enumerate(counts) if n >= pos.rules.columns_to_win]
        return {
            "rules": rules_to_json(pos.rules),
            "player": pos.player,
            "phase": pos.phase.value,
            "dice": None if pos.dice is None else list(pos.dice),
            "markers": {str(c): v for c, v in pos.markers},
            "squares": [{str(c): v for c, v in sorted(s)} for s in pos.squares],
            "won": {str(c): p for c, p in sorted(won.items())},
            "winner": winners[0] if winners else None,
        }

    # -- the rules, with the bug switched in -----------------------------------------

    def _heights(self, rules: Rules) -> Mapping[int, int]:
        if self.bug == "short-columns" and rules.heights == STANDARD_HEIGHTS:
            return {c: h - 1 for c, h in STANDARD_HEIGHTS.items()}
        return rules.heights

    def _remember(self, pos: _Pos) -> None:
        if pos is not self._for:
            self._for = pos
            heights = self._heights(pos.rules)
            self._won_memo = {
                c: p for p, s in enumerate(pos.squares) for c, v in s if v == heights[c]
            }
            self._moves_memo = {}

    def _won(self, pos: _Pos) -> dict[int, int]:
        self._remember(pos)
        return self._won_memo

    def _next(self, pos: _Pos) -> int:
        step = -1 if self.bug == "turn-passes-backwards" else 1
        return (pos.player + step) % pos.rules.players

    def _play(self, pos: _Pos, markers: Mapping[int, int], column: int) -> tuple[Play, int]:
        """Return what a sum for ``column`` does, and where its marker lands (R5.3's order)."""
        height = self._heights(pos.rules).get(column)
        if height is None:
            return Play.NO_COLUMN, 0
        owner = self._won(pos).get(column)
        if owner is not None and not (self.bug == "won-column-open" and owner != pos.player):
            return Play.WON, 0
        if column in markers:
            if markers[column] >= height and self.bug != "top-advances":
                return Play.TOP, 0
            return Play.ADVANCE, self._land(pos, column, markers[column] + 1, advancing=True)
        if len(markers) >= MARKERS and self.bug != "four-markers":
            return Play.NO_MARKER, 0
        own = dict(pos.squares[pos.player]).get(column, 0)
        if self.bug == "placed-on-space-one":
            own = 0
        return Play.PLACE, self._land(pos, column, own + 1, advancing=False)

    def _land(self, pos: _Pos, column: int, space: int, *, advancing: bool) -> int:
        skips = pos.rules.variant is Variant.A or self.bug == "shared-space-skips"
        if self.bug == "variant-a-skips-once" and advancing:
            skips = False
        if skips:
            taken = {dict(s).get(column) for p, s in enumerate(pos.squares) if p != pos.player}
            while space in taken:
                space += 1
        return space

    def _pairings(self, dice: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
        a, b, c, d = dice
        found = pairings((a, b, c, d))
        return found[:2] if self.bug == "two-pairings" else found

    def _offers(self, pos: _Pos, a: int, b: int) -> list[tuple[int, ...]]:
        """Return the moves one pairing offers (R6, R7)."""
        markers = dict(pos.markers)
        first, at = self._play(pos, markers, a)
        if a == b:
            if not first.plays:
                return []
            second = self._play(pos, {**markers, a: at}, a)[0]
            return [(a, a)] if second.plays or self.bug == "double-past-top" else [(a,)]
        other = self._play(pos, markers, b)[0]
        if first.plays and other.plays:
            if self._play(pos, {**markers, a: at}, b)[0].plays:
                return [(a, b), (a,), (b,)] if self.bug == "forced-play" else [(a, b)]
            return [(a,)] if self.bug == "two-new-columns" else [(a,), (b,)]
        return [(c,) for c, play in ((a, first), (b, other)) if play.plays]

    def moves(self, pos: _Pos, dice: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Return the legal moves of ``dice`` in ``pos``, as the mutant port lists them."""
        self._remember(pos)
        if dice not in self._moves_memo:
            offered = [m for a, b in self._pairings(dice) for m in self._offers(pos, a, b)]
            # A move that two pairings offer is one move (R6.6), unless the bug lists it twice.
            twice = self.bug == "moves-listed-twice"
            self._moves_memo[dice] = sorted(offered) if twice else sorted(set(offered))
        return self._moves_memo[dice]

    def _busts(self, pos: _Pos, thrown: tuple[int, int, int, int]) -> bool:
        if self.bug == "bust-on-first-pairing":
            return not self._offers(pos, *pairings(thrown)[0])
        return not self.moves(pos, sorted_dice(thrown))

    def step(self, pos: _Pos, action: Action) -> tuple[_Pos, str]:
        """Return the position after ``action`` and the event's name."""
        if isinstance(action, Roll):
            return self._roll(pos, action)
        if isinstance(action, Move):
            return self._move(pos, action)
        assert isinstance(action, Stop)
        return self._stop(pos)

    def _roll(self, pos: _Pos, roll: Roll) -> tuple[_Pos, str]:
        if pos.phase is Phase.CHOOSE:
            raise _Refused("R3.3", "the dice on the table must be played before rolling again")
        if pos.phase is Phase.OVER:
            raise _Refused("R12.3", "the game is over")
        if self._busts(pos, roll.dice):
            player = pos.player if self.bug == "bust-keeps-turn" else self._next(pos)
            return replace(pos, player=player, phase=Phase.ROLL, markers=()), "busted"
        return replace(pos, phase=Phase.CHOOSE, dice=sorted_dice(roll.dice)), "rolled"

    def _move(self, pos: _Pos, move: Move) -> tuple[_Pos, str]:
        refusals = {
            Phase.ROLL: ("R3.2", "a move needs dice: the turn starts with a roll"),
            Phase.DECIDE: ("R3.4", "the roll has been played: roll again or stop"),
            Phase.OVER: ("R12.3", "the game is over"),
        }
        if pos.dice is None:
            raise _Refused(*refusals[pos.phase])
        if move.columns not in self.moves(pos, pos.dice):
            raise _Refused(self._why(pos, move), f"{format_action(move)} is not a legal move")
        markers = dict(pos.markers)
        placed: set[int] = set()
        for column in move.columns:
            play, at = self._play(pos, markers, column)
            if not play.plays or (self.bug == "double-on-new-column" and column in placed):
                continue
            if play is Play.PLACE:
                placed.add(column)
            markers[column] = at
        return replace(pos, phase=Phase.DECIDE, dice=None, markers=tuple(markers.items())), "moved"

    def _why(self, pos: _Pos, move: Move) -> str:
        """Return the rule the mutant port names for a move it refuses."""
        assert pos.dice is not None
        cols = move.columns
        matching = [
            pair
            for pair in self._pairings(pos.dice)
            if pair == cols or (len(cols) == 1 and cols[0] in pair)
        ]
        if not matching:
            return "R4.3"
        markers = dict(pos.markers)
        for step, column in enumerate(cols):
            play, at = self._play(pos, markers, column)
            if not play.plays:
                if step == 1 and len(set(cols)) == 1:
                    return "R7.3"
                if step == 1 and self._play(pos, dict(pos.markers), column)[0].plays:
                    return "R6.3"
                return _RULE_OF_PLAY[play]
            markers[column] = at
        return "R7.1" if matching[0][0] == matching[0][1] else "R6.1"

    def _stop(self, pos: _Pos) -> tuple[_Pos, str]:
        if pos.phase is Phase.ROLL and self.bug != "stop-before-rolling":
            raise _Refused("R11.1", "a stop must follow a successful roll")
        if pos.phase is Phase.CHOOSE and self.bug != "stop-with-dice-on-table":
            raise _Refused("R3.3", "the dice on the table must be played before stopping")
        if pos.phase is Phase.OVER:
            raise _Refused("R12.3", "the game is over")
        me = pos.player
        squares = [dict(s) for s in pos.squares]
        if pos.rules.variant is Variant.B and self.bug != "variant-b-ignored":
            for column, space in pos.markers:
                if any(p != me and s.get(column) == space for p, s in enumerate(squares)):
                    raise _Refused("R14.2", "under Variant B no stop while a marker shares a space")
        heights = self._heights(pos.rules)
        for column, space in pos.markers:
            if self.bug == "squares-stay-low":
                squares[me].setdefault(column, space)
            else:
                squares[me][column] = space
            if space == heights[column] and self.bug != "won-column-not-cleared":
                for p, theirs in enumerate(squares):
                    if p != me:
                        theirs.pop(column, None)
        after = replace(
            pos,
            dice=None,
            markers=(),
            squares=tuple(tuple(sorted(s.items())) for s in squares),
        )
        held = sum(owner == me for owner in self._won(after).values())
        target = 3 if self.bug == "columns-to-win-ignored" else pos.rules.columns_to_win
        if self.bug == "win-needs-one-more":
            target += 1
        if held >= target:
            return replace(after, phase=Phase.OVER), "won"
        return replace(after, player=self._next(pos), phase=Phase.ROLL), "stopped"


def _cells(cells: list[tuple[int, int]] | tuple[tuple[int, int], ...]) -> str:
    return ",".join(f"{c}:{v}" for c, v in cells) or "-"


def _move_text(columns: tuple[int, ...]) -> str:
    return "+".join(map(str, columns))


def _string(request: Message, key: str) -> str:
    value = request.get(key)
    if not isinstance(value, str):
        raise _Refused(None, f"op {request.get('op')!r} needs {key!r} (str)")
    return value
