"""The thread-gemm kind's configuration: a block's GEMM that CuTe's `gemm` computes on each thread's own partitions of
the shared A and B tiles into its partition of C (one UniversalFMA a product: CUTLASS's SIMT kernels, the CuTe
tutorial's `sgemm_1` and `sgemm_2`), and how the threads fill the shared tiles from the global ones.

    thread_gemm:
      tile: [128, 128, 8]                 # (BLK_M, BLK_N, BLK_K): C's tile, and one k-tile of A and B
      threads: 256                        # the threads that run the gemm
      a:                                  # A's fragment: thread t's value (i, k) is the shared tile's coordinate
        origins: "(16,16):(1,0)"          #   whose colexicographic index in (BLK_M, BLK_K) is origin(t) + values(i, k);
        values: "(8,8):(16,128)"          #   origins: a layout of the thread, or one index a thread as a list
        fill:                             # optional: how the threads fill the shared tile
          smem: "(128,8):(1,128)"         #   its layout, (m, k[, stage]) -> element (a swizzle allowed)
          destination: {origins: ..., values: ...}   # (thread, value) -> index in the shared tile (a stage of it)
          sources:                        #   each global partition the copies read, in the kernel's order:
            - {from: "A", tile_at: "blockIdx.x", k_tiles: ["k_tile"], origins: ..., values: ...}
                                          #   the tensor, its tile's block coordinate along the operand's rows,
                                          #   the k-tile each copy takes, (thread, value) -> index in the global
                                          #   tile (its own `tile: [rows, k]` where it differs)
      b: {...}                            # B's: value (j, k) of thread t is (n, k) of the (BLK_N, BLK_K) tile
      c:                                  # C's: value (i, j) of thread t is (m, n) of the (BLK_M, BLK_N) tile
        origins: ...
        values: "(8,8):(16,2048)"
        tile_at: ["blockIdx.x", "blockIdx.y"]       # optional: the block coordinates C's tile is taken at
      k_loop: {variable: k_tile, start: 0, condition: "<", bound: "K", step: 1, reads: {a: k_tile, b: k_tile}}
                                          # optional: the loop around the gemm that runs the k-tiles,
                                          #   for (k_tile = start; k_tile <condition> bound; k_tile += step),
                                          #   the bound a*K + b of the k-tile count K (theorem 46); reads
                                          #   (optional): the k-tile each operand's tile holds at pass k_tile's
                                          #   gemm, an expression of k_tile and K (pass_reads.py)

CuTe's gemm multiplies A's value (i, k) by B's value (j, k) into C's value (i, j) of every thread: the fragments'
values are 2-D, A's (I, K), B's (J, K), C's (I, J).  A copy pairs its source's value v with its destination's value v
(colexicographic index): the fill's source and destination have as many values.
"""
from __future__ import annotations

import operator
import re
from dataclasses import dataclass
from typing import Callable, ClassVar, cast

from ruamel.yaml.comments import CommentedSeq

from ...algebra.layout import Layout
from ...algebra.swizzle import ComposedLayout, Swizzle
from .pass_reads import K_NAME, PassExpressionError, read_pass_expression
from ...specfile.fields import Fields, is_int, refuse_keys, require_version2, show
from ...specfile.model import CheckSpec, Loc, SpecError, common_fields

THREAD_GEMM_KIND = "thread_gemm"        # the kind's name in reports
THREAD_GEMM_KEY = "thread_gemm"         # the key that makes a check a thread-gemm check
THREAD_GEMM_KEYS = (THREAD_GEMM_KEY,)
THREAD_GEMM_FIELDS = ("tile", "threads", "a", "b", "c")
FRAGMENT_FIELDS = ("origins", "values")
OPERAND_OPTIONAL = ("fill",)
C_OPTIONAL = ("tile_at",)
FILL_FIELDS = ("smem", "destination", "sources")
SOURCE_FIELDS = ("from", "tile_at", "k_tiles") + ("origins", "values")
MAX_SOURCES = 8                 # global partitions the copies into one shared tile read
SIDE_OPTIONAL = ("tile",)
NOT_READ = ("mma", "atom_layout", "permutation", "operand", "smem", "copy_for", "copy_mma", "value_type", "copy")
MAX_THREADS = 1024
MAX_EXTENT = 1 << 12            # a tile's rows, columns or k
MAX_VALUES = 1 << 14            # values of one thread's fragment
MAX_K_TILES = 64                # copies of one fill a kernel makes
MAX_INDEX = 1 << 24             # an origin's distance from the tile's first element (one outside is refuted)
OPERANDS = ("a", "b")
OPERAND_FILLS_KIND = "operand_fills"   # the fills of an MMA's operands alone (theorem 45)
OPERAND_FILLS_KEY = "fills"
OPERAND_FILLS_KEYS = (OPERAND_FILLS_KEY,)
OPERAND_FILLS_FIELDS = ("threads", "tile_at")
K_LOOP_KEY = "k_loop"                  # optional in both: the loop that runs the k-tiles (theorem 46)
K_LOOP_FIELDS = ("variable", "start", "condition", "bound", "step")
K_LOOP_OPTIONAL = ("reads",)
# the loop's conditions: it runs while condition(variable, bound)
K_CONDITIONS: dict[str, Callable[[int, int], bool]] = {"<": operator.lt, "<=": operator.le, "!=": operator.ne}
MAX_LOOP_CONSTANT = 1 << 20            # a loop's start, step or bound's integers
_K_TERM = re.compile(r"^([+-]?)\s*(?:(\d+)\s*\*?\s*)?(K)?$")


