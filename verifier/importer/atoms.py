"""An instantiated MMA_Traits / Copy_Traits read into an atom record, checked the way CuTe and the spec
loader would check it; anything CuTe would not accept becomes the definition's error."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from ..algebra.cpp_syntax import TypeName, type_text
from ..algebra.inttuple import AlgebraError, is_int, is_tuple
from ..algebra.layout import Layout
from ..algebra.types import type_bits
from ..cute.copy import CopyAtom
from ..hardware.registry import mma_instruction_model
from .instantiate import Instance, condition_holds
from .resolver import Resolver, ResolveError, TraitView, normalize

MAX_ELEMENTS = 1 << 24          # the spec loader's bound on a layout's size

# asm statements that set up operands rather than being the instruction (wgmma's `setp.ne.b32 p, ...`)
_SETUP = {"setp", "mov", "cvt", "selp", "and", "or", "xor", "not", "shl", "shr", "add", "sub", "mul"}


@dataclass
class MMARecord:
    name: str
    instruction: str | None
    shape_mnk: tuple[int, int, int]
    thr_id: Layout
    types: dict[str, str | int]        # a, b, c, d (and sf, a block-scaled MMA's) -> CuTe type name, or a bit width
    a: Layout
    b: Layout
    c: Layout
    header: str
    line: int
    note: str | None = None
    refused: str | None = None         # set when the Op refuses this instance: its check expects a failure
    e: Layout | None = None            # a structured-sparse MMA's ELayout (its metadata), with types["e"]
    sp_sel: int = 0                    # ... and the Op's sparsity selector (GMMA::SparseSel)
    unsettled: str = ""                # why the instruction's model neither proves nor refutes this form (its check
                                       # expects `unsupported`): the PTX ISA text and CUTLASS disagree


@dataclass
class CopyRecord:
    name: str
    instruction: str
    thr_id: Layout
    src: Layout
    dst: Layout
    ref: Layout
    ref_is: str                        # "src" | "dst" | "layout"
    value_type: str | None             # the check's value type; None when CuTe refuses the usual one
    header: str
    line: int
    note: str | None = None
    refused: str | None = None         # set when the Op refuses this instance: its check expects a failure


def family(header: str) -> str:
    """mma_traits_sm80.hpp and copy_traits_sm80.hpp -> "sm80"; mma_traits.hpp -> "generic"."""
    stem = PurePosixPath(header).stem
    rest = re.sub(r"^(mma|copy)_traits_?", "", stem)
    return rest or "generic"


def instruction_of(asm: str) -> str | None:
    """The instruction of an asm block, without operands: `mma.sync.aligned.m16n8k16.row.col.f16...`."""
    statements = []
    for s in re.split(r"[;\n]", asm):
        s = s.strip().lstrip("{}").strip()
        s = re.sub(r"^@!?\w+\s+", "", s)             # a guard predicate
        if s and not s.startswith((".", "}", "//")):
            statements.append(re.split(r"[\s{\[]", s, maxsplit=1)[0])   # operands may follow without a space
    for op in statements:
        if op.split(".")[0] not in _SETUP:
            return op
    return statements[0] if statements else None


def _layout(view: TraitView, member: str) -> Layout:
    value = view.get(member)
    if not isinstance(value, Layout):
        raise ResolveError(f"{member} is {_what(value)}, not a layout")
    if int(value.size()) > MAX_ELEMENTS:
        raise ResolveError(f"{member} has {int(value.size())} elements, more than the 2**24 a spec allows")
    return value


def _what(value: Any) -> str:
    if isinstance(value, TypeName):
        return f"the unknown name {type_text(value)}"
    return f"{type(value).__name__} {value}"


def _tv(view: TraitView, member: str, threads: int) -> Layout:
    """A (thread, value) layout whose thread mode has as many threads as ThrID."""
    layout = _layout(view, member)
    if layout.rank() != 2:
        raise ResolveError(f"{member} {layout.plain()} is not a (thread, value) layout of rank 2")
    got = int(layout.mode(0).size())
    if got != threads:
        raise ResolveError(f"{member} {layout.plain()} has {got} threads, ThrID has {threads}")
    return layout


def value_type_name(value: Any) -> str | int:
    """A value type as a spec writes it: CuTe's name without namespaces, or a bit width for a struct."""
    bits = getattr(value, "bits", None)
    if isinstance(bits, int):
        return bits
    if not isinstance(value, TypeName):
        raise ResolveError(f"{_what(value)} is not a value type")
    text = re.sub(r"\b(?:cutlass|cute|std|detail)::", "", type_text(value))
    try:
        type_bits(text)
    except (KeyError, ValueError):
        raise ResolveError(f"unknown value type {type_text(value)}") from None
    return text


