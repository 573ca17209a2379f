"""The sans-IO layers import only what ARCHITECTURE.md allows."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "vac"

ALLOWED = {
    "protocol": {"msgspec", "vac.protocol", "vac.errors"},
    "lifecycle": {"vac.errors", "vac.protocol", "vac.lifecycle"},
    "intent": {"msgspec", "vac.protocol", "vac.intent", "vac.errors", "rapidfuzz", "jellyfish"},
}
FORBIDDEN_STDLIB = {"asyncio", "socket", "sqlite3", "threading", "subprocess", "time", "selectors"}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def is_stdlib(name: str) -> bool:
    import sys

    return name.split(".")[0] in sys.stdlib_module_names


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_sans_io_layers(layer: str) -> None:
    files = sorted((SRC / layer).rglob("*.py"))
    assert files
    for path in files:
        for name in imports_of(path):
            top = name.split(".")[0]
            if name == "__future__":
                continue
            if is_stdlib(name):
                assert top not in FORBIDDEN_STDLIB, f"{path.name} imports {name} (I/O or clock)"
                continue
            ok = any(name == a or name.startswith(a + ".") for a in ALLOWED[layer])
            assert ok, f"{path.relative_to(SRC)} imports {name}, outside its layer"


def test_protocol_and_intent_read_no_clock() -> None:
    for layer in ALLOWED:
        for path in (SRC / layer).rglob("*.py"):
            text = path.read_text()
            for banned in ("datetime.now(", "time.time(", "time.monotonic(", "date.today("):
                assert banned not in text, f"{path.name} reads the clock ({banned})"
