"""What a compiled C++ kernel's declarations are, read from the types the compiler gave them and the statements
that declare them: each value's kind (a tensor, a TiledMMA, a ThrCopy, ...), a tensor's memory and element type, the
atoms' names as the atom library writes them, and how a declaration derives from another (`thr.partition_S(sA)`,
`local_tile(...)`, `X(_, k)`).  The operand-path reader (kernel_paths.py) and the thread-gemm reader
(thread_gemm.py) read kernels through these."""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from itertools import takewhile

from ..algebra.types import type_bits
from ..hardware.scalar_fma import UNIVERSAL_FMA
from ..hardware.vector_copy import AUTO_VECTORIZING_COPY, ELEMENT_COPY_ALIGNMENT_BITS
from .cpp_types import FIXED_WIDTH_NAMES, TypeNode, TypeSyntaxError, layout_text, swizzle_text
from .instrument import Note

PARTITIONS = ("partition_S", "partition_D", "retile_S", "retile_D", "partition_A", "partition_B", "partition_C",
              "partition_fragment_A", "partition_fragment_B", "partition_fragment_C", "make_fragment_A",
              "make_fragment_B", "make_fragment_C")


SLICES = ("get_slice", "get_thread_slice")


UNIVERSAL_FMA_TYPES = 4                # UniversalFMA<D, A, B, C>


# CuTe's element-wise copies are aliases (cute/arch/copy.hpp: DefaultCopy = AutoVectorizingCopyWithAssumedAlignment<8>,
# AutoVectorizingCopy = ...<128>), and GCC spells the alias's target: the atom library names them by the alias
ELEMENT_COPY_ALIASES = {f"{AUTO_VECTORIZING_COPY}<{bits}>": alias for alias, bits in ELEMENT_COPY_ALIGNMENT_BITS.items()
                        if alias != AUTO_VECTORIZING_COPY}


_METHOD = re.compile(rf"^(?:\w+\s*=\s*)?([A-Za-z_]\w*)\s*\.\s*({'|'.join(PARTITIONS + SLICES)})\s*\((.*)\)$")


_INTEGER = re.compile(r"-?\d+[uUlL]*")     # a template argument GCC spells as an integer


class Kind(str, Enum):
    TENSOR = "tensor"
    TILED_MMA = "tiled_mma"
    THR_MMA = "thr_mma"
    TILED_COPY = "tiled_copy"
    THR_COPY = "thr_copy"
    COPY_ATOM = "copy_atom"
    LAYOUT = "layout"
    OTHER = "other"


class Memory(str, Enum):
    SHARED = "shared"
    GLOBAL = "global"
    REGISTER = "register"
    TENSOR_MEMORY = "tensor memory"
    DESCRIPTOR = "descriptor"
    COORDINATES = "coordinates"
    OTHER = "other"


@dataclass
class Value:
    note: Note
    type_text: str
    node: TypeNode | None
    kind: Kind

    @property
    def name(self) -> str:
        return self.note.name


def _kind(n: TypeNode | None) -> Kind:
    if n is None:
        return Kind.OTHER
    table = {"Tensor": Kind.TENSOR, "TiledMMA": Kind.TILED_MMA, "ThrMMA": Kind.THR_MMA, "TiledCopy": Kind.TILED_COPY,
             "ThrCopy": Kind.THR_COPY, "Copy_Atom": Kind.COPY_ATOM, "Layout": Kind.LAYOUT,
             "ComposedLayout": Kind.LAYOUT}
    return table.get(n.base(), Kind.OTHER)


def _split_args(text: str) -> list[str]:
    from .resolver import split_top
    return split_top(text)


