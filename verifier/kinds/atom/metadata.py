"""Theorem 2 of a structured-sparse MMA atom's metadata: CuTe's ELayout (MMA_Traits::ELayout, (thread, value) ->
m + M k in logical elements of A) against the sp-meta fragment of wgmma.mma_async.sp (hardware/wgmma_sparse.py):
every sp-meta bit the instruction reads under the atom's sp-sel is, in CuTe's layout, the value of the row and the
chunk's bit the instruction reads it as (value v holds bits v bits(E) .. of the register; a logical element k of a
row is the row's metadata bits k bits(E) ..).  A tcgen05.mma.sp atom keeps its metadata in tensor memory (no thread
layout): its ValTypeE against the bits the kind's granularity gives a logical element (hardware/umma_sparse.py)."""
from __future__ import annotations

from math import gcd

from ...hardware import umma_sparse as US
from ...hardware import wgmma_sparse as WS
from ...algebra.types import SPARSE_ELEM, type_bits
from ...hardware.registry import Instruction
from ...specfile.model import MMAAtomSpec
from ...symbolic.expr import Var, and_, eq
from ...symbolic.layouts import layout_expr
from ...symbolic.obligation import Obligation
from ...theorems.claims import Claim, Fact, Item
from ...theorems.suspects import Suspects


def sparse_type_of(atom: MMAAtomSpec) -> WS.SparseType | None:
    """The sparse type of the atom's wgmma.mma_async.sp, or None (another instruction, or a shape it lacks)."""
    ins = Instruction.parse(atom.instruction)
    q = ins.qualifiers
    if ins.opcode != "wgmma" or q[:2] != ("mma_async", WS.SPARSE_QUALIFIER) or len(q) < 8:
        return None
    return WS.sparse_type(q[6]) if WS.shape_problem(q[4], q[6]) is None else None


def metadata_matches(atom: MMAAtomSpec, suspects: Suspects) -> list[Item]:
    """The ELayout's items of theorem 2 (an atom with `e:`)."""
    assert atom.e is not None
    e_layout = suspects.mma_layout("E", "MMA_Traits::ELayout, (thr, val) -> m + M k")
    stype = sparse_type_of(atom)
    items: list[Item] = [Fact(f"{atom.name}: an atom with a metadata layout issues wgmma.mma_async.sp",
                              stype is not None, str(atom.instruction), "wgmma.mma_async.sp.sync.aligned."
                              "m64nNk{32,16,64}", suspects.mma_instruction(), subject="E")]
    if stype is None:
        return items
    e_bits = atom.types["e"].bits if "e" in atom.types else stype.bits_per_element
    values = int(atom.e.mode(1).size())
    sel = WS.sp_sel_problem(stype, atom.sp_sel)
    items += [Fact(f"{atom.name} E: ValTypeE is {stype.bits_per_element} bit(s) a logical element of {stype.name} A",
                   e_bits == stype.bits_per_element, f"{e_bits} bits", f"{stype.bits_per_element} bits",
                   suspects.mma_type("e"), subject="E"),
              Fact(f"{atom.name} E: each thread's values fill one 32-bit sp-meta register", values * e_bits ==
                   WS.META_BITS, f"{values} values of {e_bits} bits", f"{WS.META_BITS} bits", e_layout, subject="E"),
              Fact(f"{atom.name}: the sparsity selector is one {stype.name} A allows", sel is None,
                   sel or f"sp-sel {atom.sp_sel}", " or ".join(map(str, stype.sp_sels)),
                   suspects.field("mma", f"the sp_sel of {atom.name} (its GMMA::SparseSel)"), subject="E")]
    if not all(f.holds for f in items if isinstance(f, Fact)):
        return items
    m_atom = atom.shape_mnk[0]
    t, b = Var("thread", int(atom.e.mode(0).size())), Var("bit", WS.META_BITS)
    lane = layout_expr(atom.thr_id, t)
    coord = layout_expr(atom.e, (t, b // e_bits))
    m, k = coord % m_atom, coord // m_atom
    hw = WS.meta_bit(stype, lane, b)
    row_bits = stype.row_bits
    cute_bit = k * e_bits + b % e_bits
    items.append(Claim(Obligation(
        f"{atom.name} E: every sp-meta bit the instruction reads under sp-sel {atom.sp_sel} is CuTe's value of the "
        "row and chunk bit it reads", [t, b], and_(eq(m, hw.row), eq(cute_bit, hw.row_bit())),
        premise=WS.supplies(stype, lane, atom.sp_sel), lhs=m * row_bits + cute_bit, rhs=hw.row * row_bits +
        hw.row_bit(), shown={"m": m, "k": k, "row (wgmma)": hw.row, "chunk (wgmma)": hw.chunk,
                             "nibble bit (wgmma)": hw.nibble_bit},
        note=f"{stype.figure} (inferred: {WS.INFERRED}); the sides are the metadata bit m * {row_bits} + row bit"),
        e_layout, subject="E"))
    return items


def tmem_metadata_type(atom: MMAAtomSpec, suspects: Suspects) -> list[Item]:
    """Theorem 2's items of a tcgen05.mma.sp atom's metadata type (`types: {e: ...}`, MMA_Traits::ValTypeE): the bits a
    logical element of A takes in the metadata, 4 bits a chunk (PTX ISA 9.7.16.10.8.1-.3), compared exactly (the
    mxf4 kinds' half bit an element: sparse_elem<16, uint8_t>); the block-scaled .sp kinds included."""
    kind = US.sparse_kind(atom.instruction) or US.block_scaled_sparse_kind(atom.instruction)
    items: list[Item] = [Fact(f"{atom.name}: an atom with a metadata type issues tcgen05.mma.sp of a kind with "
                              "structured sparsity", kind is not None, str(atom.instruction),
                              "tcgen05.mma.sp.cta_group::N.kind::{tf32,f16,f8f6f4,i8} or "
                              "tcgen05.mma.sp.cta_group::N.kind::{mxf8f6f4,mxf4,mxf4nvf4}.block_scale",
                              suspects.mma_instruction(), subject="E")]
    if kind is None:
        return items
    e_type = atom.types["e"]
    packed = SPARSE_ELEM.match(e_type.name)
    logical, stored_bits = (int(packed.group(1)), type_bits(packed.group(2))) if packed else (1, e_type.bits)
    want = _bits_text(US.NIBBLE_BITS, kind.chunk)
    items.append(Fact(f"{atom.name} E: ValTypeE is {want} bit(s) a logical element of A "
                      f"(.kind::{kind.kind}: {US.NIBBLE_BITS} metadata bits a chunk of {kind.chunk})",
                      US.metadata_density_agrees(kind, logical, stored_bits),
                      f"{e_type.name} ({_bits_text(stored_bits, logical)} bits)", f"{want} bits",
                      suspects.mma_type("e"), note=US.SECTION, subject="E"))
    return items


def _bits_text(bits: int, elements: int) -> str:
    """bits / elements as a whole number or a reduced fraction ("2", "1/2")."""
    whole, rest = divmod(bits, elements)
    if rest == 0:
        return str(whole)
    g = gcd(bits, elements)
    return f"{bits // g}/{elements // g}"
