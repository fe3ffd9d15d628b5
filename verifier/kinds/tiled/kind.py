"""The tiled kind, registered: a tiled MMA's operand, the tiled copy that moves it and its shared-memory tile."""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Iterator, TextIO

from ...draw.figure import View
from ...report.failures import safe
from ...specfile.fields import AtomTable, Fields
from ...specfile.model import CheckKind, CheckSpec, MMAAtomSpec, Spec, SpecError
from ...specfile.vocabulary import BANKS_CONFLICT_FREE, BANKS_REPORT, TILED_KEYS
from ..conversion import CONVERSION_KEY
from ...theorems.catalog import TheoremId
from ...outcome import Status
from ...theorems.claims import TheoremResult, Trace
from ..atom.kind import MMA_VIEW, mma_view
from ..atom.plans import atom_group, copy_plan
from ..base import (Context, ExplainError, ExplainRequest, Group, Neighbour, Planned, atom_key, configuration_key,
                    write_chain)
from ..registry import register
from .config import TILES_KEY, TiledCheck, read_tiled_check, reads_tiled_check

if TYPE_CHECKING:
    from ...draw.figure import Figure
    from ...theorems.result import CheckResult
    from .chain import OperandChain
    from .setup import TiledSetup

T = TheoremId
# the theorems of the tiled path, in the order they are decided (17 with `banks: conflict_free`, 18 for a C store)
TILED_ORDER = (T.COPY_DST_MATCHES_MMA, T.COPY_SRC_MATCHES_DST, T.COPY_ADDRESSING, T.FRAGMENT_ALIASING, T.END_TO_END,
               T.SMEM_INJECTIVE, T.SMEM_IN_BOUNDS, T.COPY_VALUE_TYPE)
COPY_VIEW, SMEM_VIEW, BANKS_VIEW = View.COPY.value, View.SMEM.value, View.BANKS.value
VIEWS = (MMA_VIEW, COPY_VIEW, SMEM_VIEW, BANKS_VIEW)
LAYOUT_OF_SIDE = {"src": "SrcLayout", "dst": "DstLayout"}
TILED_PRECEDENCE = 20


def tiled_chain(spec: Spec, check: TiledCheck) -> OperandChain:
    """The chain of a tiled check (raises ConfigurationRefused when CuTe would not build it)."""
    from .chain import OperandChain
    from .setup import build_tiled
    return OperandChain(build_tiled(check, spec.mma_atoms[check.mma], spec.copy_atoms[check.copy]))


def demote_unread(spec: Spec, check: TiledCheck, theorems: list[TheoremResult],
                  context: Context) -> list[TheoremResult]:
    """A tiled configuration that never reads one side of its copy atom (setup.unread_side) is judged by what it
    runs; theorem 3 about that side, when refuted, becomes a finding of the configuration (a warning), and the
    atom's own check (`copy:` alone) carries the refutation."""
    from .setup import executed_unread_side
    copy_spec = spec.copy_atoms[check.copy]
    unread = executed_unread_side(check, spec.mma_atoms[check.mma].types[(check.operand or "A").lower()], copy_spec)
    if unread is None:
        return theorems
    layout = LAYOUT_OF_SIDE[unread]
    context.info.append(f"the configuration never reads {layout} of {copy_spec.name} (it "
                        f"{'retiles its registers' if unread == 'dst' else 'stores its sources'} through RefLayout): "
                        f"theorems 4-8 judge the copy it runs, and a refutation of theorem 3 is a finding")
    kept = []
    for t in theorems:
        if t.id is T.COPY_ROUTING and t.status is Status.REFUTED:   # a refusal (CuTe reads the shapes) stays
            context.findings.append(t)
        else:
            kept.append(t)
    return kept


