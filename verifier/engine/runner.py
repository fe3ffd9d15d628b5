"""Running a check: plan its theorems, decide their items, and type the outcome (../DESIGN.md, "Outcomes").

Planning builds CuTe's objects and the obligations; CuTe refusing the configuration (its rule) becomes a
REFUSED theorem with the spec location of the step it refused; anything else that goes wrong while
planning or deciding is an internal ERROR of that theorem, never a verdict.  Describing a witness (counts,
closed forms, the chain) happens right after the decision and can only degrade the description.
"""
from __future__ import annotations

import time
import traceback
from typing import TYPE_CHECKING, Callable, Union

from ..algebra.inttuple import AlgebraError
from ..cute.copy import TypedCopyAtom
from ..outcome import Expect, Status, check_verdict, combine
from ..specfile.model import CheckKind, CheckSpec, Spec
from ..symbolic.decide import (DEFAULT_SETTINGS, Enumeration, Procedure, Settings, decide, enumerable,
                               enumerate_obligation, evaluate_at, smallest_failure)
from ..symbolic.expr import evaluate, texts_of, variables
from ..kinds.atom import theorems as AT
from ..kinds.tiled import banks as BT
from ..kinds.tiled import theorems as TT
from ..theorems.catalog import BY_ID, TheoremId
from ..kinds.tiled.chain import OperandChain
from ..theorems.claims import (Blame, Claim, Fact, ItemResult, Plan, Refusal, Suspect, TheoremResult, Trace,
                               Unsupported, Witness)
from ..theorems.refusal_rules import explain as explain_refusal
from ..theorems.result import CheckResult
from ..kinds.tiled.setup import (ConfigurationRefused, build_tiled, copy_atom, copy_model_for, executed_unread_side,
                    mma_model_for)
from ..theorems.suspects import Suspects

T = TheoremId
BANKS_CONFLICT_FREE, BANKS_REPORT = "conflict_free", "report"
GMMA_ORDER = (T.SMEM_INJECTIVE, T.COPY_VALUE_TYPE, T.TMA_ENCODABLE, T.TMA_PLACEMENT, T.GMMA_DESCRIPTOR,
              T.GMMA_END_TO_END)
TILED_ORDER = (T.COPY_DST_MATCHES_MMA, T.COPY_SRC_MATCHES_DST, T.COPY_ADDRESSING, T.FRAGMENT_ALIASING, T.END_TO_END,
               T.SMEM_INJECTIVE, T.SMEM_IN_BOUNDS, T.COPY_VALUE_TYPE)


def _summary(check: CheckSpec) -> str:
    parts = []
    if check.mma:
        parts.append(check.mma + (f" {check.operand}" if check.operand else ""))
    if check.copy:
        parts.append(("<- " if check.mma else "") + check.copy
                     + (f" on {check.value_type.name}" if check.value_type else ""))
    if check.smem is not None:
        parts.append(f"smem {check.smem}")
    if check.gmem is not None:
        parts.append(f"from gmem {check.gmem}")
    return " ".join(parts)


# --- deciding -----------------------------------------------------------------------------------------------

def _resolve(suspect: Suspect | Blame, point: dict[str, int]) -> Suspect:
    if isinstance(suspect, Suspect):
        return suspect
    for pred, who in suspect.cases:
        vs = variables(pred)
        if all(v.name in point for v in vs) and evaluate([pred], point)[0]:
            return who
    return suspect.default


if TYPE_CHECKING:   # the Hopper and Blackwell theorems are imported by the first check that needs them
    from ..kinds.smem_mma.chain import Sm90Chain
    from ..kinds.tmem.chain import TmemChain
Chain = Union[OperandChain, "Sm90Chain", "TmemChain"]
WITNESS_SEARCH_S = 5.0    # solver time per query while looking for the smallest counterexample


