"""Name resolution over scanned headers: aliases (plain and templates), MMA_Traits / Copy_Traits lookup with
inheritance, the arch Op struct behind a name, and sizeof of small structs.

Values are computed by the algebra's C++ reader (`read_cpp`); this module only supplies what a name
means, lazily, so that an unreadable alias is an error only for the definitions that use it.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Iterator, Protocol, TypeVar

from ..algebra.cpp_syntax import CppTemplate, TypeName, read_cpp, type_text
from ..algebra.inttuple import AlgebraError
from ..algebra.types import type_bits
from .not_imported import CUTE_REFUSES
from .scanner import AliasDecl, DataMember, Decl, EnumDecl, Header, StructDecl, TemplateParam

TRAITS = ("MMA_Traits", "Copy_Traits")
_MISSING = object()


class ResolveError(Exception):
    """A name or value that could not be read; the message says which definition and where."""


def normalize(text: str) -> str:
    """C++ spelling without spaces and without a leading cute:: (`SM80_CP_ASYNC_CACHEALWAYS<uint32_t>`)."""
    text = re.sub(r"\s+", "", text)
    return re.sub(r"^(?:cute::)+", "", text)


def _bare_type(text: str) -> str:
    """A template argument without blanks and the cutlass:: / cute:: namespaces (`cutlass::float_e2m1_t`)."""
    return re.sub(r"\b(?:cutlass|cute)::", "", re.sub(r"\s+", "", text))


def split_top(text: str, sep: str = ",") -> list[str]:
    """Split at `sep` outside <>, (), {} and []."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "<({[":
            depth += 1
        elif ch in ">)}]":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    tail = text[start:].strip()
    if tail or parts:
        parts.append(tail)
    return parts


def template_head(text: str) -> tuple[str, list[str] | None]:
    """`T<a, b>` -> ("T", ["a", "b"]); `T` -> ("T", None)."""
    text = text.strip()
    m = re.match(r"^(?:typename\s+)?([A-Za-z_][\w:]*)\s*(<(.*)>)?\s*$", text, re.S)
    if not m:
        return text, None
    return m.group(1), (split_top(m.group(3)) if m.group(2) is not None else None)


class Named(Protocol):
    """A named declaration of the scanned headers (an alias, a struct, an enum)."""
    header: str
    namespace: str
    name: str


D = TypeVar("D", bound=Named)


def qualified(decl: Named) -> str:
    return f"{decl.namespace}::{decl.name}" if decl.namespace else decl.name


class SizedType(TypeName):
    """A type the reader does not know by name but whose size the headers give (a struct of doubles)."""
    bits: int

    def __new__(cls, name: str, bits: int) -> "SizedType":
        obj = str.__new__(cls, name)
        obj.targs = []
        obj.bits = bits
        return obj


class Index:
    """Every declaration of the scanned headers, by simple name."""

    def __init__(self, headers: list[Header]) -> None:
        self.headers = headers
        self.aliases: dict[str, list[AliasDecl]] = {}
        self.structs: dict[str, list[StructDecl]] = {}
        self.enums: dict[str, list[EnumDecl]] = {}
        self.traits: list[StructDecl] = []
        for h in headers:
            for d in h.decls:
                self._add(d, top=True)

    def _add(self, d: Decl, top: bool) -> None:
        if isinstance(d, StructDecl):
            if d.name in TRAITS:
                if d.args is not None:
                    self.traits.append(d)       # their members are the trait's, not namespace aliases
                return
            self.structs.setdefault(d.name.split("::")[-1], []).append(d)
            for m in d.members:
                if isinstance(m, (StructDecl, EnumDecl)):
                    self._add(m, top=False)
        elif isinstance(d, AliasDecl) and top:
            self.aliases.setdefault(d.name, []).append(d)
        elif isinstance(d, EnumDecl):
            self.enums.setdefault(d.name, []).append(d)

    @staticmethod
    def pick(decls: list[D], name: str, header: str | None) -> D | None:
        """The declaration `name` most likely means: the qualified match, then the same header, then the first."""
        if not decls:
            return None
        want = normalize(name)
        if "::" in want:
            exact = [d for d in decls if normalize(qualified(d)).endswith(want)]
            decls = exact or decls
        same = [d for d in decls if d.header == header]
        return (same or decls)[0]


class Scope(Mapping[str, Any]):
    """The names visible where a text is evaluated: template bindings, the members of the trait being read,
    MMA_Traits / Copy_Traits, then namespace-level aliases and sized types.  A qualified name `X::Y` is
    looked up as written, never as a bare `Y` (which could be a member of the trait being read)."""

    exact_names = True

    def __init__(self, resolver: "Resolver", header: str, bindings: Mapping[str, Any] | None = None,
                 members: "TraitView | None" = None) -> None:
        self.resolver, self.header = resolver, header
        self.bindings = dict(bindings or {})
        self.members = members
        self._cache: dict[str, Any] = {}

    def _lookup(self, name: str) -> Any:
        if name in self._cache:
            return self._cache[name]
        simple = name.split("::")[-1]
        value: Any = _MISSING
        if "::" not in name and name in self.bindings:
            value = self.bindings[name]
        elif "::" not in name and self.members is not None and self.members.has(name):
            value = self.members.get(name)
        elif simple in TRAITS:
            value = TraitsTemplate(self.resolver, simple)
        elif "::" in name and name.split("::")[0] in self:
            # `UnderlyingTraits::ValTypeA`: a member of a trait that a member or binding names
            owner = self[name.split("::")[0]]
            value = owner.cpp_member(name.split("::", 1)[1]) if hasattr(owner, "cpp_member") else _MISSING
        else:
            value = self.resolver.alias_value(name, self.header)
            if value is _MISSING:
                value = self.resolver.sized_type(name)
        self._cache[name] = value
        return value

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._lookup(name) is not _MISSING

    def __getitem__(self, name: str) -> Any:
        value = self._lookup(name)
        if value is _MISSING:
            raise KeyError(name)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self.bindings)

    def __len__(self) -> int:
        return len(self.bindings)

    def __bool__(self) -> bool:        # never an empty mapping: names are found on demand
        return True


class AliasTemplate(CppTemplate):
    """`template <int N> using CLayout_64xN = Layout<...Int<N/8>...>;`"""

    def __init__(self, resolver: "Resolver", decl: AliasDecl) -> None:
        self.resolver, self.decl = resolver, decl

    def instantiate(self, targs: list[Any]) -> Any:
        bindings = self.resolver.bind(self.decl.params or [], targs, self.decl.header, what=self.decl.name)
        return self.resolver.evaluate(self.decl.value, Scope(self.resolver, self.decl.header, bindings),
                                      where=f"{self.decl.name} ({self.decl.header}:{self.decl.line})")


class TraitsTemplate(CppTemplate):
    """`MMA_Traits<Op>` / `Copy_Traits<Op>` written inside a header (a base class, `::DstLayout`)."""

    def __init__(self, resolver: "Resolver", kind: str) -> None:
        self.resolver, self.kind = resolver, kind

    def instantiate(self, targs: list[Any]) -> "TraitView":
        if len(targs) != 1:
            raise ResolveError(f"{self.kind} with {len(targs)} template arguments is not an atom's traits")
        return self.resolver.trait(self.kind, targs[0])


class TraitView:
    """One MMA_Traits / Copy_Traits instance: its members, with those it inherits."""

    def __init__(self, resolver: "Resolver", decl: StructDecl, bindings: Mapping[str, Any]) -> None:
        self.resolver, self.decl, self.bindings = resolver, decl, dict(bindings)
        self.own = {m.name: m for m in decl.members if isinstance(m, AliasDecl)}
        self._values: dict[str, Any] = {}
        self._bases: list[TraitView] | None = None
        self._busy: set[str] = set()

    @property
    def where(self) -> str:
        return f"{self.decl.header}:{self.decl.line}"

    def bases(self) -> list["TraitView"]:
        if self._bases is None:
            self._bases = []
            scope = Scope(self.resolver, self.decl.header, self.bindings)
            for text in split_top(self.decl.bases):
                text = re.sub(r"^(public|private|protected)\s+", "", text)
                if text:
                    base = self.resolver.evaluate(text, scope, where=f"base class {text} ({self.where})")
                    if isinstance(base, TraitView):
                        self._bases.append(base)
        return self._bases

    def has(self, name: str) -> bool:
        return name in self.own or any(b.has(name) for b in self.bases())

    def origin(self, name: str) -> tuple[AliasDecl, "TraitView"] | None:
        """Where member `name` is written (this trait or a base)."""
        if name in self.own:
            return self.own[name], self
        for b in self.bases():
            found = b.origin(name)
            if found:
                return found
        return None

    def get(self, name: str) -> Any:
        if name in self._values:
            return self._values[name]
        if name not in self.own:
            for b in self.bases():
                if b.has(name):
                    return b.get(name)
            raise ResolveError(f"no member {name}")
        if name in self._busy:
            raise ResolveError(f"member {name} refers to itself")
        self._busy.add(name)
        try:
            decl = self.own[name]
            value = self.resolver.evaluate(decl.value, Scope(self.resolver, self.decl.header, self.bindings, self),
                                           where=f"{name} ({decl.header}:{decl.line})")
        finally:
            self._busy.discard(name)
        self._values[name] = value
        return value

    def cpp_member(self, name: str) -> Any:
        return self.get(name)


class Resolver:
    def __init__(self, index: Index) -> None:
        self.index = index
        self._alias_cache: dict[int, Any] = {}
        self._busy: set[int] = set()
        self._traits_cache: dict[tuple[str, str], TraitView] = {}

    # -- evaluation --------------------------------------------------------------------------------
    def evaluate(self, text: str, scope: Scope, where: str) -> Any:
        try:
            return read_cpp(text, scope)
        except ResolveError as e:
            raise ResolveError(f"{where}: {e}") if not str(e).startswith(where) else e from None
        except RecursionError:
            raise ResolveError(f"{where}: nested too deeply") from None
        except AlgebraError as e:      # one of CuTe's own static_asserts (its message is the rule)
            raise ResolveError(f"{where}: {CUTE_REFUSES}: {_message(e)}") from None
        except (ValueError, ArithmeticError, LookupError) as e:
            # the reader's parse errors and the algebra's rules (both ValueErrors), a division CuTe would not
            # compile, an unknown name: the definition cannot be imported, and the report says why
            raise ResolveError(f"{where}: {_message(e)}") from None

    def bind(self, params: list[TemplateParam], targs: list[Any], header: str, what: str) -> dict[str, Any]:
        """Template parameters bound to arguments, defaults filled in (they may use earlier parameters)."""
        bindings: dict[str, Any] = {}
        for i, p in enumerate(params):
            if p.kind == "pack":
                bindings[p.name] = list(targs[i:])
                break
            if i < len(targs):
                bindings[p.name] = targs[i]
            elif p.default is not None:
                bindings[p.name] = self.evaluate(p.default, Scope(self, header, bindings),
                                                 where=f"default of {p.name} in {what}")
            else:
                raise ResolveError(f"{what}: no argument for template parameter {p.name}")
        return bindings

    # -- aliases -----------------------------------------------------------------------------------
    def alias_decl(self, name: str, header: str | None) -> AliasDecl | None:
        return Index.pick(self.index.aliases.get(name.split("::")[-1], []), name, header)

    def alias_value(self, name: str, header: str | None) -> Any:
        decl = self.alias_decl(name, header)
        if decl is None:
            return _MISSING
        if decl.params is not None:
            return AliasTemplate(self, decl)
        key = id(decl)
        if key in self._alias_cache:
            return self._alias_cache[key]
        if key in self._busy:
            raise ResolveError(f"alias {decl.name} ({decl.header}:{decl.line}) refers to itself")
        self._busy.add(key)
        try:
            value = self.evaluate(decl.value, Scope(self, decl.header),
                                  where=f"{decl.name} ({decl.header}:{decl.line})")
        finally:
            self._busy.discard(key)
        self._alias_cache[key] = value
        return value

    # -- types -------------------------------------------------------------------------------------
    def sized_type(self, name: str) -> Any:
        """sizeof of a struct whose data members all have one known width (no padding to guess)."""
        if "::" not in name:
            return _MISSING
        decl = Index.pick(self.index.structs.get(name.split("::")[-1], []), name, None)
        if decl is None or not normalize(qualified(decl)).endswith(normalize(name)):
            return _MISSING
        widths = []
        for m in decl.members:
            if isinstance(m, DataMember):
                try:
                    widths += [type_bits(m.type)] * len(m.names)
                except (KeyError, ValueError):
                    return _MISSING
        if not widths or len(set(widths)) != 1:
            return _MISSING
        return SizedType(normalize(name), sum(widths))

    # -- traits ------------------------------------------------------------------------------------
    def canonical(self, name: str) -> str:
        """Follow aliases and using-declarations from an Op's name to the struct that defines it."""
        seen = set()
        head, _ = template_head(name)
        while head not in seen:
            seen.add(head)
            decl = self.alias_decl(head, None)
            if decl is None:
                break
            head, _ = template_head(decl.value)
        return normalize(head).split("::")[-1]

    def arch_struct(self, name: str) -> StructDecl | None:
        simple = self.canonical(name)
        return Index.pick(self.index.structs.get(simple, []), simple, None)

    def arch_specialization(self, name: str, targs: list[str]) -> StructDecl | None:
        """The explicit specialisation `template <> struct Op<targs...>` of an Op (sm_120's SM120_16x8x32_TN<
        float_e2m1_t, float_e3m2_t, float>: one asm each, the primary template none), or None when it has none."""
        simple = self.canonical(name)
        want = [_bare_type(a) for a in targs]
        for d in self.index.structs.get(simple, []):
            if d.params == [] and d.args is not None and [_bare_type(a) for a in split_top(d.args)] == want:
                return d
        return None

    def trait(self, kind: str, op: Any) -> TraitView:
        key = normalize(type_text(op))
        cached = self._traits_cache.get((kind, key))
        if cached is not None:
            return cached
        view = self._find_trait(kind, op, key)
        self._traits_cache[(kind, key)] = view
        return view

    def _find_trait(self, kind: str, op: Any, key: str) -> TraitView:
        explicit = [d for d in self.index.traits if d.name == kind and not d.params]
        for d in explicit:
            if normalize(d.args or "") == key:
                return TraitView(self, d, {})
        canon = self.canonical(key)
        for d in explicit:
            if self.canonical(d.args or "") == canon and template_head(d.args or "")[1] is None:
                return TraitView(self, d, {})
        head, args = template_head(key)
        targs = list(getattr(op, "targs", []) or [])
        for d in self.index.traits:
            if d.name != kind or not d.params:
                continue
            phead, pargs = template_head(d.args or "")
            if pargs is None or self.canonical(phead) != self.canonical(head):
                continue
            names = [p.name for p in d.params]
            if not all(a in names for a in pargs):
                continue
            arch = self.arch_struct(phead)
            op_params = arch.params if arch is not None and arch.params else []
            full = self.bind(op_params, targs, arch.header, phead) if arch is not None and op_params else {}
            values = [full.get(p.name) for p in op_params] if op_params else targs
            bindings = {a: v for a, v in zip(pargs, values)}
            return TraitView(self, d, bindings)
        raise ResolveError(f"no {kind}<{key}> specialisation was found")

    def enumerators(self, type_name: str) -> list[str]:
        decl = Index.pick(self.index.enums.get(type_name.split("::")[-1], []), type_name, None)
        return [] if decl is None else [f"{type_name}::{e}" for e in decl.enumerators]


def _message(e: Exception) -> str:
    text = getattr(e, "message", None) or str(e)
    return text if isinstance(text, str) else str(e)
