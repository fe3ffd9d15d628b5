"""The smem_mma kind, registered: a wgmma / tcgen05.mma operand read from shared memory through a descriptor and
filled by TMA from a global tensor (the Hopper and Blackwell mainloop path)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, TextIO

from ...draw.figure import View
from ...report.failures import safe
from ...specfile.fields import AtomTable, Fields
from ...specfile.model import CheckKind, CheckSpec, CopyAtomSpec, MMAAtomSpec, Spec
from ...specfile.vocabulary import GMMA_KEYS
from ..conversion import CONVERSION_KEY
from ...theorems.catalog import TheoremId
from ..atom.kind import MmaPictures
from ..atom.plans import ALL_OPERANDS, atom_group
from ..base import (Context, ExplainError, ExplainRequest, Group, Neighbour, Planned, atom_key, configuration_key,
                    write_chain)
from ..registry import register
from .config import SmemMmaCheck, read_smem_mma_check, reads_smem_mma_check

if TYPE_CHECKING:
    from ...draw.figure import Figure
    from ...theorems.result import CheckResult
    from ..cute_objects import ConfigurationRefused
    from .setup import Sm90Setup

T = TheoremId
# the theorems of the descriptor path after the atom's, in the order they are decided
SMEM_MMA_ORDER = (T.SMEM_INJECTIVE, T.COPY_VALUE_TYPE, T.TMA_ENCODABLE, T.TMA_PLACEMENT, T.GMMA_DESCRIPTOR,
                  T.GMMA_END_TO_END)
# ... when the threads write the tile through its layout: no tensor map, no box, nothing of TMA's to agree with
THROUGH_LAYOUT_ORDER = (T.SMEM_INJECTIVE, T.COPY_VALUE_TYPE, T.GMMA_DESCRIPTOR)
# ... when TMA fills a wgmma RS atom's A: the threads load the tile into registers (a tiled check), no descriptor
REGISTER_SOURCED_ORDER = (T.SMEM_INJECTIVE, T.COPY_VALUE_TYPE, T.TMA_ENCODABLE, T.TMA_PLACEMENT)
SMEM_MMA_PRECEDENCE = 10
SUB_BYTE = 8
# what a sub-byte operand's theorems follow, said in every report of it
UNPACKED_SLOTS = ("{name}: {bits}-bit elements unpacked, one byte of shared memory each as CuTe lays them out; TMA "
                  "(16U{bits}_ALIGN16B) and tcgen05.mma both put 16 elements in one 16-byte slot (the packed bits, "
                  "then padding), so the theorems follow each element's byte slot: the group of 16 to its 16 bytes, "
                  "the packing inside a slot the same on both sides")
PACKED_BYTES = ("{name}: {bits}-bit elements packed {per} a byte; the theorems follow each byte (CuTe's recast to "
                "bytes, its elements adjacent along the contiguous mode), the order inside a byte being global "
                "memory's, which TMA copies and {reader} alike")
# what a structured-sparse A's theorems follow, said in every report of it
SPARSE_A = ("{name}: A of {engine}, stored packed (M x K/2, PTX ISA {section}); CuTe's layouts are logical "
            "(sparse_elem<2, {name}>: a sparse pointer reads logical k and k+1 at one stored element), recast to the "
            "stored elements as CuTe's TMA and descriptor recast them; theorems 9 and 13-16 read that stored tile, "
            "which {engine} reads through the descriptor like a dense operand of K/2")
SPARSE_SECTIONS = {"wgmma": ("wgmma.mma_async.sp", "9.7.15.6"), "tcgen05.mma": ("tcgen05.mma.sp", "9.7.16.10.9.2")}
# the check's fields the descriptor path's group does not read: the atom (read through atom_side), the tiled MMA
NOT_READ_BY_GROUP = ("mma", "atom_layout", "permutation")
SHARED_BASE_LIMIT = 1 << 18      # `explain --base`: an address inside a CTA's shared memory window
SMEM_VIEW = View.SMEM.value        # the buffer's bytes as written and as read (views.py)


class SmemMmaKind(MmaPictures):
    """Theorems 1, 2 and 11 on the atom's A, B and accumulator, then 9, 12 and 13-16 on the operand's tile."""
    name = CheckKind.GMMA.value
    precedence = SMEM_MMA_PRECEDENCE
    keys: tuple[str, ...] = GMMA_KEYS + (CONVERSION_KEY,)    # conversion: an RS A tile converted by lookup tables
    summary_line = ("a wgmma / tcgen05.mma operand in shared memory, filled by TMA (theorems 1, 2, 9, 11-16) or by "
                    "the threads through its layout (1, 2, 9, 11, 12, 15); a wgmma RS atom's A filled by TMA for "
                    "the threads to load (1, 2, 9, 11-14)")
    needs_result_to_draw = True          # the smem view outlines the counterexample
    scaled_views = (SMEM_VIEW,)          # one stage, at most MAX_LINES lines of 128 bytes

    def recognises(self, fields: Fields, mma: MMAAtomSpec | None) -> bool:
        return reads_smem_mma_check(fields, mma)

    def read(self, fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None, atoms: AtomTable) -> CheckSpec:
        assert mma is not None
        return read_smem_mma_check(fields, named, mma)

    def plan(self, spec: Spec, check: CheckSpec, context: Context) -> list[Group]:
        assert isinstance(check, SmemMmaCheck)
        atom_theorems = atom_group(spec, check.mma, ALL_OPERANDS, context)   # the atom's A, B and accumulator fragments

        order = (REGISTER_SOURCED_ORDER if check.register_sourced else SMEM_MMA_ORDER if check.by_tma
                 else THROUGH_LAYOUT_ORDER)
        vt = check.value_type
        if vt is not None and vt.bits < SUB_BYTE and vt.smem_bits > vt.bits:
            context.info.append(UNPACKED_SLOTS.format(bits=vt.bits, name=vt.name))
        elif vt is not None and vt.bits < SUB_BYTE:
            reader = "the threads' loads into registers read" if check.register_sourced else "the tensor core reads"
            context.info.append(PACKED_BYTES.format(bits=vt.bits, name=vt.name, per=SUB_BYTE // vt.bits,
                                                    reader=reader))
        if check.operand == "A" and vt is not None and _sparse(spec, check):
            from .arch import architecture
            engine, section = SPARSE_SECTIONS[architecture(spec.mma_atoms[check.mma]).engine]
            context.info.append(SPARSE_A.format(name=vt.name, engine=engine, section=section))

        def build() -> Planned:
            from . import theorems as HT
            from .chain import Sm90Chain
            from .setup import build_sm90
            setup = build_sm90(check, spec.mma_atoms[check.mma], _writer(spec, check))
            suspects = context.suspects
            plans = {T.SMEM_INJECTIVE: lambda: HT.smem_injective(setup, suspects),
                     T.COPY_VALUE_TYPE: lambda: HT.value_type(setup, suspects),
                     T.TMA_ENCODABLE: lambda: HT.tma_encodable(setup, suspects),
                     T.TMA_PLACEMENT: lambda: HT.tma_placement(setup, suspects),
                     T.GMMA_DESCRIPTOR: lambda: HT.gmma_descriptor(setup, suspects),
                     T.GMMA_END_TO_END: lambda: HT.end_to_end(setup, suspects)}
            return Planned({tid: plans[tid] for tid in order}, Sm90Chain(setup))

        # the group reads the check's configuration but the tiled MMA (its theorems are about the whole tile, every
        # instruction slice of it, whichever warpgroup reads it) save how many atoms lie along the operand's M or N
        # (theorem 15: they share the slices evenly), the atom only through atom_side (setup.py) and the copy atom
        # that writes the tile: checks agreeing on these (a wgmma A of any N, on any warpgroups along N) decide it once
        from ...cute.operand import Operand
        from .setup import atom_side, atoms_along_mn
        shared = ("smem_mma", order, configuration_key(check, NOT_READ_BY_GROUP), atoms_along_mn(check),
                  atom_side(spec.mma_atoms[check.mma], Operand.of(check.operand)), atom_key(_writer(spec, check)))
        return [atom_theorems, Group(order, build, shared=shared)]

    def explain(self, spec: Spec, check: CheckSpec, request: ExplainRequest, out: TextIO) -> None:
        """global (row, col) -> TMA box -> shared byte -> descriptor -> the (mn, k) the tensor core reads."""
        from .chain import Sm90Chain
        from .setup import build_sm90
        assert isinstance(check, SmemMmaCheck)
        name = safe(check.name)
        coord, stage, base = request.coord, request.stage, request.base
        if coord is None or len(coord) != 2:
            raise ExplainError(f"check '{name}' is a Hopper check: give --coord MN,K (and --stage)")
        chain = Sm90Chain(build_sm90(check, spec.mma_atoms[check.mma], _writer(spec, check)))
        s = chain.setup
        if s.tile is None:
            raise ExplainError(f"check '{name}': {s.tile_problem}")
        extent = s.extent
        if not (0 <= coord[0] < extent[0] and 0 <= coord[1] < extent[1] and 0 <= stage < s.stages):
            raise ExplainError(f"--coord must be within {extent[0]}x{extent[1]} and --stage in [0,{s.stages}) for "
                               f"check '{name}'")
        if base % s.align or not 0 <= base < SHARED_BASE_LIMIT:
            raise ExplainError(f"--base must be a multiple of {s.align} below 2^18 for check '{name}'")
        title, lines = chain.element_lines(base, stage, coord[0], coord[1])
        out.write(f"{request.path}: check {name}: {check.mma} {s.operand.value} <- {check.copy} on "
                  f"{check.value_type.name}, smem {check.smem}\n")
        write_chain(out, title, lines)

    def views(self, check: CheckSpec) -> tuple[str, ...]:
        return (*super().views(check), SMEM_VIEW)

    def figures(self, spec: Spec, check: CheckSpec, views: tuple[str, ...],
                result: CheckResult | None) -> list[Figure]:
        from ..base import DrawError
        from .setup import build_sm90
        from .views import smem_mma_figure
        assert isinstance(check, SmemMmaCheck)
        out = super().figures(spec, check, tuple(v for v in views if v != SMEM_VIEW), result)
        if SMEM_VIEW in views:
            setup = build_sm90(check, spec.mma_atoms[check.mma], _writer(spec, check))
            refused = _builder_refusal(setup)
            if refused is not None:       # CuTe builds no such kernel: its rule is the whole story
                raise refused
            if setup.tile is None:
                raise DrawError(f"check '{safe(check.name)}' has no shared tile to draw: {setup.tile_problem}")
            out.append(smem_mma_figure(setup, result))
        return out

    def report_views(self, check: CheckSpec, result: CheckResult) -> tuple[str, ...]:
        from .views import SMEM_MMA_MARKED
        failed = {t.id for t in result.failures()}
        return (SMEM_VIEW,) if failed & set(SMEM_MMA_MARKED) else super().report_views(check, result)

    def neighbours(self, spec: Spec, check: CheckSpec) -> Iterator[Neighbour]:
        from .neighbours import gmma_changes
        assert isinstance(check, SmemMmaCheck)
        return gmma_changes(spec, check)


def _sparse(spec: Spec, check: SmemMmaCheck) -> bool:
    """The check's A is a structured-sparse wgmma's (stored packed, M x K/2)."""
    from .arch import architecture
    from ...cute.operand import Operand
    atom = spec.mma_atoms[check.mma]
    return architecture(atom).sparsity(atom, Operand.A) > 1


def _writer(spec: Spec, check: SmemMmaCheck) -> CopyAtomSpec | None:
    """The copy atom that writes the tile through its layout (None for TMA: the tensor map writes it)."""
    return None if check.by_tma else spec.copy_atoms.get(check.copy)


SMEM_MMA = register(SmemMmaKind())


def _builder_refusal(setup: Sm90Setup) -> ConfigurationRefused | None:
    """CuTe's refusal of the TMA copy or the descriptor it builds for the check's tile, as `draw` reports it."""
    from ..cute_objects import ConfigurationRefused
    if setup.tma_rule is not None:
        return ConfigurationRefused(*setup.tma_rule, "make_tma_copy", "smem")
    if setup.desc_rule is not None:
        return ConfigurationRefused(*setup.desc_rule, setup.desc_builder, "smem")
    return None
