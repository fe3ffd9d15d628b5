"""Running a check: build its obligations, prove them, and turn the verdicts into a check verdict."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..spec.model import CheckSpec, Spec
from ..symbolic.solver import Obligation, Verdict, prove
from . import atom_theorems as AT
from . import tiled_theorems as TT
from .catalog import BY_ID, THEOREMS
from .setup import SetupError, build_tiled, copy_atom, copy_model_for, mma_model_for


@dataclass
class TheoremResult:
    id: str
    status: str                      # "proved" | "counterexample" | "unknown"
    verdicts: list[Verdict] = field(default_factory=list)
    reason: str = ""
    seconds: float = 0.0

    @property
    def number(self) -> int:
        return BY_ID[self.id].number

    @property
    def title(self) -> str:
        return BY_ID[self.id].title

    def first_failure(self) -> Verdict | None:
        return next((v for v in self.verdicts if v.status == "counterexample"), None)


@dataclass
class CheckResult:
    spec: Spec
    check: CheckSpec
    theorems: list[TheoremResult] = field(default_factory=list)
    verdict: str = "unknown"         # "verified" | "refuted" | "unknown"
    seconds: float = 0.0
    setup: object = None             # TiledSetup for tiled checks (used by reports and `explain`)
    failure_cache: list | None = None  # described counterexamples, when computed where `setup` lived

    @property
    def expected(self) -> str:
        return {"fail": "refuted", "undecided": "unknown"}.get(self.check.expect, "verified")

    @property
    def ok(self) -> bool:
        return self.verdict == self.expected

    @property
    def outcome(self) -> str:
        """'pass' when the verdict is the one expected, else 'fail' (a definite wrong answer) or 'unknown'."""
        if self.ok:
            return "pass"
        return "unknown" if self.verdict == "unknown" else "fail"

    def failures(self) -> list[TheoremResult]:
        return [t for t in self.theorems if t.status == "counterexample"]


def _theorem(tid: str, obligations: list[Obligation], timeout: float, reason_if_empty: str = "") -> TheoremResult:
    t0 = time.perf_counter()
    if not obligations:
        return TheoremResult(tid, "unknown", [], reason_if_empty or "nothing to prove", 0.0)
    verdicts = [prove(ob, timeout) for ob in obligations]
    if any(v.status == "counterexample" for v in verdicts):
        status = "counterexample"
    elif any(v.status == "unknown" for v in verdicts):
        status = "unknown"
    else:
        status = "proved"
    reason = next((v.reason for v in verdicts if v.status == "unknown"), "")
    return TheoremResult(tid, status, verdicts, reason, time.perf_counter() - t0)


def _summarise(result: CheckResult) -> None:
    if any(t.status == "counterexample" for t in result.theorems):
        result.verdict = "refuted"
    elif result.theorems and all(t.status == "proved" for t in result.theorems):
        result.verdict = "verified"
    else:
        result.verdict = "unknown"


def _mma_atom_theorems(spec: Spec, check: CheckSpec, operands: list[str], timeout: float) -> list[TheoremResult]:
    atom = spec.mma_atoms[check.mma]
    model = mma_model_for(atom)
    out = []
    layouts = {"A": atom.a, "B": atom.b, "C": atom.c}
    bij = []
    for op in operands:
        bij += AT.bijective(atom.name, layouts[op], atom.shape_mnk, op)
    out.append(_theorem("mma.bijective", bij, timeout))
    if model is None:
        why = (f"no hardware model for '{atom.instruction}'" if atom.instruction
               else "the atom names no instruction (its Op has no asm of its own)")
        out.append(TheoremResult("mma.matches_instruction", "unknown", [], f"{why} (atom {atom.name})"))
    else:
        obs = []
        for op in operands:
            obs += AT.matches_instruction(atom.name, layouts[op], atom.thr_id, model, op, atom.shape_mnk)
        out.append(_theorem("mma.matches_instruction", obs, timeout))
    return out


def _copy_atom_theorem(spec: Spec, check: CheckSpec, timeout: float) -> TheoremResult:
    atom = spec.copy_atoms[check.copy]
    model = copy_model_for(atom)
    if model is None:
        return TheoremResult("copy.routing", "unknown", [],
                             f"no hardware model for '{atom.instruction}' (atom {atom.name})")
    typed = None
    if check.value_type is not None:
        try:
            typed = copy_atom(atom).with_value_bits(check.value_type.bits)
        except Exception as e:  # CuTe refuses Copy_Atom<Op, T> for this T
            obs = [TT._fail("copy.routing", f"Copy_Atom<{atom.name}, {check.value_type.name}>", str(e))]
            return _theorem("copy.routing", obs, timeout)
    return _theorem("copy.routing", AT.copy_routing(atom.name, atom.thr_id, atom.src, atom.dst, model, typed),
                    timeout)


def run_check(spec: Spec, check: CheckSpec, timeout: float = 30.0, only: set[str] | None = None) -> CheckResult:
    """Prove every theorem of one check (or those in `only`)."""
    t0 = time.perf_counter()
    result = CheckResult(spec, check)
    kind = check.kind
    theorems: list[TheoremResult] = []
    if kind == "mma":
        ops = [check.operand] if check.operand else ["A", "B", "C"]
        theorems += _mma_atom_theorems(spec, check, ops, timeout)
    elif kind == "copy":
        theorems.append(_copy_atom_theorem(spec, check, timeout))
    else:
        theorems += _mma_atom_theorems(spec, check, [check.operand], timeout)
        theorems.append(_copy_atom_theorem(spec, check, timeout))
        theorems += _tiled_theorems(spec, check, timeout, result)
    if only:
        theorems = [t for t in theorems if t.id in only]
    order = {t.id: t.number for t in THEOREMS}
    result.theorems = sorted(theorems, key=lambda t: order[t.id])
    _summarise(result)
    result.seconds = time.perf_counter() - t0
    return result


def _tiled_theorems(spec: Spec, check: CheckSpec, timeout: float, result: CheckResult) -> list[TheoremResult]:
    try:
        setup = build_tiled(check, spec.mma_atoms[check.mma], spec.copy_atoms[check.copy])
    except SetupError as e:
        ob = TT._fail(e.theorem, "CuTe builds the tiled copy", e.message)
        return [_theorem(e.theorem, [ob], timeout)]
    result.setup = setup
    no_copy_model = f"no hardware model for '{setup.copy_spec.instruction}'"
    no_mma_model = f"no hardware model for '{setup.mma_spec.instruction}'"
    out = [_theorem("copy.dst_matches_mma", TT.register_side_matches_mma(setup), timeout)]
    out.append(_theorem("copy.src_matches_dst", _guard(TT.source_matches_destination, setup), timeout,
                        no_copy_model))
    out.append(_theorem("copy.addressing", _guard(TT.addressing, setup), timeout,
                        no_copy_model if setup.copy_hw is None else "the copy has no shared-memory side"))
    out.append(_theorem("fragment.aliasing", _guard(TT.fragment_aliasing, setup), timeout))
    reason = no_copy_model if setup.copy_hw is None else no_mma_model
    out.append(_theorem("end_to_end", _guard(TT.end_to_end, setup), timeout, reason))
    return out


def _guard(fn, setup) -> list[Obligation]:
    """Obligation builders evaluate CuTe layouts; a layout CuTe would refuse is a refutation, not a crash."""
    from ..algebra.inttuple import AlgebraError
    try:
        return fn(setup)
    except AlgebraError as e:
        tid = {"source_matches_destination": "copy.src_matches_dst", "addressing": "copy.addressing",
               "fragment_aliasing": "fragment.aliasing", "end_to_end": "end_to_end"}[fn.__name__]
        return [TT._fail(tid, "CuTe builds the partition", f"CuTe would not compile this: {e}")]
