"""The DSL reader of a Blackwell epilogue's subtile loop (verifier/dsl/tmem_subtiles.py, theorem 42) on our own
sm_100a kernel (tests/dsl_tmem_kernel.py, epilogue="tma"): the loop read as it runs, the correct kernel verified, each
compiled mistake refuted (test_dsl_import.py's MISTAKES), and a loop it cannot read listed with the reason."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from verifier.commands.cli import main
from verifier.outcome import ExitCode

DATA = Path(__file__).parent / "data" / "dsl"
TMA_EPILOGUE = DATA / "tmem_epilogue_tma.mlir"
SUBTILE_LOOP = "scf.for %arg13 = %c0_i32 to %c2_i32 step %c1_i32  : i32 {"
STORE_STAGE = 'cute.make_coord(%25) : (i32) -> !cute.coord<"(_,?)">'


def _import(tmp_path: Path, ir: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, str]:
    spec = tmp_path / (ir.stem + ".yaml")
    assert main(["import-dsl", str(ir), "-o", str(spec)]) == ExitCode.OK
    return spec, capsys.readouterr().err


def _edited(tmp_path: Path, old: str, new: str) -> Path:
    text = TMA_EPILOGUE.read_text(encoding="utf-8")
    assert text.count(old) == 1
    ir = tmp_path / "edited.mlir"
    ir.write_text(text.replace(old, new), encoding="utf-8")
    return ir


def test_the_subtile_loop_is_read_as_it_runs_and_verified(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    spec, listed = _import(tmp_path, TMA_EPILOGUE, capsys)
    text = spec.read_text(encoding="utf-8")
    assert "subtile_order:\n      tile: [128, 64]\n      subtile: [128, 32]\n      stages: 2\n" in text
    assert "- {load: [0, 0], write: 0, read: 0, place: [0, 0]}" in text
    assert "- {load: [0, 32], write: 1, read: 1, place: [0, 32]}" in text
    assert "epilogue loop" not in listed
    assert main(["prove", str(spec), "--allow-outside", "--format", "json"]) == ExitCode.OK
    checks = json.loads(capsys.readouterr().out)["checks"]
    order = [c for c in checks if "subtile_order" in str(c["check"])]
    assert len(order) == 1 and order[0]["verdict"] == "verified"


def test_a_stage_counter_the_loop_carries_is_read_as_its_start_plus_the_pass(tmp_path: Path,
                                                                            capsys: pytest.CaptureFixture[str]):
    """CUTLASS's Blackwell epilogues carry their stage count from pass to pass (iter_args), advanced by one a pass:
    the copy and the store take (count + 1) % 2, the same value; its start, made before the loop, is read as 0."""
    spec, listed = _import(tmp_path, DATA / "tmem_epilogue_carried.mlir", capsys)
    text = spec.read_text(encoding="utf-8")
    assert "- {load: [0, 0], write: 1, read: 1, place: [0, 0]}" in text and "epilogue loop" not in listed
    assert main(["prove", str(spec), "--allow-outside"]) == ExitCode.OK


def test_a_subtile_is_what_each_store_puts_not_the_tmem_copys_tile(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]):
    """make_tmem_copy over the whole 128x64 stage takes its atom's 128x32 tiler, the same tiled copy, and the loop's
    partition still slices 128x32 subtiles (survey 7's b5_06, harmless): the subtile is the TMA store's box, and the
    kernel is verified -- read off the TMEM copy's tile, one 128x64 subtile, it was refuted."""
    spec, _ = _import(tmp_path, DATA / "tmem_epilogue_t2r_over_stage.mlir", capsys)
    text = spec.read_text(encoding="utf-8")
    assert 'tmem: "(128,64):(65536,1)"' in text and "subtile: [128, 32]" in text
    assert main(["prove", str(spec), "--allow-outside"]) == ExitCode.OK


def test_a_store_of_the_other_stage_is_refuted_at_the_first_subtile(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]):
    spec, _ = _import(tmp_path, DATA / "tmem_epilogue_store_next_stage.mlir", capsys)
    assert "- {load: [0, 0], write: 0, read: 1, place: [0, 0]}" in spec.read_text(encoding="utf-8")
    assert main(["prove", str(spec), "--allow-outside"]) == ExitCode.WRONG
    out = capsys.readouterr().out
    assert "smallest counterexample: subtile=0" in out
    assert "the store of subtile 0 reads stage 1, which no copy of this pass wrote before it" in out


R2S_COPY = "cute.copy(%22, %grouped_69, %grouped_72) : (!copy_simt, !memref_rmem_f32_3, !memref_smem_f32_5)"


