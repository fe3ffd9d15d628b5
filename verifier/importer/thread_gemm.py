"""The C++ reader's thread-gemm checks (theorems 44 and 45): a `gemm` whose A and B are each thread's own
partitions of shared tiles -- CuTe multiplies them one UniversalFMA a product (`gemm(tCsA, tCsB, tCrC)`, or
`gemm(mma, ...)` with a UniversalFMA TiledMMA) --, followed back to the partitions and to the copies that fill the
shared tiles from the block's global tiles.

What the reader follows, each from the statement that declares it:
- a partition at the thread: `local_partition(T, thread_layout, threadIdx.x[, Step<...>{}])`, or a ThrCopy's
  `partition_S` / `partition_D` and a ThrMMA's `partition_A` / `_B` / `_C`, made by `get_slice(threadIdx.x)`;
- T, a shared tile `make_tensor(make_smem_ptr(...), layout)`, or a global tile `local_tile(mX, tiler, coord, Step)`;
- the fills: the copies into the shared tile's partition (into one stage's, `tAsA(_,_,_,stage)`, for a staged
  tile), from a global tile's partition sliced at a k-tile (`copy(tAgA(_,_,k), tAsA)`), or through a register tensor
  of its shape (`copy(copy_a, tAgA(_,_,_,k), tArA)`, then `copy(tArA, tAsA)`), each global partition a source;
- registers a gemm multiplies a k-block at a time, copied k-block by k-block from a shared partition (read as it);
- C: the gemm's accumulator made like a partition of a global tile (`make_tensor_like(tCgC)`,
  `thr_mma.make_fragment_C(tCgC)`) and stored to it (`copy(tCrC, tCgC)` or `axpby(alpha, tCrC, beta, tCgC)`).

Each partition is computed with the verifier's CuTe algebra on the tile's coordinates (the identity layout of its
shape: an element's value is its colexicographic index) for every thread, and the same partition of the shared tile's
own layout is compared with the type the compiler gave the declaration (CuTe's own result); a global tile's
partition, whose strides are the run-time matrix's, by its shape.  Anything else is a reason the caller lists.

For a gemm of register fragments a tiled check proves (`partition_fragment_A(sA(_,_,0))` loaded by a TiledCopy), the
same reading of its shared tiles' fills is an operand-fills check (`read_fills`: theorem 45 alone)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable, Protocol, cast

from ..algebra import functions as F
from ..algebra.inttuple import Underscore, flatten_to_tuple
from ..algebra.layout import Layout
from ..algebra.swizzle import ComposedLayout
from ..algebra.syntax import ParseError, parse_layout
from ..cute.copy import TiledCopy
from ..cute.mma import TiledMMA
from ..cute.tensor import Tensor
from ..specfile.model import CopyAtomSpec, MMAAtomSpec
from .cpp_types import DYNAMIC, FIXED_WIDTH_NAMES, TypeNode, TypeSyntaxError, int_tuple, layout_text
from .instrument import Block, Loop, Statement, guarded
from .k_tile_loop import KSource, LoopNotRead, read_k_loop
from .cpp_values import (Kind, Memory, Value, _initializer, _operand_name, _split_args, copy_atom_name, derivation,
                         element_bits, memory_of, mma_atom_name, tensor_layout_text)
from ..kinds.slice.coordinate import read_coordinate
from .thread_slices import THREAD_INDEX, cpp_coordinate, without_casts
from .thread_gemm_read import (TILE, FillEvent, FillRead, FragmentRead, KLoopRead, OperandFillsRead, SourceRead,
                               ThreadGemmRead)


MAX_THREADS = 1024
PARAMETER = "parameter"          # a Note's `how` for a function's parameter
ATOM_FILES = ("generic.yaml", "sm80_copy.yaml")     # the atom library's files the partitions' atoms are read from
STEP = re.compile(r"^(?:cute\s*::\s*)?Step\s*<(.*)>\s*\{\s*\}$")     # a projection: Step<_1, X, _1>{}
KEPT, DROPPED = "_1", "X"                                         # a projection's entries
_LOCAL = re.compile(r"^(?:cute\s*::\s*)?(local_partition|local_tile)\s*\((.*)\)$")
_LIKE = re.compile(r"^(?:cute\s*::\s*)?(make_tensor_like|make_fragment_like)\s*(?:<[^()]*>)?\s*\((.*)\)$")
_SLICE = re.compile(r"^([A-Za-z_]\w*)\s*\.\s*(get_slice|get_thread_slice)\s*\((.*)\)$")
_MAKE_C = re.compile(r"^([A-Za-z_]\w*)\s*\.\s*(make_fragment_C|partition_fragment_C)\s*\((.*)\)$")
_INDEXED = re.compile(r"^([A-Za-z_]\w*)\s*\((.*)\)$")
MAX_ALIASES = 8                  # variables a block coordinate is followed back through
# CuTe's calls that write their last argument (a copy of any kind, a fill, an axpby, a transform)
_WRITES = re.compile(r"^(?:cute\s*::\s*)?(copy|copy_if|cooperative_copy|copy_aligned|copy_vec|fill|clear|axpby|"
                     r"transform)\s*(?:<[^()]*>)?\s*\((.*)\)$")
_STORE = re.compile(r"^(?:cute\s*::\s*)?(copy|axpby)\s*\((.*)\)$")
_GMEM_PTR = re.compile(r"make_gmem_ptr\s*(?:<[^()]*>)?\s*\(\s*([^()]*?)\s*\)")
PARTITION_METHODS = ("partition_S", "partition_D", "partition_A", "partition_B", "partition_C")
COPY_PARTITIONS = ("partition_S", "partition_D")


class Declarations(Protocol):
    """What the thread-gemm reader asks of the operand-path reader (kernel_paths.PathReader): an instantiation's
    declarations by name at a line, a tensor's shared root, the tiled copy / MMA a slice is of."""

    def value(self, name: str | None, line: int) -> Value | None: ...

    def shared_root(self, v: Value | None) -> Value | None: ...

    def tiled_copy_of(self, by: Value) -> TypeNode | None: ...

    def tiled_mma_of(self, by: Value) -> TypeNode | None: ...


