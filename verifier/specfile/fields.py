"""The reading primitives of a spec file: positions (`Loc`s of YAML nodes), typed scalar readers, one mapping's
fields, the atom table a file's checks name atoms from, and the readers of fields several check kinds share.

Every reader raises `SpecError` with the file, line and column of the offending value; values are quoted through
`echo`, never in full.  The loader (loader.py) reads files with these; each check kind reads its own keys with them
(verifier/kinds/*/config.py).
"""
from __future__ import annotations

import difflib
import math
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, SingleQuotedScalarString

from ..algebra import ComposedLayout, Layout, ParseError, SmemPtrFlag, parse_layout, type_bits
from ..algebra.inttuple import Underscore, flatten_to_tuple
from ..echo import ECHO_LIMIT, quote, shorten
from ..smem import position_independent
from .model import CopyAtomSpec, GivenTiledCopy, Loc, MMAAtomSpec, SpecError, TiledSpec, ValueType
from .vocabulary import TILED_COPY_KEYS

FORMAT_VERSION = 2            # the newest spec format this tool reads
MAX_ELEMENTS = 1 << 24     # larger layouts are typos, and would make the prover's domains absurd
MAX_THREADS = 1024         # a CUDA block's limit: a tiled MMA cannot have more threads
MAX_NAME_LENGTH = 200      # characters of a check or atom name


# --- positions ---------------------------------------------------------------------------------------

class YamlFile:
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


def did_you_mean(word: str, names: Iterable[str]) -> str:
    if len(word) > MAX_NAME_LENGTH:   # nothing that long is close to a name, and difflib is quadratic
        return ""
    close = difflib.get_close_matches(word, list(names), n=3, cutoff=0.6)
    return f"; did you mean {' or '.join(quote(c) for c in close)}?" if close else ""


def is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


# --- scalar values -----------------------------------------------------------------------------------

def parse_layout_at(text: Any, loc: Loc, what: str, swizzle_ok: bool = False,
                    max_elements: int = MAX_ELEMENTS) -> Layout | ComposedLayout:
    """A layout string written at `loc`; parse errors point at the offending column inside the string."""
    if not isinstance(text, str):
        raise SpecError(loc, f"{what} must be a layout string such as \"(4,8):(8,1)\", not {show(text)}")
    try:
        layout = parse_layout(str(text))
    except ParseError as e:
        # a quoted scalar's text starts one column after its opening quote
        quote = 1 if isinstance(text, (DoubleQuotedScalarString, SingleQuotedScalarString)) else 0
        inner = Loc(loc.file, loc.line, loc.column + quote + e.column - 1)
        raise SpecError(inner, f"bad layout in {what}: {e.message}") from None
    if isinstance(layout, ComposedLayout) and not swizzle_ok:
        raise SpecError(loc, f"{what} must be a plain layout shape:stride, not a swizzled layout")
    extents = [int(e) for e in flatten_to_tuple(layout.shape)]
    if any(e <= 0 for e in extents):     # CuTe's algebra builds one (tile_to_shape to a 0 or negative extent), but
        #                                  no tile, tensor or atom of a check is empty, and no extent is negative
        raise SpecError(loc, f"{what} has a mode of extent {min(extents)} ({layout}): every layout of a check spans "
                             "at least one element, every extent positive")
    if int(layout.size()) > max_elements:
        raise SpecError(loc, f"{what} has {int(layout.size())} elements; at most {max_elements} "
                             f"(2**{max_elements.bit_length() - 1}) are supported")
    return layout


def show(x: Any) -> str:
    """A YAML value for a message: its kind, and a short excerpt of a scalar."""
    if isinstance(x, str):
        return quote(x)
    if x is None or isinstance(x, (Mapping, AbstractSet, list, tuple)):
        return value_kind(x)
    return f"{type(x).__name__} {shorten(str(x))}"


def value_kind(x: Any) -> str:
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


def read_value_type(x: Any, loc: Loc, what: str) -> ValueType:
    if not (is_int(x) or isinstance(x, str)):
        raise SpecError(loc, f"{what} must be a CuTe type name such as half_t, or a bit width, not {show(x)}")
    if isinstance(x, str) and len(x) > ECHO_LIMIT:   # no type name is that long; its message would quote it all
        raise SpecError(loc, f"{what}: unknown value type {quote(x)}")
    try:
        bits = type_bits(int(x) if is_int(x) else str(x))
    except KeyError as e:
        raise SpecError(loc, f"{what}: {e.args[0]}") from None
    except ValueError as e:
        raise SpecError(loc, f"{what}: {e}") from None
    return ValueType(name=str(x), bits=bits)


def read_choice(x: Any, loc: Loc, what: str, choices: tuple[str, ...], upper: bool) -> str:
    word = str(x).strip() if isinstance(x, str) else None
    norm = (word.upper() if upper else word.lower()) if word is not None else None
    if norm not in choices:
        raise SpecError(loc, f"{what} must be one of {' | '.join(choices)}, not {show(x)}")
    return norm


