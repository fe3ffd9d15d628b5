"""Running a check: its kind plans the theorems (in groups, verifier/kinds/base.py), the engine decides their
items and types the outcome (README, "Outcomes: what a verdict rests on").

Planning builds CuTe's objects and the obligations; CuTe refusing the configuration (its rule) becomes a
REFUSED theorem with the spec location of the step it refused; anything else that goes wrong while
planning or deciding is an internal ERROR of that theorem, never a verdict.  Describing a witness (counts,
closed forms, the chain) happens right after the decision and can only degrade the description.
Nothing here knows a kind: the registry gives the check's, and the catalog orders its theorems.
"""
from __future__ import annotations

import time
import traceback
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Callable, Hashable

from ..algebra.inttuple import PortLimit
from ..kinds.base import Chain, Context, Group
from ..kinds.cute_objects import ConfigurationRefused
from ..kinds.registry import kind_of
from ..outcome import Expect, Status, check_verdict, combine
from ..specfile.model import CheckSpec, Spec
from ..symbolic.decide import (Enumeration, decide, enumerable, enumerate_obligation, evaluate_at, generation,
                               smallest_failure)
from ..symbolic.procedure import DEFAULT_SETTINGS, Procedure, Settings
from ..symbolic.expr import evaluate, texts_of, variables
from ..theorems.catalog import BY_ID, TheoremId
from ..theorems.claims import (Blame, Claim, Fact, ItemResult, Plan, Refusal, Suspect, TheoremResult, Trace,
                               Unsupported, Witness)
from ..theorems.refusal_rules import explain as explain_refusal
from ..theorems.result import CheckResult
from ..theorems.suspects import Suspects


# --- deciding -----------------------------------------------------------------------------------------------

def _resolve(suspect: Suspect | Blame, point: dict[str, int]) -> Suspect:
    if isinstance(suspect, Suspect):
        return suspect
    for pred, who in suspect.cases:
        vs = variables(pred)
        if all(v.name in point for v in vs) and evaluate([pred], point)[0]:
            return who
    return suspect.default


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
    if claim.exact is not None and decision.status is not Status.PROVED:
        # the equivalent form was not proved: the claim in its own variables decides and is reported
        r = _decide_claim(replace(claim, obligation=claim.exact(), exact=None), settings, chain)
        r.seconds += decision.seconds
        if decision.status is Status.REFUTED and r.status is Status.PROVED:
            r.status = Status.ERROR
            r.reason = (f"internal error: the claim's equivalent form over {ob.domain_text()} is refuted "
                        f"({decision.procedure.value}) but the claim is proved")
        return r
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
    except PortLimit as e:      # a limit of this tool, not CuTe's rule: never a refusal
        return _unsupported(tid, e, t0)
    except Exception as e:  # noqa: BLE001 - an internal error is its own outcome (exit 4), never a verdict
        return _internal_error(tid, e, debug, t0)
    if not items:
        return TheoremResult(tid, Status.ERROR, [], "internal error: the theorem planned nothing to decide",
                             time.perf_counter() - t0)
    status = combine(i.status for i in items)
    reason = next((i.reason for i in items if i.status is status and i.reason), "")
    return TheoremResult(tid, status, items, reason, time.perf_counter() - t0)


def _unsupported(tid: TheoremId, limit: PortLimit, t0: float) -> TheoremResult:
    return TheoremResult(tid, Status.UNSUPPORTED, [], f"not supported by this tool: {limit}", time.perf_counter() - t0)


def _refused(tid: TheoremId, refusal: Refusal, t0: float) -> TheoremResult:
    item = ItemResult("CuTe builds the configuration", Status.REFUSED, Procedure.EVALUATION,
                      reason=refusal.rule, note=explain_refusal(refusal.rule, refusal.detail) or refusal.detail,
                      witness=Witness(actual=refusal.rule, expected="a configuration CuTe compiles",
                                      suspect=refusal.suspect))
    return TheoremResult(tid, Status.REFUSED, [item], f"CuTe refuses it: {refusal.rule}", time.perf_counter() - t0)


# --- a check ------------------------------------------------------------------------------------------------