def memory_of(tensor: TypeNode) -> Memory:
    engine = tensor.args[0] if tensor.args else None
    if engine is None:
        return Memory.OTHER
    if engine.is_("ArrayEngine"):
        return Memory.REGISTER
    spelled = engine.text()
    for word, mem in (("smem_ptr", Memory.SHARED), ("gmem_ptr", Memory.GLOBAL), ("tmem_ptr", Memory.TENSOR_MEMORY),
                      ("DescriptorIterator", Memory.DESCRIPTOR), ("ArithmeticTupleIterator", Memory.COORDINATES)):
        if word in spelled:
            return mem
    return Memory.OTHER


def _find(n: TypeNode, base: str) -> TypeNode | None:
    if n.is_(base):
        return n
    for a in n.args:
        f = _find(a, base)
        if f is not None:
            return f
    return None


def element_type(tensor: TypeNode) -> str | None:
    ptr = _find(tensor.args[0], "smem_ptr") if tensor.args else None
    if ptr is None or not ptr.args:
        return None
    elem = ptr.args[0]
    return elem.base().replace(" const", "")


def element_bits(element: str | None) -> int:
    try:
        return type_bits(element or "")
    except (KeyError, ValueError):
        raise TypeSyntaxError(f"an element type whose bits the verifier does not know: {element}") from None


def value_type_spelling(t: TypeNode) -> str:
    """A value type as the atom library writes it: `cutlass::complex<float>` -> complex<float>."""
    inner = "<" + ",".join(value_type_spelling(a) for a in t.args) + ">" if t.templated else ""
    return t.base() + inner


def mma_atom_name(atom: TypeNode) -> tuple[str | None, str, tuple[str, str] | None]:
    """(the atom library's name or None, a reason when None, the operands' majors where the name holds them)."""
    op = atom.args[0] if atom.is_("MMA_Atom") and atom.args else atom
    base = op.base()
    last = base.split("::")[-1]
    if last == UNIVERSAL_FMA:          # UniversalFMA<D, A, B, C>: GCC spells every argument, defaults included
        if len(op.args) != UNIVERSAL_FMA_TYPES:
            return None, f"MMA atom {op.text()[:160]}: not UniversalFMA<D, A, B, C>", None
        return f"{UNIVERSAL_FMA}<{','.join(value_type_spelling(a) for a in op.args)}>", "", None
    if base.startswith("SM90::GMMA::MMA_") and last.endswith("_TN"):   # K-major only: no majors to name
        return f"SM90_{last[len('MMA_'):]}", "", ("K", "K")
    if base.startswith("SM90::GMMA::MMA_") and len(op.args) >= 2:
        ma, mb = (a.base().split("::")[-1] for a in op.args[:2])
        name = f"SM90_{last[len('MMA_'):]}<GMMA::Major::{ma},GMMA::Major::{mb}>"
        return name, "", (ma, mb)
    if last.startswith("SM100_MMA_") and len(op.args) >= 5:
        # <A, B, C[, SF], M, N[, VS], major A, major B, ...>: the element types (a block-scaled atom's scale-factor
        # type fourth), then its integers (M, N, a block-scaled MXF4 atom's vector size), then the majors
        types = list(takewhile(lambda a: not _INTEGER.fullmatch(a.name), op.args))
        sizes = list(takewhile(lambda a: _INTEGER.fullmatch(a.name) is not None, op.args[len(types):]))
        if len(sizes) < 2:
            return None, f"MMA atom {op.text()[:160]}: no M and N among its arguments", None
        majors_nodes = [a.base().split("::")[-1] for a in op.args[len(types) + len(sizes):][:2]]
        umma_majors = (majors_nodes[0], majors_nodes[1]) if len(majors_nodes) == 2 else None
        named = ",".join([a.base().split("::")[-1] for a in types] + [a.name for a in sizes])
        return f"{last}<{named}>", "", umma_majors
    if op.templated:
        return None, f"MMA atom {op.text()[:160]}: no name in the atom library's spelling", None
    return last, "", None


