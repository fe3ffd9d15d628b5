"""The catalog's mistakes and their report pictures, and whether an outlined cell shows a theorem's counterexample.

A cell agrees with a witness when what the drawing put in the cell (its thread and value or the (thread, value)
pairs that hold it, its TMEM register and call, its byte range, its bank, its coordinate) is what the witness
names.  The cell's contents are computed by the views from the layouts; the witness by the theorems: the two meet
only here.  Used by tests/test_draw.py (the figures) and tests/test_draw_browser.py (the page as a browser draws
it)."""
from __future__ import annotations

import glob
import re
from pathlib import Path

from verifier.engine.runner import run_check
from verifier.outcome import Status
from verifier.report.pictures import figures
from verifier.kinds.registry import kind_of
from verifier.specfile import load_specs
from verifier.theorems.claims import Witness

ROOT = Path(__file__).parent.parent
MISTAKE_FILES = ["specs/mistakes.yaml", *sorted(glob.glob("specs/catalog/*.yaml", root_dir=ROOT))]
THREAD_NAMES = ("thread", "lane", "t")
VALUE_NAMES = ("value", "v", "register")


def mistakes():
    """(spec, check, result) of every check the catalog documents as failing, refuted or refused."""
    for spec in load_specs([str(ROOT / f) for f in MISTAKE_FILES]):
        for check in spec.checks.values():
            if str(getattr(check.expect, "value", check.expect)) != "fail":
                continue
            result = run_check(spec, check)
            if result.failures():
                yield spec, check, result


def report_figures(spec, check, result):
    """The figures `prove --format html` draws for the check (every report view), no size cap."""
    out = []
    for view in kind_of(check).report_views(check, result):
        out += figures(spec, check, (view,), result)
    return out


def pointed(result):
    """(theorem, witness) of each refuted theorem whose counterexample names a point."""
    for t in result.theorems:
        if t.status is Status.REFUTED:
            item = t.first_failure()
            if item is not None and item.witness is not None and item.witness.point:
                yield t, item.witness


def _int(text: str | None) -> int | None:
    return int(text) if text is not None and re.fullmatch(r"-?\d+", text) else None


def _holders(info: dict[str, str]) -> set[tuple[int, int]]:
    pairs = {(int(t), int(v)) for t, v in re.findall(r"T(\d+)V(\d+)", info.get("holders", ""))}
    if "thread" in info and "value" in info:
        pairs.add((int(info["thread"]), int(info["value"])))
    return pairs


def field_name(name: str) -> str:
    """A hover field's name as the page's DOM has it (data-NAME, lower case)."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-").lower()


def elem_bytes(check) -> int | None:
    """Bytes of the check's value type (None when it names none)."""
    vt = getattr(check, "value_type", None)
    return max(1, vt.bits // 8) if vt is not None else None


def agrees(info: dict[str, str], w: Witness, element_bytes: int | None = None) -> bool:
    """Does an outlined cell with these fields (names as `field_name` gives them) show the witness?
    `element_bytes`: the value type's size, for a witness that names element offsets (theorem 9)."""
    p = dict(w.values, **w.point)
    t = next((p[n] for n in THREAD_NAMES if n in p), None)
    v = next((p[n] for n in ("value", "v") if n in p), None)
    if "warp" in p and "lane" in p and "value_in_row" in p:       # theorem 22: a warp's store instruction
        t = p["warp"] * 32 + p["lane"]
    if "register" in p and "register" in info:                    # a TMEM cell: thread, register, call
        held = {(int(a), int(b), int(c)) for a, b, c in re.findall(r"T(\d+)R(\d+)C(\d+)", info.get("holders", ""))}
        held.add((int(info["thread"]), int(info["register"]), int(info["call"])))
        return bool(held & {(p[f"thread{s}"], p[f"register{s}"], p[f"call{s}"]) for s in ("", "2")
                            if f"thread{s}" in p})
    if t is None and v is not None and "thread" in info:          # a value of every thread alike: thread 0's
        return (0, v) in _holders(info)
    if t is not None and "thread" in info:
        if v is not None and "warp" not in p:
            return (t, v) in _holders(info) or (p.get("thread2"), p.get("value2")) in _holders(info)
        return int(info["thread"]) == t
    if "bytes" in info:
        lo, hi = (int(x, 16) for x in info["bytes"].split(".."))
        base = int(info["byte"]) - int(info["offset"])
        if {"index", "index2"} <= set(p):                          # theorem 9: two indices, one element offset
            return element_bytes is not None and "offset" in p and lo <= base + p["offset"] * element_bytes <= hi
        wanted = [x for x in (_int(w.actual), _int(w.expected)) if x is not None]
        if "offset" in p and "base" not in p:                     # theorem 13: a box's destination offset
            wanted.append(base + p["offset"])
        return any(lo <= x <= hi for x in wanted)
    if {"index", "index2"} <= set(p) and "offset" in info and "offset" in p:    # theorem 9's stage claim
        return int(info["offset"]) == p["offset"]
    if "bank" in info and "bank" in p:
        return int(info["bank"]) == p["bank"]
    if "cute-coordinate" in info and "coordinate" in p:
        return int(info["cute-coordinate"]) == p["coordinate"]
    if "coordinate" in info and "coordinate" in p:               # a coordinate nobody holds
        return info.get("owners") == "0"
    if "coordinate" in info:
        coord = dict(re.findall(r"(\w+)=(\d+)", info["coordinate"]))
        return bool(coord) and any(all(int(p.get(f"{a}{s}", -1)) == int(x) for a, x in coord.items())
                                   for s in ("", "2"))
    return False


def cell_fields(cell) -> dict[str, str]:
    """A Cell's hover fields, named as in the page."""
    return {field_name(k): val for k, val in cell.info}
