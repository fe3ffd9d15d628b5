"""`import-kernel --compile`: the source compiled by the host C++ compiler (GCC) with CuTe's own headers, syntax only,
each declaration of its function bodies noted (instrument.py); the compiler's diagnostics spell the type of every
note in every instantiation of its function, and the types are CuTe's values (cpp_types.py reads them).

The compile defines CUDA's qualifiers away and says the toolkit supports SM90 and SM100 MMA (the macros CUTLASS's
headers define from nvcc's version: CUTLASS_ARCH_MMA_SM90_SUPPORTED, CUTLASS_ARCH_MMA_SM100_SUPPORTED), as nvcc's host
pass would; the device pass's macros (__CUDA_ARCH__, the *_ENABLED ones) stay undefined, so CuTe's host code paths
are the ones read.  Results are kept in the cache directory, keyed by the instrumented text, the prelude, the flags
and the compiler's version; each entry lists every file the compile read (GCC's -MD dependencies) with its SHA-256,
and is used only while every one of them still has those bytes (an edited CuTe header or local include, a changed
-I directory: compiled again)."""
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
from .host_headers import build_overlay, overlay_dir
from .instrument import Instrumented

COMPILE_TIMEOUT_S = 600
PRELUDE = Path(__file__).resolve().parent / "host_prelude.hpp"
NOTE_MARK = "verifier-note"
CACHE_FORMAT = 2                  # 2: entries list their dependencies' digests
# what CUTLASS's headers make of nvcc >= 12.8's version macros (__CUDACC_VER_MAJOR__ itself stays undefined: with it
# CUTLASS includes headers only nvcc's front end reads, wmma's <mma.h> among them)
SUPPORTED_MACROS = ("CUTLASS_ARCH_MMA_SM90_SUPPORTED", "CUTLASS_ARCH_MMA_SM100_SUPPORTED",
                    "CUTLASS_SM90_COLLECTIVE_BUILDER_SUPPORTED")
HOST_PASS_FLAGS = ("-D__global__=", "-D__device__=", "-D__host__=", "-D__shared__=", "-D__constant__=",
                   "-D__forceinline__=inline", "-D__launch_bounds__(...)=", "-D__grid_constant__=",
                   "-DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CPP",
                   "-D__NVCC__",                  # nvcc's (its host pass has it): CUTLASS declares its lane and SM ids
                   *(f"-D{m}=1" for m in SUPPORTED_MACROS))
_NOTE = re.compile(r"\[with int Line = (\d+); int Column = (\d+); Tag = (.*)::verifier_tag_; T = (.*)\]' is deprecated")
_ERROR = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?:(?:fatal )?error|(?P<crash>internal compiler "
                    r"error)): (?P<what>.*)$")


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


def _key(tools: Toolchain, version: str, text: str, flags: list[str]) -> str:
    """What names an entry: the instrumented text, the prelude, the flags and the compiler; every file the compile
    read is checked against the entry's manifest when it is read back (so no header is hashed here)."""
    h = hashlib.sha256(f"format {CACHE_FORMAT}\n{version}\n{tools.cutlass}\n".encode())
    h.update(PRELUDE.read_bytes())
    h.update("\0".join(flags).encode())
    h.update(text.encode())
    return h.hexdigest()


def _cache_dir() -> Path:
    """Beside the proof cache: $XDG_CACHE_HOME/cute-layout-verifier/compile."""
    from ..engine.cache import default_dir
    return default_dir() / "compile"


DEPENDENCY = "dep "                # a cache entry's line: "dep <sha256> <path>"


