"""Reading spec files (format version 1, ../DESIGN.md) into validated `Spec` objects.

ruamel.yaml's round-trip loader keeps the line and column of every node and refuses duplicate keys, so
every problem becomes a `SpecError` that says `file:line:column: message`; nothing else escapes.  Where libyaml
composes exactly the node tree ruamel's parser would (verifier/specfile/libyaml.py), it composes it, faster; every
error is still ruamel's.
Layout strings are parsed by the algebra's own parser, and its column is mapped back into the file.

Hostile input is bounded before it can cost much: files over MAX_SPEC_BYTES, flow collections nested deeper
than MAX_FLOW_NESTING, more than MAX_YAML_EVENTS parser events, documents whose aliases expand past
MAX_YAML_NODES nodes, keys that are lists or maps, and integers with absurdly many digits are refused with
one line; messages repeat at most ECHO_LIMIT characters of any value. An included file must show it is a
spec (a mapping with `version: 1`) before anything it contains is quoted, and it must lie inside the
repository of the spec the user named unless `allow_outside` is given.
"""
from __future__ import annotations

import difflib
import math
import os
import re
import stat
import warnings
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import (MarkedYAMLError, MarkedYAMLFutureWarning, MarkedYAMLWarning, YAMLError,
                               YAMLFutureWarning, YAMLWarning)
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from ruamel.yaml.parser import Parser
from ruamel.yaml.reader import ReaderError
from ruamel.yaml.scanner import Scanner
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, SingleQuotedScalarString

from ..algebra import ComposedLayout, Layout, ParseError, SmemPtrFlag, parse_layout, type_bits
from ..algebra.inttuple import Underscore, flatten_to_tuple
from ..echo import ECHO_LIMIT, quote, quote_path, shorten
from ..cute.operand import Operand
from ..outcome import Expect
from ..smem import position_independent
from . import libyaml
from .files import is_inside, repository_root, spec_files
from .model import (TMA_COPIES, UMMA_INSTRUCTION, CheckSpec, CopyAtomSpec, Loc, MMAAtomSpec, Spec, SpecError,
                    TiledSpec, TmemStoreSpec, ValueType)
from .sweep import SWEEP_KEY, expand

FORMAT_VERSION = 2            # the newest spec format this tool reads
FORMAT_VERSIONS = (1, 2)      # version 2 adds the Hopper keys (V2_KEYS); version 1 files stay valid
MAX_ELEMENTS = 1 << 24     # larger layouts are typos, and would make the prover's domains absurd
MAX_GLOBAL_ELEMENTS = 1 << 40   # a global tensor is never enumerated (the parser's own limit)
MAX_THREADS = 1024         # a CUDA block's limit: a tiled MMA cannot have more threads
MAX_SPEC_BYTES = 1 << 20   # the largest spec of the catalog is 114 KB; ruamel's pure parser reads ~0.3 MB a second
MAX_FLOW_NESTING = 64      # [ and { inside each other; ruamel's scanner slows quadratically with the depth
MAX_YAML_EVENTS = 30_000   # parser events (about one per node); the largest spec of specs/ has 9,455
MAX_YAML_NODES = 100_000   # nodes of the document with every alias expanded (a "billion laughs" has 10**9)
MAX_INT_CHARS = 40         # an integer written with more characters is a typo (CuTe's are 64-bit)
MAX_NAME_LENGTH = 200      # characters of a check or atom name
RUAMEL_WARNINGS = (YAMLWarning, YAMLFutureWarning, MarkedYAMLWarning, MarkedYAMLFutureWarning)
INT_TAG = "tag:yaml.org,2002:int"
FLOAT_TAG = "tag:yaml.org,2002:float"
_INT_START = re.compile(r"[-+]?[0-9]")
_FLOAT_START = re.compile(r"[-+]?(\.?[0-9]|\.(inf|nan))", re.IGNORECASE)

TOP_KEYS = ("version", "name", "description", "include", "mma_atoms", "copy_atoms", "checks")
MMA_KEYS = ("instruction", "shape_mnk", "thr_id", "types", "a", "b", "c", "source")
MMA_REQUIRED = ("shape_mnk", "thr_id", "types", "a", "b", "c")
COPY_KEYS = ("instruction", "thr_id", "src", "dst", "ref", "source")
COPY_REQUIRED = ("instruction", "thr_id", "src", "dst", "ref")
GMMA_KEYS = ("gmem", "major", "smem_align", "descriptor", "tma_box")
BANKS_MODES = ("conflict_free", "report")
TMEM_KEYS = ("tmem", "tmem_columns", "store")
STORE_KEYS = ("copy", "value_type", "smem")
V2_KEYS = GMMA_KEYS + TMEM_KEYS + ("banks", "reduction", "smem_type")
TMEM_INSTRUCTIONS = ("tcgen05.ld.", "tcgen05.st.")
MAX_TMEM_ELEMENTS = 128 * 512    # cells of a CTA's tensor memory
REDUCTIONS = ("K",)          # a K-split tiled MMA whose partial C tiles the kernel reduces
DESCRIPTOR_KEYS = ("lbo", "sbo", "base_offset", "swizzle")
DESCRIPTOR_SWIZZLES = ("NONE", "32B", "64B", "128B")
DESCRIPTOR_INSTRUCTIONS = ("wgmma.", UMMA_INSTRUCTION)   # the MMAs that read a shared operand through a descriptor
MAJORS = ("K", "MN")
CHECK_KEYS = GMMA_KEYS + TMEM_KEYS + ("banks", "reduction", "smem_type", "mma", "atom_layout", "permutation",
                                      "operand", "copy", "value_type", "smem", "expect", "copy_for", "copy_mma",
                                      "description")
