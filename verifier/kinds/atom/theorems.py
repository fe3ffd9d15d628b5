"""Atom theorems: an MMA atom alone (well-formed, equal to the instruction, its types) and a copy atom alone."""
from __future__ import annotations

from typing import Callable

from ...algebra.inttuple import AlgebraError, flatten_to_tuple
from ...algebra.layout import Layout
from ...algebra.memo import remembered
from ...algebra.types import instruction_type_agrees, ptx_type_of
from ...cute.copy import TypedCopyAtom
from ...cute.operand import Operand
from ...hardware.base import CopyModel, MMAModel
from ...hardware.registry import mma_instruction_types
from ...outcome import Status
from ...specfile.model import MMAAtomSpec
from ...specfile.vocabulary import SCALE_TYPE_KEYS
from ...symbolic.decide import decide
from ...symbolic.procedure import DEFAULT_SETTINGS, Settings
from ...symbolic.expr import TRUE, Expr, Pred, Var, and_, eq, implies, lt, ne, or_
from ...symbolic.layouts import layout_expr
from ...symbolic.obligation import Distinct, Obligation
from ...theorems.claims import Claim, Fact, Item, Plan, Refusal, Suspect, Unsupported
from .relabelling import Relabelling, atom_key, find_relabelling, identity_relabelling
from ...theorems.suspects import Suspects



def _thr_val_sizes(layout: Layout) -> tuple[int, int]:
    return int(layout.mode(0).size()), int(layout.mode(1).size()) if layout.rank() > 1 else 1


def _coord_text(q: int, shape_mnk: tuple[int, int, int], operand: str) -> str:
    rows = shape_mnk[Operand.of(operand).modes[0]]
    a, b = Operand.of(operand).axes
    return f"offset {q} = {operand}({a}={q % rows}, {b}={q // rows})"


# --- theorem 1 ---------------------------------------------------------------------------------------

def bijective(atom: MMAAtomSpec, operand: str, suspects: Suspects) -> list[Item]:
    """Theorem 1: (thr, val) -> coordinate is a bijection onto the operand tile."""
    layout = {"A": atom.a, "B": atom.b, "C": atom.c}[operand]
    shape = atom.shape_mnk
    rows, cols = Operand.of(operand).pick(shape)
    extent = rows * cols
    nthr, nval = _thr_val_sizes(layout)
    blame = suspects.mma_layout(operand)
    t1, v1 = Var("thread", nthr), Var("value", nval)
    q1 = layout_expr(layout, (t1, v1))
    items: list[Item] = [Claim(Obligation(f"{atom.name} {operand}: every (thread, value) lands inside the "
                                          f"{rows}x{cols} tile", [t1, v1], lt(q1, extent), lhs=q1,
                                          shown={"coordinate": q1}, note=f"tile size {extent}"), blame,
                               subject=operand)]
    thread_stride_zero = all(int(d) == 0 for d in flatten_to_tuple(layout.mode(0).stride))
    if thread_stride_zero and nthr > 1:
        # a shared-memory (descriptor) operand: every thread names the whole tile
        v2 = Var("value2", nval)
        q2 = layout_expr(layout, (t1, v2))
        items.append(Claim(Obligation(f"{atom.name} {operand}: each thread's values are distinct", [t1, v1, v2],
                                      implies(ne(v1, v2), ne(q1, q2)), premise=TRUE,
                                      shown={"coordinate": q1, "coordinate2": q2}), blame, subject=operand))
        items.append(Fact(f"{atom.name} {operand}: one value per coordinate of the tile", nval == extent,
                          f"{nval} values", f"{extent} coordinates", blame, subject=operand))
        return items
    items += _coverage(atom, layout, extent, operand, blame)
    t2, v2 = Var("thread2", nthr), Var("value2", nval)
    q2 = layout_expr(layout, (t2, v2))
    items.append(Claim(Obligation(f"{atom.name} {operand}: no two (thread, value) pairs share a coordinate",
                                  [t1, v1, t2, v2], implies(or_(ne(t1, t2), ne(v1, v2)), ne(q1, q2)),
                                  shown={"coordinate": q1, "coordinate2": q2},
                                  distinct=Distinct(q1, (t1, v1), (t2, v2), layout)), blame, subject=operand))
    items.append(Fact(f"{atom.name} {operand}: as many (thread, value) pairs as coordinates", nthr * nval == extent,
                      f"{nthr * nval} pairs", f"{extent} coordinates", blame, subject=operand))
    return items


