#!/usr/bin/env python3
"""CUTLASS's CuTe DSL GEMM examples, unmodified: the DSL's compile time against `import-dsl` + `prove` of its IR.

For every configuration below (Ampere `tensorop_gemm`, Hopper `dense_gemm` / `dense_gemm_persistent`, Blackwell
`dense_gemm` / `dense_gemm_persistent`, each with fixed and with dynamic problem shapes; Ampere's element-wise
`elementwise_add` and `elementwise_apply`, fixed shapes):

  1. compile  the example's kernel with fake tensors and a fake stream (no GPU needed) in a fresh subprocess (this
              script re-invoked with the hidden `--compile-one NAME DIR`; the DSL reads its environment once per
              process): CUTE_DSL_ARCH=<the config's arch>, CUTE_DSL_KEEP=ir, CUTE_DSL_DUMP_DIR=DIR,
              CUTE_DSL_NO_CACHE=1, CUTE_DSL_DISABLE_FILE_CACHING=1.  The time is measured inside the child around
              `cute.compile` alone (not the interpreter's start nor the DSL's import); the IR is DIR/*_clean.mlir.
  2. verify   `python -m verifier import-dsl IR -o SPEC` then `python -m verifier prove SPEC --allow-outside
              --format json --no-cache` (the proof cache off, so that every round proves), both as subprocesses,
              timed together by wall clock (interpreter starts included: what a user waits for).

Rounds are interleaved (round 1: every configuration's compile then verify; round 2: again, ...) and the table
reports medians.  Columns: the checks the import wrote, by kind (read from the spec: a check with `buffer:` is a
buffer check, `gmem:` a TMA descriptor check, `tmem:` a TMEM check, `slice:` a thread-slice check, `subtiles:` an
epilogue-subtile check, `transaction:` a TMA barrier's transaction check, `subtile_order:` an epilogue loop's
subtile-order check, `elementwise:` an element-wise check, any other an operand (tiled copy vs tiled MMA) check); the
verdicts of `prove`; the two medians
and their ratio (import-dsl + prove / DSL compile).

The examples are CUTLASS's, not ours: the script only reads them, from the directory given as --examples (the
`examples/python/CuTeDSL` folder of a CUTLASS checkout).  Not a test: it reports numbers and verdicts and asserts
nothing about them; exit 0 when the table was printed, 2 when the DSL cannot be imported or the input is wrong.

    python benchmarks/dsl_examples.py --examples CUTLASS/examples/python/CuTeDSL [--rounds 3] [--only PATTERN]
                                      [--markdown OUT.md] [--keep-dir DIR] [--list]

--only takes a shell-style pattern matched against the whole configuration name (repeatable; `--list` prints the
names): `--only 'hopper_*'`, `--only ampere_tensorop_f16_a-k_b-k_c-n_221`.
"""
from __future__ import annotations

import argparse
import fnmatch
import importlib.metadata
import importlib.util
import json
import operator
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
RESULT_MARK = "DSL_EXAMPLES_RESULT "   # the compile child's one line of JSON on stdout starts with this
SUBPROCESS_TIMEOUT_S = 900
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")

# the examples, relative to --examples
AMPERE_GEMM = "cute/ampere/kernel/dense_gemm/tensorop_gemm.py"
AMPERE_ADD = "cute/ampere/kernel/elementwise/elementwise_add.py"
AMPERE_APPLY = "cute/ampere/kernel/elementwise/elementwise_apply.py"
HOPPER_GEMM = "cute/hopper/kernel/dense_gemm/dense_gemm.py"
HOPPER_PERSISTENT = "cute/hopper/kernel/dense_gemm/dense_gemm_persistent.py"
BLACKWELL_GEMM = "cute/blackwell/kernel/dense_gemm/dense_gemm.py"
BLACKWELL_PERSISTENT = "cute/blackwell/kernel/dense_gemm/dense_gemm_persistent.py"

