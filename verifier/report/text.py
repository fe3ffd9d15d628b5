"""Terminal report: one line per check, and below it what decided a check that is not simply verified."""
from __future__ import annotations

from ..outcome import Outcome, Status, Verdict
from ..theorems.result import CheckResult
from .failures import INFO_LIMIT, Failure, failures, findings, safe

LABEL = {Outcome.AS_EXPECTED: "PASS", Outcome.WRONG: "FAIL", Outcome.UNDECIDED: "UNDECIDED",
         Outcome.ERROR: "ERROR"}
NOT_DECIDED = (Status.UNDECIDED, Status.UNSUPPORTED, Status.ERROR)


def verdict_phrase(r: CheckResult) -> str:
    n = len(r.theorems)
    if r.verdict is Verdict.VERIFIED:
        return f"verified ({n}/{n} theorems proved)"
    if r.verdict is Verdict.REFUTED:
        ids = ", ".join(t.id.value for t in r.failures())
        refused = next((t for t in r.failures() if t.status is Status.REFUSED), None)
        how = f"refused by CuTe: {refused.items[0].reason}; " if refused is not None and refused.items else ""
        head = "refuted as expected" if r.ok else "REFUTED"
        return f"{head} ({how}{ids})"
    which = [t for t in r.theorems if t.status is {Verdict.ERROR: Status.ERROR, Verdict.UNDECIDED: Status.UNDECIDED,
                                                   Verdict.UNSUPPORTED: Status.UNSUPPORTED}[r.verdict]]
    why = "; ".join(f"{t.id.value}: {t.reason}" for t in which[:2])
    word = "INTERNAL ERROR" if r.verdict is Verdict.ERROR else r.verdict.value
    return f"{word} ({why})"


def render_failure(f: Failure, indent: str = "      ") -> list[str]:
    w, item = f.witness, f.item
    th = f.theorem
    if f.refused:
        out = [f"{indent}theorem {f.number} {th.id.value} ({th.title}): CuTe refuses the configuration: {item.reason}"]
        if item.note:
            out.append(f"{indent}  {item.note}")
    else:
        out = [f"{indent}theorem {f.number} {th.id.value} ({th.title}): {item.title}"]
        if item.note:
            out.append(f"{indent}  {item.note}")
        if w.point:
            pt = " ".join(f"{k}={v}" for k, v in w.point.items())
            how_many = ""
            if w.failing is not None and w.counted_size:
                how_many = f" ({w.failing}{'' if w.failing_exact else '+'} failing of {w.counted_size} points)"
            if item.domain:
                out.append(f"{indent}  domain: {item.domain}")
            which = "smallest counterexample" if w.smallest else "counterexample"
            out.append(f"{indent}  {which}: {pt}{how_many}")
        if w.actual is not None and w.expected is not None:
            out.append(f"{indent}  actual {w.actual}, expected {w.expected}")
        for name, value in w.values.items():
            out.append(f"{indent}    {name} = {value}")
        for side, form in w.closed_forms.items():
            out.append(f"{indent}  {side} = {form}")
    if w.suspect is not None:
        loc = f" ({w.suspect.loc})" if w.suspect.loc else ""
        out.append(f"{indent}  suspect: {w.suspect.what}{loc}")
    if w.chain:
        out.append(f"{indent}  the chain at {w.chain_title}:")
        width = max(len(s.label) for s in w.chain)
        out += [f"{indent}    {s.label:<{width}}  {s.text}" for s in w.chain]
    if w.description_error:
        out.append(f"{indent}  (the description is incomplete: {w.description_error})")
    return out


def render_check(r: CheckResult, verbose: bool = False) -> list[str]:
    lines = [f"  {LABEL[r.outcome]:<9} {safe(r.name):<34} {verdict_phrase(r)}  {r.seconds:.2f}s"]
    lines += [f"      {safe(i, INFO_LIMIT)}" for i in r.info]
    shown: dict[tuple[object, ...], list[int]] = {}     # a refusal is said once; the other theorems it stops are listed
    for f in failures(r):
        same = (f.item.reason, f.item.note, f.witness.suspect) if f.refused else None
        if same is not None and same in shown:
            shown[same].append(f.number)
            continue
        if same is not None:
            shown[same] = []
        lines += render_failure(f)
    for numbers in shown.values():
        if numbers:
            lines.append(f"      theorems {', '.join(map(str, numbers))}: refused by CuTe for the same reason")
    for f in findings(r):
        lines.append(f"      finding (a warning, not the configuration's verdict): theorem {f.number} refuted")
        lines += render_failure(f, indent="        ")
    lines += [f"      {safe(line, INFO_LIMIT)}" for line in r.suggestion]
    for t in r.theorems:
        if verbose or (t.status in NOT_DECIDED and r.verdict is not Verdict.REFUTED):
            lines.append(f"      {t.number} {t.id.value:<26} {t.status.value}  {t.seconds * 1000:.1f} ms"
                         + (f"  ({t.reason})" if t.reason else ""))
    return lines


def summary(results: list[CheckResult], seconds: float) -> str:
    count = {o: sum(r.outcome is o for r in results) for o in Outcome}
    ver = sum(r.verdict is Verdict.VERIFIED and r.ok for r in results)
    ref = sum(r.verdict is Verdict.REFUTED and r.ok for r in results)
    doc = sum(r.verdict in (Verdict.UNDECIDED, Verdict.UNSUPPORTED) and r.ok for r in results)
    documented = f", {doc} undecided or unsupported as documented" if doc else ""
    errors = f", {count[Outcome.ERROR]} INTERNAL ERRORS" if count[Outcome.ERROR] else ""
    return (f"{len(results)} checks: {count[Outcome.AS_EXPECTED]} as expected ({ver} verified, {ref} refuted as "
            f"documented{documented}), {count[Outcome.WRONG]} wrong, {count[Outcome.UNDECIDED]} undecided{errors}"
            f"  [{seconds:.2f}s]")


def render(results: list[CheckResult], seconds: float, verbose: bool = False, quiet: bool = False) -> str:
    """The text report; `quiet`: only the checks whose verdict is not the one documented, then the summary."""
    lines: list[str] = []
    current = None
    for r in results:
        if quiet and r.outcome is Outcome.AS_EXPECTED:
            continue
        if r.spec_path != current:
            current = r.spec_path
            lines.append(f"{r.spec_path} ({safe(r.spec_name)})")
        lines += render_check(r, verbose)
    lines.append(summary(results, seconds))
    return "\n".join(lines) + "\n"
