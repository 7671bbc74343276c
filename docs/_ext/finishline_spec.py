"""Sphinx extension: the finish-line race's spec on the site, in the pages under ``finishline/``.

The game's :class:`~dicekit_site.LayerSpec` (spec read and examples run by
:mod:`dicekit.spec` on :data:`finishline.GAME`, states drawn by the game)
is registered with :mod:`specsite` under the prefix ``finishline``:
configuration values ``finishline_spec_dir``, ``finishline_proof_results``
and ``finishline_pages``, directives ``finishline-example-keys`` and
``finishline-proof-results``.  Whole-roll counts are shown with the chance
of a forfeit, over the 36 ordered rolls of two dice.  The directive
``finishline-board`` draws a state given in notation.
"""

from __future__ import annotations

from typing import Any

from dicekit_site import LayerSpec, chance_note, position_directive
from specsite import setup_site
from sphinx.application import Sphinx

from finishline import GAME

__all__ = ["SITE_GAME", "setup"]

#: The finish-line race as the spec extension shows it.
SITE_GAME = LayerSpec(GAME, {"perft": chance_note("forfeits", 36, "forfeit chance")})


def setup(app: Sphinx) -> dict[str, Any]:
    """Put the finish-line race's spec on the pages under ``finishline/``; return the metadata."""
    setup_site(app, SITE_GAME, "finishline", pages="finishline/")
    app.add_directive("finishline-board", position_directive(GAME))
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
