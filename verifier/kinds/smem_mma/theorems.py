"""Shared-memory MMA theorems: TMA fills the shared tile, the descriptor reads it, end to end.  The same theorems
serve Hopper's wgmma and Blackwell's tcgen05.mma: what differs (the descriptor, the rules only one instruction has)
is asked of the setup's architecture (arch.py's Protocols; sm90.py, sm100.py), never imported here.

Every claim quantifies over the buffer's base address (each multiple of the alignment that fits shared memory),
the pipeline stage, and the element; the descriptor claims also over the instruction slice of the tile (its
k-block and its M/N block).  Addresses are absolute shared-memory bytes: the swizzle of TMA and of the tensor
core read them (hardware/tma.py, the architecture's descriptor model), the layout's own swizzle reads what the
check's smem layout says (a GMMA smem_ptr layout: the absolute address; a plain composition: the offset in the
buffer).  Where the check lets CuTe build the TMA copy or the descriptor (no `tma_box`, no `descriptor` of its
own), what their static_asserts refuse (setup.tma_rule, setup.desc_rule) is the theorems' refusal.
"""
from __future__ import annotations

from typing import Callable

from ...algebra.swizzle import ComposedLayout
from ...algebra.types import instruction_type_agrees, ptx_type_of
from ...hardware import tma as TMA
from ...hardware.smem_operand import GmmaSwizzle, Major
from ...specfile.model import ValueType
from ...symbolic.expr import Expr, ExprLike, Var, const, eq, lt, ne
from ...symbolic.layouts import layout_expr
from ...symbolic.obligation import Distinct, Obligation
from ...theorems.claims import Blame, Claim, Fact, Item, Plan, Refusal, Suspect, Trace, Unsupported
from .setup import SMEM_BYTES, STAGE_START, Sm90Setup, atoms_along_mn
from ..conversion import register_conversion_fact
from ...theorems.suspects import Suspects
from ...theorems.tma_tensors import tiles_of_the_map


def _unsettled_read(setup: Sm90Setup) -> Unsupported | None:
    """A read of the tile no model of the architecture settles (tcgen05.mma's MN-major 32-bit on 16-byte atoms)."""
    bits = setup.check.value_type.bits if setup.check.value_type else 0
    why = setup.arch.unsettled_read(setup.tile, setup.major, bits) if setup.tile is not None else None
    return Unsupported(why) if why is not None else None


def _no_tile(setup: Sm90Setup) -> Unsupported:
    return Unsupported(f"the shared-memory layout is no tile TMA and {setup.engine} know: {setup.tile_problem}")


def _no_tma(setup: Sm90Setup) -> Unsupported:
    return Unsupported(f"no TMA copy: {setup.gmem_problem}")


def _stage_var(setup: Sm90Setup) -> Var:
    return Var("stage", setup.stages)


# builds a claim's obligation from the base variable (multiples of the alignment), the stage (a variable, or 0 for
# the one-stage form), the variables they take in the obligation, and a note on the form
OverStages = Callable[[Var, ExprLike, list[Var], str], Obligation]


def _over_stages(setup: Sm90Setup, make: OverStages) -> tuple[Obligation, Callable[[], Obligation] | None]:
    """The claim `make` builds over (base, stage), or, when the stages are translates of stage 0
    (`Sm90Setup.stage_start`), its equivalent one-stage form over the stage's start, the (base, stage) form kept as
    the exact one (decided when the one-stage form is not proved)."""
    stage = _stage_var(setup)

    def exact() -> Obligation:
        return make(setup.base_var, stage, [setup.base_var, stage], "")
    start = setup.stage_start
    if start is None:
        return exact(), None
    note = (f"each of the {setup.stages} stages is stage 0 moved by {start.step * setup.align} bytes: "
            f"decided for one stage starting at every {STAGE_START} x {setup.align} bytes a stage can start at")
    return make(start.start, 0, [start.start], note), exact


def _noted(*notes: str) -> str:
    return "; ".join(n for n in notes if n)


# --- theorem 13: the TMA copy is encodable ------------------------------------------------------------------