def _coverage(atom: MMAAtomSpec, layout: Layout, extent: int, operand: str, blame: Suspect) -> list[Item]:
    """Every coordinate is held by some (thread, value): decided by evaluating the layout on its whole domain.
    When it fails, the witness is the smallest coordinate nobody holds, and the count is exact."""
    missed, first = unreached(layout, extent)
    if not missed:
        return []
    return [Fact(f"{atom.name} {operand}: every coordinate of the tile is held by some (thread, value)", False,
                 f"{missed} of {extent} coordinates are never reached",
                 "every coordinate reached", blame,
                 note=f"{missed} of {extent} coordinates are never reached "
                      f"(first: {_coord_text(first, atom.shape_mnk, operand)})",
                 subject=operand, point={"coordinate": first}, failing=missed, domain_size=extent)]


@remembered
def unreached(layout: Layout, extent: int) -> tuple[int, int]:
    """How many of the offsets 0 .. extent-1 `layout` never takes, and the smallest of them (-1 when none is
    missed); remembered per process (the checks that share an atom ask it of the same layouts)."""
    reached = set(layout.values())
    missed = [c for c in range(extent) if c not in reached]
    return len(missed), (missed[0] if missed else -1)


# --- theorem 2 ---------------------------------------------------------------------------------------

Holds = Callable[[Obligation], bool]    # decides an obligation (the runner's decide, memoized): proved or not


def proved_by(settings: Settings = DEFAULT_SETTINGS) -> Holds:
    """Decides an obligation with the run's settings (memoized: the same decision the theorem itself reuses)."""
    return lambda ob: decide(ob, settings)[0].status is Status.PROVED


def _exact_obligation(atom: MMAAtomSpec, operand: str, model: MMAModel, note: str = "") -> Obligation:
    """CuTe's operand layout equals the instruction's fragment, slot by slot (value counts already equal)."""
    layout = {"A": atom.a, "B": atom.b, "C": atom.c}[operand]
    nthr, nval = _thr_val_sizes(layout)
    d0, _ = model.extent(operand)
    t, v = Var("thread", nthr), Var("value", nval)
    lane = layout_expr(atom.thr_id, t)
    c0, c1 = model.operand(operand).coord(lane, v)
    hw = c0 + d0 * c1
    cute = layout_expr(layout, (t, v))
    return Obligation(f"{atom.name} {operand}: CuTe's layout equals the {model.instruction} fragment", [t, v],
                      eq(cute, hw), lhs=cute, rhs=hw, shown={"lane": lane, "cute": cute, "ptx": hw}, note=note)


def matches_instruction(atom: MMAAtomSpec, operand: str, model: MMAModel | None, suspects: Suspects,
                        holds: Holds) -> Plan:
    """Theorem 2: the atom computes C += A·B under CuTe's layouts — the operand's layout is the PTX ISA fragment
    exactly, or up to one renaming of m, n and k that all three operands share (relabelling.py)."""
    if model is None:
        why = (f"no hardware model for '{atom.instruction}'" if atom.instruction
               else "the atom names no instruction (its Op has no asm of its own)")
        return Unsupported(f"{why} (atom {atom.name})")
    if model.unsettled:      # the PTX ISA text and CUTLASS disagree on this form: neither proved nor refuted
        return Unsupported(f"{model.instruction}: {model.unsettled} ({model.section}; atom {atom.name})")
    layout = {"A": atom.a, "B": atom.b, "C": atom.c}[operand]
    if model.invalid:
        about, _, key = model.invalid_in.partition(".")      # "types.a": the A type
        blame = {"types": suspects.mma_type(key or "d"), "instruction": suspects.mma_instruction()}.get(
            about, suspects.mma_shape())
        return [Fact(f"{atom.name}: {model.instruction} is an instruction", False, model.instruction,
                     "an instruction the PTX ISA defines", blame,
                     note=f"no such instruction: {model.invalid} ({model.section})", subject=operand)]
    if tuple(atom.shape_mnk) != tuple(model.shape_mnk):
        return [Fact(f"{atom.name}: the atom's shape is the instruction's", False, str(tuple(atom.shape_mnk)),
                     str(tuple(model.shape_mnk)), suspects.mma_shape(), subject=operand)]
    frag = model.operand(operand)
    _, nval = _thr_val_sizes(layout)
    if nval != frag.elements:
        return [Fact(f"{atom.name} {operand}: values per thread are the instruction's", False, f"{nval} values",
                     f"{frag.elements} values", suspects.mma_layout(operand), subject=operand)]

    def exact_claim(note: str = "") -> Claim:
        return Claim(_exact_obligation(atom, operand, model, note), suspects.mma_layout(operand), subject=operand)
    found = renaming(atom, model, holds)
    if found is None or found.identity:   # None: another operand's value count differs (its own theorem 2 says)
        return [exact_claim()]
    if found.consistent:
        return [Fact(f"{atom.name} {operand}: CuTe's layouts are the {model.instruction} fragments up to one "
                     "renaming of m, n and k shared by A, B and C (so the atom computes C += A·B)", True,
                     f"renamed {found.text()}", "one renaming per axis", suspects.mma_layout(operand),
                     note=f"semantic equivalence: {found.text()}", subject=operand)]
    conflict = found.conflict
    assert conflict is not None
    first, second = conflict.first, conflict.second
    involved = [first.operand] + ([second.operand] if second.operand != first.operand else [])
    culprit = next((op for op in reversed(involved) if op not in found.exact), second.operand)
    pair = f"{conflict.why}: {first.text()}; {second.text()}"
    return [exact_claim(f"no renaming of m, n, k explains it: {pair}"),
            Fact(f"{atom.name}: A, B and C agree with the {model.instruction} fragments up to one renaming of m "
                 "(A, C), n (B, C) and k (A, B)", False, pair, f"one renaming of {conflict.axis} for every slot",
                 suspects.mma_layout(culprit, f"{' and '.join(involved)} rename {conflict.axis} differently"
                                     if len(involved) > 1 else ""),
                 subject=operand,
                 point={"thread": first.thread, "value": first.value, "thread2": second.thread,
                        "value2": second.value})]


