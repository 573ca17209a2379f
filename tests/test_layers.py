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


# --- the package graph: one direction of dependency, no cycles -------------
# Which vac packages each package may import (besides itself). Every import
# counts: module level, function-local and under `if TYPE_CHECKING:` — a
# type-only import is still a dependency a reader has to follow.
LEAVES = {"clock", "errors", "keyid", "home", "logs", "endpoints"}
MAY_IMPORT: dict[str, set[str]] = {
    "errors": set(),
    "clock": set(),
    "keyid": set(),
    "home": {"errors"},
    "logs": {"errors"},
    "endpoints": {"errors"},
    "protocol": {"errors"},
    "lifecycle": {"errors", "protocol"},
    "intent": {"errors", "protocol"},
    "speech": {"errors", "clock", "logs", "protocol"},
    "runtime": LEAVES | {"protocol", "lifecycle", "intent", "speech"},
    "client": LEAVES | {"protocol", "lifecycle"},
    "daemon": LEAVES | {"protocol", "lifecycle", "intent", "speech", "runtime"},
    "child_daemon": {"errors", "home"},
    "demo": LEAVES | {"protocol", "client", "daemon", "child_daemon"},
    "bench": LEAVES | {"protocol", "client", "daemon", "demo", "child_daemon"},
    "bench_sweep": LEAVES | {"protocol", "client", "daemon", "demo", "bench", "child_daemon"},
    "cli": LEAVES
    | {
        "protocol",
        "lifecycle",
        "intent",
        "speech",
        "runtime",
        "client",
        "daemon",
        "bench",
        "bench_sweep",
        "demo",
        "child_daemon",
    },
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in SRC.rglob("*.py")}


def vac_imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """Every vac module `path` imports, relative imports resolved, at any depth of the tree."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "vac")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "vac":
                continue
            found.add(target)
            # `from vac import intent` imports the module vac.intent, not a name.
            found.update(f"{target}.{a.name}" for a in node.names)
    return {m for m in found if m in modules and m != name}


def package_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_every_package_has_a_rule() -> None:
    packages = {package_of(m) for m in all_modules()} - {""}
    assert packages == set(MAY_IMPORT), "add the new package to MAY_IMPORT with its direction"


def test_packages_import_only_downwards() -> None:
    modules = all_modules()
    wrong = []
    for name, path in sorted(modules.items()):
        source = package_of(name)
        for target in sorted(vac_imports(path, modules)):
            dest = package_of(target)
            if dest in ("", source):
                continue
            if dest not in MAY_IMPORT.get(source, set()):
                wrong.append(f"{name} imports {target}")
    assert not wrong, "imports against the layer direction:\n" + "\n".join(wrong)


def test_runtime_never_reaches_the_daemon_even_for_types() -> None:
    modules = all_modules()
    for name, path in modules.items():
        if package_of(name) == "runtime":
            reached = {package_of(t) for t in vac_imports(path, modules)}
            assert not reached & {"daemon", "cli"}, name


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle in `graph` (a path that returns to its start), or None."""
    white, grey, black = 0, 1, 2
    colour = dict.fromkeys(graph, white)
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        colour[node] = grey
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if colour.get(nxt, black) == grey:
                return [*stack[stack.index(nxt) :], nxt]
            if colour.get(nxt) == white:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        colour[node] = black
        return None

    for start in sorted(graph):
        if colour[start] == white:
            found = visit(start)
            if found:
                return found
    return None


def test_find_cycle_sees_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_no_import_cycles_between_modules() -> None:
    modules = all_modules()
    graph = {name: vac_imports(path, modules) for name, path in modules.items()}
    # A package's __init__ re-exporting its own submodules is not a cycle of
    # meaning; a submodule importing its parent package back would be.
    for name in graph:
        if modules[name].name == "__init__.py":
            graph[name] = {t for t in graph[name] if not t.startswith(name + ".")}
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


MAX_MODULE_LINES = 500


def test_modules_stay_small() -> None:
    big = {
        str(p.relative_to(SRC)): n
        for p in SRC.rglob("*.py")
        if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES
    }
    assert not big, f"modules over {MAX_MODULE_LINES} lines (split by concern): {big}"
