"""The smem_mma kind's configuration: a wgmma or tcgen05.mma operand (A or B) read from shared memory through a
descriptor and its shared tile (`smem`, with its stages), filled either by TMA (`copy: SM90_TMA_LOAD`) from the
global tensor `gmem`, or by the threads through the tile's own layout (a cp.async or vectorized copy atom,
`partition_D` of the tile: the copy writes element (mn, k) where the layout says); optionally the major-ness, the
buffer's alignment, descriptor fields and (TMA) a box overriding CuTe's."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ...algebra import ComposedLayout, SmemPtrFlag
from ...algebra.inttuple import flatten_to_tuple
from ...cute.operand import Operand
from ...echo import quote
from ...hardware.tma import TmaSwizzle
from ...specfile.fields import Fields, is_int, read_choice, read_smem, read_value_type, refuse_keys, show
from ...specfile.model import (TMA_COPIES, UMMA_INSTRUCTION, CheckKind, CheckSpec, Loc, MMAAtomSpec, SpecError,
                               ValueType, common_fields)
from ..conversion import CONVERSION_KEY, read_lookup_table
from ...specfile.vocabulary import (DESCRIPTOR_INSTRUCTIONS, DESCRIPTOR_KEYS, DESCRIPTOR_SWIZZLES, MAJORS,
                                    MAX_GLOBAL_ELEMENTS, TMA_TENSORS_KEYS)

# keys a descriptor check does not read (smem_type: only a TMA check of a register-sourced A reads it)
NOT_READ_BY_TMA_CHECKS = ("copy_for", "copy_mma", "permutation", "banks", "reduction", "smem_partition")
# what only a TMA copy reads: the global tensor, the box, the swizzle
TMA_ONLY_KEYS = ("gmem", "tma_box", "tma_swizzle", "tma_tensors")
TMA_TENSORS = "tma_tensors"          # the host tensors the TMA atom's map and its partition's tiles are made from
MAX_SMEM_ALIGN = 1 << 20
DESCRIPTOR_FIELD_LIMIT = 1 << 18     # every descriptor field override lies in [0, 2^18)
BASE_OFFSETS = 8                     # the descriptor's base offset is 3 bits
WGMMA_PREFIX = "wgmma."              # the instruction whose RS form takes A from registers


@dataclass(kw_only=True)
class SmemMmaCheck(CheckSpec):
    """A descriptor-read MMA operand and the copy that fills its shared tile (theorems 1, 2, 9, 11-16 for TMA; 1, 2,
    9, 11, 12, 15 for a copy through the tile's layout; 1, 2, 9, 11-14 for TMA into a wgmma RS atom's A, which the
    threads load into registers)."""
    kind: ClassVar[str] = CheckKind.GMMA
    mma: str
    copy: str
    operand: str                         # "A" | "B"
    value_type: ValueType
    smem: Any                            # Layout | ComposedLayout: (MN, K[, PIPE]) -> element offset
    gmem: Any = None                     # the global (MN, K) tensor the TMA copy reads: Layout, elements (TMA only)
    major: str | None = None             # the operand's major-ness when the atom's name does not say: K | MN
    smem_absolute: bool = False          # the smem swizzle reads absolute addresses (a GMMA smem_ptr layout)
    smem_unit_bits: int | None = None    # the bits of the layout's elements when it names them (smem_ptr[Nb])
    smem_align: int | None = None        # bytes the smem buffer is aligned to (default: the swizzle's repeat)
    descriptor: dict[str, int] = field(default_factory=dict)   # descriptor fields overriding make_gmma_desc's
    tma_box: tuple[int, int] | None = None                     # a box overriding make_tma_copy's
    tma_swizzle: TmaSwizzle | None = None                      # the tensor map's swizzle overriding make_tma_copy's
    # the global tensors (an importer's names for them) the TMA atom's tensor map and its partition's tiles are made
    # from: (map_of, tiles_of), which must be one tensor (theorem 14)
    tma_tensors: tuple[str, str] | None = None
    # operand A of a wgmma RS atom: TMA fills the tile the threads then load into registers (a tiled check of the
    # same tile proves that load); no descriptor reads it, so theorems 15 and 16 do not apply
    register_sourced: bool = False
    smem_type: ValueType | None = None   # the tile's type: a register-sourced A's, converted in registers to the
                                         # MMA's; an operand read through the descriptor's, read as the MMA's type
    lookup_table: bool = False           # `conversion: lookup_table`: ... by CUTLASS's lookup tables (ScaleOnly)

    @property
    def by_tma(self) -> bool:
        """TMA fills the tile (box by box, through a tensor map); otherwise the threads write it through its layout."""
        return self.copy in TMA_COPIES

    def summary(self) -> str:
        source = f"from gmem {self.gmem}" if self.by_tma else f"written through its layout by {self.copy}"
        return f"{super().summary()} smem {self.smem} {source}"


def reads_smem_mma_check(fields: Fields, mma: MMAAtomSpec | None) -> bool:
    """A check naming an MMA atom whose operand TMA copies into shared memory, or a descriptor-read operand (B, or
    A of an SS atom) with the copy that fills its tile: no register fragment of it exists for a tiled check."""
    if mma is None or not fields.has("copy"):
        return False
    if fields.m["copy"] in TMA_COPIES:
        return True
    operand = str(fields.m.get("operand", "")).strip().upper()
    return (_reads_through_descriptor(mma) and operand in ("A", "B")
            and not (operand == "A" and _a_not_shared(mma)))


def _reads_through_descriptor(mma: MMAAtomSpec) -> bool:
    return (mma.instruction or "").strip().startswith(DESCRIPTOR_INSTRUCTIONS)


def _sparse_a(mma: MMAAtomSpec) -> bool:
    """The atom's A is structured-sparse (wgmma.mma_async.sp): its shared layout is CuTe's logical one."""
    from .arch import architecture
    return architecture(mma).sparsity(mma, Operand.A) > 1


def _a_not_shared(mma: MMAAtomSpec) -> bool:
    """The atom takes A from registers (a wgmma RS atom) or tensor memory (a tcgen05 _TS atom)."""
    if (mma.instruction or "").strip().startswith(UMMA_INSTRUCTION):
        from ...hardware.umma import a_in_tmem   # tcgen05: A's "thread" mode is the CTA of a 2-SM pair
        return a_in_tmem(mma.name)
    thread_strides = flatten_to_tuple(mma.a.mode(0).stride) if mma.a.rank() > 1 else (1,)
    return any(int(d) != 0 for d in thread_strides)


def read_smem_mma_check(fields: Fields, named: CheckSpec, mma: MMAAtomSpec) -> SmemMmaCheck:
    """The configuration, validated: operand A or B of an SS atom, its tile, the global tensor, the overrides."""
    what = fields.what
    if not _reads_through_descriptor(mma):
        raise SpecError(fields.at("mma"), f"{what}: a TMA check needs a wgmma or tcgen05.mma MMA atom; "
                                          f"{quote(mma.name)} issues {quote(mma.instruction or 'no instruction')}")
    by_tma = named.copy in TMA_COPIES
    for k in ("operand", "smem") + (("gmem",) if by_tma else ()):
        if not fields.has(k):
            raise SpecError(fields.loc, f"{what} copies with TMA and so needs '{k}'" if by_tma else
                            f"{what} fills the shared operand of {quote(mma.name)} and so needs '{k}'")
    if not by_tma:
        refuse_keys(fields, TMA_ONLY_KEYS, f"is only read when the copy is {' or '.join(TMA_COPIES)} (the threads "
                                           f"write this tile through its layout with {quote(str(named.copy))})")
    if named.operand not in ("A", "B"):
        raise SpecError(fields.at("operand"), f"'operand' of {what} must be A or B: TMA fills the shared-memory "
                                              "operands of wgmma")
    refuse_keys(fields, NOT_READ_BY_TMA_CHECKS, "is not used by TMA checks" if by_tma
                else "is not used by checks of an operand read through a descriptor")
    register_sourced = named.operand == "A" and _a_not_shared(mma)
    if register_sourced and not (by_tma and (mma.instruction or "").strip().startswith(WGMMA_PREFIX)):
        raise SpecError(fields.at("operand"), f"{what}: {quote(mma.name)} takes A from registers or tensor memory "
                                              "(an RS / TS atom); no descriptor reads a shared A: a TMA check of a "
                                              "wgmma RS atom's A proves the TMA into the tile its registers load "
                                              "(theorems 9, 12-14), any other check of it needs an SS atom")
    assert named.value_type is not None
    raw = fields.layout("smem", swizzle_ok=True)
    unit_bits = raw.offset.bits if isinstance(raw, ComposedLayout) and isinstance(raw.offset, SmemPtrFlag) else None
    sparse = named.operand == "A" and _sparse_a(mma)
    # a structured-sparse A's layout is in logical units (CuTe's _SpAtom: bits(T) / S); setup.py judges the units
    # the tile's elements: the copy's, or, where a TMA copy moves elements of another width than the tile holds
    # (smem_type, the width the swizzled layout is written for: an int8 tensor's atom filling a half tile; theorem
    # 12 refutes it), the tile's own
    held = read_value_type(fields.m["smem_type"], fields.at("smem_type"), f"'smem_type' of {what}") \
        if by_tma and not register_sourced and fields.has("smem_type") else None
    unit = held if held is not None and held.bits == unit_bits != named.value_type.bits else named.value_type
    smem = read_smem(fields, ValueType(named.value_type.name, unit_bits) if sparse and unit_bits else unit)
    if smem.rank() not in (2, 3):
        raise SpecError(fields.at("smem"), f"'smem' of {what} must be (MN, K) or (MN, K, PIPE), not rank "
                                           f"{smem.rank()}")
    gmem = fields.layout("gmem", max_elements=MAX_GLOBAL_ELEMENTS) if by_tma else None   # its shape and strides
    if gmem is not None and gmem.rank() != 2:
        raise SpecError(fields.at("gmem"), f"'gmem' of {what} must be the (MN, K) global tensor, rank 2")
    check = SmemMmaCheck(**common_fields(named), smem=smem, gmem=gmem,
                         smem_absolute=isinstance(raw, ComposedLayout) and isinstance(raw.offset, SmemPtrFlag),
                         register_sourced=register_sourced, smem_unit_bits=unit_bits)
    if fields.has("smem_type"):
        check.smem_type = read_value_type(fields.m["smem_type"], fields.at("smem_type"), f"'smem_type' of {what}")
    check.lookup_table = read_lookup_table(fields, "smem_type")
    if check.lookup_table and not register_sourced:
        raise SpecError(fields.at(CONVERSION_KEY), f"'{CONVERSION_KEY}' of {what}: the tensor core reads a shared "
                                                   "operand through its descriptor as it lies; only a wgmma RS atom's "
                                                   "A is converted in registers")
    if fields.has("major"):
        from ...cute.gmma import atom_major      # CuTe's GMMA / UMMA atom names say the major-ness
        check.major = read_choice(fields.m["major"], fields.at("major"), f"'major' of {what}", MAJORS, upper=True)
        atom_says = atom_major(mma.name, Operand.of(check.operand))
        if atom_says is not None and atom_says.value != check.major:
            raise SpecError(fields.at("major"), f"'major' of {what} is {check.major}, but {quote(mma.name)} reads "
                                                f"operand {check.operand} {atom_says.value}-major; the atom decides "
                                                "the descriptor's major-ness")
    if fields.has("smem_align"):
        align = fields.m["smem_align"]
        if not is_int(align) or align <= 0 or align & (align - 1) or align > MAX_SMEM_ALIGN:
            raise SpecError(fields.at("smem_align"), f"'smem_align' of {what} must be a power of two of bytes, "
                                                     f"not {show(align)}")
        check.smem_align = int(align)
    if fields.has("descriptor"):
        check.descriptor = _descriptor_fields(fields, what)
    if fields.has("tma_box"):
        box = fields.int_list("tma_box", 2, 2)
        check.tma_box = (box[0], box[1])
    if fields.has("tma_swizzle"):
        check.tma_swizzle = read_tma_swizzle(fields.m["tma_swizzle"], fields.at("tma_swizzle"),
                                             f"'tma_swizzle' of {what}")
    if fields.has(TMA_TENSORS):
        tensors = fields.sub(TMA_TENSORS, TMA_TENSORS_KEYS)
        tensors.require(TMA_TENSORS_KEYS)
        map_of, tiles_of = (tensors.opt_str(k) for k in TMA_TENSORS_KEYS)
        assert map_of is not None and tiles_of is not None
        check.tma_tensors = (map_of, tiles_of)
    return check


def read_tma_swizzle(x: Any, loc: Loc, what: str) -> TmaSwizzle:
    """A tensor map's swizzle by the driver API's name (CU_TENSOR_MAP_SWIZZLE_<name>), in any case."""
    by_name = {s.value.lower(): s for s in TmaSwizzle}
    word = x.strip().lower() if isinstance(x, str) else None
    if word not in by_name:
        raise SpecError(loc, f"{what} must be one of {' | '.join(s.value for s in TmaSwizzle)}, not {show(x)}")
    return by_name[word]


def _descriptor_fields(fields: Fields, what: str) -> dict[str, int]:
    """`descriptor:`'s fields, each in its range; the swizzle by name, kept as the descriptor's code."""
    from ...hardware.smem_operand import GmmaSwizzle   # the swizzle codes both descriptors are written with
    d = fields.sub("descriptor", DESCRIPTOR_KEYS)
    out: dict[str, int] = {}
    for k in d.m:
        v = d.m[k]
        if k == "swizzle":
            mode = read_choice(v, d.at(k), f"'swizzle' of the descriptor of {what}", DESCRIPTOR_SWIZZLES, upper=True)
            out["swizzle"] = int(GmmaSwizzle.named(mode))
        elif k == "base_offset" and (not is_int(v) or not 0 <= v < BASE_OFFSETS):
            raise SpecError(d.at(k), f"'base_offset' of the descriptor of {what} must be in 0..7, not {show(v)}")
        elif not is_int(v) or not 0 <= v < DESCRIPTOR_FIELD_LIMIT:
            raise SpecError(d.at(k), f"'{k}' of the descriptor of {what} must be an integer in 0..2^18, "
                                     f"not {show(v)}")
        else:
            out[str(k)] = int(v)
    return out