def _describe_claim(claim: Claim, witness: dict[str, int], enumeration: Enumeration | None,
                    chain: Chain | None) -> Witness:
    """The smallest failing point, the count, the numbers and the chain there.  Never raises."""
    ob = claim.obligation
    w = Witness(point=dict(witness), failing=1, failing_exact=False, counted_size=ob.counted_size(),
                suspect=claim.suspect.default if isinstance(claim.suspect, Blame) else claim.suspect)
    try:  # describing never changes the verdict: whatever fails here only shortens the description
        if enumeration is None and not enumerable(ob):
            enumeration = enumerate_obligation(ob)
        point = dict(w.point)
        if enumeration is not None and enumeration.first is not None:
            point, w.failing, w.failing_exact = enumeration.first, enumeration.failing, True
            if not enumeration.smallest:   # counted exactly, but the point found first is not the smallest
                point, w.smallest = smallest_failure(ob, point, WITNESS_SEARCH_S)
        elif point:   # too many points to count: still show the smallest one
            point, w.smallest = smallest_failure(ob, point, WITNESS_SEARCH_S)
        w.point = {v.name: point[v.name] for v in ob.variables if v.size > 1}   # one-point domains: always 0
        w.suspect = _resolve(claim.suspect, point)
        w.values = evaluate_at(ob, point)
        w.actual = str(w.values.pop("lhs")) if "lhs" in w.values else None
        w.expected = str(w.values.pop("rhs")) if "rhs" in w.values else None
        sides = [(k, e) for k, e in (("actual", ob.lhs), ("expected", ob.rhs)) if e is not None]
        w.closed_forms = dict(zip([k for k, _ in sides], texts_of([e for _, e in sides])))
        if chain is not None and claim.trace is not Trace.NONE:
            w.chain_title, w.chain = chain.lines(claim.trace, point)
    except Exception as e:  # noqa: BLE001 - a description failure is reported in the description, not raised
        w.description_error = f"{type(e).__name__}: {e}"
    return w


def _decide_claim(claim: Claim, settings: Settings, chain: Chain | None) -> ItemResult:
    ob = claim.obligation
    decision, enumeration = decide(ob, settings)
    r = ItemResult(ob.title, decision.status, decision.procedure, decision.seconds, decision.width,
                   ob.domain_text(), ob.domain_size(), decision.reason, ob.note, claim.subject, decision.cross_check)
    if decision.status is Status.REFUTED:
        r.witness = _describe_claim(claim, decision.witness or {}, enumeration, chain)
    return r


def _decide_fact(fact: Fact) -> ItemResult:
    r = ItemResult(fact.title, Status.PROVED if fact.holds else Status.REFUTED, Procedure.EVALUATION,
                   note=fact.note, subject=fact.subject, domain_size=fact.domain_size)
    if not fact.holds:
        r.witness = Witness(point=dict(fact.point or {}), failing=fact.failing, counted_size=fact.domain_size,
                            actual=fact.actual, expected=fact.expected, suspect=fact.suspect)
    return r


def _internal_error(tid: TheoremId, e: BaseException, debug: bool, t0: float) -> TheoremResult:
    if debug:
        traceback.print_exc()
    where = traceback.extract_tb(e.__traceback__)[-1] if e.__traceback__ else None
    at = f" at {where.filename.rsplit('/', 1)[-1]}:{where.lineno}" if where else ""
    return TheoremResult(tid, Status.ERROR, [], f"internal error: {type(e).__name__}: {e}{at}",
                         time.perf_counter() - t0)


def decide_theorem(tid: TheoremId, plan: Callable[[], Plan], settings: Settings, suspects: Suspects,
                   chain: Chain | None = None, debug: bool = False) -> TheoremResult:
    """Plan and decide one theorem; a CuTe rule is REFUSED, any other exception an internal ERROR."""
    t0 = time.perf_counter()
    try:
        planned = plan()
        if isinstance(planned, Refusal):
            return _refused(tid, planned, t0)
        if isinstance(planned, Unsupported):
            return TheoremResult(tid, Status.UNSUPPORTED, [], planned.missing, time.perf_counter() - t0)
        items = [_decide_claim(i, settings, chain) if isinstance(i, Claim) else _decide_fact(i) for i in planned]
    except ConfigurationRefused as e:
        return _refused(tid, Refusal(e.rule, e.detail, suspects.field(e.field, f"CuTe refuses {e.step}")), t0)
    except Exception as e:  # noqa: BLE001 - an internal error is its own outcome (exit 4), never a verdict
        return _internal_error(tid, e, debug, t0)
    if not items:
        return TheoremResult(tid, Status.ERROR, [], "internal error: the theorem planned nothing to decide",
                             time.perf_counter() - t0)
    status = combine(i.status for i in items)
    reason = next((i.reason for i in items if i.status is status and i.reason), "")
    return TheoremResult(tid, status, items, reason, time.perf_counter() - t0)


