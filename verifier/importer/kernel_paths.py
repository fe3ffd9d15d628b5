"""The operand paths of a C++ kernel, from its statements and the types the compiler gave its declarations.

The statements say how tensors are derived (`tXsA = s2r_thr_copy_a.partition_S(sA)`, `tCrA =
thr_mma.partition_fragment_A(...)`, `auto [tAgA, tAsA] = tma_partition(tma_a, ..., sA, gA)`) and which copies and
MMAs use them; the types (compile_notes) say what every object is, as CuTe computed it: the TiledCopy's TV layout,
the TiledMMA's atom and tiling, each shared tensor's layout and pointer.  These paths become checks:
- a shared->register copy whose destination is retiled from an MMA operand fragment: a tiled check (the copy atom,
  CuTe's own TiledCopy, the MMA, the shared layout);
- an MMA whose atom reads an operand from shared memory (wgmma / tcgen05.mma `_SS`), filled by a TMA copy (a
  descriptor check: the shared layout, the TMA atom's global tensor) or by the threads through the tile's layout
  (`copy(tiled_copy, gA_part, sA_part)` with a cp.async TiledCopy, `cooperative_copy<N>(tid, gA, sA)`: a
  descriptor check of the shared layout alone); the TMA is the atom's own (its box and swizzle, AuxTmaParams);
- a shared tile a TMA atom fills and the threads copy out of, or the threads fill and a TMA atom stores (an
  epilogue's C and D): a buffer check of the atom's boxes against the layout the threads copy through.
- a `make_tmem_copy(atom, tmem_tile)`: a TMEM check of the tcgen05.ld / .st tiled copy over the tile it was made for.
A tile filled from two sources is listed, never checked as if one filled it.  Every other copy and MMA call is listed
with the reason it is not checked."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from ..algebra import functions as F
from ..algebra.inttuple import flatten_to_tuple
from ..algebra.layout import Layout, make_layout
from ..algebra.swizzle import ComposedLayout, SmemPtrFlag
from ..algebra.syntax import ParseError, parse_layout
from ..dsl.flow import Skipped
from ..algebra.types import smem_container_bits
from ..algebra.swizzle import first_stage
from ..dsl.kernel_checks import (REPRESENTATIVE_EXTENT, BufferRecord, DescriptorRecord, OperandRecord, Record,
                                 SideRecord, SliceRecord, ThreadGemmRecord, OperandFillsRecord, TiledCopyGiven,
                                 ElementwiseRecord, TmemRecord, mn_k_pipe, two_dimensional_box)
from ..dsl.tma_tensors import TmaTensors
from ..kinds.slice.config import MAX_BLOCK as MAX_BLOCK_THREADS
from ..dsl.mlir_text import Where
from .compile_notes import CompileFailed, NotedType
from .cpp_types import TypeNode, TypeSyntaxError, int_tuple, layout_text, parse_type, tile_text
from .instrument import SCOPE, Block, Instrumented, Loop, Statement, guarded
from .thread_gemm_read import KLoopRead
from .elementwise_copy import CopySide, ElementwiseCopyRead
from ..dsl.elementwise import ElementwiseRead, SideRead
from .cpp_values import (Derivation, Kind, Memory, SLICES, Value, _find, _initializer, _kind, _operand_name,
                         _split_args, copy_atom_name, derivation, element_bits, element_type, memory_of,
                         mma_atom_name, tensor_layout_text)
from ..hardware.scalar_fma import UNIVERSAL_FMA
from ..hardware.tma import GLOBAL_ALIGN, PADDED_GLOBAL_ALIGN, TmaSwizzle
from ..specfile.model import TMA_COPIES

SHARED_TILE_ALIGN = 1024
ASSUME_ALIGN = (f"each shared tile begins {SHARED_TILE_ALIGN}-byte aligned: the dynamic shared memory's base and the "
                "tile's place in the kernel's shared storage (CUTLASS's kernels assume it; not proved here)")
ASSUME_THROUGH_LAYOUT = ("{copy} at line {line} writes element (mn, k) of the tile where its layout says: it copies "
                        "into a partition or view of {smem} (CuTe's partition_D / the tensor itself)")
COOPERATIVE_COPY = "DefaultCopy"   # cooperative_copy's copy policy, vectorized by CuTe as the layouts allow
ASSUME_GMEM = ("the global tensor: the mode {} is contiguous; its extents and "
               "other stride are run-time values: a representative {} is checked, its stride a multiple of 16 bytes "
               "(cuTensorMapEncodeTiled refuses any other at run time) and of no larger power of two")
BY_TMA_BASIS = "the TMA atom's basis makes its dimension 0"
BY_STATIC_STRIDE = "whose stride its type makes a static 1"
ASSUME_TMA_MAJOR = ("the global tensor's mode {mode}, along which the TMA atom {tma}'s dimension 0 runs, is "
                    "contiguous: its stride is a run-time value here (a tensor map's dimension 0 has no stride of its "
                    "own)")
MULTICAST = "_MULTICAST"         # a TMA load whose box the CTAs of a cluster share (SM90_TMA_LOAD_MULTICAST, ...)
ASSUME_MULTICAST = ("the multicast TMA atom {tma}: its box is the CTA tile the check proves; at run time make_tma_atom "
                    "divides it among num_multicast CTAs, each loading the slice tma_partition's CTA coordinate and "
                    "layout pick and multicasting it -- that num_multicast is the size of that CTA layout and each CTA "
                    "its own coordinate is assumed (run-time values, not checked)")
ASSUME_TMA_BOX = ("the TMA atom {tma} copies a box {box} (extent:step@global mode) of other than two dimensions: the "
                  "boxes proved are those make_tma_copy takes of the shared layout the MMA reads (the atom's swizzle "
                  "is the one proved); that {tma} was made from that layout is assumed")
# TiledMMA<MMA_Atom, AtomLayoutMNK[, PermutationMNK]>: GCC leaves out the default permutation (Tile<_,_,_>)
TILED_MMA_ARGS = (2, 3)
GEMM_WITHOUT_TILED_MMA = ("a gemm without a tiled MMA: CuTe multiplies each thread's own tensors with one UniversalFMA "
                          "atom (cute/algorithm/gemm.hpp), the elements being those the kernel's own partitions "
                          "(local_partition, ...) give the thread; no TiledMMA whose layouts a check could prove: "
                          "not checked")
GEMM_READS_SHARED = ("{mma} takes {arg} from shared memory: CuTe's gemm copies each thread's own elements of the "
                     "TiledMMA's partition into registers itself (cute/algorithm/gemm.hpp: make_fragment_A / _B and "
                     "an atomless copy per k), no TiledCopy this reader makes a check of: not checked")
ATOMLESS_COPIES = ("copy_aligned", "copy_vec")     # CuTe's copies that take no copy atom or tiled copy
COPY, COPY_IF = "copy", "copy_if"     # the copies an element-wise check reads (of copy_if, not its predicate)
_TMA_TENSOR = re.compile(r"^([A-Za-z_]\w*)\s*\.\s*get_tma_tensor\s*\(")   # `tma_a.get_tma_tensor(shape)`
_TMA_PARTITION = re.compile(r"\btma_partition\s*\((.*)\)\s*$")         # `... = tma_partition(atom, ...)`
MAX_VIEW_CHAIN = 32                 # views of views a coordinate tensor is followed back through
# partitions a coordinate tensor is followed back through (an MMA's partition of the CTA's tile, as the Blackwell
# tutorials hand tma_partition: `tCgA = cta_mma.partition_A(gA)`): the same coordinates, regrouped
COORDINATE_PARTITIONS = ("partition_A", "partition_B", "partition_C", "partition_S", "partition_D")
ATOMLESS_COPY_ATOM = "AutoVectorizingCopy"          # the atom library's name for what they copy with
_CALL = re.compile(r"^(?:cute\s*::\s*)?(copy|gemm|copy_if|cooperative_copy|cooperative_gemm|copy_aligned|copy_vec)"
                   r"\s*(?:<[^()]*>)?\s*"
                   r"\((.*)\)$")
























def a_source(mma: str) -> str | None:
    """Where the atom takes A from when the collective reader does not check it: registers (RS), tensor memory (TS),
    a compressed sparse A (SS_SPARSE); None for A read through a shared-memory descriptor (SS, SS_TN, SS_SCALED)."""
    if re.search(r"_SS(?:_TN|_SCALED)?(?:<|$)", mma):
        return None
    if re.search(r"_SS_SPARSE(?:<|$)", mma):
        return "reads a compressed sparse A (with its metadata), which the collective reader does not read"
    if re.search(r"_TS(?:<|$)", mma):
        return "takes A from tensor memory (its TS form: CUTLASS's own threads fill it; its kernel body is not read)"
    return "takes A from registers: CUTLASS's own threads copy it (its kernel body is not read)"


TCGEN05_ATOMS = "SM100_"      # the atoms' names whose tcgen05.mma reads its operands as the spec's `major:` says


def umma_major(mma: str, majors: tuple[str, str] | None, operand: str) -> str | None:
    """The `major:` of a tcgen05.mma operand (K or MN, from the atom's UMMA::Major arguments); None for another
    atom, whose name holds its majors."""
    if not mma.startswith(TCGEN05_ATOMS) or majors is None:
        return None
    return "K" if majors[0 if operand == "A" else 1] == "K" else "MN"




def atom_layout_text(layout: TypeNode) -> str:
    """The TiledMMA's atom layout, as the spec writes it (a quoted layout; a compact one as its shape)."""
    if layout.args and len(layout.args) == 2:
        return '"' + layout_text(layout) + '"'
    from .cpp_types import int_tuple
    if not layout.args:
        raise TypeSyntaxError(f"a tiled MMA's atom layout without its shape: {layout.text()[:120]}")
    shape = int_tuple(layout.args[0])
    return "[" + ", ".join(str(x) for x in shape) + "]" if isinstance(shape, tuple) else str(shape)


def _permutation(perm: TypeNode) -> str | None:
    if perm.is_("tuple") and all(a.is_("Underscore") for a in perm.args):
        return None
    return tile_text(perm)


def tiled_mma_permutation(tiled_mma: TypeNode) -> str | None:
    """A TiledMMA's permutation as the spec writes it; None for CuTe's default (written or left out by GCC)."""
    return _permutation(tiled_mma.args[2]) if len(tiled_mma.args) > 2 else None


@dataclass
class Instantiation:
    function: str                  # the function's name as written
    spelled: str                   # the instantiation, as the compiler spells it
    values: dict[str, list[Value]] = field(default_factory=dict)

    def at(self, name: str, line: int) -> Value | None:
        """The declaration of `name` in force at `line` (the last one written at or before it)."""
        best = None
        for v in self.values.get(name, []):
            if v.note.line <= line and (best is None or v.note.line >= best.note.line):
                best = v
        return best


def instantiations(ins: Instrumented, noted: list[NotedType]) -> list[Instantiation]:
    by_pos = {(n.line, n.column): n for n in ins.notes}
    out: dict[str, Instantiation] = {}
    for t in noted:
        note = by_pos.get((t.line, t.column))
        if note is None:
            continue
        inst = out.setdefault(t.function, Instantiation(note.function, t.function))
        try:
            node: TypeNode | None = parse_type(t.type_text)
        except TypeSyntaxError:
            node = None
        inst.values.setdefault(note.name, []).append(Value(note, t.type_text, node, _kind(node)))
    return list(out.values())






def _atom_text(name: str, line: int) -> str:
    """A kernel's TMA atom as a check names it: its name and the line that declares it."""
    return f"{name} (line {line})"




def _same_value(a: Value, b: Value) -> bool:
    """Whether two values are one declaration (its name and line)."""
    return (a.name, a.note.line) == (b.name, b.note.line)




@dataclass
class PathReader:
    file: str
    inst: Instantiation
    label: str
    label_suffix: str = ""         # the instantiation's number in check names, where the function has several
    records: list[Record] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    calls: list[tuple[Statement, str, list[str]]] = field(default_factory=list)   # (statement, function, args)
    writers: dict[int, str] = field(default_factory=dict)   # line of a copy through a tile's layout -> its check
    tma_writers: dict[int, str] = field(default_factory=dict)   # line of a TMA copy into a checked tile -> the check
    buffer_copies: dict[int, str] = field(default_factory=dict)  # line of a TMA copy a buffer check proves -> the check
    buffer_thread_copies: dict[int, str] = field(default_factory=dict)   # line of the threads' copy of its tile
    descriptor_tiles: list[str] = field(default_factory=list)    # the shared tiles an MMA reads through a descriptor
    tmem_copy_lines: dict[int, str] = field(default_factory=dict)  # line of a copy by a checked TMEM tiled copy
    thread_gemm_lines: dict[int, str] = field(default_factory=dict)   # line of a fill or a C store -> its check
    elementwise_lines: dict[int, str] = field(default_factory=dict)   # line of an element-wise copy -> its check
    statements: list[Statement] = field(default_factory=list)         # the file's statements
    loops: list[Loop] = field(default_factory=list)                   # the file's braced loops
    blocks: list[Block] = field(default_factory=list)                 # ... and braced blocks
    # a TMA atom's type (as host_gmem_modes keys it) -> the contiguous mode of the global tensor a function of the file
    # made it for (make_tma_atom / make_tma_copy), where that tensor's type has a static unit stride
    host_gmem: dict[str, int] = field(default_factory=dict)

    def credit_writers(self) -> None:
        """A copy that fills a descriptor check's tile (through its layout, or by TMA boxes), or moves a buffer check's
        tile, is listed as checked with that check."""
        # (the copies' lines -> the check, what the copy is to it, whether the check covers it, whether a later
        # entry may say more); in order: a later entry's words replace an earlier one's
        credits: tuple[tuple[dict[int, str], str, bool, bool], ...] = (
            (self.writers, "a copy into a shared tile an MMA reads through a descriptor, through the tile's layout: "
                           "the tile is checked by {}", True, True),
            (self.tma_writers, "a TMA load into a shared tile an MMA reads through a descriptor: its atom's boxes "
                               "are checked by {}", True, True),
            (self.buffer_copies, "a TMA copy of a shared tile the threads also copy: its atom's boxes are checked "
                                 "by {}", True, True),
            (self.tmem_copy_lines, "a tensor-memory copy by the tiled copy make_tmem_copy built: checked by {}",
             True, True),
            (self.thread_gemm_lines, "a copy that fills a shared tile a thread-gemm reads, or stores its accumulator: "
                                     "checked by {}", True, False),
            (self.elementwise_lines, "a copy between an element-wise kernel's global tiles (through registers or "
                                     "not): checked by {}", True, False),
            (self.buffer_thread_copies, "the threads' copy of a shared tile a TMA atom fills or drains: {} proves the "
                                        "tile's layout against the atom's boxes; which elements each thread moves (its "
                                        "partition, against the registers it pairs with) is not checked", False, True))
        for i, sk in enumerate(self.skipped):
            if not re.match(rf"(?:cooperative_)?copy(?:_if)? at line|(?:{'|'.join(ATOMLESS_COPIES)}) at line",
                            sk.what):
                continue
            for lines, words, covers, more in credits:
                check = lines.get(sk.where.line)
                if check is None:
                    continue
                self.skipped[i] = Skipped(sk.where, sk.what, words.format(check), check if covers else None)
                if not more:
                    break

    def where(self, s: Statement) -> Where:
        return Where(self.file, s.line, s.column, None)

    def value(self, name: str | None, line: int) -> Value | None:
        return self.inst.at(name, line) if name else None

    def shared_root(self, v: Value | None) -> Value | None:
        """The shared tensor `v` is a partition or view of (itself when it is one made directly)."""
        return self.root_in(v, Memory.SHARED)

    def root_in(self, v: Value | None, memory: Memory, depth: int = 0) -> Value | None:
        """The tensor in `memory` that `v` is a partition or view of (itself when it is one made directly)."""
        if v is None or v.kind is not Kind.TENSOR or v.node is None or depth > 32:
            return None
        d = derivation(v)
        if d.of is not None and d.op:
            parent = self.value(d.of, v.note.line)
            root = self.root_in(parent, memory, depth + 1)
            if root is not None:
                return root
        return v if memory_of(v.node) is memory else None

    def through_views(self, v: Value) -> tuple[Value, Derivation]:
        """The first declaration behind `v`'s slices and views that is not one, and its derivation."""
        for _ in range(32):
            d = derivation(v)
            if d.op in ("index", "view") and d.of is not None:
                parent = self.value(d.of, v.note.line)
                if parent is not None and parent.kind is Kind.TENSOR:
                    v = parent
                    continue
            return v, d
        return v, derivation(v)

    def mma_operand(self, v: Value | None) -> tuple[str, Value] | None:
        """(A / B, the ThrMMA or TiledMMA) when `v` is an MMA operand fragment, or retiled from one."""
        seen = 0
        while v is not None and seen < 8:
            seen += 1
            d = derivation(v)
            m = re.match(r"(?:partition_fragment|make_fragment)_([AB])$", d.op)
            if m is not None and d.by is not None:
                by = self.value(d.by, v.note.line)
                if by is not None and by.kind in (Kind.THR_MMA, Kind.TILED_MMA):
                    return m.group(1), by
                return None
            if d.op in ("retile_D", "retile_S", "view", "index") and d.of is not None:
                v = self.value(d.of, v.note.line)
                continue
            return None
        return None

    def fragment_source(self, v: Value | None) -> Value | None:
        """The tensor an MMA operand fragment (`partition_fragment_X(t)` / `make_fragment_X(t)`) `v` is, or is retiled
        from, was partitioned from: t."""
        for _ in range(8):
            if v is None:
                return None
            d = derivation(v)
            if re.match(r"(?:partition_fragment|make_fragment)_[AB]$", d.op):
                return self.value(d.of, v.note.line) if d.of is not None else None
            if d.op not in ("retile_D", "retile_S", "view", "index") or d.of is None:
                return None
            v = self.value(d.of, v.note.line)
        return None

    def shared_memory(self, v: Value | None) -> str | None:
        """The memory a shared tensor `v` views, named by the pointer its root tensor is made over
        (`make_tensor(make_smem_ptr(smem.A.begin()), layout)`: `make_smem_ptr(smem.A.begin())`); None where the root is
        made otherwise."""
        root = self.shared_root(v)
        if root is None:
            return None
        m = re.match(r"^(?:cute\s*::\s*)?make_tensor\s*(?:<[^()]*>)?\s*\((.*)\)$", _initializer(root))
        args = _split_args(m.group(1)) if m is not None else []
        return re.sub(r"\s+", "", args[0]) if args else None

    @staticmethod
    def _tiled(by: Value, slice_kind: Kind, tiled_kind: Kind) -> TypeNode | None:
        """The TiledCopy / TiledMMA a ThrCopy / ThrMMA slices (or the tiled object itself)."""
        if by.node is None:
            return None
        if by.kind is slice_kind and by.node.args:
            return by.node.args[0]
        return by.node if by.kind is tiled_kind else None

    def tiled_copy_of(self, by: Value) -> TypeNode | None:
        return self._tiled(by, Kind.THR_COPY, Kind.TILED_COPY)

    def tiled_mma_of(self, by: Value) -> TypeNode | None:
        return self._tiled(by, Kind.THR_MMA, Kind.TILED_MMA)

    def thread_slices(self) -> None:
        """A thread-slice check (theorem 37) for each ThrCopy a copy moves a partition of, made by `get_slice` /
        `get_thread_slice` at another coordinate than threadIdx.x itself (`get_slice(threadIdx.x % 128)`,
        `get_slice(0)`): every other check reads thread u's elements as slice u's.  The block's threads are the
        launch's, which host code sets: at most 1024 are taken.  A coordinate this reader does not spell is listed."""
        seen: set[str] = set()
        for st, function, args in self.calls:
            if function != "copy" or len(args) != 3:
                continue
            for arg in args[1:]:
                v = self.value(_operand_name(arg), st.line)
                if v is None or v.kind is not Kind.TENSOR or v.node is None:
                    continue
                partitioned, d = self.through_views(v)
                thr = self.value(d.by, partitioned.note.line) if d.op in ("partition_S", "partition_D") else None
                if thr is None or thr.kind is not Kind.THR_COPY or thr.name in seen:
                    continue
                seen.add(thr.name)
                self.thread_slice(thr)

    def thread_slice(self, thr: Value) -> None:
        from .thread_slices import THREAD_INDEX, cpp_coordinate
        d = derivation(thr)              # `thr = tiled_copy.get_slice(COORDINATE)`
        tiled_copy = self.tiled_copy_of(thr)
        if d.op not in SLICES or len(d.args) != 1 or tiled_copy is None or len(tiled_copy.args) != 3:
            return
        sliced = d.args[0]
        where = Where(self.file, thr.note.line, thr.note.column, None)
        what = f"the thread coordinate {sliced} of {thr.name}"
        coordinate = cpp_coordinate(sliced)
        if coordinate is None:
            self.skipped.append(Skipped(where, what, "an expression this reader does not spell as one of "
                                                     "threadIdx.x: which slice of the tiled copy each thread takes is "
                                                     "not checked (the other checks read thread u's elements as slice "
                                                     "u's)"))
            return
        if coordinate == THREAD_INDEX:
            return
        try:
            tv = parse_layout(layout_text(tiled_copy.args[1]))
        except (TypeSyntaxError, ParseError, ValueError):
            return
        if not isinstance(tv, Layout):
            return
        atom, value_type = copy_atom_name(tiled_copy.args[0])
        threads = int(tv.mode(0).size())
        self.add(SliceRecord(
            self._name("slice"), where, f"{self.label}: {thr.name}, the tiled copy of {atom} ({threads} threads) "
                                        f"sliced at {sliced} by each thread (the block's threads are the launch's: "
                                        f"at most {MAX_BLOCK_THREADS})",
            atom, value_type or "", threads, MAX_BLOCK_THREADS, coordinate))

    # ---- the paths
    def copy_call(self, s: Statement, args: list[str]) -> None:
        what = f"copy at line {s.line}"
        if len(args) != 3:
            self.skipped.append(Skipped(self.where(s), what, "a copy without a copy atom (CuTe picks the instructions "
                                                            "at run time): not checked"))
            return
        src = self.value(_operand_name(args[1]), s.line)
        dst = self.value(_operand_name(args[2]), s.line)
        if src is None or dst is None or src.node is None or dst.node is None:
            self.skipped.append(Skipped(self.where(s), what, "its source or destination is no declaration the "
                                                            "compiler described"))
            return
        smem = self.shared_root(src)
        operand = self.mma_operand(dst)
        partitioned, d = self.through_views(src)
        if memory_of(src.node) is Memory.COORDINATES and memory_of(dst.node) is Memory.SHARED:
            self.skipped.append(Skipped(self.where(s), what, "a TMA load into shared memory: its box and the tile's "
                                                            "placement are checked with the MMA that reads the tile "
                                                            "(the descriptor check), where there is one"))
            return
        if smem is None or operand is None:
            kinds = f"{memory_of(src.node).value} -> {memory_of(dst.node).value}"
            self.skipped.append(Skipped(self.where(s), what, f"{kinds}: not a shared->register copy of an MMA "
                                                            "operand (not checked by the compiler path)"))
            return
        by = self.value(d.by, partitioned.note.line) if d.op == "partition_S" else None
        tiled_copy = self.tiled_copy_of(by) if by is not None else None
        if tiled_copy is None or len(tiled_copy.args) != 3:
            self.skipped.append(Skipped(self.where(s), what, f"its source {src.name} is not partitioned by a "
                                                            "TiledCopy's partition_S"))
            return
        op, mma_value = operand
        tiled_mma = self.tiled_mma_of(mma_value)
        if tiled_mma is None or len(tiled_mma.args) not in TILED_MMA_ARGS:
            self.skipped.append(Skipped(self.where(s), what, "the MMA of its destination has no TiledMMA type"))
            return
        mma, why, _ = mma_atom_name(tiled_mma.args[0])
        if mma is None:
            self.skipped.append(Skipped(self.where(s), what, why))
            return
        atom, value_type = copy_atom_name(tiled_copy.args[0])
        # the memory the copy reads and the one the fragment it fills was partitioned from, where both are named
        copied_from, fragment_of = self.shared_memory(smem), self.shared_memory(self.fragment_source(dst))
        try:
            smem_text = first_stage_text(tensor_layout_text(smem.node)) if smem.node else ""
            record = OperandRecord(
                self._name(op.lower()), self.where(s),
                f"{self.label}: operand {op}, {atom} from {smem.name} ({src.name} -> {dst.name})",
                mma, atom_layout_text(tiled_mma.args[1]), tiled_mma_permutation(tiled_mma), op, atom,
                value_type or element_type(smem.node) or "", smem_text,  # type: ignore[arg-type]
                TiledCopyGiven(layout_text(tiled_copy.args[1]), tile_text(tiled_copy.args[2])),
                tiles=(copied_from, fragment_of) if copied_from and fragment_of else None)
        except (TypeSyntaxError, ParseError, ValueError) as e:
            self.skipped.append(Skipped(self.where(s), what, f"a type the reader cannot spell as a layout: {e}"))
            return
        self.add(record)

    def add(self, record: OperandRecord | DescriptorRecord | BufferRecord | TmemRecord | SliceRecord) -> None:
        """A record, unless one of this instantiation already checks the same path (listed instead)."""
        def content(r: Record) -> tuple[object, ...]:
            return tuple(v for k, v in vars(r).items() if k not in ("name", "where", "what", "notes"))
        for r in self.records:
            if type(r) is type(record) and content(r) == content(record):
                what = record.notes[0] if isinstance(record, BufferRecord) and record.notes else \
                    getattr(record, "what", record.name)
                self.skipped.append(Skipped(record.where, what, f"the same operand path as check {r.name}, which "
                                                                "proves it", covered_by=r.name))
                return
        self.records.append(record)

    def gemm_call(self, s: Statement, args: list[str]) -> None:
        what = f"gemm at line {s.line}"
        if len(args) < 4:
            if not self.thread_gemm(s, args, what):
                self.skipped.append(Skipped(self.where(s), what, GEMM_WITHOUT_TILED_MMA))
            return
        mma_value = self.value(_operand_name(args[0]), s.line)
        if mma_value is None or mma_value.kind not in (Kind.TILED_MMA, Kind.THR_MMA, Kind.TENSOR):
            return                      # not CuTe's gemm: a function of the file's own
        tiled_mma = self.tiled_mma_of(mma_value)
        if tiled_mma is None or len(tiled_mma.args) not in TILED_MMA_ARGS:
            self.skipped.append(Skipped(self.where(s), what, f"{args[0]} is no TiledMMA the compiler described"))
            return
        mma, why, majors = mma_atom_name(tiled_mma.args[0])
        if mma is None:
            self.skipped.append(Skipped(self.where(s), what, why))
            return
        if a_source(mma) is not None:
            # registers: its operands' copies are the paths (copy_call), except operands given in shared memory --
            # a UniversalFMA gemm on the threads' partitions of shared tiles is a thread-gemm check
            if mma.startswith(UNIVERSAL_FMA) and self.thread_gemm(s, args, what):
                return
            self.operand_fills(s, args, what)
            for index, op in ((1, "A"), (2, "B")):
                operand = self.value(_operand_name(args[index]), s.line)
                if operand is not None and operand.node is not None and memory_of(operand.node) is Memory.SHARED:
                    self.skipped.append(Skipped(self.where(s), f"{what}, operand {op}", GEMM_READS_SHARED.format(
                        mma=mma, arg=args[index].strip())))
            return
        for index, op in ((1, "A"), (2, "B")):
            self.descriptor(s, what, args[index], op, mma, tiled_mma, majors)

    def thread_gemm(self, s: Statement, args: list[str], what: str) -> bool:
        """A thread-gemm check (theorems 44, 45) of a gemm on the threads' own partitions of shared tiles
        (thread_gemm.py), its fills' copies and its accumulator's store credited to it; False, with the reason
        listed, where its A and B are shared partitions the reader does not follow; False alone where they are not
        shared partitions at all (the caller lists the gemm as before)."""
        from .thread_gemm import NotRead, ThreadGemmReader
        operands = args[-3:]
        values = [self.value(_operand_name(x), s.line) for x in operands[:2]]
        memories = [memory_of(v.node) if v is not None and v.node is not None else None for v in values]
        if any(m not in (Memory.SHARED, Memory.REGISTER) for m in memories):
            return False
        statements = [st for st in self.statements if st.function == self.inst.function]
        try:
            read = ThreadGemmReader(self, statements, self.loops, self.blocks).read(s, args)
        except NotRead as e:
            if Memory.REGISTER in memories and self.loaded_by_tiled_copies(operands[:2], s.line):
                return False                     # register fragments a tiled copy loads: the tiled checks' path
            self.skipped.append(Skipped(self.where(s), what, f"a gemm on the threads' partitions of shared tiles "
                                                            f"(a thread-gemm check) the reader does not follow: {e}"))
            return True
        name = self._name("gemm")
        fills = ", ".join(f"{x} from {' and '.join(source.tensor for source in f.sources)}"
                          for x, f in zip("AB", read.fills))
        self.records.append(ThreadGemmRecord(
            name, self.where(s), f"{self.label}: the gemm at line {s.line} on the threads' partitions ({fills}; C "
                                 f"stored at line {read.store_line}{loop_where(read.k_loop)})",
            read, assumes=[f"the block runs {read.threads} threads (the gemm's partition of C): the fills' "
                           "partitions are evaluated at those threads"] + list(read.notes)
            + k_loop_assumes(read.k_loop, read.k_loop_not_read) + [grid_assumed(read.c_at)]))
        for line in [ln for f in read.fills for ln in f.lines] + [read.store_line] + list(read.staged):
            self.thread_gemm_lines[line] = name
        return True

    def elementwise_copies(self) -> None:
        """An element-wise check (theorem 43) for each global partition copied into registers and from them into a
        global partition, or straight into one (elementwise_copy.py); listed with the reason where the reader does not
        follow them.  Copies a thread-gemm check proves are not asked."""
        from .elementwise_copy import read_elementwise_copy
        from .thread_gemm import NotRead, ThreadGemmReader
        moves: dict[tuple[Memory, Memory], list[tuple[Statement, str, str]]] = {}
        predicates: dict[int, str] = {}          # a copy_if's line -> its predicate tensor, as written
        atoms: dict[int, str] = {}               # a copy's line -> the tiled copy or atom it is made by, as written
        for st, function, args in self.calls:
            if st.line in self.thread_gemm_lines or not (function == COPY and len(args) in (2, 3) or
                                                         function == COPY_IF and len(args) in (3, 4)):
                continue
            if function == COPY_IF:
                predicates[st.line] = args[-3].strip()
            if len(args) == (3 if function == COPY else 4):
                atoms[st.line] = _operand_name(args[0]) or args[0].strip()
            src, dst = self.value(_operand_name(args[-2]), st.line), self.value(_operand_name(args[-1]), st.line)
            if src is None or dst is None or src.node is None or dst.node is None:
                continue
            moves.setdefault((memory_of(src.node), memory_of(dst.node)), []).append((st, args[-2], args[-1]))
        chains: list[tuple[tuple[Statement, str, str], tuple[Statement, str, str] | None]] = []
        for load in moves.get((Memory.GLOBAL, Memory.REGISTER), []):
            stores = [c for c in moves.get((Memory.REGISTER, Memory.GLOBAL), [])
                      if c[0].line > load[0].line and _operand_name(c[1]) == _operand_name(load[2])]
            if stores:
                chains.append((load, stores[0]))
        chains += [(c, None) for c in moves.get((Memory.GLOBAL, Memory.GLOBAL), [])]
        if not chains:
            return
        statements = [st for st in self.statements if st.function == self.inst.function]
        reader = ThreadGemmReader(self, statements, self.loops, self.blocks)
        for load, store in chains:
            lines = sorted({load[0].line} | ({store[0].line} if store is not None else set()))
            what = f"the copies at lines {' and '.join(map(str, lines))}"
            try:
                read = read_elementwise_copy(reader, load, store, (atoms.get(load[0].line),
                                                                   atoms.get(store[0].line) if store else None))
            except NotRead as e:
                self.skipped.append(Skipped(self.where(load[0]), what, f"an element-wise copy of global tiles the "
                                                                       f"reader does not follow: {e}"))
                continue
            name = self._name("elementwise")
            predicated = [predicates[line] for line in read.lines if line in predicates]
            self.records.append(elementwise_record(name, self.where(load[0]), f"{self.label}: {what}", read,
                                                   tuple(dict.fromkeys(predicated))))
            for line in read.lines:
                self.elementwise_lines[line] = name

    def loaded_by_tiled_copies(self, operands: list[str], line: int) -> bool:
        """Whether each of a gemm's register operands is loaded by a copy of a tiled copy or atom into a view retiled
        from it (`copy(s2r_atom, tXsA(_, _, k), tXrA(_, _, k))`, `tXrA = s2r_thr_a.retile_D(tCrA)`): the path a tiled
        check proves."""
        for text in operands:
            fragment = self.value(_operand_name(text), line)
            if fragment is None:
                return False
            loaded = False
            for st, function, args in self.calls:
                if function != "copy" or len(args) != 3:
                    continue
                dst = self.value(_operand_name(args[2]), st.line)
                d = derivation(dst) if dst is not None else None
                if d is not None and d.op in ("retile_D", "retile_S") and d.of == fragment.name:
                    loaded = True
                    break
            if not loaded:
                return False
        return True

    def operand_fills(self, s: Statement, args: list[str], what: str) -> None:
        """An operand-fills check (theorem 45) of the shared tiles a gemm's register fragments were partitioned from:
        the copies that fill them, from the block's global tiles (thread_gemm.py); listed with the reason where the
        reader does not follow them."""
        from .thread_gemm import NotRead, ThreadGemmReader
        if not self.loaded_by_tiled_copies(args[1:3], s.line):
            return       # registers no tiled check proves: the gemm is listed (thread_gemm), its fills alone no check
        statements = [st for st in self.statements if st.function == self.inst.function]
        try:
            read = ThreadGemmReader(self, statements, self.loops, self.blocks).read_fills(s, args, self.fragment_source)
        except NotRead as e:
            self.skipped.append(Skipped(self.where(s), f"{what}: the fills of its operands' shared tiles",
                                        f"not checked: {e}"))
            return
        name = self._name("fills")
        self.records.append(OperandFillsRecord(
            name, self.where(s), f"{self.label}: the fills of the shared tiles of the gemm at line {s.line}'s A and B "
                                 f"(C stored at line {read.store_line}{loop_where(read.k_loop)})", read,
            assumes=[f"the block runs {read.threads} threads (the copies' partitions'): they are evaluated at those "
                     "threads"] + k_loop_assumes(read.k_loop, read.k_loop_not_read) + [grid_assumed(read.c_at)]))
        for line in [ln for _, _, f in read.fills for ln in f.lines]:
            self.thread_gemm_lines[line] = name

    def descriptor(self, s: Statement, what: str, arg: str, op: str, mma: str, tiled_mma: TypeNode,
                   majors: tuple[str, str] | None) -> None:
        fragment = self.value(_operand_name(arg), s.line)
        source = fragment
        if fragment is not None:
            d = derivation(fragment)
            if d.op.startswith("make_fragment") and d.of is not None:
                source = self.value(d.of, fragment.note.line)
        smem = self.shared_root(source)
        if smem is None or smem.node is None:
            self.skipped.append(Skipped(self.where(s), f"{what}, operand {op}",
                                        f"{arg} is not made from a shared tensor the compiler described"))
            return
        self.descriptor_tiles.append(smem.name)
        atoms = self.tma_writers_of(smem)
        tma = atoms[0] if atoms else None
        writers = self.layout_writers(smem) if tma is None else []
        if tma is None and not writers:
            self.skipped.append(Skipped(self.where(s), f"{what}, operand {op}",
                                        f"{smem.name} is written by no TMA copy (tma_partition) and by no copy into a "
                                        "partition of it in this function: not checked"))
            return
        sources: dict[str, int] = {}      # each global tensor the threads copy into the tile from -> its first line
        for _, at, src in writers:
            sources.setdefault(src.name, at.line)
        if len(atoms) > 1 or len(sources) > 1:
            by = ", ".join([f"TMA {a.name} (line {a.note.line})" for a in atoms] if len(atoms) > 1 else
                           [f"{name} (copied at line {line})" for name, line in sources.items()])
            self.skipped.append(Skipped(self.where(s), f"{what}, operand {op}",
                                        f"{smem.name} is filled from more than one source ({by}): every element's "
                                        "bytes are written by each, which one the MMA reads is a race no check "
                                        "models: not checked (look here)"))
            return
        try:
            element = element_type(smem.node)
            element_bits(element)          # an element of bits the verifier does not know: a listed reason
            atom = tma_atom(tma) if tma is not None else None
            contiguous = self.global_contiguous(tma, atom) if tma is not None and atom is not None else None
            gmem = (representative_gmem(atom.inner_mode if contiguous is None else contiguous, element or "")
                    if atom is not None else None)
            layout = tensor_layout_text(smem.node)
            if source is not None and self.through_views(source)[0] is smem:
                # make_fragment's tensor is the shared tensor itself: made in the MMA's partition form
                # ((MMA_MN, MMA_K), REST_MN, REST_K[, PIPE]) (tcgen05's tile_to_mma_shape), checked as (MN, K[, PIPE])
                parsed = parse_layout(layout)
                inner = parsed.b if isinstance(parsed, ComposedLayout) else parsed
                layout = str(mn_k_pipe(parsed, pipe=isinstance(inner, Layout) and inner.rank() == 4))
            smem_text = first_stage_text(layout)
            check_pointer_width(smem_text, element)
            atom_layout = atom_layout_text(tiled_mma.args[1])
        except RefusedInDeviceCode as e:
            raise CompileFailed(f"{self.where(s)}: CuTe refuses this configuration: {e}", refused_by_cute=True) \
                from None
        except (TypeSyntaxError, ParseError, ValueError) as e:
            self.skipped.append(Skipped(self.where(s), f"{what}, operand {op}", f"not read: {e}"))
            return
        major = umma_major(mma, majors, op)
        if tma is not None and atom is not None:
            assumes = [ASSUME_ALIGN, ASSUME_GMEM.format(BY_TMA_BASIS if contiguous is None else BY_STATIC_STRIDE,
                                                        gmem)]
            if atom.box is None:
                assumes.append(ASSUME_TMA_BOX.format(tma=tma.name, box=atom.box_text))
            if MULTICAST in tma.type_text:
                assumes.append(ASSUME_MULTICAST.format(tma=tma.name))
            name = self._name(f"desc_{op.lower()}")
            for line in self.tma_copies(tma, smem):
                self.tma_writers.setdefault(line, name)
            # the tensor map TMA reads through is the copies' atom's (the partition's where no copy is read): it
            # must be the atom whose get_tma_tensor made the coordinates the partition takes
            copying = {(by.name, by.note.line) if by is not None else None for _, by in self.copies_into(smem)} or \
                {(tma.name, tma.note.line)}
            only = next(iter(copying)) if len(copying) == 1 else None
            tiles_of = self.tiles_atom(tma, smem) if only is not None else None
            self.add(DescriptorRecord(
                name, self.where(s),
                f"{self.label}: operand {op} of {mma} from {smem.name}, filled by TMA {tma.name}", mma,
                atom_layout, op, element_type(smem.node) or "", smem_text, gmem, SHARED_TILE_ALIGN,
                major=major, assumes=assumes, tma_box=atom.box, tma_swizzle=atom.swizzle.value,
                tensors=None if only is None or tiles_of is None else TmaTensors(
                    _atom_text(*only), _atom_text(tiles_of.name, tiles_of.note.line))))
            return
        for copy in dict.fromkeys(c for c, _, _ in writers):     # one check for each copy atom that writes the tile
            lines = [at.line for c, at, _ in writers if c == copy]
            at_lines = ", ".join(map(str, lines))
            name = self._name(f"desc_{op.lower()}")
            for line in lines:
                self.writers.setdefault(line, name)
            self.add(DescriptorRecord(
                name, self.where(s),
                f"{self.label}: operand {op} of {mma} from {smem.name}, written by {copy} at line {at_lines}", mma,
                atom_layout, op, element_type(smem.node) or "", smem_text, None, SHARED_TILE_ALIGN, major=major,
                assumes=[ASSUME_ALIGN, ASSUME_THROUGH_LAYOUT.format(copy=copy, line=at_lines, smem=smem.name)],
                copy=copy))

    def tma_buffers(self) -> None:
        """Each shared tile a TMA atom fills (or drains) that the threads copy out of (or into) -- an epilogue's C and
        D: a buffer check (theorem 23) of the atom's boxes against the tile's own layout, the view the threads copy
        through.  A tile an MMA reads through a descriptor is the descriptor check's."""
        read_by_mma = set(self.descriptor_tiles)
        for st, function, args in self.calls:
            if function != "copy" or len(args) != 3:
                continue
            atom = self.value(_operand_name(args[0]), st.line)
            src, dst = (self.value(_operand_name(a), st.line) for a in args[1:])
            if atom is None or src is None or dst is None:
                continue
            into, out_of = self.tma_shared_side(dst), self.tma_shared_side(src)
            tile, load = (into, True) if into is not None else (out_of, False)
            if tile is None or tile.node is None or tile.name in read_by_mma:
                continue
            threads = self.thread_copies(tile, out_of=load)
            if not threads:
                continue
            what = f"{'TMA load' if load else 'TMA store'} {atom.name} at line {st.line}"
            try:
                tma, tma_layout, layout, bits = self.tma_side(atom, tile)
            except (TypeSyntaxError, ParseError, ValueError) as e:
                self.skipped.append(Skipped(self.where(st), what, f"the tile {tile.name} it "
                                                                  f"{'fills' if load else 'drains'}: not read: {e}"))
                continue
            name = self._name(f"buffer_{tile.name}")
            copy_name, thread_line = threads[0]
            contiguous = self.global_contiguous(atom, tma)
            assumes = [ASSUME_ALIGN]
            if contiguous is None:
                assumes.append(ASSUME_TMA_MAJOR.format(mode=tma.inner_mode, tma=atom.name))
            tma_side = SideRecord(f"{atom.name} ({'TMA load' if load else 'TMA store'}, its own box and swizzle)", 0,
                                  tma_layout, self.where(st),
                                  None if contiguous is None
                                  else representative_gmem(contiguous, element_type(tile.node) or ""),
                                  None if contiguous is None else tma.inner_mode)
            thread_side = SideRecord(f"{copy_name} at line {thread_line.line}", 0, layout, self.where(thread_line))
            writer, reader = (tma_side, thread_side) if load else (thread_side, tma_side)
            self.add(BufferRecord(
                name, self.where(st), TMA_COPIES[0] if load else copy_name, element_type(tile.node) or "",
                _cosize_bytes(layout, bits), SHARED_TILE_ALIGN, writer, reader,
                notes=[f"{self.label}: the shared tile {tile.name}, {'filled by' if load else 'drained by'} {what}, "
                       f"{'read' if load else 'written'} by the threads ({copy_name} at line {thread_line.line})"],
                assumes=assumes))
            self.buffer_copies.setdefault(st.line, name)
            for _, at in threads:
                self.buffer_thread_copies.setdefault(at.line, name)

    def tmem_copies(self) -> None:
        """Each `make_tmem_copy(atom, tmem_tile)` of the function: a TMEM check of the tcgen05.ld / .st tiled copy over
        the tensor-memory tile it was made for (the tile's layout as CuTe computed it, sliced as the call slices it)."""
        for values in self.inst.values.values():
            for v in values:
                m = _MAKE_TMEM_COPY.search(v.note.statement)
                if m is None or v.kind is not Kind.TILED_COPY or v.node is None or not v.node.args:
                    continue
                where = Where(self.file, v.note.line, v.note.column, None)
                what = f"make_tmem_copy at line {v.note.line}"
                args = _split_args(m.group(1))
                tile = self.value(_operand_name(args[1]), v.note.line) if len(args) == 2 else None
                if tile is None or tile.node is None or memory_of(tile.node) is not Memory.TENSOR_MEMORY:
                    self.skipped.append(Skipped(where, what, "its tensor-memory tile is no tensor the compiler "
                                                             "described: not checked"))
                    continue
                copy, value_type = copy_atom_name(v.node.args[0])
                try:
                    tmem = tmem_tile_text(tile.node, args[1][len(_operand_name(args[1]) or ""):].strip())
                except (TypeSyntaxError, ParseError, ValueError) as e:
                    self.skipped.append(Skipped(where, what, f"its tensor-memory tile {args[1].strip()}: not read: "
                                                             f"{e}"))
                    continue
                name = self._name(f"tmem_{'load' if 'LOAD' in copy else 'store'}")
                for st, function, call_args in self.calls:
                    if function == "copy" and len(call_args) == 3 and _operand_name(call_args[0]) == v.name:
                        self.tmem_copy_lines.setdefault(st.line, name)
                self.add(TmemRecord(name, where, f"{self.label}: the {copy} tiled copy make_tmem_copy builds over "
                                                 f"the tensor-memory tile {args[1].strip()} ({tmem})", copy,
                                    value_type or "", tmem, None))

    def thread_copies(self, tile: Value, out_of: bool) -> list[tuple[str, Statement]]:
        """(the copy atom, the call) of the threads' copies out of (`out_of`) or into a partition or view of `tile`
        that no TMA partition made: `copy(tiled_copy, src, dst)`, or an atomless copy (CuTe's vectorizing copy)."""
        out: list[tuple[str, Statement]] = []
        for st, function, args in self.calls:
            if function == "copy" and len(args) == 3:
                by, pair = args[0], args[1:]
            elif function in ATOMLESS_COPIES + ("copy",) and len(args) == 2:
                by, pair = None, args
            else:
                continue
            side = self.value(_operand_name(pair[0 if out_of else 1]), st.line)
            if side is None or self.tma_shared_side(side) is not None or self.shared_root(side) is not tile:
                continue
            tiled = self.value(_operand_name(by), st.line) if by is not None else None
            tiled_copy = self.tiled_copy_of(tiled) if tiled is not None else None
            if by is not None and (tiled_copy is None or not tiled_copy.args):
                continue                 # a TMA atom's copy, or a copy whose atom is not read
            out.append((copy_atom_name(tiled_copy.args[0])[0] if tiled_copy is not None else
                        ATOMLESS_COPY_ATOM, st))
        return out

    def global_contiguous(self, atom: Value, tma: TmaAtom) -> int | None:
        """The contiguous mode of the global tensor the TMA atom `atom` copies, where the types say it: that of the
        tensor a function of the file made the atom for (its static unit stride), else the mode along the atom's
        dimension 0 when the atom's type gives that mode's stride as a static 1."""
        host = self.host_gmem.get(_type_key(atom.type_text))
        if host is not None:
            return host
        return tma.inner_mode if tma.inner_stride == 1 else None

    def tma_side(self, atom: Value, tile: Value) -> tuple[TmaAtom, str, str, int]:
        """(the atom, the TMA's view of `tile`, the tile's own layout, its element bits): the atom's boxes laid where
        CuTe's tma_partition puts them (each box at the tile's offset of its first element, its elements contiguous
        from there, dimension 0 fastest) under the atom's swizzle on byte addresses -- the layout a TMA made from the
        tile's own layout would share with it."""
        assert tile.node is not None
        tma = tma_atom(atom)
        if tma.box is None:
            raise TypeSyntaxError(f"{atom.name}'s box {tma.box_text} is not two-dimensional")
        layout = tensor_layout_text(tile.node)
        bits = element_bits(element_type(tile.node))
        parsed = parse_layout(layout)
        inner = parsed.b if isinstance(parsed, ComposedLayout) else parsed
        if isinstance(inner, Layout) and inner.rank() == 1 and inner.mode(0).rank() == 2:
            # the tile's modes grouped into one (group<0,2>, as tma_partition takes it): the TMA's modes are its two
            inner = make_layout(inner.mode(0).mode(0), inner.mode(0).mode(1))
            layout = str(ComposedLayout(parsed.a, parsed.offset, inner)) if isinstance(parsed, ComposedLayout) \
                else inner.plain()
        if not isinstance(inner, Layout) or inner.rank() != 2:
            raise TypeSyntaxError(f"the tile {tile.name}'s layout {layout} is not a tile of two modes (M, N)")
        return tma, tma_view(inner, tma.inner_mode, tma.box, tma.swizzle, bits), layout, bits

    def copies_into(self, smem: Value) -> list[tuple[Statement, Value | None]]:
        """Each copy into a partition or view of `smem` (`copy(atom.with(bar), src, dst)`) with its atom (None: not
        read)."""
        out: list[tuple[Statement, Value | None]] = []
        for st, function, args in self.calls:
            if function != "copy" or len(args) != 3:
                continue
            dst = self.value(_operand_name(args[2]), st.line)
            if dst is not None and (self.shared_root(dst) is smem or self.tma_shared_side(dst) is smem):
                out.append((st, self.value(_operand_name(args[0]), st.line)))
        return out

    def tma_copies(self, tma: Value, smem: Value) -> list[int]:
        """The lines of the copies by the TMA atom `tma` (`copy(tma.with(bar), tAgA, tAsA)`) into a partition or view
        of `smem`."""
        return [st.line for st, by in self.copies_into(smem) if by is not None and _same_value(by, tma)]

    def tma_shared_side(self, v: Value) -> Value | None:
        """The shared tensor `v` is the shared side of a `tma_partition(...)` of (`tAsA` of `auto [tAgA, tAsA] =
        ...`), if it is one."""
        if v.node is None or memory_of(v.node) is not Memory.SHARED:
            return None
        return self.tma_partition_shared(v)

    def tma_partition_shared(self, v: Value) -> Value | None:
        """The shared tensor a `tma_partition(...)` binding (`auto [tAgA, tAsA] = tma_partition(tma, ..., sA, gA)`)
        partitions, when `v` is one of its names."""
        m = _TMA_PARTITION.search(v.note.statement)
        if v.note.how != "binding" or m is None:
            return None
        for a in _split_args(m.group(1))[1:]:
            root = self.shared_root(self.value(_operand_name(a), v.note.line))
            if root is not None:
                return root
        return None

    def tma_partitions_of(self, smem: Value) -> list[tuple[Value | None, list[str], int]]:
        """Each `tma_partition(atom, ..., sA, gA)` whose shared side is a view of `smem`: its atom (None: not read),
        its arguments as written and its line (one a binding: `auto [tAgA, tAsA] = ...` names two values)."""
        found: dict[tuple[str, int], tuple[Value | None, list[str], int]] = {}
        for values in self.inst.values.values():
            for v in values:
                if self.tma_partition_shared(v) is smem:
                    m = _TMA_PARTITION.search(v.note.statement)
                    assert m is not None
                    args = _split_args(m.group(1))
                    found.setdefault((v.note.statement, v.note.line),
                                     (self.value(_operand_name(args[0]), v.note.line), args, v.note.line))
        return list(found.values())

    def tma_writers_of(self, smem: Value) -> list[Value]:
        """The TMA atoms whose tma_partition's shared side is a view of `smem`, each once."""
        found: dict[tuple[str, int], Value] = {}
        for atom, _, _ in self.tma_partitions_of(smem):
            if atom is not None:
                found.setdefault((atom.name, atom.note.line), atom)
        return list(found.values())

    def tiles_atom(self, tma: Value, smem: Value) -> Value | None:
        """The TMA atom whose `get_tma_tensor` made the coordinate tensor `tma`'s partition of `smem` takes its tiles
        of (`auto [tAgA, tAsA] = tma_partition(tma, ..., sA, gA)`, gA a tile of `mA = tma_a.get_tma_tensor(...)`,
        through the views between), or None where that is not read."""
        for atom, args, line in self.tma_partitions_of(smem):
            if atom is not None and _same_value(atom, tma):
                return self.tma_tensor_atom(self.value(_operand_name(args[-1]), line))
        return None

    def tma_tensor_atom(self, v: Value | None) -> Value | None:
        """The TMA atom whose `get_tma_tensor` made the tensor `v` views (a tile, a regrouping, a slice of it)."""
        for _ in range(MAX_VIEW_CHAIN):
            if v is None:
                return None
            m = _TMA_TENSOR.match(_initializer(v))
            if m is not None:
                return self.value(m.group(1), v.note.line)
            d = derivation(v)
            if (d.op not in ("view", "index") and d.op not in COORDINATE_PARTITIONS) or d.of is None:
                return None
            v = self.value(d.of, v.note.line)
        return None

    def layout_writers(self, smem: Value) -> list[tuple[str, Statement, Value]]:
        """(the copy atom, the call, the global tensor it copies from) of every copy in this function from a global
        tensor into a partition or view of `smem`: `copy(tiled_copy, src, dst)` names its atom in the TiledCopy's type,
        `cooperative_copy` copies with CuTe's DefaultCopy."""
        out: list[tuple[str, Statement, Value]] = []
        for st, function, args in self.calls:
            if function == "copy" and len(args) == 3:
                by, src_arg, dst_arg = args
            elif function == "cooperative_copy" and len(args) in (3, 4):
                by, src_arg, dst_arg = None, args[1], args[2]
            else:
                continue
            src = self.value(_operand_name(src_arg), st.line)
            dst = self.value(_operand_name(dst_arg), st.line)
            if src is None or src.node is None or memory_of(src.node) is not Memory.GLOBAL:
                continue
            if self.shared_root(dst) is not smem:
                continue
            origin = self.root_in(src, Memory.GLOBAL) or src
            if by is None:
                out.append((COOPERATIVE_COPY, st, origin))
                continue
            tiled = self.value(_operand_name(by), st.line)
            tiled_copy = self.tiled_copy_of(tiled) if tiled is not None else None
            if tiled_copy is not None and tiled_copy.args:
                out.append((copy_atom_name(tiled_copy.args[0])[0], st, origin))
        return out

    def _name(self, what: str) -> str:
        parts = [self.inst.function, self.label_suffix, what]
        return self.unique(re.sub(r"\W+", "_", "_".join(p for p in parts if p)).strip("_"))

    def unique(self, base: str) -> str:
        """`base`, or `base_2`, `base_3`, ... where the reader already has a check of that name."""
        name, k = base, 2
        taken = {r.name for r in self.records}
        while name in taken:
            name, k = f"{base}_{k}", k + 1
        return name


@dataclass(frozen=True)
class TmaAtom:
    """What a compiled TMA atom's type (Copy_Traits<..., AuxTmaParams<gmem bases, box basis, swizzle>>) says of the
    copies it issues: the global mode its dimension 0 runs along, its box and its swizzle -- the atom's own, made from
    the shared layout it was given, which need not be the layout the MMA reads."""
    inner_mode: int                    # the global tensor's mode TMA's dimension 0 runs along
    inner_stride: int | None           # that mode's stride in the global tensor, when static (the type's scale)
    box: tuple[int, int] | None        # (inner, outer) elements of a two-dimensional box; None: another box
    box_text: str                      # the box's basis as the type writes it: (extent:basis, ...)
    swizzle: TmaSwizzle


def tma_atom(tma: Value) -> TmaAtom:
    """The TMA atom `tma`'s AuxTmaParams, read; TypeSyntaxError where its type is not one this reads."""
    aux = _find(tma.node, "AuxTmaParams") if tma.node is not None else None
    if aux is None or len(aux.args) != 3 or not aux.args[0].is_("tuple"):
        raise TypeSyntaxError(f"{tma.name} has no TMA basis in its type")
    # for each mode of the global tensor, the TMA dimension it runs along (scaled, for dimension 0, by the global stride
    # of that mode: a static one, or a run-time value)
    strides = [_scaled_basis(b, tma.name, runtime_scale=True) for b in aux.args[0].args]
    modes = [mode for _, mode in strides]
    if not modes:
        raise TypeSyntaxError(f"{tma.name}: a TMA basis of no dimension")
    if set(modes) - {0, 1}:
        raise TypeSyntaxError(f"{tma.name} reads a global tensor of more than two modes")
    box_basis, swizzle = aux.args[1], aux.args[2]
    if not box_basis.is_("Layout") or len(box_basis.args) != 2:
        raise TypeSyntaxError(f"{tma.name}: a TMA box basis that is not a Layout")
    extents = flatten_to_tuple(int_tuple(box_basis.args[0]))
    steps = [_scaled_basis(b, tma.name) for b in _flat_nodes(box_basis.args[1])]
    if len(extents) != len(steps) or any(not isinstance(n, int) or n < 1 for n in extents):
        raise TypeSyntaxError(f"{tma.name}: a TMA box basis whose shape and stride do not match, or an extent below 1")
    dims = [(int(n), scale, mode) for n, (scale, mode) in zip(extents, steps) if n != 1]
    text = "(" + ", ".join(f"{n}:{scale}@{mode}" for n, scale, mode in dims) + ")"
    if 0 not in modes:
        raise TypeSyntaxError(f"{tma.name}: no mode of its global tensor runs along its dimension 0")
    inner = modes.index(0)             # the global mode along TMA's dimension 0
    box = two_dimensional_box(dims, inner)
    if not swizzle.is_("Swizzle") or len(swizzle.args) != 3:
        raise TypeSyntaxError(f"{tma.name}: a TMA swizzle that is not a Swizzle<B,M,S>")
    b, m, s = (int(a.name) for a in swizzle.args)
    mode = TmaSwizzle.of_byte_swizzle(b, m, s)
    if mode is None:
        raise TypeSyntaxError(f"{tma.name}: Swizzle<{b},{m},{s}> is no swizzle of a tensor map")
    return TmaAtom(inner, strides[inner][0], box, text, mode)


_MAKE_TMA = re.compile(r"\bmake_tma_(?:atom|copy)\s*\((.*)\)\s*$")


def _type_key(type_text: str) -> str:
    """A type as a declaration and a parameter of it both spell it: without `const`, references and spaces."""
    return re.sub(r"\bconst\b|&|\s+", "", type_text)


def host_gmem_modes(insts: list[Instantiation]) -> dict[str, int]:
    """Each TMA atom a function of the file makes (`make_tma_atom(op, mA, ...)`), by its type, with the contiguous mode
    of the global tensor it was made for -- the top-level mode whose stride is a static 1 in that tensor's type -- when
    every tensor an atom of that type is made for says the same."""
    found: dict[str, set[int]] = {}
    for inst in insts:
        for values in inst.values.values():
            for v in values:
                m = _MAKE_TMA.search(v.note.statement)
                args = _split_args(m.group(1)) if m else []
                if len(args) < 2:
                    continue
                gmem = inst.at(_operand_name(args[1]) or "", v.note.line)
                if gmem is None or gmem.node is None or not gmem.node.is_("Tensor") or len(gmem.node.args) != 2:
                    continue
                layout = gmem.node.args[1]
                if not layout.is_("Layout") or len(layout.args) != 2 or not layout.args[1].is_("tuple"):
                    continue
                unit = [i for i, mode in enumerate(layout.args[1].args) if _static_unit(mode)]
                found.setdefault(_type_key(v.type_text), set()).update(unit if len(unit) == 1 else [-1])
    # an atom type made for tensors that disagree (or whose contiguous mode no type says) is known for none
    return {key: next(iter(modes)) for key, modes in found.items() if len(modes) == 1 and -1 not in modes}


def _static_unit(mode: TypeNode) -> bool:
    """A stride mode that is, or holds, a static 1 (`cute::C<1>`)."""
    try:
        value = int_tuple(mode)
    except TypeSyntaxError:
        return False
    return 1 in flatten_to_tuple(value)


def tma_view(tile: Layout, inner_mode: int, box: tuple[int, int], swizzle: TmaSwizzle, bits: int) -> str:
    """A TMA's view of a two-mode tile, in the buffer check's syntax: box (inner, outer) elements with dimension 0
    along mode `inner_mode`; the box holding coordinate c starts at the tile's own offset of its first element
    (tma_partition's), c's element `i0 + i1 * inner` further, the whole under the tensor map's swizzle on byte
    addresses.  Each mode: (its index in the box, the box's index) -> (its in-box stride, the tile's offsets of the
    boxes' first elements along it)."""
    modes = []
    for mode in (0, 1):
        n = box[0] if mode == inner_mode else box[1]
        along = tile.mode(mode)
        extent = int(along.size())
        if extent % n:
            raise ValueError(f"a box of {n} does not divide the tile's mode {mode} of {extent}")
        origins = F.composition(along, Layout(extent // n, n))    # box index -> the tile's offset of its origin
        step = 1 if mode == inner_mode else box[0]
        modes.append(Layout((n, origins.shape), (step, origins.stride)))
    view = make_layout(*modes).plain()
    if swizzle is TmaSwizzle.NONE:
        return view
    b, m, s = swizzle.byte_swizzle
    return f"Sw<{b},{m},{s}> o smem_ptr[{bits}b](unset) o {view}"


def _cosize_bytes(layout: str, bits: int) -> int:
    parsed = parse_layout(layout)
    inner = parsed.b if isinstance(parsed, ComposedLayout) else parsed
    assert isinstance(inner, Layout)
    return -(-int(inner.cosize()) * bits // 8)


_MAKE_TMEM_COPY = re.compile(r"\bmake_tmem_copy\s*\((.*)\)\s*$")
_ZERO_INDEX = re.compile(r"(?:cute::)?(?:_0\{\}|Int<0>\{\}|C<0>\{\}|0)")   # a slice's index 0, as kernels spell it


def tmem_tile_text(tensor: TypeNode, slice_text: str) -> str:
    """A tensor-memory tensor's layout, sliced as `(_, _0{})` slices it (every `_` mode kept, each index 0 dropped:
    another index moves the tile, which is not read here), its single-mode nesting unwrapped: (M, N):(lanes, cols)."""
    if len(tensor.args) != 2:
        raise TypeSyntaxError(f"a Tensor type without its engine and layout: {tensor.text()[:120]}")
    layout = parse_layout(layout_text(tensor.args[1]))
    if not isinstance(layout, Layout):
        raise TypeSyntaxError(f"a tensor-memory layout that is not a plain layout: {layout}")
    if slice_text:
        if not (slice_text.startswith("(") and slice_text.endswith(")")):
            raise TypeSyntaxError(f"a slice {slice_text} this reader does not read")
        index = _split_args(slice_text[1:-1])
        if len(index) != layout.rank():
            raise TypeSyntaxError(f"a slice of {len(index)} modes of a layout of {layout.rank()}")
        kept = [layout.mode(i) for i, a in enumerate(index) if a.strip() == "_"]
        if not kept or any(a.strip() != "_" and not _ZERO_INDEX.fullmatch(a.strip()) for a in index):
            raise TypeSyntaxError(f"a slice {slice_text} at an index other than 0 (it moves the tile)")
        layout = make_layout(*kept) if len(kept) > 1 else kept[0]
    layout = _unwrapped(layout)
    if layout.rank() > 2 or (layout.rank() == 2 and layout.mode(0).rank() == 2):
        # an MMA partition ((MMA_M, MMA_N), REST_M, REST_N): read when it repeats nothing (its (M, N) is its mode 0);
        # repeats would be ((MMA_M, REST_M), (MMA_N, REST_N)), which this reader does not build
        if any(int(layout.mode(i).size()) > 1 for i in range(1, layout.rank())):
            raise TypeSyntaxError(f"a tensor-memory tile {layout} that is an MMA partition with repeats: its (M, N) "
                                  "form is not built here")
        layout = _unwrapped(layout.mode(0))
    if layout.rank() != 2:
        raise TypeSyntaxError(f"a tensor-memory tile {layout} that is not (M, N)")
    return layout.plain()


def _unwrapped(layout: Layout) -> Layout:
    """A layout of one mode that only nests another, `((128,64)):((65536,1))`, as that mode."""
    while layout.rank() == 1 and isinstance(layout.shape, tuple) and len(layout.shape) == 1 and \
            isinstance(layout.shape[0], tuple):
        layout = layout.mode(0)
    return layout


def _scaled_basis(n: TypeNode, name: str, runtime_scale: bool = False) -> tuple[int | None, int]:
    """`ScaledBasis<C<scale>, mode>` -> (scale, mode); a run-time scale is None where `runtime_scale` allows it."""
    if not n.is_("ScaledBasis") or len(n.args) != 2:
        raise TypeSyntaxError(f"{name}: a TMA basis that is not one ScaledBasis a dimension: {n.text()[:80]}")
    scale = int_tuple(n.args[0])
    if not isinstance(scale, int) and not runtime_scale:
        raise TypeSyntaxError(f"{name}: a TMA box basis of a run-time scale")
    return (scale if isinstance(scale, int) else None), int(n.args[1].name)


def _flat_nodes(n: TypeNode) -> list[TypeNode]:
    return [leaf for a in n.args for leaf in _flat_nodes(a)] if n.is_("tuple") else [n]


def representative_gmem(inner: int, element: str) -> str:
    """A representative (MN, K) global tensor of `element`s whose mode `inner` is contiguous: the other stride a
    multiple of the bytes TMA's rule asks of a global stride (16; 32 for a 4- or 6-bit type TMA unpacks a byte an
    element, the ALIGN16B data types), an odd number of those units (no larger power of two: the swizzle phase of every
    row is met)."""
    bits = element_bits(element)
    unit_bytes = PADDED_GLOBAL_ALIGN if smem_container_bits(element, bits) > bits else GLOBAL_ALIGN
    stride = ["0", "0"]
    stride[inner] = "1"
    per_unit = math.lcm(unit_bytes * 8, bits) // bits      # the fewest elements a whole number of units holds
    odd = -(-REPRESENTATIVE_EXTENT // per_unit) | 1
    stride[1 - inner] = str(per_unit * odd)
    return f"({REPRESENTATIVE_EXTENT},{REPRESENTATIVE_EXTENT}):({stride[0]},{stride[1]})"


POINTER_WIDTH = ("{layout} is typed for {typed}-bit elements and the tile holds {bits}-bit {element}: CuTe refuses "
                 "such a tensor in device code (pointer_flagged.hpp, static assertion \"Expected a B-bit pointer "
                 "type.\"), which the host compile does not instantiate")


class RefusedInDeviceCode(ValueError):
    """A configuration CuTe's device code refuses (a static_assert the host compile never instantiates): the
    kernel does not build, which the reader reports as CuTe's refusal (exit 1), at the place that asked for it."""


def check_pointer_width(layout: str, element: str | None) -> None:
    """A shared layout CuTe types for elements of one width (`Sw<..> o smem_ptr[16b](unset) o L`, a GMMA / UMMA layout
    atom of half_t) over a tile of another (an 8-bit one): TypeSyntaxError saying so (the path is listed, not
    checked)."""
    parsed = parse_layout(layout)
    if isinstance(parsed, ComposedLayout) and isinstance(parsed.offset, SmemPtrFlag):
        bits = element_bits(element)
        held = smem_container_bits(element or "", bits)
        if parsed.offset.bits != held:
            raise RefusedInDeviceCode(POINTER_WIDTH.format(layout=layout, typed=parsed.offset.bits, bits=held,
                                                           element=element))


def first_stage_text(layout: str) -> str:
    parsed = parse_layout(layout)
    staged = first_stage(parsed)
    if staged is parsed:
        return layout
    return str(staged)


def k_loop_assumes(loop: KLoopRead | None, not_read: str) -> list[str]:
    """What a thread-gemm or operand-fills check takes for granted of its k-tile loop: the loop itself where it is not
    read (theorem 46 proves it where it is), and the k-tile each pass's gemm multiplies where the copies' order is
    not read (theorem 46 proves it where it is)."""
    if loop is None:
        return [f"the k-tile loop is not read ({not_read}): it is taken to run the gemm once for every k-tile"]
    if loop.reads:
        return []
    return [f"the k-tile each pass's gemm multiplies is not read ({loop.order_not_read}): it is taken to be k-tile "
            f"{loop.variable}"]


def elementwise_record(name: str, where: Where, what: str, read: ElementwiseCopyRead,
                       predicates: tuple[str, ...] = ()) -> ElementwiseRecord:
    """An element-wise check of a copy between global tiles (one input, value v to value v), one tile's: the
    tensors' extents are run-time values; a copy_if's predicates (`predicates`, as written) are not read."""
    def side(s: CopySide) -> SideRead:
        return SideRead(s.tensor, s.tile, s.tile, s.thread_values, (), 0, None, where)
    out, src = read.output, read.source
    through = f" through the registers {read.through}" if read.through else ""
    return ElementwiseRecord(
        name, where, f"{what}: {out.partition} of {out.tensor}'s {out.tile[0]}x{out.tile[1]} tile copied from "
                     f"{src.partition} of {src.tensor}'s{through}, every side's tile at ({', '.join(out.at)})",
        ElementwiseRead(side(out), (side(src),), tuple(((0, v),) for v in range(read.values)), ()),
        [f"the tensors' extents are run-time values: the check is one tile's, every side's tile taken at "
         f"({', '.join(out.at)}), and the tensors are taken to be whole numbers of tiles of one shape (not read)",
         f"the launch's grid gives every tile one block and the block runs {read.threads} threads (the partitions'; "
         "not read)"]
        + ([f"the copies' predicates ({', '.join(predicates)}) are not read: every element of the tile is taken as "
            "in bounds"] if predicates else []))


def loop_where(loop: KLoopRead | None) -> str:
    return "" if loop is None else f"; its k-tile loop at line {loop.line}"


def grid_assumed(c_at: tuple[str, str]) -> str:
    """What a thread-gemm or operand-fills check takes for granted of the launch (its grid is not read)."""
    return (f"the launch's grid gives every tile of C one block, the block of coordinates ({c_at[0]}, {c_at[1]}) "
            "(the grid is not read)")


def read_paths(file: str, ins: Instrumented, noted: list[NotedType]) -> tuple[list[Record], list[Skipped]]:
    """Every operand path of every instantiated function of the file that copies or multiplies."""
    records: list[Record] = []
    skipped: list[Skipped] = []
    insts = instantiations(ins, noted)
    counts: dict[str, int] = {}
    for inst in insts:
        counts[inst.function] = counts.get(inst.function, 0) + 1
    instantiated = {inst.function for inst in insts}
    for fname, body_line in ins.functions:
        if fname in instantiated:
            continue
        first = next((s for s in ins.statements if s.function == fname and (
            _CALL.match(s.text) or ((g := guarded(s.text)) is not None and _CALL.match(g[1])))), None)
        if first is not None:
            skipped.append(Skipped(Where(file, body_line, 1, None), f"function {fname}",
                                   "it copies or multiplies, but the compile instantiated it nowhere (a template "
                                   "nothing in the file calls): give --instantiate 'EXPR' naming an instantiation"))
    host_gmem = host_gmem_modes(insts)
    seen: dict[str, int] = {}
    for inst in insts:
        if inst.function == SCOPE:        # namespace-scope aliases: collective_paths.py reads them
            continue
        calls = [(s, _CALL.match(s.text)) for s in ins.statements if s.function == inst.function]
        calls = [(s, m) for s, m in calls if m is not None]
        under = [(s, g) for s in ins.statements if s.function == inst.function
                 and (g := guarded(s.text)) is not None and _CALL.match(g[1])]
        if not calls and not under:
            continue
        seen[inst.function] = seen.get(inst.function, 0) + 1
        k = seen[inst.function]
        label = inst.function if counts[inst.function] == 1 else f"{inst.function} (instantiation {k} of " \
            f"{counts[inst.function]})"
        reader = PathReader(file, inst, label, label_suffix=str(k) if counts[inst.function] > 1 else "",
                            host_gmem=host_gmem)
        reader.calls = [(s, m.group(1), _split_args(m.group(2))) for s, m in calls if m is not None]
        for s, (keyword, body) in under:
            called = _CALL.match(body)
            assert called is not None
            reader.skipped.append(Skipped(reader.where(s), f"{called.group(1)} at line {s.line}",
                                          f"the body of a braceless `{keyword}`: not read (a call the reader reads is "
                                          "a statement of its own, or in a braced block)"))
        reader.statements = ins.statements
        reader.loops = ins.loops
        reader.blocks = ins.blocks
        for s, m in calls:
            assert m is not None
            args = _split_args(m.group(2))
            if m.group(1) == "copy":
                reader.copy_call(s, args)
            elif m.group(1) == "gemm":
                reader.gemm_call(s, args)
            elif m.group(1) in ATOMLESS_COPIES:
                reader.skipped.append(Skipped(reader.where(s), f"{m.group(1)} at line {s.line}",
                                              "a copy without a tiled copy (CuTe's vectorizing copy at the "
                                              "tensors' alignment): not checked"))
            else:
                reader.skipped.append(Skipped(reader.where(s), f"{m.group(1)} at line {s.line}",
                                              "a cooperative or predicated call: not checked"))
        reader.tma_buffers()
        reader.tmem_copies()
        reader.thread_slices()
        reader.elementwise_copies()
        reader.credit_writers()
        records += reader.records
        skipped += reader.skipped
    return records, skipped


__all__ = ["read_paths", "instantiations", "Instantiation", "Value", "Kind", "Memory", "mma_atom_name",
           "element_bits", "atom_layout_text", "first_stage_text", "representative_gmem", "umma_major", "a_source",
           "TCGEN05_ATOMS", "copy_atom_name", "tensor_layout_text"]
