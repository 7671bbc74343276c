"""The reports of a run for other programs: the JUnit XML that CI systems read, written safely.

:func:`junit_xml` gives one ``<testcase>`` per case, in the Jenkins/Ant form
that GitLab, Jenkins and the GitHub test-report actions read: a failing case
holds a ``<failure>`` whose text names the suspect rules (a protocol failure
an ``<error>``, which blames no rule), a known failure
and a case the port cannot run are ``<skipped>`` with the reason.
:func:`write_text` replaces a report file only once the whole text is written,
so a full disk leaves the old file (or none), never half a report.
"""

from __future__ import annotations

import os
import re
import socket
import stat
import tempfile
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from pathlib import Path

from dicekit.conformance.run import CaseResult, Run

__all__ = ["junit_xml", "write_text"]

#: Characters XML 1.0 cannot hold, even escaped.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _text(value: str) -> str:
    """Return ``value`` with the characters XML cannot hold written as an escape."""
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}", value)


def junit_xml(run: Run) -> str:
    """Return the run as a JUnit XML report: one testcase per case, with its outcome.

    >>> from dicekit.conformance.run import CaseResult, Run
    >>> failed = CaseResult("moves-00001", "failed", ["R6.1"], "legal moves of ...")
    >>> run = Run([CaseResult("spec-E001", "passed", ["R2.1"]), failed], None, ["port"])
    >>> for line in junit_xml(run).splitlines()[9:12]:
    ...     print(line.strip())
    <testcase name="spec-E001" classname="conformance.spec" time="0.000" />
    <testcase name="moves-00001" classname="conformance.moves" time="0.000">
    <failure message="legal moves of ..." type="R6.1">legal moves of ...
    """
    suite_name = run.suite.name if run.suite is not None else "conformance"
    if run.version is not None:
        suite_name += f" v{run.version}"
    prefix = suite_name.replace(" ", ".")
    counts = {s: run.count(s) for s in ("failed", "known", "skipped")}
    broken = sum(r.status == "failed" and r.protocol for r in run.results)
    counts["failed"] -= broken
    seconds = sum(r.seconds for r in run.results)
    totals = {
        "name": suite_name,
        "tests": str(len(run.results)),
        "failures": str(counts["failed"]),
        "errors": str(broken),
        "skipped": str(counts["known"] + counts["skipped"]),
        "time": f"{seconds:.3f}",
    }
    root = ET.Element("testsuites", totals)
    suite = ET.SubElement(
        root,
        "testsuite",
        totals,
        timestamp=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S"),
        hostname=_text(socket.gethostname()),
    )
    properties = ET.SubElement(suite, "properties")
    shown = {
        "port command": " ".join(run.command),
        "port name": str((run.hello or {}).get("name", "")),
        "suite version": "" if run.version is None else str(run.version),
        "stopped": run.stopped or "",
    }
    for name, value in shown.items():
        ET.SubElement(properties, "property", name=name, value=_text(value))
    ranked = [rule for rule, _, _ in run.suspects()]
    for result in run.results:
        _testcase(suite, result, prefix, ranked)
    if run.stopped is not None:
        ET.SubElement(suite, "system-err").text = _text(run.stopped)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _testcase(suite: ET.Element, result: CaseResult, prefix: str, ranked: list[str]) -> None:
    kind = result.id.split("-", 1)[0]
    case = ET.SubElement(
        suite,
        "testcase",
        name=result.id,
        classname=f"{prefix}.{kind}",
        time=f"{result.seconds:.3f}",
    )
    if result.status == "failed" and result.protocol:
        lines = [result.message, *result.diagnosis, "A protocol failure: no rule is suspected."]
        ET.SubElement(
            case, "error", message=_text(result.message[:500]), type="protocol"
        ).text = _text("\n".join(lines))
    elif result.status == "failed":
        suspects = [rule for rule in ranked if rule in result.rules]
        lines = [result.message, *result.diagnosis]
        if suspects:
            lines.append("Suspect rules, most likely first: " + " ".join(suspects))
        ET.SubElement(
            case, "failure", message=_text(result.message[:500]), type=" ".join(result.rules)
        ).text = _text("\n".join(lines))
    elif result.status == "known":
        ET.SubElement(case, "skipped", message=_text(f"known failure: {result.message}"[:500]))
    elif result.status == "skipped":
        ET.SubElement(case, "skipped", message=_text(result.message))


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all; raise ``OSError`` if it cannot be written.

    A regular file (or a new one) is written beside its place and renamed
    over it once complete; anything else (``/dev/stdout``, a pipe) is written
    to directly.  The file gets the mode any program would give it: the mode
    it had, or for a new file 0666 less the umask (not the 0600 of a
    temporary file).
    """
    if path.exists() and not path.is_file():
        with path.open("w", encoding="utf-8") as file:
            file.write(text)
        return
    mode = stat.S_IMODE(path.stat().st_mode) if path.exists() else 0o666 & ~_umask()
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            os.fchmod(file.fileno(), mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _umask() -> int:
    """Return the process's umask (read by setting it, and setting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
