"""The sparse metadata kind, registered: a structured-sparse wgmma's metadata E, from the global tensor through TMA,
shared memory and the smem -> register copy to the sp-meta bit the instruction reads (theorems 27, 28); a
tcgen05.mma.sp's, through TMA, shared memory, tcgen05.cp and tensor memory to the part each MMA is handed (27, 33, 28);
with the MMA atom's own theorems 1, 2 and 11."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, TextIO

from ...report.failures import safe
from ...specfile.fields import AtomTable, Fields
from ...specfile.model import CheckKind, CheckSpec, MMAAtomSpec, Spec
from ...specfile.vocabulary import METADATA_KEYS
from ...theorems.catalog import TheoremId
from ..atom.kind import MMA_VIEW, MmaPictures
from ..atom.plans import ALL_OPERANDS, atom_group
from ..base import (Context, ExplainError, ExplainRequest, Group, Neighbour, PlanOf, Planned, atom_key,
                    configuration_key, write_chain)
from ..registry import register
from .config import MetadataCheck, read_metadata_check, reads_metadata_check

if TYPE_CHECKING:
    from ...draw.figure import Figure
    from ...theorems.result import CheckResult

T = TheoremId
METADATA_ORDER = (T.SPARSE_METADATA_TMA, T.SPARSE_METADATA_READ)
TMEM_METADATA_ORDER = (T.SPARSE_METADATA_TMA, T.SPARSE_METADATA_TMEM, T.SPARSE_METADATA_READ)
METADATA_PRECEDENCE = 0       # asked first: `metadata:` makes a metadata check whatever else it names
INFERRED_NOTE = ("wgmma.mma_async.sp's metadata fragment (which sp-meta bit describes which row and chunk) is inferred "
                 "from third-party readings of the PTX ISA's figures, not read and not validated on a GPU "
                 "(hardware/wgmma_sparse.py)")
TMEM_NOTE = ("tcgen05.mma.sp and tcgen05.cp are modelled from the PTX ISA's text, not validated on a Blackwell GPU; "
             "which tensor-memory bit the tensor core reads as a row's metadata is drawn only in the ISA's figures "
             "and is inferred from JAX's Mosaic GPU, tested by JAX on Blackwell, not here (hardware/umma_sparse.py)")


class MetadataKind(MmaPictures):
    """Theorems 1, 2 and 11 on the sparse atom, then 27 and 28 on the metadata of A."""
    name = CheckKind.METADATA.value
    precedence = METADATA_PRECEDENCE
    keys: tuple[str, ...] = METADATA_KEYS + ("tile_k",)
    summary_line = ("a structured-sparse MMA's metadata, global memory -> TMA -> shared memory -> registers -> the "
                    "sp-meta bits wgmma reads (27, 28); -> tcgen05.cp -> tensor memory -> each tcgen05.mma.sp's part "
                    "(27, 33, 28)")
    needs_result_to_draw = False
    scaled_views = (MMA_VIEW,)           # the atom's A, B and C: their size is the atom's, not the metadata tile's

    def recognises(self, fields: Fields, mma: MMAAtomSpec | None) -> bool:
        return reads_metadata_check(fields)

    def read(self, fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None, atoms: AtomTable) -> CheckSpec:
        return read_metadata_check(fields, named, mma)

    def plan(self, spec: Spec, check: CheckSpec, context: Context) -> list[Group]:
        assert isinstance(check, MetadataCheck)
        atom_theorems = atom_group(spec, check.mma, ALL_OPERANDS, context)
        if check.tmem_path:
            context.info.append(TMEM_NOTE)
            return [atom_theorems,
                    Group(TMEM_METADATA_ORDER, lambda: _tmem_plans(spec, check, context))]
        context.info.append(INFERRED_NOTE)
        from .setup import metadata_side
        side = metadata_side(spec.mma_atoms[check.mma])

        def build() -> Planned:
            from . import theorems as MT
            from .chain import MetadataChain
            from .setup import build as build_metadata
            setup = build_metadata(check, spec.mma_atoms[check.mma], spec.copy_atoms.get(check.copy), side)
            suspects = context.suspects
            plans: dict[TheoremId, PlanOf] = {T.SPARSE_METADATA_TMA: lambda: MT.metadata_tma(setup, suspects),
                                              T.SPARSE_METADATA_READ: lambda: MT.metadata_read(setup, suspects)}
            return Planned(plans, MetadataChain(setup))

        # the group reads the check's configuration, the atom only through `side` and the copy atom: checks
        # agreeing on these (the metadata of a wgmma.mma_async.sp of any N) decide it once
        shared = ("metadata", METADATA_ORDER, configuration_key(check, ("mma",)), side.key(),
                  atom_key(spec.copy_atoms.get(check.copy)))
        return [atom_theorems, Group(METADATA_ORDER, build, shared=shared)]

    def explain(self, spec: Spec, check: CheckSpec, request: ExplainRequest, out: TextIO) -> None:
        """--lane THREAD --value BIT [--instance M,K_BLOCK] [--stage S]: one sp-meta bit's chain; --coord M,K
        [--stage S]: one metadata element's way into shared memory (a tcgen05.mma.sp's: on into tensor memory and
        the MMA whose part holds it)."""
        from .chain import MetadataChain
        from .setup import build as build_metadata
        assert isinstance(check, MetadataCheck)
        name = safe(check.name)
        if check.tmem_path:
            _explain_tmem(spec, check, request, out)
            return
        setup = build_metadata(check, spec.mma_atoms[check.mma], spec.copy_atoms.get(check.copy))
        chain = MetadataChain(setup)
        if not 0 <= request.stage < setup.stages:
            raise ExplainError(f"--stage must be in [0,{setup.stages}) for check '{name}'")
        if request.coord is not None:
            m, k = (request.coord + (0, 0))[:2]
            if len(request.coord) != 2 or not (0 <= m < setup.blk_m and 0 <= k < setup.blk_k):
                raise ExplainError(f"check '{name}' is a metadata check: give --coord M,K within {setup.blk_m}x"
                                   f"{setup.blk_k}")
            title, lines = chain.element_lines(m, k, request.stage, (0, 0))
        elif request.lane is not None and request.value is not None:
            r, kb = (tuple(request.instance) + (0, 0))[:2]
            if not (0 <= request.lane < setup.threads and 0 <= request.value < 32
                    and 0 <= r < setup.rest[0] and 0 <= kb < setup.rest[1]):
                raise ExplainError(f"check '{name}': --lane is a thread in [0,{setup.threads}), --value a bit of "
                                   f"sp-meta in [0,32), --instance M,K_BLOCK within {setup.rest[0]}x{setup.rest[1]}")
            title, lines = chain.bit_lines(request.lane, r, kb, request.value, request.stage)
        else:
            raise ExplainError(f"check '{name}' is a metadata check: give --lane THREAD --value BIT "
                               "[--instance M,K_BLOCK] or --coord M,K")
        out.write(f"{request.path}: check {name}: {check.summary()}\n")
        write_chain(out, title, lines)

    def views(self, check: CheckSpec) -> tuple[str, ...]:
        return super().views(check)

    def figures(self, spec: Spec, check: CheckSpec, views: tuple[str, ...],
                result: CheckResult | None) -> list[Figure]:
        return super().figures(spec, check, views, result)

    def report_views(self, check: CheckSpec, result: CheckResult) -> tuple[str, ...]:
        failed = {t.id for t in result.failures()}
        # theorem 33's refutations are facts about the copies (no element to outline): the atom's picture carries
        # them in its caption
        atom_failed = failed - set(METADATA_ORDER) - set(TMEM_METADATA_ORDER)
        return super().report_views(check, result) if atom_failed or T.SPARSE_METADATA_TMEM in failed else ()

    def neighbours(self, spec: Spec, check: CheckSpec) -> Iterator[Neighbour]:
        return iter(())


def _explain_tmem(spec: Spec, check: MetadataCheck, request: ExplainRequest, out: TextIO) -> None:
    """--coord M,K [--stage S] of a tcgen05.mma.sp's metadata: global -> shared -> TMEM -> the MMA."""
    from .chain import Sm100MetadataChain
    from .sm100_setup import build as build_sm100
    name = safe(check.name)
    setup = build_sm100(check, spec.mma_atoms[check.mma])
    if not 0 <= request.stage < setup.stages:
        raise ExplainError(f"--stage must be in [0,{setup.stages}) for check '{name}'")
    coord = request.coord or ()
    if len(coord) != 2 or not (0 <= coord[0] < setup.blk_m and 0 <= coord[1] < setup.blk_k):
        raise ExplainError(f"check '{name}' is a tcgen05.mma.sp metadata check: give --coord M,K within "
                           f"{setup.blk_m}x{setup.blk_k}")
    title, lines = Sm100MetadataChain(setup).tmem_lines(coord[0], coord[1], request.stage)
    out.write(f"{request.path}: check {name}: {check.summary()}\n")
    write_chain(out, title, lines)


def _tmem_plans(spec: Spec, check: MetadataCheck, context: Context) -> Planned:
    """Theorems 27, 33 and 28 of a tcgen05.mma.sp's metadata (sm100_setup.py, sm100_theorems.py)."""
    from . import sm100_theorems as ST
    from . import theorems as MT
    from .chain import Sm100MetadataChain
    from .sm100_setup import build as build_sm100
    setup = build_sm100(check, spec.mma_atoms[check.mma])
    suspects = context.suspects
    plans: dict[TheoremId, PlanOf] = {T.SPARSE_METADATA_TMA: lambda: MT.metadata_tma(setup, suspects),
                                      T.SPARSE_METADATA_TMEM: lambda: ST.metadata_tmem(setup, suspects),
                                      T.SPARSE_METADATA_READ: lambda: ST.metadata_read(setup, suspects)}
    return Planned(plans, Sm100MetadataChain(setup))


METADATA = register(MetadataKind())
