"""`import-kernel`: the CuTe configuration a C++ kernel source defines, as checks.

Each scope's declarations (kernel_source.py) are evaluated in order with the C++ reader of the layout algebra
(cpp_syntax.py) extended by the configuration vocabulary: `make_tiled_mma(Op{}, Layout, Tile)` and
`TiledMMA<MMA_Atom<Op>, Layout, Tile>`, `Copy_Atom<Op, T>`, `make_tiled_copy_A/B/C(atom, mma)`,
`shape<I>(t)`.  A name is looked up in its scope, then in the enclosing ones.  Then, per scope and operand
(A, B): the tiled MMA, the shared->register copy atom of that operand (a `make_tiled_copy_X` of it, or a
Copy_Atom named for it: `s2r_atom_A`, `SmemCopyAtomA`), and the operand's shared-memory layout (`sA`,
`SmemLayoutA`, or `SmemLayoutAtomA` tiled to the CTA tile's (MN, K) as a collective does) make one check;
a layout with a pipeline mode is checked on its first stage.  A declaration that names CuTe vocabulary but
cannot be read is reported with file:line:column and why; so is an operand path that lacks a piece.
"""
from __future__ import annotations

import re
from collections import ChainMap
from dataclasses import dataclass, field
from typing import Any, Mapping, MutableMapping

from ..algebra import functions as F
from ..algebra.cpp_syntax import CppParseError, CppReader, TypeName, type_text
from ..algebra.inttuple import AlgebraError, is_tuple
from ..algebra.layout import Layout
from ..algebra.swizzle import ComposedLayout
from ..algebra.syntax import first_name
from .kernel_source import Declaration, Scope, compiled_text, scan_scopes
from .resolver import split_top

OPERANDS = ("A", "B")
CUTE_WORDS = re.compile(r"\b(?:Layout|Shape|Stride|Swizzle|composition|tile_to_shape|make_layout|make_shape|"
                        r"make_tiled_mma|make_tiled_copy\w*|Copy_Atom|MMA_Atom|TiledMMA|Tile|Int)\b|\b_\d+\b")
NAMESPACES = re.compile(r"\b(?:cute|cutlass|arch|gemm|std)::")


@dataclass(frozen=True)
class TiledMMAConfig:
    """make_tiled_mma(atom, atom_layout, permutation)."""
    atom: str
    atom_layout: Layout | None = None
    permutation: tuple[Any, ...] | None = None      # Tile<...>: sizes, layouts, `_` (the reader's values)


@dataclass(frozen=True)
class CopyAtomConfig:
    """Copy_Atom<Op, T>."""
    op: str
    value_type: str


@dataclass(frozen=True)
class TiledCopyConfig:
    """make_tiled_copy_X(atom, tiled_mma)."""
    operand: str
    atom: CopyAtomConfig
    mma: TiledMMAConfig


def cpp_name(t: Any) -> str:
    """A C++ type as a spec names it: namespaces dropped, no spaces (`cute::half_t` -> `half_t`)."""
    return NAMESPACES.sub("", re.sub(r"\s+", "", type_text(t)))


class KernelReader(CppReader):
    """The layout reader plus the vocabulary a kernel configures CuTe with, and the file's struct templates
    (`X<args>::Member` is read from the specialization of X that matches args)."""

    def __init__(self, text: str, env: Mapping[str, Any], templates: "StructTemplates | None" = None) -> None:
        super().__init__(text, env)
        self.templates = templates

    def build(self, base: str, full: str, targs: list[Any] | None, cargs: list[Any] | None, pos: int) -> Any:
        if "::" in full and targs is None and cargs is None:     # Alias::Member, Alias an instance of a struct
            prefix, member = full.rsplit("::", 1)
            owner = self.env.get(prefix, self.env.get(prefix.rsplit("::", 1)[-1]))
            if hasattr(owner, "cpp_member"):
                return owner.cpp_member(member)
        if self.templates is not None and targs is not None and cargs is None and base in self.templates.by_name:
            instance = self.templates.instance(base, targs)
            if instance is None:
                raise CppParseError(f"no specialization of {base} matches <{', '.join(map(cpp_name, targs))}>", pos)
            return instance
        if base == "make_tiled_mma" and cargs:
            return _tiled_mma(cargs[0], cargs[1:], pos)
        if base == "TiledMMA" and targs:
            return _tiled_mma(targs[0], targs[1:], pos)
        if base == "MMA_Atom" and targs:
            return _tiled_mma(targs[0], [], pos)
        if base == "Copy_Atom" and targs and len(targs) == 2:
            op = targs[0]
            return CopyAtomConfig(cpp_name(op), cpp_name(targs[1]))
        m = re.fullmatch(r"make_tiled_copy_([ABC])", base)
        if m and cargs and len(cargs) == 2:
            atom, mma = cargs
            if not isinstance(atom, CopyAtomConfig) or not isinstance(mma, TiledMMAConfig):
                raise CppParseError(f"{base}: its arguments are not a Copy_Atom and a tiled MMA known here (template "
                                    "parameters are read where the configuration defines them)", pos)
            return TiledCopyConfig(m.group(1), atom, mma)
        if base in ("shape", "get") and targs and len(targs) == 1 and cargs and len(cargs) == 1:
            whole, i = cargs[0], targs[0]
            if isinstance(whole, Layout):
                whole = whole.shape
            if not is_tuple(whole) or not isinstance(i, int) or not 0 <= i < len(whole):
                raise CppParseError(f"{base}<{i}> of {whole}", pos)
            return whole[i]
        return super().build(base, full, targs, cargs, pos)