def copy_atom_name(atom: TypeNode) -> tuple[str, str | None]:
    """Copy_Atom<Op, T> -> (Op's name, T)."""
    op = atom.args[0] if atom.args else atom
    value = atom.args[1].base() if len(atom.args) > 1 else None
    name = op.base().split("::")[-1]
    if op.templated and op.args and not name.startswith("Copy_Traits"):
        args = [FIXED_WIDTH_NAMES.get(a.base(), a.base().split("::")[-1]) for a in op.args]
        if len(args) == 2 and args[0] == args[1]:
            args = args[:1]            # `Op<S, D = S>` (cp.async, UniversalCopy) as the compiler spells the default
        name += "<" + ",".join(args) + ">"
    return ELEMENT_COPY_ALIASES.get(name, name), value


def _operand_name(expr: str) -> str | None:
    """The tensor an argument names: `tXsA(_,_,k)` -> tXsA, `tma.with(bar)` -> tma, `group_modes<0,2>(sA)` -> sA."""
    e = expr.strip()
    m = re.match(r"^(?:cute\s*::\s*)?(?:group_modes|as_position_independent_swizzle_tensor|recast|coalesce|flatten|"
                 r"filter_zeros|make_tensor_like|tensor)\s*(?:<[^()]*>)?\s*\((.*)\)$", e)
    if m is not None:
        inner = _split_args(m.group(1))
        return _operand_name(inner[0]) if inner else None
    m = re.match(r"^([A-Za-z_]\w*)\s*(?:\(.*\)|\.\s*with\s*\(.*\))?$", e)
    return m.group(1) if m else None


@dataclass
class Derivation:
    op: str                # a partition / slice method, "view", or "" for a root
    by: str | None         # the object whose method it is (a ThrCopy, ThrMMA, TiledCopy, TiledMMA)
    of: str | None         # the tensor it is made from
    args: tuple[str, ...] = ()   # a method's arguments as written (get_slice's thread coordinate)


def _initializer(v: Value) -> str:
    """What `v`'s declaring statement initializes it with (`tma_a.get_tma_tensor(...)` of `Tensor mA = ...`)."""
    stmt = v.note.statement
    return re.sub(rf"^.*?\b{re.escape(v.name)}\s*=\s*", "", stmt, count=1).strip() if "=" in stmt else ""


def derivation(v: Value) -> Derivation:
    init = _initializer(v)
    m = _METHOD.match(init)
    if m is not None:
        args = _split_args(m.group(3))
        return Derivation(m.group(2), m.group(1), _operand_name(args[0]) if args else None,
                          tuple(a.strip() for a in args))
    m = re.match(r"^(?:cute\s*::\s*)?(as_position_independent_swizzle_tensor|local_tile|local_partition|"
                 r"group_modes|flat_divide|zipped_divide|logical_divide|coalesce|recast)\s*(?:<[^()]*>)?\s*\((.*)\)$",
                 init)
    if m is not None:
        args = _split_args(m.group(2))
        return Derivation("view", None, _operand_name(args[0]) if args else None)
    m = re.match(r"^([A-Za-z_]\w*)\s*\((.*)\)$", init)
    if m is not None:                      # `X(_,_,k)`: a slice of X when X is a tensor (the caller knows)
        return Derivation("index", None, m.group(1))
    return Derivation("", None, None)


def tensor_layout_text(tensor: TypeNode) -> str:
    """A shared tensor's layout as the spec writes it: a swizzled pointer's swizzle in CuTe's GMMA form (it acts on
    byte addresses), a composed layout's on element offsets."""
    if len(tensor.args) != 2:
        raise TypeSyntaxError(f"a Tensor type without its engine and layout: {tensor.text()[:120]}")
    engine, layout = tensor.args[0], tensor.args[1]
    text = layout_text(layout)
    sw_ptr = _find(engine, "swizzle_ptr")
    if sw_ptr is not None:
        bits = element_bits(element_type(tensor))
        return f"{swizzle_text(sw_ptr.args[0])} o smem_ptr[{bits}b](unset) o {text}"
    return text
