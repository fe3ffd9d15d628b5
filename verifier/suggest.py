"""`prove --suggest`: for a refuted check, the smallest nearby configuration that is *proved*.

The neighbours are the changes a kernel author would try, each one field of the check (or of its atom):

    copy        another copy atom of the same family the spec defines (ldmatrix N <-> T, x1 / x2 / x4; stmatrix;
                cp.async; UniversalCopy ...)
    value_type  the MMA operand's element type
    copy_for    the operand's own make_tiled_copy_X;   copy_mma  the kernel's own tiled MMA
    smem        another Swizzle<B,M,S> on the same layout, no swizzle, or one of CuTe's usual swizzled atoms
                (K-major or MN-major, for the element width) tiled to the tile
    MMA atom    a broken operand layout replaced by the instruction's own fragment (the PTX ISA's)
    Hopper      make_gmma_desc's descriptor instead of a hand-written one, make_tma_copy's box, the buffer aligned
                to the swizzle's repeat, the wgmma atom of the other major-ness
    TMEM        the allocation rounded up to the power of two the tile needs; a tile of fewer than 128 rows spread
                over the four warps' lane quarters (as the M=64 data path is); the other tcgen05.ld / st atoms

Candidates are tried in order of the number of fields they change (one, then two), each proved by the same
theorems as the check itself; the first verified one is the suggestion, with the spec lines to change and the
C++ to write.  Nothing is guessed: a suggestion is a configuration every theorem proved.
"""
from __future__ import annotations

import dataclasses
import itertools
import re
from dataclasses import dataclass
from typing import Any, Iterator

from .algebra.layout import Layout
from .algebra.swizzle import ComposedLayout, Swizzle
from .cute.tmem import DP_CELLS, WARPS
from .hardware.tmem_copy import WARP_LANE_QUARTER
from .outcome import Verdict
from .specfile.model import CheckKind, CheckSpec, MMAAtomSpec, Spec
from .symbolic.decide import Settings
from .kinds.tmem.theorems import MIN_COLUMNS, tmem_form

MAX_CANDIDATES = 400          # configurations proved at most for one check
COPY_FAMILIES = ("LDSM", "STSM", "CP_ASYNC", "MOVM", "TMEM_LOAD", "TMEM_STORE", "UniversalCopy", "DefaultCopy",
                 "AutoVectorizing")
SWIZZLES = ((1, 3, 3), (2, 3, 3), (3, 3, 3), (3, 2, 3), (2, 4, 3), (3, 4, 3), (3, 1, 3))
# CuTe's usual shared-memory atoms per element width: (swizzle, K-major layout, MN-major layout) — the layouts
# CUTLASS's configurations tile (8 rows of 128 bytes along K, or 128 bytes along MN by 8)
USUAL_ATOMS: dict[int, list[tuple[tuple[int, int, int], str, str]]] = {
    8: [((3, 4, 3), "(8,128):(128,1)", "(128,8):(1,128)"), ((2, 4, 3), "(8,64):(64,1)", "(64,8):(1,64)")],
    16: [((3, 3, 3), "(8,64):(64,1)", "(64,8):(1,64)"), ((2, 3, 3), "(8,32):(32,1)", "(32,8):(1,32)")],
    32: [((3, 2, 3), "(8,32):(32,1)", "(32,8):(1,32)"), ((2, 2, 3), "(8,16):(16,1)", "(16,8):(1,16)")],
    64: [((2, 0, 4), "(4,16):(16,1)", "(16,4):(1,16)")],
}


@dataclass(frozen=True)
class Change:
    field: str        # the spec key (or "atom NAME a")
    old: str
    new: str
    cpp: str          # the C++ to write instead

    def diff(self) -> list[str]:
        return [f"-    {self.field}: {self.old}", f"+    {self.field}: {self.new}"]


@dataclass
class Candidate:
    changes: tuple[Change, ...]
    check: CheckSpec
    spec: Spec


