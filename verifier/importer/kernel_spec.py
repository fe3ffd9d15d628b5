"""A C++ kernel's CuTe configuration as a spec file (the library behind `import-kernel`): its sources read, its
operand paths written as checks over the atom library."""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..echo import quote_path
from ..specfile.library import atom_library_dir
from ..specfile.model import CopyAtomSpec, MMAAtomSpec
from .source_files import UnreadableFile, read_text_file
from .compiled import CompilerUnavailable, Toolchain, cute_values, same_layout
from .kernel import KernelCheck, KernelImport, Unreadable, first_stage, import_kernel
from .kernel_source import ScopesTooDeep
from .loaded_back import load_back
from .writer import copy_atom_lines, mma_atom_lines, scalar

ATOM_LIBRARY = atom_library_dir()      # installed with the package (specs/atoms in a checkout)
MAX_SOURCE_BYTES = 4 << 20


class KernelInputError(Exception):
    """Bad input: one line, exit status 2."""


def load_atom_library(directory: Path) -> tuple[dict[str, MMAAtomSpec], dict[str, CopyAtomSpec]]:
    """Every MMA and copy atom the library's spec files define, by name."""
    from ..specfile import load_spec
    if not directory.is_dir():
        raise KernelInputError(f"{quote_path(str(directory))}: no atom library there (give --atoms DIR)")
    mma: dict[str, MMAAtomSpec] = {}
    copy: dict[str, CopyAtomSpec] = {}
    for path in sorted(directory.glob("*.yaml")):
        spec = load_spec(path, allow_outside=True)
        mma.update(spec.mma_atoms)
        copy.update(spec.copy_atoms)
    return mma, copy


FAMILY_SOURCE = "built by its family's rule (verifier/cute/mma_families.py: CuTe's MMA_Traits for every size)"


def family_atoms(names: Iterable[str], mma: Mapping[str, MMAAtomSpec]) -> dict[str, MMAAtomSpec]:
    """The MMA atoms among `names` that the library does not define and an atom family's rule builds (a GMMA or
    UMMA atom of a size the library does not write), each with `source:` saying so."""
    from ..cute.mma_families import family_atom
    from ..specfile.loader import mma_atoms_from_text
    built = [facts for n in dict.fromkeys(names) if n not in mma and (facts := family_atom(n)) is not None]
    if not built:
        return {}
    text = "\n".join(["mma_atoms:"] + [line for facts in built
                                         for line in facts.yaml_lines() + [f"    source: {json.dumps(FAMILY_SOURCE)}"]])
    return mma_atoms_from_text("verifier/cute/mma_families.py", text)


def _layout_list(layout: Any) -> str:
    """make_tiled_mma's thread layout as a spec writes it: [M, N, K] when compact, else the layout string."""
    from ..algebra.inttuple import flatten_to_tuple
    from ..algebra.layout import Layout
    shape = [int(x) for x in flatten_to_tuple(layout.shape)]
    if Layout(tuple(shape)).plain() == Layout(layout.shape, layout.stride).plain() or \
            [int(layout(i)) for i in range(int(layout.size()))] == list(range(int(layout.size()))):
        return "[" + ", ".join(str(x) for x in shape + [1] * (3 - len(shape))) + "]"
    return json.dumps(layout.plain())


def _permutation(perm: tuple[Any, ...]) -> str:
    """Tile<...> as a spec writes it: sizes, layouts, and `_` for a mode left as it is (trailing ones dropped)."""
    from ..algebra.inttuple import is_underscore
    items = list(perm)
    while items and is_underscore(items[-1]):
        items.pop()
    parts = ['"_"' if is_underscore(p) else str(int(p)) if isinstance(p, int) else json.dumps(p.plain())
             for p in items]
    return "[" + ", ".join(parts) + "]"


def _mma_atom_text(a: MMAAtomSpec) -> list[str]:
    return mma_atom_lines(a.name, a.instruction, a.shape_mnk, a.thr_id, {k: v.name for k, v in a.types.items()},
                          (a.a, a.b, a.c), a.source)


def _copy_atom_text(a: CopyAtomSpec) -> list[str]:
    return copy_atom_lines(a.name, a.instruction, a.thr_id, a.src, a.dst, a.ref, a.ref_is, a.source)


def _check_text(c: KernelCheck) -> list[str]:
    lines = [f"  {scalar(c.name)}:",
             "    description: " + json.dumps(f"{c.file}:{c.line} {c.scope}: operand {c.operand}, "
                                              f"Copy_Atom<{c.copy.op}, {c.copy.value_type}> on {c.smem_from}"),
             f"    mma: {scalar(c.mma.atom)}"]
    if c.mma.atom_layout is not None:
        lines.append(f"    atom_layout: {_layout_list(c.mma.atom_layout)}")
    if c.mma.permutation is not None and _permutation(c.mma.permutation) != "[]":
        lines.append(f"    permutation: {_permutation(c.mma.permutation)}")
    lines += [f"    operand: {c.operand}", f"    copy: {scalar(c.copy.op)}",
              f"    value_type: {scalar(c.copy.value_type)}", f"    smem: {json.dumps(str(c.smem))}"]
    return lines


ATOMS_LINE = ("  the atoms are copied from the verifier's atom library or, for a size the library does not write, "
              "built by their family's rule (their `source:` says so).")


