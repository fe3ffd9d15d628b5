"""`prove --suggest`: for a refuted check, the smallest nearby configuration that is *proved*.

The neighbours are the changes a kernel author would try, each one field of the check (or of its atom):

    copy        another copy atom of the same family the spec defines (ldmatrix N <-> T, x1 / x2 / x4; stmatrix;
                cp.async; UniversalCopy ...)
    value_type  the MMA operand's element type
    copy_for    the operand's own make_tiled_copy_X;   copy_mma  the kernel's own tiled MMA
    smem        another Swizzle<B,M,S> on the same layout, no swizzle, or one of CuTe's usual swizzled atoms
                (K-major or MN-major, for the element width) tiled to the tile
    MMA atom    a broken operand layout replaced by the instruction's own fragment (the PTX ISA's); a type the
                instruction does not take replaced by one it takes; an instruction or (tcgen05.mma) a shape the PTX
                ISA lacks replaced by the nearest it lists, the layouts then the instruction's fragments
    Hopper      make_gmma_desc's descriptor instead of a hand-written one, make_tma_copy's box, the buffer aligned
                to the swizzle's repeat, the wgmma atom of the other major-ness
    transpose   the transposed tile (gmma_smem) rebuilt from the K-major GMMA atom of each swizzle, in either of
                tile_to_shape's orders (the MN-major tile's swizzle and order first)
    TMEM        the allocation rounded up to the power of two the tile needs; a tile of fewer than 128 rows spread
                over the four warps' lane quarters (as the M=64 data path is); the other tcgen05.ld / st atoms

Candidates are tried in order of the number of fields they change (one, then two), each proved by the same
theorems as the check itself; the first verified one is the suggestion, with the spec lines to change and the
C++ to write.  Nothing is guessed: a suggestion is a configuration every theorem proved.
"""
from __future__ import annotations

import dataclasses
import itertools
import re
from dataclasses import dataclass
from typing import Any, Iterator

from .algebra.layout import Layout
from .kinds.base import Change
from .kinds.neighbours import cpp_layout
from .kinds.registry import kind_of
from .specfile.family import FamilyCheck
from .kinds.tmem.theorems import tmem_form
from .outcome import Verdict
from .specfile.model import CheckSpec, MMAAtomSpec, Spec
from .symbolic.procedure import Settings

MAX_CANDIDATES = 400          # configurations proved at most for one check
COPY_FAMILIES = ("LDSM", "STSM", "CP_ASYNC", "MOVM", "TMEM_LOAD", "TMEM_STORE", "UniversalCopy", "DefaultCopy",
                 "AutoVectorizing")
@dataclass
class Candidate:
    changes: tuple[Change, ...]
    check: CheckSpec
    spec: Spec


@dataclass
class Suggestion:
    """The outcome of the search: the changes that were proved (empty when none), how many configurations were
    tried, and the configuration that was proved (its check and spec)."""
    changes: tuple[Change, ...]
    tried: int
    reason: str = ""
    check: CheckSpec | None = None
    spec: Spec | None = None

    def lines(self) -> list[str]:
        if not self.changes:
            return [f"no suggestion: {self.reason} ({self.tried} nearby configurations proved, none verified)"]
        what = "; ".join(f"{c.field} {c.old} -> {c.new}" for c in self.changes)
        out = [f"suggestion (every theorem proved; {self.tried} configurations tried): {what}"]
        for c in self.changes:
            out += [f"  spec {line}" for line in c.diff()]
            out.append(f"  C++  {c.cpp}")
        return out


def _family(name: str) -> str | None:
    return next((f for f in COPY_FAMILIES if f in name), None)


# --- the neighbours, one field each ---------------------------------------------------------------------------

def _registers(name: str) -> int:
    """Bits each thread moves, read off CuTe's name (`SM75_U32x4_LDSM_N`: 128; `SM75_U16x2_LDSM_T`: 32)."""
    m = re.search(r"U(\d+)x(\d+)", name)
    return int(m.group(1)) * int(m.group(2)) if m else 0


def _register_bits(spec: Spec, name: str) -> int:
    """Bits each thread's registers hold in one copy: CuTe's name says it for the SM75-SM90 atoms; a tcgen05.ld /
    tcgen05.st atom's register side is its DstLayout (a load) or SrcLayout (a store)."""
    atom = spec.copy_atoms.get(name)
    form = tmem_form(atom) if atom is not None else None
    if atom is not None and form is not None:
        side = atom.dst if form.load else atom.src
        return int(side.mode(1).size()) if side.rank() > 1 else 0
    return _registers(name)


