"""Reading spec files (format version 1, ../DESIGN.md) into validated `Spec` objects.

ruamel.yaml's round-trip loader keeps the line and column of every node and refuses duplicate keys, so
every problem becomes a `SpecError` that says `file:line:column: message`; nothing else escapes.
Layout strings are parsed by the algebra's own parser, and its column is mapped back into the file.
"""
from __future__ import annotations

import difflib
import math
import os
from pathlib import Path
from typing import Any, Iterable

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.reader import ReaderError
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, SingleQuotedScalarString

from ..algebra import ComposedLayout, Layout, ParseError, SmemPtrFlag, parse_layout, type_bits
from ..smem import position_independent
from .model import CheckSpec, CopyAtomSpec, Loc, MMAAtomSpec, Spec, SpecError, TiledSpec, ValueType

FORMAT_VERSION = 1
MAX_ELEMENTS = 1 << 24     # larger layouts are typos, and would make the prover's domains absurd
MAX_THREADS = 1024         # a CUDA block's limit: a tiled MMA cannot have more threads

TOP_KEYS = ("version", "name", "description", "include", "mma_atoms", "copy_atoms", "checks")
MMA_KEYS = ("instruction", "shape_mnk", "thr_id", "types", "a", "b", "c", "source")
MMA_REQUIRED = ("shape_mnk", "thr_id", "types", "a", "b", "c")
COPY_KEYS = ("instruction", "thr_id", "src", "dst", "ref", "source")
COPY_REQUIRED = ("instruction", "thr_id", "src", "dst", "ref")
CHECK_KEYS = ("mma", "atom_layout", "permutation", "operand", "copy", "value_type", "smem", "expect",
              "copy_for", "copy_mma", "description")
TILED_KEYS = ("atom_layout", "permutation")
TYPE_KEYS = ("a", "b", "c", "d")
OPERANDS = ("A", "B", "C")
EXPECTS = ("pass", "fail", "undecided")  # undecided: documented as not decidable yet (e.g. no hardware model)


# --- positions ---------------------------------------------------------------------------------------

class _File:
    """One YAML file: turns ruamel's 0-based node positions into 1-based `Loc`s."""

    def __init__(self, path: str) -> None:
        self.path = path

    def at(self, line0: int, col0: int) -> Loc:
        return Loc(self.path, line0 + 1, col0 + 1)

    def node(self, node: Any) -> Loc:
        lc = getattr(node, "lc", None)
        return self.at(lc.line, lc.col) if lc is not None and lc.line is not None else self.at(0, 0)

    def key(self, m: CommentedMap, k: Any) -> Loc:
        try:
            return self.at(*m.lc.key(k))
        except (KeyError, AttributeError, TypeError):   # e.g. a key that came through a `<<:` merge
            return self.node(m)

    def value(self, m: CommentedMap, k: Any) -> Loc:
        try:
            return self.at(*m.lc.value(k))
        except (KeyError, AttributeError, TypeError):
            return self.key(m, k)

    def item(self, seq: CommentedSeq, i: int) -> Loc:
        try:
            return self.at(*seq.lc.item(i))
        except (KeyError, AttributeError, TypeError):
            return self.node(seq)


def _suggest(word: str, names: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(names), n=3, cutoff=0.6)
    return f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


# --- scalar values -----------------------------------------------------------------------------------

def parse_layout_at(text: Any, loc: Loc, what: str, swizzle_ok: bool = False) -> Layout | ComposedLayout:
    """A layout string written at `loc`; parse errors point at the offending column inside the string."""
    if not isinstance(text, str):
        raise SpecError(loc, f"{what} must be a layout string such as \"(4,8):(8,1)\", not {_show(text)}")
    try:
        layout = parse_layout(str(text))
    except ParseError as e:
        # a quoted scalar's text starts one column after its opening quote
        quote = 1 if isinstance(text, (DoubleQuotedScalarString, SingleQuotedScalarString)) else 0
        inner = Loc(loc.file, loc.line, loc.column + quote + e.column - 1)
        raise SpecError(inner, f"bad layout in {what}: {e.message}") from None
    except Exception as e:  # the algebra's own errors (e.g. inside a function call) are not all ParseErrors
        raise SpecError(loc, f"bad layout in {what}: {e}") from None
    if isinstance(layout, ComposedLayout) and not swizzle_ok:
        raise SpecError(loc, f"{what} must be a plain layout shape:stride, not a swizzled layout")
    if int(layout.size()) > MAX_ELEMENTS:
        raise SpecError(loc, f"{what} has {int(layout.size())} elements; at most {MAX_ELEMENTS} (2**24) are supported")
    return layout