class NotRead(Exception):
    """Why a thread-gemm is not read (the caller lists the gemm with it)."""


@dataclass(frozen=True)
class _Tile:
    """A tile a partition is taken of: its first two modes' extents, and what it is."""
    value: Value
    shape: tuple[int, int]
    smem: Layout | ComposedLayout | None     # a shared tile's layout (its stages, past its first two modes)
    tensor: str                     # a global tile's tensor (its pointer), a shared one's name
    at: tuple[str, str] | None      # a global tile's block coordinates along its two modes ("_": every k-tile)


@dataclass(frozen=True)
class _Partition:
    tile: _Tile
    threads: int
    at: Callable[[Tensor, int], Tensor]       # (a tensor of the tile's shape, thread) -> the thread's partition
    drop_first: bool                           # a TiledMMA's partition: its first mode is the atom's (1 value)


def _words(text: str) -> str:
    return " ".join(text.split())


def _split(text: str) -> list[str]:
    return [a.strip() for a in _split_args(text)]


def _layout_of(node: TypeNode | None) -> Layout:
    """A static Layout type as a layout (a compact one, `Layout<Shape>`, column-major)."""
    if node is None or not node.is_("Layout") or not node.args:
        raise NotRead(f"not a layout type: {node.text()[:120] if node is not None else 'none'}")
    try:
        if len(node.args) == 1:
            shape = int_tuple(node.args[0])
            if DYNAMIC in flatten_to_tuple(shape):
                raise NotRead("a layout of run-time extents")
            return Layout(shape)
        text = layout_text(node)
        if DYNAMIC in text:
            raise NotRead(f"a layout of run-time extents or strides ({text})")
        layout = parse_layout(text)
    except (TypeSyntaxError, ParseError) as e:
        raise NotRead(f"a layout type the reader cannot spell: {e}") from None
    if not isinstance(layout, Layout):
        raise NotRead(f"a swizzled layout ({layout}): the thread-gemm reader reads plain layouts")
    return layout


def _shape_of(node: TypeNode | None) -> object:
    """A Tensor type's shape (run-time extents as DYNAMIC)."""
    if node is None or len(node.args) != 2 or not node.args[1].args:
        raise NotRead("a tensor type without its layout")
    try:
        return int_tuple(node.args[1].args[0])
    except TypeSyntaxError as e:
        raise NotRead(f"a tensor type the reader cannot spell: {e}") from None


def _identity(shape: tuple[int, int]) -> Layout:
    """The tile's coordinates: (row, column) -> its colexicographic index."""
    return Layout(shape, (1, shape[0]))


def _projection(text: str) -> tuple[bool, ...]:
    m = STEP.match(_words(text))
    if m is None:
        raise NotRead(f"a projection the reader does not read: {text}")
    entries = [e.replace("cute::", "").strip() for e in _split(m.group(1))]
    if any(e not in (KEPT, DROPPED) for e in entries):
        raise NotRead(f"a projection of other steps than _1 and X: {text}")
    return tuple(e == KEPT for e in entries)


def _static_ints(node: TypeNode | None, what: str) -> tuple[int, ...]:
    if node is None:
        raise NotRead(f"{what}: no type the compiler described")
    try:
        value = int_tuple(node)
    except TypeSyntaxError:
        raise NotRead(f"{what} is not a tuple of static integers: {node.text()[:120]}") from None
    if not isinstance(value, tuple) or not all(isinstance(v, int) for v in value):
        raise NotRead(f"{what} is not a tuple of static integers: {node.text()[:120]}")
    return tuple(v for v in value if isinstance(v, int))