def require_version2(fields: "Fields", key: str) -> None:
    """`key` is a version 2 key: bad input, at the key, in a version 1 file."""
    if fields.f.version < 2:
        raise SpecError(fields.at(key), f"'{key}' of {fields.what} is a version 2 key: the file needs 'version: 2'")


def read_version2_choice(fields: "Fields", key: str, choices: tuple[str, ...], upper: bool) -> str:
    """The key that makes a check of its kind (`transpose: B`, `blockwise: A`, ...): a version 2 key naming one of
    `choices`."""
    require_version2(fields, key)
    return read_choice(fields.m[key], fields.at(key), f"'{key}' of {fields.what}", choices, upper=upper)


# --- one mapping's fields ----------------------------------------------------------------------------

class Fields:
    """The keys of one atom or check: typed getters that record where each value was written."""

    def __init__(self, f: YamlFile, m: Any, what: str, loc: Loc) -> None:
        if not isinstance(m, CommentedMap):
            raise SpecError(loc, f"{what} must be a mapping of keys to values, not {show(m)}")
        self.f, self.m, self.what, self.loc = f, m, what, loc
        self.locs: dict[str, Loc] = {k: f.value(m, k) for k in m if isinstance(k, str)}

    def only(self, allowed: tuple[str, ...]) -> None:
        for k in self.m:
            if k not in allowed:
                raise SpecError(self.f.key(self.m, k), f"unknown key {show(k)} in {self.what}"
                                + did_you_mean(str(k), allowed) + f" (known: {', '.join(allowed)})")

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
            raise SpecError(self.at(k), f"'{k}' of {self.what} must be a string, not {show(x)}")
        return str(x)

    def layout(self, k: str, swizzle_ok: bool = False, max_elements: int = MAX_ELEMENTS) -> Any:
        return parse_layout_at(self.m[k], self.at(k), f"'{k}' of {self.what}", swizzle_ok, max_elements)

    def bounded_int(self, k: str, lo: int, hi: int, what: str = "an integer") -> int:
        """`k`: an integer in lo..hi (`what` says what it counts)."""
        x = self.m[k]
        if not is_int(x) or not lo <= x <= hi:
            raise SpecError(self.at(k), f"'{k}' of {self.what} must be {what} in {lo}..{hi}, not {show(x)}")
        return int(x)

    def int_list(self, k: str, lo: int, hi: int) -> tuple[int, ...]:
        x, loc = self.m[k], self.at(k)
        want = f"a list of {lo} positive integers" if lo == hi else f"a list of {lo} to {hi} positive integers"
        if not isinstance(x, CommentedSeq) or not lo <= len(x) <= hi:
            raise SpecError(loc, f"'{k}' of {self.what} must be {want}, not {show(x)}")
        for i, v in enumerate(x):
            if not is_int(v) or v <= 0:
                raise SpecError(self.f.item(x, i), f"'{k}' of {self.what} must be {want}; item {i} is {show(v)}")
        return tuple(int(v) for v in x)

    def index_set(self, k: str, what: str, item: str, limit: int) -> tuple[int, ...]:
        """A set of indices written as a list (`stage_indices: [0, 1]`): distinct integers 0..limit-1, at least one;
        returned ascending."""
        x, loc = self.m[k], self.at(k)
        want = f"a list of distinct {what} in 0..{limit - 1}"
        if not isinstance(x, CommentedSeq) or not x:
            raise SpecError(loc, f"'{k}' of {self.what} must be {want}, not {show(x)}")
        for i, v in enumerate(x):
            if not is_int(v) or not 0 <= v < limit:
                raise SpecError(self.f.item(x, i), f"'{k}' of {self.what} must be {want}; item {i} is {show(v)}")
            if v in x[:i]:
                raise SpecError(self.f.item(x, i), f"'{k}' of {self.what} must be {want}; item {i} repeats {item} "
                                                   f"{int(v)}")
        return tuple(sorted(int(v) for v in x))

    def records(self, k: str, most: int, noun: str, plural: str, keys: tuple[str, ...],
                optional: tuple[str, ...] = ()) -> list[Fields]:
        """The list under `k`: 1 to `most` mappings (`plural` in the message), each read as `{noun} {i} of ...` with
        exactly the keys `keys`, and any of `optional`."""
        seq = self.m[k]
        if not isinstance(seq, CommentedSeq) or not 0 < len(seq) <= most:
            raise SpecError(self.at(k), f"'{k}' of {self.what} must be a list of 1 to {most} {plural}, not "
                                        f"{show(seq)}")
        out: list[Fields] = []
        for i, item in enumerate(seq):
            entry = Fields(self.f, item, f"{noun} {i} of {self.what}", self.f.item(seq, i))
            entry.only(keys + optional)
            entry.require(keys)
            out.append(entry)
        return out

    def sub(self, k: str, allowed: tuple[str, ...]) -> Fields:
        sub = Fields(self.f, self.m[k], f"'{k}' of {self.what}", self.at(k))
        sub.only(allowed)
        for key, loc in sub.locs.items():   # nested values are reported as e.g. types.a
            self.locs[f"{k}.{key}"] = loc
        return sub