TILED_KEYS = ("atom_layout", "permutation")
TYPE_KEYS = ("a", "b", "c", "d")
OPERANDS = tuple(o.value for o in Operand)
EXPECTS = tuple(e.value for e in Expect)  # pass | fail | undecided (beyond the solver) | unsupported (no model yet)


# --- positions ---------------------------------------------------------------------------------------

class _File:
    """One YAML file: turns ruamel's 0-based node positions into 1-based `Loc`s."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.version = FORMAT_VERSION

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
    if len(word) > MAX_NAME_LENGTH:   # nothing that long is close to a name, and difflib is quadratic
        return ""
    close = difflib.get_close_matches(word, list(names), n=3, cutoff=0.6)
    return f"; did you mean {' or '.join(quote(c) for c in close)}?" if close else ""


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


# --- scalar values -----------------------------------------------------------------------------------

def parse_layout_at(text: Any, loc: Loc, what: str, swizzle_ok: bool = False,
                    max_elements: int = MAX_ELEMENTS) -> Layout | ComposedLayout:
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
    if isinstance(layout, ComposedLayout) and not swizzle_ok:
        raise SpecError(loc, f"{what} must be a plain layout shape:stride, not a swizzled layout")
    if int(layout.size()) > max_elements:
        raise SpecError(loc, f"{what} has {int(layout.size())} elements; at most {max_elements} "
                             f"(2**{max_elements.bit_length() - 1}) are supported")
    return layout


def _show(x: Any) -> str:
    """A YAML value for a message: its kind, and a short excerpt of a scalar."""
    if isinstance(x, str):
        return quote(x)
    if x is None or isinstance(x, (Mapping, AbstractSet, list, tuple)):
        return _kind(x)
    return f"{type(x).__name__} {shorten(str(x))}"


def _kind(x: Any) -> str:
    """What a YAML value is, without a word of its content."""
    if x is None:
        return "nothing"
    if isinstance(x, Mapping):
        return "a mapping"
    if isinstance(x, (list, tuple)):
        return "a list"
    if isinstance(x, AbstractSet):
        return "a set"
    if isinstance(x, str):
        return "a string"
    return f"a value of type {type(x).__name__}"


def _value_type(x: Any, loc: Loc, what: str) -> ValueType:
    if not (_is_int(x) or isinstance(x, str)):
        raise SpecError(loc, f"{what} must be a CuTe type name such as half_t, or a bit width, not {_show(x)}")
    if isinstance(x, str) and len(x) > ECHO_LIMIT:   # no type name is that long; its message would quote it all
        raise SpecError(loc, f"{what}: unknown value type {quote(x)}")
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

    def layout(self, k: str, swizzle_ok: bool = False, max_elements: int = MAX_ELEMENTS) -> Any:
        return parse_layout_at(self.m[k], self.at(k), f"'{k}' of {self.what}", swizzle_ok, max_elements)

    def int_list(self, k: str, lo: int, hi: int) -> tuple[int, ...]:
        x, loc = self.m[k], self.at(k)
        want = f"a list of {lo} positive integers" if lo == hi else f"a list of {lo} to {hi} positive integers"
        if not isinstance(x, CommentedSeq) or not lo <= len(x) <= hi:
            raise SpecError(loc, f"'{k}' of {self.what} must be {want}, not {_show(x)}")
        for i, v in enumerate(x):
            if not _is_int(v) or v <= 0:
                raise SpecError(self.f.item(x, i), f"'{k}' of {self.what} must be {want}; item {i} is {_show(v)}")
        return tuple(int(v) for v in x)

    def sub(self, k: str, allowed: tuple[str, ...]) -> _Fields:
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
    fl = _Fields(f, m, f"MMA atom {quote(name)}", loc)
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
    fl = _Fields(f, m, f"copy atom {quote(name)}", loc)
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
            raise SpecError(loc, f"{kind} {quote(atom.name)} is already defined at {old.loc}")
        table[atom.name] = atom

    def lookup(self, fl: _Fields, k: str, table: dict[str, Any], kind: str) -> str:
        name = fl.opt_str(k) or ""
        if name not in table:
            known = f" (known: {shorten(', '.join(table), 4 * ECHO_LIMIT)})" if table and len(table) <= 12 else ""
            hint = _suggest(name, table) or known
            raise SpecError(fl.at(k), f"unknown {kind} {quote(name)}{hint}")
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
        elif isinstance(v, str) and v.strip() == "_":     # CuTe's Underscore: this mode is not permuted
            items.append(Underscore)
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
        raise SpecError(fl.at(k), f"'{k}' {shorten(str(shown))} of {fl.what} gives {copies} x {atom_threads} = "
                                  f"{copies * atom_threads} threads; at most {MAX_THREADS} are supported")
    if isinstance(tile, Layout) and (tile.rank() > 3 or sorted(tile.values()) != list(range(copies))):
        raise SpecError(fl.at(k), f"'{k}' of {fl.what} must be a bijective layout of rank 1 to 3 "
                                  f"such as \"(2,2,1):(2,1,1)\", not {shorten(str(tile))}")
    return tile


def _tiled(fl: _Fields, atom: MMAAtomSpec) -> TiledSpec:
    """make_tiled_mma's thread layout and permutation; `permutation: null` is written "no permutation"."""
    return TiledSpec(atom_layout=_atom_layout(fl, "atom_layout", atom) if fl.has("atom_layout") else None,
                     permutation=_permutation(fl, "permutation") if fl.has("permutation") else None,
                     permutation_given="permutation" in fl.m)