def _show(x: Any) -> str:
    if x is None:
        return "nothing"
    if isinstance(x, (CommentedMap, dict)):
        return "a mapping"
    if isinstance(x, (CommentedSeq, list)):
        return "a list"
    return repr(x) if isinstance(x, str) else f"{type(x).__name__} {x}"


def _value_type(x: Any, loc: Loc, what: str) -> ValueType:
    if not (_is_int(x) or isinstance(x, str)):
        raise SpecError(loc, f"{what} must be a CuTe type name such as half_t, or a bit width, not {_show(x)}")
    try:
        bits = type_bits(int(x) if _is_int(x) else str(x))
    except KeyError as e:
        raise SpecError(loc, f"{what}: {e.args[0]}") from None
    except ValueError as e:
        raise SpecError(loc, f"{what}: {e}") from None
    return ValueType(name=str(x), bits=bits)


def _choice(x: Any, loc: Loc, what: str, choices: tuple[str, ...], upper: bool) -> str:
    word = str(x).strip() if isinstance(x, str) else None
    norm = (word.upper() if upper else word.lower()) if word is not None else None
    if norm not in choices:
        raise SpecError(loc, f"{what} must be one of {' | '.join(choices)}, not {_show(x)}")
    return norm


# --- one mapping's fields ----------------------------------------------------------------------------

class _Fields:
    """The keys of one atom or check: typed getters that record where each value was written."""

    def __init__(self, f: _File, m: Any, what: str, loc: Loc) -> None:
        if not isinstance(m, CommentedMap):
            raise SpecError(loc, f"{what} must be a mapping of keys to values, not {_show(m)}")
        self.f, self.m, self.what, self.loc = f, m, what, loc
        self.locs: dict[str, Loc] = {k: f.value(m, k) for k in m if isinstance(k, str)}

    def only(self, allowed: tuple[str, ...]) -> None:
        for k in self.m:
            if k not in allowed:
                raise SpecError(self.f.key(self.m, k), f"unknown key {_show(k)} in {self.what}"
                                + _suggest(str(k), allowed) + f" (known: {', '.join(allowed)})")

    def require(self, keys: tuple[str, ...]) -> None:
        for k in keys:
            if k not in self.m:
                raise SpecError(self.loc, f"{self.what} is missing '{k}'")

    def has(self, k: str) -> bool:
        return k in self.m and self.m[k] is not None

    def at(self, k: str) -> Loc:
        return self.locs[k]

    def opt_str(self, k: str) -> str | None:
        if not self.has(k):
            return None
        x = self.m[k]
        if not isinstance(x, str):
            raise SpecError(self.at(k), f"'{k}' of {self.what} must be a string, not {_show(x)}")
        return str(x)

    def layout(self, k: str, swizzle_ok: bool = False) -> Any:
        return parse_layout_at(self.m[k], self.at(k), f"'{k}' of {self.what}", swizzle_ok)

    def int_list(self, k: str, lo: int, hi: int) -> tuple[int, ...]:
        x, loc = self.m[k], self.at(k)
        want = f"a list of {lo} positive integers" if lo == hi else f"a list of {lo} to {hi} positive integers"
        if not isinstance(x, CommentedSeq) or not lo <= len(x) <= hi:
            raise SpecError(loc, f"'{k}' of {self.what} must be {want}, not {_show(x)}")
        for i, v in enumerate(x):
            if not _is_int(v) or v <= 0:
                raise SpecError(self.f.item(x, i), f"'{k}' of {self.what} must be {want}; item {i} is {_show(v)}")
        return tuple(int(v) for v in x)

    def sub(self, k: str, allowed: tuple[str, ...]) -> "_Fields":
        sub = _Fields(self.f, self.m[k], f"'{k}' of {self.what}", self.at(k))
        sub.only(allowed)
        for key, loc in sub.locs.items():   # nested values are reported as e.g. types.a
            self.locs[f"{k}.{key}"] = loc
        return sub


