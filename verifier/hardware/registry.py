"""From an instruction string (as CUTLASS's asm writes it, or in the PTX ISA's qualifier order) to its model.

`ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];` and
`ldmatrix.sync.aligned.m8n8.x4.shared.b16` name the same instruction: operands are dropped and the
qualifiers are compared as a set.
"""
from __future__ import annotations

import dataclasses
import re

from .base import CopyModel, MMAModel
from .matrix_copy import ldmatrix, movmatrix, stmatrix
from .mma_sm70 import m8n8k4_model
from .mma_sync import mma_model
from .vector_copy import element_copy, vector_copy

_UNIVERSAL = re.compile(r"^UniversalCopy<\s*(?:cute::|cutlass::)?(u?int(\d+)_t|uint128_t|[A-Za-z_0-9:]+)\s*>$")
_AUTO_VECTORIZING = re.compile(r"^(?:cute::)?AutoVectorizingCopyWithAssumedAlignment<\s*(\d+)\s*>$")
# CuTe's aliases: DefaultCopy assumes 8 bits of alignment, AutoVectorizingCopy 128; the template written without
# arguments (as import-cutlass names it: its layouts do not depend on MaxVecBits) is its default, <128>
_ELEMENT_COPY_ALIGNMENT_BITS = {"DefaultCopy": 8, "AutoVectorizingCopy": 128,
                                "AutoVectorizingCopyWithAssumedAlignment": 128}


def qualifiers(instruction: str) -> tuple[str, list[str]]:
    """('ldmatrix', ['sync', 'aligned', 'x4', ...]) with operands and the trailing ';' removed."""
    text = instruction.strip()
    text = re.split(r"[\s{\[;]", text, maxsplit=1)[0]
    parts = [p for p in text.split(".") if p]
    if not parts:
        return "", []
    return parts[0].lower(), [p.lower() for p in parts[1:]]


def element_copy_alignment(instruction: str | None, name: str = "") -> int | None:
    """Assumed alignment in bits of DefaultCopy / AutoVectorizingCopy[WithAssumedAlignment<N>], else None."""
    for text in ((instruction or "").strip(), name.strip()):
        word = text[len("cute::"):] if text.startswith("cute::") else text
        if word in _ELEMENT_COPY_ALIGNMENT_BITS:
            return _ELEMENT_COPY_ALIGNMENT_BITS[word]
        m = _AUTO_VECTORIZING.match(text)
        if m and int(m.group(1)) > 0:
            return int(m.group(1))
    return None


def copy_model(instruction: str | None, name: str = "", bits_per_thread: int | None = None,
               value_bits: int | None = None) -> CopyModel | None:
    """The model of a copy atom's instruction, or None when it is not modelled.  `value_bits` (the copy's
    value type) is needed by the element-wise copies, whose unit is one value."""
    text = (instruction or "").strip()
    alignment = element_copy_alignment(instruction, name)
    if alignment is not None:
        if value_bits is None:
            return None
        return element_copy(alignment, value_bits, text or name)
    m = _UNIVERSAL.match(text) or _UNIVERSAL.match(name.strip())
    if m:
        from ..algebra.types import type_bits
        try:
            bits = type_bits(m.group(1))
        except KeyError:
            return None
        return vector_copy(bits, f"UniversalCopy<{m.group(1)}>")
    op, q = qualifiers(text)
    qs = set(q)
    if op in ("ldmatrix", "stmatrix"):
        from . import matrix_copy_sm100 as sm100
        nums = [x for x in q if re.fullmatch(r"x[124]", x)]
        if not {"sync", "aligned"} <= qs or len(nums) != 1:
            return None
        num, trans = int(nums[0][1]), "trans" in qs
        shape_and_format = qs - {"sync", "aligned", "trans", "shared", "shared::cta", nums[0]}
        if shape_and_format == {"m8n8", "b16"}:
            return ldmatrix(num, trans) if op == "ldmatrix" else stmatrix(num, trans)
        if op == "stmatrix" and shape_and_format == {"m16n8", "b8"}:
            model = sm100.stmatrix_m16n8(num)
            return model if trans else dataclasses.replace(model, invalid=".m16n8 requires .trans")
        unpack = sorted(shape_and_format & set(sm100.UNPACK_ELEMENT_BITS))
        if op != "ldmatrix" or len(unpack) > 1:
            return None
        src_fmt = unpack[0] if unpack else ""
        element_format = {"b8x16", src_fmt} if src_fmt else {"b8"}
        if shape_and_format == {"m16n16"} | element_format:
            atom = name.strip().removeprefix("cute::")
            if not src_fmt and atom in sm100.CUTE_REGROUPED_LDSM_T:
                model = sm100.cute_regrouped_ldmatrix_m16n16(num)
            else:
                model = sm100.ldmatrix_m16n16(num, src_fmt)
            return model if trans else dataclasses.replace(model, invalid=".m16n16 requires .trans")
        if shape_and_format == {"m8n16"} | element_format and src_fmt:
            model = sm100.ldmatrix_m8n16(num, src_fmt)
            return dataclasses.replace(model, invalid=".m8n16 has no .trans") if trans else model
        return None
    if op == "movmatrix":
        if qs == {"sync", "aligned", "m8n8", "trans", "b16"}:
            return movmatrix()
        return None
    if op == "cp" and q[:1] == ["async"]:
        if bits_per_thread is None:
            return None
        model = vector_copy(bits_per_thread, f"cp.async.{'.'.join(q[1:])} ({bits_per_thread // 8} bytes)",
                            direction="memory")
        # PTX ISA cp.async: cp-size is 4, 8 or 16 bytes, and .cg allows 16 only
        if bits_per_thread not in (32, 64, 128):
            return dataclasses.replace(model, invalid=f"cp.async moves 4, 8 or 16 bytes, not {bits_per_thread // 8}")
        if "cg" in q and bits_per_thread != 128:
            return dataclasses.replace(model, invalid=f"cp.async.cg moves 16 bytes only, not {bits_per_thread // 8}")
        return model
    if op == "tcgen05":
        from .tmem_copy import parse_form, tmem_copy
        form = parse_form(op, q)
        return tmem_copy(form) if form is not None else None
    return None