def _copy_changes(spec: Spec, check: CheckSpec) -> Iterator[tuple[Change, dict[str, Any]]]:
    """Copy atoms of the same family, the closest first: the same bits per thread (x4 N <-> x4 T), then fewer."""
    family = _family(check.copy or "")
    vt = check.value_type.name if check.value_type else "T"
    mine = _register_bits(spec, check.copy or "")
    names = [n for n in spec.copy_atoms if n != check.copy and family is not None and _family(n) == family]
    bits = {n: _register_bits(spec, n) for n in names}
    for name in sorted(names, key=lambda n: (abs(bits[n] - mine), -bits[n], n)):
        yield Change("copy", check.copy or "", name, f"Copy_Atom<{name}, {vt}>"), {"copy": name}


def _value_type_changes(spec: Spec, check: CheckSpec) -> Iterator[tuple[Change, dict[str, Any]]]:
    mma = spec.mma_atoms.get(check.mma or "")
    if mma is None or check.value_type is None:
        return
    want = mma.types["c" if (check.operand or "A") == "C" else (check.operand or "A").lower()]
    if want.name != check.value_type.name:
        yield (Change("value_type", check.value_type.name, want.name, f"Copy_Atom<{check.copy}, {want.name}>"),
               {"value_type": want})


def _mma_layout_changes(spec: Spec, check: CheckSpec) -> Iterator[tuple[Change, Spec]]:
    """An MMA atom's operand layout replaced by the instruction's fragment (a new atom in a copy of the spec)."""
    from .kinds.cute_objects import hardware_layout, mma_model_for
    atom = spec.mma_atoms.get(check.mma or "")
    if atom is None:
        return
    model = mma_model_for(atom)
    if model is None or model.invalid or tuple(atom.shape_mnk) != tuple(model.shape_mnk):
        return
    for op in ("a", "b", "c"):
        hw = hardware_layout(model, op.upper(), atom.thr_id)
        mine: Layout = getattr(atom, op)
        if hw is None or hw.values() == mine.values() and str(hw.shape) == str(mine.shape):
            continue
        operand_layout: dict[str, Any] = {op: hw}        # a, b or c of the atom
        fixed: MMAAtomSpec = dataclasses.replace(atom, **operand_layout)
        new_spec = dataclasses.replace(spec, mma_atoms={**spec.mma_atoms, atom.name: fixed})
        yield (Change(f"{op} of MMA atom {atom.name}", mine.plain(), hw.plain(),
                      f"using {op.upper()}Layout = {cpp_layout(hw)};   (MMA_Traits<{atom.name}>, "
                      "the PTX ISA's fragment)"),
               new_spec)


