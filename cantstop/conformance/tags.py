"""The rule tags of the conformance vectors, kept at this path: see :mod:`cantstop.tags`.

Every public name of :mod:`cantstop.tags` is here, the same object.

>>> from cantstop import tags
>>> action_rules is tags.action_rules
True
"""

from cantstop.tags import *  # noqa: F403  (this path re-exports the module whole)
from cantstop.tags import __all__ as __all__