@dataclass
class Suggestion:
    """The outcome of the search: the changes that were proved (empty when none), how many configurations were
    tried, and the configuration that was proved (its check and spec)."""
    changes: tuple[Change, ...]
    tried: int
    reason: str = ""
    check: CheckSpec | None = None
    spec: Spec | None = None

    def lines(self) -> list[str]:
        if not self.changes:
            return [f"no suggestion: {self.reason} ({self.tried} nearby configurations proved, none verified)"]
        what = "; ".join(f"{c.field} {c.old} -> {c.new}" for c in self.changes)
        out = [f"suggestion (every theorem proved; {self.tried} configurations tried): {what}"]
        for c in self.changes:
            out += [f"  spec {line}" for line in c.diff()]
            out.append(f"  C++  {c.cpp}")
        return out


def _show(x: Any) -> str:
    return str(x) if not isinstance(x, (tuple, list)) else "[" + ", ".join(map(str, x)) + "]"


def _family(name: str) -> str | None:
    return next((f for f in COPY_FAMILIES if f in name), None)


# --- the neighbours, one field each ---------------------------------------------------------------------------

def _registers(name: str) -> int:
    """Bits each thread moves, read off CuTe's name (`SM75_U32x4_LDSM_N`: 128; `SM75_U16x2_LDSM_T`: 32)."""
    m = re.search(r"U(\d+)x(\d+)", name)
    return int(m.group(1)) * int(m.group(2)) if m else 0


def _register_bits(spec: Spec, name: str) -> int:
    """Bits each thread's registers hold in one copy: CuTe's name says it for the SM75-SM90 atoms; a tcgen05.ld /
    tcgen05.st atom's register side is its DstLayout (a load) or SrcLayout (a store)."""
    atom = spec.copy_atoms.get(name)
    form = tmem_form(atom) if atom is not None else None
    if atom is not None and form is not None:
        side = atom.dst if form.load else atom.src
        return int(side.mode(1).size()) if side.rank() > 1 else 0
    return _registers(name)


def _copy_changes(spec: Spec, check: CheckSpec) -> Iterator[tuple[Change, dict[str, Any]]]:
    """Copy atoms of the same family, the closest first: the same bits per thread (x4 N <-> x4 T), then fewer."""
    family = _family(check.copy or "")
    vt = check.value_type.name if check.value_type else "T"
    mine = _register_bits(spec, check.copy or "")
    names = [n for n in spec.copy_atoms if n != check.copy and family is not None and _family(n) == family]
    bits = {n: _register_bits(spec, n) for n in names}
    for name in sorted(names, key=lambda n: (abs(bits[n] - mine), -bits[n], n)):
        yield Change("copy", check.copy or "", name, f"Copy_Atom<{name}, {vt}>"), {"copy": name}


def _value_type_changes(spec: Spec, check: CheckSpec) -> Iterator[tuple[Change, dict[str, Any]]]:
    mma = spec.mma_atoms.get(check.mma or "")
    if mma is None or check.value_type is None:
        return
    want = mma.types["c" if (check.operand or "A") == "C" else (check.operand or "A").lower()]
    if want.name != check.value_type.name:
        yield (Change("value_type", check.value_type.name, want.name, f"Copy_Atom<{check.copy}, {want.name}>"),
               {"value_type": want})


def _construction_changes(check: CheckSpec) -> Iterator[tuple[Change, dict[str, Any]]]:
    op = (check.operand or "A").upper()
    if check.copy_for and check.copy_for.upper() != op:
        yield (Change("copy_for", check.copy_for, "(removed)", f"make_tiled_copy_{op}(copy_atom, tiled_mma)"),
               {"copy_for": None})
    if check.copy_mma is not None:
        yield (Change("copy_mma", "(a different tiled MMA)", "(removed)",
                      f"make_tiled_copy_{op}(copy_atom, tiled_mma) with the kernel's own tiled_mma"),
               {"copy_mma": None})


def _cpp_layout(layout: Layout) -> str:
    """The C++ type of a layout: `Layout<Shape<_8,_64>, Stride<_64,_1>>`."""
    return f"Layout<Shape<{_cpp_tuple(layout.shape)}>, Stride<{_cpp_tuple(layout.stride, 'Stride')}>>"


def _swizzle_text(sw: tuple[int, int, int] | None, layout: Layout) -> str:
    inner = f"{_cpp_layout(layout)}{{}}"
    return inner if sw is None else f"composition(Swizzle<{sw[0]},{sw[1]},{sw[2]}>{{}}, {inner})"