# the theorems whose counterexample is a (thread, value) of the copy: outlined on the copy view (theorem 2's is the
# MMA atom's own thread and value, not the copy's)
COPY_THEOREMS = (T.COPY_DST_MATCHES_MMA, T.COPY_SRC_MATCHES_DST, T.COPY_ADDRESSING, T.FRAGMENT_ALIASING,
                 T.END_TO_END)


def _witness(result: CheckResult | None, tid: TheoremId) -> dict[str, int] | None:
    """The first counterexample of theorem `tid` in `result`, its values and point together."""
    t = next((t for t in result.theorems if t.id is tid and t.status is Status.REFUTED), None) if result else None
    item = t.first_failure() if t else None
    return dict(item.witness.values, **item.witness.point) if item and item.witness else None


def _stage_overlap(check: TiledCheck, w: dict[str, int]) -> tuple[set[tuple[int, int]], str]:
    """Theorem 9's stage witness (two indices `coordinate + tile * stage` of the staged layout, one offset): the
    first stage's cells at that offset, and the caption saying which (coordinate, stage) pairs share it."""
    from ...draw.views import tile_offsets
    rows, cols, offsets = tile_offsets(check.smem)
    tile = rows * cols
    pairs = [(w[k] % tile % rows, w[k] % tile // rows, w[k] // tile) for k in ("index", "index2")]
    cells = {rc for rc, off in offsets.items() if off == w["offset"]}
    said = ", ".join(f"coordinate ({r}, {c}) of stage {st}" for r, c, st in pairs)
    where = "outlined in the first stage" if cells else "outside the first stage drawn here"
    return cells, f"counterexample (smem.injective): {said} share element {w['offset']} ({where})"


class TiledKind:
    """Theorems 1, 2, 11 on the operand and 3 on the copy atom, then 4-10 and 12 on the tiled path (17 with
    `banks: conflict_free`, 18 when it stores the C tile)."""
    name = CheckKind.TILED.value
    precedence = TILED_PRECEDENCE
    # conversion: an A / B tile converted by lookup tables; tiles: the shared tiles the copy and the fragment take
    keys: tuple[str, ...] = TILED_KEYS + (CONVERSION_KEY, TILES_KEY)
    summary_line = "a tiled MMA's operand, its copy and shared-memory tile: theorems 1-12, 17, 18"
    needs_result_to_draw = True

    def recognises(self, fields: Fields, mma: MMAAtomSpec | None) -> bool:
        return reads_tiled_check(fields, mma)

    def read(self, fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None, atoms: AtomTable) -> CheckSpec:
        assert mma is not None
        return read_tiled_check(fields, named, mma)

    def plan(self, spec: Spec, check: CheckSpec, context: Context) -> list[Group]:
        assert isinstance(check, TiledCheck)
        routing = {T.COPY_ROUTING: copy_plan(spec, check, check.copy, context)}
        # the MMA atom's theorems 1, 2 and 11, shared by the checks of its definition; the copy atom's theorem 3,
        # demoted to a finding where the configuration never reads the side it refutes
        atom_theorems = [atom_group(spec, check.mma, (check.operand or "A",), context),
                         Group((T.COPY_ROUTING,), lambda: Planned(routing),
                               lambda ts: demote_unread(spec, check, ts, context))]
        order = TILED_ORDER + ((T.SMEM_BANK_CONFLICTS,) if check.banks == BANKS_CONFLICT_FREE else ())
        from .setup import tiled_atom_side
        side = tiled_atom_side(check, spec.mma_atoms[check.mma])

        @functools.cache
        def setup() -> TiledSetup:     # built once for the check's groups
            from .setup import build_tiled
            return build_tiled(check, spec.mma_atoms[check.mma], spec.copy_atoms[check.copy], side)

        def build(ids: tuple[TheoremId, ...]) -> Planned:
            from . import banks as BT
            from . import theorems as TT
            from .chain import OperandChain
            from .setup import staged
            s = setup()
            chain = OperandChain(s)
            suspects = context.suspects
            plans = {
                T.COPY_DST_MATCHES_MMA: lambda: TT.register_side_matches_mma(s, chain, suspects),
                T.COPY_SRC_MATCHES_DST: lambda: TT.source_matches_destination(s, chain, suspects),
                T.COPY_ADDRESSING: lambda: TT.addressing(s, chain, suspects),
                T.FRAGMENT_ALIASING: lambda: TT.fragment_aliasing(s, chain, suspects),
                T.END_TO_END: lambda: TT.end_to_end(s, chain, suspects),
                T.SMEM_INJECTIVE: lambda: TT.smem_injective(staged(s), suspects),
                T.SMEM_IN_BOUNDS: lambda: TT.smem_in_bounds(s, chain, suspects),
                T.COPY_VALUE_TYPE: lambda: TT.copy_value_type(s, suspects),
                T.SMEM_BANK_CONFLICTS: lambda: BT.bank_conflicts(s, chain, suspects),
                T.C_OWNERSHIP: lambda: TT.c_store_ownership(staged(s), chain, suspects),
            }
            ids = ids + ((T.C_OWNERSHIP,) if s.operand == "C" and s.is_store else ())
            if check.banks == BANKS_REPORT and T.COPY_DST_MATCHES_MMA in ids:   # once a check: with the copy's theorems
                try:
                    context.info.extend(BT.bank_report(s, chain))
                except Exception as e:  # noqa: BLE001 - information only: its failure is said, never a verdict
                    context.info.append(f"banks: the count could not be made: {type(e).__name__}: {e}")
            return Planned({tid: plans[tid] for tid in ids}, chain)

        if (check.operand or "A").upper() == "C":   # a C store's theorem 18 reads the stages too: decided per check
            return [*atom_theorems, Group(order, lambda: build(order))]
        # an A or B: the group reads the check's configuration, the atom only through `side` and the copy atom,
        # and the stages' layout only in theorem 9 -- checks agreeing on the rest (an A of any N, any stage count)
        # decide the other theorems once, and theorem 9 once for each stages' layout
        unstaged = tuple(t for t in order if t is not T.SMEM_INJECTIVE)
        side_key, copy_key = side.key(), atom_key(spec.copy_atoms[check.copy])
        return [*atom_theorems,
                Group(unstaged, lambda: build(unstaged),
                      shared=("tiled", unstaged, configuration_key(check, ("mma", "stages")), side_key, copy_key)),
                Group((T.SMEM_INJECTIVE,), lambda: build((T.SMEM_INJECTIVE,)),
                      shared=("tiled", (T.SMEM_INJECTIVE,), configuration_key(check, ("mma",)), side_key, copy_key))]

    def explain(self, spec: Spec, check: CheckSpec, request: ExplainRequest, out: TextIO) -> None:
        assert isinstance(check, TiledCheck)
        lane, value = request.lane, request.value
        if lane is None or value is None or request.coord is not None:
            raise SpecError(check.loc, f"check '{safe(check.name)}' is a tiled check: give --lane and --value "
                                       "(--coord is for Hopper checks)")
        chain = tiled_chain(spec, check)
        chain.base = request.base
        if not 0 <= lane < chain.nthr or not 0 <= value < chain.n_reg:
            raise ExplainError(f"lane must be in [0,{chain.nthr}) and value in [0,{chain.n_reg}) for check "
                               f"'{safe(check.name)}'")
        instance = request.instance
        if len(instance) > len(chain.instance_sizes) or any(not 0 <= i < n
                                                             for i, n in zip(instance, chain.instance_sizes)):
            raise ExplainError(f"--instance must be within {tuple(chain.instance_sizes)}")
        point = {chain.t.name: lane, "value": value, **{f"r{i}": x for i, x in enumerate(instance)}}
        title, lines = chain.lines(Trace.REGISTER_SIDE, point)
        if not lines:
            raise ExplainError(f"no destination of the copy receives lane {lane}, value {value}")
        out.write(f"{request.path}: check {safe(check.name)}: {check.mma} {chain.setup.operand} <- {check.copy} on "
                  f"{check.value_type.name}, smem {check.smem}\n")
        write_chain(out, title, lines)

    def views(self, check: CheckSpec) -> tuple[str, ...]:
        return VIEWS

    def figures(self, spec: Spec, check: CheckSpec, views: tuple[str, ...],
                result: CheckResult | None) -> list[Figure]:
        assert isinstance(check, TiledCheck)
        from ...cute.operand import Operand
        from ...draw.views import smem_figure
        from .views import banks_figure, copy_figure
        out: list[Figure] = []
        setup = chain = None
        if set(views) & {COPY_VIEW, SMEM_VIEW, BANKS_VIEW}:
            chain = tiled_chain(spec, check)
            setup = chain.setup
        for view in views:
            if view == MMA_VIEW:
                out.append(mma_view(spec, check, result))
            elif view == COPY_VIEW and setup is not None:
                pointed = [(tid.value, w) for tid in (*COPY_THEOREMS, T.COPY_VALUE_TYPE)
                           if (w := _witness(result, tid))]
                structural = next((t.id.value for t in result.theorems if t.id in COPY_THEOREMS
                                   and t.status is Status.REFUTED), "") if result is not None else ""
                out.append(copy_figure(setup, pointed, structural))
            elif view == SMEM_VIEW and setup is not None:
                outlined = set()
                w = _witness(result, T.SMEM_INJECTIVE)
                a, b = Operand.of(setup.operand).axes
                staged = ""
                if w is not None and {a, b, f"{a}2", f"{b}2"} <= set(w):
                    outlined = {(w[a], w[b]), (w[f"{a}2"], w[f"{b}2"])}
                elif w is not None and {"index", "index2", "offset"} <= set(w):
                    # the stage claim: two (coordinate, stage) of the staged tile, one element; the first stage's
                    # cells at that element are outlined (the stage drawn is the first)
                    outlined, staged = _stage_overlap(check, w)
                fig = smem_figure(check.name, check.smem, setup.value_bits, (a, b), outlined)
                if staged:
                    fig.caption.append(staged)
                elif outlined:
                    fig.caption.append(f"counterexample (smem.injective): {sorted(outlined)} share one element")
                out.append(fig)
            elif view == BANKS_VIEW and setup is not None and chain is not None:
                w = _witness(result, T.SMEM_BANK_CONFLICTS)
                lanes = (w["lane"], w["lane2"]) if w and "lane" in w else ()
                fig = banks_figure(setup, chain, lanes)
                if w and lanes:
                    fig.caption.append(f"counterexample (smem.bank_conflicts): lanes {lanes[0]} and {lanes[1]} touch "
                                       f"bank {w['bank']}, words {w['word']} and {w['word2']}")
                out.append(fig)
        return out

    def report_views(self, check: CheckSpec, result: CheckResult) -> tuple[str, ...]:
        failed = {t.id for t in result.failures()}
        if T.SMEM_BANK_CONFLICTS in failed:
            return (BANKS_VIEW,)
        if T.SMEM_INJECTIVE in failed or T.SMEM_IN_BOUNDS in failed:
            return (SMEM_VIEW,)
        atom = (MMA_VIEW,) if {T.MMA_BIJECTIVE, T.MMA_MATCHES_INSTRUCTION} & failed else ()
        return (*atom, COPY_VIEW, SMEM_VIEW)

    def neighbours(self, spec: Spec, check: CheckSpec) -> Iterator[Neighbour]:
        from .neighbours import construction_changes, resize_changes, smem_changes
        assert isinstance(check, TiledCheck)
        yield from construction_changes(check)
        yield from smem_changes(spec, check)
        yield from resize_changes(spec, check)




TILED = register(TiledKind())