def stages_text(indices: list[int]) -> str:
    """Stage indices in words: `stages 0..5`, `stage 0`, `stages 1, 3` (ascending)."""
    if len(indices) > 2 and indices == list(range(indices[0], indices[-1] + 1)):
        return f"stages {indices[0]}..{indices[-1]}"
    return f"stage{'s' if len(indices) > 1 else ''} " + ", ".join(map(str, indices))


# --- checks ------------------------------------------------------------------------------------------

class AtomTable:
    """The atoms a file's checks may name: its own and those of its includes."""

    def __init__(self) -> None:
        self.mma: dict[str, MMAAtomSpec] = {}
        self.copy: dict[str, CopyAtomSpec] = {}

    def add(self, table: dict[str, Any], atom: Any, kind: str, loc: Loc) -> None:
        old = table.get(atom.name)
        if old is not None and old is not atom:
            raise SpecError(loc, f"{kind} {quote(atom.name)} is already defined at {old.loc}")
        table[atom.name] = atom

    def lookup(self, fl: Fields, k: str, table: dict[str, Any], kind: str) -> str:
        name = fl.opt_str(k) or ""
        if name not in table:
            known = f" (known: {shorten(', '.join(table), 4 * ECHO_LIMIT)})" if table and len(table) <= 12 else ""
            hint = did_you_mean(name, table) or known
            raise SpecError(fl.at(k), f"unknown {kind} {quote(name)}{hint}")
        return name


def read_permutation(fl: Fields, k: str) -> tuple[Any, ...]:
    x = fl.m[k]
    if not isinstance(x, CommentedSeq) or not 1 <= len(x) <= 3:
        raise SpecError(fl.at(k), f"'{k}' of {fl.what} must be a list of 1 to 3 tile sizes or layouts, not {show(x)}")
    items: list[Any] = []
    for i, v in enumerate(x):
        loc = fl.f.item(x, i)
        if is_int(v):
            if not 0 < v <= MAX_ELEMENTS:
                raise SpecError(loc, f"'{k}' of {fl.what}: a tile size must be in 1..{MAX_ELEMENTS}, not {v}")
            items.append(int(v))
        elif isinstance(v, str) and v.strip() == "_":     # CuTe's Underscore: this mode is not permuted
            items.append(Underscore)
        else:
            items.append(parse_layout_at(v, loc, f"item {i} of '{k}' of {fl.what}"))
    return tuple(items)


def read_atom_layout(fl: Fields, k: str, atom: MMAAtomSpec) -> tuple[int, ...] | Layout:
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


def read_tiled(fl: Fields, atom: MMAAtomSpec) -> TiledSpec:
    """make_tiled_mma's thread layout and permutation; `permutation: null` is written "no permutation"."""
    return TiledSpec(atom_layout=read_atom_layout(fl, "atom_layout", atom) if fl.has("atom_layout") else None,
                     permutation=read_permutation(fl, "permutation") if fl.has("permutation") else None,
                     permutation_given="permutation" in fl.m)


def read_given_tiled_copy(fl: Fields, k: str) -> GivenTiledCopy:
    """`k: {layout_tv: "(thr,val) -> (m,n)", tiler: [m, n]}`: a TiledCopy as its builder made it."""
    given = fl.sub(k, TILED_COPY_KEYS)
    given.require(TILED_COPY_KEYS)
    tv = given.layout("layout_tv")
    if not isinstance(tv, Layout):
        raise SpecError(given.at("layout_tv"), f"'layout_tv' of {given.what} must be a plain layout "
                                               "(thr, val) -> (m, n)")
    tiler = read_permutation(given, "tiler")
    if len(tiler) != 2:
        raise SpecError(given.at("tiler"), f"'tiler' of {given.what} must name 2 modes (m, n), not {len(tiler)}")
    return GivenTiledCopy(tv, tiler)


def read_smem(fl: Fields, value_type: ValueType) -> Any:
    layout = fl.layout("smem", swizzle_ok=True)
    if isinstance(layout, ComposedLayout) and isinstance(layout.offset, SmemPtrFlag):
        try:  # CuTe's GMMA form swizzles byte addresses: rewrite it to act on element offsets
            layout = position_independent(layout, value_type.smem_bits)
        except (ValueError, ArithmeticError) as e:   # the algebra refuses the swizzle or the element width
            raise SpecError(fl.at("smem"), f"'smem' of {fl.what}: {shorten(str(e), 4 * ECHO_LIMIT)}") from None
    return layout


def refuse_keys(fl: Fields, keys: tuple[str, ...], why: str) -> None:
    for k in keys:
        if fl.has(k):
            raise SpecError(fl.f.key(fl.m, k), f"'{k}' of {fl.what} {why}")