# --- atoms -------------------------------------------------------------------------------------------

def _thread_mode_matches(fl: _Fields, k: str, layout: Layout, threads: int) -> None:
    if layout.rank() != 2:
        raise SpecError(fl.at(k), f"'{k}' of {fl.what} must be a (thr,val) layout of rank 2, not rank {layout.rank()}")
    got = int(layout.mode(0).size())
    if got != threads:
        raise SpecError(fl.at(k), f"'{k}' of {fl.what} has {got} threads in mode 0, but thr_id has {threads}")


def _mma_atom(f: _File, name: str, m: Any, loc: Loc) -> MMAAtomSpec:
    fl = _Fields(f, m, f"MMA atom '{name}'", loc)
    fl.only(MMA_KEYS)
    fl.require(MMA_REQUIRED)
    thr_id = fl.layout("thr_id")
    threads = int(thr_id.size())
    operands = {}
    for k in ("a", "b", "c"):
        operands[k] = fl.layout(k)
        _thread_mode_matches(fl, k, operands[k], threads)
    types_fl = fl.sub("types", TYPE_KEYS)
    types_fl.require(TYPE_KEYS)
    types = {k: _value_type(types_fl.m[k], types_fl.at(k), f"type of '{k}' in {fl.what}") for k in TYPE_KEYS}
    return MMAAtomSpec(name=name, instruction=fl.opt_str("instruction"),
                       shape_mnk=fl.int_list("shape_mnk", 3, 3),  # type: ignore[arg-type]
                       thr_id=thr_id, types=types, a=operands["a"], b=operands["b"], c=operands["c"],
                       loc=loc, field_locs=fl.locs, source=fl.opt_str("source"))


def _copy_atom(f: _File, name: str, m: Any, loc: Loc) -> CopyAtomSpec:
    fl = _Fields(f, m, f"copy atom '{name}'", loc)
    fl.only(COPY_KEYS)
    fl.require(COPY_REQUIRED)
    thr_id = fl.layout("thr_id")
    threads = int(thr_id.size())
    src, dst = fl.layout("src"), fl.layout("dst")
    ref_word = fl.m["ref"]
    if isinstance(ref_word, str) and str(ref_word).strip() in ("src", "dst"):
        ref_is = str(ref_word).strip()
        ref = src if ref_is == "src" else dst
    else:
        ref_is, ref = "layout", fl.layout("ref")
    for k, layout in (("src", src), ("dst", dst), ("ref", ref)):
        _thread_mode_matches(fl, k, layout, threads)
    return CopyAtomSpec(name=name, instruction=fl.opt_str("instruction"), thr_id=thr_id, src=src, dst=dst,
                        ref=ref, ref_is=ref_is, loc=loc, field_locs=fl.locs, source=fl.opt_str("source"))


# --- checks ------------------------------------------------------------------------------------------

class _Atoms:
    """The atoms a file's checks may name: its own and those of its includes."""

    def __init__(self) -> None:
        self.mma: dict[str, MMAAtomSpec] = {}
        self.copy: dict[str, CopyAtomSpec] = {}

    def add(self, table: dict[str, Any], atom: Any, kind: str, loc: Loc) -> None:
        old = table.get(atom.name)
        if old is not None and old is not atom:
            raise SpecError(loc, f"{kind} '{atom.name}' is already defined at {old.loc}")
        table[atom.name] = atom

    def lookup(self, fl: _Fields, k: str, table: dict[str, Any], kind: str) -> str:
        name = fl.opt_str(k)
        if name not in table:
            known = f" (known: {', '.join(table)})" if table and len(table) <= 12 else ""
            hint = _suggest(name, table) or known
            raise SpecError(fl.at(k), f"unknown {kind} '{name}'{hint}")
        return name


