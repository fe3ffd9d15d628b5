"""Terminal report: one line per check, and for every refuted check its counterexample."""
from __future__ import annotations

from ..theorems.runner import CheckResult
from .counterexample import Failure, failures

LABEL = {"pass": "PASS", "fail": "FAIL", "unknown": "UNDECIDED"}


def verdict_phrase(r: CheckResult) -> str:
    n = len(r.theorems)
    proved = sum(t.status == "proved" for t in r.theorems)
    if r.verdict == "verified":
        return f"verified ({proved}/{n} theorems proved)"
    if r.verdict == "refuted":
        ids = ", ".join(t.id for t in r.failures())
        return ("refuted as expected" if r.check.expect == "fail" else "REFUTED") + f" ({ids})"
    undecided = [t for t in r.theorems if t.status == "unknown"]
    why = "; ".join(f"{t.id}: {t.reason}" for t in undecided[:2])
    return f"undecided ({why})"


def render_failure(f: Failure, indent: str = "      ") -> list[str]:
    out = [f"{indent}theorem {f.number} {f.theorem} ({f.title}): {f.obligation}"]
    if f.note:
        out.append(f"{indent}  {f.note}")
    if f.point and not (len(f.point) == 1 and "n" in f.point):
        pt = " ".join(f"{k}={v}" for k, v in f.point.items())
        count = ""
        if f.failing is not None:
            count = f" ({f.failing}{'' if f.failing_exact else '+'} failing of {f.domain_size} points)"
        out.append(f"{indent}  domain: {f.domain}")
        out.append(f"{indent}  smallest counterexample: {pt}{count}")
        if f.actual is not None and f.expected is not None:
            out.append(f"{indent}  actual {f.actual}, expected {f.expected}")
        for k, v in f.values.items():
            out.append(f"{indent}    {k} = {v}")
        for k, v in f.closed_forms.items():
            out.append(f"{indent}  {k} = {v}")
    loc = f" ({f.suspect_loc})" if f.suspect_loc else ""
    out.append(f"{indent}  suspect: {f.suspect}{loc}")
    if f.chain is not None:
        out.append(f"{indent}  the chain at {f.chain.title}:")
        width = max(len(s.label) for s in f.chain.steps)
        for s in f.chain.steps:
            out.append(f"{indent}    {s.label:<{width}}  {s.text}")
    return out


def render_check(r: CheckResult, verbose: bool = False) -> list[str]:
    lines = [f"  {LABEL[r.outcome]:<9} {r.check.name:<34} {verdict_phrase(r)}  {r.seconds:.2f}s"]
    if r.verdict == "refuted":
        for f in failures(r):
            lines += render_failure(f)
    if verbose:
        for t in r.theorems:
            lines.append(f"      {t.number} {t.id:<26} {t.status}  {t.seconds * 1000:.1f} ms" +
                         (f"  ({t.reason})" if t.reason else ""))
    return lines


def summary(results: list[CheckResult], seconds: float) -> str:
    ok = sum(r.outcome == "pass" for r in results)
    bad = sum(r.outcome == "fail" for r in results)
    und = sum(r.outcome == "unknown" for r in results)
    ver = sum(r.verdict == "verified" for r in results)
    ref = sum(r.verdict == "refuted" and r.check.expect == "fail" for r in results)
    doc = sum(r.verdict == "unknown" and r.check.expect == "undecided" for r in results)
    documented = f", {doc} undecided as documented" if doc else ""
    return (f"{len(results)} checks: {ok} as expected ({ver} verified, {ref} refuted as documented{documented}), "
            f"{bad} wrong, {und} undecided  [{seconds:.2f}s]")


def render(results: list[CheckResult], seconds: float, verbose: bool = False) -> str:
    lines: list[str] = []
    current = None
    for r in results:
        if r.spec.path != current:
            current = r.spec.path
            lines.append(f"{r.spec.path} ({r.spec.name})")
        lines += render_check(r, verbose)
    lines.append(summary(results, seconds))
    return "\n".join(lines) + "\n"
