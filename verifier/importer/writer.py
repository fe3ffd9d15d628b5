"""Spec files (format version 1) written as text in the style of specs/atoms/*.yaml: one file per header
family, the atoms with their `source: "header:line"`, and one atom-only check per atom (its theorems)."""
from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

from ..algebra.layout import Layout
from ..findings import KNOWN_FINDINGS
from .atoms import CopyRecord, MMARecord

# an MMA whose Op computes in C++ (no asm of its own): no instruction to model, documented as such
NO_INSTRUCTION = ("UNSUPPORTED: the Op has no asm of its own (it computes in C++: a complex MMA built from several "
                  "real ones, SM100's float2 FMAs), so there is no instruction to compare the atom with")

# a structured-sparse MMA whose A is in registers (wgmma.mma_async.sp's RS form): its fragment is a figure of the PTX
# ISA this tool has not read, and CUTLASS builds no mainloop of it
SPARSE_REGISTER_A = ("UNSUPPORTED: A of a structured-sparse wgmma in registers (PTX ISA Figures 175, 177, 179, not "
                     "modelled); CUTLASS builds no register-sourced sparse mainloop (\"Mainloop with sparse A sourced "
                     "from RF is not implemented\")")

_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")


def _registers_a(a: Layout) -> bool:
    """A's layout gives each thread its own values (a register fragment, not a descriptor's shared tile)."""
    from ..algebra.inttuple import flatten_to_tuple
    return a.rank() > 1 and any(int(d) != 0 for d in flatten_to_tuple(a.mode(0).stride))


def scalar(value: str | int) -> str:
    """A YAML scalar: plain when it is a simple word, else double-quoted (JSON escapes are YAML's)."""
    if isinstance(value, int):
        return str(value)
    return value if _PLAIN.fullmatch(value) and value not in ("true", "false", "null", "yes", "no") \
        else json.dumps(value)


def _quoted(text: str) -> str:
    return json.dumps(text)


def _entry_head(name: str, instruction: str | None, note: str | None) -> list[str]:
    """An atom entry's first lines: its note as a comment, its name, its instruction."""
    lines = [f"  # {note}"] if note else []
    lines.append(f"  {scalar(name)}:")
    return lines + ([f"    instruction: {scalar(instruction)}"] if instruction else [])


def mma_atom_lines(name: str, instruction: str | None, shape_mnk: tuple[int, int, int], thr_id: Layout,
                   types: Mapping[str, str | int], abc: tuple[Layout, Layout, Layout],
                   source: str | None = None, note: str | None = None, e: Layout | None = None,
                   sp_sel: int = 0) -> list[str]:
    """One entry of `mma_atoms:` as a spec writes it (the layouts as CuTe prints them; a sparse MMA's metadata
    layout `e` and its sparsity selector)."""
    lines = _entry_head(name, instruction, note)
    lines += [f"    shape_mnk: [{', '.join(str(x) for x in shape_mnk)}]",
              f"    thr_id: {_quoted(thr_id.plain())}",
              "    types: {" + ", ".join(f"{k}: {scalar(v)}" for k, v in types.items()) + "}"]
    lines += [f"    {key}: {_quoted(layout.plain())}" for key, layout in zip("abc", abc)]
    if e is not None:
        lines += [f"    e: {_quoted(e.plain())}"] + ([f"    sp_sel: {sp_sel}"] if sp_sel else [])
    return lines + ([f"    source: {_quoted(source)}"] if source else [])


def copy_atom_lines(name: str, instruction: str | None, thr_id: Layout, src: Layout, dst: Layout,
                    ref: Layout, ref_is: str, source: str | None = None, note: str | None = None) -> list[str]:
    """One entry of `copy_atoms:` as a spec writes it; `ref: src` / `ref: dst` where the reference is a side."""
    lines = _entry_head(name, instruction, note)
    lines += [f"    thr_id: {_quoted(thr_id.plain())}",
              f"    src: {_quoted(src.plain())}",
              f"    dst: {_quoted(dst.plain())}",
              f"    ref: {ref_is if ref_is in ('src', 'dst') else _quoted(ref.plain())}"]
    return lines + ([f"    source: {_quoted(source)}"] if source else [])


def _mma(r: MMARecord, source: str) -> list[str]:
    return mma_atom_lines(r.name, r.instruction, r.shape_mnk, r.thr_id, r.types, (r.a, r.b, r.c), source, r.note,
                          r.e, r.sp_sel)


def _copy(r: CopyRecord, source: str) -> list[str]:
    return copy_atom_lines(r.name, r.instruction, r.thr_id, r.src, r.dst, r.ref, r.ref_is, source, r.note)


def spec_text(name: str, headers: list[str], mma: list[MMARecord], copy: list[CopyRecord],
              source_of: dict[str, str]) -> str:
    """The whole spec file; `source_of` maps a header path to the prefix written in `source:`."""
    out = ["version: 1", f"name: {scalar(name)}",
           "description: >",
           "  CUTLASS's MMA_Traits / Copy_Traits as `python -m verifier import-cutlass` read them from"]
    out += [f"  {h}{',' if i + 1 < len(headers) else ';'}" for i, h in enumerate(headers)]
    out += ["  each check proves one atom's theorems.", ""]
    if mma:
        out.append("mma_atoms:")
        for m in mma:
            out += _mma(m, f"{source_of[m.header]}:{m.line}")
        out.append("")
    if copy:
        out.append("copy_atoms:")
        for c in copy:
            out += _copy(c, f"{source_of[c.header]}:{c.line}")
        out.append("")
    checks = _checks(mma, copy)
    if checks:
        out.append("checks:")
        out += checks
        out.append("")
    return "\n".join(out)


def _checks(mma: list[MMARecord], copy: list[CopyRecord]) -> list[str]:
    lines: list[str] = []
    used: set[str] = set()
    records: list[MMARecord | CopyRecord] = [*mma, *copy]
    for r in records:
        kind = "copy" if isinstance(r, CopyRecord) else "mma"
        if isinstance(r, CopyRecord) and r.value_type is None:     # CuTe refuses every usual value type
            continue
        key = r.name if r.name not in used else f"{kind}: {r.name}"
        used.add(key)
        lines.append(f"  {scalar(key)}:")
        lines.append(f"    {kind}: {scalar(r.name)}")
        if isinstance(r, CopyRecord) and r.value_type is not None:
            lines.append(f"    value_type: {scalar(r.value_type)}")
        why = r.refused or KNOWN_FINDINGS.get(r.name)
        if why:
            lines.append("    expect: fail")
            lines.append(f"    description: {_quoted(why)}")
        elif isinstance(r, MMARecord) and r.unsettled:
            lines.append("    expect: unsupported")
            lines.append(f"    description: {_quoted('UNSUPPORTED: ' + r.unsettled)}")
        elif isinstance(r, MMARecord) and not r.instruction:
            lines.append("    expect: unsupported")
            lines.append(f"    description: {_quoted(NO_INSTRUCTION)}")
        elif isinstance(r, MMARecord) and r.e is not None and _registers_a(r.a):
            lines.append("    expect: unsupported")
            lines.append(f"    description: {_quoted(SPARSE_REGISTER_A)}")
    return lines


def write_spec(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
