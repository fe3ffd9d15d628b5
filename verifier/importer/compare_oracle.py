"""Imported atoms against CuTe's own print-out of them (oracle atoms.json, layouts as CuTe prints them).

`compare(specs, atoms_json, report=None)` returns one line per problem: an atom whose imported layouts,
shape, value widths or instruction differ from CuTe's, or an oracle atom that was not imported and that
the import report does not explain.  `python -m verifier.importer.compare_oracle INCLUDE_DIR ATOMS_JSON`
imports into a temporary directory and prints the numbers.
"""
from __future__ import annotations

import json
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from ..algebra import parse_layout
from ..specfile import load_spec
from ..specfile.model import CopyAtomSpec, MMAAtomSpec, Spec
from .cpp_types import FIXED_WIDTH_NAMES
from .report import ImportReport

# the compiler's names for CuTe's integer types (oracle `type_full`)
_BUILTIN = FIXED_WIDTH_NAMES

# one atom of the oracle's atoms.json: a JSON object (its values are JSON: strings, numbers, layout entries, lists)
OracleCase = dict[str, Any]


@dataclass
class Comparison:
    matched: list[str] = field(default_factory=list)            # oracle ids reproduced exactly
    mismatches: list[str] = field(default_factory=list)
    explained: list[str] = field(default_factory=list)          # not imported, with the report's reason
    missing: list[str] = field(default_factory=list)            # not imported and not explained

    @property
    def problems(self) -> list[str]:
        return self.mismatches + self.missing


def _load(atoms_json: Any) -> list[OracleCase]:
    cases: list[OracleCase]       # the oracle's files are a JSON list of atom objects
    if isinstance(atoms_json, (str, Path)):
        path = Path(atoms_json)
        if path.suffix == ".gz":
            import gzip
            with gzip.open(path, "rt", encoding="utf-8") as f:
                cases = json.load(f)
            return cases
        cases = json.loads(path.read_text(encoding="utf-8"))
        return cases
    return list(atoms_json)


def _specs(specs: Iterable[Any]) -> list[Spec]:
    return [s if isinstance(s, Spec) else load_spec(s) for s in specs]


def _normal_type(text: str) -> str:
    text = re.sub(r"\b(?:cute|cutlass|SM90|GMMA)::", "", text)
    for k, v in sorted(_BUILTIN.items(), key=lambda kv: -len(kv[0])):
        text = re.sub(rf"(?<![\w ]){k}(?![\w])", v, text)
    return re.sub(r"\s+", "", text)


def _candidates(case: OracleCase) -> list[str]:
    """Names the importer may have given this oracle atom: as written, the compiler's type (aliases such
    as DefaultCopy resolved), and the template's name alone (an atom whose layouts do not depend on its
    template arguments is imported once under that name)."""
    names = [case["op"]]
    full = case.get("type_full")
    if full:
        names.append(_normal_type(full))
    for n in list(names):
        base = n.split("<", 1)[0]
        if base not in names:
            names.append(base)
    return names


def _layout_diff(what: str, cute: Any, ours: Any) -> str | None:
    cute_text = cute["text"] if isinstance(cute, dict) else str(cute)     # a layout entry, or its text
    want = parse_layout(cute_text)
    if want == ours:
        return None
    same_values = want.size() == ours.size() and want.values() == ours.values()
    return f"{what}: CuTe {cute_text}, imported {ours.plain()}" + (" (same values)" if same_values else "")


def _opcode(ptx: str | None) -> str | None:
    return re.split(r"[\s{\[]", ptx.strip(), maxsplit=1)[0] if ptx else None


def _mma_diffs(case: OracleCase, atom: MMAAtomSpec) -> list[str]:
    out = []
    shape = tuple(int(x) for x in re.findall(r"\d+", case["Shape_MNK"]))
    if shape != tuple(atom.shape_mnk):
        out.append(f"Shape_MNK: CuTe {case['Shape_MNK']}, imported {list(atom.shape_mnk)}")
    for key, ours in (("ThrID", atom.thr_id), ("ALayout", atom.a), ("BLayout", atom.b), ("CLayout", atom.c)):
        d = _layout_diff(key, case[key], ours)
        if d:
            out.append(d)
    for k in "abcd":
        cute = case[f"ValType{k.upper()}"]
        if cute["bits"] != atom.types[k].bits:
            out.append(f"ValType{k.upper()}: CuTe {cute['name']} ({cute['bits']} bits), imported "
                       f"{atom.types[k].name} ({atom.types[k].bits} bits)")
    op = _opcode(case.get("ptx"))
    if op is not None and op != atom.instruction:
        out.append(f"instruction: CuTe's asm {op}, imported {atom.instruction}")
    return out


