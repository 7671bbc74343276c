"""The held-out study of any game: a rule's one line deleted from a copy of its port, and its rank.

The seeded-bug studies (:mod:`dicekit.conformance.study`) measure the
diagnosis on the bugs it was tuned on.  A held-out study measures it on bugs
written apart from them: for every rule that decides something, the one
line of the game's JavaScript port that carries the rule is deleted
(:class:`Deletion`, listed in ``heldout-bugs.json`` beside the suite's
versions), the suite runs against the port so changed, and the study
records where the diagnosis ranks the rule at fault.  The targets are those
of the seeded bugs: every deletion caught, the rule at fault first for
:data:`~dicekit.conformance.study.FIRST_SHARE` of them and among the first
:data:`~dicekit.conformance.study.TOP` for all.

A port is copied whole for each deletion (:func:`copy_port`, with the
shared line protocol beside it, as each port's README copies it), so the
port in the checkout is never changed.  :class:`HeldOutStudy` is the study
of one game's port and its command line, ``python -m GAME.study --held-out
[--json FILE] [--bug NAME] [--markdown]`` (:func:`port_heldout`), whose results file
``heldout.json`` the game's port guide prints as a table
(:func:`~dicekit.conformance.study.markdown_lines`).

>>> d = Deletion("no-bust", "R10.1", "rules.js", "if (busted) return bust();", "never busts")
>>> d.file, d.rule
('rules.js', 'R10.1')
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dicekit.conformance.study import (
    FIRST_SHARE,
    TOP,
    Outcome,
    PortStudy,
    missed_status,
    run_study,
    study_arguments,
    table_lines,
)
from dicekit.conformance.suite import Case, GameSuite

__all__ = [
    "LINEPROTO",
    "Deletion",
    "HeldOutStudy",
    "copy_port",
    "delete_line",
    "heldout_markdown",
    "load_deletions",
    "port_heldout",
]

#: The line protocol every JavaScript port shares (``dicekit/ports/javascript/``).
LINEPROTO = Path(__file__).resolve().parent.parent / "ports" / "javascript" / "lineproto.js"


@dataclass(frozen=True, slots=True)
class Deletion:
    """A held-out bug: the deletion of one line of a port, which breaks one rule."""

    #: The bug's name.
    name: str
    #: The rule at fault.
    rule: str
    #: The port's file that holds the line, relative to the port's folder.
    file: str
    #: The line deleted, without the white space around it.
    line: str
    #: What the port does without it.
    description: str
    #: Which of the file's lines equal to ``line`` is deleted, from 1; ``None``: the only one.
    occurrence: int | None = None


def load_deletions(path: Path) -> tuple[Deletion, ...]:
    """Return the held-out bugs listed in ``path`` (a ``heldout-bugs.json``), in its order.

    The file is an object whose ``bugs`` lists objects with the fields of
    :class:`Deletion`; a name listed twice is a ``ValueError``.
    """
    data = json.loads(path.read_text(encoding="utf-8"))
    found = tuple(
        Deletion(b["name"], b["rule"], b["file"], b["line"], b["description"], b.get("occurrence"))
        for b in data["bugs"]
    )
    names = [d.name for d in found]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"{path}: held-out bugs listed twice: {', '.join(twice)}")
    return found


def copy_port(port: Path, into: Path, extras: Sequence[Path] = ()) -> Path:
    """Copy the port folder ``port`` to ``into`` as its README says; return the copy.

    The shared line protocol (:data:`LINEPROTO`) goes beside the port's
    files, and so does each of ``extras`` (a file or folder the port reads
    beside itself in a copy, such as Off to the Tower's ``boards``).
    """
    shutil.copytree(port, into)
    shutil.copy2(LINEPROTO, into / LINEPROTO.name)
    for extra in extras:
        if extra.is_dir():
            shutil.copytree(extra, into / extra.name)
        else:
            shutil.copy2(extra, into / extra.name)
    return into


def delete_line(copy: Path, deletion: Deletion) -> None:
    """Delete ``deletion``'s line from the copy of a port at ``copy``.

    The line deleted is the file's line that, without the white space
    around it, is the deletion's line: the only one, or the
    ``occurrence``-th of several.  Raise ``ValueError`` when there is none,
    when there are several and no occurrence says which, or fewer than it says.
    """
    path = copy / deletion.file
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = [i for i, line in enumerate(lines) if line.strip() == deletion.line]
    nth = deletion.occurrence
    if (nth is None and len(at) != 1) or (nth is not None and not 1 <= nth <= len(at)):
        wanted = "once" if nth is None else f"at least {nth} times"
        raise ValueError(
            f"{deletion.name}: {deletion.file} holds the line {deletion.line!r} "
            f"{len(at)} times, not {wanted}"
        )
    del lines[at[0 if nth is None else nth - 1]]
    path.write_text("".join(lines), encoding="utf-8")


def heldout_markdown(data: Mapping[str, Any]) -> list[str]:
    r"""Return a held-out results file (``data``) as the port guide's Markdown.

    One row a deletion, with how many failing cases the port answered with an
    internal error; then the ranks counted over every deletion, and over the
    deletions caught after which the port still answers by the rules (no
    internal error); then the rules with no line to delete, each with why.

    >>> data = {"targets": {"top": 3}, "without_a_line": {"R4.5": "inline"}, "outcomes": [
    ...     Outcome("a", "R1.1", 10, 2, 1, ("R1.1",)).to_json("adds"),
    ...     Outcome("b", "R2.1", 10, 5, 4, ("R3.1", "R1.1"), 5).to_json("fails")]}
    >>> lines = heldout_markdown(data)
    >>> print("\n".join(lines[2:4]))
    | `a` | R1.1 | adds | 2 | 0 | 1 | R1.1 |
    | `b` | R2.1 | fails | 5 | 5 | 4 | R3.1 R1.1 |
    >>> print(lines[5])  # doctest: +NORMALIZE_WHITESPACE
    Of the 2 deletions, 2 are caught; the rule at fault comes first for 1 and among the
    first 3 for 1. Of the 1 caught after which the port answers by the rules (no internal
    error), it comes first for 1 and among the first 3 for 1.
    >>> lines[-1]
    'Rules that decide something but have no line of their own to delete: R4.5 (inline).'
    """
    outcomes = data["outcomes"]
    top = data["targets"]["top"]
    lines = [
        "| bug | rule at fault | what the deletion does | cases failed | internal errors | rank "
        "| first suspects |",
        "| --- | --- | --- | ---: | ---: | ---: | --- |",
    ]
    for o in outcomes:
        rank = "-" if o["rank"] is None else str(o["rank"])
        said = o["summary"].replace("|", "\\|")
        lines.append(
            f"| `{o['mutant']}` | {o['rule']} | {said} | {o['failed']} | {o.get('defects', 0)} "
            f"| {rank} | {' '.join(o['suspects'])} |"
        )

    def counts(chosen: Sequence[Mapping[str, Any]]) -> tuple[int, int]:
        first = sum(o["rank"] == 1 for o in chosen)
        return first, sum(o["rank"] is not None and o["rank"] <= top for o in chosen)

    caught = [o for o in outcomes if o["caught"]]
    answering = [o for o in caught if not o.get("defects")]
    first, within = counts(outcomes)
    clean_first, clean_within = counts(answering)
    lines += [
        "",
        f"Of the {len(outcomes)} deletions, {len(caught)} are caught; the rule at fault comes "
        f"first for {first} and among the first {top} for {within}. Of the {len(answering)} "
        "caught after which the port answers by the rules (no internal error), it comes first "
        f"for {clean_first} and among the first {top} for {clean_within}.",
    ]
    without = data.get("without_a_line", {})
    if without:
        said = "; ".join(f"{rule} ({why})" for rule, why in without.items())
        lines += [
            "",
            f"Rules that decide something but have no line of their own to delete: {said}.",
        ]
    return lines


@dataclass(frozen=True)
class HeldOutStudy:
    """The held-out study of a game's JavaScript port: its deletions, run and written down."""

    #: The game's name, for the command line (``python -m NAME.study``).
    name: str
    #: The game's conformance suite.
    suite: GameSuite
    #: The port's program, ``port.js``, in the port's folder.
    port: Path
    #: The held-out bugs' list (``heldout-bugs.json``) and the results file (``heldout.json``).
    bugs_path: Path
    results_path: Path
    #: Returns the version of the suite the study runs and its cases.
    cases: Callable[[], tuple[int, list[Case]]]
    #: Files or folders a copy of the port holds beside its own files.
    extras: tuple[Path, ...] = ()
    #: The command line that runs the study, as ``generated_by`` records it.
    prog: str = ""

    def deletions(self) -> tuple[Deletion, ...]:
        """Return the held-out bugs, in the order of their list."""
        return load_deletions(self.bugs_path)

    def without_a_line(self) -> dict[str, str]:
        """Return the rules that decide something with no line of the port to delete, and why."""
        data = json.loads(self.bugs_path.read_text(encoding="utf-8"))
        return dict(data.get("without_a_line", {}))

    def commands(self, into: Path, deletions: Sequence[Deletion]) -> dict[str, list[str]]:
        """Copy the port under ``into`` once per deletion, delete its line; return the commands."""
        node = shutil.which("node") or "node"
        out = {}
        for deletion in deletions:
            copy = copy_port(self.port.parent, into / deletion.name, self.extras)
            delete_line(copy, deletion)
            out[deletion.name] = [node, str(copy / self.port.name)]
        return out

    def run(
        self,
        names: Sequence[str] | None = None,
        *,
        jobs: int = 2,
        progress: Callable[[Outcome], None] | None = None,
    ) -> tuple[int, int, list[Outcome]]:
        """Run the study (of the bugs ``names``, else all); return version, cases and outcomes."""
        chosen = [d for d in self.deletions() if names is None or d.name in names]
        version, cases = self.cases()
        with tempfile.TemporaryDirectory(prefix="heldout-") as temporary:
            commands = self.commands(Path(temporary), chosen)
            outcomes = run_study(
                self.suite,
                cases,
                {d.name: d.rule for d in chosen},
                commands.__getitem__,
                jobs=jobs,
                progress=progress,
            )
        return version, len(cases), outcomes

    def results(
        self, outcomes: Sequence[Outcome], version: int, cases: int, command: str
    ) -> dict[str, Any]:
        """Return the results file of ``outcomes``, run on ``cases`` cases of ``version``."""
        by_name = {d.name: d for d in self.deletions()}
        rows = []
        for outcome in outcomes:
            d = by_name[outcome.mutant]
            rows.append({**outcome.to_json(d.description), "file": d.file, "line": d.line})
        return {
            "generated_by": command,
            "vectors": f"v{version}",
            "cases": cases,
            "targets": {"first_share": FIRST_SHARE, "top": TOP},
            "outcomes": rows,
            "without_a_line": self.without_a_line(),
        }

    def main(self, argv: Sequence[str] | None = None) -> int:
        """Run the held-out study, print its table, optionally write the results; return the status.

        Exit status: 0 when the targets are met, 1 when not, 2 for a usage
        error (no Node.js, an unknown bug), with one line on stderr.
        """
        prog = self.prog or f"python -m {self.name}.study --held-out"
        parser = study_arguments(
            prog,
            "Run the conformance suite against the port with each held-out bug "
            "(one line deleted) and rank the rule at fault.",
            [d.name for d in self.deletions()],
        )
        args = parser.parse_args(argv)
        if args.markdown:
            data = json.loads(self.results_path.read_text(encoding="utf-8"))
            print("\n".join(heldout_markdown(data)))
            return 0
        if shutil.which("node") is None:
            print(f"{prog}: error: Node.js (node) is not on PATH", file=sys.stderr)
            return 2
        version, count, outcomes = self.run(
            args.bug,
            jobs=args.jobs,
            progress=lambda o: print(f"{o.mutant}: rank {o.rank}", file=sys.stderr, flush=True),
        )
        for line in table_lines(outcomes):
            print(line)
        if args.json:
            command = f"{prog} --json {args.json.as_posix()}"
            data = self.results(outcomes, version, count, command)
            args.json.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        return missed_status(outcomes)


def port_heldout(study: PortStudy) -> HeldOutStudy:
    """Return the held-out study of a game's bundled port, whose seeded-bug study is ``study``.

    Its list, ``heldout-bugs.json``, and its results file, ``heldout.json``,
    are beside the seeded-bug study's results file; a copy of the port holds
    the study's ``extras`` beside its own files.
    """
    folder = study.results_path().parent
    return HeldOutStudy(
        study.name,
        study.suite(),
        study.port,
        folder / "heldout-bugs.json",
        folder / "heldout.json",
        study.newest_cases,
        study.extras,
    )
