"""The interface a game's conformance suite hands to the game-neutral harness.

The harness runs vector files, talks to a port and ranks suspect rules for
any game; what it needs to know of the game is one :class:`GameSuite` value:
the name its vector files carry, the game's name, the protocol version, a check for each kind
of case, what a port may declare in ``hello``, and how the failing cases of a
kind are asked again for the diagnosis.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = ["Ask", "Blame", "Case", "Check", "Evidence", "GameSuite", "Message", "Requester"]

#: One case of a vector file, as JSON.
Case = dict[str, Any]
#: One request or answer of the protocol, as JSON.
Message = dict[str, Any]


class Requester(Protocol):
    """What a check talks to: a port (:class:`~dicekit.conformance.port.Port`)."""

    def request(self, message: Message) -> Message:
        """Send one request and return the answer; raise ``PortFailure`` if the port breaks."""
        ...


#: Runs one case against a port; raises ``Mismatch`` or ``PortFailure``.
Check = Callable[[Requester, Case], None]
#: Sends one request to the port and returns its answer, or ``None`` if the port broke.
Ask = Callable[[Message], Message | None]
#: The share of a failure each rule explains.
Blame = dict[str, float]


@dataclass(frozen=True, slots=True)
class Evidence:
    """What a failing case shows when asked again: the parts that differ and their rules."""

    #: The case's id.
    case: str
    #: The share of the failure each rule explains; the shares add up to 1.
    blame: Blame
    #: What differs, in a few words.
    what: str
    #: The state the request is about, in the notation ("" for none).
    state: str = ""
    #: The request that shows the difference, the expected answer and the port's.
    request: Message = field(default_factory=dict)
    expected: Any = None
    got: Any = None


class GameSuite(Protocol):
    """What the game-neutral harness needs from a game's conformance suite."""

    @property
    def name(self) -> str:
        """The name every vector file carries (``"cantstop-conformance"``)."""
        ...

    @property
    def game(self) -> str:
        """The game's name (``info.name``), which the harness's ``hello`` and a port name."""
        ...

    @property
    def title(self) -> str:
        """The words a summary puts before ``suite vN`` (the game's name), or ``""`` for none."""
        ...

    @property
    def accepts_unnamed(self) -> bool:
        """Whether a port whose ``hello`` names no game is taken for this game (older ports)."""
        ...

    @property
    def protocol(self) -> int:
        """The protocol version the harness sends in ``hello`` and expects back."""
        ...

    @property
    def checks(self) -> Mapping[str, Check]:
        """The check of each kind of case."""
        ...

    @property
    def weights(self) -> Mapping[str, float]:
        """The weight of a failing case of each kind in the ranking (1 when absent)."""
        ...

    @property
    def evidence_limits(self) -> Mapping[str, int]:
        """How many failing cases of each kind the diagnosis asks again, at most."""
        ...

    @property
    def default_limit(self) -> int:
        """How many failing cases of a kind not in ``evidence_limits`` are asked again."""
        ...

    def supports_problem(self, supports: Mapping[str, Any]) -> str | None:
        """Say what is wrong with the ``supports`` object of a ``hello`` answer, or ``None``."""
        ...

    def lacking(self, hello: Message | None, needs: Sequence[str]) -> str | None:
        """Return the first of ``needs`` the port did not declare, or ``None``."""
        ...

    def need_words(self, need: str) -> str:
        """Return how a summary names a need of a case (``the capability explain``)."""
        ...

    def evidence(self, case: Case, ask: Ask) -> Evidence | None:
        """Ask the requests of a failing case again; return what differs and its rules."""
        ...

    def rule_titles(self) -> Mapping[str, str]:
        """Return the title of every rule of the game's spec, by id."""
        ...