class ThreadGemmReader:
    """Reads one gemm call of an instantiation (`reader`: its declarations; `statements`: its function's)."""

    def __init__(self, reader: Declarations, statements: list[Statement], loops: list[Loop] | None = None,
                 blocks: list[Block] | None = None) -> None:
        self.r = reader
        self.statements = statements
        self.loops = loops or []           # the function's braced loops (the k-tile loop's reading)
        self.blocks = blocks or []         # ... and braced blocks (which statements a condition guards)

    def value(self, text: str, line: int) -> Value:
        m = re.match(r"^([A-Za-z_]\w*)", text.strip())
        v = self.r.value(m.group(1), line) if m else None
        if v is None:
            raise NotRead(f"{text.strip()} is no declaration the compiler described")
        return v

    @staticmethod
    def init(v: Value) -> str:
        """What `v`'s declaring statement initializes it with, its spaces collapsed."""
        return _words(_initializer(v))

    # ---- tiles
    def tile(self, v: Value) -> _Tile:
        if v.node is None:
            raise NotRead(f"{v.name}: no type the compiler described")
        memory = memory_of(v.node)
        init = self.init(v)
        if memory is Memory.SHARED:
            if not re.match(r"^(?:cute\s*::\s*)?make_tensor\s*\(\s*make_smem_ptr", init):
                raise NotRead(f"{v.name} is not a shared tile made with make_tensor(make_smem_ptr(...), layout)")
            layout = _shared_layout_of(v.node)
            plain = layout.b if isinstance(layout, ComposedLayout) else layout
            if plain.rank() < 2:
                raise NotRead(f"{v.name}'s layout {layout} is not of rank 2 (rows, k) or more (stages)")
            shape = (int(plain.mode(0).size()), int(plain.mode(1).size()))
            return _Tile(v, shape, layout, v.name, None)
        if memory is not Memory.GLOBAL:
            raise NotRead(f"{v.name} is neither a shared nor a global tile")
        sliced = self.divided_slice(v, init)
        if sliced is not None:
            return sliced
        m = _LOCAL.match(init)
        if m is None or m.group(1) != "local_tile":
            raise NotRead(f"{v.name} is not a global tile made with local_tile(tensor, tiler, coord, Step) or a slice "
                          "of a divided tensor's rest modes (S(make_coord(_, _), blockIdx.x, blockIdx.y))")
        args = _split(m.group(2))
        if len(args) not in (3, 4):
            raise NotRead(f"{v.name}: local_tile of {len(args)} arguments, not (tensor, tiler, coord[, Step<...>])")
        root = self.value(args[0], v.note.line)
        pointer = _GMEM_PTR.search(self.init(root))
        if pointer is not None:
            tensor = pointer.group(1)
        elif root.note.how == PARAMETER and root.node is not None and memory_of(root.node) is Memory.GLOBAL:
            tensor = root.name                     # a global tensor the kernel is handed
        else:
            raise NotRead(f"{root.name} is neither a global tensor made over make_gmem_ptr(...) nor one the kernel "
                          "is handed")
        tiler = _static_ints(self.value(args[1], v.note.line).node, f"the tiler {args[1]}")
        coord_text = args[2]
        if re.fullmatch(r"[A-Za-z_]\w*", coord_text):
            coord_text = self.init(self.value(coord_text, v.note.line))
        cm = re.match(r"^(?:cute\s*::\s*)?make_coord\s*\((.*)\)$", coord_text)
        if cm is None:
            raise NotRead(f"{v.name}: a block coordinate not made with make_coord(...): {coord_text}")
        coord = [_words(c) for c in _split(cm.group(1))]
        step = _projection(args[3]) if len(args) == 4 else (True,) * len(tiler)
        if not len(tiler) == len(coord) == len(step):
            raise NotRead(f"{v.name}: the tiler, coordinate and projection are of different ranks")
        kept = [i for i, s in enumerate(step) if s]
        if len(kept) != 2:
            raise NotRead(f"{v.name}: a projection keeping {len(kept)} modes, not 2")
        shape = (tiler[kept[0]], tiler[kept[1]])
        at = (self.block_coordinate(coord[kept[0]], v.note.line), self.block_coordinate(coord[kept[1]], v.note.line))
        noted = _shape_of(v.node)
        if not isinstance(noted, tuple) or tuple(noted[:2]) != shape:
            raise NotRead(f"{v.name}: the compiler's shape {noted} is not the tile {shape} the reader computed")
        return _Tile(v, shape, None, tensor, (at[0], at[1]))

    def divided_slice(self, v: Value, init: str) -> _Tile | None:
        """`v` as a tile taken of a divided global tensor at its rest modes -- `S(make_coord(_, _), blockIdx.x,
        blockIdx.y)` of `tiled_divide(tensor, block_shape)`'s ((TM, TN), m', n') --, or None where `init` is no such
        slice.  Its block coordinates are the rest coordinates as written (one spelling: `block_coordinate`)."""
        m = _INDEXED.match(init)
        if m is None:
            return None
        args = [_words(a) for a in _split(m.group(2))]
        whole = re.fullmatch(r"(?:cute\s*::\s*)?make_coord\s*\(\s*_\s*,\s*_\s*\)", args[0]) if args else None
        if whole is None or len(args) != 3 or "_" in args[1:]:
            return None
        root = self.value(m.group(1), v.note.line)
        if root.node is None or memory_of(root.node) is not Memory.GLOBAL:
            return None
        noted = _shape_of(v.node)
        if not isinstance(noted, tuple) or len(noted) != 2 or not all(isinstance(x, int) for x in noted):
            raise NotRead(f"{v.name}: a tile of the divided tensor {root.name} whose shape {noted} is not two static "
                          "extents")
        shape = (int(cast(int, noted[0])), int(cast(int, noted[1])))
        tile_mode = _shape_of(root.node)
        if not isinstance(tile_mode, tuple) or len(tile_mode) != 3 or tile_mode[0] != shape:
            raise NotRead(f"{v.name}: {root.name}'s shape {tile_mode} is not ((TM, TN), m', n') of its {shape} tiles")
        at = (self.block_coordinate(args[1], v.note.line), self.block_coordinate(args[2], v.note.line))
        return _Tile(v, shape, None, root.name, at)

    def block_coordinate(self, text: str, line: int) -> str:
        """A tile's block coordinate as written, in one spelling: a variable's initializer in its place (`int m =
        blockIdx.x` read as blockIdx.x), casts to an integer type and `cute::` dropped, spaces removed -- so that two
        tiles taken at one coordinate compare equal however the kernel spells it."""
        out = _words(text).replace("cute::", "")
        for _ in range(MAX_ALIASES):
            if not re.fullmatch(r"[A-Za-z_]\w*", out) or out == "_":
                break
            v = self.r.value(out, line)
            init = self.init(v) if v is not None else ""
            if not init:
                break
            out, line = _words(init).replace("cute::", ""), v.note.line if v is not None else line
        out = without_casts(out).replace(" ", "")
        while _enclosed(out):
            out = out[1:-1]          # the parentheses a dropped cast leaves: `(blockIdx.x)`
        return out

    # ---- partitions at the thread
    def partition(self, v: Value) -> _Partition:
        init = self.init(v)
        m = _LOCAL.match(init)
        if m is not None and m.group(1) == "local_partition":
            args = _split(m.group(2))
            if len(args) not in (3, 4):
                raise NotRead(f"{v.name}: local_partition of {len(args)} arguments")
            tile = self.tile(self.value(args[0], v.note.line))
            thr_value = self.value(args[1], v.note.line)
            if thr_value.kind is not Kind.LAYOUT:
                raise NotRead(f"{v.name}: local_partition by {args[1]}, not a thread layout")
            thr = _layout_of(thr_value.node)
            index = _thread_index(args[2], f"{v.name}: local_partition")
            kept = _projection(args[3]) if len(args) == 4 else (True,) * thr.rank()
            if len(kept) != thr.rank():
                raise NotRead(f"{v.name}: a projection of {len(kept)} modes over a thread layout of {thr.rank()}")
            diced = Layout(tuple(thr.mode(i).shape for i, k in enumerate(kept) if k),
                           tuple(thr.mode(i).stride for i, k in enumerate(kept) if k))
            threads = int(thr.size())

            def at(t: Tensor, thread: int, diced: Layout = diced) -> Tensor:
                # CuTe's outer_partition: zipped_divide by the thread layout's extents, the tile mode sliced at the
                # flat coordinate in it of the index the thread hands local_partition
                coord = tuple(_flat_coordinate(diced.mode(i), index(thread)) for i in range(diced.rank()))
                tiled = F.zipped_divide(t.layout, tuple(int(diced.mode(i).size()) for i in range(diced.rank())))
                rest = tiled.mode(1).rank()
                return Tensor(t.offset, tiled).slice((coord, (Underscore,) * rest if rest > 1 else Underscore))
            return _Partition(tile, threads, at, False)
        d = derivation(v)
        if d.op not in PARTITION_METHODS or d.by is None or d.of is None:
            raise NotRead(f"{v.name} is neither a local_partition nor a ThrCopy's or ThrMMA's partition at the thread")
        by = self.value(d.by, v.note.line)
        sm = _SLICE.match(self.init(by))
        if sm is None:
            raise NotRead(f"{by.name} is not a slice made by get_slice ({self.init(by) or 'no initializer'})")
        index = _thread_index(sm.group(3), f"{by.name}: {sm.group(2)}")
        tile = self.tile(self.value(d.of, v.note.line))
        if d.op in COPY_PARTITIONS:
            tiled_copy = self.r.tiled_copy_of(by)
            if tiled_copy is None or len(tiled_copy.args) != 3:
                raise NotRead(f"{by.name} slices no TiledCopy the compiler described")
            copy = _tiled_copy(tiled_copy)
            method = copy.partition_S if d.op == "partition_S" else copy.partition_D
            return _Partition(tile, copy.num_threads, lambda t, thread: method(t, index(thread)), False)
        tiled_mma = self.r.tiled_mma_of(by)
        if tiled_mma is None or len(tiled_mma.args) < 2:
            raise NotRead(f"{by.name} slices no TiledMMA the compiler described")
        mma = _tiled_mma(tiled_mma)
        operand = d.op[-1]
        return _Partition(tile, mma.num_threads(), lambda t, thread: mma.partition(t, operand, index(thread)), True)

    def fragment(self, v: Value, threads: int | None, rank: int | None,
                 strip_k: bool = False) -> tuple[FragmentRead, _Partition]:
        """`v`'s partition of its tile, for each of `threads` threads (None: the partition's own), checked against
        the compiler's type."""
        p = self.partition(v)
        if threads is None:
            threads = p.threads
        if not 0 < threads <= MAX_THREADS:
            raise NotRead(f"{v.name}: a partition among {threads} threads (at most {MAX_THREADS} are read)")
        identity = Tensor(0, _identity(p.tile.shape))
        parts = [p.at(identity, t) for t in range(threads)]
        values = parts[0].layout
        if not isinstance(values, Layout) or any(q.layout != values for q in parts):
            raise NotRead(f"{v.name}: the threads' partitions are not one layout at different origins")
        noted = _shape_of(v.node)
        if p.tile.smem is not None:       # CuTe's own layout of the partition, as the compiler typed it
            own = p.at(Tensor(0, p.tile.smem), 0).layout
            spelled = _shared_layout_of(v.node)
            if own != spelled:
                raise NotRead(f"{v.name}: the partition the reader computed, {own}, is not the compiler's {spelled}")
            staged = p.tile.smem.rank() - 2
            if staged and _strip(own, staged).shape != values.shape:
                raise NotRead(f"{v.name}: a stage's partition {values.shape} is not the compiler's {own.shape} without "
                              "its stages")
        else:
            want = noted[:-1] if strip_k and isinstance(noted, tuple) else noted
            if want != values.shape and not (isinstance(want, tuple) and len(want) == 1 and want[0] == values.shape):
                raise NotRead(f"{v.name}: the partition's shape the reader computed, {values.shape}, is not the "
                              f"compiler's {noted}")
        if p.drop_first:
            if int(values.mode(0).size()) != 1:
                raise NotRead(f"{v.name}: a TiledMMA partition of {values.mode(0).size()} values an atom (the gemm "
                              "check reads UniversalFMA's one)")
            values = Layout(tuple(values.mode(i).shape for i in range(1, values.rank())),
                            tuple(values.mode(i).stride for i in range(1, values.rank())))
        if rank is not None and values.rank() != rank:
            raise NotRead(f"{v.name}: a fragment of rank {values.rank()}, not {rank}")
        origins = tuple(int(q.offset) for q in parts)
        return FragmentRead(origins, values, p.tile.shape), p

    # ---- the gemm
    def read(self, s: Statement, args: list[str]) -> ThreadGemmRead:
        notes: list[str] = []
        if len(args) == 4:
            mma_value = self.value(args[0], s.line)
            tiled = self.r.tiled_mma_of(mma_value)
            if tiled is None or not tiled.args:
                raise NotRead(f"{args[0]} is no TiledMMA the compiler described")
            name, why, _ = mma_atom_name(tiled.args[0])
            if name is None or not name.startswith("UniversalFMA<"):
                raise NotRead(why or f"the TiledMMA's atom {name} is not UniversalFMA")
            operands = args[1:]
        elif len(args) == 3:
            operands = args
        else:
            raise NotRead(f"a gemm of {len(args)} arguments")
        staged: list[int] = []          # lines of the copies of k-blocks into registers the gemm multiplies
        a_v, b_v = (self.shared_operand(x, op, s.line, staged, notes) for x, op in zip(operands[:2], "AB"))
        c_global, store = self.accumulator(operands[2], s.line)
        c_frag, c_part = self.fragment(c_global, None, 2)
        threads = c_part.threads
        if c_part.tile.at is None or "_" in c_part.tile.at:
            raise NotRead(f"C's tile {c_part.tile.value.name} is not one block's tile")
        a_frag, a_part = self.fragment(a_v, threads, 2)
        b_frag, b_part = self.fragment(b_v, threads, 2)
        if a_part.threads != threads or b_part.threads != threads:
            notes.append(f"A's partition is made for {a_part.threads} threads, B's {b_part.threads}, C's {threads}")
        bm, bn = c_frag.tile
        depth = a_frag.tile[1]
        if a_frag.tile != (bm, depth) or b_frag.tile != (bn, depth):
            raise NotRead(f"the shared tiles {a_frag.tile} and {b_frag.tile} do not pair with C's {c_frag.tile}")
        fills = (self.fill(a_part.tile, threads), self.fill(b_part.tile, threads))
        k_loop, not_read = self.k_loop(s, zip("ab", fills))
        return ThreadGemmRead((bm, bn, depth), threads, a_frag, b_frag, c_frag, fills,
                              (c_part.tile.at[0], c_part.tile.at[1]), store, tuple(notes), tuple(staged),
                              k_loop, not_read)

    def k_loop(self, s: Statement, fills: Iterable[tuple[str, FillRead]]) -> tuple[KLoopRead | None, str]:
        """The loop around the gemm `s` that runs the k-tiles its fills (each an operand's) copy (k_tile_loop.py),
        or why it is not read."""
        pairs = list(fills)
        sources = [KSource(src.partition, src.k_mode, src.k_tiles, operand, src.copied_at)
                   for operand, f in pairs for src in f.sources]
        events = {operand: f.events for operand, f in pairs}

        def initializer(name: str, line: int) -> tuple[str, int] | None:
            v = self.r.value(name, line)
            return (self.init(v), v.note.line) if v is not None else None
        try:
            return read_k_loop(self.loops, s.function, (s.line, s.column), sources, initializer, self.statements,
                               self.blocks, events), ""
        except LoopNotRead as e:
            return None, str(e)

    def accumulator(self, text: str, line: int) -> tuple[Value, int]:
        """The global partition the gemm's accumulator `text` is made like (`make_tensor_like(tCgC)`,
        `thr_mma.make_fragment_C(tCgC)`), of its shape, and the line of the statement that stores it there."""
        if "(" in text:
            raise NotRead("its C sliced in the call (the reader reads the whole accumulator)")
        c_v = self.value(text, line)
        c_init = self.init(c_v)
        like, made = _LIKE.match(c_init), _MAKE_C.match(c_init)
        if like is not None:
            made_from = like.group(2)
        elif made is not None:
            made_from = made.group(3)
        else:
            raise NotRead(f"its C, {c_v.name}, is not made like a partition of a global tile ({c_init})")
        c_global = self.value(_split(made_from)[0], c_v.note.line)
        if _shape_of(c_global.node) != _shape_of(c_v.node):
            raise NotRead(f"{c_v.name} is not of {c_global.name}'s shape")
        return c_global, self.store_of(c_v, c_global, line)

    def read_fills(self, s: Statement, args: list[str], fragment_source: Callable[[Value], Value | None]
                   ) -> OperandFillsRead:
        """The fills of the shared tiles a gemm's register fragments were partitioned from (`fragment_source`: the
        tensor a fragment was made from, partition_fragment_A(sA(_, _, 0)) -> sA(_, _, 0)), and C's block
        coordinates from the partition its accumulator is stored to."""
        if len(args) != 4:
            raise NotRead(f"a gemm of {len(args)} arguments")
        c_global, store = self.accumulator(args[3], s.line)
        d = derivation(c_global)
        if d.op not in ("partition_C", "view") or d.of is None:
            raise NotRead(f"{c_global.name} is not a ThrMMA's partition_C of a global tile")
        c_tile = self.tile(self.value(d.of, c_global.note.line))
        if c_tile.at is None or "_" in c_tile.at:
            raise NotRead(f"C's tile {c_tile.value.name} is not one block's tile")
        tiles = []
        for text in args[1:3]:
            fragment = self.value(text, s.line)
            made_from = fragment_source(fragment)
            root = self.r.shared_root(made_from) if made_from is not None else None
            if root is None:
                raise NotRead(f"{fragment.name} is not a fragment partitioned from a shared tile")
            tiles.append(self.tile(root))
        # the threads that copy: those of the partition each fill writes through (one count for both)
        counts = {self.fill_threads(tile) for tile in tiles}
        if len(counts) != 1:
            raise NotRead(f"A's and B's fills are partitioned among {sorted(counts)} threads")
        threads = counts.pop()
        fills = tuple((operand, tile.shape, self.fill(tile, threads)) for operand, tile in zip("ab", tiles))
        k_loop, not_read = self.k_loop(s, ((operand, f) for operand, _, f in fills))
        return OperandFillsRead(threads, (c_tile.at[0], c_tile.at[1]), fills, store, k_loop, not_read)

    def fill_threads(self, tile: _Tile) -> int:
        """The threads of the partition the copies into the shared `tile` write through."""
        writes = self.copies_into(tile)
        dests = {_base_name(dst) for _, _, dst in writes}
        if len(dests) != 1:
            raise NotRead(f"{tile.value.name} is written through {len(dests)} partitions")
        return self.partition(self.value(dests.pop(), writes[0][0].line)).threads

    def copies_into(self, tile: _Tile) -> list[tuple[Statement, str, str]]:
        """The copies (`copies(whole=False)`) whose destination is a shared partition of `tile`."""
        return [(st, src, dst) for st, src, dst in self.copies(whole=False) if self.into(dst, st.line, tile)]

    def into(self, dst: str, line: int, tile: _Tile) -> bool:
        """Whether `dst` (as written at `line`) is a shared tensor viewing `tile`."""
        name = _base_name(dst)
        return self.shared(name, line) and self.root(name, line) == tile.value.name

    def shared_operand(self, text: str, op: str, line: int, staged: list[int], notes: list[str]) -> Value:
        """The shared partition the gemm's operand `text` multiplies: itself, or -- an operand of registers sliced
        at a k-block, `tCrA(_, _, k_block)` -- the shared partition every copy into those registers copies, k-block
        by k-block (`copy(tCsA(_, _, k), tCrA(_, _, k))`); its copies' lines are added to `staged`."""
        v = self.value(text, line)
        memory = memory_of(v.node) if v.node is not None else None
        if memory is Memory.SHARED and text.strip() == v.name:
            return v
        m = _INDEXED.match(text.strip())
        index = [_words(x) for x in _split(m.group(2))] if m is not None else []
        if memory is not Memory.REGISTER or not index or any(x != "_" for x in index[:-1]) or index[-1] == "_":
            raise NotRead(f"its {op}, {text.strip()}, is neither a partition of a shared tile nor registers of one "
                          "sliced at a k-block")
        fills = [(st, src, dst) for st, src, dst in self.copies(whole=False) if _base_name(dst) == v.name]
        sources = set()
        for st, src, dst in fills:
            sm, dm = _INDEXED.match(src.strip()), _INDEXED.match(dst.strip())
            if sm is None or dm is None or [_words(x) for x in _split(sm.group(2))] != \
                    [_words(x) for x in _split(dm.group(2))]:
                raise NotRead(f"the copy at line {st.line} into {v.name} is not one k-block of a shared partition "
                              "to the same k-block of the registers")
            sources.add(sm.group(1))
        if len(sources) != 1:
            raise NotRead(f"{v.name} is filled from {len(sources)} partitions (by the copies the reader follows)")
        shared = self.value(next(iter(sources)), fills[0][0].line)
        if shared.node is None or memory_of(shared.node) is not Memory.SHARED or \
                _shape_of(shared.node) != _shape_of(v.node):
            raise NotRead(f"{v.name} is filled from {shared.name}, not a shared partition of its shape")
        staged += [st.line for st, _, _ in fills]
        notes.append(f"the gemm multiplies {op} a k-block at a time ({text.strip()}) from registers copied from "
                     f"{shared.name} k-block by k-block: its k-block index is taken to run over every k-block, each "
                     "copied before the gemm that multiplies it")
        return shared

    def store_of(self, c: Value, c_global: Value, after: int) -> int:
        """The line of the statement that stores the accumulator `c` to `c_global` (copy or axpby)."""
        for st in self.statements:
            if st.line <= after:
                continue
            m = _STORE.match(_words(st.text).rstrip(";"))
            if m is None:
                continue
            args = [a.strip() for a in _split(m.group(2))]
            pair = (args[0], args[1]) if m.group(1) == "copy" and len(args) == 2 else \
                (args[1], args[3]) if m.group(1) == "axpby" and len(args) == 4 else None
            if pair == (c.name, c_global.name):
                return st.line
        raise NotRead(f"the accumulator {c.name} is not stored to {c_global.name} (copy or axpby) after the gemm")

    def fill(self, tile: _Tile, threads: int) -> FillRead:
        """The copies that fill the shared `tile`: every copy of the function into a partition of it (of a stage of
        it, `tAsA(_, _, _, stage)`, for a staged tile), from global partitions at k-tiles, straight or through a
        register tensor of the partition's shape."""
        if tile.smem is None:
            raise NotRead(f"{tile.value.name} is not a shared tile")
        staged = tile.smem.rank() - 2
        writes = self.copies_into(tile)
        if not writes:
            raise NotRead(f"no copy the reader follows writes {tile.value.name}")
        followed = {(st.line, st.column) for st, _, _ in writes}
        other = next((st for st, dst in self.writes() if (st.line, st.column) not in followed and
                      self.into(dst, st.line, tile)), None)
        if other is not None:
            raise NotRead(f"{tile.value.name} is also written at line {other.line} ({_words(other.text)[:80]}), "
                          "by a call the reader does not follow")
        dests = {_base_name(dst) for _, _, dst in writes}
        if len(dests) != 1:
            raise NotRead(f"{tile.value.name} is written through {len(dests)} partitions")
        for st, _, dst in writes:
            index = _index(dst)
            if (index is None) != (staged == 0) or (index is not None and (len(index) < staged + 1 or any(
                    x != "_" for x in index[:-staged]) or "_" in index[-staged:])):
                raise NotRead(f"the copy at line {st.line} writes {dst.strip()}: not the whole partition"
                              + (" at one stage" if staged else ""))
        dst_v = self.value(next(iter(dests)), writes[0][0].line)
        destination, _ = self.fragment(dst_v, threads, None)
        sources: list[tuple[Statement, str]] = []          # (copy, indexed global partition)
        events: list[FillEvent] = []
        lines = [st.line for st, _, _ in writes]
        for st, src, _ in writes:
            src_v = self.value(src, st.line)
            if src_v.node is not None and memory_of(src_v.node) is Memory.REGISTER:
                if src.strip() != src_v.name or _shape_of(src_v.node) != _shape_of(dst_v.node):
                    raise NotRead(f"{src_v.name}, copied into {tile.value.name}, is not a register tensor of "
                                  f"{dst_v.name}'s shape copied whole")
                into = [(st2, s2) for st2, s2, d2 in self.copies() if d2.strip() == src_v.name]
                if not into:
                    raise NotRead(f"nothing the reader follows fills {src_v.name}")
                followed_into = {(st2.line, st2.column) for st2, _ in into}
                other = next((st2 for st2, d2 in self.writes() if _base_name(d2) == src_v.name and
                              (st2.line, st2.column) not in followed_into), None)
                if other is not None:
                    raise NotRead(f"{src_v.name} is also written at line {other.line} ({_words(other.text)[:80]}), "
                                  "by a call the reader does not follow")
                sources += into
                lines += [st2.line for st2, _ in into]
                events.append(FillEvent((st.line, st.column), TILE, registers=src_v.name))
                events += [FillEvent((st2.line, st2.column), src_v.name, k_tile=(_index(s2) or ["?"])[-1])
                           for st2, s2 in into]
            else:
                sources.append((st, src))
                events.append(FillEvent((st.line, st.column), TILE, k_tile=(_index(src) or ["?"])[-1]))
        reads: list[SourceRead] = []
        for name in dict.fromkeys(_base_name(src) for _, src in sources):    # each partition, in the kernel's order
            k_tiles: list[str] = []
            copied_at: list[tuple[int, int]] = []
            for st, src in sources:
                if _base_name(src) != name:
                    continue
                index = _index(src) or []
                if not index or any(x != "_" for x in index[:-1]) or index[-1] == "_":
                    raise NotRead(f"the copy at line {st.line} takes {src}: not one k-tile of a global partition")
                k_tiles.append(index[-1])
                copied_at.append((st.line, st.column))
            g_v = self.value(name, next(st.line for st, src in sources if _base_name(src) == name))
            fragment, g_part = self.fragment(g_v, threads, None, strip_k=True)
            at = g_part.tile.at
            if at is None or at[1] != "_":
                raise NotRead(f"{g_part.tile.value.name} is not a tile of every k-tile (its coordinate along k is "
                              f"{at[1] if at else 'none'})")
            if int(fragment.values.size()) != int(destination.values.size()):
                raise NotRead(f"the copies into {tile.value.name} pair {fragment.values.size()} values a thread "
                              f"with {destination.values.size()}")
            k_mode = len(_index(next(src for _, src in sources if _base_name(src) == name)) or []) - 1
            reads.append(SourceRead(g_part.tile.tensor, at[0], tuple(k_tiles), fragment, name, k_mode,
                                    tuple(copied_at)))
        assert tile.value.node is not None            # a tile has its type (tile() read its layout from it)
        return FillRead(tile.smem, tensor_layout_text(tile.value.node), destination, tuple(reads),
                        tuple(sorted(set(lines))), tuple(sorted(set(events), key=lambda e: e.at)))

    def writes(self) -> list[tuple[Statement, str]]:
        """Every call of the function that may write its last argument: (statement, that argument)."""
        out = []
        for st in self.statements:
            under = guarded(st.text)              # the body of a braceless if / for: a write all the same
            m = _WRITES.match(_words(under[1] if under is not None else st.text).rstrip(";"))
            if m is not None:
                args = _split(m.group(2))
                if args:
                    out.append((st, args[-1].strip()))
        return out

    def copies(self, whole: bool = True) -> list[tuple[Statement, str, str]]:
        """Every copy of the function: (statement, source as written, destination as written); `whole`: only those
        of an atom or a tiled copy's or of two arguments whose destination is a whole tensor (a name)."""
        out = []
        for st in self.statements:
            m = re.match(r"^(?:cute\s*::\s*)?copy\s*\((.*)\)$", _words(st.text).rstrip(";"))
            if m is None:
                continue
            args = _split(m.group(1))
            if len(args) in (2, 3) and (not whole or re.fullmatch(r"[A-Za-z_]\w*", args[-1].strip())):
                out.append((st, args[-2], args[-1].strip()))
        return out

    def shared(self, name: str, line: int) -> bool:
        """Whether the tensor named `name` at `line` is in shared memory (a register fragment made from a shared
        partition is not)."""
        v = self.r.value(name, line)
        return v is not None and v.node is not None and memory_of(v.node) is Memory.SHARED

    def root(self, text: str, line: int) -> str | None:
        """The name of the shared tile the tensor named `text` at `line` partitions (None where it partitions
        none)."""
        m = re.match(r"^([A-Za-z_]\w*)$", text.strip())
        if m is None:
            return None
        v = self.r.value(m.group(1), line)
        root = self.r.shared_root(v) if v is not None else None
        return root.name if root is not None else None