def _shape(view: TraitView) -> tuple[int, int, int]:
    value = view.get("Shape_MNK")
    if not (is_tuple(value) and len(value) == 3 and all(is_int(x) for x in value)):
        raise ResolveError(f"Shape_MNK is {_what(value)}, not Shape<M,N,K>")
    return int(value[0]), int(value[1]), int(value[2])


def _instruction(inst: Instance, resolver: Resolver) -> str | None:
    """The instruction of the Op's first asm statement whose `if constexpr` branch the instance takes
    (SM100_MMA_MXF4_SS: VS == 16 issues kind::mxf4nvf4, VS == 32 kind::mxf4); a condition that cannot be decided
    does not exclude it.  An Op whose asm is in its explicit specialisations (SM120_16x8x32_TN<float_e2m1_t, ...>)
    issues that of the specialisation the instance's arguments name."""
    struct = resolver.arch_specialization(inst.op, inst.targs) or resolver.arch_struct(inst.op)
    if struct is None or not struct.asm:
        return None
    guards = struct.asm_when or [""] * len(struct.asm)
    for (text, _), when in zip(struct.asm, guards):
        if not when or condition_holds(when, inst.op_bindings) is not False:
            return instruction_of(text)
    return None


def read_mma(inst: Instance, resolver: Resolver) -> MMARecord:
    view = TraitView(resolver, inst.decl, inst.bindings)
    types = {k: value_type_name(view.get(f"ValType{k.upper()}")) for k in ("a", "b", "c", "d")}
    if view.has("ValTypeSFA"):      # block scaling: one scale factor type for A and B (spec format's `sf`)
        sfa, sfb = value_type_name(view.get("ValTypeSFA")), value_type_name(view.get("ValTypeSFB"))
        if sfa != sfb:
            raise ResolveError(f"ValTypeSFA {sfa} and ValTypeSFB {sfb} differ: a spec's atom has one scale factor type")
        types["sf"] = sfa
    shape = _shape(view)
    thr_id = _layout(view, "ThrID")
    threads = int(thr_id.size())
    a, b, c = (_tv(view, f"{x}Layout", threads) for x in "ABC")
    instruction = _instruction(inst, resolver)
    if instruction is None and mma_instruction_model(None, inst.name) is not None:
        instruction = inst.name         # an Op in C++ the verifier models as written (UniversalFMA<D,A,B,C>)
    record = MMARecord(inst.name, instruction, shape, thr_id, types, a, b, c,
                       inst.decl.header, inst.decl.line, inst.note, inst.refused)
    if view.has("ELayout"):             # a structured-sparse MMA: its metadata operand
        record.e = _tv(view, "ELayout", threads)
        record.types["e"] = value_type_name(view.get("ValTypeE"))
        record.types["a"] = _stored(record.types["a"])
        record.sp_sel = _sparse_selector(inst)
    elif view.has("ValTypeE"):          # tcgen05.mma.sp: the metadata in tensor memory, no thread layout of it
        record.types["e"] = value_type_name(view.get("ValTypeE"))
        record.types["a"] = _stored(record.types["a"], inst.bindings.get("a_type"))
    model = mma_instruction_model(instruction, inst.name, shape, _bits_of(record.types)) if instruction else None
    record.unsettled = model.unsettled if model is not None else ""
    return record


def _bits_of(types: dict[str, str | int]) -> dict[str, tuple[str, int]]:
    """{a, b, ...} -> (CuTe name, bits) as the models take them (a bare bit width named by its width)."""
    return {k: (str(v), v) if isinstance(v, int) else (v, type_bits(v)) for k, v in types.items()
            if isinstance(v, int) or _known(v)}


def _known(name: str) -> bool:
    try:
        type_bits(name)
    except (KeyError, ValueError):
        return False
    return True


