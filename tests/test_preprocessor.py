"""import-kernel reads the branches of #if / #ifdef a compile with the given -D macros takes, and lists the others
(issue: reading both branches kept the dead one's declaration, verifying a kernel whose compiled branch is wrong)."""
from __future__ import annotations

from pathlib import Path

import pytest

from verifier.commands.cli import main
from verifier.importer.preprocessor import Undecided, evaluate, literal_dead_lines, select_branches
from verifier.outcome import ExitCode

KERNEL = """#include <cute/tensor.hpp>
using namespace cute;
#if defined(USE_TRANSPOSING_LOAD)
using SmemCopyAtomA = Copy_Atom<SM75_U16x8_LDSM_T, half_t>;   // wrong for a K-major A
#else
using SmemCopyAtomA = Copy_Atom<SM75_U32x4_LDSM_N, half_t>;
#endif
using TiledMma = TiledMMA<MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>, Layout<Shape<_2,_2,_1>>, Tile<_32,_32,_16>>;
using SmemLayoutA = decltype(tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}),
                                           Shape<_128,_64>{}));
"""


@pytest.mark.parametrize("cond, macros, value", [
    ("1", {}, True), ("0", {}, False), ("defined(X)", {"X": ""}, True), ("!defined X", {}, True),
    ("X > 2 && Y", {"X": "3", "Y": "1"}, True), ("UNDEFINED_NAME", {}, False), ("(1 << 4) == 16 ? 1 : 0", {}, True),
    ("A", {"A": "B", "B": "7"}, True), ("-1 < 0", {}, True), ("7 / 2 == 3 && -7 % 2 == -1", {}, True),
])
def test_conditions_are_evaluated_as_the_c_preprocessor_does(cond: str, macros: dict[str, str], value: bool):
    assert evaluate(cond, macros) is value


@pytest.mark.parametrize("cond", ["__CUDA_ARCH__ >= 800", "defined(__CUDACC__)", "FOO(1)", "1 +", "1 / 0"])
def test_what_the_compile_decides_or_cannot_be_read_is_never_guessed(cond: str):
    with pytest.raises(Undecided):
        evaluate(cond, {})


def test_branches_taken_keep_their_lines_and_the_others_are_blanked():
    text = "a\n#define N 2\n#if N == 2\nb\n#elif N == 3\nc\n#else\nd\n#endif\n#ifdef __CUDA_ARCH__\ne\n#endif\n"
    out, branches = select_branches(text, {})
    assert out.split("\n") == ["a", "", "", "b", "", "", "", "", "", "", "", "", ""]
    assert [(b.line, b.taken) for b in branches] == [(3, True), (5, False), (7, False), (10, None)]
    out, _ = select_branches(text, {"__CUDA_ARCH__": "900"})
    assert "e" in out.split("\n")


def _prove(tmp_path: Path, capsys: pytest.CaptureFixture[str], *defines: str) -> tuple[int, str]:
    src = tmp_path / "kernel.cu"
    src.write_text(KERNEL, encoding="utf-8")
    spec = tmp_path / "kernel.yaml"
    assert main(["import-kernel", str(src), "-o", str(spec), *defines]) == ExitCode.OK
    err = capsys.readouterr().err
    return main(["prove", str(spec), "--allow-outside"]), err


def test_the_compiled_branch_is_the_one_proved(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    code, err = _prove(tmp_path, capsys)
    assert code == ExitCode.OK                      # the #else branch: the right ldmatrix
    assert "#if defined(USE_TRANSPOSING_LOAD): a branch these macros do not compile" in err
    code, err = _prove(tmp_path, capsys, "-D", "USE_TRANSPOSING_LOAD")
    assert code == ExitCode.WRONG                   # the #if branch: the transposing load of a K-major A
    assert "#else of #if defined(USE_TRANSPOSING_LOAD) (line 3)" in err


def test_a_branch_on_a_compiler_macro_is_listed_not_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    src = tmp_path / "arch.cu"
    src.write_text(KERNEL.replace("#if defined(USE_TRANSPOSING_LOAD)", "#if __CUDA_ARCH__ >= 800"), encoding="utf-8")
    assert main(["import-kernel", str(src), "-o", str(tmp_path / "a.yaml")]) == ExitCode.BAD_INPUT
    err = capsys.readouterr().err
    assert "undecided: it depends on __CUDA_ARCH__" in err


def test_only_branches_of_literal_conditions_not_taken_are_dead_lines():
    """The compiled path's reading (instrument.py): `#if 0`, an `#else` after `#if 1`, an `#elif 0` are no compile's;
    a conditional on a macro is the compile's to decide from that condition on, and nothing of it is dropped."""
    text = "\n".join([
        "a",            # 1
        "#if 0",        # 2
        "b",            # 3  dead
        "#else",        # 4
        "c",            # 5
        "#endif",       # 6
        "#if FOO",      # 7
        "d",            # 8
        "#else",        # 9
        "e",            # 10
        "#endif",       # 11
        "#if 1",        # 12
        "f",            # 13
        "#elif 0",      # 14
        "g",            # 15 dead
        "#else",        # 16
        "h",            # 17 dead
        "#endif",       # 18
        "#if 0",        # 19
        "x",            # 20 dead
        "#elif BAR",    # 21
        "y",            # 22
        "#else",        # 23
        "z",            # 24
        "#endif",       # 25
        "#if 0",        # 26
        "#if 1",        # 27
        "q",            # 28 dead (inside the outer #if 0)
        "#endif",       # 29
        "#endif",       # 30
        "#if (2 > 1) && !0",   # 31
        "r",            # 32
        "#endif",       # 33
    ])
    assert sorted(literal_dead_lines(text)) == [3, 15, 17, 20, 28]