def _tiled_mma(op: Any, rest: list[Any], pos: int) -> TiledMMAConfig:
    if isinstance(op, TiledMMAConfig):     # MMA_Atom<Op> given to make_tiled_mma / TiledMMA
        op = op.atom
    if not isinstance(op, str):
        raise CppParseError("make_tiled_mma: the first argument is not an MMA operation", pos)
    atom_layout = rest[0] if rest else None
    if atom_layout is not None and not isinstance(atom_layout, Layout):
        raise CppParseError("make_tiled_mma: the thread layout is not a layout", pos)
    permutation = tuple(rest[1]) if len(rest) > 1 and is_tuple(rest[1]) else None
    # a name left in the thread layout or the permutation is one the reader could not resolve: never a layout
    unknown = first_name(atom_layout) if atom_layout is not None else None
    unknown = unknown or (first_name(permutation) if permutation is not None else None)
    if unknown is not None:
        raise CppParseError(f"make_tiled_mma: its layouts depend on '{unknown}', a value known only at run time or a "
                            "name the reader does not know", pos)
    return TiledMMAConfig(cpp_name(op), atom_layout, permutation)


def _norm(x: Any) -> str:
    """A template argument for matching: namespaces and spaces dropped (`cutlass::layout::RowMajor` -> `RowMajor`)."""
    return re.sub(r"\b\w+::", "", re.sub(r"\s+", "", x if isinstance(x, str) else type_text(x)))


def _argument(text: str) -> Any:
    """A specialization's argument text as a value: an integer, or a type name."""
    t = text.strip()
    return int(t) if re.fullmatch(r"-?\d+", t) else TypeName(t, [])


class StructInstance:
    """`X<args>`: the struct (a specialization, or the primary template) with its parameters bound; its members are
    read on demand."""

    def __init__(self, scope: Scope, bindings: dict[str, Any], templates: "StructTemplates") -> None:
        self.scope, self.bindings, self.templates = scope, bindings, templates
        self._values: dict[str, Any] | None = None

    def cpp_member(self, name: str) -> Any:
        if self._values is None:
            self._values = {}
            env = ChainMap(self._values, self.bindings, self.templates.outer)
            for d in self.scope.declarations:
                try:
                    self._values[d.name] = KernelReader(d.text, env, self.templates).parse()
                except (CppParseError, AlgebraError, ValueError, ArithmeticError, TypeError, IndexError):
                    continue       # reported when the member is asked for (below), not for members never used
        if name in self._values:
            return self._values[name]
        env = ChainMap(self.bindings, self.templates.outer)
        for base in self.scope.bases:                         # inherited members
            owner = KernelReader(base, env, self.templates).parse()
            if hasattr(owner, "cpp_member"):
                try:
                    return owner.cpp_member(name)
                except CppParseError:
                    continue
        raise CppParseError(f"{self.scope.name} (line {self.scope.line}) has no readable member {name}")