def _permutation(fl: _Fields, k: str) -> tuple[Any, ...]:
    x = fl.m[k]
    if not isinstance(x, CommentedSeq) or not 1 <= len(x) <= 3:
        raise SpecError(fl.at(k), f"'{k}' of {fl.what} must be a list of 1 to 3 tile sizes or layouts, not {_show(x)}")
    items: list[Any] = []
    for i, v in enumerate(x):
        loc = fl.f.item(x, i)
        if _is_int(v):
            if not 0 < v <= MAX_ELEMENTS:
                raise SpecError(loc, f"'{k}' of {fl.what}: a tile size must be in 1..{MAX_ELEMENTS}, not {v}")
            items.append(int(v))
        else:
            items.append(parse_layout_at(v, loc, f"item {i} of '{k}' of {fl.what}"))
    return tuple(items)


def _atom_layout(fl: _Fields, k: str, atom: MMAAtomSpec) -> tuple[int, ...] | Layout:
    """[M, N, K] counts, or a layout string such as "(2,2,1):(2,1,1)" (make_tiled_mma's strided thread layout)."""
    tile = fl.layout(k) if isinstance(fl.m[k], str) else fl.int_list(k, 1, 3)
    shown = tile if isinstance(tile, Layout) else list(tile)
    atom_threads = int(atom.thr_id.size())
    copies = int(tile.size()) if isinstance(tile, Layout) else math.prod(tile)
    if copies * atom_threads > MAX_THREADS:
        raise SpecError(fl.at(k), f"'{k}' {shown} of {fl.what} gives {copies} x {atom_threads} = "
                                  f"{copies * atom_threads} threads; at most {MAX_THREADS} are supported")
    if isinstance(tile, Layout) and (tile.rank() > 3 or sorted(tile.values()) != list(range(copies))):
        raise SpecError(fl.at(k), f"'{k}' of {fl.what} must be a bijective layout of rank 1 to 3 "
                                  f"such as \"(2,2,1):(2,1,1)\", not {tile}")
    return tile


def _tiled(fl: _Fields, atom: MMAAtomSpec) -> TiledSpec:
    return TiledSpec(atom_layout=_atom_layout(fl, "atom_layout", atom) if fl.has("atom_layout") else None,
                     permutation=_permutation(fl, "permutation") if fl.has("permutation") else None)


def _smem(fl: _Fields, value_type: ValueType) -> Any:
    layout = fl.layout("smem", swizzle_ok=True)
    if isinstance(layout, ComposedLayout) and isinstance(layout.offset, SmemPtrFlag):
        try:  # CuTe's GMMA form swizzles byte addresses: rewrite it to act on element offsets
            layout = position_independent(layout, value_type.bits)
        except Exception as e:
            raise SpecError(fl.at("smem"), f"'smem' of {fl.what}: {e}") from None
    return layout


def _needs(fl: _Fields, keys: tuple[str, ...], why: str) -> None:
    for k in keys:
        if fl.has(k):
            raise SpecError(fl.f.key(fl.m, k), f"'{k}' of {fl.what} {why}")


def _check(f: _File, name: str, m: Any, loc: Loc, atoms: _Atoms) -> CheckSpec:
    fl = _Fields(f, m, f"check '{name}'", loc)
    fl.only(CHECK_KEYS)
    if not fl.has("mma") and not fl.has("copy"):
        raise SpecError(loc, f"{fl.what} names no atom: give 'mma', 'copy' or both")
    check = CheckSpec(name=name, loc=loc, field_locs=fl.locs, description=fl.opt_str("description"))
    mma: MMAAtomSpec | None = None
    if fl.has("mma"):
        check.mma = atoms.lookup(fl, "mma", atoms.mma, "MMA atom")
        mma = atoms.mma[check.mma]
        tiled = _tiled(fl, mma)
        check.atom_layout, check.permutation = tiled.atom_layout, tiled.permutation
    else:
        _needs(fl, ("atom_layout", "permutation", "operand"), "needs 'mma'")
    if fl.has("copy"):
        check.copy = atoms.lookup(fl, "copy", atoms.copy, "copy atom")
        if not fl.has("value_type"):
            raise SpecError(loc, f"{fl.what} names copy atom '{check.copy}' but no 'value_type' "
                                 "(the element type the copy moves, e.g. half_t)")
        check.value_type = _value_type(fl.m["value_type"], fl.at("value_type"), f"'value_type' of {fl.what}")
    else:
        _needs(fl, ("value_type",), "needs 'copy'")
    if fl.has("operand"):
        check.operand = _choice(fl.m["operand"], fl.at("operand"), f"'operand' of {fl.what}", OPERANDS, upper=True)
    if mma is not None and check.copy is not None:
        _tiled_fields(fl, check, mma)
    else:
        _needs(fl, ("smem", "copy_for", "copy_mma"), "is only used by checks that name both 'mma' and 'copy'")
    if fl.has("expect"):
        check.expect = _choice(fl.m["expect"], fl.at("expect"), f"'expect' of {fl.what}", EXPECTS, upper=False)
    return check