def _smem(fl: _Fields, value_type: ValueType) -> Any:
    layout = fl.layout("smem", swizzle_ok=True)
    if isinstance(layout, ComposedLayout) and isinstance(layout.offset, SmemPtrFlag):
        try:  # CuTe's GMMA form swizzles byte addresses: rewrite it to act on element offsets
            layout = position_independent(layout, value_type.bits)
        except (ValueError, ArithmeticError) as e:   # the algebra refuses the swizzle or the element width
            raise SpecError(fl.at("smem"), f"'smem' of {fl.what}: {shorten(str(e), 4 * ECHO_LIMIT)}") from None
    return layout


def _needs(fl: _Fields, keys: tuple[str, ...], why: str) -> None:
    for k in keys:
        if fl.has(k):
            raise SpecError(fl.f.key(fl.m, k), f"'{k}' of {fl.what} {why}")


def _check(f: _File, name: str, m: Any, loc: Loc, atoms: _Atoms) -> CheckSpec:
    fl = _Fields(f, m, f"check {quote(name)}", loc)
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
    for k in V2_KEYS:
        if fl.has(k) and f.version < 2:
            raise SpecError(fl.f.key(fl.m, k), f"'{k}' of {fl.what} is a version 2 key: the file needs 'version: 2'")
    if fl.has("copy"):
        named = fl.opt_str("copy")
        if named in TMA_COPIES and f.version < 2:
            raise SpecError(fl.at("copy"), f"{fl.what}: the TMA copy {named} is a version 2 feature: the file needs "
                                           "'version: 2'")
        copy = named if named in TMA_COPIES else atoms.lookup(fl, "copy", atoms.copy, "copy atom")
        check.copy = copy
        if not fl.has("value_type"):
            raise SpecError(loc, f"{fl.what} names copy atom {quote(check.copy)} but no 'value_type' "
                                 "(the element type the copy moves, e.g. half_t)")
        check.value_type = _value_type(fl.m["value_type"], fl.at("value_type"), f"'value_type' of {fl.what}")
    else:
        _needs(fl, ("value_type",), "needs 'copy'")
    if fl.has("operand"):
        check.operand = _choice(fl.m["operand"], fl.at("operand"), f"'operand' of {fl.what}", OPERANDS, upper=True)
    if any(fl.has(k) for k in TMEM_KEYS):
        _tmem_fields(fl, check, atoms)
    elif mma is not None and check.copy in TMA_COPIES:
        _gmma_fields(fl, check, mma)
    elif mma is not None and check.copy is not None:
        _needs(fl, GMMA_KEYS, f"is only used by checks whose copy is {' or '.join(TMA_COPIES)}")
        _tiled_fields(fl, check, mma)
    else:
        _needs(fl, ("smem", "copy_for", "copy_mma", "banks", "reduction", "smem_type"),
               "is only used by checks that name both 'mma' and 'copy'")
    if fl.has("expect"):
        check.expect = _choice(fl.m["expect"], fl.at("expect"), f"'expect' of {fl.what}", EXPECTS, upper=False)
    return check