def renaming(atom: MMAAtomSpec, model: MMAModel | None, holds: Holds) -> Relabelling | None:
    """The renaming of m, n, k between the instruction and the atom (relabelling.py); None when the shapes or the
    value counts differ (nothing to rename).  When every operand's exact claim holds (`holds` decides them; an
    atom's claims recur in every check that uses it and are decided once) the renaming is the identity, without
    the search."""
    if model is None or model.invalid or model.unsettled or tuple(atom.shape_mnk) != tuple(model.shape_mnk):
        return None
    key = atom_key(atom, model)
    if key not in _RENAMINGS:
        _RENAMINGS[key] = _renaming(atom, model, holds)
    return _RENAMINGS[key]


# An atom's renaming, per process: every check of the atom asks for it twice (theorem 2, the hardware tiled MMA).
# A pure function of the atom's layouts and the instruction's model: the exact claims only spare the search.
_RENAMINGS: dict[tuple[object, ...], Relabelling | None] = {}


def _renaming(atom: MMAAtomSpec, model: MMAModel, holds: Holds) -> Relabelling | None:
    if not all(_thr_val_sizes(lay)[1] == model.operand(op).elements
               for op, lay in (("A", atom.a), ("B", atom.b), ("C", atom.c))):
        return None
    if all(holds(_exact_obligation(atom, op, model)) for op in ("A", "B", "C")):
        return identity_relabelling(atom.shape_mnk)
    return find_relabelling(atom, model)


def relabelling_info(atom: MMAAtomSpec, model: MMAModel | None, holds: Holds) -> str:
    """Information for a report: the renaming theorem 2 found, when the atom is not the instruction exactly."""
    found = renaming(atom, model, holds)
    if model is None or found is None or not found.consistent or found.identity:
        return ""
    return (f"theorem 2: {atom.name} is {model.instruction} up to a renaming of "
            f"{', '.join(found.renamed_axes())} ({found.text()}): it computes C += A·B in CuTe's coordinates")


# --- theorem 11 --------------------------------------------------------------------------------------

def types_match(atom: MMAAtomSpec, operands: list[str], suspects: Suspects) -> Plan:
    """Theorem 11: the atom's value types are the instruction's operand types (PTX type qualifiers)."""
    want = mma_instruction_types(atom.instruction, atom.name)
    if want is None:
        return Unsupported(f"the operand types of '{atom.instruction}' are not known (atom {atom.name})"
                           if atom.instruction else f"the atom {atom.name} names no instruction")
    items: list[Item] = []
    keys = [k for op in operands for k in (("c", "d") if op == "C" else (op.lower(),))]
    keys += [k for k in SCALE_TYPE_KEYS if k in atom.types]     # a block-scaled MMA's scale factors, when written
    for key in keys:
        have = atom.types[key]
        if key not in want:        # scale factors the instruction does not take (no .block_scale)
            items.append(Fact(f"{atom.name}: the instruction takes scale factors", False, f"{key}: {have.name}",
                              f"no scale factors ({atom.instruction} is not block-scaled)", suspects.mma_type(key),
                              subject=key.upper()))
            continue
        ok, note = instruction_type_agrees(have.name, have.bits, want[key])
        shown = have.name + (f" (.{ptx_type_of(have.name)})" if ptx_type_of(have.name) else f" ({have.bits} bits)")
        items.append(Fact(f"{atom.name}: the {key} type is the instruction's .{want[key]}", ok, shown,
                          f".{want[key]}", suspects.mma_type(key), note=note, subject=key.upper()))
    return items


# --- theorem 3 ---------------------------------------------------------------------------------------

