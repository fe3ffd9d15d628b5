"""The shape of the code, as the README's "Development" part states it: floors that import only downwards, no
circle between files, no private name imported from another package, and every check kind behind the registry."""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "verifier"

# Each module's floor is the one of the longest prefix below naming it.  A module imports only from its own floor
# or lower ones (a package's own modules share its floor).  The spec format's reader of checks (specfile.loader)
# sits above the kinds it asks; the report's pictures sit above the kinds that draw them.
FLOORS: dict[str, int] = {
    "verifier": 0, "verifier.echo": 0, "verifier.outcome": 0, "verifier.jsoncodec": 0, "verifier.algebra": 0,
    "verifier.symbolic": 1, "verifier.smem": 1, "verifier.cute.operand": 1, "verifier.specfile.model": 1,
    "verifier.hardware": 2,
    "verifier.cute": 3,
    "verifier.specfile": 4,
    "verifier.theorems": 5,
    "verifier.report": 6, "verifier.draw": 6,
    "verifier.kinds": 7,
    "verifier.specfile.loader": 8, "verifier.specfile.affected": 8,
    "verifier.engine": 9,
    "verifier.report.pictures": 10, "verifier.report.html_report": 10, "verifier.suggest": 10,
    "verifier.findings": 10,
    "verifier.importer": 11, "verifier.prescreen": 11, "verifier.dsl": 11,
    "verifier.commands": 12,
    "verifier.__main__": 13,
}
# a package whose __init__ re-exports a module above the package's floor has that module's floor
PACKAGE_FACES: dict[str, int] = {"verifier.specfile": 8}
# modules no floor but the top may import: the commands
COMMANDS = "verifier.commands"


@dataclass(frozen=True)
class Import:
    importer: str
    target: str          # the module imported (a package's submodule when the name is one)
    names: tuple[str, ...]
    line: int


def _modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for p in PACKAGE.rglob("*.py"):
        parts = list(p.relative_to(ROOT).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        out[".".join(parts)] = (p, is_package)
    return out


MODULES = _modules()


def _resolve(module: str, is_package: bool, level: int, name: str | None) -> str:
    base = module.split(".") if is_package else module.split(".")[:-1]
    if level > 1:
        base = base[:len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def _imports() -> list[Import]:
    """Every import of a verifier module by a verifier module, at any depth (function-level imports too)."""
    out = []
    for module, (path, is_package) in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                target = _resolve(module, is_package, node.level, node.module) if node.level else node.module or ""
                if not target.startswith("verifier"):
                    continue
                plain = []
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    if sub in MODULES:
                        out.append(Import(module, sub, (), node.lineno))
                    else:
                        plain.append(alias.name)
                if plain:
                    out.append(Import(module, target, tuple(plain), node.lineno))
            elif isinstance(node, ast.Import):
                out += [Import(module, a.name, (), node.lineno) for a in node.names if a.name.startswith("verifier")]
    return out


IMPORTS = _imports()


def floor(module: str) -> int:
    if module in PACKAGE_FACES:
        return PACKAGE_FACES[module]
    prefixes = [p for p in FLOORS if module == p or module.startswith(p + ".")]
    return FLOORS[max(prefixes, key=len)]


def _package(module: str) -> str:
    is_package = MODULES.get(module, (None, False))[1]
    return module if is_package else module.rsplit(".", 1)[0]


def test_every_module_has_a_floor():
    assert all(floor(m) is not None for m in MODULES)


def test_no_floor_imports_from_a_higher_one():
    upward = [f"{i.importer} (floor {floor(i.importer)}) imports {i.target} (floor {floor(i.target)}) at line {i.line}"
              for i in IMPORTS if floor(i.target) > floor(i.importer)]
    assert not upward, "\n".join(upward)


def test_commands_import_no_other_command():
    crossing = [f"{i.importer} imports {i.target} at line {i.line}" for i in IMPORTS
                if i.importer.startswith(COMMANDS + ".") and i.target.startswith(COMMANDS + ".")
                and i.importer != f"{COMMANDS}.cli" and i.target != f"{COMMANDS}.cli"]
    assert not crossing, "\n".join(crossing)


# the one circle left: an expression prints itself (str, error messages) through the text backend, which folds
# expressions; the backend is imported when an expression is first printed or evaluated
KNOWN_CIRCLES = {("verifier.symbolic.expr", "verifier.symbolic.backends")}


def test_no_circle_between_files():
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for i in IMPORTS:
        if i.target in MODULES and i.target != i.importer and (i.importer, i.target) not in KNOWN_CIRCLES:
            graph[i.importer].add(i.target)
    seen: dict[str, int] = {}     # 1: on the path, 2: done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        seen[m] = 1
        path.append(m)
        for n in sorted(graph[m]):
            if seen.get(n) == 1:
                return path[path.index(n):] + [n]
            if n not in seen:
                found = visit(n)
                if found:
                    return found
        path.pop()
        seen[m] = 2
        return None

    for m in sorted(graph):
        if m not in seen:
            circle = visit(m)
            assert circle is None, " -> ".join(circle)


def test_no_private_name_is_imported_from_another_package():
    private = [f"{i.importer} imports {n} from {i.target} at line {i.line}" for i in IMPORTS for n in i.names
               if n.startswith("_") and not n.startswith("__") and _package(i.target) != _package(i.importer)]
    assert not private, "\n".join(private)


# --- the kind is dispatched in one place ----------------------------------------------------------------------

KIND_NAMES = ("CheckKind.MMA", "CheckKind.COPY", "CheckKind.TILED", "CheckKind.GMMA", "CheckKind.TMEM")


@pytest.mark.parametrize("module", sorted(m for m in MODULES if not m.startswith("verifier.kinds")))
def test_only_the_kinds_name_a_kind(module):
    """Outside verifier/kinds, no module switches on a check's kind (the registry answers), except the model that
    defines the names and the prescreen's report of kernels it could not map."""
    allowed = {"verifier.specfile.model": KIND_NAMES, "verifier.prescreen.run": ("CheckKind.TILED",)}
    text = MODULES[module][0].read_text(encoding="utf-8")
    named = [k for k in KIND_NAMES if k in text and k not in allowed.get(module, ())]
    assert not named, f"{module} names {named}"