def _gmma_fields(fl: _Fields, check: CheckSpec, mma: MMAAtomSpec) -> None:
    """A wgmma (or tcgen05.mma) operand in shared memory filled by TMA: operand A or B, the tile, the global tensor."""
    from ..cute.gmma import atom_major    # the Hopper and Blackwell models load with the first check that needs them
    from ..cute.umma import is_umma
    from ..hardware.gmma_desc import GmmaSwizzle
    from ..hardware.umma import a_in_tmem
    if not (mma.instruction or "").strip().startswith(DESCRIPTOR_INSTRUCTIONS):
        raise SpecError(fl.at("mma"), f"{fl.what}: a TMA check needs a wgmma or tcgen05.mma MMA atom; "
                                      f"{quote(mma.name)} issues {quote(mma.instruction or 'no instruction')}")
    for k in ("operand", "smem", "gmem"):
        if not fl.has(k):
            raise SpecError(fl.loc, f"{fl.what} copies with TMA and so needs '{k}'")
    if check.operand not in ("A", "B"):
        raise SpecError(fl.at("operand"), f"'operand' of {fl.what} must be A or B: TMA fills the shared-memory "
                                          "operands of wgmma")
    _needs(fl, ("copy_for", "copy_mma", "permutation", "banks", "reduction", "smem_type"), "is not used by TMA checks")
    thread_strides = flatten_to_tuple(mma.a.mode(0).stride) if mma.a.rank() > 1 else (1,)
    if is_umma(mma):
        # tcgen05: A's "thread" mode is the CTA of a 2-SM pair (a stride of M/2); A from tensor memory is a _TS atom
        a_not_shared = a_in_tmem(mma.name)
    else:
        a_not_shared = any(int(d) != 0 for d in thread_strides)
    if check.operand == "A" and a_not_shared:
        raise SpecError(fl.at("operand"), f"{fl.what}: {quote(mma.name)} takes A from registers or tensor memory "
                                          "(an RS / TS atom); no descriptor reads a shared A, so a TMA check of it "
                                          "needs an SS atom")
    assert check.value_type is not None
    raw = fl.layout("smem", swizzle_ok=True)
    check.smem_absolute = isinstance(raw, ComposedLayout) and isinstance(raw.offset, SmemPtrFlag)
    check.smem = _smem(fl, check.value_type)
    if check.smem.rank() not in (2, 3):
        raise SpecError(fl.at("smem"), f"'smem' of {fl.what} must be (MN, K) or (MN, K, PIPE), not rank "
                                       f"{check.smem.rank()}")
    check.gmem = fl.layout("gmem", max_elements=MAX_GLOBAL_ELEMENTS)   # only its shape and strides are read
    if check.gmem.rank() != 2:
        raise SpecError(fl.at("gmem"), f"'gmem' of {fl.what} must be the (MN, K) global tensor, rank 2")
    if fl.has("major"):
        check.major = _choice(fl.m["major"], fl.at("major"), f"'major' of {fl.what}", MAJORS, upper=True)
        named = atom_major(mma.name, Operand.of(check.operand))
        if named is not None and named.value != check.major:
            raise SpecError(fl.at("major"), f"'major' of {fl.what} is {check.major}, but {quote(mma.name)} reads "
                                            f"operand {check.operand} {named.value}-major; the atom decides the "
                                            "descriptor's major-ness")
    if fl.has("smem_align"):
        align = fl.m["smem_align"]
        if not _is_int(align) or align <= 0 or align & (align - 1) or align > 1 << 20:
            raise SpecError(fl.at("smem_align"), f"'smem_align' of {fl.what} must be a power of two of bytes, "
                                                 f"not {_show(align)}")
        check.smem_align = int(align)
    if fl.has("descriptor"):
        d = fl.sub("descriptor", DESCRIPTOR_KEYS)
        for k in d.m:
            v = d.m[k]
            if k == "swizzle":
                mode = _choice(v, d.at(k), f"'swizzle' of the descriptor of {fl.what}", DESCRIPTOR_SWIZZLES,
                               upper=True)
                check.descriptor["swizzle"] = int(GmmaSwizzle.named(mode))
            elif k == "base_offset" and (not _is_int(v) or not 0 <= v < 8):
                raise SpecError(d.at(k), f"'base_offset' of the descriptor of {fl.what} must be in 0..7, "
                                         f"not {_show(v)}")
            elif not _is_int(v) or not 0 <= v < 1 << 18:
                raise SpecError(d.at(k), f"'{k}' of the descriptor of {fl.what} must be an integer in 0..2^18, "
                                         f"not {_show(v)}")
            else:
                check.descriptor[str(k)] = int(v)
    if fl.has("tma_box"):
        box = fl.int_list("tma_box", 2, 2)
        check.tma_box = (box[0], box[1])