def _refused(tid: TheoremId, refusal: Refusal, t0: float) -> TheoremResult:
    item = ItemResult("CuTe builds the configuration", Status.REFUSED, Procedure.EVALUATION,
                      reason=refusal.rule, note=explain_refusal(refusal.rule, refusal.detail) or refusal.detail,
                      witness=Witness(actual=refusal.rule, expected="a configuration CuTe compiles",
                                      suspect=refusal.suspect))
    return TheoremResult(tid, Status.REFUSED, [item], f"CuTe refuses it: {refusal.rule}", time.perf_counter() - t0)


# --- planning a check ---------------------------------------------------------------------------------------

Plans = dict[TheoremId, Callable[[], Plan]]


def _mma_plans(spec: Spec, check: CheckSpec, operands: list[str], suspects: Suspects, info: list[str],
               settings: Settings) -> Plans:
    atom = spec.mma_atoms[check.mma]   # type: ignore[index]
    holds = AT.proved_by(settings)

    def bijective() -> Plan:
        return [item for op in operands for item in AT.bijective(atom, op, suspects)]

    def matches() -> Plan:
        model = mma_model_for(atom)
        renamed = AT.relabelling_info(atom, model, holds)
        if renamed:
            info.append(renamed)
        out: list = []
        for op in operands:
            p = AT.matches_instruction(atom, op, model, suspects, holds)
            if not isinstance(p, list):
                return p
            out += p
        return out

    return {T.MMA_BIJECTIVE: bijective, T.MMA_MATCHES_INSTRUCTION: matches,
            T.MMA_TYPES: lambda: AT.types_match(atom, operands, suspects)}


def _copy_plan(spec: Spec, check: CheckSpec, suspects: Suspects) -> Callable[[], Plan]:
    atom = spec.copy_atoms[check.copy]   # type: ignore[index]

    def plan() -> Plan:
        bits = check.value_type.bits if check.value_type else None
        typed: TypedCopyAtom | AlgebraError | None = None
        if bits is not None:
            try:
                typed = copy_atom(atom).with_value_bits(bits)
            except AlgebraError as e:   # CuTe refuses Copy_Atom<Op, T> for this T
                typed = e
        model = copy_model_for(atom, None, bits)
        return AT.copy_routing(atom.name, atom.thr_id, atom.src, atom.dst, model, typed, suspects, atom.instruction)
    return plan


def run_check(spec: Spec, check: CheckSpec, settings: Settings = DEFAULT_SETTINGS, only: set[TheoremId] | None = None,
              debug: bool = False) -> CheckResult:
    """Prove every theorem of one check (or those in `only`)."""
    t0 = time.perf_counter()
    kind = check.kind
    result = CheckResult(spec.path, spec.name, check.name, check.loc, Expect(check.expect), kind, _summary(check))
    suspects = Suspects(spec, check)
    plans: dict[TheoremId, Callable[[], Plan]] = {}
    if kind is CheckKind.MMA:
        plans.update(_mma_plans(spec, check, [check.operand] if check.operand else ["A", "B", "C"], suspects,
                                result.info, settings))
    elif kind in (CheckKind.COPY, CheckKind.TMEM):
        plans[T.COPY_ROUTING] = _copy_plan(spec, check, suspects)
    elif kind is CheckKind.GMMA:   # the wgmma atom's A, B and accumulator fragments (theorem 2 for wgmma)
        plans.update(_mma_plans(spec, check, ["A", "B", "C"], suspects, result.info, settings))
    else:
        plans.update(_mma_plans(spec, check, [check.operand or "A"], suspects, result.info, settings))
        plans[T.COPY_ROUTING] = _copy_plan(spec, check, suspects)
    ids = [tid for tid in plans if only is None or tid in only]
    theorems = [decide_theorem(tid, plans[tid], settings, suspects, None, debug) for tid in ids]
    if kind is CheckKind.TILED:
        theorems = _demote_unread(spec, check, theorems, result)
        theorems += _tiled_theorems(spec, check, settings, suspects, only, debug, result.info)
    elif kind is CheckKind.GMMA:
        theorems += _gmma_theorems(spec, check, settings, suspects, only, debug)
    elif kind is CheckKind.TMEM:
        theorems += _tmem_theorems(spec, check, settings, suspects, only, debug)
    result.theorems = sorted(theorems, key=lambda t: BY_ID[t.id].number)
    result.verdict = check_verdict(t.status for t in result.theorems)
    result.seconds = time.perf_counter() - t0
    return result


