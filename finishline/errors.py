"""The errors of the finish-line race: the layer's rule errors, and a shape error for action values.

Every refusal names the spec rule it enforces (``finishline/spec/``).  The
classes are those of :mod:`dicekit.errors`, so that the layer's tools report
this game's refusals like any other game's; :class:`InvalidActionValue` adds
the refusal of an action value of the wrong shape, such as a roll of three
dice.
"""

from __future__ import annotations

from dicekit import quote
from dicekit.errors import *  # noqa: F403  (every error of the layer is the game's)
from dicekit.errors import RuleError
from dicekit.errors import __all__ as _LAYER_ERRORS

__all__ = [*_LAYER_ERRORS, "InvalidActionValue", "brief"]


class InvalidActionValue(RuleError):
    """An action value of the wrong shape, such as a die showing 7 or a play of three dice.

    >>> from finishline.actions import Roll
    >>> Roll((3, 7))
    Traceback (most recent call last):
    ...
    finishline.errors.InvalidActionValue: a die shows 1 to 6, not 7 (rule R4.1)
    """


def brief(value: object, width: int = 40) -> str:
    """Return a short quote of ``value`` for an error message, as JSON writes it when it can.

    A long text or a deep or long container is cut, so that a hostile value
    can be named in one line; the function never raises.  The layer's
    :func:`dicekit.quote.brief_json`, two levels deep.

    >>> brief('C2'), brief(True), brief(None), brief([1, 2, 3])
    ('"C2"', 'true', 'null', '[1, 2, 3]')
    >>> brief('x' * 100)
    '"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…" (100 characters)'
    >>> brief(10**40), brief(10**5000)
    ('10000…00000 (41 digits)', '10000…00000 (5,001 digits)')
    """
    return quote.brief_json(value, width, depth=2)
