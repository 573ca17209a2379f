"""The event log's package: one concern per module, one way in, no cycles."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import vac.runtime.store as store
from vac.runtime.store import EventLog

PACKAGE = Path(store.__file__).parent
FACADE = "vac.runtime.store"

# Everything imported from `vac.runtime.store` before it became a package.
PUBLIC = {
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "AsyncEventLog",
    "AuditRow",
    "EventLog",
    "ObjectiveRow",
    "Outcome",
    "Said",
    "Step",
    "StorageUnavailable",
    "StoreError",
    "StreamRow",  # schema 4: closed input streams
    "inspect",  # read-only, for `vac preflight`
}


def _sibling_imports(path: Path) -> set[str]:
    """The modules of this package that `path` imports, by short name."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            module = node.module
        elif isinstance(node, ast.Import):
            module = node.names[0].name
        else:
            continue
        if module == FACADE:
            names.add("__init__")
        elif module.startswith(FACADE + "."):
            names.add(module.removeprefix(FACADE + "."))
    return names


def test_the_facade_exports_every_name_it_always_had() -> None:
    assert set(store.__all__) == PUBLIC
    for name in PUBLIC:
        assert getattr(store, name) is not None


def test_eventlog_methods_stay_attributes_of_the_class() -> None:
    # Callers pass them unbound: `store.call(EventLog.commit, step)`.
    methods = {name for name, _ in inspect.getmembers(EventLog, inspect.isfunction)}
    assert {
        "commit",
        "audit",
        "auth_failures",
        "session_opened",
        "session_seen",
        "session_ended",
        "said",
        "next_counter",
        "put_objective",
        "session_row",
        "outcomes_of",
        "stream_closed",
        "streams_of",
        "objectives_of",
        "live_objectives",
        "conversation_of",
        "audit_rows",
        "prune",
        "export_principal",
        "delete_principal",
        "close",
    } <= methods
    assert isinstance(inspect.getattr_static(EventLog, "schema_version"), property)


def test_modules_are_small_and_import_no_cycle_nor_the_facade() -> None:
    graph = {
        path.stem: _sibling_imports(path)
        for path in PACKAGE.glob("*.py")
        if path.stem != "__init__"
    }
    assert graph
    for name, deps in graph.items():
        assert "__init__" not in deps, f"{name} imports {FACADE} itself"
        assert len((PACKAGE / f"{name}.py").read_text().splitlines()) < 500, name
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, f"import cycle: {' -> '.join((*path, name))}"
        if name in done:
            return
        for dep in graph[name]:
            visit(dep, (*path, name))
        done.add(name)

    for name in graph:
        visit(name, ())