def decide_group(group: Group, settings: Settings, suspects: Suspects, only: set[TheoremId] | None,
                 debug: bool) -> list[TheoremResult]:
    """Build a group's objects and decide its theorems (those in `only`, when given).  CuTe refusing the build is
    every theorem of the group refused; any other failure of the build, every theorem an internal error."""
    t0 = time.perf_counter()
    try:
        planned = group.build()
    except ConfigurationRefused as e:
        refusal = Refusal(e.rule, e.detail, suspects.field(e.field, f"CuTe refuses {e.step}"))
        return [_refused(tid, refusal, t0) for tid in group.ids if only is None or tid in only]
    except PortLimit as e:      # a limit of this tool, not CuTe's rule: never a refusal
        return [_unsupported(tid, e, t0) for tid in group.ids if only is None or tid in only]
    except Exception as e:  # noqa: BLE001 - an internal error is its own outcome (exit 4), never a verdict
        return [_internal_error(tid, e, debug, t0) for tid in group.ids if only is None or tid in only]
    decided = [decide_theorem(tid, plan, settings, suspects, planned.chain, debug)
               for tid, plan in planned.plans.items() if only is None or tid in only]
    return group.review(decided) if group.review is not None else decided


@dataclass
class _Shared:
    """A shared group's decision (`Group.shared`): its theorems, all proved, and the lines of information and the
    findings deciding it added to its check's result."""
    theorems: list[TheoremResult]
    info: list[str]
    findings: list[TheoremResult]


# (the group's key, the theorems asked for, the settings, the decisions' generation) -> the group's decision, the
# least recently used first
_SHARED: OrderedDict[tuple[Hashable, ...], _Shared] = OrderedDict()
SHARED_SIZE = 8192            # shared groups remembered per process


def _decide_shared(group: Group, settings: Settings, suspects: Suspects, only: set[TheoremId] | None,
                   debug: bool, context: Context) -> list[TheoremResult]:
    """`decide_group`, once for every group of one `shared` key: a later group of the key gets the first one's
    theorems (copies) and its lines of information and findings, when every theorem of it was proved."""
    if group.shared is None:
        return decide_group(group, settings, suspects, only, debug)
    key = (group.shared, None if only is None else frozenset(only), settings, generation())
    found = _SHARED.get(key)
    if found is not None:
        _SHARED.move_to_end(key)
        context.info.extend(found.info)
        context.findings.extend(found.findings)
        return [replace(t, items=list(t.items), seconds=0.0) for t in found.theorems]
    info, findings = len(context.info), len(context.findings)
    decided = decide_group(group, settings, suspects, only, debug)
    if decided and all(t.status is Status.PROVED for t in decided):
        if len(_SHARED) >= SHARED_SIZE:
            _SHARED.popitem(last=False)
        _SHARED[key] = _Shared(decided, context.info[info:], context.findings[findings:])
    return decided


def run_check(spec: Spec, check: CheckSpec, settings: Settings = DEFAULT_SETTINGS, only: set[TheoremId] | None = None,
              debug: bool = False) -> CheckResult:
    """Prove every theorem of one check (or those in `only`); a family, every member (engine/family.py)."""
    from ..specfile.family import FamilyCheck
    if isinstance(check, FamilyCheck):
        from .family import run_family
        return run_family(spec, check, settings, prove_member, debug)
    t0 = time.perf_counter()
    kind = kind_of(check)
    result = CheckResult(spec.path, spec.name, check.name, check.loc, Expect(check.expect), check.kind,
                         check.summary())
    result.info.extend(f"assumes: {a}" for a in check.assumes)
    suspects = Suspects(spec, check)
    context = Context(settings, suspects, result.info, result.findings)
    theorems: list[TheoremResult] = []
    for group in kind.plan(spec, check, context):
        theorems += _decide_shared(group, settings, suspects, only, debug, context)
    result.theorems = sorted(theorems, key=lambda t: BY_ID[t.id].number)
    result.verdict = check_verdict(t.status for t in result.theorems)
    result.seconds = time.perf_counter() - t0
    return result


def prove_member(spec: Spec, check: CheckSpec, settings: Settings, debug: bool) -> CheckResult:
    """A family member's result (engine/family.py's ProveMember): the member proved as the check it is."""
    return run_check(spec, check, settings, debug=debug)