def _thread_index(text: str, what: str) -> Callable[[int], int]:
    """The index a thread hands a partition, as a function of the thread: `threadIdx.x`, or an expression of it the
    thread-slice check's language reads (`threadIdx.x % 128`); NotRead for anything else, or a thread for which it
    divides by zero or is negative."""
    expression = cpp_coordinate(text)
    if expression is None:
        raise NotRead(f"{what} at {text.strip()}: not an expression of threadIdx.x the reader evaluates")
    if expression == THREAD_INDEX:
        return lambda thread: thread
    coordinate = read_coordinate(expression)

    def index(thread: int) -> int:
        try:
            value = coordinate(thread)
        except ZeroDivisionError:
            raise NotRead(f"{what} at {text.strip()}: thread {thread}'s index divides by zero") from None
        if value < 0:
            raise NotRead(f"{what} at {text.strip()}: thread {thread}'s index is {value}")
        return value
    return index


def _enclosed(text: str) -> bool:
    """Whether `text` is one parenthesised expression: `(x)`, not `(a) + (b)`."""
    if not (text.startswith("(") and text.endswith(")")):
        return False
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and i < len(text) - 1:
            return False
    return True


def _index(text: str) -> list[str] | None:
    """The index a tensor is sliced at as written (`tAsA(_, _, _, k)` -> ['_', '_', '_', 'k']); None for a name."""
    m = _INDEXED.match(text.strip())
    return [_words(x) for x in _split(m.group(2))] if m is not None else None


