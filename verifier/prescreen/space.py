"""The kernel space: what `cutlass_library`'s generator emits for an architecture, as plain records.

`cutlass_library` ships with the `nvidia-cutlass` wheel (`pip install --no-deps nvidia-cutlass`: its own
dependencies are CUDA's Python bindings, which enumerating kernels does not need).  Its Manifest is built with
the arguments CUTLASS's CMake passes for `-DCUTLASS_LIBRARY_KERNELS=` (all GEMMs of one architecture) and the
instantiation level asked for; nothing is compiled.
"""
from __future__ import annotations

import argparse
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, SupportsInt, TypeVar, cast

ARCHITECTURES = {80: "80", 90: "90a", 100: "100a"}
MMA_TILE_ARCHITECTURES = (100,)   # whose builder takes the MMA's tile shape, not the CTA's
# what an instantiation level must satisfy for an architecture's generator (it asserts otherwise)
LEVEL_HINTS = {100: "its hundreds digit (the cluster-shape level) must be at least 4, e.g. --level 500"}
COMPLEX_ELEMENTS = ("cf16", "cbf16", "ctf32", "cf32", "cf64")   # DataType names of complex operands
CUDA_VERSION = "12.8"          # the toolkit the generator is told it targets (it gates some kernel families)


class SpaceError(Exception):
    """The kernel space cannot be enumerated here (one line, exit 2)."""


@dataclass(frozen=True)
class KernelConfig:
    """One generated GEMM kernel, in the generator's words."""
    name: str                        # CUTLASS's procedural kernel name
    arch: int
    kind: str                        # GemmKind: Universal3x, GroupedUniversal3x, SparseUniversal3x, Universal, ...
    opcode: str                      # TensorOp, SparseTensorOp, Simt, ...
    tile: tuple[int, int, int]       # the TileShape the collective builder is given: the CTA's (M, N, K); on
                                     # SM100 the MMA's (M, N) (both CTAs' of a 2-SM MMA) and the CTA's K
    warps: tuple[int, int, int]      # warp count (M, N, K) of a 2.x kernel; (4,1,1) etc. for 3.x
    instruction: tuple[int, int, int]   # the MMA instruction shape of a 2.x kernel ([0, 0, 0] for 3.x)
    element_a: str                   # the MMA's operand types (DataType names: f16, bf16, tf32, e4m3, s8, ...)
    element_b: str
    element_acc: str
    layout_a: str                    # RowMajor | ColumnMajor (A is M x K, B is K x N, as BLAS writes them)
    layout_b: str
    align_a: int                     # elements
    align_b: int
    schedule: str                    # KernelScheduleType (ScheduleAuto, TmaWarpSpecializedCooperative, ...)
    stages: int                      # 0: the builder's automatic count
    cluster: tuple[int, int, int] = (1, 1, 1)   # the ClusterShape (M, N, K); 0 in M and N: a dynamic cluster
    scale_factor: str = ""           # a block-scaled kernel's scale-factor type (DataType: ue8m0, ue4m3); "" otherwise
    mixed_mode: str = ""             # an SM90 mixed-input kernel's MixedInputMode (ConvertOnly, ScaleOnly,
                                     # ScaleWithZeroPoint); "" otherwise
    mixed_shuffle: bool = False      # ... whose narrow A is value-shuffled in memory (its "_shfl" kernels)
    complex_operands: bool = False   # A and B hold complex values (DataType cf32 / cf64: a cgemm / zgemm)


_ENUM_NAMES: dict[int, tuple[object, str]] = {}   # id -> (the value, kept so that its id stays its own; its name)


def enum_name(enum_value: object) -> str:
    """An enum member's name as CUTLASS prints it (`DataType.f16` -> `f16`), made once a member: config_of reads
    nine of them a kernel, and an Enum's __str__ runs in Python."""
    found = _ENUM_NAMES.get(id(enum_value))
    if found is None or found[0] is not enum_value:
        found = _ENUM_NAMES[id(enum_value)] = (enum_value, str(enum_value).split(".")[-1])
    return found[1]


def _triple(values: Iterable[SupportsInt], what: str, kernel: str) -> tuple[int, int, int]:
    """A generator shape (M, N, K) as ints; the generator writes every one with three entries."""
    shape = tuple(int(x) for x in values)
    if len(shape) != 3:
        raise SpaceError(f"{kernel}: cutlass_library gives its {what} as {list(shape)}, not (M, N, K)")
    return shape[0], shape[1], shape[2]


T = TypeVar("T")
GENERATOR_LIMIT_S = 600        # an instantiation level whose generator runs longer is refused, never waited on