def _copy_diffs(case: OracleCase, atom: CopyAtomSpec, value_type: str | None) -> list[str]:
    out = []
    for key, ours in (("ThrID", atom.thr_id), ("SrcLayout_bits", atom.src), ("DstLayout_bits", atom.dst),
                      ("RefLayout_bits", atom.ref)):
        d = _layout_diff(key, case[key], ours)
        if d:
            out.append(d)
    op = _opcode(case.get("ptx"))
    if op is not None and op != atom.instruction:
        out.append(f"instruction: CuTe's asm {op}, imported {atom.instruction}")
    if value_type is not None:
        for vt in case.get("value_types", []):
            if vt["cpp"] == value_type and not vt.get("compiles", True):
                out.append(f"its check uses value_type {value_type}, which CuTe refuses: {vt.get('error')}")
    return out


def _explain(case: OracleCase, report: ImportReport | None) -> str | None:
    if report is None:
        return None
    for name in _candidates(case):
        for f in report.failures:
            if f.name == name:
                return str(f)
        for n in report.notes:
            if n.name == name and n.text.startswith("not instantiated"):
                return str(n)
    return None


def compare_details(specs: Iterable[Any], atoms_json: Any, report: ImportReport | None = None) -> Comparison:
    loaded = _specs(specs)
    mma = {n: a for s in loaded for n, a in s.mma_atoms.items()}
    copy = {n: a for s in loaded for n, a in s.copy_atoms.items()}
    value_types = {c.copy: c.value_type.name for s in loaded for c in s.checks.values()
                   if c.copy and c.value_type is not None}
    result = Comparison()
    for case in _load(atoms_json):
        table: dict[str, Any] = mma if case["kind"] == "mma" else copy
        name = next((n for n in _candidates(case) if n in table), None)
        if name is None:
            why = _explain(case, report)
            if why:
                result.explained.append(f"{case['id']}: {why}")
            else:
                result.missing.append(f"{case['id']}: not imported (tried {', '.join(_candidates(case))})")
            continue
        diffs = _mma_diffs(case, mma[name]) if case["kind"] == "mma" else \
            _copy_diffs(case, copy[name], value_types.get(name))
        if diffs:
            result.mismatches += [f"{case['id']} (imported as {name}): {d}" for d in diffs]
        else:
            result.matched.append(case["id"])
    return result


def compare(specs: Iterable[Any], atoms_json: Any, report: ImportReport | None = None) -> list[str]:
    """Every mismatch between the imported atoms and CuTe's, and every oracle atom neither imported nor
    explained by `report` (an atom the report lists as not importable, with its reason, is not a mismatch)."""
    return compare_details(specs, atoms_json, report).problems


def compare_rejected(report: ImportReport, rejected_json: Any) -> list[str]:
    """CuTe refuses these atoms (oracle atoms_rejected.json): each must be a failure of the import whose
    reason carries CuTe's message."""
    out = []
    for case in _load(rejected_json):
        rule = str(case.get("error", "")).removeprefix("static assertion failed: ")
        f = report.failure_for(case["op"])
        if f is None:
            out.append(f"{case['id']}: CuTe refuses it ({rule}) but it was imported or not reported")
        elif rule.lower() not in f.reason.lower():
            out.append(f"{case['id']}: reported as '{f.reason}', CuTe says '{rule}'")
    return out


def main(argv: list[str]) -> int:
    from .headers import ImportInputError, import_cutlass
    if len(argv) not in (2, 3):
        print("usage: python -m verifier.importer.compare_oracle INCLUDE_DIR ATOMS_JSON [REJECTED_JSON]",
              file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        try:
            report = import_cutlass(Path(argv[0]), Path(tmp))
        except ImportInputError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        print(report.summary())
        result = compare_details(report.spec_files, argv[1], report)
    print(f"oracle atoms reproduced exactly: {len(result.matched)}")
    print(f"not imported, reported with a reason: {len(result.explained)}")
    for line in result.explained:
        print(f"  {line}")
    print(f"mismatches: {len(result.mismatches)}")
    for line in result.mismatches:
        print(f"  {line}")
    print(f"missing without a reason: {len(result.missing)}")
    for line in result.missing:
        print(f"  {line}")
    problems = result.problems
    if len(argv) == 3:
        rejected = compare_rejected(report, argv[2])
        print(f"CuTe-rejected atoms not reported with CuTe's reason: {len(rejected)}")
        for line in rejected:
            print(f"  {line}")
        problems += rejected
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
