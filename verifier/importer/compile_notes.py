"""`import-kernel --compile`: the source compiled by the host C++ compiler (GCC) with CuTe's own headers, syntax only,
each declaration of its function bodies noted (instrument.py); the compiler's diagnostics spell the type of every
note in every instantiation of its function, and the types are CuTe's values (cpp_types.py reads them).

The compile defines CUDA's qualifiers away and says the toolkit supports SM90 and SM100 MMA (the macros CUTLASS's
headers define from nvcc's version: CUTLASS_ARCH_MMA_SM90_SUPPORTED, CUTLASS_ARCH_MMA_SM100_SUPPORTED), as nvcc's host
pass would; the device pass's macros (__CUDA_ARCH__, the *_ENABLED ones) stay undefined, so CuTe's host code paths
are the ones read.  Results are kept in the cache directory, keyed by the instrumented text, the prelude, the flags,
the compiler's version and every file the source includes from its own directory, and CUTLASS's version header."""
from __future__ import annotations

import hashlib
import os
import re
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from .compiled import CompilerUnavailable, Toolchain
from .instrument import Instrumented

COMPILE_TIMEOUT_S = 600
PRELUDE = Path(__file__).resolve().parent / "host_prelude.hpp"
NOTE_MARK = "verifier-note"
CACHE_FORMAT = 1
SUPPORTED_MACROS = ("CUTLASS_ARCH_MMA_SM90_SUPPORTED", "CUTLASS_ARCH_MMA_SM100_SUPPORTED")
HOST_PASS_FLAGS = ("-D__global__=", "-D__device__=", "-D__host__=", "-D__shared__=", "-D__constant__=",
                   "-D__forceinline__=inline", "-D__launch_bounds__(...)=", "-D__grid_constant__=",
                   "-DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CPP", *(f"-D{m}=1" for m in SUPPORTED_MACROS))
_NOTE = re.compile(r"\[with int Line = (\d+); int Column = (\d+); Tag = (.*)::verifier_tag_; T = (.*)\]' is deprecated")
_ERROR = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?:fatal )?error: (?P<what>.*)$")
_LOCAL_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
MAX_LOCAL_INCLUDES = 64


@dataclass(frozen=True)
class NotedType:
    function: str          # the instantiated function, as the compiler spells it
    line: int
    column: int
    type_text: str


@dataclass
class CompiledNotes:
    notes: list[NotedType] = field(default_factory=list)
    seconds: float = 0.0
    cached: bool = False
    where: str = ""          # where CuTe's headers came from


class CompileFailed(Exception):
    """The source does not compile as a host program: the first error, file:line:column (one line)."""

    def __init__(self, message: str, refused_by_cute: bool = False) -> None:
        super().__init__(message)
        self.refused_by_cute = refused_by_cute