def _cpp_tuple(t: Any, kind: str = "Shape") -> str:
    """The inside of Shape<...> / Stride<...> for an IntTuple: `_8,Shape<_8,_8>`."""
    if isinstance(t, tuple):
        return ",".join(f"{kind}<{_cpp_tuple(x, kind)}>" if isinstance(x, tuple) else f"_{int(x)}" for x in t)
    return f"_{int(t)}"


def _smem_changes(spec: Spec, check: CheckSpec) -> Iterator[tuple[Change, dict[str, Any]]]:
    from .algebra import functions as F
    from .algebra.syntax import parse_layout
    smem = check.smem
    if smem is None or check.kind is not CheckKind.TILED:
        return
    inner = smem.b if isinstance(smem, ComposedLayout) else smem
    if not isinstance(inner, Layout):
        return
    current = (smem.a.B, smem.a.M, smem.a.S) if isinstance(smem, ComposedLayout) and \
        isinstance(smem.a, Swizzle) else None
    def distance(sw: tuple[int, int, int] | None) -> int:      # the smallest change of B, M, S first
        a, b = sw or (0, current[1] if current else 0, current[2] if current else 0), current or (0, 0, 0)
        return sum(abs(x - y) for x, y in zip(a, b))
    options: list[tuple[int, int, int] | None] = sorted([None, *SWIZZLES], key=distance)
    for sw in options:
        if sw == current:
            continue
        try:
            new = inner if sw is None else ComposedLayout(Swizzle(*sw), 0, inner)
        except ValueError:
            continue
        text = "no swizzle" if sw is None else f"Sw<{sw[0]},{sw[1]},{sw[2]}> o the same layout"
        yield (Change("smem", str(smem), str(new), f"{_swizzle_text(sw, inner)}   ({text})"), {"smem": new})
    bits = check.value_type.bits if check.value_type else 16
    if inner.rank() != 2:
        return
    rows, cols = int(inner.mode(0).size()), int(inner.mode(1).size())
    for sw, k_major, mn_major in USUAL_ATOMS.get(bits, []):
        for major, atom_text in (("K-major", k_major), ("MN-major", mn_major)):
            atom = parse_layout(atom_text)
            assert isinstance(atom, Layout)
            a_rows, a_cols = int(atom.mode(0).size()), int(atom.mode(1).size())
            if rows % a_rows or cols % a_cols:
                continue
            tiled = F.tile_to_shape(ComposedLayout(Swizzle(*sw), 0, atom), (rows, cols))
            if str(tiled) == str(smem):
                continue
            cpp = (f"tile_to_shape(composition(Swizzle<{sw[0]},{sw[1]},{sw[2]}>{{}}, {_swizzle_text(None, atom)}), "
                   f"make_shape(Int<{rows}>{{}}, Int<{cols}>{{}}))   ({major} {atom_text} atom)")
            yield Change("smem", str(smem), str(tiled), cpp), {"smem": tiled}


def _operand_tile(spec: Spec, check: CheckSpec) -> tuple[int, int] | None:
    """The tiled MMA's (rows, cols) tile of the check's operand."""
    from .algebra.inttuple import AlgebraError
    from .cute.mma import TiledMMA
    from .cute.operand import Operand
    from .kinds.tiled.setup import _atom_layout, mma_atom
    atom = spec.mma_atoms.get(check.mma or "")
    if atom is None:
        return None
    try:
        mma = TiledMMA(mma_atom(atom), _atom_layout(check.atom_layout), check.permutation)
    except AlgebraError:
        return None
    mi, ki = Operand.of(check.operand or "A").modes
    return mma.tile_size(mi), mma.tile_size(ki)