def _tmem_fields(fl: _Fields, check: CheckSpec, atoms: _Atoms) -> None:
    """A tcgen05.ld / st tiled copy of a tensor-memory tile: the copy atom and the TMEM tensor it reads or writes."""
    if not fl.has("tmem"):
        key = next(k for k in TMEM_KEYS if fl.has(k))
        raise SpecError(fl.at(key), f"'{key}' of {fl.what} is only used with 'tmem'")
    if check.mma is not None:
        raise SpecError(fl.at("mma"), f"{fl.what} copies a TMEM tile ('tmem'): it names no MMA atom")
    if check.copy is None:
        raise SpecError(fl.loc, f"{fl.what} names a TMEM tile ('tmem') and so needs 'copy' (a tcgen05.ld / tcgen05.st "
                                "atom)")
    if check.copy in TMA_COPIES:
        raise SpecError(fl.at("copy"), f"{fl.what}: a TMEM check needs a tcgen05.ld or tcgen05.st copy atom, not the "
                                       f"TMA copy {check.copy}")
    instruction = atoms.copy[check.copy].instruction or ""
    if not instruction.strip().startswith(TMEM_INSTRUCTIONS):
        raise SpecError(fl.at("copy"), f"{fl.what}: a TMEM check needs a tcgen05.ld or tcgen05.st copy atom; "
                                       f"{quote(check.copy)} issues {quote(instruction or 'no instruction')}")
    _needs(fl, ("operand", "smem", "copy_for", "copy_mma", "banks", "reduction", "smem_type") + GMMA_KEYS,
           "is not used by TMEM checks")
    check.tmem = fl.layout("tmem", max_elements=MAX_TMEM_ELEMENTS)
    if fl.has("tmem_columns"):
        columns = fl.m["tmem_columns"]
        if not _is_int(columns) or not 0 < columns <= 1 << 16:
            raise SpecError(fl.at("tmem_columns"), f"'tmem_columns' of {fl.what} must be a number of columns, "
                                                   f"not {_show(columns)}")
        check.tmem_columns = int(columns)
    if fl.has("store"):
        if not instruction.strip().startswith(TMEM_INSTRUCTIONS[0]):
            raise SpecError(fl.at("store"), f"'store' of {fl.what} follows a TMEM load; {quote(check.copy)} stores")
        st = fl.sub("store", STORE_KEYS)
        for k in STORE_KEYS:
            if not st.has(k):
                raise SpecError(fl.at("store"), f"'store' of {fl.what} needs '{k}'")
        copy = atoms.lookup(st, "copy", atoms.copy, "copy atom")
        value_type = _value_type(st.m["value_type"], st.at("value_type"), f"'value_type' of {st.what}")
        check.tmem_store = TmemStoreSpec(copy, value_type, _smem(st, value_type))


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
    if fl.has("banks"):
        check.banks = _choice(fl.m["banks"], fl.at("banks"), f"'banks' of {fl.what}", BANKS_MODES, upper=False)
    if fl.has("reduction"):
        check.reduction = _choice(fl.m["reduction"], fl.at("reduction"), f"'reduction' of {fl.what}", REDUCTIONS,
                                  upper=True)
        if check.operand != "C":
            raise SpecError(fl.at("reduction"), f"'reduction' of {fl.what} is only used by checks of operand C "
                                                "(the partial C tiles of a K-split tiled MMA)")
    if fl.has("smem_type"):
        check.smem_type = _value_type(fl.m["smem_type"], fl.at("smem_type"), f"'smem_type' of {fl.what}")


# --- reading one file --------------------------------------------------------------------------------

def _read_text(path: str) -> str:
    """The text of a spec file; refusals say what is wrong with the file, never what it contains."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise SpecError(None, f"spec file {quote_path(path)} not found") from None
    except OSError as e:   # a symlink loop (ELOOP), a permission, a name too long
        raise SpecError(None, f"cannot read spec file {quote_path(path)}: {e.strerror}") from None
    if not stat.S_ISREG(info.st_mode):   # a directory, a FIFO or a device would block or never end
        raise SpecError(None, f"{quote_path(path)} is not a regular file")
    if info.st_size > MAX_SPEC_BYTES:
        raise SpecError(None, f"spec file {quote_path(path)} has {info.st_size} bytes; at most {MAX_SPEC_BYTES} "
                              f"({MAX_SPEC_BYTES >> 20} MiB) are supported")
    try:
        with open(path, "rb") as fp:
            data = fp.read(MAX_SPEC_BYTES + 1)
    except OSError as e:
        raise SpecError(None, f"cannot read spec file {quote_path(path)}: {e.strerror}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise SpecError(Loc(path, line, column), "not UTF-8 text") from None


class _YAMLTooLarge(Exception):
    """More parser events than MAX_YAML_EVENTS: raised from inside ruamel's composer, at the event's mark."""

    def __init__(self, mark: Any) -> None:
        super().__init__("too many YAML events")
        self.mark = mark


class _BoundedParser(Parser):
    """ruamel's parser, stopped after MAX_YAML_EVENTS events (the composer asks for them one by one).  Not the
    round-trip parser: comments are never read, and skipping them saves a quarter of the parse."""

    def get_event(self) -> Any:
        self.events_seen = getattr(self, "events_seen", 0) + 1
        event = super().get_event()
        if self.events_seen > MAX_YAML_EVENTS:
            raise _YAMLTooLarge(event.start_mark)
        return event


def _yaml() -> YAML:
    yaml = YAML(typ="rt")            # round-trip: every node keeps its line and column; loads no objects
    yaml.Scanner = Scanner           # the plain scanner and parser: positions and quoting styles, no comments
    yaml.Parser = _BoundedParser
    yaml.allow_duplicate_keys = False
    yaml.preserve_quotes = True      # so that a layout's column inside "..." can be found
    return yaml


def _compose_with_ruamel(text: str) -> Node | None:
    """ruamel's pure parser on `text`, with a parser of its own (event counts are kept per parser)."""
    root: Node | None = _yaml().compose(text)
    return root