HARNESS_SOURCE = {"ampere": AMPERE_GEMM, "hopper": HOPPER_GEMM, "hopper_persistent": HOPPER_PERSISTENT,
                  "blackwell": BLACKWELL_GEMM, "blackwell_persistent": BLACKWELL_PERSISTENT,
                  "elementwise_add": AMPERE_ADD, "elementwise_apply": AMPERE_APPLY}
HARNESS_ARCH = {"ampere": "sm_80", "hopper": "sm_90a", "hopper_persistent": "sm_90a",
                "blackwell": "sm_100a", "blackwell_persistent": "sm_100a", "elementwise_add": "sm_80",
                "elementwise_apply": "sm_80"}
ELEMENTWISE = ("elementwise_add", "elementwise_apply")   # the harnesses of element-wise kernels: mnkl's M and N
DTYPE_SHORT = {"Float16": "f16", "BFloat16": "bf16"}
SMS = {"hopper_persistent": 132, "blackwell_persistent": 148}   # max_active_clusters = SMs / cluster size


@dataclass(frozen=True)
class Config:
    """One kernel configuration of one example; `harness` says how compile_one() builds and calls it."""

    harness: str                           # a key of HARNESS_SOURCE
    mnkl: tuple[int, int, int, int]        # the fake problem's M, N, K, L (dynamic: only the divisibilities count)
    dtype: str = "Float16"                 # A, B and C (cutlass type name); the accumulator is Float32
    a_major: str = "k"                     # k | m
    b_major: str = "k"                     # k | n
    c_major: str = "n"                     # n | m
    atom: tuple[int, int, int] = (2, 2, 1)  # Ampere: the tiled MMA's atom layout
    tile: tuple[int, int] = (128, 128)     # Hopper: the CTA tile; Blackwell: the MMA tiler
    cluster: tuple[int, int] = (1, 1)      # Hopper, Blackwell
    use_2cta: bool = False                 # Blackwell
    use_tma_store: bool = True             # Blackwell
    dynamic: bool = False                  # symbolic M, N, K, L (make_fake_compact_tensor) instead of fixed ones

    @property
    def source(self) -> str:
        return HARNESS_SOURCE[self.harness]

    @property
    def arch(self) -> str:
        return HARNESS_ARCH[self.harness]

    @property
    def name(self) -> str:
        majors = f"a-{self.a_major}_b-{self.b_major}_c-{self.c_major}"
        dt = DTYPE_SHORT[self.dtype]
        if self.harness in ELEMENTWISE:
            base = f"ampere_{self.harness}_{dt}_{self.mnkl[0]}x{self.mnkl[1]}"
        elif self.harness == "ampere":
            base = f"ampere_tensorop_{dt}_{majors}_{''.join(map(str, self.atom))}"
        elif self.harness.startswith("hopper"):
            family = "dense" if self.harness == "hopper" else "persistent"
            base = f"hopper_{family}_{dt}_{majors}_t{self.tile[0]}x{self.tile[1]}_cl{self.cluster[0]}x{self.cluster[1]}"
        else:
            family = "dense" if self.harness == "blackwell" else "persistent"
            base = (f"blackwell_{family}_{dt}_{majors}_mma{self.tile[0]}x{self.tile[1]}"
                    f"_cl{self.cluster[0]}x{self.cluster[1]}_{'2cta' if self.use_2cta else '1cta'}"
                    f"_{'tmastore' if self.use_tma_store else 'ststore'}")
        return base + ("_dyn" if self.dynamic else "")


AMPERE_MNKL = (256, 256, 128, 1)
ELEMENTWISE_MN = (1024, 2048, 0, 0)
HOPPER_MNKL = (512, 512, 256, 1)
BLACKWELL_MNKL = (512, 512, 256, 1)

