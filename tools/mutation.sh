#!/usr/bin/env bash
# Mutation check of the rules kernel (cantstop/state.py, transitions.py, _tables.py,
# analysis.py, refusals.py, decide.py and invariants.py) with mutmut ([tool.mutmut] in pyproject.toml
# says what is mutated and which tests run).
#
#   bash tools/mutation.sh [WORKDIR]
#
# mutmut writes a mutated copy of the package next to the sources, so this script
# copies the tree (without .venv, .git and caches) to WORKDIR, a new temporary
# directory by default, and runs there with the project's interpreter ($PYTHON,
# default .venv/bin/python).  It runs niced with one worker ($MUTMUT_CHILDREN to
# change) and prints the kill rate, then every mutant that was not killed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-$root/.venv/bin/python}"
work="${1:-$(mktemp -d "${TMPDIR:-/tmp}/cantstop-mutation.XXXXXX")}"

mkdir -p "$work"
rm -rf "$work/mutants"
tar -C "$root" \
    --exclude=./.venv --exclude=./.git --exclude=./mutants --exclude=./.hypothesis \
    --exclude=./.mypy_cache --exclude=./.pytest_cache --exclude=./.ruff_cache \
    --exclude=./.benchmarks --exclude=./docs/_build --exclude='__pycache__' \
    -cf - . | tar -C "$work" -xf -
cd "$work"
echo "mutation run in $work"

# The derandomized Hypothesis profile for mutation runs (tests/conftest.py): every
# mutant meets the same examples.
export HYPOTHESIS_PROFILE=mutation
start=$(date +%s)
if ! nice -n 10 "$python" -m mutmut run --max-children "${MUTMUT_CHILDREN:-1}" >mutmut.log 2>&1; then
    tail -n 30 mutmut.log
    echo "mutmut failed; the full log is $work/mutmut.log" >&2
    exit 1
fi
"$python" -m mutmut export-cicd-stats >/dev/null
"$python" - "$(($(date +%s) - start))" <<'PY'
import json
import sys

stats = json.load(open("mutants/mutmut-cicd-stats.json"))
caught = stats["killed"] + stats["timeout"]
total = stats["total"]
print(
    f"mutants: {total}  killed: {stats['killed']}  timeout: {stats['timeout']}  "
    f"survived: {stats['survived']}  no tests: {stats['no_tests']}  "
    f"suspicious: {stats['suspicious']}  skipped: {stats['skipped']}"
)
print(f"kill rate: {caught}/{total} = {100 * caught / max(total, 1):.1f}%  ({sys.argv[1]} s)")
PY
echo "not killed (see one with: cd $work && $python -m mutmut show NAME):"
"$python" -m mutmut results