def copy_routing(name: str, thr_id: Layout, src: Layout, dst: Layout, model: CopyModel | None,
                 typed: TypedCopyAtom | AlgebraError | None, suspects: Suspects, instruction: str | None) -> Plan:
    """Theorem 3: S(src) == D(dst) for the pairs the hardware routes; bits, then value units."""
    if model is None:
        return Unsupported(f"no hardware model for '{instruction}' (atom {name})")
    blame = suspects.copy_traits()
    if isinstance(typed, AlgebraError):
        vt = suspects.check.value_type
        return Refusal(typed.rule, str(typed), suspects.value_type(
            f"Copy_Atom<{name}, {vt.name if vt else '?'}>: CuTe refuses this value type for the atom"))
    if model.invalid:
        return [Fact(f"{name}: {model.instruction} is an instruction", False, model.instruction,
                     "an instruction the PTX ISA defines", blame, note=f"no such instruction: {model.invalid} "
                                                                         f"({model.section})")]
    nthr = int(thr_id.size())
    sbits, dbits = _thr_val_sizes(src)[1], _thr_val_sizes(dst)[1]
    facts = [
        Fact(f"{name}: thread i is lane i", thr_id.values() == list(range(nthr)), str(thr_id), f"{nthr}:1", blame,
             note="the models are written per lane; a copy atom whose thread i is not lane i is outside them"),
        Fact(f"{name}: threads are the instruction's", nthr == model.lanes, f"{nthr} threads",
             f"{model.lanes} threads", blame),
        Fact(f"{name}: source bits per thread are the instruction's", sbits == model.src_bits, f"{sbits} bits",
             f"{model.src_bits} bits", blame),
        Fact(f"{name}: destination bits per thread are the instruction's", dbits == model.dst_bits, f"{dbits} bits",
             f"{model.dst_bits} bits", blame),
    ]
    if not all(f.holds for f in facts):
        return [f for f in facts if not f.holds]
    lane = Var("lane", model.dst_lanes)
    bit = Var("bit", model.dst_bits)
    s_lane, s_bit = model.source_of(lane, bit)
    s_val = layout_expr(src, (s_lane, s_bit))
    d_val = layout_expr(dst, (lane, bit))
    items: list[Item] = [Claim(Obligation(f"{name}: S(src) = D(dst) on every bit the {model.family} copy routes",
                                          [lane, bit], eq(s_val, d_val), premise=_carries_data(model, bit),
                                          lhs=d_val, rhs=s_val,
                                          shown={"src lane": s_lane, "src bit": s_bit, "D(dst)": d_val,
                                                 "S(src)": s_val}), blame)]
    if typed is None:
        return items
    return items + _routing_in_values(name, typed, model, lane, blame)


def _carries_data(model: CopyModel, dst_bit: Expr) -> Pred:
    """Whether a destination bit carries memory data: unpacking loads pad each byte above its low bits."""
    if model.data_bits_per_byte >= 8:
        return TRUE
    return lt(dst_bit % 8, model.data_bits_per_byte)


def _routing_in_values(name: str, typed: TypedCopyAtom, model: CopyModel, lane: Var, blame: Suspect) -> list[Item]:
    vb, nvd = typed.value_bits, typed.num_val_dst
    if model.element_wise:
        # one value per thread, whatever its width: the unit of the traits is the value
        ok = nvd == 1 and typed.num_val_src == 1
        return [Fact(f"{name}: one {vb}-bit value per thread per application", ok,
                     f"{typed.num_val_src} source / {nvd} destination values", "1 value", blame)]
    if nvd * vb != model.dst_bits:
        return [Fact(f"{name}: {vb}-bit values fill the destination bits", False, f"{nvd} values of {vb} bits",
                     f"{model.dst_bits} bits", blame)]
    v = Var("value", nvd)
    b = Var("value_bit", vb)
    l0, b0 = model.source_of(lane, v * vb)
    lb, bb = model.source_of(lane, v * vb + b)
    whole = and_(eq(b0 % vb, 0), eq(lb, l0), eq(bb, b0 + b))
    sv = layout_expr(typed.src, (l0, b0 // vb))
    dv = layout_expr(typed.dst, (lane, v))
    return [
        Claim(Obligation(f"{name}: each {vb}-bit value moves whole (its bits stay together)", [lane, v, b], whole,
                         premise=_carries_data(model, v * vb + b),
                         shown={"src lane": l0, "src bit": b0}), blame),
        Claim(Obligation(f"{name}: S(src) = D(dst) in {vb}-bit value units", [lane, v], eq(sv, dv),
                         premise=eq(b0 % vb, 0), lhs=dv, rhs=sv,
                         shown={"src lane": l0, "src value": b0 // vb, "D(dst)": dv, "S(src)": sv}), blame),
    ]
