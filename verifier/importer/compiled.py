"""CuTe's own values of a kernel source's declarations, through the host C++ compiler: a small host program
includes the source and CuTe's headers and prints each named shared layout with CuTe's `print`; `import-kernel
--check-reader` compares them with what the no-compiler reader computed, reports every difference and uses CuTe's.

Headers: `--cutlass DIR` (a CUTLASS checkout or its include/ directory), else the CUTLASS headers the nvidia-cutlass
wheel ships (cutlass_library/source/include); CUDA's from $CUDA_HOME (or /usr/local/cuda), with libcu++ (its
include/cccl).  The compiler: `--cxx`, else $CXX, else g++ or clang++.  No GPU and no nvcc are needed; device
qualifiers are defined away, so a source whose kernels use device built-ins does not compile (said, one line)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..algebra.syntax import ParseError, parse_layout

COMPILE_TIMEOUT_S = 300
MARK = "@@verifier "
# CUDA's qualifiers defined away for the host compile
HOST_FLAGS = ("-D__global__=", "-D__device__=", "-D__host__=", "-D__shared__=", "-D__forceinline__=inline",
              "-D__launch_bounds__(...)=")


class CompilerUnavailable(Exception):
    """No compiler, no CuTe headers, or a compile that failed: one line."""


@dataclass(frozen=True)
class Toolchain:
    cxx: str
    includes: tuple[Path, ...]
    cutlass: str                  # where CuTe's headers come from, in words (with the wheel's version)
    cutlass_includes: tuple[Path, ...] = ()   # those of `includes` that are CUTLASS's (its headers, its utilities)
    cuda_version: tuple[int, int] | None = None   # the toolkit's (major, minor): what nvcc's host pass says it is


def _wheel_include() -> tuple[Path, str] | None:
    import importlib.metadata
    import importlib.util
    spec = importlib.util.find_spec("cutlass_library")
    if spec is None or spec.origin is None:
        return None
    inc = Path(spec.origin).parent / "source" / "include"
    if not (inc / "cute" / "tensor.hpp").is_file():
        return None
    try:
        version = importlib.metadata.version("nvidia-cutlass")
    except importlib.metadata.PackageNotFoundError:
        version = "of an unknown version"
    return inc, f"the nvidia-cutlass wheel {version} ({inc})"


def toolchain(cxx: str | None, cutlass: Path | None) -> Toolchain:
    compiler = cxx or os.environ.get("CXX") or shutil.which("g++") or shutil.which("clang++")
    if not compiler or shutil.which(compiler) is None:
        raise CompilerUnavailable(f"no C++ compiler ({cxx or os.environ.get('CXX') or 'g++ / clang++'} not found)")
    if cutlass is not None:
        inc = cutlass / "include" if (cutlass / "include" / "cute").is_dir() else cutlass
        if not (inc / "cute" / "tensor.hpp").is_file():
            raise CompilerUnavailable(f"{cutlass}: no cute/tensor.hpp there (give a CUTLASS checkout or its include/)")
        where = str(inc)
    else:
        found = _wheel_include()
        if found is None:
            raise CompilerUnavailable("no CuTe headers: give --cutlass DIR, or pip install --no-deps nvidia-cutlass")
        inc, where = found
    cuda = Path(os.environ.get("CUDA_HOME") or "/usr/local/cuda") / "include"
    wheels = pip_cuda_includes()
    if not (cuda / "cuda_runtime.h").is_file() and not any((w / "cuda_runtime.h").is_file() for w in wheels):
        raise CompilerUnavailable(f"no CUDA headers at {cuda} (set CUDA_HOME, or pip install nvidia-cuda-runtime-cu12)")
    util = inc.parent / "tools" / "util" / "include"      # CUTLASS's host utilities (the examples include them)
    extra = (util,) if util.is_dir() else ()
    includes = (inc, *extra, cuda, cuda / "cccl", *wheels)
    return Toolchain(compiler, includes, where, (inc, *extra), cuda_version(includes))


_CUDA_VERSION = re.compile(r"^#define\s+(?:CUDA_VERSION|CUDART_VERSION)\s+(\d+)", re.M)


def cuda_version(includes: tuple[Path, ...]) -> tuple[int, int] | None:
    """The CUDA toolkit's version as cuda.h (or cuda_runtime_api.h) states it: 13000 -> (13, 0)."""
    for inc in includes:
        for header in ("cuda.h", "cuda_runtime_api.h"):
            try:
                m = _CUDA_VERSION.search((inc / header).read_text(encoding="utf-8", errors="replace"))
            except OSError:
                continue
            if m is not None:
                v = int(m.group(1))
                return v // 1000, (v % 1000) // 10
    return None