def tma_encodable(setup: Sm90Setup, suspects: Suspects) -> Plan:
    """cuTensorMapEncodeTiled accepts the tensor map, and every copy of every box is one the hardware runs."""
    smem = suspects.smem("the shared-memory layout (its swizzle, its extent, its stages)")
    refused = _tma_refusal(setup, smem)
    if refused is not None:
        return refused
    if setup.tile is None:
        return [Fact("the shared layout's swizzle is one TMA applies (Swizzle<1|2|3,4,3> on bytes)", False,
                     str(setup.tile_problem), "none, 32B, 64B or 128B", smem)]
    gmem = suspects.field("gmem", "the global tensor's layout")
    items: list[Item] = [Fact("the global tensor is a 2-D tensor with a contiguous dimension",
                              setup.gmem_problem is None, setup.gmem_problem or str(setup.gmem),
                              "(MN, K) with one mode of stride 1", gmem)]
    if setup.gmem_problem is not None or setup.boxes is None or setup.tensor_map is None:
        return items
    tm, boxes = setup.tensor_map, setup.boxes
    box_field = "tma_box" if setup.check.tma_box is not None else "smem"
    box_suspect = suspects.field(box_field, f"the TMA box {boxes.box} (inner, outer) "
                                            + ("given by 'tma_box'" if box_field == "tma_box"
                                               else "make_tma_copy reads off the shared layout"))
    refusal = TMA.encode_refusal(tm)
    items.append(Fact("cuTensorMapEncodeTiled accepts the tensor map", refusal is None, refusal or "accepted",
                      "no rule broken", gmem if "global" in (refusal or "") else box_suspect,
                      note=f"box {tm.box}, {tm.elem_bytes}-byte elements, swizzle {tm.swizzle.value}, global dims "
                           f"{tm.global_dim}, row stride {tm.global_stride} bytes"))
    packed = setup.subbyte_map
    if packed is not None:
        refusal = TMA.encode_refusal_nd(packed)
        named = setup.check.value_type.name if setup.check.value_type else ""
        items.append(Fact(f"cuTensorMapEncodeTiled accepts the {packed.dtype} tensor map of the {named} operand",
                          refusal is None, refusal or "accepted", "no rule broken",
                          gmem if "global" in (refusal or "") else box_suspect,
                          note=f"box {packed.box} elements, global dims {packed.global_dim}, row stride "
                               f"{packed.global_strides[0]} bytes (packed)"))
    inner_extent, outer_extent = ((setup.extent[0], setup.extent[1]) if boxes.inner_mode == 0
                                  else (setup.extent[1], setup.extent[0]))
    n0, n1 = boxes.box
    items.append(Fact("the boxes tile a stage exactly (no box writes past it)",
                      inner_extent % n0 == 0 and outer_extent % n1 == 0,
                      f"box {n0}x{n1} over a {inner_extent}x{outer_extent} (inner x outer) stage",
                      "box extents dividing the stage's", box_suspect))
    e = setup.elem_bytes
    items.append(Fact("every box starts at a 16-byte offset along the contiguous dimension",
                      (n0 * e) % TMA.INNER_ALIGN == 0 and (inner_extent * e) % TMA.INNER_ALIGN == 0,
                      f"box inner {n0 * e} bytes, tile inner {inner_extent * e} bytes",
                      f"multiples of {TMA.INNER_ALIGN}", box_suspect))
    items += _destinations(setup, suspects, box_suspect)
    stage_bytes = inner_extent * outer_extent * e
    nboxes = (inner_extent // n0) * (outer_extent // n1) if inner_extent % n0 == 0 and outer_extent % n1 == 0 else 0
    title = ("the boxes' shared bytes are the stage's (the transaction count of a padded sub-byte type is not "
             "modelled)" if packed is not None else "the stage's transaction bytes are the boxes' bytes")
    items.append(Fact(title, nboxes * tm.box_bytes == stage_bytes, f"{nboxes} boxes x {tm.box_bytes} bytes",
                      f"{stage_bytes} bytes (the stage)", box_suspect))
    return items


def _destinations(setup: Sm90Setup, suspects: Suspects, box_suspect: Suspect) -> list[Item]:
    """Each box's shared destination is 128-byte aligned for every allowed base, and the buffer fits."""
    align_suspect = suspects.field("smem_align", f"the buffer's alignment ({setup.align} bytes)")
    items: list[Item] = [Fact("the buffer is aligned as TMA's destination needs", setup.align % TMA.SMEM_ALIGN == 0,
                              f"{setup.align}-byte aligned", f"a multiple of {TMA.SMEM_ALIGN} bytes", align_suspect),
                         Fact("the buffer fits shared memory", setup.footprint_bytes <= SMEM_BYTES,
                              f"{setup.footprint_bytes} bytes", f"at most {SMEM_BYTES} bytes",
                              suspects.smem("the shared-memory layout's footprint (its stages)"))]
    assert setup.boxes is not None
    n0, n1 = setup.boxes.box
    inner_extent, outer_extent = ((setup.extent[0], setup.extent[1]) if setup.boxes.inner_mode == 0
                                  else (setup.extent[1], setup.extent[0]))
    bad: list[dict[str, int]] = []
    total = 0
    for s in range(setup.stages):
        for bo in range(-(-outer_extent // n1)):
            for bi in range(-(-inner_extent // n0)):
                total += 1
                off = setup.box_offset(bi, bo, s)
                if off % TMA.SMEM_ALIGN:
                    bad.append({"stage": s, "box_inner": bi, "box_outer": bo, "offset": off})
    first = bad[0] if bad else None
    items.append(Fact(f"every box's destination is {TMA.SMEM_ALIGN}-byte aligned", not bad,
                      f"box ({first['box_inner']}, {first['box_outer']}) of stage {first['stage']} at base+"
                      f"{first['offset']:#x}" if first else "all aligned",
                      f"base + a multiple of {TMA.SMEM_ALIGN}", box_suspect, point=first, failing=len(bad),
                      domain_size=total))
    if setup.swizzle is not GmmaSwizzle.NONE and not setup.absolute:
        repeat = setup.tile.repeat if setup.tile is not None else setup.swizzle.repeat
        items.append(Fact(f"the buffer-relative swizzle's buffer is aligned to the swizzle repeat ({repeat} bytes)",
                          setup.align % repeat == 0, f"{setup.align}-byte aligned",
                          f"a multiple of {repeat} bytes: TMA and {setup.engine} swizzle absolute addresses",
                          align_suspect))
    return items


# --- theorem 14: TMA placement ---------------------------------------------------------------------------------

def tma_placement(setup: Sm90Setup, suspects: Suspects) -> Plan:
    """Every element of every box lands at base + smem_layout(mn, k, stage) * sizeof(T)."""
    refused = _tma_refusal(setup, suspects.smem("the shared-memory layout against make_tma_copy"))
    if refused is not None:
        return refused
    if setup.tile is None:
        return _no_tile(setup)
    if setup.boxes is None or setup.tensor_map is None:
        return _no_tma(setup)
    n0, n1 = setup.boxes.box
    inner_extent, outer_extent = ((setup.extent[0], setup.extent[1]) if setup.boxes.inner_mode == 0
                                  else (setup.extent[1], setup.extent[0]))
    bi, bo = Var("box_inner", max(1, inner_extent // n0)), Var("box_outer", max(1, outer_extent // n1))
    ii, oo = Var("col", n0), Var("row", n1)
    inner, outer = bi * n0 + ii, bo * n1 + oo
    mn, k = (inner, outer) if setup.boxes.inner_mode == 0 else (outer, inner)
    premise = lt(inner, inner_extent) & lt(outer, outer_extent)
    tensor_map = setup.tensor_map

    def placed(b: Var, s: ExprLike, over: list[Var], form: str) -> Obligation:
        base = b * setup.align
        dst = setup.box_destination(base, bi, bo, s)
        wrote = TMA.smem_address(tensor_map, dst, oo, ii)
        want = setup.layout_address(base, mn, k, s)
        return Obligation(f"TMA puts every element of the {setup.operand.value} tile at base + smem_layout(mn,k,stage) "
                          f"* {setup.elem_bytes}", [*over, bi, bo, oo, ii], eq(wrote, want), premise=premise,
                          lhs=wrote, rhs=want, shown={"mn": mn, "k": k, "box destination": dst},
                          note=_noted(f"box {n0}x{n1}, base a multiple of {setup.align}", form))
    box_suspect = _given_tma(setup, suspects)
    relative = setup.swizzle is not GmmaSwizzle.NONE and not setup.absolute
    align_suspect = suspects.field("smem_align", "the buffer's alignment against the layout's buffer-relative "
                                                 "swizzle")
    # a buffer-relative swizzle whose buffer is not aligned to its repeat is the known cause, before a given box
    misaligned = relative and setup.tile is not None and setup.align % setup.tile.repeat != 0
    default = (align_suspect if misaligned else box_suspect
               or (align_suspect if relative else suspects.smem("the shared-memory layout: TMA fills it box row by "
                                                                "box row at the swizzle span")))
    obligation, exact = _over_stages(setup, placed)
    items: list[Item] = [Claim(obligation, Blame((), default), Trace.TMA_BOX, subject=setup.operand.value,
                               exact=exact)]
    tensors = setup.check.tma_tensors
    if tensors is not None:        # the elements placed are the tile's own only when the map is of the tiles' tensor
        items.append(tiles_of_the_map(
            f"{setup.operand.value} tile", *tensors, suspects.field(
                "tma_tensors", f"the global tensors the TMA atom's map ({tensors[0]}) and its partition's tiles "
                               f"({tensors[1]}) are made from"), setup.operand.value))
    return items


# --- theorem 15: the descriptor reads what the layout says ---------------------------------------------------

def gmma_descriptor(setup: Sm90Setup, suspects: Suspects) -> Plan:
    refused = _builder_refusal(setup, suspects.smem(f"the shared-memory layout against {setup.desc_builder}"))
    if refused is not None:
        return refused
    if setup.tile is None and not setup.by_tma:     # (with TMA, theorem 13 says it)
        return [Fact(f"the shared layout's swizzle is one {setup.engine}'s descriptor reads (Swizzle<1|2|3,4,3> on "
                     "bytes)", False, str(setup.tile_problem), "none, 32B, 64B or 128B",
                     suspects.smem("the shared-memory layout (its swizzle)"))]
    if setup.tile is None:
        return _no_tile(setup)
    op = setup.operand.value
    mn_extent, k_extent = setup.extent
    smem = suspects.smem(f"the shared-memory layout against the {setup.major.value}-major {setup.engine} descriptor "
                         f"of {setup.atom.name} ({setup.major_source})")
    items: list[Item] = [Fact(f"the {op} tile is a whole number of {setup.rows}x{setup.k_instr} instruction slices",
                              mn_extent % setup.rows == 0 and k_extent % setup.k_instr == 0,
                              f"{mn_extent}x{k_extent}", f"multiples of {setup.rows}x{setup.k_instr}",
                              suspects.smem("the shared-memory tile's extent"))]
    atoms = atoms_along_mn(setup.check)
    if atoms > 1:
        # the tiled MMA's atoms along M (N) each take every atoms-th slice of the tile: a count of slices they do not
        # divide extends the last atom's partition past the tile (CuTe divides without asserting), into the next stage
        slices = mn_extent // setup.rows
        items.append(Fact(f"the tiled MMA's {atoms} atoms along {setup.operand.axes[0].upper()} share the {op} tile's "
                          f"{setup.rows}-row slices evenly", mn_extent % setup.rows == 0 and slices % atoms == 0,
                          f"{mn_extent / setup.rows:g} slice{'' if mn_extent == setup.rows else 's'} of "
                          f"{setup.rows} over {atoms} atoms",
                          f"a multiple of {atoms} slices: a tile of {setup.rows * atoms}·q along "
                          f"{setup.operand.axes[0].upper()}",
                          suspects.field("atom_layout", f"the tiled MMA's atom layout (its {atoms} atoms along "
                                                        f"{setup.operand.axes[0].upper()}) against the tile")))
    bits = setup.check.value_type.bits if setup.check.value_type else 0
    if setup.major is Major.MN:
        widths, why = setup.arch.mn_major_widths
        allowed = "- or ".join(map(str, widths))
        items.append(Fact(f"an MN-major operand has {allowed}-bit elements ({why})", bits in widths,
                          f"{bits}-bit elements", f"{allowed}-bit elements",
                          suspects.field("mma", "the atom's major-ness")))
    unsettled = _unsettled_read(setup)
    if unsettled is not None and all(f.holds for f in items if isinstance(f, Fact)):
        return unsettled      # a failed fact above is a refutation the unsettled read does not hide
    if unsettled is not None or setup.reader is None:
        return items
    if not setup.by_tma:      # TMA's theorem 13 says it for a TMA-filled buffer
        items.append(Fact("the buffer fits shared memory", setup.footprint_bytes <= SMEM_BYTES,
                          f"{setup.footprint_bytes} bytes", f"at most {SMEM_BYTES} bytes",
                          suspects.smem("the shared-memory layout's footprint (its stages)")))
    problem = setup.reader.field_problem(setup.major)
    blame_desc = (suspects.field("descriptor", f"the descriptor fields the check gives ({_fields(setup.overrides)})")
                  if setup.overrides else None)
    items.append(Fact("the descriptor's fields are encodable", problem is None, problem or "encodable",
                      setup.arch.field_rule(setup.major), blame_desc or smem, note=_descriptor_text(setup)))
    if not all(f.holds for f in items if isinstance(f, Fact)):
        return items
    w, kb = Var("mn_block", setup.slices[0]), Var("k_block", setup.slices[1])
    a, c = setup.operand.axes
    i, j = Var(a, setup.rows), Var(c, setup.k_instr)
    title = f"the descriptor makes {setup.engine} read {op}({a},{c}) at base + smem_layout * {setup.elem_bytes}"

    def described(b: Var, s: ExprLike, over: list[Var], form: str) -> Obligation:
        base = b * setup.align
        start = setup.slice_start(base, w, kb, s)
        read = setup.read_address(start, i, j)
        want = setup.layout_address(base, w * setup.rows + i, kb * setup.k_instr + j, s)
        return Obligation(title, [*over, w, kb, i, j], eq(read, want), lhs=read, rhs=want,
                          shown={"descriptor start": start}, note=_noted(_descriptor_text(setup), form))
    obligation, exact = _over_stages(setup, described)
    items.append(Claim(obligation, Blame((), blame_desc or smem), Trace.GMMA_SLOT, subject=op, exact=exact))
    return items


def _builder_refusal(setup: Sm90Setup, smem: Suspect) -> Refusal | None:
    """CuTe's refusal of the descriptor it would build for the tile (a descriptor the check gives is not built)."""
    if setup.desc_rule is None:
        return None
    rule, met = setup.desc_rule
    return Refusal(rule, f"{setup.desc_builder}<{setup.major.value}> of the {setup.operand.value} tile: {met}", smem)


def _tma_refusal(setup: Sm90Setup, smem: Suspect) -> Refusal | None:
    """make_tma_copy's refusal of the shared layout (a box the check gives is not built by it)."""
    if setup.tma_rule is None:
        return None
    rule, met = setup.tma_rule
    return Refusal(rule, met, smem)


def _given_tma(setup: Sm90Setup, suspects: Suspects) -> Suspect | None:
    """The TMA field the check gives in place of make_tma_copy's derivation, where it gives one: its swizzle when
    that is not the layout's, else its box, else its swizzle."""
    swizzle, box = setup.check.tma_swizzle, setup.check.tma_box
    swizzle_suspect = (suspects.field("tma_swizzle", f"the TMA swizzle {swizzle.value} given by 'tma_swizzle'")
                       if swizzle is not None else None)
    box_suspect = (suspects.field("tma_box", f"the TMA box {setup.boxes.box if setup.boxes else box} given by "
                                             "'tma_box'") if box is not None else None)
    if swizzle_suspect is not None and swizzle is not setup.layout_tma_swizzle:
        return swizzle_suspect
    return box_suspect or swizzle_suspect


def _fields(overrides: dict[str, int]) -> str:
    return ", ".join(f"{k} {GmmaSwizzle(v).label if k == 'swizzle' else v}" for k, v in overrides.items())


def _descriptor_text(setup: Sm90Setup) -> str:
    d, built = setup.descriptor, setup.derived
    if d is None:
        return ""
    return (f"{setup.major.value}-major, swizzle {d.swizzle.label}, LBO {d.lbo}, SBO {d.sbo}, base offset "
            f"{d.base_offset}" + (f" (overriding {setup.desc_builder}'s LBO {built.lbo}, SBO "
                                  f"{built.sbo}, base offset {built.base_offset}, swizzle "
                                  f"{built.swizzle.label})" if setup.overrides and built else ""))


# --- theorem 16: end to end ------------------------------------------------------------------------------------

def end_to_end(setup: Sm90Setup, suspects: Suspects) -> Plan:
    """The byte the tensor core reads as (i, j) of a slice is the byte TMA wrote the tile's element (mn0+i, k0+j)
    to."""
    for refused in (_tma_refusal(setup, suspects.smem("the shared-memory layout against make_tma_copy")),
                    _builder_refusal(setup, suspects.smem(f"the shared-memory layout against {setup.desc_builder}"))):
        if refused is not None:
            return refused
    if setup.tile is None:
        return _no_tile(setup)
    unsettled = _unsettled_read(setup)
    if unsettled is not None:
        return unsettled
    if setup.boxes is None or setup.tensor_map is None:
        return _no_tma(setup)
    if setup.descriptor is None or setup.extent[0] % setup.rows or setup.extent[1] % setup.k_instr:
        return Unsupported("the tile is not a whole number of instruction slices (theorem gmma.descriptor)")
    assert setup.reader is not None
    problem = setup.reader.field_problem(setup.major)
    if problem is not None:      # a read the tensor core cannot make (theorem 15 refutes the fields)
        return Unsupported(f"the descriptor's fields are not encodable (theorem gmma.descriptor): {problem}")
    a, c = setup.operand.axes
    w, kb = Var("mn_block", setup.slices[0]), Var("k_block", setup.slices[1])
    i, j = Var(a, setup.rows), Var(c, setup.k_instr)
    mn, k = w * setup.rows + i, kb * setup.k_instr + j
    premise = lt(mn, setup.extent[0]) & lt(k, setup.extent[1])
    blame = suspects.smem(f"the shared-memory layout between make_tma_copy's boxes and {setup.desc_builder}'s "
                          "descriptor")
    if setup.overrides:
        blame = suspects.field("descriptor", f"the descriptor fields the check gives ({_fields(setup.overrides)})")
    else:
        blame = _given_tma(setup, suspects) or blame

    def read_as_written(b: Var, s: ExprLike, over: list[Var], form: str) -> Obligation:
        base = b * setup.align
        read = setup.read_address(setup.slice_start(base, w, kb, s), i, j)
        wrote = setup.tma_address(base, mn, k, s)
        return Obligation(f"{setup.engine} reads as {setup.operand.value}({a},{c}) the byte TMA wrote the tile's "
                          f"element ({a}0+{a}, {c}0+{c}) to", [*over, w, kb, i, j], eq(read, wrote), premise=premise,
                          lhs=read, rhs=wrote, note=_noted(_descriptor_text(setup), form))
    obligation, exact = _over_stages(setup, read_as_written)
    reads = Claim(obligation, Blame((), blame), Trace.GMMA_SLOT, subject=setup.operand.value, exact=exact)
    return [reads, *_tma_writes_distinct(setup, suspects)]


def _tma_writes_distinct(setup: Sm90Setup, suspects: Suspects) -> list[Claim]:
    """No byte receives two elements of the buffer (any stages): the byte read holds the element written there.

    TMA writes element x at swizzle(base + g(x)), g its unswizzled placement (tma.py).  The claim for every base and
    pair of elements is proved as two: g is one-to-one over the buffer's elements (no base in it: base + g(x) is
    one-to-one exactly when g is), and the swizzle is one-to-one over every address base + g(x) can be (from 0 to
    the bound of that expression) -- each an injectivity, decided over its points once rather than over pairs.

    When the stages are translates of stage 0 (`Sm90Setup.stage_start`) and stage 0's offsets all lie below the
    next stage's start, g is one-to-one over the buffer exactly when it is over stage 0 (stage s's offsets are
    stage 0's moved past every offset of the stages before it): that form is decided, for every stage count at
    once."""
    tensor_map = setup.tensor_map
    assert tensor_map is not None
    mn_extent, k_extent = setup.extent
    one_stage = mn_extent * k_extent

    def placed(x: Var) -> Expr:    # element index -> (mn, k, stage), MN fastest
        return setup.tma_unswizzled(0, x % mn_extent, (x // mn_extent) % k_extent, x // one_stage)
    blame = (_given_tma(setup, suspects)
             or suspects.smem("the shared-memory layout: two elements (or two stages) share a byte"))

    buffer = f"the {mn_extent}x{k_extent}x{setup.stages} buffer"

    def offsets_over(stages: int, what: str, form: str) -> Obligation:
        x1, x2 = Var("element", one_stage * stages), Var("element2", one_stage * stages)
        g1, g2 = placed(x1), placed(x2)
        return Obligation(f"TMA places distinct elements of {what} at distinct offsets from its base (before the "
                          "swizzle)", [x1, x2], ne(g1, g2), premise=lt(x1, x2),
                          lhs=g1, rhs=g2, shown={"offset": g1, "offset2": g2},
                          note=_noted("element = mn + MN*(k + K*stage)", form),
                          distinct=Distinct(g1, (x1,), (x2,)))
    start = setup.stage_start
    stage0 = placed(Var("element", one_stage)) if start is not None and setup.stages > 1 else None
    if start is not None and stage0 is not None and stage0.lo >= 0 and stage0.hi < start.step * setup.align:
        form = (f"each of the {setup.stages} stages is stage 0 moved by {start.step * setup.align} bytes, past every "
                f"offset of stage 0 (below {int(stage0.hi) + 1}): distinct over the buffer exactly when distinct over "
                "stage 0")
        offsets = Claim(offsets_over(1, f"stage 0 of {buffer}", form), blame, subject=setup.operand.value,
                        exact=lambda: offsets_over(setup.stages, buffer, ""))
    else:
        offsets = Claim(offsets_over(setup.stages, buffer, ""), blame, subject=setup.operand.value)
    # every address base + g(x) can be lies in [low, reach): the expression's bounds (0 unless a stride is negative)
    bound = setup.base() + placed(Var("element", one_stage * setup.stages))
    low, reach = min(0, int(bound.lo)), int(bound.hi) + 1
    a1, a2 = Var("address", reach - low), Var("address2", reach - low)
    s1, s2 = (TMA.swizzle_address(tensor_map.swizzle, a + low) for a in (a1, a2))
    below = f"below {reach}" if low == 0 else f"from {low} below {reach}"
    swizzle = Claim(Obligation(f"TMA's {tensor_map.swizzle.value} swizzle sends distinct shared addresses {below} to "
                               "distinct bytes", [a1, a2], ne(s1, s2), premise=lt(a1, a2), lhs=s1, rhs=s2,
                               shown={"byte": s1, "byte2": s2},
                               note="with the offsets above: distinct elements of the buffer, at any base, are "
                                    "written to distinct bytes", distinct=Distinct(const(s1), (a1,), (a2,))),
                    suspects.smem("the shared layout's swizzle, the TMA swizzle mode it selects"),
                    subject=setup.operand.value)
    return [offsets, swizzle]


# --- theorems 9 and 12 on the shared tile ------------------------------------------------------------------

def smem_injective(setup: Sm90Setup, suspects: Suspects) -> Plan:
    """Distinct (mn, k, stage) of the tile have distinct offsets (stages included: no stage overwrites another)."""
    layout = setup.smem
    if layout.rank() not in (2, 3):
        return [Fact("the shared-memory tile is (MN, K[, PIPE])", False, f"rank {layout.rank()}", "rank 2 or 3",
                     suspects.smem("the shared-memory layout"))]
    sizes = [int(layout.mode(r).size()) for r in range(layout.rank())]
    n = 1
    for x in sizes:
        n *= x
    x1, x2 = Var("index", n), Var("index2", n)
    o1, o2 = layout_expr(layout, x1), layout_expr(layout, x2)
    what = "(mn, k, stage)" if len(sizes) == 3 else "(mn, k)"
    inner = layout.b if isinstance(layout, ComposedLayout) else layout
    return [Claim(Obligation(f"distinct {what} of the {'x'.join(map(str, sizes))} tile have distinct offsets",
                             [x1, x2], ne(o1, o2), premise=lt(x1, x2), lhs=o1, rhs=o2,
                             shown={"offset": o1, "offset2": o2}, note=f"layout {inner}",
                             distinct=Distinct(o1, (x1,), (x2,), layout)),
                  suspects.smem("the shared-memory layout maps two coordinates (or two stages) to one element"),
                  subject=setup.operand.value)]


def value_type(setup: Sm90Setup, suspects: Suspects) -> Plan:
    vt = setup.check.value_type
    assert vt is not None
    op = setup.operand.value
    want = setup.side.operand_type
    if want is None:
        raise KeyError(f"the atom {setup.atom.name} gives no type of {op}")
    converted = setup.check.smem_type
    if setup.check.register_sourced and converted is not None and converted.bits != want.bits:
        return _register_sourced_value_type(setup, vt, converted, want, suspects)
    hint = ""
    if setup.check.register_sourced and vt.bits < want.bits:
        hint = f"; a tile of {vt.name} the registers convert to {want.name} says smem_type: {vt.name}"
    items: list[Item] = [Fact(f"the {'TMA ' if setup.by_tma else ''}copy's value type has the MMA's {op} width",
                              vt.bits == want.bits, f"{vt.name} ({vt.bits} bits)",
                              f"{want.bits} bits (the MMA's {op} type {want.name})",
                              suspects.value_type(f"the copy's value_type {vt.name} against the MMA's {op} type "
                                                  f"{want.name}{hint}"), subject=op)]
    if converted is not None and not setup.check.register_sourced:
        items.append(_tile_type_read_as(setup, converted, want, suspects))
    if not setup.by_tma:
        if setup.writer is None:
            if not all(f.holds for f in items if isinstance(f, Fact)):
                return items      # a refuted width is not hidden by the copy the tool has no model of
            return Unsupported(f"the copy {setup.check.copy} has no instruction model: whether it writes shared "
                               "memory is not known")
        items.append(_writes_shared(setup, suspects))
    return items


def _tile_type_read_as(setup: Sm90Setup, tile: ValueType, want: ValueType, suspects: Suspects) -> Fact:
    """An operand read through the descriptor: the tensor core reads the tile's bits as the MMA's operand type, so
    the tile must hold that type (`smem_type`: the type it holds), not another of its width (bf16 read as f16, e5m2
    as e4m3, u8 as s8: wrong values, no fault)."""
    op = setup.operand.value
    ptx = ptx_type_of(want.name)
    # the same type, or one the instruction reads as its own (PTX_READS_AS: float under a .tf32 MMA)
    alike, note = instruction_type_agrees(tile.name, tile.bits, ptx) if ptx is not None else \
        (tile.name == want.name, "")
    return Fact(f"the tile holds the type {setup.engine} reads as {op}", alike,
                f"{tile.name} values" + (f" ({note})" if note else ""), f"{want.name} (the MMA's {op} type)",
                suspects.field("smem_type", f"the shared tile's type {tile.name} (smem_type), which {setup.engine} "
                                            f"reads as the MMA's {op} type {want.name}"), subject=op)


def _register_sourced_value_type(setup: Sm90Setup, vt: ValueType, tile: ValueType, want: ValueType,
                                 suspects: Suspects) -> Plan:
    """A wgmma RS atom's A whose tile (`smem_type`) the registers convert to the MMA's type after the load: TMA
    moves whole elements of the tile's type, and the conversion is one that keeps each value's register."""
    op = setup.operand.value
    conversion = register_conversion_fact(tile, want, op, suspects.field(
        "smem_type", f"the shared tile's type {tile.name} (smem_type), converted in registers to the MMA's {op} "
                     f"type {want.name}"), setup.check.lookup_table)
    if isinstance(conversion, (Unsupported, Refusal)):
        return conversion
    return [Fact("the TMA copy's value type has the width of the shared tile's type (smem_type)",
                 vt.bits == tile.bits, f"{vt.name} ({vt.bits} bits)", f"{tile.bits} bits ({tile.name})",
                 suspects.value_type(f"the copy's value_type {vt.name} against the tile's type {tile.name}"),
                 subject=op), conversion]


# instructions of these directions write shared memory (per-thread copies write wherever their tensors are)
WRITING_DIRECTIONS = ("memory", "store")


def _writes_shared(setup: Sm90Setup, suspects: Suspects) -> Fact:
    """The copy through the tile's layout writes shared memory: the descriptor reads the operand there."""
    w, name = setup.writer, setup.check.copy
    assert w is not None
    writes = w.lanes == 1 or w.direction in WRITING_DIRECTIONS
    actual = f"{w.instruction}: {'writes memory' if writes else f'a {w.direction} copy (into registers)'}"
    return Fact(f"the copy writes the shared tile {setup.engine} reads through the descriptor", writes, actual,
                "a copy into shared memory (cp.async, a vectorized or per-thread copy, stmatrix)",
                suspects.field("copy", f"the copy {name}: no register fragment of {setup.operand.value} exists for "
                                       f"{setup.atom.name}, the descriptor reads the tile"),
                subject=setup.operand.value)
