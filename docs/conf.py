"""Sphinx configuration of the cantstop documentation site."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(HERE.parent))

import cantstop  # noqa: E402  (found through the path set above when not installed)

project = "cantstop"
author = "the cantstop authors"
copyright = "the cantstop authors"
release = version = cantstop.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "cantstop_api",
    "cantstop_commands",
    "cantstop_spec",
    "cantstop_study",
    "cantstop_tryit",
    "finishline_spec",
    "tower_spec",
]

# The proofs results of the two other games, shown under their rules and on their proofs pages.
finishline_proof_results = "../finishline/proofs/results.json"
tower_proof_results = "../tower/proofs/results.json"

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "README.md", "check_pages.py"]
nitpicky = True
highlight_language = "text"
# No curly quotes or dashes: commands and notation on the pages must survive
# copy and paste (``--json`` would otherwise become an en dash).
smartquotes = False

myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3

#: The research frameworks that cantstop.openspiel, cantstop.envs, cantstop.solve and
#: dicekit.openspiel import.  The site documents those modules from their docstrings and
#: runs none of their code, so the docs extra installs none of them: autodoc stands a mock
#: in for each one that is not installed (``pip install -e '.[dev]'`` installs them all).
FRAMEWORKS = ("numpy", "numba", "pyspiel", "open_spiel", "gymnasium", "pettingzoo", "ray")


def _installed(name: str) -> bool:
    """Return whether the module ``name`` can be imported here."""
    try:
        return importlib.util.find_spec(name) is not None
    except ImportError:  # a finder that refuses the name, as an interpreter without it would
        return False


autodoc_mock_imports = [name for name in FRAMEWORKS if not _installed(name)]

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"show-inheritance": True}
# Standard-library types in signatures have no pages on this site (the build is
# offline, so there is no intersphinx); every cantstop name is still checked.
nitpick_ignore_regex = [
    ("py:(class|func|exc|data)", r"(collections\.abc|typing|fractions|argparse|io|enum)\..*"),
    ("py:(class|func|exc|data)", r"(pathlib|json|os|random|hypothesis)\..*"),
    # The type variables of the layer's generic helpers have no pages of their own.
    ("py:(class|obj)", r"dicekit\.conformance\.(pool|study)\.[TR]"),
    ("py:class", r"dict\[str"),  # a piece of a type alias that autodoc splits
    ("py:mod", r"cantstop\._.*"),  # private modules, named in docstrings but not documented
    ("py:(class|exc|func)", r"(.*\.)?_[A-Za-z]\w*"),  # private names have no pages
    ("py:class", r"(Fraction|TextIO|Path|Iterator|Iterable|Mapping|Sequence|Callable)"),
    ("py:class", r"(int|str|bool|float|object|dict|tuple|list|type|None|Any)"),
    ("py:class", r"(ValueError|AssertionError|Exception|TypeError)"),
    ("py:class", r"NamedTuple|Enum"),
    # The type variables of the game protocol stand for each game's own types.
    ("py:(class|obj)", r"(dicekit\.protocol\.)?(StateT|ActionT|ConfigT|_\w+)"),
    # The research frameworks' own types (cantstop.openspiel, cantstop.envs) and numpy's (the
    # solver's tables, whose annotations keep the name np) have no pages here.
    ("py:class", r"(numpy|np|pyspiel|gymnasium|pettingzoo)\..*"),
]

if autodoc_mock_imports:
    # Annotations that name a mocked framework's types stay as written, unevaluated: the
    # environments' np.int64 and their Observation alias (dict[str, npt.NDArray]).
    nitpick_ignore_regex += [("py:class", r"(np|npt)\..*"), ("py:class", r"Observation")]

doctest_global_setup = "import cantstop\nfrom cantstop import *\n"
# Docstring examples run under pytest --doctest-modules with their module's
# names; here only the examples written on the pages (doctest directives) run.
doctest_test_doctest_blocks = ""

html_theme = "furo"
html_title = "cantstop"
html_static_path = ["_static"]
html_css_files = ["cantstop.css"]
html_theme_options = {"navigation_with_keys": True}
html_last_updated_fmt = None
html_show_sourcelink = False
