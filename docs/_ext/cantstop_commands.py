r"""Sphinx extension: a ``cantstop`` command line, run while the page is read, with its output.

The directive ``cantstop-command`` takes one command line as its argument,
runs it through :func:`cantstop.cli.main` in the build's own process and
shows the line and what it printed, stdout then stderr.  The option
``:status:`` is the exit status the page expects (0 when it is left out):
a command that exits otherwise fails the build, as does a line that is not
a ``cantstop`` command.  So every example on a page is what the command
prints today.

>>> run_command("cantstop moves '-/- - 0c3455'")
(0, '7+10 8+9\n', '')
"""

from __future__ import annotations

import contextlib
import io
import shlex
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

__all__ = ["CommandExample", "run_command", "setup"]


def run_command(line: str) -> tuple[int, str, str]:
    """Run the ``cantstop`` command ``line``; return its exit status, stdout and stderr."""
    from cantstop.cli import main

    words = shlex.split(line)
    if not words or words[0] != "cantstop":
        raise ValueError(f"not a cantstop command: {line!r}")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(words[1:])
    return status, out.getvalue(), err.getvalue()


class CommandExample(SphinxDirective):
    """Run a ``cantstop`` command line and show it with its output; a wrong status fails."""

    required_arguments = 1
    final_argument_whitespace = True
    option_spec: ClassVar[dict[str, Any]] = {"status": directives.nonnegative_int}

    def run(self) -> list[nodes.Node]:
        """Return the command and its output as one literal block, run now."""
        line = self.arguments[0].strip()
        try:
            status, out, err = run_command(line)
        except ValueError as exc:
            raise self.error(str(exc)) from None
        expected = self.options.get("status", 0)
        if status != expected:
            raise self.error(f"{line} exits {status}, not {expected}: {(err or out).strip()[:300]}")
        text = f"$ {line}\n{out}{err}".rstrip("\n")
        block = nodes.literal_block(text, text)
        block["language"] = "text"
        return [block]


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the ``cantstop-command`` directive; return the extension's metadata."""
    app.add_directive("cantstop-command", CommandExample)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
