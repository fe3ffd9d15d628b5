"""The audit's crashes and destroyed inputs, each closed: C++-spelled layouts with `_` where an integer goes, a
source of 300 nested structs, negative strides (unsupported, with the reason), and outputs that would overwrite an
input (import-kernel, import-dsl, draw)."""
from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from verifier.commands.cli import main
from verifier.engine.runner import run_check
from verifier.outcome import ExitCode, Status, Verdict
from verifier.specfile import SpecError, load_spec

ROOT = Path(__file__).parent.parent
ATOMS = (ROOT / "specs" / "atoms").as_posix()
SEED_CHECK = f"""version: 2
name: seed
include: ["{ATOMS}/sm75.yaml", "{ATOMS}/sm80_f16.yaml"]
checks:
  a:
    mma: SM80_16x8x16_F16F16F16F16_TN
    operand: A
    copy: SM75_U32x4_LDSM_N
    value_type: half_t
    smem: "{{smem}}"
"""


@pytest.mark.parametrize("expr, why", [("Layout<Shape<_>,Stride<_1>>", "a shape or stride holds integers"),
                                       ("Layout<_, _1>", "a shape or stride holds integers"),
                                       ("Layout<Shape<half_t,_8>>", "column 14: unknown name 'half_t'"),
                                       ("make_layout(Shape<_4,_>{})", "a shape or stride holds integers")])
def test_a_cpp_layout_with_no_integer_is_one_line(expr: str, why: str, capsys: pytest.CaptureFixture[str]):
    assert main(["layout", expr]) == ExitCode.BAD_INPUT
    err = capsys.readouterr().err
    assert why in err and "Traceback" not in err and err.count("\n") <= 3


def test_layout_from_stdin_answers_after_a_bad_line():
    p = subprocess.run([sys.executable, "-m", "verifier", "layout", "-"], input="Layout<_, _1>\n(4,4):(4,1)\n",
                       capture_output=True, text=True, timeout=60)
    assert "a shape or stride holds integers" in p.stdout + p.stderr and "(_4,_4):(_4,_1)" in p.stdout
    assert "Traceback" not in p.stderr