def _a_in_registers(instruction: str, atom_name: str) -> bool:
    """wgmma's A comes from registers (RS) or a descriptor (SS): a second {...} operand list says RS;
    without operands, CUTLASS's atom name says it (..._RS<...> / ..._SS<...>)."""
    operands = instruction.split(None, 1)[1] if len(instruction.split(None, 1)) > 1 else ""
    if operands:
        return operands.count("{") >= 2
    return "_RS" in atom_name


def mma_instruction_model(instruction: str | None, atom_name: str = "",
                          shape_mnk: tuple[int, int, int] | None = None,
                          value_types: dict[str, tuple[str, int]] | None = None) -> MMAModel | None:
    """The model of an MMA atom's instruction.  tcgen05.mma carries its M and N in the instruction descriptor,
    not in its text: its model needs the atom's `shape_mnk` (and `value_types`, {a, b, c, d} -> (CuTe name,
    bits), for the descriptor's types)."""
    op, q = qualifiers(instruction or "")
    if op == "wgmma" and q[:3] == ["mma_async", "sync", "aligned"] and len(q) >= 7:
        from .wgmma import wgmma_model
        dtype, atype, btype = q[4:7]
        return wgmma_model(q[3], dtype, atype, btype, _a_in_registers(instruction or "", atom_name))
    if op == "tcgen05":
        from .umma import tcgen05_model
        return tcgen05_model(q, atom_name, shape_mnk, value_types)
    if op in ("dp4a", "dp2a"):
        from .dot_product import dot_product_model
        return dot_product_model(op, tuple(q))
    if op != "mma" or q[:2] != ["sync", "aligned"]:
        return None
    layouts = [x for x in q[2:] if x in ("row", "col")]
    rest = [x for x in q[2:] if x not in ("row", "col", "satfinite")]
    if not rest or not re.fullmatch(r"m\d+n\d+k\d+", rest[0]):
        return None
    shape, types = rest[0], rest[1:]
    bitop = ""
    if len(types) == 6 and types[5] == "popc" and types[4] in ("and", "xor"):   # .b1 ... .and.popc / .xor.popc
        bitop, types = types[4], types[:4]
    if len(types) != 4:
        return None
    dtype, atype, btype, ctype = types
    if shape == "m8n8k4" and atype == "f16":   # SM70's quad-pair form: .row/.col matter
        if len(layouts) != 2 or btype != "f16":
            return None
        return m8n8k4_model(layouts[0], layouts[1], dtype, ctype)
    return mma_model(shape, dtype, atype, btype, ctype, bitop)


def mma_instruction_types(instruction: str | None) -> dict[str, str] | None:
    """The PTX type qualifiers of an MMA instruction's operands {a, b, c, d}, or None when not an mma/wgmma/
    tcgen05.mma.  tcgen05.mma's types are in its instruction descriptor: those its .kind allows, '|'-joined."""
    op, q = qualifiers(instruction or "")
    if op == "wgmma" and q[:3] == ["mma_async", "sync", "aligned"] and len(q) >= 7:
        dtype, atype, btype = q[4:7]
        return {"a": atype, "b": btype, "c": dtype, "d": dtype}
    if op == "tcgen05":
        from .umma import parse_form as umma_form, umma_types
        form = umma_form(q)
        return umma_types(form[1]) if form is not None else None
    if op in ("dp4a", "dp2a"):
        from .dot_product import dot_product_types
        return dot_product_types(op, tuple(q))
    if op != "mma" or q[:2] != ["sync", "aligned"]:
        return None
    rest = [x for x in q[2:] if x not in ("row", "col", "satfinite")]
    if not rest or not re.fullmatch(r"m\d+n\d+k\d+", rest[0]):
        return None
    types = rest[1:]
    if len(types) == 6 and types[5] == "popc":
        types = types[:4]
    if len(types) != 4:
        return None
    dtype, atype, btype, ctype = types
    return {"a": atype, "b": btype, "c": ctype, "d": dtype}
