"""A route module (one in app/routes that defines an APIRouter) imports no other route
module: what several of them share lives in modules without routes (deps.py, fragments.py,
models.py, go_board.py, games_list.py). Read from the sources, without importing them."""

from __future__ import annotations

import ast
from pathlib import Path

ROUTES = Path(__file__).resolve().parent.parent / "app" / "routes"


def defines_router(tree: ast.Module) -> bool:
    return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
               and node.func.id == "APIRouter" for node in ast.walk(tree))


def routes_imported(tree: ast.Module) -> set[str]:
    """The app.routes modules a module imports, by name."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "app.routes":
                found.update(alias.name for alias in node.names)
            elif node.module.startswith("app.routes."):
                found.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            found.update(alias.name.split(".")[2] for alias in node.names
                         if alias.name.startswith("app.routes."))
    return found


def test_route_modules_import_no_other_route_module() -> None:
    trees = {path.stem: ast.parse(path.read_text()) for path in ROUTES.glob("*.py")}
    routers = {name for name, tree in trees.items() if defines_router(tree)}
    assert {"api_games", "ui", "ui_go", "pages"} <= routers  # the check sees them
    wrong = {name: sorted(routes_imported(tree) & routers) for name, tree in trees.items()}
    assert {name: found for name, found in wrong.items() if found} == {}