def test_a_spec_with_a_cpp_layout_holding_an_underscore_is_bad_input(tmp_path: Path):
    spec = tmp_path / "s.yaml"
    spec.write_text(SEED_CHECK.format(smem="Layout<Shape<_16,_>,Stride<_16,_1>>"), encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_spec(spec, allow_outside=True)
    assert e.value.loc.line == 10 and "holds integers" in e.value.message


@pytest.mark.parametrize("smem", ["(16,16):(-16,1)", "Layout<Shape<_16,_16>,Stride<Int<-16>,_1>>"])
def test_a_negative_stride_is_unsupported_with_its_reason_never_an_internal_error(tmp_path: Path, smem: str):
    spec = tmp_path / "s.yaml"
    spec.write_text(SEED_CHECK.format(smem=smem), encoding="utf-8")
    loaded = load_spec(spec, allow_outside=True)
    r = run_check(loaded, loaded.checks["a"])
    assert r.verdict is Verdict.UNSUPPORTED
    assert not any(t.status is Status.ERROR for t in r.theorems)
    assert any("negative stride (-16)" in t.reason for t in r.theorems)


def test_three_hundred_nested_structs_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    source = tmp_path / "nested.hpp"
    source.write_text("\n".join(f"struct S{i} {{" for i in range(300)) + "\nusing SmemLayoutA = int;\n"
                      + "};" * 300 + "\n", encoding="utf-8")
    assert main(["import-kernel", str(source)]) == ExitCode.BAD_INPUT
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and ":65:1: scopes nested more than 64 deep" in err[0]


def test_no_command_overwrites_its_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    kernel = tmp_path / "K.cu"
    kernel.write_text((ROOT / "tests" / "data" / "cpp" / "tile_sm80.cu").read_text(encoding="utf-8"), encoding="utf-8")
    before = kernel.read_text(encoding="utf-8")
    assert main(["import-kernel", str(kernel), "-o", str(kernel)]) == ExitCode.BAD_INPUT
    assert main(["import-kernel", "--compile", str(kernel), "-o", str(tmp_path / "." / "K.cu")]) == ExitCode.BAD_INPUT
    assert kernel.read_text(encoding="utf-8") == before
    ir = tmp_path / "k.mlir"
    ir.write_text("module {}\n", encoding="utf-8")
    assert main(["import-dsl", str(ir), "-o", str(ir)]) == ExitCode.BAD_INPUT and ir.read_text() == "module {}\n"
    spec = tmp_path / "s.yaml"
    spec.write_text(SEED_CHECK.format(smem="(16,16):(16,1)"), encoding="utf-8")
    text = spec.read_text(encoding="utf-8")
    from verifier.commands.draw import draw_main
    assert draw_main(str(spec), "a", None, str(spec), allow_outside=True, out=io.StringIO()) == ExitCode.BAD_INPUT
    assert spec.read_text(encoding="utf-8") == text
    assert "refusing to overwrite" in capsys.readouterr().err


def _hw(*argv: str) -> tuple[int, str, str]:
    from verifier.commands.hw import hw_main
    out, err = io.StringIO(), io.StringIO()
    code = hw_main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_hw_reads_a_negative_start_as_the_out_of_bounds_start_it_is():
    code, out, _ = _hw("tma", "--elem-bytes", "2", "--box", "8,8", "--dst", "0", "--start", "-8,-8", "--json")
    assert code == ExitCode.OK and '"writes"' in out and "[0, -1, -1, 0]" in out


@pytest.mark.parametrize("argv, why", [
    (("tma", "--elem-bytes", "2", "--box", "8,8", "--dst", str(1 << 84)), "a shared-window address is in [0, 2^32)"),
    (("banks", "--instruction", "ld.shared.b32", "--addresses", f"0,{1 << 84}"), "a shared-window address"),
    (("wgmma", "--instruction", "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", "--operand", "A", "--desc",
      hex(1 << 70)), "a descriptor is 64 bits"),
    (("tma", "--elem-bytes", "2", "--box", "8,8", "--dst", "0", "--dtype", "int32"), "4-byte elements")])
def test_hw_refuses_values_no_hardware_has_in_one_line(argv: tuple[str, ...], why: str):
    code, _, err = _hw(*argv)
    assert code == ExitCode.BAD_INPUT and why in err and err.count("\n") == 1


@pytest.mark.parametrize("shape, valid", [("m64n999k16.f32.f16.f16", False), ("m64n40k32.s32.s8.s8", False),
                                          ("m64n48k32.s32.s8.s8", True), ("m64n40k32.f32.e4m3.e4m3", True),
                                          ("m64n128k16.f32.tf32.tf32", False), ("m64n128k8.f32.tf32.tf32", True)])
def test_hw_knows_which_wgmma_shapes_exist(shape: str, valid: bool):
    code, out, _ = _hw("wgmma", "--instruction", f"wgmma.mma_async.sync.aligned.{shape}", "--operand", "B",
                       "--desc", "0x4000004000010000")
    assert out.startswith("refused: ") is not valid, out[:200]


def test_hw_refuses_a_nan_fill_of_an_integer_tensor_as_the_driver_does():
    code, out, _ = _hw("tma", "--elem-bytes", "4", "--box", "8,8", "--dst", "0", "--oob-fill", "nan", "--dtype",
                       "int32")
    assert out.startswith("refused: the NaN out-of-bounds fill needs a floating-point data type")
    code, out, _ = _hw("tma", "--elem-bytes", "4", "--box", "8,8", "--dst", "0", "--oob-fill", "nan", "--dtype",
                       "float32")
    assert code == ExitCode.OK and out.startswith("tx_bytes")


def test_a_check_name_cannot_make_a_link_in_the_markdown_report(tmp_path: Path):
    spec = tmp_path / "s.yaml"
    evil = "x](https://evil.example/a.png) ![y"
    spec.write_text(SEED_CHECK.format(smem="(16,16):(1,16)").replace("  a:\n", f'  "{evil}":\n'), encoding="utf-8")
    report = tmp_path / "report.md"
    p = subprocess.run([sys.executable, "-m", "verifier", "prove", str(spec), "--allow-outside", "--no-cache",
                        "--format", "markdown", "--output", str(report)], capture_output=True, text=True, timeout=300)
    assert p.returncode == ExitCode.WRONG, p.stderr
    text = report.read_text(encoding="utf-8")
    images = [line for line in text.splitlines() if line.startswith("![")]
    assert images                                                   # the refuted check's picture is linked
    for line in images:                                             # its alt text cannot close the link early
        alt = line[2:line.index("](")]
        assert "evil" in alt and "](" not in alt and "\\]\\(" in alt


def test_diff_against_git_reads_specs_that_include_parent_files(tmp_path: Path):
    """The old tree is materialised with the repository's root, so `include: [../atoms/...]` resolves as in the
    checkout (it used to be refused as outside the repository: exit 2 on the project's own catalog)."""
    repo = tmp_path / "repo"
    (repo / "specs" / "atoms").mkdir(parents=True)
    (repo / "specs" / "catalog").mkdir()
    for f in ("sm75.yaml", "sm80_f16.yaml"):
        (repo / "specs" / "atoms" / f).write_text((ROOT / "specs" / "atoms" / f).read_text(encoding="utf-8"))
    spec = repo / "specs" / "catalog" / "x.yaml"
    spec.write_text(SEED_CHECK.format(smem="(16,16):(16,1)").replace(
        f'["{ATOMS}/sm75.yaml", "{ATOMS}/sm80_f16.yaml"]', "[../atoms/sm75.yaml, ../atoms/sm80_f16.yaml]"),
        encoding="utf-8")
    git = ["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "x"], check=True)
    spec.write_text(spec.read_text(encoding="utf-8").replace("(16,16):(16,1)", "(16,16):(1,16)"), encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "verifier", "diff", str(repo / "specs" / "catalog"), "--git", "HEAD"],
                       capture_output=True, text=True, timeout=300, cwd=repo)
    assert p.returncode == ExitCode.WRONG, p.stderr
    assert "NEWLY FAILING  a: was verified" in p.stdout


def test_a_file_of_many_sweeps_is_capped_as_a_whole(tmp_path: Path):
    sweep = """  "s{k}_{{i}}":
    mma: SM80_16x8x16_F16F16F16F16_TN
    operand: A
    copy: SM75_U32x4_LDSM_N
    value_type: half_t
    smem: "(16,16):(16,1)"
    sweep:
      i: [{values}]
"""
    values = ", ".join(str(i) for i in range(3000))
    head = SEED_CHECK.split("checks:")[0] + "checks:\n"
    spec = tmp_path / "many.yaml"
    spec.write_text(head + sweep.format(k=0, values=values) + sweep.format(k=1, values=values), encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_spec(spec, allow_outside=True)
    assert "more than 4096" in e.value.message and e.value.loc.line == 13


def test_a_picture_without_a_bank_count_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """The bank view used to raise on misaligned rows: the page is drawn and says there is no bank count.  Every
    other mistake's page is drawn by tests/test_draw.py::test_draw_renders_every_mistake."""
    from verifier.commands.draw import draw_main
    spec = ROOT / "specs" / "mistakes.yaml"
    name = "n_atom_on_mn_major_smem"
    code = draw_main(str(spec), name, None, str(tmp_path / f"{name}.html"), out=io.StringIO())
    err = capsys.readouterr().err
    assert code == ExitCode.OK and "internal error" not in err and "Traceback" not in err, err
    page = (tmp_path / f"{name}.html").read_text(encoding="utf-8")
    assert "no bank count" in page


def test_a_tile_too_large_to_draw_is_one_line_not_a_hang(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    from verifier.commands.draw import draw_main
    spec = tmp_path / "big.yaml"
    spec.write_text(SEED_CHECK.format(smem="(4096,4096):(4096,1)"), encoding="utf-8")
    code = draw_main(str(spec), "a", None, str(tmp_path / "big.html"), allow_outside=True, out=io.StringIO())
    err = capsys.readouterr().err
    assert code == ExitCode.BAD_INPUT and "16777216 elements; draw draws at most 16384" in err
    assert not (tmp_path / "big.html").exists()


def test_a_refuted_copy_is_outlined_on_the_copy_view(tmp_path: Path):
    """The copy view of a refuted tiled check outlines the counterexample's (thread, value) on both sides and names
    the theorem; a verified check's view outlines nothing."""
    from verifier.commands.draw import draw_main
    spec = ROOT / "specs" / "mistakes.yaml"
    out = tmp_path / "copy.svg"
    assert draw_main(str(spec), "n_atom_on_mn_major_smem", "copy", str(out), out=io.StringIO()) == ExitCode.OK
    svg = out.read_text(encoding="utf-8")
    assert svg.count("#d00000") >= 2 and "counterexample (copy." in svg
    good = tmp_path / "good.svg"
    assert draw_main(str(ROOT / "specs" / "sm80_f16.yaml"), "ldsm_x4_a_kmajor", "copy", str(good),
                     out=io.StringIO()) == ExitCode.OK
    assert "#d00000" not in good.read_text(encoding="utf-8")


def test_a_generator_level_that_would_not_finish_is_stopped_and_said():
    """`prescreen-cutlass --level 9999` (no pruning) used to run unbounded with no word: the level is generated in a
    child process, announced, and stopped past its limit with one line."""
    pytest.importorskip("cutlass_library")
    from verifier.prescreen.space import SpaceError, kernels
    with pytest.raises(SpaceError) as e:
        kernels(90, "9999", limit_s=2)
    assert "generator ran past 2 s and was stopped; choose a lower level" in str(e.value)
    assert len(kernels(90, "0", limit_s=120)) > 1000         # a level that finishes is the generator's own space