@dataclass(frozen=True)
class KLoop:
    """The loop around the gemm that runs its k-tiles: `for (v = start; v <condition> a*K + b; v += step)`, K the
    k-tile count."""
    variable: str
    start: int
    condition: str
    bound: tuple[int, int]          # (a, b)
    step: int
    loc: Loc
    reads: tuple[tuple[str, str], ...] = ()   # (operand, the k-tile its tile holds at pass v's gemm: v and K's)

    def header(self) -> str:
        a, b = self.bound
        return f"for ({self.variable} = {self.start}; {self.variable} {self.condition} {bound_text(a, b)}; " \
               f"{self.variable} += {self.step})"


def bound_text(a: int, b: int) -> str:
    """a*K + b as written: K, K - 1, 2*K + 1, 3."""
    k = "" if a == 0 else "K" if a == 1 else "-K" if a == -1 else f"{a}*K"
    if not k:
        return str(b)
    return k if b == 0 else f"{k} + {b}" if b > 0 else f"{k} - {-b}"


def _optional_k_loop(check: Fields) -> KLoop | None:
    """The check's `k_loop` (theorem 46), where it gives one."""
    return _k_loop(check.sub(K_LOOP_KEY, K_LOOP_FIELDS + K_LOOP_OPTIONAL)) if check.has(K_LOOP_KEY) else None


def _k_loop(fields: Fields) -> KLoop:
    fields.require(K_LOOP_FIELDS)
    variable = _text(fields, "variable")
    start = fields.bounded_int("start", -MAX_LOOP_CONSTANT, MAX_LOOP_CONSTANT, "the variable's first value")
    step = fields.bounded_int("step", -MAX_LOOP_CONSTANT, MAX_LOOP_CONSTANT, "what each pass adds to the variable")
    condition = fields.m["condition"]
    if condition not in K_CONDITIONS:
        raise SpecError(fields.at("condition"), f"'condition' of {fields.what} must be one of "
                                                f"{', '.join(K_CONDITIONS)} (the loop runs while variable <condition> "
                                                f"bound), not {show(condition)}")
    raw = fields.m["bound"]
    a = b = 0
    terms = re.findall(r"[+-]?[^+-]+", str(raw).replace(" ", "")) if isinstance(raw, (str, int)) and \
        not isinstance(raw, bool) else []
    matched = [_K_TERM.match(t) for t in terms]
    if not terms or any(m is None or (m.group(2) is None and m.group(3) is None) for m in matched):
        raise SpecError(fields.at("bound"), f"'bound' of {fields.what} must be a*K + b (K the k-tile count, a and b "
                                            f"integers: K, K - 1, 2*K), not {show(raw)}")
    for m in matched:
        assert m is not None
        value = (-1 if m.group(1) == "-" else 1) * int(m.group(2) or 1)
        if m.group(3):
            a += value
        else:
            b += value
    if abs(a) > MAX_LOOP_CONSTANT or abs(b) > MAX_LOOP_CONSTANT:
        raise SpecError(fields.at("bound"), f"'bound' of {fields.what}: integers within {MAX_LOOP_CONSTANT}")
    reads: tuple[tuple[str, str], ...] = ()
    if fields.has("reads"):
        raw_reads = fields.m["reads"]
        if not isinstance(raw_reads, dict) or not raw_reads or any(
                k not in OPERANDS or not isinstance(e, (str, int)) or isinstance(e, bool)
                for k, e in raw_reads.items()):
            raise SpecError(fields.at("reads"), f"'reads' of {fields.what} must map a and/or b to the k-tile its tile "
                                                f"holds at pass {variable}'s gemm, an expression of {variable} and "
                                                f"{K_NAME}, not {show(raw_reads)}")
        for k, e in raw_reads.items():
            try:
                read_pass_expression(str(e), variable)
            except PassExpressionError as error:
                raise SpecError(fields.at("reads"), f"'reads' of {fields.what}, {k}: {error}") from None
        reads = tuple((str(k), str(e)) for k, e in raw_reads.items())
    return KLoop(variable, start, str(condition), (a, b), step, fields.loc, reads)