LAYOUT_OF_SIDE = {"src": "SrcLayout", "dst": "DstLayout"}


def _demote_unread(spec: Spec, check: CheckSpec, theorems: list[TheoremResult],
                   result: CheckResult) -> list[TheoremResult]:
    """A tiled configuration that never reads one side of its copy atom (setup.unread_side) is judged by what it
    runs; theorem 3 about that side, when refuted, becomes a finding of the configuration (a warning), and the
    atom's own check (`copy:` alone) carries the refutation."""
    copy_spec = spec.copy_atoms[check.copy]   # type: ignore[index]
    unread = executed_unread_side(check, spec.mma_atoms[check.mma], copy_spec)   # type: ignore[index]
    if unread is None:
        return theorems
    layout = LAYOUT_OF_SIDE[unread]
    result.info.append(f"the configuration never reads {layout} of {copy_spec.name} (it "
                       f"{'retiles its registers' if unread == 'dst' else 'stores its sources'} through RefLayout): "
                       f"theorems 4-8 judge the copy it runs, and a refutation of theorem 3 is a finding")
    kept = []
    for t in theorems:
        if t.id is T.COPY_ROUTING and t.status is Status.REFUTED:   # a refusal (CuTe reads the shapes) stays
            result.findings.append(t)
        else:
            kept.append(t)
    return kept


def _tiled_theorems(spec: Spec, check: CheckSpec, settings: Settings, suspects: Suspects,
                    only: set[TheoremId] | None, debug: bool, info: list[str]) -> list[TheoremResult]:
    order = TILED_ORDER + ((T.SMEM_BANK_CONFLICTS,) if check.banks == BANKS_CONFLICT_FREE else ())
    t0 = time.perf_counter()
    try:
        setup = build_tiled(check, spec.mma_atoms[check.mma], spec.copy_atoms[check.copy])  # type: ignore[index]
        chain = OperandChain(setup)
    except ConfigurationRefused as e:
        refusal = Refusal(e.rule, e.detail, suspects.field(e.field, f"CuTe refuses {e.step}"))
        return [_refused(tid, refusal, t0) for tid in order if only is None or tid in only]
    except Exception as e:  # noqa: BLE001 - an internal error is its own outcome (exit 4), never a verdict
        return [_internal_error(tid, e, debug, t0) for tid in order if only is None or tid in only]
    if setup.operand == "C" and setup.is_store:
        order += (T.C_OWNERSHIP,)
    ids = [tid for tid in order if only is None or tid in only]
    mma = spec.mma_atoms[check.mma]   # type: ignore[index]
    plans: dict[TheoremId, Callable[[], Plan]] = {
        T.COPY_DST_MATCHES_MMA: lambda: TT.register_side_matches_mma(setup, chain, suspects),
        T.COPY_SRC_MATCHES_DST: lambda: TT.source_matches_destination(setup, chain, suspects),
        T.COPY_ADDRESSING: lambda: TT.addressing(setup, chain, suspects),
        T.FRAGMENT_ALIASING: lambda: TT.fragment_aliasing(setup, chain, suspects),
        T.END_TO_END: lambda: TT.end_to_end(setup, chain, suspects),
        T.SMEM_INJECTIVE: lambda: TT.smem_injective(setup, suspects),
        T.SMEM_IN_BOUNDS: lambda: TT.smem_in_bounds(setup, chain, suspects),
        T.COPY_VALUE_TYPE: lambda: TT.copy_value_type(setup, mma, suspects),
        T.SMEM_BANK_CONFLICTS: lambda: BT.bank_conflicts(setup, chain, suspects),
        T.C_OWNERSHIP: lambda: TT.c_store_ownership(setup, chain, suspects),
    }
    if check.banks == BANKS_REPORT:
        try:
            info += BT.bank_report(setup, chain)
        except Exception as e:  # noqa: BLE001 - information only: its failure is said, never a verdict
            info.append(f"banks: the count could not be made: {type(e).__name__}: {e}")
    return [decide_theorem(tid, plans[tid], settings, suspects, chain, debug) for tid in ids]