def _resize_changes(spec: Spec, check: CheckSpec) -> Iterator[tuple[Change, dict[str, Any]]]:
    """A shared tile that is not a whole number of the tiled MMA's operand tiles, resized to the nearest ones:
    the same major-ness, unswizzled, or one of the usual atoms tiled to it; and the permutation removed."""
    from .algebra import functions as F
    from .algebra.syntax import parse_layout
    smem = check.smem
    inner = smem.b if isinstance(smem, ComposedLayout) else smem
    tile = _operand_tile(spec, check)
    if check.kind is not CheckKind.TILED or not isinstance(inner, Layout) or inner.rank() != 2 or tile is None:
        return
    if check.permutation is not None:
        yield (Change("permutation", _show(list(check.permutation)), "(removed)",
                      "make_tiled_mma(atom, thread_layout) without a Tile<...> permutation"), {"permutation": None})
    rows, cols = int(inner.mode(0).size()), int(inner.mode(1).size())
    tr, tc = tile
    if rows % tr == 0 and cols % tc == 0:
        return
    sizes = sorted({(max(tr, (rows // tr) * tr), max(tc, (cols // tc) * tc)),
                    (-(-rows // tr) * tr, -(-cols // tc) * tc)} - {(rows, cols)})
    row_major = int(inner.mode(1).stride if not isinstance(inner.mode(1).stride, tuple) else 1) == 1
    bits = check.value_type.bits if check.value_type else 16
    for r, c in sizes:
        plain = Layout((r, c), (c, 1) if row_major else (1, r))
        yield (Change("smem", str(smem), str(plain), f"make_layout(make_shape(Int<{r}>{{}}, Int<{c}>{{}}), "
                      f"{'LayoutRight' if row_major else 'LayoutLeft'}{{}})   (a whole number of {tr}x{tc} tiles)"),
               {"smem": plain})
        for sw, k_major, mn_major in USUAL_ATOMS.get(bits, []):
            for major, atom_text in (("K-major", k_major), ("MN-major", mn_major)):
                atom = parse_layout(atom_text)
                assert isinstance(atom, Layout)
                if r % int(atom.mode(0).size()) or c % int(atom.mode(1).size()):
                    continue
                tiled = F.tile_to_shape(ComposedLayout(Swizzle(*sw), 0, atom), (r, c))
                yield (Change("smem", str(smem), str(tiled),
                              f"tile_to_shape(composition(Swizzle<{sw[0]},{sw[1]},{sw[2]}>{{}}, "
                              f"{_swizzle_text(None, atom)}), make_shape(Int<{r}>{{}}, Int<{c}>{{}}))   "
                              f"({major} {atom_text} atom, a whole number of {tr}x{tc} tiles)"), {"smem": tiled})


def _gmma_changes(spec: Spec, check: CheckSpec) -> Iterator[tuple[Change, dict[str, Any]]]:
    if check.kind is not CheckKind.GMMA:
        return
    if check.descriptor:
        yield (Change("descriptor", str(check.descriptor), "(removed)",
                      "make_gmma_desc<Major>(smem tensor) (CuTe's descriptor, not hand-written fields)"),
               {"descriptor": {}})
    if check.tma_box is not None:
        yield (Change("tma_box", str(list(check.tma_box)), "(removed)", "make_tma_copy(SM90_TMA_LOAD{}, gmem, "
                      "smem_layout) (the box CuTe derives from the layout)"), {"tma_box": None})
    for align in (1024, 512, 256):
        if check.smem_align != align:
            yield (Change("smem_align", str(check.smem_align or 128), str(align),
                          f"alignas({align}) on the shared-memory buffer"), {"smem_align": align})
    name = check.mma or ""
    for a, b in (("GMMA::Major::MN", "GMMA::Major::K"), ("GMMA::Major::K", "GMMA::Major::MN")):
        for m in re.finditer(re.escape(a), name):
            other = name[:m.start()] + b + name[m.end():]
            if other in spec.mma_atoms:
                yield Change("mma", name, other, f"MMA_Atom<{other}>"), {"mma": other}


TMEM_QUARTER_CELLS = WARP_LANE_QUARTER * DP_CELLS      # the first cell of the next warp's lane quarter


def _tmem_changes(check: CheckSpec) -> Iterator[tuple[Change, dict[str, Any]]]:
    if check.kind is not CheckKind.TMEM or not isinstance(check.tmem, Layout):
        return
    tmem: Layout = check.tmem
    columns = max(v % DP_CELLS for v in tmem.values()) + 1
    need = max(MIN_COLUMNS, 1 << (columns - 1).bit_length())
    if check.tmem_columns is not None and check.tmem_columns != need:
        yield (Change("tmem_columns", str(check.tmem_columns), str(need), f"tcgen05.alloc of {need} columns "
                      f"(TMEM::Allocator1Sm{{}}.allocate({need}, smem_ptr))"), {"tmem_columns": need})
    shape, stride = tmem.shape, tmem.stride
    if (tmem.rank() == 2 and isinstance(shape[0], int) and shape[0] < 128 and shape[0] % WARPS == 0
            and stride[0] == DP_CELLS):
        rows = shape[0] // WARPS
        spread = Layout(((rows, WARPS), shape[1]), ((DP_CELLS, TMEM_QUARTER_CELLS), stride[1]))
        yield (Change("tmem", tmem.plain(), spread.plain(), f"a TMEM tensor of layout {_cpp_layout(spread)} (rows "
                      "spread over the four warps' lane quarters, as the M=64 data path is)"), {"tmem": spread})


def _mma_layout_changes(spec: Spec, check: CheckSpec) -> Iterator[tuple[Change, Spec]]:
    """An MMA atom's operand layout replaced by the instruction's fragment (a new atom in a copy of the spec)."""
    from .kinds.tiled.setup import hardware_layout, mma_model_for
    atom = spec.mma_atoms.get(check.mma or "")
    if atom is None:
        return
    model = mma_model_for(atom)
    if model is None or model.invalid or tuple(atom.shape_mnk) != tuple(model.shape_mnk):
        return
    for op in ("a", "b", "c"):
        hw = hardware_layout(model, op.upper(), atom.thr_id)
        mine: Layout = getattr(atom, op)
        if hw is None or hw.values() == mine.values() and str(hw.shape) == str(mine.shape):
            continue
        operand_layout: dict[str, Any] = {op: hw}        # a, b or c of the atom
        fixed: MMAAtomSpec = dataclasses.replace(atom, **operand_layout)
        new_spec = dataclasses.replace(spec, mma_atoms={**spec.mma_atoms, atom.name: fixed})
        yield (Change(f"{op} of MMA atom {atom.name}", mine.plain(), hw.plain(),
                      f"using {op.upper()}Layout = {_cpp_layout(hw)};   (MMA_Traits<{atom.name}>, "
                      "the PTX ISA's fragment)"),
               new_spec)


def candidates(spec: Spec, check: CheckSpec) -> Iterator[Candidate]:
    """Every neighbour of `check`, one changed field first, then two."""
    singles: list[tuple[Change, dict[str, Any]]] = []
    for gen in (_copy_changes(spec, check), _value_type_changes(spec, check), _construction_changes(check),
                _smem_changes(spec, check), _resize_changes(spec, check), _gmma_changes(spec, check),
                _tmem_changes(check)):
        singles += list(gen)
    for change, fields in singles:
        yield Candidate((change,), dataclasses.replace(check, **fields), spec)
    for change, new_spec in _mma_layout_changes(spec, check):
        yield Candidate((change,), check, new_spec)
    for (c1, f1), (c2, f2) in itertools.combinations(singles, 2):
        if c1.field != c2.field:
            yield Candidate((c1, c2), dataclasses.replace(check, **f1, **f2), spec)


def suggest(spec: Spec, check: CheckSpec, settings: Settings, limit: int = MAX_CANDIDATES) -> Suggestion:
    """The first neighbour of a refuted check that every theorem proves (see the module's docstring)."""
    from .engine.runner import run_check
    tried = 0
    for cand in candidates(spec, check):
        if tried >= limit:
            return Suggestion((), tried, f"the search stopped after {limit} configurations")
        tried += 1
        result = run_check(cand.spec, cand.check, settings)
        if result.verdict is Verdict.VERIFIED:
            return Suggestion(cand.changes, tried, check=cand.check, spec=cand.spec)
    if tried == 0:
        return Suggestion((), 0, "no neighbour to try: the check names nothing the search varies")
    return Suggestion((), tried, "no configuration within one or two changes of the copy atom, value type, "
                                 "construction, shared layout, atom layout, Hopper or TMEM fields is verified")
