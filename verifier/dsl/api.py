"""The Python entry for pytest users: `verify(fn, *fake_args, arch=...)` compiles a CuTe DSL function with the
DSL's own `cute.compile`, imports the IR the compile leaves and proves its checks, returning the results the reports
use.

The DSL reads its settings from the environment once, when it starts, so the IR must be asked for before `cutlass`
is imported: `verify` does it when cutlass is not imported yet; otherwise call `keep_ir()` first (in a conftest.py,
say), or run the test process with CUTE_DSL_KEEP=ir and CUTE_DSL_DUMP_DIR set.

    import verifier.dsl.api as vdsl
    vdsl.keep_ir(arch="sm_80")          # before cutlass is imported
    import cutlass.cute as cute
    ...
    result = vdsl.verify(host_fn, a, b, c, stream)
    assert result.ok, result.report()
"""
from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..importer.kernel_spec import ATOM_LIBRARY
from ..outcome import ExitCode, exit_code
from ..symbolic.procedure import Settings
from ..theorems.result import CheckResult
from .flow import Skipped
from .script import ARCH, DUMP_DIR, KEEP, ir_environment, ir_files


class DslSetupError(RuntimeError):
    """The DSL was started without keeping its IR (or for another architecture): what to do instead."""


@dataclass
class Verification:
    """What `verify` proved: each check's result (the objects the reports render), what was not checked, the spec."""
    results: list[CheckResult]
    skipped: list[Skipped] = field(default_factory=list)
    spec_text: str = ""
    ir_files: list[Path] = field(default_factory=list)

    @property
    def exit_code(self) -> ExitCode:
        return exit_code(r.outcome for r in self.results)

    @property
    def ok(self) -> bool:
        """Every check's verdict is the one expected (all verified, for an imported kernel)."""
        return bool(self.results) and self.exit_code is ExitCode.OK

    def report(self, verbose: bool = False) -> str:
        from ..report import text
        return text.render(self.results, 0.0, verbose)


def _keeps_ir() -> bool:
    tokens = {t.strip() for t in os.environ.get(KEEP, "").split(",")}
    return bool(tokens & {"ir", "all"}) and bool(os.environ.get(DUMP_DIR))


def keep_ir(directory: str | Path | None = None, arch: str | None = None) -> Path:
    """Ask the CuTe DSL to keep every compile's IR in `directory` (default: a new temporary one) for `arch`; call it
    before `cutlass` is imported.  Returns the directory."""
    if "cutlass" in sys.modules and not _keeps_ir():
        raise DslSetupError("cutlass is already imported without CUTE_DSL_KEEP=ir: call verifier.dsl.api.keep_ir() "
                            "before importing cutlass (the DSL reads its environment once), or run with "
                            "CUTE_DSL_KEEP=ir and CUTE_DSL_DUMP_DIR set")
    where = Path(directory) if directory is not None else Path(tempfile.mkdtemp(prefix="verifier_dsl_ir_"))
    where.mkdir(parents=True, exist_ok=True)
    if not _keeps_ir():
        os.environ.update(ir_environment(where, arch, base={}))
    elif arch is not None and os.environ.get(ARCH) not in (None, arch):
        raise DslSetupError(f"the DSL keeps its IR for {os.environ.get(ARCH)}, not {arch}")
    return Path(os.environ[DUMP_DIR])


def verify(fn: Any, *args: Any, arch: str | None = None, atoms: Path = ATOM_LIBRARY,
           settings: Settings | None = None, **kwargs: Any) -> Verification:
    """cute.compile(fn, *args, **kwargs) with the IR kept, then import-dsl and prove every check it defines."""
    if arch is not None and "cutlass" in sys.modules and os.environ.get(ARCH) not in (None, arch):
        raise DslSetupError(f"cutlass was started for {os.environ.get(ARCH)}: call keep_ir(arch={arch!r}) before "
                            "importing cutlass")
    directory = keep_ir(arch=arch)
    before = {p: p.stat().st_mtime_ns for p in ir_files(directory)}
    import cutlass.cute as cute
    cute.compile(fn, *args, **kwargs)
    # a compile of the same function writes the same file name again: new, or written since
    made = [p for p in ir_files(directory) if before.get(p) != p.stat().st_mtime_ns]
    return verify_ir(made, atoms, settings)


def verify_ir(files: list[Path], atoms: Path = ATOM_LIBRARY, settings: Settings | None = None,
              name: str | None = None) -> Verification:
    """import-dsl of IR files, and every check proved (the spec is named `name`, default: the first file's)."""
    from ..engine.proving import prove_check
    from ..importer.loaded_back import load_written
    from .importer import DslInputError, run
    if not files:
        raise DslInputError("the compile left no IR (is CUTE_DSL_KEEP=ir in effect?)")
    stem = name or files[0].stem
    text, imported = run(files, atoms, stem)
    with tempfile.TemporaryDirectory(prefix="verifier_dsl_") as tmp:
        spec = load_written(text, "import-dsl", Path(tmp) / f"{stem}.yaml")
        results = [prove_check(spec, c, settings or Settings()) for c in spec.checks.values()]
    return Verification(results, imported.skipped, text, files)


__all__ = ["DslSetupError", "Verification", "keep_ir", "verify", "verify_ir"]
