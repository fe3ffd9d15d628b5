"""A failing check, described for a human: which theorem, the smallest failing point, the whole chain
of numbers at that point, expected vs actual, the layouts in closed form, and which layout to suspect."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..spec.model import Loc
from ..symbolic.solver import Verdict
from ..theorems.catalog import BY_ID
from ..theorems.runner import CheckResult, TheoremResult
from .chain import Chain, chain_for, source_chain
from .closed_form import closed_form


@dataclass
class Failure:
    theorem: str
    number: int
    title: str
    statement: str
    obligation: str
    domain: str
    point: dict[str, int]
    failing: int | None
    failing_exact: bool
    domain_size: int
    actual: int | None
    expected: int | None
    values: dict[str, int]
    closed_forms: dict[str, str]
    suspect: str
    suspect_loc: Loc | None
    note: str = ""
    chain: Chain | None = None
    hardware: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {
            "theorem": self.theorem, "number": self.number, "title": self.title, "statement": self.statement,
            "obligation": self.obligation, "domain": self.domain, "point": self.point,
            "failing": self.failing, "failing_exact": self.failing_exact, "domain_size": self.domain_size,
            "actual": self.actual, "expected": self.expected, "values": self.values,
            "closed_forms": self.closed_forms, "suspect": self.suspect,
            "suspect_location": str(self.suspect_loc) if self.suspect_loc else None, "note": self.note,
            "hardware": self.hardware,
            "chain": [{"step": s.label, "text": s.text} for s in self.chain.steps] if self.chain else None,
        }


def _suspect(result: CheckResult, theorem: str, subject: str = "") -> tuple[str, Loc | None]:
    spec, check = result.spec, result.check
    op = (subject or check.operand or "A").upper()
    mma = spec.mma_atoms.get(check.mma) if check.mma else None
    cpy = spec.copy_atoms.get(check.copy) if check.copy else None
    fl = check.field_locs
    if theorem in ("mma.bijective", "mma.matches_instruction") and mma is not None:
        return (f"the {op} layout of MMA atom {mma.name} (MMA_Traits::{op}Layout)",
                mma.field_locs.get(op.lower(), mma.loc))
    if theorem == "copy.routing" and cpy is not None:
        return (f"the src/dst layouts of copy atom {cpy.name} (Copy_Traits) against {cpy.instruction}",
                cpy.field_locs.get("dst", cpy.loc))
    if theorem in ("copy.dst_matches_mma", "copy.addressing", "fragment.aliasing", "end_to_end") and mma is not None \
            and check.value_type is not None and check.kind == "tiled":
        want = mma.types.get(op.lower())
        if want is not None and want.bits != check.value_type.bits:
            return (f"the copy's value_type {check.value_type.name} ({check.value_type.bits} bits) is not the MMA's "
                    f"{op} type {want.name} ({want.bits} bits)", fl.get("value_type", check.loc))
    if theorem in ("copy.dst_matches_mma", "fragment.aliasing"):
        which = (check.copy_for or op).upper()
        if which != op:
            return (f"make_tiled_copy_{which} builds a copy for operand {which}, but the check loads operand {op}",
                    fl.get("copy_for", check.loc))
        if check.copy_mma is not None:
            return ("the tiled MMA the copy was built from (copy_mma) is not the kernel's", fl.get("copy_mma", check.loc))
        return (f"the pairing of {check.copy} with {check.mma} (value type, make_tiled_copy_{which})",
                fl.get("copy", check.loc))
    if theorem == "copy.src_matches_dst":
        return (f"the copy atom {check.copy}: its variant (N or T) or its traits", fl.get("copy", check.loc))
    if theorem == "copy.addressing":
        return ("the shared-memory layout (row pitch, swizzle) or the copy variant for this majorness",
                fl.get("smem", check.loc))
    if theorem == "end_to_end":
        status = {t.id: t.status for t in result.theorems}
        if status.get("mma.matches_instruction") == "counterexample" and mma is not None:
            return (f"the {op} layout of {mma.name}: the copy delivers what that layout asks for, the instruction "
                    "reads something else", mma.field_locs.get(op.lower(), mma.loc))
        if status.get("copy.addressing") == "counterexample":
            return ("the shared-memory layout or the copy variant (see theorem 6): the rows the copy reads are not "
                    "the ones the MMA expects", fl.get("smem", check.loc))
        if "counterexample" in (status.get("copy.dst_matches_mma"), status.get("fragment.aliasing")):
            return ("how the tiled copy was built (make_tiled_copy_X / copy_mma, see theorems 4 and 7)",
                    fl.get("copy_for", fl.get("copy_mma", check.loc)))
        return (f"the traits of {check.copy} against its instruction, or the shared-memory layout",
                fl.get("copy", check.loc))
    return ("the check's configuration", check.loc)


def _chain_point(theorem: str, point: dict[str, int], result: CheckResult) -> tuple[int, int, tuple] | None:
    setup = result.setup
    if setup is None:
        return None
    lane = point.get("lane", point.get("thread"))
    if lane is None:
        return None
    inst = tuple(point.get(f"r{i}", 0) for i in range(len(setup.instance_shape())))
    value = point.get("value", 0)
    if theorem == "copy.dst_matches_mma":
        n = setup.typed.num_val_src if setup.is_store else setup.typed.num_val_dst
        inst = (value // n,) + inst[1:]
        value = value % n
    if lane >= setup.tiled_copy.num_threads:
        return None
    return lane, value, inst


def describe(result: CheckResult, tr: TheoremResult, v: Verdict, base: int = 0x1000) -> Failure:
    ob = v.obligation
    th = BY_ID[tr.id]
    sizes = {x.name: x.size for x in ob.variables}
    point = {k: val for k, val in (v.counterexample or {}).items() if sizes.get(k, 2) > 1 or k == "n"}
    forms = {}
    if ob.lhs is not None:
        forms["actual"] = closed_form(ob.lhs)
    if ob.rhs is not None:
        forms["expected"] = closed_form(ob.rhs)
    suspect, loc = _suspect(result, tr.id, ob.subject)
    f = Failure(tr.id, th.number, th.title, th.statement, ob.title, ob.domain_text(), point, v.failing,
                v.failing_exact, ob.counted_size(), v.values.get("lhs"), v.values.get("rhs"),
                {k: val for k, val in v.values.items() if k not in ("lhs", "rhs")}, forms, suspect, loc, ob.note)
    cp = _chain_point(tr.id, point, result)
    if cp is not None:
        try:
            if tr.id == "copy.addressing":
                f.chain = source_chain(result.setup, cp[0], cp[2], base=base)
            else:
                f.chain = chain_for(result.setup, *cp, base=base)
        except Exception:  # the chain is explanation only; a partial configuration may not support every step
            f.chain = None
    return f


def failures(result: CheckResult, base: int = 0x1000) -> list[Failure]:
    if result.failure_cache is not None:
        return result.failure_cache
    out = []
    for tr in result.theorems:
        v = tr.first_failure()
        if v is not None:
            out.append(describe(result, tr, v, base))
    result.failure_cache = out
    return out
