"""The folder tree is the architecture: each layer imports only the layers beneath it, and no module cycle."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
OURS = ("companion", "vision", "web", "hardware")

# Each layer, and the layers of ours it may import (beside itself and third-party packages).
ALLOWED: dict[str, set[str]] = {
    "companion.rules": set(),
    "companion.games": {"companion.rules"},
    "companion.journal": {"companion.rules"},
    "companion.table": {"companion.rules", "companion.games", "companion.journal"},
    "companion.config": {"companion.rules"},
    "companion.memory": {"companion.rules", "companion.games", "companion.journal", "companion.table"},  # read-only
    "companion.camera": {"companion.rules", "companion.table", "companion.config", "vision"},
    "vision": set(),
    "hardware": {"companion.rules"},
    "web": {"companion.rules", "companion.table"},
    "companion.top": {"companion", "vision", "web", "hardware"},  # daemon, cli: the composition root
    "companion.commands": {"companion", "vision", "hardware"},  # the command line's sub-commands, beside cli.py
}
STANDARD_LIBRARY_ONLY = ("companion.rules", "companion.games")


def layer_of(module: str) -> str:
    """The layer a dotted module name belongs to; raises nothing."""
    if module in ("companion.config", "companion.config_values"):
        return "companion.config"
    parts = module.split(".")
    if parts[0] != "companion":
        return parts[0]
    if len(parts) == 1:
        return "companion.top"
    if len(parts) > 2 or f"companion/{parts[1]}" in PACKAGES:
        return ".".join(parts[:2])
    return "companion.top"


PACKAGES = {str(path.parent.relative_to(REPO)) for path in (REPO / "companion").glob("*/__init__.py")}


def modules() -> dict[str, Path]:
    """Every module of ours by dotted name; raises nothing."""
    found = {}
    for top in OURS:
        for path in (REPO / top).rglob("*.py"):
            parts = path.relative_to(REPO).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


MODULES = modules()


def imports(path: Path) -> set[str]:
    """The absolute module names a file imports, at any depth; raises SyntaxError on a broken file."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:  # `from a import b` imports a.b if that is a module
            names.update(f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in MODULES else node.module
                         for alias in node.names)
    return names


def ours(names: set[str]) -> set[str]:
    """The names that are modules of ours (the empty `companion` package aside); raises nothing."""
    return {name for name in names if name in MODULES and name != "companion"}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_run_down_the_layers(name: str) -> None:
    layer = layer_of(name)
    allowed = ALLOWED[layer] | {layer}
    wrong = sorted(target for target in ours(imports(MODULES[name])) if layer_of(target) not in allowed
                   and not any(layer_of(target).startswith(ok + ".") or target == ok for ok in allowed))
    assert not wrong, f"{name} ({layer}) imports {wrong}, above or beside it"


@pytest.mark.parametrize("name", sorted(name for name in MODULES if name.startswith(STANDARD_LIBRARY_ONLY)))
def test_the_engine_imports_only_the_standard_library(name: str) -> None:
    import sys

    tops = {target.split(".")[0] for target in imports(MODULES[name])} - {"__future__"}
    outside = sorted(top for top in tops if top not in sys.stdlib_module_names and top != "companion")
    assert not outside, f"{name} imports {outside}"


def test_no_module_imports_itself_round_a_cycle() -> None:
    graph = {name: ours(imports(path)) - {name} for name, path in MODULES.items()}
    for name in graph:  # a package's __init__ is not counted as importing its own modules
        graph[name] = {target for target in graph[name] if not target.startswith(name + ".")}
    cycles = [(start, target) for start in graph for target in graph[start] if start in reachable(graph, target)]
    assert not cycles, f"import cycles through: {sorted(cycles)[:5]}"


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module `start` reaches by imports; raises nothing."""
    seen, todo = set(), [start]
    while todo:
        for target in graph.get(todo.pop(), ()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def test_the_layer_table_knows_every_package() -> None:
    assert {layer_of(name) for name in MODULES} <= set(ALLOWED)