class StructTemplates:
    """The struct templates of a file: primary templates and specializations, by name."""

    def __init__(self, scopes: list[Scope]) -> None:
        self.by_name: dict[str, list[Scope]] = {}
        for sc in scopes:
            if sc.kind in ("struct", "class"):
                self.by_name.setdefault(sc.name, []).append(sc)
        # the enclosing file / namespace scope's names: a dict or ChainMap (ChainMap takes mutable maps)
        self.outer: MutableMapping[str, Any] = {}

    def instance(self, name: str, args: list[Any]) -> StructInstance | None:
        """The most specialized struct `name` whose arguments match `args` (fewest free parameters)."""
        best: tuple[int, Scope, dict[str, Any]] | None = None
        for sc in self.by_name.get(name, []):
            bound = self.match(sc, args)
            if bound is not None and (best is None or len(sc.params) < best[0]):
                best = (len(sc.params), sc, bound)
        return None if best is None else StructInstance(best[1], best[2], self)

    @staticmethod
    def match(sc: Scope, args: list[Any]) -> dict[str, Any] | None:
        if sc.spec_args is None:                                  # the primary template: positional
            return dict(zip(sc.params, args)) if len(args) <= len(sc.params) else None
        if len(sc.spec_args) != len(args):
            return None
        bound: dict[str, Any] = {}
        for pattern, actual in zip(sc.spec_args, args):
            p = pattern.strip()
            if p in sc.params:
                if p in bound and _norm(bound[p]) != _norm(actual):
                    return None
                bound[p] = actual
            elif _norm(p) != _norm(actual):
                return None
        return bound

    def candidates(self, sc: Scope) -> dict[str, list[Any]]:
        """Values for a struct's free template parameters: the arguments that specializations of the templates it
        passes them to are written for (`DefaultOperand<half_t, LayoutA, 8, 32>` and specializations for
        RowMajor and ColumnMajor give LayoutA those two)."""
        found: dict[str, list[Any]] = {}
        for d in sc.declarations:
            for m in re.finditer(r"([A-Za-z_]\w*)\s*<", d.text):
                if m.group(1) not in self.by_name:
                    continue
                end = d.text.find(">", m.end())
                depth, j = 1, m.end()
                while j < len(d.text) and depth:
                    depth += {"<": 1, ">": -1}.get(d.text[j], 0)
                    j += 1
                args = [a.strip() for a in split_top(d.text[m.end():j - 1])] if end >= 0 else []
                for i, a in enumerate(args):
                    if a not in sc.params:
                        continue
                    for spec in self.by_name[m.group(1)]:
                        if spec.spec_args is not None and i < len(spec.spec_args) and \
                                spec.spec_args[i].strip() not in spec.params:
                            value = _argument(spec.spec_args[i])
                            if all(_norm(value) != _norm(v) for v in found.get(a, [])):
                                found.setdefault(a, []).append(value)
        return found


# an operand path already checked: (tiled MMA, operand, copy atom, the shared layout's text)
PathKey = tuple[TiledMMAConfig, str, CopyAtomConfig, str]


@dataclass(frozen=True)
class Unreadable:
    file: str
    line: int
    column: int
    what: str
    why: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.what}: {self.why}"


@dataclass
class KernelCheck:
    """One operand path: a check of the spec import-kernel writes."""
    name: str
    scope: str
    file: str
    line: int
    mma: TiledMMAConfig
    operand: str
    copy: CopyAtomConfig
    smem: Any
    smem_from: str                 # how the shared layout was found, for the description
    cpp_name: str | None = None    # the shared layout's C++ type, qualified (`Config::SmemLayoutA`), where it is one


@dataclass
class KernelImport:
    checks: list[KernelCheck] = field(default_factory=list)
    unreadable: list[Unreadable] = field(default_factory=list)
    compared: int = 0              # --check-reader: shared layouts compared with CuTe's own
    differ: int = 0                # ... of which the reader had wrong (CuTe's is used)
    toolchain: str | None = None   # ... the compiler and headers that computed CuTe's


def _evaluate(scope: Scope, outer: MutableMapping[str, Any], file: str, out: KernelImport,
              templates: StructTemplates) -> dict[str, Any]:
    """The values of a scope's declarations, in order (a failing one is reported when it names CuTe vocabulary)."""
    values: dict[str, Any] = {}
    env = ChainMap(values, outer)
    for d in scope.declarations:
        try:
            value = KernelReader(d.text, env, templates).parse()
            name = first_name(value) if isinstance(value, (Layout, ComposedLayout, tuple)) else None
            if name is not None:
                raise CppParseError(f"depends on '{name}', a value known only at run time or a name the reader "
                                    "does not know")
            values[d.name] = value
        except (CppParseError, AlgebraError, ValueError, ArithmeticError, TypeError, IndexError, RecursionError) as e:
            if CUTE_WORDS.search(d.text):
                why = (e.message if isinstance(e, CppParseError) else
                       "an expression of run-time values" if isinstance(e, TypeError) else f"{type(e).__name__}: {e}")
                out.unreadable.append(Unreadable(file, d.line, d.column, f"'{d.name}'", _plain_reason(why, d)))
    return values