def _tiled_fields(fl: _Fields, check: CheckSpec, mma: MMAAtomSpec) -> None:
    for k in ("operand", "smem"):
        if not fl.has(k):
            raise SpecError(fl.loc, f"{fl.what} names both 'mma' and 'copy' and so needs '{k}'")
    assert check.value_type is not None
    check.smem = _smem(fl, check.value_type)
    if fl.has("copy_for"):
        check.copy_for = _choice(fl.m["copy_for"], fl.at("copy_for"), f"'copy_for' of {fl.what}", OPERANDS, upper=True)
    if fl.has("copy_mma"):
        check.copy_mma = _tiled(fl.sub("copy_mma", TILED_KEYS), mma)


# --- files -------------------------------------------------------------------------------------------

def _read_yaml(path: str, loc: Loc | None) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SpecError(loc, f"spec file '{path}' not found") from None
    except (OSError, UnicodeDecodeError) as e:
        raise SpecError(loc, f"cannot read spec file '{path}': {e}") from None
    yaml = YAML(typ="rt")            # round-trip: every node keeps its line and column; loads no objects
    yaml.allow_duplicate_keys = False
    yaml.preserve_quotes = True      # so that a layout's column inside "..." can be found
    try:
        return yaml.load(text)
    except MarkedYAMLError as e:
        raise _yaml_error(path, e) from None
    except ReaderError as e:   # a character YAML does not allow; it knows only the offset
        line = text.count("\n", 0, e.position) + 1
        column = e.position - (text.rfind("\n", 0, e.position) + 1) + 1
        code = ord(e.character) if isinstance(e.character, str) and len(e.character) == 1 else e.character
        char = f"U+{code:04X}" if isinstance(code, int) else repr(code)
        raise SpecError(Loc(path, line, column), f"bad YAML: {e.reason} ({char})") from None
    except YAMLError as e:
        raise SpecError(Loc(path, 1, 1), f"bad YAML: {' '.join(str(e).split())}") from None
    except RecursionError:
        raise SpecError(Loc(path, 1, 1), "bad YAML: nested too deeply") from None


def _yaml_error(path: str, e: MarkedYAMLError) -> SpecError:
    mark = e.problem_mark or e.context_mark
    loc = Loc(path, mark.line + 1, mark.column + 1) if mark is not None else Loc(path, 1, 1)
    problem = " ".join(str(e.problem or "syntax error").split())
    if e.context and e.context_mark is not None and e.context_mark is not mark:
        cm = e.context_mark
        problem += f" ({e.context} that starts at line {cm.line + 1}, column {cm.column + 1})"
    elif e.context:
        problem += f" ({e.context})"
    return SpecError(loc, f"bad YAML: {problem}")