def spec_text(name: str, files: list[str], result: KernelImport, mma: dict[str, MMAAtomSpec],
              copy: dict[str, CopyAtomSpec]) -> str:
    used_mma = sorted({c.mma.atom for c in result.checks})
    used_copy = sorted({c.copy.op for c in result.checks})
    out = ["version: 2", f"name: {scalar(name)}", "description: >-",
           "  The CuTe configuration `python -m verifier import-kernel` read from " + ", ".join(files) + ";",
           ATOMS_LINE, "", "mma_atoms:"]
    for n in used_mma:
        out += _mma_atom_text(mma[n])
    out += ["", "copy_atoms:"]
    for n in used_copy:
        out += _copy_atom_text(copy[n])
    out += ["", "checks:"]
    for c in result.checks:
        out += _check_text(c)
    return "\n".join(out) + "\n"


def read_source(path: Path) -> str:
    """A kernel source's text, or KernelInputError (one line)."""
    try:
        return read_text_file(path, MAX_SOURCE_BYTES)
    except UnreadableFile as e:
        raise KernelInputError(f"{quote_path(str(path))}: {e.why}") from None


def check_reader(tools: Toolchain, source: Path, checks: list[KernelCheck], result: KernelImport,
                 defines: dict[str, str]) -> None:
    """--check-reader: CuTe's value of every shared layout the checks name by a type, against the reader's."""
    named = [c for c in checks if c.cpp_name]
    for c in checks:
        if not c.cpp_name:
            result.unreadable.append(Unreadable(c.file, c.line, 1, f"check {c.name}", "not compared with CuTe's: its "
                                                f"shared layout ({c.smem_from}) is not a type a host program can "
                                                "name (a function's variable, a template's member, an expression)"))
    try:
        values = cute_values(tools, source, sorted({c.cpp_name for c in named if c.cpp_name}), defines)
    except CompilerUnavailable as e:
        result.unreadable.append(Unreadable(str(source), 1, 1, "--check-reader", str(e)))
        return
    for c in named:
        assert c.cpp_name is not None
        cute = values.get(c.cpp_name)
        if isinstance(cute, str) or cute is None:
            result.unreadable.append(Unreadable(c.file, c.line, 1, c.cpp_name, cute or "CuTe printed nothing"))
            continue
        result.compared += 1
        cute = first_stage(cute)
        if not same_layout(cute, c.smem):
            result.unreadable.append(Unreadable(c.file, c.line, 1, c.cpp_name, f"the reader read {c.smem}, CuTe "
                                                                               f"computes {cute}: the check uses "
                                                                               "CuTe's"))
            c.smem = cute
            result.differ += 1
    result.toolchain = f"{tools.cxx}, CuTe's headers from {tools.cutlass}"


def run(files: list[Path], atoms: Path, name: str | None, defines: Mapping[str, str] | None = None,
        tools: Toolchain | None = None) -> tuple[str, KernelImport]:
    """The spec of the files' checks; with `tools`, each shared layout the reader computed is compared with CuTe's
    own (compiled.py) and CuTe's is used where they differ."""
    result = KernelImport()
    used: set[str] = set()
    for f in files:
        before = len(result.checks)
        try:
            import_kernel(read_source(f), str(f), result, used, defines)
        except ScopesTooDeep as e:
            raise KernelInputError(f"{quote_path(str(f))}:{e.line}:1: {e}") from None
        if tools is not None:
            check_reader(tools, f, result.checks[before:], result, dict(defines or {}))
    if not result.checks and result.unreadable:
        # a declaration the reader could not read says more than a branch it was told not to read
        first = next((u for u in result.unreadable if not u.what.startswith("#")), result.unreadable[0])
        undecided = [u for u in result.unreadable if u.what.startswith("#") and u.why.startswith("undecided")]
        hint = (f"; not read: {undecided[0].what} (line {undecided[0].line}): {undecided[0].why.split(';')[0]}"
                if undecided and undecided[0] is not first else "")
        raise KernelInputError(f"{first} (so no CuTe configuration to check was found; {len(result.unreadable)} "
                               f"things could not be read{hint}; --compile reads the file through the compiler)")
    if not result.checks:
        raise KernelInputError("found no CuTe configuration to check (a tiled MMA, a shared->register Copy_Atom "
                               "and a shared-memory layout per operand) in " + ", ".join(map(str, files))
                               + "; --compile reads the file through the compiler")
    mma, copy = load_atom_library(atoms)
    mma.update(family_atoms((c.mma.atom for c in result.checks), mma))
    missing = [Unreadable(c.file, c.line, 1, f"check {c.name}", f"the atom library defines no {what} atom {n}")
               for c in result.checks for what, n, lib in (("MMA", c.mma.atom, mma), ("copy", c.copy.op, copy))
               if n not in lib]
    if missing:
        result.unreadable += missing
        bad = {m.what.split()[-1] for m in missing}
        result.checks = [c for c in result.checks if c.name not in bad]
        if not result.checks:
            raise KernelInputError(f"{missing[0]}")
    stem = name or (files[0].stem if len(files) == 1 else "kernels")
    text = spec_text(stem, [str(f) for f in files], result, mma, copy)
    load_back(text, "import-kernel")
    return text, result