@dataclass(frozen=True)
class Fragment:
    """Thread t's value x is the tile's coordinate of colexicographic index origin(t) + values(x)."""
    origins: tuple[int, ...]        # one a thread
    values: Layout                  # (value coordinate) -> index delta
    tile: tuple[int, int]           # the tile it indexes (rows, columns)
    loc: Loc

    def index(self, t: int, x: int | tuple[int, int]) -> int:
        return self.origins[t] + int(cast(int, self.values(x)))

    def extent(self, mode: int) -> int:
        return int(self.values.mode(mode).size())


@dataclass(frozen=True)
class Source:
    """One global partition the copies into a shared tile read: its tensor, its tile's block coordinate along the
    operand's rows, the k-tile each of its copies takes, and (thread, value) -> index in the global tile."""
    tensor: str
    tile_at: str
    k_tiles: tuple[str, ...]
    fragment: Fragment
    loc: Loc


@dataclass(frozen=True)
class Fill:
    """How the threads fill an operand's shared tile: copies from global tiles into one partition of it (each stage
    of a staged tile alike)."""
    smem: Layout | ComposedLayout   # (row, k[, stage]) -> element of the shared tile
    destination: Fragment           # (thread, value) -> index in the shared tile (a stage of it)
    sources: tuple[Source, ...]     # in the kernel's order
    loc: Loc

    @property
    def k_tiles(self) -> tuple[str, ...]:
        return tuple(k for source in self.sources for k in source.k_tiles)


@dataclass(frozen=True)
class Operand:
    name: str                       # a, b or c
    fragment: Fragment
    fill: Fill | None = None
    tile_at: tuple[str, str] | None = None    # c: the block coordinates of its global tile


@dataclass(kw_only=True)
class ThreadGemmCheck(CheckSpec):
    """A block's GEMM on the threads' own partitions (theorems 44 and 45)."""
    kind: ClassVar[str] = THREAD_GEMM_KIND
    tile: tuple[int, int, int]
    threads: int
    a: Operand
    b: Operand
    c: Operand
    tile_loc: Loc
    k_loop: KLoop | None = None

    def summary(self) -> str:
        m, n, k = self.tile
        return f"a {m}x{n}x{k} tile on {self.threads} threads"


@dataclass(kw_only=True)
class OperandFillsCheck(CheckSpec):
    """The threads' fills of an MMA's shared A and B tiles, its products another check's (theorem 45 alone)."""
    kind: ClassVar[str] = OPERAND_FILLS_KIND
    threads: int
    tile_at: tuple[str, str]                               # C's block coordinates
    fills: tuple[tuple[str, tuple[int, int], Fill], ...]   # (operand, its shared tile's (rows, k), fill)
    k_loop: KLoop | None = None

    def summary(self) -> str:
        return f"the fills of {' and '.join(o.upper() for o, _, _ in self.fills)} on {self.threads} threads"


def reads_operand_fills_check(fields: Fields) -> bool:
    return fields.has(OPERAND_FILLS_KEY)


def read_operand_fills_check(fields: Fields, named: CheckSpec) -> OperandFillsCheck:
    require_version2(fields, OPERAND_FILLS_KEY)
    refuse_keys(fields, NOT_READ, "is not used by operand-fill checks")
    sub = fields.sub(OPERAND_FILLS_KEY, OPERAND_FILLS_FIELDS + OPERANDS + (K_LOOP_KEY,))
    sub.require(OPERAND_FILLS_FIELDS)
    threads = sub.bounded_int("threads", 1, MAX_THREADS, "a number of threads")
    tile_at = _c_tile_at(sub)
    fills = []
    for operand in OPERANDS:
        if sub.has(operand):
            f = sub.sub(operand, FILL_FIELDS + SIDE_OPTIONAL)
            f.require(SIDE_OPTIONAL)
            tile = cast(tuple[int, int], _extents(f, "tile", 2, "rows, k"))
            fills.append((operand, tile, _fill(f, threads, tile)))
    if not fills:
        raise SpecError(sub.loc, f"{sub.what} names no operand's fill (a or b)")
    return OperandFillsCheck(**common_fields(named), threads=threads,
                             tile_at=tile_at, fills=tuple(fills),
                             k_loop=_optional_k_loop(sub))