def _plain_reason(why: str, d: Declaration) -> str:
    if "cannot read" in why and re.search(r"\b[a-z]\w*\b", d.text):
        return f"{why} (a value known only at run time, or a function the reader does not model)"
    return why


def _named_for(name: str, operand: str) -> bool:
    """`s2r_atom_A`, `SmemCopyAtomA`, `smem_copy_atom_a`, `sA`: a name that says which operand it is for."""
    return bool(re.search(rf"(?:^|_|[a-z0-9]){operand}$", name) or re.search(rf"(?:^|_){operand.lower()}$", name))


def _cpp_name(scope: Scope, name: str) -> str | None:
    """`Outer::Inner::name` when `name` is a type alias (`using`) of a struct / namespace / file scope (what a
    host program can name); else None."""
    declared = next((d for s in scope.lookup_chain() for d in s.declarations if d.name == name), None)
    if declared is None or declared.declared != "using" or not re.fullmatch(r"[A-Za-z_]\w*", name):
        return None
    owner = next(s for s in scope.lookup_chain() if declared in s.declarations)
    parts = []
    s: Scope | None = owner
    while s is not None and s.kind != "file":
        if s.kind not in ("struct", "class", "namespace") or s.params or not s.name:
            return None
        parts.append(s.name)
        s = s.parent
    return "::".join([*reversed(parts), name])


def first_stage(layout: Any) -> Any:
    """A shared layout with a pipeline mode, as a check reads it: its first stage."""
    from ..algebra.swizzle import first_stage as leading
    return leading(layout) if isinstance(layout, (Layout, ComposedLayout)) else layout


def _smem_for(env: Mapping[str, Any], operand: str) -> tuple[Any, str] | None:
    layouts = {k: v for k, v in env.items() if isinstance(v, (Layout, ComposedLayout))}
    for name, value in layouts.items():
        if name == f"s{operand}" or re.fullmatch(rf"(?:Smem|smem_?|sm_?)[Ll]ayout_?{operand}|{operand.lower()}?_?"
                                                 rf"smem_layout(?:_{operand.lower()})?", name):
            return first_stage(value), f"{name}"
    tile = next((v for k, v in env.items() if k in ("TileShape", "CtaTiler", "cta_tiler", "TileShape_MNK")
                 and is_tuple(v) and len(v) == 3), None)
    for name, value in layouts.items():
        if re.fullmatch(rf"(?:Smem|smem_?)[Ll]ayout_?[Aa]tom_?{operand}|{operand.lower()}_smem_layout_atom",
                        name) and tile is not None:
            mn = int(tile[0] if operand == "A" else tile[1])
            return F.tile_to_shape(value, (mn, int(tile[2]))), f"tile_to_shape({name}, ({mn}, {int(tile[2])}))"
    return None


def _pair(scope: Scope, env: Mapping[str, Any], file: str, out: KernelImport, used: set[str],
          seen: dict[PathKey, str],
          bindings: Mapping[str, Any]) -> None:
    own = {d.name for d in scope.declarations}
    if not any(isinstance(env.get(n), (TiledMMAConfig, CopyAtomConfig, TiledCopyConfig, Layout, ComposedLayout))
               for n in own):
        return
    mmas = {k: v for k, v in env.items() if isinstance(v, TiledMMAConfig)}
    distinct_mmas = set(mmas.values())
    for operand in OPERANDS:
        tiled = [v for v in env.values() if isinstance(v, TiledCopyConfig) and v.operand == operand]
        atoms = [v for k, v in env.items() if isinstance(v, CopyAtomConfig) and _named_for(k, operand)]
        what = f"operand {operand} of {scope.name or 'file'}"
        try:
            smem = _smem_for(env, operand)
        except AlgebraError as e:      # CuTe refuses to build it (tile_to_shape of the atom to the tile shape...)
            out.unreadable.append(Unreadable(file, scope.line, 1, what,
                                             f"its shared-memory layout is one CuTe refuses to build: {e}"))
            continue
        if tiled:
            mma, copy = tiled[0].mma, tiled[0].atom
        elif atoms and len(distinct_mmas) == 1:
            mma, copy = next(iter(distinct_mmas)), atoms[0]
        else:
            if (atoms or smem) and len(distinct_mmas) > 1:
                out.unreadable.append(Unreadable(file, scope.line, 1, what,
                                                 f"{len(distinct_mmas)} tiled MMAs and no make_tiled_copy_"
                                                 f"{operand} saying which one the copy is built from"))
            elif smem is not None and mmas:
                out.unreadable.append(Unreadable(file, scope.line, 1, what,
                                                 "a shared-memory layout and a tiled MMA but no shared->register "
                                                 f"Copy_Atom named for {operand} (e.g. s2r_atom_{operand})"))
            continue
        if smem is None:
            out.unreadable.append(Unreadable(file, scope.line, 1, what,
                                             f"a copy atom for {operand} but no shared-memory layout s{operand} / "
                                             f"SmemLayout{operand} / SmemLayoutAtom{operand} with a TileShape"))
            continue
        key = (mma, operand, copy, str(smem[0]))
        if key in seen:                        # another scope or instantiation gives the same operand path
            out.unreadable.append(Unreadable(file, scope.line, 1, what, f"the same operand path as check "
                                                                       f"{seen[key]}, which proves it"))
            continue
        args = scope.spec_args if scope.spec_args is not None else []
        shown = [_norm(bindings[a.strip()]) if a.strip() in bindings else _norm(a) for a in args]
        tag = "_".join(shown) if bindings else ""
        base = re.sub(r"\W+", "_", f"{scope.name or 'kernel'}_{tag}" if tag else (scope.name or "kernel"))
        base = base.strip("_") or "kernel"
        name = f"{base}_{operand.lower()}"
        k = 2
        while name in used:
            name, k = f"{base}_{k}_{operand.lower()}", k + 1
        used.add(name)
        seen[key] = name
        where = f"{scope.name}<{', '.join(shown)}>" if bindings else (scope.head or scope.name)
        out.checks.append(KernelCheck(name, where, file, scope.line, mma, operand, copy, smem[0], smem[1],
                                      None if bindings else _cpp_name(scope, smem[1])))