class _Loader:
    """Loads files and their includes once each; `stack` is the include chain, for cycles."""

    def __init__(self) -> None:
        self.cache: dict[Path, Spec] = {}
        self.stack: list[Path] = []

    def load(self, path: str, included_at: Loc | None = None) -> Spec:
        key = Path(path).resolve()
        if key in self.stack:
            chain = " -> ".join(str(p.name) for p in self.stack[self.stack.index(key):] + [key])
            raise SpecError(included_at, f"include cycle: {chain}")
        if key not in self.cache:
            self.stack.append(key)
            try:
                self.cache[key] = self._load_file(path, included_at)
            finally:
                self.stack.pop()
        return self.cache[key]

    def _load_file(self, path: str, included_at: Loc | None) -> Spec:
        f = _File(path)
        doc = _read_yaml(path, included_at)
        top = _Fields(f, doc, f"the top level of {path}", Loc(path, 1, 1))
        top.only(TOP_KEYS)
        if "version" not in doc or doc["version"] != FORMAT_VERSION or not _is_int(doc["version"]):
            where = top.at("version") if "version" in doc else top.loc
            got = _show(doc["version"]) if "version" in doc else "nothing"
            raise SpecError(where, f"'version' must be {FORMAT_VERSION} (the spec format this tool reads), not {got}")
        top.require(("name",))
        spec_name = top.opt_str("name")
        if not spec_name:
            raise SpecError(top.at("name"), "'name' must be a non-empty string")
        atoms = _Atoms()
        includes = self._includes(f, top, atoms)   # first, so that a clash points at this file's atom
        for n, m, loc in self._section(f, top, "mma_atoms"):
            atoms.add(atoms.mma, _mma_atom(f, n, m, loc), "MMA atom", loc)
        for n, m, loc in self._section(f, top, "copy_atoms"):
            atoms.add(atoms.copy, _copy_atom(f, n, m, loc), "copy atom", loc)
        checks = {n: _check(f, n, m, loc, atoms) for n, m, loc in self._section(f, top, "checks")}
        return Spec(path=path, name=spec_name, version=FORMAT_VERSION, mma_atoms=atoms.mma, copy_atoms=atoms.copy,
                    checks=checks, includes=includes, loc=f.node(doc), description=top.opt_str("description"))

    def _includes(self, f: _File, top: _Fields, atoms: _Atoms) -> list[str]:
        if not top.has("include"):
            return []
        x = top.m["include"]
        items = [(x, top.at("include"))] if isinstance(x, str) else None
        if isinstance(x, CommentedSeq):
            items = [(v, f.item(x, i)) for i, v in enumerate(x)]
        if items is None:
            raise SpecError(top.at("include"), f"'include' must be a list of file paths, not {_show(x)}")
        paths = []
        for rel, loc in items:
            if not isinstance(rel, str) or not rel.strip():
                raise SpecError(loc, f"an include must be a file path, not {_show(rel)}")
            path = os.path.normpath(os.path.join(os.path.dirname(f.path), str(rel)))
            if not os.path.isfile(path):
                raise SpecError(loc, f"included file '{rel}' not found (looked for {path})")
            try:
                inc = self.load(path, loc)
            except SpecError as e:
                if e.loc is None or e.loc.file == f.path:
                    raise
                raise SpecError(e.loc, f"{e.message} (included from {loc})") from None
            for atom in inc.mma_atoms.values():   # only atoms are imported, never the include's checks
                atoms.add(atoms.mma, atom, "MMA atom", loc)
            for atom in inc.copy_atoms.values():
                atoms.add(atoms.copy, atom, "copy atom", loc)
            paths.append(path)
        return paths

    @staticmethod
    def _section(f: _File, top: _Fields, section: str) -> list[tuple[str, Any, Loc]]:
        """(name, body, where the name is written) for each entry of a top-level section, in file order."""
        if not top.has(section):
            return []
        table = top.m[section]
        if not isinstance(table, CommentedMap):
            raise SpecError(top.at(section), f"'{section}' must be a mapping of names to entries, not {_show(table)}")
        entries = []
        for name, body in table.items():
            loc = f.key(table, name)
            if not isinstance(name, str) or not name.strip():
                raise SpecError(loc, f"a name in '{section}' must be a non-empty string, not {_show(name)}")
            entries.append((str(name), body, loc))
        return entries


def load_spec(path: str | Path) -> Spec:
    """Loads and validates one spec file with its includes; every problem raises SpecError(file:line:column)."""
    return _Loader().load(str(path))


def load_specs(paths: Iterable[str | Path]) -> list[Spec]:
    """Loads files, and every *.yaml / *.yml under directories (recursively, sorted), each file once."""
    loader, seen, specs = _Loader(), set(), []
    for path in _spec_files(paths):
        key = Path(path).resolve()
        if key not in seen:
            seen.add(key)
            specs.append(loader.load(path))
    return specs


def _spec_files(paths: Iterable[str | Path]) -> list[str]:
    files: list[str] = []
    for p in map(Path, paths):
        if p.is_dir():
            files += sorted(str(q) for q in p.rglob("*") if q.suffix in (".yaml", ".yml") and q.is_file())
        elif p.is_file():
            files.append(str(p))
        else:
            raise SpecError(None, f"{p}: no such spec file or directory")
    return files