def _mark_loc(path: str, mark: Any) -> Loc:
    return Loc(path, mark.line + 1, mark.column + 1) if mark is not None else Loc(path, 1, 1)


def _check_flow_nesting(path: str, text: str) -> None:
    """Refuses [ and { nested more than MAX_FLOW_NESTING deep (counted in all the text, quotes included)."""
    depth = 0
    for m in re.finditer(r"[\[\]{}]", text):
        depth = depth + 1 if m.group() in "[{" else max(0, depth - 1)
        if depth > MAX_FLOW_NESTING:
            line = text.count("\n", 0, m.start()) + 1
            column = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
            raise SpecError(Loc(path, line, column), f"nested too deeply (more than {MAX_FLOW_NESTING} levels of "
                                                     "[ and {)")


def _check_nodes(path: str, root: Node | None) -> None:
    """Before any object is built: every mapping key is a scalar, no integer has absurdly many digits, and the
    document, each alias expanded where it is used, has at most MAX_YAML_NODES nodes."""
    stack: list[Node] = [root] if root is not None else []
    visits = 0
    while stack:
        node = stack.pop()
        visits += 1
        if visits > MAX_YAML_NODES:
            raise SpecError(_mark_loc(path, root.start_mark if root is not None else None),
                            f"the document expands to more than {MAX_YAML_NODES} nodes (YAML aliases?)")
        if isinstance(node, MappingNode):
            for key, value in node.value:
                if not isinstance(key, ScalarNode):
                    raise SpecError(_mark_loc(path, key.start_mark),
                                    f"a key must be a plain name, not {_node_kind(key)}")
                stack += (key, value)
        elif isinstance(node, SequenceNode):
            stack += node.value
        elif isinstance(node, ScalarNode):
            problem = _number_problem(node)
            if problem is not None:
                raise SpecError(_mark_loc(path, node.start_mark), problem)


def _number_problem(node: ScalarNode) -> str | None:
    """What ruamel could not build from a scalar tagged (or resolved) as a number: a huge integer (Python refuses
    to convert more than 4300 digits), or text that does not start like a number (ruamel fails on it)."""
    if node.tag == INT_TAG:
        if len(node.value) > MAX_INT_CHARS:
            return f"an integer of {len(node.value)} characters is too large (at most {MAX_INT_CHARS})"
        if not _INT_START.match(node.value):
            return "a value tagged !!int is not an integer"
    if node.tag == FLOAT_TAG and not _FLOAT_START.match(node.value):
        return "a value tagged !!float is not a number"
    return None


def _node_kind(node: Node) -> str:
    return "a list" if isinstance(node, SequenceNode) else "a mapping" if isinstance(node, MappingNode) else "a value"


def _parse_yaml(path: str, text: str, quote: bool) -> Any:
    """The document in `text`; YAML errors quote the text only when `quote` (never for an include)."""
    _check_flow_nesting(path, text)
    yaml = _yaml()
    try:
        with warnings.catch_warnings():   # ruamel warns (a reused anchor...) with excerpts of the file, on stderr
            for category in RUAMEL_WARNINGS:
                warnings.simplefilter("ignore", category)
            root = libyaml.compose(text, MAX_YAML_EVENTS, _compose_with_ruamel)
            if root is libyaml.NOT_COMPOSED:
                root = yaml.compose(text)
            _check_nodes(path, root)
            return yaml.constructor.construct_document(root) if root is not None else None
    except _YAMLTooLarge as e:
        raise SpecError(_mark_loc(path, e.mark), f"the document has more than {MAX_YAML_EVENTS} YAML nodes") from None
    except MarkedYAMLError as e:
        raise _yaml_error(path, e, quote) from None
    except ReaderError as e:   # a character YAML does not allow; it knows only the offset
        raise _reader_error(path, text, e, quote) from None
    except YAMLError as e:
        problem = " ".join(str(e).split()) if quote else "unreadable"
        raise SpecError(Loc(path, 1, 1), f"bad YAML: {shorten(problem, 4 * ECHO_LIMIT)}") from None
    except RecursionError:
        raise SpecError(Loc(path, 1, 1), "bad YAML: nested too deeply") from None
    except (ValueError, ArithmeticError, KeyError) as e:   # a scalar ruamel cannot convert: 2001-13-45, !!bool x
        detail = f": {shorten(str(e))}" if quote else ""
        raise SpecError(Loc(path, 1, 1), f"bad YAML: a value cannot be read{detail}") from None


def _reader_error(path: str, text: str, e: ReaderError, quote: bool) -> SpecError:
    line = text.count("\n", 0, e.position) + 1
    column = e.position - (text.rfind("\n", 0, e.position) + 1) + 1
    code = ord(e.character) if isinstance(e.character, str) and len(e.character) == 1 else e.character
    char = f" (U+{code:04X})" if isinstance(code, int) and quote else ""
    return SpecError(Loc(path, line, column), f"bad YAML: {e.reason}{char}")