def _gmma_theorems(spec: Spec, check: CheckSpec, settings: Settings, suspects: Suspects,
                   only: set[TheoremId] | None, debug: bool) -> list[TheoremResult]:
    from ..kinds.smem_mma import theorems as HT
    from ..kinds.smem_mma.chain import Sm90Chain
    from ..kinds.smem_mma.setup import build_sm90
    ids = [tid for tid in GMMA_ORDER if only is None or tid in only]
    t0 = time.perf_counter()
    try:
        setup = build_sm90(check, spec.mma_atoms[check.mma])   # type: ignore[index]
        chain = Sm90Chain(setup)
    except Exception as e:  # noqa: BLE001 - an internal error is its own outcome (exit 4), never a verdict
        return [_internal_error(tid, e, debug, t0) for tid in ids]
    plans: dict[TheoremId, Callable[[], Plan]] = {
        T.SMEM_INJECTIVE: lambda: HT.smem_injective(setup, suspects),
        T.COPY_VALUE_TYPE: lambda: HT.value_type(setup, suspects),
        T.TMA_ENCODABLE: lambda: HT.tma_encodable(setup, suspects),
        T.TMA_PLACEMENT: lambda: HT.tma_placement(setup, suspects),
        T.GMMA_DESCRIPTOR: lambda: HT.gmma_descriptor(setup, suspects),
        T.GMMA_END_TO_END: lambda: HT.end_to_end(setup, suspects),
    }
    return [decide_theorem(tid, plans[tid], settings, suspects, chain, debug) for tid in ids]


TMEM_ORDER = (T.TMEM_COPY, T.TMEM_LANE_ACCESS, T.TMEM_ALLOCATION)


def _tmem_theorems(spec: Spec, check: CheckSpec, settings: Settings, suspects: Suspects,
                   only: set[TheoremId] | None, debug: bool) -> list[TheoremResult]:
    from ..kinds.tmem import store as TS
    from ..kinds.tmem import theorems as MT
    from ..kinds.tmem.chain import TmemChain
    store = check.tmem_store
    order = TMEM_ORDER + ((T.TMEM_STORE,) if store is not None else ())
    ids = [tid for tid in order if only is None or tid in only]
    t0 = time.perf_counter()
    try:
        setup = MT.build_tmem(check, spec.copy_atoms[check.copy])   # type: ignore[index]
        chain = None if isinstance(setup, Unsupported) else TmemChain(setup)
    except ConfigurationRefused as e:
        refusal = Refusal(e.rule, e.detail, suspects.field(e.field, f"CuTe refuses {e.step}"))
        return [_refused(tid, refusal, t0) for tid in ids]
    except Exception as e:  # noqa: BLE001 - an internal error is its own outcome (exit 4), never a verdict
        return [_internal_error(tid, e, debug, t0) for tid in ids]
    if isinstance(setup, Unsupported):
        return [TheoremResult(tid, Status.UNSUPPORTED, [], setup.missing, time.perf_counter() - t0) for tid in ids]
    assert chain is not None     # built with the setup
    tmem = setup
    plans: dict[TheoremId, Callable[[], Plan]] = {
        T.TMEM_COPY: lambda: MT.tmem_copy(tmem, suspects),
        T.TMEM_LANE_ACCESS: lambda: MT.lane_access(tmem, suspects),
        T.TMEM_ALLOCATION: lambda: MT.allocation(tmem, suspects),
    }
    if store is not None:
        plans[T.TMEM_STORE] = lambda: TS.store_chain(TS.build_store(tmem, store, spec.copy_atoms[store.copy]),
                                                     suspects)
    return [decide_theorem(tid, plans[tid], settings, suspects, chain, debug) for tid in ids]


def gmma_chain(spec: Spec, check: CheckSpec) -> Sm90Chain:
    """The chain of a Hopper check, for `explain`."""
    from ..kinds.smem_mma.chain import Sm90Chain
    from ..kinds.smem_mma.setup import build_sm90
    return Sm90Chain(build_sm90(check, spec.mma_atoms[check.mma]))   # type: ignore[index]


def tiled_chain(spec: Spec, check: CheckSpec) -> OperandChain:
    """The chain of a tiled check, for `explain` (raises ConfigurationRefused when CuTe would not build it)."""
    setup = build_tiled(check, spec.mma_atoms[check.mma], spec.copy_atoms[check.copy])  # type: ignore[index]
    return OperandChain(setup)