def reads_thread_gemm_check(fields: Fields) -> bool:
    return fields.has(THREAD_GEMM_KEY)


def _extents(fields: Fields, key: str, count: int, what: str) -> tuple[int, ...]:
    value = fields.m[key]
    if not isinstance(value, list) or len(value) != count or \
            not all(is_int(v) and 0 < v <= MAX_EXTENT for v in value):
        raise SpecError(fields.at(key), f"'{key}' of {fields.what} must be [{what}] (each 1 to {MAX_EXTENT}), not "
                                        f"{show(value)}")
    return tuple(int(v) for v in value)


def _fragment(fields: Fields, threads: int, tile: tuple[int, int], rank: int | None) -> Fragment:
    """{origins, values} (the caller checked the keys): `rank` 2 for a gemm fragment (its values (row, k) or
    (i, j)), None for a copy's side, which may give its own `tile`."""
    fields.require(FRAGMENT_FIELDS)
    if rank is None and fields.has("tile"):
        tile = cast(tuple[int, int], _extents(fields, "tile", 2, "rows, columns"))
    values = fields.layout("values")
    if not isinstance(values, Layout) or not values.is_static() or (rank is not None and values.rank() != rank):
        raise SpecError(fields.at("values"), f"'values' of {fields.what} must be a plain layout of "
                                             + (f"rank {rank}" if rank else "a thread's values")
                                             + f", not {show(fields.m['values'])}")
    if int(values.size()) > MAX_VALUES:
        raise SpecError(fields.at("values"), f"'values' of {fields.what} holds at most {MAX_VALUES} values")
    raw = fields.m["origins"]
    if isinstance(raw, str):
        layout = fields.layout("origins")
        if not isinstance(layout, Layout) or not layout.is_static():
            raise SpecError(fields.at("origins"), f"'origins' of {fields.what} must be a plain layout of the thread, "
                                                  f"not {show(raw)}")
        origins = tuple(int(layout(t)) for t in range(threads))
    elif isinstance(raw, CommentedSeq) and len(raw) == threads and all(is_int(v) for v in raw):
        origins = tuple(int(v) for v in raw)
    else:
        raise SpecError(fields.at("origins"), f"'origins' of {fields.what} must be a layout of the thread or a list "
                                              f"of {threads} integers (one a thread), not {show(raw)}")
    for t, o in enumerate(origins):
        if not -MAX_INDEX <= o <= MAX_INDEX:
            raise SpecError(fields.at("origins"), f"'origins' of {fields.what}: thread {t}'s origin {o} is not an "
                                                  f"index within {MAX_INDEX} of the tile")
    return Fragment(origins, values, tile, fields.loc)


def _source(fields: Fields, threads: int, tile: tuple[int, int]) -> Source:
    tensor, tile_at = _text(fields, "from"), _text(fields, "tile_at")
    raw = fields.m["k_tiles"]
    if not isinstance(raw, CommentedSeq) or not 0 < len(raw) <= MAX_K_TILES or \
            not all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in raw):
        raise SpecError(fields.at("k_tiles"), f"'k_tiles' of {fields.what} must be a list of 1 to {MAX_K_TILES} "
                                              f"k-tile expressions, not {show(raw)}")
    fragment = _fragment(fields, threads, tile, None)
    return Source(tensor, tile_at, tuple(" ".join(str(v).split()) for v in raw), fragment, fields.loc)


