"""vac.intent is sans-IO: it imports only stdlib computation (difflib among it), msgspec,
rapidfuzz, jellyfish, vac.protocol.objective and its lifecycle table — no clocks, no randomness."""

from __future__ import annotations

import ast
from pathlib import Path

import vac.intent

PACKAGE = Path(vac.intent.__file__).parent
ALLOWED_ROOTS = {
    "__future__",
    "collections",
    "contextlib",
    "copy",
    "dataclasses",
    "difflib",
    "datetime",
    "enum",
    "itertools",
    "re",
    "typing",
    "hashlib",  # a ref's slug for a label in another script
    "unicodedata",
    "msgspec",
    "rapidfuzz",
    "jellyfish",
}
ALLOWED_VAC = {"vac.protocol.objective", "vac.protocol.objective_lifecycle", "vac.errors"}
FORBIDDEN_CALLS = {"now", "utcnow", "today", "time", "monotonic", "random", "uuid4"}


def _modules() -> list[Path]:
    return sorted(PACKAGE.glob("*.py"))


def test_imports_are_sans_io() -> None:
    for path in _modules():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                if name.startswith("vac."):
                    assert name.startswith("vac.intent") or name in ALLOWED_VAC, (path, name)
                else:
                    assert name.split(".")[0] in ALLOWED_ROOTS, (path, name)


def test_no_clock_or_randomness_reads() -> None:
    for path in _modules():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                assert node.func.attr not in FORBIDDEN_CALLS, (path, node.func.attr)


def test_public_api_is_exported() -> None:
    for name in vac.intent.__all__:
        assert hasattr(vac.intent, name), name
