"""`import-kernel --compile FILE...`: the checks of C++ kernels as the host compiler instantiates them with CuTe's
headers (instrument -> compile_notes -> kernel_paths), written as one spec file (version 2) with the atoms copied
from the atom library, each check's `source:` its line in the file and what was not checked as comments."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..dsl.importer import DslImport
from ..dsl.kernel_checks import KernelChecks
from ..dsl.spec_text import resolve_atoms, spec_text
from .loaded_back import load_back
from ..echo import quote_path
from .compile_notes import CompiledNotes, compile_notes
from .compiled import Toolchain
from .instrument import instrument
from .collective_paths import collective_paths, header_collectives, unread_collectives
from .kernel_paths import read_paths
from .kernel_spec import KernelInputError, load_atom_library, read_source

MAX_INSTANTIATE_CHARS = 2000
CXX_READER = "The C++ kernels `python -m verifier import-kernel --compile` read (through the host compiler) from"


class NothingChecked(Exception):
    """Every copy and MMA the compile found is one the verifier does not check (a copy without an atom, a gemm on
    shared-memory partitions, no MMA): unsupported, each listed with its reason (exit 3), not bad input."""

    def __init__(self, message: str, result: CompiledImport) -> None:
        super().__init__(message)
        self.result = result


@dataclass
class CompiledImport(DslImport):
    """The kernels' checks (as import-dsl's) and each source's compile."""
    compiles: list[tuple[str, CompiledNotes]] = field(default_factory=list)


INSTANTIATE_FUNCTION = "verifier_instantiate_"


def with_instantiations(text: str, expressions: list[str]) -> str:
    """The instrumented source with a function after its last line evaluating each expression (`&kernel<T>`,
    `launch(nullptr)`): what it names is instantiated, its lines keep their numbers."""
    tail = "".join(f"\nstatic void {INSTANTIATE_FUNCTION}{k}() {{ (void)({e}); }}" for k, e in enumerate(expressions))
    return text + tail + ("\n" if tail else "")


def import_compiled(files: list[Path], atoms: Path, name: str | None, defines: dict[str, str], tools: Toolchain,
                    use_cache: bool = True, instantiate: list[str] | None = None,
                    include_dirs: tuple[Path, ...] = ()) -> tuple[str, CompiledImport]:
    """The spec text and what was read; KernelInputError for bad input, CompileFailed when a source does not
    compile (its first error), CompilerUnavailable without a compiler or headers."""
    mma_lib, copy_lib = load_atom_library(atoms)
    result = CompiledImport()
    for f in files:
        source = read_source(f)
        ins = instrument(source)
        for e in instantiate or []:
            if "\n" in e or len(e) > MAX_INSTANTIATE_CHARS:
                raise KernelInputError(f"--instantiate {e[:60]!r}: one C++ expression on one line, at most "
                                       f"{MAX_INSTANTIATE_CHARS} characters")
        ins.text = with_instantiations(ins.text, instantiate or [])
        noted = compile_notes(tools, f, ins, defines, use_cache, include_dirs)
        result.compiles.append((str(f), noted))
        records, skipped = read_paths(str(f), ins, noted.notes)
        found, listed = collective_paths(str(f), ins, noted.notes)
        records, skipped = records + found, skipped + listed + unread_collectives(str(f), source, ins) + \
            header_collectives(f, source)
        result.kernels.append(KernelChecks(f.stem, records, skipped))
    resolve_atoms(result.kernels, mma_lib, copy_lib)
    if result.checks == 0:
        open_ = [s for s in result.skipped if not s.covered]
        gemms = [s for s in open_ if s.what.startswith("gemm")]
        listed = gemms or open_
        first = listed[0] if listed else None
        if first is None:
            raise KernelInputError(f"{quote_path(str(files[0]))}: no operand path to check was found; no copy or gemm "
                                   "call in an instantiated function")
        raise NothingChecked(f"{quote_path(str(files[0]))}: no operand path the verifier checks; first not checked: "
                             f"{first}", result)
    text = spec_text(name or files[0].stem, [str(f) for f in files], result.kernels, mma_lib, copy_lib, CXX_READER)
    load_back(text, "import-kernel --compile")
    return text, result


__all__ = ["import_compiled", "CompiledImport", "NothingChecked"]