def _fill(fields: Fields, threads: int, tile: tuple[int, int]) -> Fill:
    fields.require(FILL_FIELDS)
    smem = fields.layout("smem", swizzle_ok=True)
    plain = smem.b if isinstance(smem, ComposedLayout) else smem
    if not isinstance(plain, Layout) or not plain.is_static() or plain.rank() < 2 or \
            (isinstance(smem, ComposedLayout) and not isinstance(smem.a, Swizzle)):
        raise SpecError(fields.at("smem"), f"'smem' of {fields.what} must be a layout (rows, k[, stage]) -> element, "
                                           f"or a swizzle of one, not {show(fields.m['smem'])}")
    if tuple(int(plain.mode(i).size()) for i in (0, 1)) != tile:
        raise SpecError(fields.at("smem"), f"'smem' of {fields.what} is not of the shared tile's {tile[0]}x{tile[1]} "
                                           f"(rows, k): {show(fields.m['smem'])}")
    destination = _fragment(fields.sub("destination", FRAGMENT_FIELDS), threads, tile, None)
    sources = tuple(_source(f, threads, tile) for f in fields.records("sources", MAX_SOURCES, "source", "sources",
                                                                      SOURCE_FIELDS, SIDE_OPTIONAL))
    for source in sources:
        if source.fragment.values.size() != destination.values.size():
            raise SpecError(source.loc, f"{fields.what}: a source of {source.fragment.values.size()} values a "
                                              f"thread, the destination {destination.values.size()}: a copy pairs "
                                              "them one to one")
    return Fill(smem, destination, sources, fields.loc)


def _text(fields: Fields, key: str) -> str:
    value = fields.m[key]
    if not isinstance(value, str) or not value.strip():
        raise SpecError(fields.at(key), f"'{key}' of {fields.what} must be a non-empty string, not {show(value)}")
    return " ".join(value.split())


def _c_tile_at(fields: Fields) -> tuple[str, str]:
    """`tile_at: [rows, columns]`, the block coordinates C's tile is taken at, each as written (spaces collapsed)."""
    raw = fields.m["tile_at"]
    if not isinstance(raw, CommentedSeq) or len(raw) != 2 or not all(isinstance(v, str) and v.strip() for v in raw):
        raise SpecError(fields.at("tile_at"), f"'tile_at' of {fields.what} must be [rows, columns]: the block "
                                              f"coordinates C's tile is taken at, not {show(raw)}")
    return " ".join(raw[0].split()), " ".join(raw[1].split())


def _operand(fields: Fields, name: str, threads: int, tile: tuple[int, int]) -> Operand:
    fragment = _fragment(fields, threads, tile, 2)
    if name == "c":
        return Operand(name, fragment, tile_at=_c_tile_at(fields) if fields.has("tile_at") else None)
    fill = _fill(fields.sub("fill", FILL_FIELDS), threads, tile) if fields.has("fill") else None
    return Operand(name, fragment, fill)


def read_thread_gemm_check(fields: Fields, named: CheckSpec) -> ThreadGemmCheck:
    require_version2(fields, THREAD_GEMM_KEY)
    refuse_keys(fields, NOT_READ, "is not used by thread-gemm checks")
    sub = fields.sub(THREAD_GEMM_KEY, THREAD_GEMM_FIELDS + (K_LOOP_KEY,))
    sub.require(THREAD_GEMM_FIELDS)
    m, n, k = cast(tuple[int, int, int], _extents(sub, "tile", 3, "BLK_M, BLK_N, BLK_K"))
    threads = sub.bounded_int("threads", 1, MAX_THREADS, "a number of threads")
    tiles = {"a": (m, k), "b": (n, k), "c": (m, n)}
    ops = {name: _operand(sub.sub(name, FRAGMENT_FIELDS + (C_OPTIONAL if name == "c" else OPERAND_OPTIONAL)), name,
                          threads, tiles[name]) for name in ("a", "b", "c")}
    filled = next((name for name in OPERANDS if ops[name].fill is not None), None)
    if filled is not None and ops["c"].tile_at is None:
        raise SpecError(sub.at("c"), f"{sub.what}: {filled}'s fill names the block coordinate its global tile is "
                                     "taken at, so c must give 'tile_at' (the block coordinates of C's tile) to "
                                     "compare it with")
    pairs = (("a", 0, "c", 0, "rows (i)"), ("b", 0, "c", 1, "columns (j)"), ("a", 1, "b", 1, "k values"))
    for x, xm, y, ym, what in pairs:
        fx, fy = ops[x].fragment, ops[y].fragment
        if fx.extent(xm) != fy.extent(ym):
            raise SpecError(sub.at(x), f"{x}'s fragment has {fx.extent(xm)} {what}, {y}'s {fy.extent(ym)}: CuTe's "
                                       "gemm multiplies A (i, k) by B (j, k) into C (i, j)")
    return ThreadGemmCheck(**common_fields(named), tile=(m, n, k), threads=threads, a=ops["a"], b=ops["b"],
                           c=ops["c"], tile_loc=sub.at("tile"),
                           k_loop=_optional_k_loop(sub))