def _mma_atom_changes(spec: Spec, check: CheckSpec) -> Iterator[tuple[Change, Spec]]:
    """An MMA atom its instruction refuses: one of its types replaced by a CuTe type of the PTX type the instruction
    takes there; for tcgen05.mma (whose M, N and types the instruction descriptor carries) its instruction or its
    shape replaced by the nearest the PTX ISA lists, with the instruction's fragments as its layouts."""
    from .algebra.types import PTX_TYPE, PTX_TYPE_CHOICES, instruction_type_agrees, ptx_type_of, type_bits
    from .hardware.registry import mma_instruction_types
    from .kinds.cute_objects import hardware_layout, mma_model_for
    from .specfile.model import UMMA_INSTRUCTION, ValueType
    atom = spec.mma_atoms.get(check.mma or "")
    if atom is None or not atom.instruction:
        return

    def with_atom(fixed: MMAAtomSpec) -> Spec:
        return dataclasses.replace(spec, mma_atoms={**spec.mma_atoms, atom.name: fixed})

    model = mma_model_for(atom)
    want = mma_instruction_types(atom.instruction, atom.name) or {}
    at_fault = model.invalid_in.partition(".")[2] if model is not None and model.invalid else ""
    for key, have in atom.types.items():
        if key not in want or (instruction_type_agrees(have.name, have.bits, want[key])[0] and key != at_fault):
            continue
        ptx, mine = want[key].split(PTX_TYPE_CHOICES), ptx_type_of(have.name)
        member = "ValTypeSFA / ValTypeSFB" if key == "sf" else f"ValType{key.upper()}"
        # the same PTX type in another CuTe type first (a packed e2m1 -> the unpacksmem one), then the table's order
        for name in sorted((n for n, t in PTX_TYPE.items() if t in ptx and n != have.name),
                           key=lambda n: (PTX_TYPE[n] != mine, ptx.index(PTX_TYPE[n]))):
            types = {**atom.types, key: ValueType(name, type_bits(name))}
            yield (Change(f"types.{key} of MMA atom {atom.name}", have.name, name,
                          f"MMA_Traits<{atom.name}>::{member} = {name}"),
                   with_atom(dataclasses.replace(atom, types=types)))
    if not atom.instruction.startswith(UMMA_INSTRUCTION) or model is None or not model.invalid:
        return
    from .hardware.registry import Instruction
    from .hardware.umma import nearby_instructions, nearby_shapes
    qualifiers = Instruction.parse(atom.instruction).qualifiers
    for text in nearby_instructions(qualifiers) if model.invalid_in == "instruction" else []:
        yield (Change(f"instruction of MMA atom {atom.name}", atom.instruction, text, f"asm: \"{text} ...\""),
               with_atom(dataclasses.replace(atom, instruction=text)))
    m, n, k = atom.shape_mnk
    for mm, nn in nearby_shapes(qualifiers, m, n) if model.invalid_in == "shape" else []:
        moved = dataclasses.replace(atom, shape_mnk=(mm, nn, k))
        fragments = mma_model_for(moved)
        if fragments is None or fragments.invalid or tuple(fragments.shape_mnk) != (mm, nn, k):
            continue
        a, b, c = (hardware_layout(fragments, op, atom.thr_id) for op in ("A", "B", "C"))
        if a is None or b is None or c is None:
            continue
        yield (Change(f"shape_mnk of MMA atom {atom.name}", str(list(atom.shape_mnk)), str([mm, nn, k]),
                      f"{atom.name} with M = {mm}, N = {nn} (and its layouts for that shape)"),
               with_atom(dataclasses.replace(moved, a=a, b=b, c=c)))


def _changed(check: CheckSpec, fields: dict[str, Any]) -> CheckSpec:
    """`check` with `fields` changed; a family with them changed in every member."""
    if isinstance(check, FamilyCheck):
        return dataclasses.replace(check, members=[dataclasses.replace(m, check=dataclasses.replace(m.check, **fields))
                                                   for m in check.members], **fields)
    return dataclasses.replace(check, **fields)


def candidates(spec: Spec, check: CheckSpec) -> Iterator[Candidate]:
    """Every neighbour of `check`, one changed field first, then two.  A family's neighbours change a field of
    every member alike (the copy atom, the value type, an atom's layout); a kind's own neighbours (a resized or
    relaid tile) are one member's, so a family does not take them."""
    model = check.members[0].check if isinstance(check, FamilyCheck) else check
    singles: list[tuple[Change, dict[str, Any]]] = []
    for gen in (_copy_changes(spec, model), _value_type_changes(spec, model), kind_of(check).neighbours(spec, check)):
        singles += list(gen)
    for change, fields in singles:
        yield Candidate((change,), _changed(check, fields), spec)
    for change, new_spec in itertools.chain(_mma_layout_changes(spec, model), _mma_atom_changes(spec, model)):
        yield Candidate((change,), check, new_spec)
    for (c1, f1), (c2, f2) in itertools.combinations(singles, 2):
        if c1.field != c2.field:
            yield Candidate((c1, c2), _changed(check, {**f1, **f2}), spec)


def suggest(spec: Spec, check: CheckSpec, settings: Settings, limit: int = MAX_CANDIDATES) -> Suggestion:
    """The first neighbour of a refuted check that every theorem proves (see the module's docstring)."""
    from .engine.runner import run_check
    tried = 0
    for cand in candidates(spec, check):
        if tried >= limit:
            return Suggestion((), tried, f"the search stopped after {limit} configurations")
        tried += 1
        result = run_check(cand.spec, cand.check, settings)
        if result.verdict is Verdict.VERIFIED:
            return Suggestion(cand.changes, tried, check=cand.check, spec=cand.spec)
    if tried == 0:
        return Suggestion((), 0, "no neighbour to try: the check names nothing the search varies")
    return Suggestion((), tried, "no configuration within one or two changes of the copy atom, value type, "
                                 "construction, shared layout, atom layout, Hopper or TMEM fields is verified")