def _strip(layout: Layout | ComposedLayout, modes: int) -> Layout:
    """A partition's layout without its last `modes` modes (a staged tile's stages)."""
    plain = layout.b if isinstance(layout, ComposedLayout) else layout
    return Layout(tuple(plain.mode(i).shape for i in range(plain.rank() - modes)),
                  tuple(plain.mode(i).stride for i in range(plain.rank() - modes)))


def _shared_layout_of(node: TypeNode | None) -> Layout | ComposedLayout:
    """A shared tensor type's layout, swizzled pointers and composed layouts included (static)."""
    if node is None:
        raise NotRead("a shared tensor without its type")
    try:
        text = tensor_layout_text(node)
        if DYNAMIC in text:
            raise NotRead(f"a shared layout of run-time extents or strides ({text})")
        return parse_layout(text)
    except (TypeSyntaxError, ParseError) as e:
        raise NotRead(f"a shared layout type the reader cannot spell: {e}") from None


def _base_name(text: str) -> str:
    """The tensor an argument names (`tAgA(_, _, k)` -> tAgA: cpp_values' reading), else the text itself."""
    return _operand_name(text) or text.strip()


def _flat_coordinate(mode: Layout, index: int) -> int:
    """CuTe's get_flat_coord of one mode: each leaf's (index / stride) % extent, read colexicographically."""
    shapes, strides = flatten_to_tuple(mode.shape), flatten_to_tuple(mode.stride)
    out, scale = 0, 1
    for s, d in zip(shapes, strides):
        s, d = int(s), int(d)
        out += (0 if s == 1 else (index // d) % s) * scale
        scale *= s
    return out


@lru_cache(maxsize=None)
def _generic_atoms() -> tuple[dict[str, MMAAtomSpec], dict[str, CopyAtomSpec]]:
    """The atom library's generic atoms (UniversalFMA, the element-wise copies) and SM80's copies (cp.async), by
    name: the atoms a thread-gemm's or a fill's partitions are made with."""
    from ..specfile import load_spec
    from .kernel_spec import ATOM_LIBRARY
    mma: dict[str, MMAAtomSpec] = {}
    copy: dict[str, CopyAtomSpec] = {}
    for name in ATOM_FILES:
        spec = load_spec(ATOM_LIBRARY / name, allow_outside=True)
        mma.update(spec.mma_atoms)
        copy.update(spec.copy_atoms)
    return mma, copy


def _tiled_copy(node: TypeNode) -> TiledCopy:
    from ..kinds.cute_objects import copy_atom
    name, value_type = copy_atom_name(node.args[0])
    held = re.fullmatch(r"(UniversalCopy|SM80_CP_ASYNC_CACHE(?:ALWAYS|GLOBAL)(?:_ZFILL)?)<(\w+)>", name)
    if held is not None and held.group(2) not in FIXED_WIDTH_NAMES.values():
        # UniversalCopy<T>'s and cp.async's traits are those of T's bits alone (one thread, sizeof_bits<T> a
        # value): the library writes them for the unsigned integers of each width
        try:
            name = f"{held.group(1)}<uint{element_bits(held.group(2))}_t>"
        except TypeSyntaxError as e:
            raise NotRead(f"the copy atom {name}: {e}") from None
    spec = _generic_atoms()[1].get(name)
    if spec is None:
        raise NotRead(f"the copy atom {name} is not among the atoms the thread-gemm reader models "
                      f"({', '.join(ATOM_FILES)})")
    try:
        bits = element_bits(value_type)
        layout_tv = _layout_of(node.args[1])
        tiler = _static_ints(node.args[2], "the TiledCopy's tiler")
        return TiledCopy(copy_atom(spec).with_value_bits(bits), layout_tv, tiler)
    except (TypeSyntaxError, ParseError, ValueError) as e:
        raise NotRead(f"a TiledCopy the reader cannot model: {e}") from None


def _tiled_mma(node: TypeNode) -> TiledMMA:
    from ..kinds.cute_objects import mma_atom
    name, why, _ = mma_atom_name(node.args[0])
    spec = _generic_atoms()[0].get(name or "")
    if spec is None:
        raise NotRead(why or f"the MMA atom {name} is not among the atoms the thread-gemm reader models "
                      f"({', '.join(ATOM_FILES)})")
    if len(node.args) > 2 and not (node.args[2].is_("tuple") and all(a.is_("Underscore") for a in node.args[2].args)):
        raise NotRead("a TiledMMA with a permutation (the thread-gemm reader reads CuTe's default)")
    return TiledMMA(mma_atom(spec), _layout_of(node.args[1]))


__all__ = ["ThreadGemmReader", "ThreadGemmRead", "FillRead", "FragmentRead", "NotRead"]
