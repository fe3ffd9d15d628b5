"""CUTLASS's CuTe C++ tutorials through `import-kernel --compile` and `prove`, unmodified and mutated.

    python benchmarks/cpp_tutorials.py [--examples DIR] [--cutlass INCLUDE_DIR] [--rounds N]

DIR is CUTLASS's examples/cute/tutorial (default: the copy the nvidia-cutlass wheel ships); example 48 (Hopper
warp-specialized GEMM, CUTLASS's own kernel over a CollectiveBuilder mainloop) is read from beside it, with
examples/common as CUTLASS's build adds it (-I); it needs cuRAND's headers (the toolkit's, or nvidia-curand-cu12).
Each source is imported with --no-cache (the compile is timed, not a cache read) and its spec proved; each
mutation is a one-line edit of a source, written to a temporary directory beside copies of the source's local
headers.  The table gives
the checks, the verdicts, and the median seconds of the compile and of the proof over the rounds."""
from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

EXAMPLE_48 = "../../48_hopper_warp_specialized_gemm/48_hopper_warp_specialized_gemm.cu"   # beside the tutorials
SOURCES = ("sgemm_1.cu", "sgemm_2.cu", "sgemm_sm70.cu", "sgemm_sm80.cu", "tiled_copy.cu", "tiled_copy_if.cu",
           "hopper/wgmma_sm90.cu", "hopper/wgmma_tma_sm90.cu", "blackwell/01_mma_sm100.cu",
           "blackwell/02_mma_tma_sm100.cu", "blackwell/03_mma_tma_multicast_sm100.cu",
           "blackwell/04_mma_tma_2sm_sm100.cu", "blackwell/05_mma_tma_epi_sm100.cu", EXAMPLE_48)


@dataclass(frozen=True)
class Mutation:
    source: str
    old: str
    new: str
    what: str


