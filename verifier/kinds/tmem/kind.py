"""The TMEM kind, registered: a tcgen05.ld / tcgen05.st tiled copy of a tensor-memory tile over one warpgroup."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, TextIO

from ...draw.figure import View
from ...report.failures import safe
from ...specfile.fields import AtomTable, Fields
from ...specfile.model import CheckKind, CheckSpec, MMAAtomSpec, Spec
from ...specfile.vocabulary import TMEM_KEYS
from ...theorems.catalog import TheoremId
from ...theorems.claims import Plan, Unsupported
from ..atom.plans import copy_plan
from ..base import Context, DrawError, ExplainError, ExplainRequest, Group, Neighbour, PlanOf, Planned, write_chain
from ..registry import register
from .config import TmemCheck, read_tmem_check, reads_tmem_check

if TYPE_CHECKING:
    from ...draw.figure import Figure
    from ...theorems.result import CheckResult

T = TheoremId
# the theorems of the tiled TMEM copy after the atom's, in the order they are decided (22 with `store:`)
TMEM_ORDER = (T.TMEM_COPY, T.TMEM_LANE_ACCESS, T.TMEM_ALLOCATION)
TMEM_VIEW = View.TMEM.value
TMEM_PRECEDENCE = 0          # asked first: any TMEM key makes a TMEM check (its reader says what else it lacks)


class TmemKind:
    """Theorem 3 on the tcgen05.ld / st atom, then 19-21 on the tiled copy make_tmem_copy builds (22 after a load
    with `store:`, 36 with `accumulator:`); 38 with `accumulator_stages:`, whatever the copy's model."""
    name = CheckKind.TMEM.value
    precedence = TMEM_PRECEDENCE
    keys: tuple[str, ...] = TMEM_KEYS
    summary_line = "a tcgen05.ld / st tiled copy of a tensor-memory tile: theorems 3, 19-22, 36, 38"
    needs_result_to_draw = True          # the counterexample's cells are outlined

    def recognises(self, fields: Fields, mma: MMAAtomSpec | None) -> bool:
        return reads_tmem_check(fields, mma)

    def read(self, fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None, atoms: AtomTable) -> CheckSpec:
        return read_tmem_check(fields, named, atoms)

    def plan(self, spec: Spec, check: CheckSpec, context: Context) -> list[Group]:
        assert isinstance(check, TmemCheck)
        atom = {T.COPY_ROUTING: copy_plan(spec, check, check.copy, context)}
        store = check.tmem_store
        order = (TMEM_ORDER + ((T.TMEM_STORE,) if store is not None else ())
                 + ((T.TMEM_ACCUMULATOR,) if check.accumulator is not None else ()))
        stages = (T.TMEM_ACCUMULATOR_STAGES,) if check.accumulator_stages is not None else ()

        def build() -> Planned:
            from . import store as TS
            from . import theorems as MT
            from .chain import TmemChain
            from .accumulator import accumulator_placement
            suspects = context.suspects
            setup = MT.build_tmem(check, spec.copy_atoms[check.copy])
            if isinstance(setup, Unsupported):    # no model for the copy: its theorems say so
                missing = setup
                planned: dict[TheoremId, PlanOf] = {tid: (lambda: missing) for tid in order}
                if check.accumulator is not None:
                    planned[T.TMEM_ACCUMULATOR] = lambda: accumulator_placement(check, suspects)
                return Planned(planned)
            tmem = setup
            plans: dict[TheoremId, PlanOf] = {
                T.TMEM_COPY: lambda: MT.tmem_copy(tmem, suspects),
                T.TMEM_LANE_ACCESS: lambda: MT.lane_access(tmem, suspects),
                T.TMEM_ALLOCATION: lambda: MT.allocation(tmem, suspects),
            }
            if store is not None:
                def store_plan() -> Plan:
                    assert store is not None
                    return TS.store_chain(TS.build_store(tmem, store, spec.copy_atoms[store.copy]), suspects)
                plans[T.TMEM_STORE] = store_plan
            if check.accumulator is not None:
                plans[T.TMEM_ACCUMULATOR] = lambda: accumulator_placement(check, suspects)
            return Planned(plans, TmemChain(setup))

        groups = [Group(tuple(atom), lambda: Planned(atom)), Group(order, build)]
        if stages:
            def stages_plan() -> Planned:
                from .stages import accumulator_stages
                return Planned({T.TMEM_ACCUMULATOR_STAGES: lambda: accumulator_stages(check, context.suspects)})
            groups.append(Group(stages, stages_plan))
        return groups

    def explain(self, spec: Spec, check: CheckSpec, request: ExplainRequest, out: TextIO) -> None:
        """thread, register, call -> CuTe's coordinate and its cell, the call's address, the cell the instruction
        moves, the warp's lane quarter."""
        from .chain import TmemChain
        from .theorems import build_tmem
        assert isinstance(check, TmemCheck)
        name = safe(check.name)
        thread, register_, instance = request.lane, request.value, request.instance
        if thread is None or register_ is None or len(instance) > 1:
            raise ExplainError(f"check '{name}' is a TMEM check: give --lane THREAD (0-127), --value REGISTER and "
                               "optionally --instance CALL")
        setup = build_tmem(check, spec.copy_atoms[check.copy])
        if isinstance(setup, Unsupported):
            raise ExplainError(f"check '{name}' cannot be traced: {setup.missing}")
        call = instance[0] if instance else 0
        if not (0 <= thread < setup.threads and 0 <= register_ < setup.values and 0 <= call < setup.calls):
            raise ExplainError(f"--lane must be in [0,{setup.threads}), --value in [0,{setup.values}) and "
                               f"--instance in [0,{setup.calls}) for check '{name}'")
        title, lines = TmemChain(setup).register_lines(thread, register_, call)
        out.write(f"{request.path}: check {name}: {check.copy} on {check.value_type.name}, tmem {check.tmem}\n")
        write_chain(out, title, lines)

    def views(self, check: CheckSpec) -> tuple[str, ...]:
        return (TMEM_VIEW,)

    def figures(self, spec: Spec, check: CheckSpec, views: tuple[str, ...],
                result: CheckResult | None) -> list[Figure]:
        from .theorems import build_tmem
        from .views import tmem_figure, tmem_marks
        assert isinstance(check, TmemCheck)
        out: list[Figure] = []
        for view in views:
            if view == TMEM_VIEW:
                tmem = build_tmem(check, spec.copy_atoms[check.copy])
                if isinstance(tmem, Unsupported):
                    raise DrawError(f"check '{safe(check.name)}' cannot be drawn: {tmem.missing}")
                store = None
                if check.tmem_store is not None and result is not None:
                    from ..cute_objects import ConfigurationRefused
                    from .store import VECTORIZE_RULE, build_store, vectorize_refusal
                    store = build_store(tmem, check.tmem_store, spec.copy_atoms[check.tmem_store.copy])
                    scattered = vectorize_refusal(store)
                    if scattered is not None:       # CuTe builds no such store: its rule is the whole story
                        raise ConfigurationRefused(VECTORIZE_RULE, scattered, "copy_unpack of the store", "store")
                marks, captions = tmem_marks(tmem, result, store)
                failed = result is not None and bool(result.failures())
                out.append(tmem_figure(tmem, marks, captions, window=failed))
        return out

    def report_views(self, check: CheckSpec, result: CheckResult) -> tuple[str, ...]:
        return (TMEM_VIEW,)

    def neighbours(self, spec: Spec, check: CheckSpec) -> Iterator[Neighbour]:
        from .neighbours import tmem_changes
        assert isinstance(check, TmemCheck)
        return tmem_changes(check)


TMEM = register(TmemKind())
