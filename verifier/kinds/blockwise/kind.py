"""The blockwise kind, registered: a blockwise-scaled GEMM's scales of operand A or B, from the global scale tensor
through the scale loader into shared memory and on to the accumulator values they multiply (theorems 29, 30), with
the MMA atom's own theorems 1, 2 and 11."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, TextIO

from ...draw.figure import View
from ...report.failures import safe
from ...specfile.fields import AtomTable, Fields
from ...specfile.model import CheckKind, CheckSpec, MMAAtomSpec, Spec
from ...theorems.catalog import TheoremId
from ..atom.kind import MMA_VIEW, MmaPictures
from ..atom.plans import ALL_OPERANDS, atom_group
from ..base import Context, ExplainError, ExplainRequest, Group, Neighbour, PlanOf, Planned, write_chain
from ..registry import register
from .config import BLOCKWISE_KEY, BlockwiseCheck, read_blockwise_check, reads_blockwise_check

if TYPE_CHECKING:
    from ...draw.figure import Figure
    from ...theorems.result import CheckResult
    from .setup import BlockwiseSetup

T = TheoremId
BLOCKWISE_ORDER = (T.BLOCKWISE_LOAD, T.BLOCKWISE_READ)
BLOCKWISE_PRECEDENCE = 0      # asked first: `blockwise:` makes a blockwise check whatever else it names
BLOCKWISE_KEYS = (BLOCKWISE_KEY, "granularity", "tile", "copy_layout", "reader_atom_layout", "tmem_load",
                  "epilogue_tile")
SCALES_VIEW = View.SCALES.value   # a stage's shared slots, the block each holds, its writer and readers (views.py)


def build_setup(spec: Spec, check: BlockwiseCheck) -> BlockwiseSetup:
    from .setup import build
    copy_spec = None if check.tma else spec.copy_atoms.get(check.copy)
    t2r_spec = spec.copy_atoms.get(check.tmem_load) if check.tmem_load else None
    return build(check, spec.mma_atoms[check.mma], copy_spec, t2r_spec)


def built_setup(spec: Spec, check: BlockwiseCheck) -> BlockwiseSetup:
    """The setup of a configuration CuTe compiles, for `draw` and `explain`: CuTe's refusal of load()'s tile of the
    global scales (SM90), of the scale copy or of the reader's partition raised as such (nothing is built to draw or
    trace)."""
    from ..cute_objects import ConfigurationRefused
    setup = build_setup(spec, check)
    if setup.granularity_rule is not None:
        raise ConfigurationRefused(setup.granularity_rule, setup.granularity_problem or "", "the collective's "
                                   "granularity against its tile and MMA atom, and its stages",
                                   "smem" if setup.stages_refused else "granularity")
    if setup.load_tile_rule is not None:
        raise ConfigurationRefused(setup.load_tile_rule, setup.load_tile_problem or "", "the collective's load() tile "
                                   "of the global scales", "granularity")
    if setup.writer_rule is not None:
        raise ConfigurationRefused(setup.writer_rule, setup.writer_problem or "", "the scale copy's partitions",
                                   "copy_layout")
    if setup.reader_rule is not None:
        field = setup.reader_field or ("tmem_load" if check.tmem_load else "atom_layout")
        raise ConfigurationRefused(setup.reader_rule, setup.reader_problem or "", "the reader's partition of the "
                                   "scale view", field)
    return setup


class BlockwiseKind(MmaPictures):
    """Theorems 1, 2 and 11 on the MMA atom, then 29 and 30 on the scales of one operand."""
    name = CheckKind.BLOCKWISE.value
    precedence = BLOCKWISE_PRECEDENCE
    keys: tuple[str, ...] = BLOCKWISE_KEYS
    summary_line = ("a blockwise-scaled GEMM's scales, global memory -> cp.async / TMA -> shared memory -> the "
                    "accumulator values they multiply (29, 30)")
    needs_result_to_draw = True          # the scales view outlines the counterexample
    # views drawn at a bounded size whatever the shared scale tile's: the blocks of a stage, the tiled MMA's tile
    scaled_views = (SCALES_VIEW, MMA_VIEW)

    def recognises(self, fields: Fields, mma: MMAAtomSpec | None) -> bool:
        return reads_blockwise_check(fields)

    def read(self, fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None, atoms: AtomTable) -> CheckSpec:
        return read_blockwise_check(fields, named, mma, atoms)

    def plan(self, spec: Spec, check: CheckSpec, context: Context) -> list[Group]:
        assert isinstance(check, BlockwiseCheck)
        atom_theorems = atom_group(spec, check.mma, ALL_OPERANDS, context)

        def build() -> Planned:
            from . import theorems as BT
            from .chain import BlockwiseChain
            setup = build_setup(spec, check)
            suspects = context.suspects
            plans: dict[TheoremId, PlanOf] = {T.BLOCKWISE_LOAD: lambda: BT.blockwise_load(setup, suspects),
                                              T.BLOCKWISE_READ: lambda: BT.blockwise_read(setup, suspects)}
            return Planned(plans, BlockwiseChain(setup))

        return [atom_theorems, Group(BLOCKWISE_ORDER, build)]

    def explain(self, spec: Spec, check: CheckSpec, request: ExplainRequest, out: TextIO) -> None:
        """--coord MN,K [--stage S] [--instance TILE_MN,TILE_K]: one scale from its global element to the values that
        read it; --lane THREAD --value V [--instance CALLS...] [--stage S]: one accumulator value's scale."""
        from .chain import BlockwiseChain
        assert isinstance(check, BlockwiseCheck)
        name = safe(check.name)
        setup = built_setup(spec, check)
        if setup.granularity_problem is not None or setup.tile_problem is not None:
            raise ExplainError(f"check '{name}': {setup.granularity_problem or setup.tile_problem}")
        if not 0 <= request.stage < setup.stages:
            raise ExplainError(f"--stage must be in [0,{setup.stages}) for check '{name}'")
        chain = BlockwiseChain(setup)
        if request.coord is not None:
            coord = request.coord
            tile = (tuple(request.instance) + (0, 0))[:2]
            if len(coord) != 2 or not (0 <= coord[0] < setup.tile_mn and 0 <= coord[1] < setup.tile_k) \
                    or not (0 <= tile[0] < setup.tiles[0] and 0 <= tile[1] < setup.tiles[1]):
                raise ExplainError(f"check '{name}' is a blockwise check: give --coord MN,K within {setup.tile_mn}x"
                                   f"{setup.tile_k} (and --instance TILE_MN,TILE_K within {setup.tiles[0]}x"
                                   f"{setup.tiles[1]})")
            title, lines = chain.scale_lines(coord[0], coord[1], request.stage, (tile[0], tile[1]))
        elif request.lane is not None and request.value is not None and setup.reader is not None:
            reader = setup.reader
            if not (0 <= request.lane < reader.threads and 0 <= request.value < reader.values):
                raise ExplainError(f"check '{name}': --lane is a thread in [0,{reader.threads}), --value an "
                                   f"accumulator value in [0,{reader.values})")
            title, lines = chain.value_lines(request.lane, request.value, tuple(request.instance), 0, request.stage)
        else:
            raise ExplainError(f"check '{name}' is a blockwise check: give --coord MN,K or --lane THREAD --value V")
        out.write(f"{request.path}: check {name}: {check.summary()}\n")
        write_chain(out, title, lines)

    def views(self, check: CheckSpec) -> tuple[str, ...]:
        return (SCALES_VIEW, *super().views(check))

    def figures(self, spec: Spec, check: CheckSpec, views: tuple[str, ...],
                result: CheckResult | None) -> list[Figure]:
        from .views import scales_figure
        assert isinstance(check, BlockwiseCheck)
        out = []
        if SCALES_VIEW in views:
            out.append(scales_figure(built_setup(spec, check), result))
        return out + super().figures(spec, check, tuple(v for v in views if v != SCALES_VIEW), result)

    def report_views(self, check: CheckSpec, result: CheckResult) -> tuple[str, ...]:
        failed = {t.id for t in result.failures()}
        scales = (SCALES_VIEW,) if failed & set(BLOCKWISE_ORDER) else ()
        return scales + (super().report_views(check, result) if failed - set(BLOCKWISE_ORDER) else ())

    def neighbours(self, spec: Spec, check: CheckSpec) -> Iterator[Neighbour]:
        from .neighbours import blockwise_changes
        assert isinstance(check, BlockwiseCheck)
        return blockwise_changes(spec, check)


BLOCKWISE = register(BlockwiseKind())