def kernels(arch: int, level: str = "", limit_s: float = GENERATOR_LIMIT_S) -> list[KernelConfig]:
    """Every GEMM kernel the generator emits for `arch` at instantiation `level`; a level is generated in a child
    process stopped after `limit_s` seconds (a high level's space, e.g. 9999 with no pruning, would not finish)."""
    if not level:
        return generate(arch, level)
    return in_child(generate, arch, level, limit_s)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off within the block (on again after, if it was on).  Building or unpickling
    millions of objects that make no cycles, the collector walks them again and again as they grow: a level's share
    unpickled in 2.4 s with it off, 12.6 s with it on; a part of the listing ran 40.5 s instead of 49.7 s, with the
    same peak memory.  The objects made within the block join the oldest generation unwalked (gc.freeze, which also
    zeroes the young generation's count, then gc.unfreeze): else the first collection after it would walk every one
    of them as the young generation's (about 1 s for a level's families)."""
    import gc
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.freeze()
            gc.unfreeze()
            gc.enable()


def in_child(produce: Callable[[int, str], T], arch: int, level: str, limit_s: float) -> T:
    """`produce(arch, level)` run in a child process stopped after `limit_s` seconds; its SpaceError re-raised."""
    return in_children([produce], arch, level, limit_s)[0]


def in_children(producers: list[Callable[[int, str], T]], arch: int, level: str, limit_s: float) -> list[T]:
    """Each `produce(arch, level)` run in its own child process, all at once, every one stopped `limit_s` seconds
    after the start; the first SpaceError re-raised."""
    import multiprocessing
    import sys
    import time
    context = multiprocessing.get_context("spawn")
    print(f"prescreen-cutlass: generating the SM{arch} space at --level {level} (at most {limit_s:.0f} s) ...",
          file=sys.stderr, flush=True)
    children = []
    for produce in producers:
        receive, send = context.Pipe(duplex=False)
        child = context.Process(target=_produce_into, args=(send, produce, arch, level), daemon=True)
        child.start()
        send.close()
        children.append((child, receive))
    deadline = time.monotonic() + limit_s
    answers: list[object] = []
    try:
        for child, receive in children:
            if not receive.poll(max(0.0, deadline - time.monotonic())):
                raise SpaceError(f"--level {level}: cutlass_library's SM{arch} generator ran past {limit_s:.0f} s "
                                 "and was stopped; choose a lower level (its thousands digit is the pruning level: 0 "
                                 "prunes most)")
            try:
                with gc_paused():        # an answer of millions of objects, unpickled
                    answers.append(receive.recv())
            except EOFError:
                child.join(5)
                raise SpaceError(f"--level {level}: cutlass_library's SM{arch} generator stopped without an answer "
                                 f"(exit {child.exitcode})") from None
    finally:
        for child, _ in children:
            if child.is_alive():
                child.terminate()
            child.join(5)
    for answer in answers:
        if isinstance(answer, SpaceError):
            raise answer
    return [cast(T, answer) for answer in answers]


def _produce_into(send: object, produce: Callable[[int, str], object], arch: int, level: str) -> None:
    """The child of `in_child`: what `produce` returns, or its SpaceError, sent back through the pipe (the collector
    off: the child builds the space, sends it and ends)."""
    try:
        with gc_paused():
            result: object = produce(arch, level)
    except SpaceError as e:
        result = e
    send.send(result)  # type: ignore[attr-defined]


def generate(arch: int, level: str = "") -> list[KernelConfig]:
    """Every GEMM kernel the generator emits for `arch` (80, 90 or 100) at instantiation `level` ('' = the
    default), in this process."""
    from cutlass_library.library import OperationKind
    m = run_generator(arch, level)
    return [config_of(op, arch) for by_name in m.operations.get(OperationKind.Gemm, {}).values()
            for ops in by_name.values() for op in ops]


def run_generator(arch: int, level: str, into: Any = None) -> Any:
    """CUTLASS's GenerateSM<arch> run into the Manifest `into` (a fresh one if None), returned; whatever the caller
    patched in cutlass_library runs with it."""
    if arch not in ARCHITECTURES:
        raise SpaceError(f"--arch {arch}: choose one of {', '.join(map(str, ARCHITECTURES))}")
    try:
        from cutlass_library import generator, manifest
    except ImportError as e:
        raise SpaceError(f"cutlass_library is not installed ({e}): pip install --no-deps nvidia-cutlass") from None
    m = manifest.Manifest(manifest_args(arch, level)) if into is None else into
    try:
        getattr(generator, f"GenerateSM{arch}")(m, CUDA_VERSION)
    except AssertionError as e:      # the generator asserts on an instantiation level it does not take
        hint = LEVEL_HINTS.get(arch, "")
        raise SpaceError(f"--level {level}: cutlass_library's SM{arch} generator rejects it"
                         + (f" ({e})" if str(e) else "") + (f": {hint}" if hint else "")) from None
    return m


def manifest_args(arch: int, level: str) -> argparse.Namespace:
    """The Manifest's arguments: what CUTLASS's CMake passes for all GEMMs of `arch` at instantiation `level`."""
    return argparse.Namespace(
        operations="gemm", build_dir=".", curr_build_dir=".", generator_target="library",
        architectures=ARCHITECTURES[arch], kernels="", ignore_kernels="", exclude_kernels="",
        kernel_filter_file=None, selected_kernel_list=None, interface_dir=None, filter_by_cc=True,
        disable_full_archs_compilation=False, instantiation_level=level, log_level="error",
        disable_cutlass_package_imports=False)


def config_of(op: Any, arch: int) -> KernelConfig:
    """One of the generator's GemmOperations as a KernelConfig."""
    td = op.tile_description
    mi = td.math_instruction
    # SM100: the builder is given the MMA tile (the generator's get_collective_tile_shape)
    tile = op.get_collective_tile_shape() if arch in MMA_TILE_ARCHITECTURES else td.threadblock_shape
    name = op.procedural_name()
    return KernelConfig(
        name, arch, enum_name(op.gemm_kind), enum_name(mi.opcode_class),
        _triple(tile, "tile shape", name),
        _triple(td.warp_count, "warp count", name),
        _triple(mi.instruction_shape, "instruction shape", name),
        enum_name(mi.element_a), enum_name(mi.element_b), enum_name(mi.element_accumulator),
        enum_name(op.A.layout), enum_name(op.B.layout), int(op.A.alignment), int(op.B.alignment),
        enum_name(getattr(op, "kernel_schedule", "")), int(td.stages or 0),
        _triple(td.cluster_shape, "cluster shape", name),
        enum_name(op.ScaleFactorA) if getattr(op, "ScaleFactorA", None) is not None else "",
        enum_name(mode) if (mode := getattr(op, "mixed_input_mode", None)) is not None else "",
        bool(getattr(op, "mixed_input_shuffle", False)),
        enum_name(op.A.element) in COMPLEX_ELEMENTS)