def test_a_load_into_registers_by_the_same_tiled_copy_is_not_the_copy_into_the_subtile(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """An alpha-beta epilogue loads C's subtile into registers with the tiled copy that then stores D's into the shared
    subtile: the loop holds two copies by it, and only the one into shared memory is the subtile's copy (the loop was
    listed: "2 copies of the registers").  The fixture's loop with such a load added before the copy is read alike."""
    c_load = "cute.copy(%22, %grouped_72, %grouped_69) : (!copy_simt, !memref_smem_f32_5, !memref_rmem_f32_3)"
    spec, listed = _import(tmp_path, _edited(tmp_path, R2S_COPY, c_load + "\n          " + R2S_COPY), capsys)
    text = spec.read_text(encoding="utf-8")
    assert "- {load: [0, 32], write: 1, read: 1, place: [0, 32]}" in text and "epilogue loop" not in listed
    assert main(["prove", str(spec), "--allow-outside", "--format", "json"]) == ExitCode.OK
    checks = json.loads(capsys.readouterr().out)["checks"]
    assert [c["verdict"] for c in checks if "subtile_order" in str(c["check"])] == ["verified"]


def test_an_epilogue_without_a_subtile_loop_has_no_subtile_order_check(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]):
    spec, listed = _import(tmp_path, DATA / "tmem.mlir", capsys)
    assert "subtile_order" not in spec.read_text(encoding="utf-8") and "epilogue loop" not in listed


@pytest.mark.parametrize("old, new, why", [
    (SUBTILE_LOOP, SUBTILE_LOOP.replace("%c2_i32", "%arg8"), "the subtile loop's bounds are not constants"),
    # two copies of the registers into the shared subtile in one pass
    (R2S_COPY, R2S_COPY + "\n          " + R2S_COPY, "2 copies of the registers into shared memory and 1 TMA stores"),
    (STORE_STAGE, STORE_STAGE.replace("%25", "%0"), "not the subtile loop's counter plus constants modulo a count"),
    # the load's subtile taken of the divided accumulator stage, not of the load's own partition of it
    ("cute.slice(%grouped_39, %coord_52)", "cute.slice(%div, %coord_52)",
     "is not of a partition by its own tiled copy"),
])
def test_a_loop_this_reader_cannot_read_is_listed_with_the_reason(old: str, new: str, why: str, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]):
    spec, listed = _import(tmp_path, _edited(tmp_path, old, new), capsys)
    assert "subtile_order:" not in spec.read_text(encoding="utf-8")
    assert "the epilogue loop over the subtiles the TMEM load" in listed and why in listed, listed


def _loop_reader() -> tuple[object, object, object]:
    """The fixture's kernel flow, its TMEM load's tiled copy and the tiled copy that stores the load's registers."""
    from verifier.dsl import mlir_text
    from verifier.dsl.flow import read_flow
    module = mlir_text.read_module(TMA_EPILOGUE.read_text(encoding="utf-8"), str(TMA_EPILOGUE))
    kernel = next(f for f in module.functions if f.kind == "cuda.kernel")
    flow = read_flow(module, kernel)
    t2r = next(op.results[0] for op in kernel.ops if op.name == "cute_nvgpu.atom.make_tmem_copy")
    r2s = next(op.operands[0] for op in kernel.ops if op.name == "cute.tiled.copy.retile")
    return flow, t2r, r2s


@pytest.mark.parametrize("accumulator, tile", [
    ("((128,64),1,1,2):((65536,1),0,0,64)", (128, 64)),     # two accumulator stages (the kernel's)
    ("((128,64),1,1,1):((65536,1),0,0,0)", (128, 64)),      # one stage: its stage mode of one element
    ("((128,1),(64,1),1):((65536,0),(1,0),0)", (128, 64)),  # M and N in modes of their own (partition_C's)
])
def test_the_accumulator_stage_is_its_two_leaves_of_more_than_one_element(accumulator: str,
                                                                          tile: tuple[int, int]):
    from verifier.dsl.tmem_subtiles import SubtileOrderRead, read_subtile_order
    flow, t2r, r2s = _loop_reader()
    found = read_subtile_order(flow, t2r, r2s, accumulator)          # type: ignore[arg-type]
    assert isinstance(found, SubtileOrderRead) and found.tile == tile and found.subtile == (128, 32)
    assert [s[0] for s in found.steps] == [(0, 0), (0, 32)]


@pytest.mark.parametrize("accumulator, why", [
    ("(128,64):(65536,1)", "has no stage of two modes (M, N)"),      # no stage mode: N would be taken for one
    (None, "the accumulator's view in tensor memory is not read"),
])
def test_an_accumulator_view_without_a_stage_mode_is_not_read(accumulator: str | None, why: str):
    from verifier.dsl.tmem_subtiles import read_subtile_order
    flow, t2r, r2s = _loop_reader()
    found = read_subtile_order(flow, t2r, r2s, accumulator)          # type: ignore[arg-type]
    assert isinstance(found, str) and why in found, found