_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def _yaml_error(path: str, e: MarkedYAMLError, quote: bool) -> SpecError:
    """One line from ruamel's error: quoted excerpts (a duplicate key's value...) shortened, or dropped."""
    mark = e.problem_mark or e.context_mark
    loc = _mark_loc(path, mark)
    problem = str(e.problem or "syntax error")
    if isinstance(e, DuplicateKeyError):   # the key is enough; ruamel also quotes both values
        problem = problem.split(" with value ")[0]
    problem = _excerpts(problem, quote)
    if e.context and e.context_mark is not None and e.context_mark is not mark:
        cm = e.context_mark
        problem += f" ({_excerpts(str(e.context), quote)} that starts at line {cm.line + 1}, column {cm.column + 1})"
    elif e.context:
        problem += f" ({_excerpts(str(e.context), quote)})"
    return SpecError(loc, f"bad YAML: {problem}")


def _excerpts(text: str, quote: bool) -> str:
    """ruamel's message on one line, each quoted excerpt of the file cut short (or left out)."""
    def cut(m: re.Match) -> str:
        return m.group()[0] + shorten(m.group()[1:-1]) + m.group()[-1] if quote else "..."
    return shorten(" ".join(_QUOTED.sub(cut, text).split()), 4 * ECHO_LIMIT)


def _read_document(path: str, quote: bool) -> Any:
    return _parse_yaml(path, _read_text(path), quote)


def _spec_kind_problem(doc: Any) -> str | None:
    """Why a document is not a spec at all (without a word of its content), or None."""
    if not isinstance(doc, CommentedMap):
        return f"its top level is {_kind(doc)}, not a mapping"
    if "version" not in doc:
        return "it has no 'version'"
    if not _is_int(doc["version"]) or doc["version"] not in FORMAT_VERSIONS:
        return f"its 'version' is not one of {', '.join(map(str, FORMAT_VERSIONS))}"
    return None


# --- repositories and includes -----------------------------------------------------------------------

class _Loader:
    """Loads files and their includes once each; `stack` is the include chain, for cycles."""

    def __init__(self, allow_outside: bool = False) -> None:
        self.allow_outside = allow_outside
        self.cache: dict[str, Spec] = {}
        self.stack: list[str] = []

    def load(self, path: str, included_at: Loc | None = None, root: str | None = None) -> Spec:
        """`path` as the user named it (root None: its repository is computed) or as included at `included_at`."""
        root = repository_root(path) if root is None else root
        key = os.path.realpath(path)
        if key in self.stack:
            chain = " -> ".join(os.path.basename(p) for p in self.stack[self.stack.index(key):] + [key])
            raise SpecError(included_at, f"include cycle: {chain}")
        if key not in self.cache:
            self.stack.append(key)
            try:
                self.cache[key] = self._load_file(path, included_at, root)
            finally:
                self.stack.pop()
        return self.cache[key]

    def _load_file(self, path: str, included_at: Loc | None, root: str) -> Spec:
        f = _File(path)
        doc = _read_document(path, quote=True) if included_at is None else _included_document(path, included_at)
        top = _Fields(f, doc, f"the top level of {path}", Loc(path, 1, 1))
        top.only(TOP_KEYS)
        if "version" not in doc or not _is_int(doc["version"]) or doc["version"] not in FORMAT_VERSIONS:
            where = top.at("version") if "version" in doc else top.loc
            got = _show(doc["version"]) if "version" in doc else "nothing"
            raise SpecError(where, f"'version' must be {' or '.join(map(str, FORMAT_VERSIONS))} (the spec formats "
                                   f"this tool reads), not {got}")
        f.version = int(doc["version"])
        top.require(("name",))
        spec_name = top.opt_str("name")
        if not spec_name:
            raise SpecError(top.at("name"), "'name' must be a non-empty string")
        atoms = _Atoms()
        includes = self._includes(f, top, atoms, root)   # first, so that a clash points at this file's atom
        for n, m, loc in self._section(f, top, "mma_atoms"):
            atoms.add(atoms.mma, _mma_atom(f, n, m, loc), "MMA atom", loc)
        for n, m, loc in self._section(f, top, "copy_atoms"):
            atoms.add(atoms.copy, _copy_atom(f, n, m, loc), "copy atom", loc)
        checks: dict[str, CheckSpec] = {}
        for n, m, loc in _expand_sweeps(f, self._section(f, top, "checks")):
            if n in checks:
                raise SpecError(loc, f"check {quote(n)} is defined twice (a sweep expands into a name used again)")
            checks[n] = _check(f, n, m, loc, atoms)
        closure = [path] + [p for inc in includes for p in self.cache[os.path.realpath(inc)].closure]
        return Spec(path=path, name=spec_name, version=f.version, mma_atoms=atoms.mma, copy_atoms=atoms.copy,
                    checks=checks, includes=includes, loc=f.node(doc), description=top.opt_str("description"),
                    closure=list(dict.fromkeys(closure)))

    def _includes(self, f: _File, top: _Fields, atoms: _Atoms, root: str) -> list[str]:
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
            path = self._include_path(f, rel, loc, root)
            try:
                inc = self.load(path, loc, root)
            except SpecError as e:
                if e.loc is None or e.loc.file == f.path:
                    raise
                raise SpecError(e.loc, f"{e.message} (included from {loc})") from None
            for mma_atom in inc.mma_atoms.values():   # only atoms are imported, never the include's checks
                atoms.add(atoms.mma, mma_atom, "MMA atom", loc)
            for copy_atom in inc.copy_atoms.values():
                atoms.add(atoms.copy, copy_atom, "copy atom", loc)
            paths.append(path)
        return paths

    def _include_path(self, f: _File, rel: Any, loc: Loc, root: str) -> str:
        """The file an `include:` item names, relative to the including file; it must exist and, unless
        allow_outside, lie (symlinks followed) inside the repository of the spec the user named."""
        if not isinstance(rel, str) or not rel.strip():
            raise SpecError(loc, f"an include must be a file path, not {_show(rel)}")
        if not rel.isprintable():
            raise SpecError(loc, f"an include must be a printable file path, not {quote(rel)}")
        path = os.path.normpath(os.path.join(os.path.dirname(f.path), str(rel)))
        if not os.path.lexists(path):
            raise SpecError(loc, f"included file {quote_path(rel)} not found (looked for {quote_path(path)})")
        if not self.allow_outside and not is_inside(path, root):
            raise SpecError(loc, f"included file {quote_path(rel)} is outside the repository {quote_path(root)}; "
                                 "pass --allow-outside to permit it")
        return path

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
            _check_name(name, loc, section)
            entries.append((str(name), body, loc))
        return entries