CONFIGS: tuple[Config, ...] = (
    # Ampere tensorop_gemm: every A and B major-ness, C n-major, f16, atoms (2,2,1)
    *(Config("ampere", AMPERE_MNKL, a_major=a, b_major=b) for a in "km" for b in "kn"),
    Config("ampere", AMPERE_MNKL, dtype="BFloat16"),
    Config("ampere", AMPERE_MNKL, atom=(1, 2, 1)),
    Config("ampere", AMPERE_MNKL, atom=(2, 1, 1)),
    Config("ampere", AMPERE_MNKL, atom=(4, 1, 1)),
    Config("ampere", AMPERE_MNKL, c_major="m"),
    Config("ampere", AMPERE_MNKL, dynamic=True),
    # Hopper dense_gemm
    Config("hopper", HOPPER_MNKL),
    Config("hopper", HOPPER_MNKL, tile=(128, 256)),
    Config("hopper", HOPPER_MNKL, tile=(64, 64)),
    Config("hopper", HOPPER_MNKL, a_major="m", b_major="n", c_major="m"),
    Config("hopper", HOPPER_MNKL, cluster=(2, 1)),
    Config("hopper", HOPPER_MNKL, dynamic=True),
    # Hopper dense_gemm_persistent
    Config("hopper_persistent", HOPPER_MNKL),
    Config("hopper_persistent", HOPPER_MNKL, a_major="m", b_major="n", c_major="m"),
    # Blackwell dense_gemm
    Config("blackwell", BLACKWELL_MNKL),
    Config("blackwell", BLACKWELL_MNKL, tile=(256, 256), cluster=(2, 1), use_2cta=True),
    Config("blackwell", BLACKWELL_MNKL, a_major="m", b_major="n", c_major="m", use_tma_store=False),
    Config("blackwell", BLACKWELL_MNKL, dynamic=True),
    # ... at MMA sizes the atom library does not write (their atoms built by the family rules)
    Config("blackwell", BLACKWELL_MNKL, tile=(128, 192)),
    Config("blackwell", BLACKWELL_MNKL, tile=(256, 192), cluster=(2, 1), use_2cta=True),
    # Blackwell dense_gemm_persistent
    Config("blackwell_persistent", BLACKWELL_MNKL),
    # Ampere element-wise kernels: C = A + B, row-major half tensors (elementwise_apply with operator.add)
    Config("elementwise_add", ELEMENTWISE_MN),
    Config("elementwise_apply", ELEMENTWISE_MN),
)
BY_NAME = {c.name: c for c in CONFIGS}
assert len(BY_NAME) == len(CONFIGS), "two configurations with one name"


# ------------------------------------------------------------------------------------------------ compile child --

def first_line(text: str) -> str:
    """The first non-empty line of an error text, colour codes removed."""
    for line in ANSI.sub("", text).splitlines():
        if line.strip():
            return line.strip()
    return ""