MAX_INSTANCES = 16      # instantiations of one struct template over its parameters' candidate values


def import_kernel(source: str, file: str, out: KernelImport | None = None, used: set[str] | None = None,
                  defines: Mapping[str, str] | None = None) -> KernelImport:
    """The checks `source` (the text of `file`) defines, and what could not be read.  A struct template is read
    once per combination of the values its parameters can take (StructTemplates.candidates); its checks carry
    the arguments in their names."""
    out = out if out is not None else KernelImport()
    used = used if used is not None else set()
    scopes = scan_scopes(source, defines or {})
    for b in compiled_text(source, defines or {})[1]:
        if b.taken is None:
            out.unreadable.append(Unreadable(file, b.line, 1, b.directive, f"undecided: {b.why}; its lines are not "
                                                                           "read"))
        elif not b.taken:
            out.unreadable.append(Unreadable(file, b.line, 1, b.directive, "a branch these macros do not compile "
                                                                           f"({_macros(defines)}): its lines are "
                                                                           "not read"))
    templates = StructTemplates(scopes)
    values: dict[int, MutableMapping[str, Any]] = {}
    seen: dict[PathKey, str] = {}
    for scope in scopes:                       # file order: a scope's enclosing scopes come before it
        chain = scope.parent
        while chain is not None and id(chain) not in values:
            chain = chain.parent
        outer: MutableMapping[str, Any] = values[id(chain)] if chain is not None else {}
        if chain is None:
            templates.outer = outer
        for bindings in _instantiations(scope, templates):
            scoped = ChainMap(dict(bindings), outer)
            own = _evaluate(scope, scoped, file, out, templates) if bindings or not scope.params else \
                _evaluate(scope, outer, file, out, templates)
            env = ChainMap(own, scoped)
            if not bindings:
                values[id(scope)] = env
                if scope.kind == "file" or scope.kind == "namespace":
                    templates.outer = env
            _pair(scope, env, file, out, used, seen, bindings)
    return out


def _macros(defines: Mapping[str, str] | None) -> str:
    return " ".join(f"-D {k}={v}" for k, v in (defines or {}).items()) or "no -D"


def _instantiations(scope: Scope, templates: StructTemplates) -> list[dict[str, Any]]:
    """The parameter bindings a scope is read with: none for a non-template; every combination of candidate
    values (at most MAX_INSTANCES) for a struct template whose parameters have some."""
    if not scope.params:
        return [{}]
    found = templates.candidates(scope)
    if not found:
        return [{}]
    combos: list[dict[str, Any]] = [{}]
    for name, options in found.items():
        combos = [dict(c, **{name: o}) for c in combos for o in options][:MAX_INSTANCES]
    return combos


__all__ = ["import_kernel", "KernelImport", "KernelCheck", "Unreadable", "TiledMMAConfig", "CopyAtomConfig",
           "TypeName"]