def pip_cuda_includes() -> tuple[Path, ...]:
    """The include/ directories of NVIDIA's pip packages of CUDA headers (nvidia-curand-cu12, nvidia-cuda-runtime-
    cu12, ...), after the toolkit's own: what a toolkit without cuRAND lacks, a pip package may ship."""
    import importlib.util
    spec = importlib.util.find_spec("nvidia")
    if spec is None or not spec.submodule_search_locations:
        return ()
    found: list[Path] = []
    for root in spec.submodule_search_locations:
        for inc in sorted(Path(root).glob("*/include")):
            if inc.is_dir() and any(inc.glob("*.h")):
                found.append(inc)
    return tuple(found)


def _program(source: Path, names: list[str]) -> str:
    lines = ["#include <cstdio>", "#include <cute/tensor.hpp>", f'#include "{source.resolve()}"', "int main() {"]
    for i, name in enumerate(names):
        lines.append(f'  std::printf("{MARK}{i} "); cute::print({name}{{}}); std::printf("\\n");')
    lines += ["  return 0;", "}"]
    return "\n".join(lines) + "\n"


def cute_values(tools: Toolchain, source: Path, names: list[str], defines: dict[str, str]) -> dict[str, Any]:
    """CuTe's value of each named layout type of `source` (CompilerUnavailable if the program does not build)."""
    if not names:
        return {}
    flags = [*HOST_FLAGS, *(f"-D{k}={v}" for k, v in sorted(defines.items()))]
    with tempfile.TemporaryDirectory(prefix="verifier_cxx_") as tmp:
        host = Path(tmp) / "host.cpp"
        host.write_text(_program(source, names), encoding="utf-8")
        exe = Path(tmp) / "host"
        cmd = [tools.cxx, "-std=c++17", "-O0", "-w", *[f"-I{p}" for p in tools.includes], *flags, str(host),
               "-o", str(exe)]
        try:
            built = subprocess.run(cmd, capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise CompilerUnavailable(f"{tools.cxx} ran past {COMPILE_TIMEOUT_S} s") from None
        if built.returncode != 0:
            errors = [x for x in built.stderr.splitlines() if "error" in x]
            raise CompilerUnavailable(f"the host program does not compile: {(errors or ['?'])[0].strip()[:300]}")
        ran = subprocess.run([str(exe)], capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S)
    out: dict[str, Any] = {}
    for line in ran.stdout.splitlines():
        if not line.startswith(MARK):
            continue
        index, _, printed = line[len(MARK):].partition(" ")
        try:
            out[names[int(index)]] = parse_layout(printed)
        except (ParseError, ValueError, IndexError) as e:
            out[names[int(index)]] = f"CuTe printed '{printed[:120]}', which the verifier cannot read: {e}"
    return out


def same_layout(a: Any, b: Any) -> bool:
    """The same map: equal sizes and the same offset at every coordinate index."""
    try:
        n = int(a.size())
        return n == int(b.size()) and all(int(a(i)) == int(b(i)) for i in range(n))
    except (TypeError, ValueError, ArithmeticError, AttributeError):
        return False


__all__ = ["CompilerUnavailable", "Toolchain", "toolchain", "cute_values", "same_layout"]