_SPARSE_ELEM_PARTS = re.compile(r"^sparse_elem<\s*(\d+)\s*,\s*(.+?)\s*>$")
PACKED_CONTAINER = "uint8_t"     # a stored byte that packs narrower elements
SPARSE_KEPT_OF_LOGICAL = 2       # 2:4 and 4:8 (in pairs) sparsity: half the logical elements are stored
SPARSE_SELECTORS = {"Zero": 0, "One": 1}     # GMMA::SparseSel


def _stored(name: str | int, a_type: Any = None) -> str | int:
    """A sparse A's type as a spec names it: the element stored (sparse_elem<S, T> is T, S logical elements).  A byte
    container of packed elements (the mxf4 kinds' sparse_elem<4, uint8_t>: two stored e2m1, four logical elements, of
    the Op's a_type float_e2m1_t) is named by the Op's a_type, whose elements it packs: the type the instruction
    descriptor is given (make_instr_desc_block_scaled<a_type, ...>) and the PTX type theorem 11 compares."""
    m = _SPARSE_ELEM_PARTS.match(name) if isinstance(name, str) else None
    if not m:
        return name
    logical, stored = int(m.group(1)), m.group(2)
    if stored == PACKED_CONTAINER and isinstance(a_type, TypeName):
        element = value_type_name(a_type)
        if isinstance(element, str) and type_bits(element) * logical // SPARSE_KEPT_OF_LOGICAL == type_bits(stored):
            return element
    return stored


def _sparse_selector(inst: Instance) -> int:
    """The Op's sparsity selector (its `spsel` parameter; CuTe's default GMMA::SparseSel::Zero)."""
    value = str(inst.op_bindings.get("spsel", "Zero"))
    return next((v for word, v in SPARSE_SELECTORS.items() if value.endswith(word)), 0)


def read_copy(inst: Instance, resolver: Resolver) -> tuple[CopyRecord, str | None]:
    """The copy atom, and a note when its check has no value type CuTe accepts."""
    view = TraitView(resolver, inst.decl, inst.bindings)
    thr_id = _layout(view, "ThrID")
    threads = int(thr_id.size())
    src, dst, ref = (_tv(view, m, threads) for m in ("SrcLayout", "DstLayout", "RefLayout"))
    origin = view.origin("RefLayout")
    said = normalize(origin[0].value) if origin else ""
    ref_is = {"SrcLayout": "src", "DstLayout": "dst"}.get(said) or \
        ("dst" if ref == dst else "src" if ref == src else "layout")
    instruction = _instruction(inst, resolver) or inst.name
    record = CopyRecord(inst.name, instruction, thr_id, src, dst, ref, ref_is, None, inst.decl.header,
                        inst.decl.line, inst.note, inst.refused)
    vt = _usual_value_type(inst, instruction, src)
    if vt is None:
        return record, "no check: no value type this copy is commonly used with could be chosen"
    try:
        CopyAtom(inst.name, thr_id, src, dst, ref, instruction).with_value_bits(type_bits(vt))
    except AlgebraError as e:
        return record, f"no check: CuTe refuses Copy_Atom<{inst.name}, {vt}>: {e}"
    record.value_type = vt
    return record, None


def _usual_value_type(inst: Instance, instruction: str, src: Layout) -> str | None:
    """half_t for the b16 matrix instructions, else the width the Op moves (its type, name or layout)."""
    quals = instruction.split(".")
    if "b16" in quals:
        return "half_t"
    for n in (8, 32, 64, 128):
        if f"b{n}" in quals:
            return f"uint{n}_t"
    for value in inst.bindings.values():
        if isinstance(value, TypeName) and "::" not in str(value):
            try:
                type_bits(type_text(value))
                return re.sub(r"\b(?:cutlass|cute|std)::", "", type_text(value))
            except (KeyError, ValueError):
                pass
    m = re.search(r"(?:_|_D)U(8|16|32|64|128)(?:x|_|$)", inst.name)     # SM50_Shuffle_U32, SU4_DU8x16
    if m:
        return f"uint{m.group(1)}_t"
    bits = int(src.mode(1).size())
    if bits in (8, 16, 32, 64, 128):
        return f"uint{bits}_t"
    return "uint8_t" if bits < 8 else None