MUTATIONS = (
    Mutation("sgemm_sm80.cu", "Copy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_A;",
             "Copy_Atom<SM75_U16x8_LDSM_T, half_t> s2r_atom_A;", "the transposing ldmatrix for a K-major A"),
    Mutation("sgemm_sm80.cu", "make_tiled_copy_A(s2r_atom_a, mma)", "make_tiled_copy_B(s2r_atom_a, mma)",
             "A's shared->register copy tiled for B"),
    Mutation("sgemm_sm80.cu", "make_tiled_copy_B(s2r_atom_b, mma)", "make_tiled_copy_A(s2r_atom_b, mma)",
             "B's shared->register copy tiled for A"),
    Mutation("sgemm_sm80.cu", "Tensor tXsA = s2r_thr_copy_a.partition_S(sA);",
             "Tensor tXsA = s2r_thr_copy_a.partition_S(sB);", "A's ldmatrix reading B's tile"),
    Mutation("sgemm_sm80.cu", "copy(copy_b, tBgB(_,_,_,k_tile_next), tBsB(_,_,_,smem_pipe_write));",
             "copy(copy_b, tAgA(_,_,_,k_tile_next), tBsB(_,_,_,smem_pipe_write));",
             "B's shared tile filled from A's global tile in the mainloop"),
    Mutation("sgemm_sm80.cu", "auto swizzle_atom = composition(Swizzle<3,3,3>{},",
             "auto swizzle_atom = composition(Swizzle<3,2,3>{},", "a swizzle that splits ldmatrix's 16-byte rows"),
    Mutation("sgemm_1.cu", "local_partition(sA, tC, threadIdx.x, Step<_1, X>{});",
             "local_partition(sA, tC, threadIdx.x, Step< X,_1>{});", "A partitioned by the columns of C's threads"),
    Mutation("sgemm_1.cu", "gemm(tCsA, tCsB, tCrC);", "gemm(tCsB, tCsA, tCrC);", "the gemm's A and B swapped"),
    Mutation("sgemm_1.cu", "copy(tBgB(_,_,k_tile), tBsB);", "copy(tAgA(_,_,k_tile), tBsB);",
             "B's shared tile filled from A's global tile"),
    Mutation("sgemm_1.cu", "copy(tAgA(_,_,k_tile), tAsA);", "copy(tAgA(_,_,0), tAsA);",
             "A's shared tile filled from k-tile 0 every time"),
    Mutation("sgemm_1.cu", "auto tC = make_layout(make_shape(Int<16>{}, Int<16>{}));   // (m,n) -> thr_idx",
             "auto tC = make_layout(make_shape(Int<16>{}, Int<16>{}), LayoutRight{});",
             "C's threads row-major (harmless)"),
    Mutation("sgemm_1.cu", "for (int k_tile = 0; k_tile < K_TILE_MAX; ++k_tile)",
             "for (int k_tile = 0; k_tile < K_TILE_MAX - 1; ++k_tile)",
             "the k-tile loop one short (`k_tile < K_TILE_MAX - 1`)"),
    Mutation("tiled_copy.cu", "Tensor tile_D = D(make_coord(_, _), blockIdx.x, blockIdx.y);",
             "Tensor tile_D = D(make_coord(_, _), blockIdx.y, blockIdx.x);", "D's tile taken at the block coordinates "
             "swapped"),
    Mutation("tiled_copy.cu", "Tensor thr_tile_D = thr_copy.partition_D(tile_D);",
             "Tensor thr_tile_D = thr_copy.partition_S(tile_D);", "D partitioned as a source (harmless)"),
    Mutation("sgemm_2.cu", "Tensor tCsA = thr_mma.partition_A(sA);", "Tensor tCsA = thr_mma.partition_A(sB);",
             "the TiledMMA's A partitioned from sB"),
    Mutation("sgemm_2.cu", "copy(tBrB, tBsB);", "copy(tArA, tBsB);", "B's shared tile stored from A's registers"),
    Mutation("sgemm_2.cu", "copy(copy_a, tAgA(_,_,_,k_tile_next), tArA);", "copy(copy_a, tAgA(_,_,_,k_tile), tArA);",
             "A's next k-tile loaded one k-tile late"),
    Mutation("sgemm_2.cu", "int k_tile_next = (k_tile + 1 < K_TILE_MAX) ? k_tile + 1 : k_tile;",
             "int k_tile_next = (k_tile + 2 < K_TILE_MAX) ? k_tile + 2 : k_tile;",
             "the next k-tile two ahead (`k_tile + 2`)"),
    Mutation("hopper/wgmma_tma_sm90.cu", "SM90_64x64x16_F16F16F16_SS<GMMA::Major::MN,GMMA::Major::MN>",
             "SM90_64x64x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::MN>", "a K-major wgmma atom on MN-major A"),
    Mutation("blackwell/02_mma_tma_sm100.cu", "UMMA::Major::K, UMMA::Major::K>", "UMMA::Major::MN, UMMA::Major::K>",
             "an MN-major tcgen05.mma atom on K-major A"),
    Mutation("hopper/wgmma_sm90.cu", "SM90_64x64x16_F16F16F16_SS<GMMA::Major::MN,GMMA::Major::MN>",
             "SM90_64x64x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::MN>",
             "a K-major wgmma atom on MN-major A filled by cp.async"),
    Mutation("blackwell/01_mma_sm100.cu", "UMMA::Major::K, UMMA::Major::K>", "UMMA::Major::MN, UMMA::Major::K>",
             "an MN-major tcgen05.mma atom on K-major A filled by a cooperative copy"),
    Mutation("hopper/wgmma_tma_sm90.cu", "make_tma_atom(SM90_TMA_LOAD{}, mA, sA(_,_,0), make_shape(bM,bK))",
             "make_tma_atom(SM90_TMA_LOAD{}, mA, tile_to_shape(GMMA::Layout_MN_SW64_Atom<TA>{}, make_shape(bM,bK)), "
             "make_shape(bM,bK))", "A's TMA atom made from a 64-byte swizzled layout"),
    Mutation("hopper/wgmma_tma_sm90.cu", "make_tma_atom(SM90_TMA_LOAD{}, mA, sA(_,_,0), make_shape(bM,bK))",
             "make_tma_atom(SM90_TMA_LOAD{}, mA, tile_to_shape(GMMA::Layout_MN_SW128_Atom<TA>{}, "
             "make_shape(Int<64>{},bK)), make_shape(Int<64>{},bK))", "A's TMA atom made from a 64-row layout"),
    Mutation("blackwell/05_mma_tma_epi_sm100.cu", "sD_layout,                  // Source SMEM layout",
             "group<0,2>(tile_to_shape(UMMA::Layout_K_SW64_Atom<TypeD>{}, make_shape(size<0>(epi_tiler), "
             "size<1>(epi_tiler)))),", "the epilogue's TMA store made from a 64-byte swizzled layout"),
    Mutation(EXAMPLE_48, "using         LayoutA     = cutlass::layout::RowMajor;",
             "using         LayoutA     = cutlass::layout::ColumnMajor;", "an MN-major tf32 A for the collective"),
    Mutation(EXAMPLE_48, "using TileShape           = Shape<_128,_128,_32>;",
             "using TileShape           = Shape<_128,_128,_4>;", "a K tile shallower than the tf32 atom's 8"),
)