def _included_document(path: str, included_at: Loc) -> Any:
    """An included file's document, refused at the include line, with no word of its content, unless it is a spec
    (a mapping with `version: 1`)."""
    shown = quote_path(path)
    try:
        doc = _read_document(path, quote=False)
    except SpecError as e:
        where = f" at {e.loc}" if e.loc is not None else ""
        raise SpecError(included_at, f"included file {shown} is not a spec file ({e.message}{where})") from None
    problem = _spec_kind_problem(doc)
    if problem is not None:
        raise SpecError(included_at, f"included file {shown} is not a spec file ({problem})")
    return doc


def _expand_sweeps(f: _File, entries: list[tuple[str, Any, Loc]]) -> list[tuple[str, Any, Loc]]:
    """Checks as written, with every swept template (`sweep:`, version 2; spec/sweep.py) expanded in place."""
    out: list[tuple[str, Any, Loc]] = []
    for name, body, loc in entries:
        if isinstance(body, CommentedMap) and SWEEP_KEY in body:
            if f.version < 2:
                raise SpecError(f.key(body, SWEEP_KEY), f"'{SWEEP_KEY}' of check {quote(name)} is a version 2 key: "
                                                        "the file needs 'version: 2'")
            out += expand(f, name, body, loc, CHECK_KEYS, lambda n, at: _check_name(n, at, "checks"))
        else:
            out.append((name, body, loc))
    return out


def _check_name(name: Any, loc: Loc, section: str) -> None:
    """A check or atom name: a non-empty, printable string of at most MAX_NAME_LENGTH characters."""
    if not isinstance(name, str) or not name.strip():
        raise SpecError(loc, f"a name in '{section}' must be a non-empty string, not {_show(name)}")
    if not name.isprintable():
        raise SpecError(loc, f"a name in '{section}' must be printable (no control characters, tabs or "
                             f"newlines), not {quote(name)}")
    if len(name) > MAX_NAME_LENGTH:
        raise SpecError(loc, f"a name in '{section}' has {len(name)} characters; at most {MAX_NAME_LENGTH} "
                             f"are supported: {quote(name)}")


# --- entry points ------------------------------------------------------------------------------------

def load_spec(path: str | Path, allow_outside: bool = False) -> Spec:
    """Loads and validates one spec file with its includes; every problem raises SpecError(file:line:column).
    Includes must lie inside the spec's repository unless `allow_outside`."""
    return _Loader(allow_outside).load(str(path))


class SpecLoader:
    """Loads spec files one at a time as `load_specs` loads a list of them: a file read once (as a spec or as an
    include) is not parsed again by this loader.  A worker process proving file after file keeps one."""

    def __init__(self, allow_outside: bool = False) -> None:
        self._loader = _Loader(allow_outside)

    def load(self, path: str | Path) -> Spec:
        return self._loader.load(str(path))


def load_specs(paths: Iterable[str | Path], allow_outside: bool = False) -> list[Spec]:
    """Loads files, and every *.yaml / *.yml under directories (recursively, sorted; directory symlinks are
    not followed), each file once."""
    loader, seen, specs = _Loader(allow_outside), set(), []
    for path in spec_files(paths):
        key = os.path.realpath(path)
        if key not in seen:
            seen.add(key)
            specs.append(loader.load(path))
    return specs


