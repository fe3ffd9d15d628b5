"""CuTe DSL IR files as one spec (the library behind `import-dsl`): each file read, each kernel's data flow followed,
its operand paths and shared buffers written as checks over the atom library."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..importer.source_files import UnreadableFile, read_text_file
from .flow import Skipped, read_flow
from .kernel_checks import KernelChecks, kernel_checks
from .mlir_text import MAX_IR_BYTES, IRSyntaxError, Where, read_module
from .spec_text import DslInputError, library, resolve_atoms, spec_text

_EXPERIMENTAL_KERNEL = re.compile(r"^[ \t]*lir\.func\b", re.MULTILINE)     # the experimental DSL's kernels


@dataclass
class DslImport:
    kernels: list[KernelChecks] = field(default_factory=list)

    @property
    def checks(self) -> int:
        return sum(len(k.records) for k in self.kernels)

    @property
    def skipped(self) -> list[Skipped]:
        return [s for k in self.kernels for s in k.skipped]


def _read_text(path: Path) -> str:
    try:
        return read_text_file(path, MAX_IR_BYTES)
    except UnreadableFile as e:
        raise DslInputError(f"{path}:1:1: {e.why}") from None


def kernel_word(name: str) -> str:
    """A short name for a kernel: the DSL's mangled symbol without its argument signature."""
    word = re.sub(r"^kernel_cutlass_(?:kernel_)?", "", name)
    word = re.split(r"_object_at_|_tensorptr|_CopyAtom|_Tensor", word)[0]
    word = re.sub(r"[^A-Za-z0-9_]", "_", word)[:48].strip("_")
    return word or "kernel"


def import_files(files: list[Path]) -> DslImport:
    result = DslImport()
    seen: set[str] = set()
    for f in files:
        text = _read_text(f)
        experimental = _EXPERIMENTAL_KERNEL.search(text)
        if experimental is not None:      # its ops are not the cute dialect's: say so, not the parse error they give
            line = text.count("\n", 0, experimental.start()) + 1
            raise DslInputError(f"{f}:{line}:1: a kernel of the experimental CuTe DSL (its `lir` dialect: lir.func, "
                                "lir.tma_load, lir.dot ...), which this reader does not read: only the cute dialect's "
                                "kernels (cuda.kernel / gpu.func) are imported")
        try:
            module = read_module(text, str(f))
        except IRSyntaxError as e:
            raise DslInputError(str(e)) from None
        kernels = module.kernels()
        if not kernels:
            raise DslInputError(f"{f}:1:1: no kernel (cuda.kernel / gpu.func) in this module")
        for k in kernels:
            word = kernel_word(k.name)
            prefix, n = word, 2
            while prefix in seen:
                prefix, n = f"{word}_{n}", n + 1
            seen.add(prefix)
            result.kernels.append(kernel_checks(read_flow(module, k), prefix))
    return result


def run(files: list[Path], atoms: Path, name: str | None) -> tuple[str, DslImport]:
    result = import_files(files)
    mma, copy = library(atoms)
    resolve_atoms(result.kernels, mma, copy)
    if result.checks == 0:
        first = result.skipped[0] if result.skipped else None
        raise DslInputError((f"{first.where}: " if first else f"{files[0]}:1:1: ")
                            + "found no operand path or shared buffer to check"
                            + (f" ({first.what}: {first.why})" if first else ""))
    stem = name or (files[0].stem if len(files) == 1 else "dsl_kernels")
    return spec_text(stem, [str(f) for f in files], result.kernels, mma, copy), result


__all__ = ["DslImport", "DslInputError", "import_files", "run", "Where"]