def load_example(examples: Path, source: str) -> Any:
    """Import one example file as a module (its folder first on sys.path, for its sibling imports)."""
    path = examples / source
    sys.path.insert(0, str(path.parent))
    modname = "ex_" + path.stem
    spec = importlib.util.spec_from_file_location(modname, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[modname] = module
    spec.loader.exec_module(module)
    return module


def compile_one(config: Config, examples: Path) -> None:
    """The --compile-one mode: compile one configuration; its compile time (or error) as the result line.

    Runs in a child process whose environment the parent set (CUTE_DSL_ARCH, CUTE_DSL_KEEP=ir, ...).  An error is
    reported (its first line as the result line) and propagates: its traceback on stderr, exit status 1.
    """
    try:
        build_and_compile(config, examples)
    except BaseException as exc:   # re-raised: only its first line is printed on the way out
        print(RESULT_MARK + json.dumps({"error": f"{type(exc).__name__}: {first_line(str(exc))}"}), flush=True)
        raise


def build_and_compile(config: Config, examples: Path) -> None:
    """compile_one's work: import the DSL and the example, build the arguments, time cute.compile."""
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute.runtime import make_fake_compact_tensor, make_fake_stream, make_fake_tensor

    module = load_example(examples, config.source)
    ab = getattr(cutlass, config.dtype)
    c_type = getattr(cutlass, config.dtype)
    acc = cutlass.Float32
    m: Any
    n: Any
    k: Any
    l: Any
    m, n, k, l = config.mnkl
    if config.dynamic:
        # one symbol per problem dimension, shared by A, B and C; the contiguous dimensions keep 16-byte
        # divisibility (8 elements of f16 / bf16)
        m = cute.sym_int32(divisibility=8, symbol="M")
        n = cute.sym_int32(divisibility=8, symbol="N")
        k = cute.sym_int32(divisibility=8, symbol="K")
        l = cute.sym_int32(divisibility=1, symbol="L")

    def tensor(dtype: Any, shape: tuple[Any, ...], order: tuple[int, ...]) -> Any:
        """A fake tensor; order[i] is mode i's rank in stride order (0: contiguous)."""
        if config.dynamic:
            return make_fake_compact_tensor(dtype, shape, stride_order=order, assumed_align=16)
        stride = [0] * len(shape)
        step = 1
        for mode in sorted(range(len(shape)), key=lambda i: order[i]):
            stride[mode] = step
            step *= shape[mode]
        return make_fake_tensor(dtype, shape, stride=tuple(stride), assumed_align=16)

    if config.harness in ("ampere", "blackwell_persistent"):
        # the examples' bmm wrappers: a (l,m,k), b (l,k,n), c (l,m,n)
        a = tensor(ab, (l, m, k), (2, 1, 0) if config.a_major == "k" else (2, 0, 1))
        b = tensor(ab, (l, k, n), (2, 0, 1) if config.b_major == "k" else (2, 1, 0))
        c = tensor(c_type, (l, m, n), (2, 1, 0) if config.c_major == "n" else (2, 0, 1))
    else:
        # the kernels' __call__: a (m,k,l), b (n,k,l), c (m,n,l)
        a = tensor(ab, (m, k, l), (0, 1, 2) if config.a_major == "m" else (1, 0, 2))
        b = tensor(ab, (n, k, l), (0, 1, 2) if config.b_major == "n" else (1, 0, 2))
        c = tensor(c_type, (m, n, l), (0, 1, 2) if config.c_major == "m" else (1, 0, 2))
    stream = make_fake_stream()
    clusters = config.cluster[0] * config.cluster[1]
    if config.harness in ELEMENTWISE:
        x, y, z = (tensor(ab, (m, n), (1, 0)) for _ in range(3))
        elementwise: tuple[Any, ...] = (module.elementwise_add, x, y, z) if config.harness == "elementwise_add" \
            else (module.elementwise_apply, operator.add, [x, y], z, stream)
        t0 = time.perf_counter()
        cute.compile(*elementwise)
        print(RESULT_MARK + json.dumps({"compile_s": time.perf_counter() - t0}), flush=True)
        return

    args: tuple[Any, ...]
    if config.harness == "ampere":
        gemm = module.TensorOpGemm(ab, c_type, acc, config.atom, config.c_major == "m")
        args = (module.bmm, gemm, a, b, c, stream)
    elif config.harness == "hopper":
        gemm = module.HopperWgmmaGemmKernel(acc, config.tile, config.cluster)
        args = (gemm, a, b, c, stream)
    elif config.harness == "hopper_persistent":
        # swizzle_size 1, rasterized along M
        gemm = module.HopperWgmmaGemmPersistentKernel(acc, config.tile, config.cluster, 1, True)
        args = (gemm, a, b, c, SMS[config.harness] // clusters, stream)
    elif config.harness == "blackwell":
        gemm = module.DenseGemmKernel(acc, config.use_2cta, config.tile, config.cluster, config.use_tma_store)
        args = (gemm, a, b, c, stream)
    elif config.harness == "blackwell_persistent":
        gemm = module.PersistentDenseGemmKernel(acc, config.use_2cta, config.tile, config.cluster,
                                                config.use_tma_store)
        args = (module.bmm, gemm, a, b, c, SMS[config.harness] // clusters, stream)
    else:
        raise ValueError(f"unknown harness {config.harness}")

    t0 = time.perf_counter()
    cute.compile(*args)
    seconds = time.perf_counter() - t0
    print(RESULT_MARK + json.dumps({"compile_s": seconds}), flush=True)


# ------------------------------------------------------------------------------------------------------- parent --

@dataclass
class Round:
    """One round of one configuration."""

    compile_s: float | None = None
    verify_s: float | None = None
    error: str | None = None               # "compile failed: ...", "import-dsl failed: ...", ...
    kinds: dict[str, int] = field(default_factory=dict)
    verdicts: dict[str, str] = field(default_factory=dict)   # check name -> verdict


def run_quiet(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=SUBPROCESS_TIMEOUT_S,
                          check=False)


def stderr_error(stderr: str) -> str:
    """The exception line of a traceback (the first unindented line after the last 'Traceback'), or the last line."""
    lines = ANSI.sub("", stderr).splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("Traceback (most recent call last)")]
    if starts:
        for line in lines[starts[-1] + 1:]:
            if line.strip() and not line[0].isspace():
                return line.strip()
    tail = [line.strip() for line in lines if line.strip()]
    return tail[-1] if tail else ""


def compile_config(config: Config, examples: Path, work: Path) -> tuple[float | None, list[Path], str | None]:
    """Compile in a child process; (its compile seconds, the IR files, an error line or None)."""
    env = dict(os.environ, CUTE_DSL_ARCH=config.arch, CUTE_DSL_KEEP="ir", CUTE_DSL_DUMP_DIR=str(work),
               CUTE_DSL_NO_CACHE="1", CUTE_DSL_DISABLE_FILE_CACHING="1")
    cmd = [PY, str(Path(__file__).resolve()), "--examples", str(examples), "--compile-one", config.name, str(work)]
    try:
        proc = run_quiet(cmd, cwd=work, env=env)
    except subprocess.TimeoutExpired:
        return None, [], f"compile failed: timed out after {SUBPROCESS_TIMEOUT_S} s"
    result: dict[str, Any] = {}
    for line in proc.stdout.splitlines():
        if line.startswith(RESULT_MARK):
            result = json.loads(line[len(RESULT_MARK):])
    if proc.returncode != 0 or "compile_s" not in result:
        why = result.get("error") or stderr_error(proc.stderr) or f"exit status {proc.returncode}"
        return None, [], f"compile failed: {why}"
    ir = sorted(work.glob("*_clean.mlir"))
    if not ir:
        return float(result["compile_s"]), [], "compile failed: no *_clean.mlir written"
    return float(result["compile_s"]), ir, None


# a check's kind by the first of these keys it has (in this order), else an operand check
KIND_OF_KEY = (("elementwise", "elementwise"), ("transaction", "transaction"), ("subtile_order", "subtile_order"),
               ("subtiles", "subtiles"),
               ("slice", "slice"), ("buffer", "buffer"), ("gmem", "descriptor"), ("tmem", "tmem"))
KINDS = ("operand", "descriptor", "tmem", "buffer", "slice", "subtiles", "transaction",
         "subtile_order", "elementwise")   # the table's columns


def classify(spec: Path) -> dict[str, int]:
    """The spec's checks by kind, from their keys."""
    data = YAML(typ="safe").load(spec.read_text())
    kinds = dict.fromkeys(KINDS, 0)
    for check in (data.get("checks") or {}).values():
        kinds[next((kind for key, kind in KIND_OF_KEY if key in check), "operand")] += 1
    return kinds


def verify(ir: list[Path], work: Path, result: Round) -> None:
    """import-dsl + prove (timed together); fills result's verify_s, kinds, verdicts or error."""
    spec = work / "kernel.yaml"
    t0 = time.perf_counter()
    try:
        imported = run_quiet([PY, "-m", "verifier", "import-dsl", *map(str, ir), "-o", str(spec)], cwd=ROOT)
        if imported.returncode != 0:
            result.error = f"import-dsl failed (exit {imported.returncode}): {stderr_error(imported.stderr)}"
            return
        proved = run_quiet([PY, "-m", "verifier", "prove", str(spec), "--allow-outside", "--format", "json",
                            "--no-cache"], cwd=ROOT)
    except subprocess.TimeoutExpired:
        result.error = f"verify timed out after {SUBPROCESS_TIMEOUT_S} s"
        return
    result.verify_s = time.perf_counter() - t0
    try:
        report = json.loads(proved.stdout)
    except json.JSONDecodeError:
        result.error = f"prove failed (exit {proved.returncode}): {stderr_error(proved.stderr)}"
        return
    result.verdicts = {c["check"]: c["verdict"] for c in report.get("checks", [])}
    result.kinds = classify(spec)


def run_round(config: Config, examples: Path, work: Path) -> Round:
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    result = Round()
    result.compile_s, ir, result.error = compile_config(config, examples, work)
    if result.error is None:
        verify(ir, work, result)
    return result


def verdict_text(verdicts: dict[str, str]) -> str:
    if not verdicts:
        return "no checks"
    ok = sum(v == "verified" for v in verdicts.values())
    text = f"{ok}/{len(verdicts)} verified"
    others = [f"{name}: {v}" for name, v in verdicts.items() if v != "verified"]
    return text + ("; " + ", ".join(others) if others else "")


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def seconds(values: list[float]) -> str:
    return f"{statistics.median(values):.2f}" if values else "-"


def table(configs: list[Config], results: dict[str, list[Round]], rounds: int) -> list[str]:
    """The Markdown report: the table and the summary line."""
    lines = [
        "| example | configuration | arch | checks (operand / descriptor / TMEM / buffer / slice / subtiles / "
        "transaction / subtile order / element-wise) | verdicts "
        "| DSL compile s (median) | import-dsl + prove s (median) | ratio |",
        "|---|---|---|---|---|---:|---:|---:|",
    ]
    totals = dict.fromkeys(KINDS, 0)
    verified = checks = ok_configs = 0
    verify_medians: list[tuple[float, str]] = []
    compile_medians: list[float] = []
    for config in configs:
        runs = results[config.name]
        error = next((r.error for r in runs if r.error), None)
        example = config.source.removeprefix("cute/").replace("/kernel/dense_gemm/", "/").replace(
            "/kernel/elementwise/", "/")
        head = f"| {example} | `{config.name}` | {config.arch} "
        if error is not None:
            lines.append(head + f"| - | {cell(error)} | - | - | - |")
            continue
        ok_configs += 1
        first = runs[0]
        kinds = first.kinds
        for key in totals:
            totals[key] += kinds[key]
        checks += len(first.verdicts)
        verified += sum(v == "verified" for v in first.verdicts.values())
        verdicts = verdict_text(first.verdicts)
        if any(r.verdicts != first.verdicts for r in runs[1:]):
            verdicts += " (verdicts differ between rounds)"
        compile_s = [r.compile_s for r in runs if r.compile_s is not None]
        verify_s = [r.verify_s for r in runs if r.verify_s is not None]
        c_med, v_med = statistics.median(compile_s), statistics.median(verify_s)
        compile_medians.append(c_med)
        verify_medians.append((v_med, config.name))
        kinds_text = " / ".join(str(kinds[k]) for k in totals)
        lines.append(head + f"| {kinds_text} | {cell(verdicts)} | {seconds(compile_s)} | {seconds(verify_s)} "
                            f"| {v_med / c_med:.2f} |")
    summary = (f"**Total:** {len(configs)} configurations, {ok_configs} compiled and verified; {checks} checks "
               f"({totals['operand']} operand / {totals['descriptor']} descriptor / {totals['tmem']} TMEM / "
               f"{totals['buffer']} buffer / {totals['slice']} thread-slice / {totals['subtiles']} epilogue-subtile / "
               f"{totals['transaction']} transaction / {totals['subtile_order']} subtile-order / "
               f"{totals['elementwise']} element-wise), {verified}/{checks} "
               "verified")
    if verify_medians:
        worst = max(verify_medians)
        summary += (f"; import-dsl + prove: median {statistics.median(v for v, _ in verify_medians):.2f} s, "
                    f"max {worst[0]:.2f} s (`{worst[1]}`); "
                    f"DSL compile: median {statistics.median(compile_medians):.2f} s")
    summary += f" ({rounds} interleaved round{'s' if rounds != 1 else ''}, medians per configuration)."
    lines += ["", summary]
    return lines


def dsl_version() -> str:
    try:
        return importlib.metadata.version("nvidia-cutlass-dsl")
    except importlib.metadata.PackageNotFoundError:
        return "unknown version"


def select(patterns: list[str] | None) -> list[Config]:
    if not patterns:
        return list(CONFIGS)
    return [c for c in CONFIGS if any(fnmatch.fnmatchcase(c.name, p) for p in patterns)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--examples", type=Path, help="CUTLASS's examples/python/CuTeDSL folder")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3); medians are reported")
    ap.add_argument("--only", action="append", metavar="PATTERN",
                    help="only the configurations whose name matches this shell-style pattern (repeatable)")
    ap.add_argument("--markdown", type=Path, metavar="OUT.md", help="also write the report here")
    ap.add_argument("--keep-dir", type=Path, metavar="DIR",
                    help="keep each round's IR and spec in DIR/<configuration>/round<N>/ (default: a temporary "
                         "folder, removed)")
    ap.add_argument("--list", action="store_true", help="print the configuration names and exit")
    ap.add_argument("--compile-one", nargs=2, metavar=("NAME", "DIR"), help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.list:
        for c in CONFIGS:
            print(c.name)
        return 0
    if args.examples is None:
        ap.error("--examples is required")
    examples = args.examples.resolve()
    if args.compile_one:
        name, _ = args.compile_one
        compile_one(BY_NAME[name], examples)
        return 0
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")

    configs = select(args.only)
    if not configs:
        print(f"no configuration matches {args.only}; `--list` prints the names", file=sys.stderr)
        return 2
    missing = sorted({c.source for c in configs if not (examples / c.source).is_file()})
    if missing:
        print(f"not found under {examples}: {', '.join(missing)}", file=sys.stderr)
        return 2
    probe = run_quiet([PY, "-c", "import cutlass.cute, cutlass.cute.runtime"], cwd=ROOT)
    if probe.returncode != 0:
        print(f"the CuTe DSL (nvidia-cutlass-dsl) is not importable: {stderr_error(probe.stderr)}")
        return 2

    work_root = args.keep_dir.resolve() if args.keep_dir else Path(tempfile.mkdtemp(prefix="dsl_examples_"))
    results: dict[str, list[Round]] = {c.name: [] for c in configs}
    try:
        for r in range(1, args.rounds + 1):
            for i, config in enumerate(configs, 1):
                result = run_round(config, examples, work_root / config.name / f"round{r}")
                results[config.name].append(result)
                if result.error:
                    status = result.error
                else:
                    status = (f"compile {result.compile_s:.2f} s, import-dsl + prove {result.verify_s:.2f} s, "
                              f"{verdict_text(result.verdicts)}")
                print(f"round {r}/{args.rounds} [{i}/{len(configs)}] {config.name}: {status}", file=sys.stderr,
                      flush=True)
    finally:
        if not args.keep_dir:
            shutil.rmtree(work_root, ignore_errors=True)

    report = [
        "# CuTe DSL examples: DSL compile vs import-dsl + prove",
        "",
        f"CUTLASS examples from `{examples}`; nvidia-cutlass-dsl {dsl_version()}; Python {sys.version.split()[0]}; "
        f"{os.cpu_count()} cores; prove with --no-cache; ratio = import-dsl + prove / DSL compile.",
        "",
        *table(configs, results, args.rounds),
    ]
    text = "\n".join(report) + "\n"
    print(text, end="")
    if args.markdown:
        args.markdown.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