def _compiler_version(cxx: str) -> str:
    try:
        done = subprocess.run([cxx, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise CompilerUnavailable(f"{cxx}: {e}") from None
    first = (done.stdout.splitlines() or ["?"])[0]
    if "clang" in first.lower() or ("g++" not in first and "GCC" not in first and "gcc" not in first):
        raise CompilerUnavailable(f"--compile reads GCC's diagnostics; {cxx} is '{first}' (give --cxx g++)")
    return first


def _local_files(source: Path) -> list[Path]:
    """The files the source includes with "..." from its own directory, and theirs (at most MAX_LOCAL_INCLUDES)."""
    seen: list[Path] = []
    todo = [source]
    while todo and len(seen) < MAX_LOCAL_INCLUDES:
        f = todo.pop()
        try:
            text = f.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for name in _LOCAL_INCLUDE.findall(text):
            p = (f.parent / name)
            if p.is_file() and p.resolve() not in [s.resolve() for s in seen]:
                seen.append(p)
                todo.append(p)
    return seen


def _key(tools: Toolchain, version: str, text: str, flags: list[str], source: Path) -> str:
    h = hashlib.sha256(f"format {CACHE_FORMAT}\n{version}\n{tools.cutlass}\n".encode())
    h.update(PRELUDE.read_bytes())
    h.update("\0".join(flags).encode())
    h.update(text.encode())
    for f in _local_files(source):
        h.update(str(f.name).encode() + b"\0" + f.read_bytes())
    for inc in tools.includes:
        version_header = inc / "cutlass" / "version.h"
        if version_header.is_file():
            h.update(version_header.read_bytes())
    return h.hexdigest()


def _cache_dir() -> Path:
    """Beside the proof cache: $XDG_CACHE_HOME/cute-layout-verifier/compile."""
    from ..engine.cache import default_dir
    return default_dir() / "compile"


def _read_cache(key: str) -> list[str] | None:
    path = _cache_dir() / f"{key}.notes"
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    if not lines or lines[0] != f"key {key}" or lines[-1] != "end":
        return None                     # foreign or cut short: compiled again
    return lines[1:-1]


def _write_cache(key: str, lines: list[str]) -> None:
    folder = _cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".notes-")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write("\n".join([f"key {key}", *lines, "end"]) + "\n")
        os.replace(tmp, folder / f"{key}.notes")
    except OSError:
        pass                            # a cache that cannot be written only costs the next run a compile


def _asked_at(lines: list[str], i: int, host_source: Path, original: Path) -> str | None:
    """Where the source asked for what fails at line i of GCC's output: the innermost line of the source in the
    error's instantiation context (file:line:col), None when the source is not in it."""
    start = next((k for k in range(i - 1, -1, -1) if "In instantiation of" in lines[k]
                  or ": In function" in lines[k]), 0)
    asked = next((x for x in lines[start:i] if x.startswith(str(host_source) + ":")), "")
    where = re.match(re.escape(str(host_source)) + r":(\d+):(\d+)", asked)
    return f"{original}:{where.group(1)}:{where.group(2)}" if where else None


def _first_error(stderr: str, host_source: Path, original: Path) -> CompileFailed:
    lines = stderr.splitlines()
    for i, line in enumerate(lines):
        m = _ERROR.match(line)
        if m is None:
            continue
        what = m.group("what")
        file = m.group("file")
        in_source = file == str(host_source)
        if in_source:
            file = str(original)
        place = f"{file}:{m.group('line')}:{m.group('col')}"
        asked = None if in_source else _asked_at(lines, i, host_source, original)
        if "static assertion failed" in what or "static_assert" in what:
            # CuTe's rule, and where the source asked for it
            return CompileFailed(f"{asked or place}: CuTe refuses this configuration: {what} ({file}:"
                                 f"{m.group('line')})", refused_by_cute=True)
        if asked is not None:
            return CompileFailed(f"{asked}: the host compile fails in a header ({place}): {what[:300]}")
        return CompileFailed(f"{place}: the host compile fails: {what[:300]}")
    tail = (lines or ["(no output)"])[-1]
    return CompileFailed(f"{original}:1:1: the host compile fails: {tail[:300]}")


def compile_notes(tools: Toolchain, source: Path, instrumented: Instrumented, defines: dict[str, str],
                  use_cache: bool = True) -> CompiledNotes:
    version = _compiler_version(tools.cxx)
    flags = ["-std=c++17", "-fsyntax-only", "-fpermissive", "-ftemplate-backtrace-limit=16", "-fno-diagnostics-color",
             "-fmessage-length=0", "-x", "c++", *HOST_PASS_FLAGS,
             *(f"-D{k}={v}" if v != "" else f"-D{k}" for k, v in sorted(defines.items())),
             f"-iquote{source.resolve().parent}", *[f"-I{p}" for p in tools.includes]]
    key = _key(tools, version, instrumented.text, flags, source)
    out = CompiledNotes(where=tools.cutlass)
    cached = _read_cache(key) if use_cache else None
    started = time.perf_counter()
    if cached is None:
        with tempfile.TemporaryDirectory(prefix="verifier_compile_") as tmp:
            host_source = Path(tmp) / source.name
            host_source.write_text(instrumented.text, encoding="utf-8")
            program = Path(tmp) / "host_program.cpp"
            program.write_text(f'#include "{PRELUDE}"\n#include "{host_source}"\n', encoding="utf-8")
            env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
            try:
                done = subprocess.run([tools.cxx, *flags, str(program)], capture_output=True, text=True,
                                      timeout=COMPILE_TIMEOUT_S, env=env, errors="replace")
            except subprocess.TimeoutExpired:
                raise CompileFailed(f"{source}:1:1: the host compile ran past {COMPILE_TIMEOUT_S} s") from None
            except OSError as e:
                raise CompilerUnavailable(f"{tools.cxx}: {e}") from None
            if done.returncode != 0:
                raise _first_error(done.stderr, host_source, source)
            cached = [m.group(0) for m in _NOTE.finditer(done.stderr)]
        if use_cache:
            _write_cache(key, cached)
    else:
        out.cached = True
    out.seconds = time.perf_counter() - started
    seen: set[tuple[str, int, int]] = set()
    for line in cached:
        m = _NOTE.search(line)
        if m is None:
            continue
        ident = (m.group(3), int(m.group(1)), int(m.group(2)))
        if ident in seen:
            continue
        seen.add(ident)
        out.notes.append(NotedType(m.group(3), int(m.group(1)), int(m.group(2)), m.group(4)))
    return out


__all__ = ["CompiledNotes", "CompileFailed", "NotedType", "compile_notes", "SUPPORTED_MACROS"]