def _digest(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def _read_cache(key: str) -> list[str] | None:
    path = _cache_dir() / f"{key}.notes"
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    if not lines or lines[0] != f"key {key}" or lines[-1] != "end":
        return None                     # foreign or cut short: compiled again
    body = lines[1:-1]
    for line in body:
        if line.startswith(DEPENDENCY):
            digest, _, dep = line[len(DEPENDENCY):].partition(" ")
            if _digest(dep) != digest:
                return None             # a file the compile read has changed (or is gone): compiled again
    return [x for x in body if not x.startswith(DEPENDENCY)]


def dependencies(make_rule: str, exclude: Path) -> list[str]:
    """The files of a GCC -MD rule (`target: dep dep \\ ...`), without those under `exclude` (the temporary
    directory of the compile: the instrumented source, the host program)."""
    _, _, deps = make_rule.replace("\\\n", " ").partition(": ")
    out: list[str] = []
    for d in re.findall(r"(?:\\ |[^\s])+", deps):
        d = d.replace("\\ ", " ")
        if not Path(d).resolve().is_relative_to(exclude.resolve()) and d not in out:
            out.append(d)
    return out


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


MESSAGE_CHARS = 300            # of GCC's message, in the one line an error is
QUOTED_CHARS = 100             # a quoted type longer than this is shortened in the middle
_QUOTED = re.compile(r"'[^'\n]*'")


def shortened(what: str) -> str:
    """GCC's message in at most MESSAGE_CHARS characters, its complaint kept: a quoted type of more than QUOTED_CHARS
    (a collective's whole template) keeps its start and end, the middle elided."""
    def one(m: re.Match[str]) -> str:
        q = m.group(0)
        return q if len(q) <= QUOTED_CHARS else f"{q[:QUOTED_CHARS * 2 // 3]} ... {q[-QUOTED_CHARS // 4:]}"
    short = _QUOTED.sub(one, what)
    return short if len(short) <= MESSAGE_CHARS else short[:MESSAGE_CHARS - 3] + "..."


def _first_error(stderr: str, host_source: Path, original: Path) -> CompileFailed:
    lines = stderr.splitlines()
    for i, line in enumerate(lines):
        m = _ERROR.match(line)
        if m is None:
            continue
        what = m.group("what")
        if m.group("crash"):          # the compiler itself failed: its own bug, not the source's error
            what = (f"the compiler crashed (GCC's internal compiler error: {what}); another compiler or version may "
                    "read it")
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
            return CompileFailed(f"{asked}: the host compile fails in a header ({place}): {shortened(what)}")
        hint = " (give -I DIR for each directory your build adds)" if "No such file or directory" in what else ""
        return CompileFailed(f"{place}: the host compile fails: {shortened(what)}{hint}")
    tail = (lines or ["(no output)"])[-1]
    return CompileFailed(f"{original}:1:1: the host compile fails: {shortened(tail)}")


def _toolkit_version_flags(tools: Toolchain) -> list[str]:
    """nvcc's version macros, which CUTLASS's headers and kernels read (`#if __CUDACC_VER_MAJOR__ >= 12`): the
    toolkit's own version, as nvcc's host pass defines them."""
    if tools.cuda_version is None:
        return []
    major, minor = tools.cuda_version
    return [f"-D__CUDACC_VER_MAJOR__={major}", f"-D__CUDACC_VER_MINOR__={minor}", "-D__CUDACC_VER_BUILD__=0"]


def compile_notes(tools: Toolchain, source: Path, instrumented: Instrumented, defines: dict[str, str],
                  use_cache: bool = True, include_dirs: tuple[Path, ...] = ()) -> CompiledNotes:
    version = _compiler_version(tools.cxx)
    flags = ["-std=c++17", "-fsyntax-only", "-fpermissive", "-ftemplate-backtrace-limit=16", "-fno-diagnostics-color",
             "-fmessage-length=0", "-x", "c++", *HOST_PASS_FLAGS,
             *(f"-D{k}={v}" if v != "" else f"-D{k}" for k, v in sorted(defines.items())),
             *_toolkit_version_flags(tools), f"-iquote{source.resolve().parent}"]
    roots = (*(p.resolve() for p in include_dirs), *tools.cutlass_includes)
    overlay = overlay_dir(_cache_dir(), roots)
    searched = [*[f"-I{p.resolve()}" for p in include_dirs], *[f"-I{p}" for p in tools.includes]]
    key = _key(tools, version, instrumented.text, [*flags, f"-I{overlay}", *searched])
    out = CompiledNotes(where=tools.cutlass)
    cached = _read_cache(key) if use_cache else None
    started = time.perf_counter()
    if cached is None:
        with tempfile.TemporaryDirectory(prefix="verifier_compile_") as tmp:
            try:
                copies = build_overlay(overlay, roots)
            except OSError:                  # no writable cache: the overlay lives as long as this compile
                overlay = Path(tmp) / "headers"
                copies = build_overlay(overlay, roots)
            host_source = Path(tmp) / source.name
            host_source.write_text(instrumented.text, encoding="utf-8")
            program = Path(tmp) / "host_program.cpp"
            program.write_text(f'#include "{PRELUDE}"\n#include "{host_source}"\n', encoding="utf-8")
            env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
            try:
                deps_file = Path(tmp) / "deps.d"
                done = subprocess.run([tools.cxx, *flags, f"-I{overlay}", *searched, "-MD", "-MF", str(deps_file),
                                       str(program)],
                                      capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S, env=env,
                                      errors="replace")
            except subprocess.TimeoutExpired:
                raise CompileFailed(f"{source}:1:1: the host compile ran past {COMPILE_TIMEOUT_S} s") from None
            except OSError as e:
                raise CompilerUnavailable(f"{tools.cxx}: {e}") from None
            if done.returncode != 0:
                raise _first_error(done.stderr, host_source, source)
            cached = [m.group(0) for m in _NOTE.finditer(done.stderr)]
            try:
                rule = deps_file.read_text(encoding="utf-8", errors="replace")
            except OSError:
                rule = None             # no dependency list: nothing is kept (a later run compiles again)
            read = [copies.get(d, d) for d in dependencies(rule, Path(tmp))] if rule is not None else None
            manifest = None if read is None else [f"{DEPENDENCY}{_digest(d)} {d}" for d in read]
        if use_cache and manifest is not None:
            _write_cache(key, manifest + cached)
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