def _wheel_tutorials() -> Path | None:
    import importlib.util
    spec = importlib.util.find_spec("cutlass_library")
    if spec is None or spec.origin is None:
        return None
    d = Path(spec.origin).parent / "source" / "examples" / "cute" / "tutorial"
    return d if d.is_dir() else None


def _run(cmd: list[str]) -> tuple[int, str, float]:
    t = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr, time.perf_counter() - t


def _verdicts(prove_out: str) -> str:
    words = re.findall(r"^\s+(PASS|FAIL|ERROR|UNDECIDED)\s+\S+\s+(\w+)", prove_out, re.M)
    counts: dict[str, int] = {}
    for _, verdict in words:
        counts[verdict.lower()] = counts.get(verdict.lower(), 0) + 1
    return ", ".join(f"{n} {v}" for v, n in sorted(counts.items())) or "-"


def measure(path: Path, rounds: int, tmp: Path, headers: list[str]) -> tuple[str, str, float, float]:
    """(checks, verdicts or the reason, compile seconds, proof seconds), medians over `rounds`."""
    compiles, proofs = [], []
    checks, verdicts = "0", ""
    for _ in range(rounds):
        spec = tmp / (path.stem + ".yaml")
        spec.unlink(missing_ok=True)
        rc, out, secs = _run([sys.executable, "-m", "verifier", "import-kernel", "--compile", "--no-cache", str(path),
                              "-o", str(spec), *headers])
        compiles.append(secs)
        if rc != 0:
            line = next((x for x in out.splitlines() if x.startswith(("refused:", "error:", "unsupported:"))),
                        out.strip()[-200:])
            verdicts = re.sub(r"\S*/", "", line)[:140]
            proofs.append(0.0)
            continue
        m = re.search(r"import-kernel: (\d+) checks", out)
        checks = m.group(1) if m else "?"
        rc, out, secs = _run([sys.executable, "-m", "verifier", "prove", str(spec)])
        proofs.append(secs)
        verdicts = _verdicts(out)
    return checks, verdicts, statistics.median(compiles), statistics.median(proofs)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--examples", type=Path, default=None, help="CUTLASS's examples/cute/tutorial")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--cutlass", type=Path, default=None, help="CUTLASS's headers (default: the wheel's)")
    args = ap.parse_args()
    root = args.examples or _wheel_tutorials()
    if root is None:
        print("no tutorials: give --examples DIR or pip install --no-deps nvidia-cutlass", file=sys.stderr)
        return 2
    headers = ["--cutlass", str(args.cutlass)] if args.cutlass else []
    common = root.parent.parent / "common"          # CUTLASS's examples/common: what its build adds for example 48
    if common.is_dir():
        headers += ["-I", str(common)]
    print(f"tutorials from {root}; headers from {args.cutlass or 'the nvidia-cutlass wheel'}; {args.rounds} round(s), "
          "medians")
    print("| source | checks | verdicts | compile s | prove s |\n|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="cpp_tutorials_") as tmp_name:
        tmp = Path(tmp_name)
        for name in SOURCES:
            path = root / name
            if not path.is_file():
                print(f"| {name} | - | not in {root} | - | - |")
                continue
            checks, verdicts, c, p = measure(path, args.rounds, tmp, headers)
            print(f"| {name} | {checks} | {verdicts} | {c:.1f} | {p:.1f} |", flush=True)
        print("\n| mutation | source | checks | verdicts | compile s | prove s |\n|---|---|---|---|---|---|")
        for k, mu in enumerate(MUTATIONS):
            src = root / mu.source
            text = src.read_text(encoding="utf-8")
            if mu.old not in text:
                print(f"| {mu.what} | {mu.source} | - | the line to change is not in this copy | - | - |")
                continue
            folder = tmp / f"mutation_{k}"
            folder.mkdir()
            for header in src.parent.glob("*.hpp"):
                shutil.copy(header, folder / header.name)
            mutated = folder / src.name
            mutated.write_text(text.replace(mu.old, mu.new, 1), encoding="utf-8")
            checks, verdicts, c, p = measure(mutated, args.rounds, tmp, headers)
            print(f"| {mu.what} | {mu.source} | {checks} | {verdicts} | {c:.1f} | {p:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
