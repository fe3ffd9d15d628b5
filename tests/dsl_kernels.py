"""Small CuTe DSL kernels of our own, compiled with fake arguments (no GPU) to IR for the import-dsl tests.

One SM80 tile kernel, 128 threads: cp.async fills a swizzled 64x32 half tile of A and of B, ldmatrix feeds a 2x2
tiled mma.sync 16x8x16, and the epilogue stores the 64x64 C tile to shared memory and copies it out with 128-bit
vectors.  Its knobs are the mistakes the checks must catch:

    reader_swizzle   the swizzle ldmatrix's view of sA assumes (default: the writer's)
    writer_swizzle   the swizzle cp.async's view of sA writes with (default: CuTe's for 64-byte rows)
    a_copy_for       "A" (make_tiled_copy_A) or "B": the register copy of A built for the other operand
    c_row_stride     the row stride of the C tile the epilogue stores (64: right; 32: rows collide)
    a_dst_other_copy 1: cp.async's destination in sA partitioned by another tiled copy than its source
    c_read_as_partition_d  1: the epilogue's copy out of sC takes its source from partition_D (the same coordinates:
                     the copy's source and destination layouts are one), a partition the copy reads, not writes
    g2s_thread       the coordinate cp.async's tiled copy is sliced at: "tid" (threadIdx.x), "mod128" (tid % 128,
                     the same slices), "mod64" (tid % 64: threads 64.. take the slices of 0.., half the tile unmoved)
    s2r_a_thread     the coordinate A's ldmatrix copy is sliced at: "tid", or "xor1" (tid ^ 1: each lane hands the
                     instruction its neighbour's row address)
    copy_out_warps   "all": the 128 threads compute C and copy it out; "second": a 256-thread block whose warps 0..3
                     compute C (under `if warp_idx < 4`) and whose warps 4..7 copy it out (under `if warp_idx >= 4`)
    s2g_thread       with copy_out_warps="second", the coordinate the copy-out is sliced at: "minus128" (tid - 128,
                     right) or "tid" (threads 128.. take slices 128..: none of the copy's)

And one SIMT kernel (`kernel=simt`, dsl_simt_kernel.py), 256 threads: a 64x8 float tile of A and of B copied to
shared memory one float a thread, then by CopyUniversalOp into the fragments of a 16x16x1 tiled MMA of
MmaUniversalOp (CuTe's UniversalFMA).  Its knob:

    copy_threads     "same" or "transposed": A's register copy made for a tiled MMA whose threads run N first

Run as a script it writes one IR file: `python tests/dsl_kernels.py OUT.mlir [kernel=simt] [knob=value ...]`.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

TILE_M, TILE_N, TILE_K = 64, 64, 32
THREADS = 128
RIGHT_SWIZZLE = (2, 4, 3)          # 64-byte rows of half: 16-byte chunks, XOR by the row pair (on byte addresses)
C_SWIZZLE = (3, 4, 3)              # the C tile: 128-byte rows, 16-byte chunks (on byte addresses)
KERNEL_SCRIPT = Path(__file__).with_name("dsl_tile_kernel.py")
DEFAULTS: dict[str, Any] = {"reader_swizzle": None, "writer_swizzle": RIGHT_SWIZZLE, "a_copy_for": "A",
                            "c_row_stride": TILE_N, "a_dst_other_copy": 0, "c_read_as_partition_d": 0,
                            "g2s_thread": "tid", "s2r_a_thread": "tid", "copy_out_warps": "all", "s2g_thread": "tid"}
SIMT_MN, SIMT_K = 64, 8
SIMT_THREADS = (16, 16)            # the tiled MMA's threads along M and N
SIMT_SCRIPT = Path(__file__).with_name("dsl_simt_kernel.py")
SIMT_DEFAULTS: dict[str, Any] = {"copy_threads": "same"}
KERNEL_KNOB = "kernel"
KERNEL_SCRIPTS = {"tile": KERNEL_SCRIPT, "simt": SIMT_SCRIPT}


def compile_tile_kernel(target: Path, **knobs: Any) -> Path:
    """Compile the tile kernel (or, with kernel="simt", the SIMT kernel) with the knobs (see the module's
    docstring) for sm_80 and write its IR to `target`."""
    script = KERNEL_SCRIPTS[knobs.pop(KERNEL_KNOB, "tile")]
    named = {KERNEL_KNOB: "simt"} if script == SIMT_SCRIPT else {}
    args = [f"{k}={v}".replace(" ", "") for k, v in {**named, **knobs}.items()]
    return compile_ir([sys.executable, str(script), *args[len(named):]], "sm_80", target,
                      " ".join(["python tests/dsl_kernels.py", str(target), *args]), knobs)


def compile_ir(argv: list[str], arch: str, target: Path, made_by: str, knobs: dict[str, Any]) -> Path:
    """Run `argv` (a kernel script's compile) in a fresh interpreter whose DSL keeps its IR, for `arch`, and write
    the one IR file it leaves to `target`, headed by the command that made it (`made_by`).  The DSL reads
    CUTE_DSL_KEEP / CUTE_DSL_DUMP_DIR once per process, hence the fresh interpreter."""
    import subprocess
    with tempfile.TemporaryDirectory(prefix="dsl_ir_") as tmp:
        env = dict(os.environ, CUTE_DSL_ARCH=arch, CUTE_DSL_KEEP="ir", CUTE_DSL_DUMP_DIR=tmp,
                   CUTE_DSL_NO_CACHE="1", CUTE_DSL_DISABLE_FILE_CACHING="1")
        done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            lines = [x for x in done.stderr.splitlines() if "error" in x.lower()] or done.stderr.splitlines()[-1:]
            raise RuntimeError(f"the DSL refused the kernel ({knobs}): {lines[-1] if lines else done.returncode}")
        made = sorted(Path(tmp).rglob("*_clean.mlir"))
        if len(made) != 1:
            raise RuntimeError(f"expected one IR file, found {[p.name for p in made]}")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f"// made by: {made_by} (the CuTe DSL, CUTE_DSL_ARCH={arch}, CUTE_DSL_KEEP=ir)\n"
                          + made[0].read_text(encoding="utf-8"), encoding="utf-8")
        return target


COMPILE_FLAG = "--compile"       # a knobbed kernel script's argument: compile in this process (which keeps its IR)


def compile_knobbed(script: Path, arch: str, target: Path, knobs: dict[str, Any]) -> Path:
    """Compile a knobbed kernel script (tests/dsl_tma_kernel.py, dsl_tmem_kernel.py) with the knobs for `arch`, in a
    fresh interpreter, and write its IR to `target`, headed by the command that makes it again."""
    args = [f"{k}={v}".replace(" ", "") for k, v in knobs.items()]
    return compile_ir([sys.executable, str(script), COMPILE_FLAG, *args], arch, target,
                      " ".join([f"python tests/{script.name}", str(target), *args]), knobs)


def run_knobbed(script: Path, arch: str, build: Callable[[dict[str, Any]], tuple[Any, tuple[Any, ...]]],
                usage: str | None) -> None:
    """A knobbed kernel script's command line: `OUT.mlir [knob=value ...]` writes the IR (compile_knobbed);
    `--compile [knob=value ...]` compiles here.  The DSL reads the kernels' annotations (`cutlass.Int32`,
    `cute.Tensor`) as names in the module that defines them, so the script's module is given `cutlass` and `cute`."""
    if len(sys.argv) < 2:
        sys.exit(usage)
    knob_values = {k: _parse(v) for k, v in (a.split("=", 1) for a in sys.argv[2:])}
    if sys.argv[1] == COMPILE_FLAG:
        import cutlass
        import cutlass.cute as cute
        build.__globals__.setdefault("cutlass", cutlass)
        build.__globals__.setdefault("cute", cute)
        host, fake = build(knob_values)
        cute.compile(host, *fake)
    else:
        print(compile_knobbed(script, arch, Path(sys.argv[1]), knob_values))


def knob_config(knobs: dict[str, Any], defaults: dict[str, Any],
                choices: dict[str, tuple[Any, ...]]) -> dict[str, Any]:
    """The knobs over their defaults; an unknown knob, or a value outside a knob's `choices`, is a ValueError."""
    unknown = set(knobs) - set(defaults)
    if unknown:
        raise ValueError(f"unknown knobs {sorted(unknown)}; the knobs are {sorted(defaults)}")
    cfg = dict(defaults, **knobs)
    for knob, allowed in choices.items():
        if cfg[knob] not in allowed:
            raise ValueError(f"{knob}={cfg[knob]!r}: one of {allowed}")
    return cfg


def _parse(value: str) -> Any:
    if value in ("None", "none"):
        return None
    if value.startswith("("):
        return tuple(int(x) for x in value.strip("()").split(",") if x.strip())
    if value.lstrip("-").isdigit():
        return int(value)
    return value


if __name__ == "__main__":
    if sys.argv[1:]:
        print(compile_tile_kernel(Path(sys.argv[1]), **{k: _parse(v) for k, v in
                                                          (a.split("=", 1) for a in sys.argv[2:])}))
