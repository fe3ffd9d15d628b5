"""import-dsl on IR the CuTe DSL left (tests/data/dsl, made by tests/dsl_kernels.py from our own tile kernel): the
correct kernel's checks are all verified; each mistake the DSL compiles is refuted by the check that owns it; bad
input is one line and exit status 2.  No DSL is needed to read IR."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from verifier.commands.cli import main
from verifier.dsl.cute_types import (DynamicValue, TypeTextError, layout_of, memref_of, ptr_of, tile_of,
                                     tiled_copy_of, tiled_mma_of)
from verifier.dsl.importer import DslInputError, import_files
from verifier.dsl.kernel_checks import BufferRecord, DescriptorRecord, OperandRecord, representative
from verifier.dsl.mlir_text import IRSyntaxError, read_module
from verifier.outcome import ExitCode

DATA = Path(__file__).parent / "data" / "dsl"
TILE = DATA / "tile.mlir"
# each mistake, and the theorem that must refute it in the check of that kind
MISTAKES = {
    "tile_reader_unswizzled.mlir": ("buffer", "buffer.agreement"),       # the reader's view without the swizzle
    "tile_writer_swizzle_S143.mlir": ("buffer", "buffer.agreement"),     # the writer's view with another swizzle
    "tile_a_copy_for_B.mlir": ("A_ldsm", "copy.dst_matches_mma"),        # make_tiled_copy_B used for A
    "tile_c_rows_collide.mlir": ("buffer", "buffer.agreement"),          # the epilogue's stores collide
    "tile_a_copy_partitions_mixed.mlir": ("buffer", "buffer.agreement"), # cp.async's two sides, two tiled copies
    "simt_a_copy_threads_transposed.mlir": ("A_copy", "copy.dst_matches_mma"),  # UniversalFMA, A's copy N first
    "tma_b_swizzle_64.mlir": ("buffer", "buffer.agreement"),            # B's TMA atom made from a 64-byte swizzle
    "tma_b_mn_major_atom.mlir": ("buffer", "buffer.agreement"),         # ... from the MN-major layout, same swizzle
    "tma_n96_b_swizzle_64.mlir": ("buffer", "buffer.agreement"),        # ... on a tile of N = 96 (a family's atom)
    "tma_b_k_permuted.mlir": ("B_tma_descriptor", "tma.encodable"),     # B's TMA atom for a K-permuted tiler: boxes
                                                                         # of 16 elements, 32 bytes apart
    "tma_b_global_int8.mlir": ("B_tma_descriptor", "copy.value_type"),  # B's atom made from an int8 tensor: TMA
                                                                         # fills the half tile with bytes
    "tile_g2s_sliced_mod64.mlir": ("slice", "copy.thread_slice"),        # cp.async sliced at tid % 64: half unmoved
    "tile_a_ldsm_sliced_xor1.mlir": ("slice", "copy.thread_slice"),      # ldmatrix sliced at tid ^ 1: rows swapped
    "tile_copy_out_second_warps_tid.mlir": ("slice", "copy.thread_slice"),  # warps 4..7 copy out at tid: slices
                                                                             # 128.. are none of the copy's
    "tma_staged_mma_stage0.mlir": ("buffer", "buffer.agreement"),      # a 2-stage mainloop whose wgmmas read stage 0
                                                                         # only: stage 1 filled and never read
    "tma_staged_mma_stage_next.mlir": ("buffer", "buffer.agreement"),  # ... whose wgmmas read (k + 1) % 2 after
                                                                         # waiting on the barrier of k % 2
    "tma_staged_mma_first_zero.mlir": ("buffer", "buffer.agreement"),  # ... whose first k-block reads stage 0
    "tma_a_tiles_of_b.mlir": ("buffer", "buffer.agreement"),           # A's TMA partition takes B's global tile
    "tma_store_a_b.mlir": ("buffer", "buffer.agreement"),              # A's tile TMA-stored over B's tensor, which
                                                                         # the MMA reads as B
    "tma_tiles_a_at_n.mlir": ("buffer", "buffer.agreement"),           # a 2x2 grid whose CTA (x, y) takes A's M
                                                                         # tile at y, B's N tile's coordinate
    "tma_ldsm_a_at_n.mlir": ("buffer", "buffer.agreement"),            # the same grid, A and B read by ldmatrix
                                                                         # into mma.sync: A's M tile taken at y
    "tma_ldsm_a_reads_b.mlir": ("buffer", "buffer.agreement"),         # ... A's ldmatrix reading B's tile (B x B)
    "tmem_mma_stage0.mlir": ("tmem_load", "tmem.accumulator_stages"),  # a 2-stage TMEM accumulator whose MMAs
                                                                         # write stage 0 only: stage 1 read, unwritten
    "tmem_load_stage0.mlir": ("tmem_load", "tmem.accumulator_stages"), # ... whose epilogue reads stage 0 only
    "tmem_load_next.mlir": ("tmem_load", "tmem.accumulator_stages"),  # ... whose epilogue waits on stage s's
                                                                         # full barrier and reads stage (s + 1) % 2
    "tmem_mma_view_one_stage.mlir": ("tmem_load", "tmem.accumulator_stages"),  # ... whose MMAs' own view has
                                                                         # one stage: stage 1 read, never written
    "tmem_epi_offset_64.mlir": ("tmem_load", "tmem.accumulator_stages"),  # ... whose epilogue's view starts a
                                                                         # stage further on
    "tmem_alloc_64.mlir": ("tmem_load", "tmem.allocation"),           # ... allocated 64 columns: stage 1 lies
                                                                         # past the allocation
    "tmem_load_reversed.mlir": ("tmem_load", "tmem.accumulator_stages"),  # ... whose epilogue waits on stage s's
                                                                         # barrier and reads stage 1 - s
    "tmem_mma_next.mlir": ("tmem_load", "tmem.accumulator_stages"),   # ... whose MMAs write the stage after the one
                                                                         # whose empty barrier they waited on
    "tma_a_fills_b.mlir": ("unwritten", "buffer.agreement"),          # A's TMA partition fills sB: nothing fills
                                                                         # the sA wgmma reads through its descriptor
    "tma_ldsm_a_fills_b.mlir": ("unwritten", "buffer.agreement"),     # ... nor the sA ldmatrix reads
    "tma_staged_a_fills_b.mlir": ("unwritten", "buffer.agreement"),   # ... nor the 2-stage sA (its barriers at a
                                                                         # stage known at run time)
    "tma_epilogue_first_registers.mlir": ("C_subtiles", "epilogue.subtiles"),  # every epilogue subtile takes the
                                                                         # first subtile's accumulator registers
    "tma_epilogue_reversed.mlir": ("C_subtiles", "epilogue.subtiles"),  # subtile i stored at subtile n-1-i's place
    "tma_epilogue_wait_2.mlir": ("C_subtiles", "epilogue.store_pipeline"),  # two stages, two stores left reading:
                                                                         # subtile 2's copy rewrites subtile 0's stage
    "tma_epilogue_no_fence.mlir": ("C_subtiles", "epilogue.store_pipeline"),  # no proxy fence before the stores
    "tma_epilogue_store_next_stage.mlir": ("C_subtiles", "epilogue.subtiles"),  # subtile i's TMA store reads stage
                                                                         # (i + 1) % 2: subtile 0's, none written
    "tma_tx_a_only.mlir": ("transaction", "tma.transaction_bytes"),     # the barrier armed for A's tile alone
    "tma_tx_a_twice.mlir": ("transaction", "tma.transaction_bytes"),    # ... for A's tile twice and B's: no end
    "elementwise_b_threads_transposed.mlir": ("elementwise", "elementwise.coordinates"),  # C = A + B, B's tiled
                                                                         # copy orders its threads column-major
    "elementwise_c_tile_shifted.mlir": ("elementwise", "elementwise.coordinates"),  # C at the block's tile + 1
    "elementwise_b_xor1.mlir": ("elementwise", "elementwise.coordinates"),  # B's slice at tid ^ 1: a thread adds
                                                                         # its neighbour's B
    "elementwise_compose_b_threads_other.mlir": ("elementwise", "elementwise.coordinates"),  # C = A * B tiled as
                                                                         # elementwise_apply, B's (thr, val) layout
                                                                         # of threads ordered column-major
    "elementwise_slice_q_tile_2x.mlir": ("elementwise", "elementwise.coordinates"),  # Q's per-thread tile 2x64,
                                                                         # D's 1x128 (survey 7's b6_06)
    "tma_n32_a_partition_b.mlir": ("transaction", "tma.transaction_bytes"),  # A's tile partitioned with B's atom
                                                                         # (two 32-row boxes), copied with A's: each
                                                                         # box gets A's 64-row box, twice the bytes
    "tmem_epilogue_store_next_stage.mlir": ("subtile_order", "epilogue.subtile_order"),  # each TMA store of a
                                                                         # TMEM epilogue reads the other stage
    "tmem_epilogue_store_first_place.mlir": ("subtile_order", "epilogue.subtile_order"),  # ... every subtile stored
                                                                         # at subtile 0's place
    "tmem_epilogue_load_first_subtile.mlir": ("subtile_order", "epilogue.subtile_order"),  # ... every pass loads
                                                                         # subtile 0 of tensor memory
    "tmem_epilogue_carried_store_next_stage.mlir": ("subtile_order", "epilogue.subtile_order"),  # ... the other
                                                                         # stage, of a stage counter the loop carries
    "tma_n32_a_atom_b.mlir": ("A_tma_descriptor", "tma.placement"),   # A's tile partitioned and copied with B's
                                                                         # atom (half its rows: not paired), B's
                                                                         # elements in A's tile
}
SIMT = DATA / "simt.mlir"


def _import(tmp_path: Path, ir: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    spec = tmp_path / (ir.stem + ".yaml")
    assert main(["import-dsl", str(ir), "-o", str(spec)]) == ExitCode.OK
    capsys.readouterr()
    return spec


def _prove(spec: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, object]]]:
    code = main(["prove", str(spec), "--allow-outside", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    return code, report["checks"]


def test_every_fixture_names_the_command_that_made_it():
    for ir in DATA.glob("*.mlir"):
        first = ir.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith(("// made by: python tests/dsl_kernels.py",
                                 "// made by: python tests/dsl_tma_kernel.py",
                                 "// made by: python tests/dsl_tmem_kernel.py",
                                 "// made by: python tests/dsl_elementwise_kernel.py")), ir


def test_the_correct_tile_kernel_is_verified(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    spec = _import(tmp_path, TILE, capsys)
    code, checks = _prove(spec, capsys)
    assert code == ExitCode.OK
    names = [str(c["check"]) for c in checks]
    assert sum("_buffer_" in n for n in names) == 3                          # sA, sB, sC between writer and reader
    assert sorted(n.split("_kernel_")[1][0] for n in names if "_buffer_" not in n) == ["A", "B", "C"]
    assert all(c["verdict"] == "verified" for c in checks)
    text = spec.read_text(encoding="utf-8")
    assert "tiled_copy: {layout_tv:" in text and "source: " in text
    buffers = [c for c in checks if "_buffer_" in str(c["check"])]
    assert all(any(str(i).startswith("assumes: the DSL's allocator places") for i in c["info"]) for c in buffers)


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_each_compiled_mistake_is_refuted(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    word, theorem = MISTAKES[name]
    spec = _import(tmp_path, DATA / name, capsys)
    code, checks = _prove(spec, capsys)
    assert code == ExitCode.WRONG
    refuted = [c for c in checks if c["verdict"] == "refuted"]
    assert any(word in str(c["check"]) and theorem in json.dumps(c) for c in refuted), refuted


def test_the_buffer_refutation_names_the_element_both_offsets_and_both_chains(tmp_path: Path,
                                                                            capsys: pytest.CaptureFixture[str]):
    spec = _import(tmp_path, DATA / "tile_reader_unswizzled.mlir", capsys)
    assert main(["prove", str(spec), "--allow-outside"]) == ExitCode.WRONG
    out = capsys.readouterr().out
    assert "the reader looks for every element (c0,c1) at the byte the writer stored it" in out
    assert "writer address - base" in out and "reader address - base" in out
    assert "the pointer's swizzle, on the byte address" in out and "agreement" in out


def test_what_is_not_checked_is_listed_with_its_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["import-dsl", str(TILE), "-o", str(tmp_path / "t.yaml")]) == ExitCode.OK
    err = capsys.readouterr().err.splitlines()
    listed = [line for line in err if line.startswith(str(TILE) + ":")]
    assert listed and all(line.count(":") >= 4 for line in listed)            # file:line:column: what: why
    assert "things not checked" in err[-1]
    assert "# not checked:" in (tmp_path / "t.yaml").read_text(encoding="utf-8")


def test_a_copy_partitioned_by_two_tiled_copies_moves_coordinates(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]):
    spec = _import(tmp_path, DATA / "tile_a_copy_partitions_mixed.mlir", capsys)
    text = spec.read_text(encoding="utf-8")
    assert "reads each tile through %arg3" in text and "source coordinate c of a tile lands at" in text
    clean = _import(tmp_path, TILE, capsys).read_text(encoding="utf-8")
    assert "source coordinate c of a tile lands at" not in clean


def test_records_read_from_the_tile_kernel():
    result = import_files([TILE])
    (kernel,) = result.kernels
    operands = [r for r in kernel.records if isinstance(r, OperandRecord)]
    assert sorted(r.operand for r in operands) == ["A", "B", "C"]
    a = next(r for r in operands if r.operand == "A")
    assert a.mma == "SM80_16x8x16_F32F16F16F32_TN" and a.copy == "SM75_U32x4_LDSM_N"
    assert a.smem.startswith("Sw<2,4,3> o smem_ptr[16b](unset) o ")
    buffers = [r for r in kernel.records if isinstance(r, BufferRecord)]
    assert sorted(b.name.rsplit("smem", 1)[1] for b in buffers) == ["0", "4096", "8192"]   # sA, sB, sC in a row
    assert all(b.align == 1024 for b in buffers)                               # the DSL's allocator places them
    assert not [r for r in kernel.records if isinstance(r, DescriptorRecord)]


TMA = DATA / "tma.mlir"                       # tests/dsl_tma_kernel.py: TMA fills A and B, wgmma reads them
A_GLOBAL, B_GLOBAL = "(64,64):(64,1)", "(64,64):(72,1)"     # its global tensors (B's rows padded)


def _descriptors(ir: Path) -> dict[str, DescriptorRecord]:
    (kernel,) = import_files([ir]).kernels
    return {r.operand: r for r in kernel.records if isinstance(r, DescriptorRecord)}


def test_each_tma_filled_operand_is_checked_against_its_own_tma(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """Each descriptor check names the global tensor of the TMA load that fills its operand's view, and the buffer
    checks pair each TMA with the descriptor that reads its view: every one verified."""
    found = _descriptors(TMA)
    assert (found["A"].gmem, found["B"].gmem) == (A_GLOBAL, B_GLOBAL)
    # each states the tensors its TMA atom's map and its partition's tiles are made from: one tensor (theorem 14)
    assert [(r.tensors.map_of, r.tensors.tiles_of) for r in (found["A"], found["B"]) if r.tensors is not None] == [
        ("host argument 0", "host argument 0"), ("host argument 1", "host argument 1")]
    code, checks = _prove(_import(tmp_path, TMA, capsys), capsys)
    # two descriptor checks, two buffer checks and the barrier's transaction check (theorem 41)
    assert code == ExitCode.OK and len(checks) == 5 and all(c["verdict"] == "verified" for c in checks)


def test_a_wgmma_of_a_size_the_library_does_not_write_is_built_by_its_family_and_checked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """tma_n96.mlir: the kernel on a 64x96 tile, its wgmma m64n96k16 (SM90_64x96x16_F32F16F16_SS, which the atom
    library does not write): the atom is built by its family's rule, so the descriptor checks are made and verified
    (without the rule they were listed as not checked, leaving only the two buffer checks)."""
    spec = _import(tmp_path, DATA / "tma_n96.mlir", capsys)
    text = spec.read_text(encoding="utf-8")
    assert '"SM90_64x96x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>":' in text
    assert "source: \"built by its family's rule" in text
    code, checks = _prove(spec, capsys)
    assert code == ExitCode.OK and all(c["verdict"] == "verified" for c in checks)
    assert sorted(str(c["check"]).rsplit("_kernel_", 1)[1] for c in checks) == [
        "A_tma_descriptor", "B_tma_descriptor", "buffer_f16_smem1024", "buffer_f16_smem9216", "transaction"]


def test_a_buffer_two_tma_loads_fill_gets_no_other_operand_s_tensor(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]):
    """tma_share_ab.mlir: A's and B's TMA loads fill views over the same bytes.  A's descriptor reads the view A's
    load fills (that load's tensor); B's reads a view of its own over those bytes, which both loads fill: which one
    fills it is not read, so B's descriptor check is listed as not checked, never given A's tensor."""
    ir = DATA / "tma_share_ab.mlir"
    found = _descriptors(ir)
    assert list(found) == ["A"] and found["A"].gmem == A_GLOBAL
    assert main(["import-dsl", str(ir), "-o", str(tmp_path / "s.yaml")]) == ExitCode.OK
    err = capsys.readouterr().err
    assert "operand B read through a descriptor: 2 TMA loads" in err and "which one fills this view is not read" in err


def test_a_partition_d_a_copy_reads_is_the_buffer_s_reader(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """tile_c_read_as_partition_d.mlir: the epilogue's copy out of sC takes its source from partition_D of its tiled
    copy (as a kernel reads scale tiles through a TMEM load's partition_D).  A partition is a writer or a reader by
    the side a copy takes it on, not by its name: the C buffer is checked, register store against that read."""
    spec = _import(tmp_path, DATA / "tile_c_read_as_partition_d.mlir", capsys)
    code, checks = _prove(spec, capsys)
    assert code == ExitCode.OK and len(checks) == 6 and all(c["verdict"] == "verified" for c in checks)
    assert "(partition_D 156, read by a copy that takes it as its source)" in spec.read_text(encoding="utf-8")


def test_views_of_4_bit_elements_end_where_their_bits_end():
    """Two views of one allocation side by side: 8192 int4 elements (4096 bytes), then a view at byte 4096.  They do
    not overlap: an element of fewer than 8 bits takes a fraction of a byte."""
    from verifier.dsl.cute_types import memref_of
    from verifier.dsl.flow import Allocation, Pointer, SharedView
    from verifier.dsl.kernel_checks import _same_buffer
    from verifier.dsl.mlir_text import Where
    where = Where("k.mlir", 1, 1, None)
    allocation = Allocation("%smem", 8192, 1024, 0, where)
    memref = memref_of('!cute.memref<i4, smem, align<16>, "(64,128):(128,1)">')

    def view(at: int) -> SharedView:
        return SharedView(f"%v{at}", Pointer(allocation, at, "i4", None), memref, where)
    assert not _same_buffer(view(0), view(4096))
    assert _same_buffer(view(0), view(4095))


def test_a_simt_kernel_on_universal_fma_is_verified(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """The SIMT kernel (a 16x16x1 tiled MMA of MmaUniversalOp, CuTe's UniversalFMA, fed by CopyUniversalOp): both
    operand paths are tiled checks on the library's UniversalFMA<float,float,float,float>, proved with the buffers."""
    (kernel,) = import_files([SIMT]).kernels
    operands = sorted((r for r in kernel.records if isinstance(r, OperandRecord)), key=lambda r: r.operand)
    assert [(r.operand, r.mma, r.copy, r.value_type, r.atom_layout) for r in operands] == [
        (op, "UniversalFMA<float,float,float,float>", "UniversalCopy<uint32_t>", "float", '"(16,16,1):(1,16,0)"')
        for op in "AB"]
    code, checks = _prove(_import(tmp_path, SIMT, capsys), capsys)
    assert code == ExitCode.OK and len(checks) == 4
    assert all(c["verdict"] == "verified" for c in checks)


# --- bad input: one line, exit 2 ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text, why", [
    ("module {\n  %0 = \n}\n", "expected an operation"),
    ("module {\n  cuda.kernel @k(%arg0: i32) {\n    %1 = arith.addi %2, %2 : i32\n  }\n}\n", "used before"),
    ("module {\n}\n", "no kernel"),
    ("module {\n  lir.func public @k(%arg0: !lir.tensor) {\n    %0 = lir.dot %arg0, %arg0\n  }\n}\n",
     "a kernel of the experimental CuTe DSL (its `lir` dialect"),
    ("!a = !cute.memref<!b>\n!b = !cute.memref<!a>\nmodule {\n  cuda.kernel @k(%arg0: !a) {\n  }\n}\n",
     "refers to itself"),
    ("\n".join(["!t0 = i8"] + [f"!t{i} = !cute.x<!t{i - 1}, !t{i - 1}>" for i in range(1, 30)])
     + "\nmodule {\n  cuda.kernel @k(%arg0: !t29) {\n  }\n}\n", "expands to more than"),
])
def test_unreadable_ir_is_one_line_and_exit_2(text: str, why: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]):
    bad = tmp_path / "bad.mlir"
    bad.write_text(text, encoding="utf-8")
    assert main(["import-dsl", str(bad)]) == ExitCode.BAD_INPUT
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and why in err[0] and f"{bad}:" in err[0] and "Traceback" not in err[0]


def test_a_binary_or_missing_file_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    binary = tmp_path / "x.mlir"
    binary.write_bytes(b"\x00\x01\x02")
    assert main(["import-dsl", str(binary)]) == ExitCode.BAD_INPUT
    assert main(["import-dsl", str(tmp_path / "none.mlir")]) == ExitCode.BAD_INPUT
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "not a text file" in err[0] and "no such file" in err[1]
    assert err[0].startswith(f"error: {binary}:1:1: ")


def test_a_kernel_with_nothing_to_check_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    ir = tmp_path / "empty.mlir"
    ir.write_text("module {\n  cuda.kernel @k(%arg0: i32) {\n    %0 = arith.addi %arg0, %arg0 : i32\n  }\n}\n",
                  encoding="utf-8")
    with pytest.raises(DslInputError):
        from verifier.dsl.importer import run
        from verifier.importer.kernel_spec import ATOM_LIBRARY
        run([ir], ATOM_LIBRARY, None)
    assert main(["import-dsl", str(ir)]) == ExitCode.BAD_INPUT
    assert "found no operand path or shared buffer" in capsys.readouterr().err


# --- the text readers ------------------------------------------------------------------------------------------

def test_regions_reuse_names_and_loops_carry_values():
    text = """
module {
  cuda.kernel @k(%arg0: i32) {
    %c0 = arith.constant 0 : i32
    %r:2 = scf.while (%a = %c0, %b = %arg0) : (i32, i32) -> (i32, i32) {
      %x = arith.addi %a, %b : i32
      scf.condition(%x) %a, %b : i32, i32
    } do {
    ^bb0(%a: i32, %b: i32):
      %x = arith.addi %a, %b : i32
      scf.yield %x, %b : i32, i32
    }
    %y = arith.addi %r#0, %r#1 : i32
  }
}
"""
    m = read_module(text, "t.mlir")
    (k,) = m.kernels()
    adds = [op for op in k.ops if op.name == "arith.addi"]
    assert len(adds) == 3
    first = adds[0].operands[0]
    assert m.bound[first].name == "%c0"                    # the while's argument starts as %c0


def test_tma_operations_outside_the_cute_dialect_are_listed_never_dropped():
    """A TMA copy issued as NVVM's own operation (a grouped kernel's hand-issued load), a tensor map rewritten at run
    time (`update_tma_desc`) and a block-scaled MMA's shared -> tensor-memory copy of its scale factors
    (`make_s2t_copy`, tcgen05.cp) are not traced: each is listed with its place and why."""
    from verifier.dsl.flow import read_flow
    text = """
module {
  cuda.kernel @k(%arg0: !llvm.ptr, %arg1: !llvm.ptr<3>, %arg2: i32) {
    nvvm.cp.async.bulk.tensor.shared.cluster.global %arg1, %arg0, %arg1, box[%arg2, %arg2] : !llvm.ptr<3>, !llvm.ptr
    cute_nvgpu.update_tma_desc(%arg0, %arg0) : (!llvm.ptr, !llvm.ptr) -> ()
    %0 = cute_nvgpu.atom.make_s2t_copy(%arg0, %arg0) : (!llvm.ptr, !llvm.ptr) -> !llvm.ptr
  }
}
"""
    m = read_module(text, "t.mlir")
    (k,) = m.kernels()
    listed = read_flow(m, k).skipped
    assert [(s.where.line, s.what.split(" (")[0]) for s in listed] == [
        (4, "a TMA copy issued as an NVVM operation"), (5, "a TMA atom's tensor map rewritten at run time"),
        (6, "a shared -> tensor-memory tiled copy")]
    assert [s.why.split(":")[0] for s in listed] == ["not read", "not read", "not checked"]


def test_a_syntax_error_names_file_line_and_column():
    with pytest.raises(IRSyntaxError) as e:
        read_module("module {\n  cuda.kernel @k(%arg0: i32) {\n    %0 = arith.addi %nope, %arg0 : i32\n", "f.mlir")
    assert str(e.value).startswith("f.mlir:3:")


def test_cute_types():
    m = memref_of('!cute.memref<f16, smem, align<16>, S<2,4,3>, "((8,16),(32,1)):((32,256),(1,0))">')
    assert (m.element, m.space, m.align, str(m.ptr_swizzle)) == ("f16", "smem", 16, "Sw<2,4,3>")
    c = memref_of('!cute.memref<f16, smem, align<16>, "S<3,3,4> o 0 o (8,128):(128,1)">')
    assert c.ptr_swizzle is None and "Sw<3,3,4>" in str(c.layout())
    assert ptr_of("!cute.ptr<f16, smem, align<1024>, S<3,4,3>>").align == 1024
    tc = tiled_copy_of('!cute.tiled_copy<!cute_nvgpu.atom.ldsm<val_type = f16, mode = <"(8,8)">, sz_pattern = u16, '
                       'num_matrices = 4, n>, layout_copy_tv = <"((4,8),8):((64,1),8)">, tiler_mn = <"[32:1;16:1]">>')
    assert tc.tiler == (32, 16) and tc.atom.param("num_matrices") == "4" and tc.atom.flag("n")
    mt = tiled_mma_of('!cute.tiled_mma<!cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, '
                      'f32), frag_kind = ss>, atom_layout_MNK = <"(1,1,1):(0,0,0)">, permutation_MNK = <"[_;_;_]">>')
    assert mt.atom.shape() == (64, 128, 16)
    assert tile_of("[(8,4,2):(1,16,8);32:1]")[1] == 32
    with pytest.raises(DynamicValue):
        layout_of("(?{div=8},64):(64,1)")
    with pytest.raises(TypeTextError):
        tiled_copy_of("!cute.layout<\"4:1\">")
    with pytest.raises(TypeTextError, match="no swizzle CuTe builds"):     # |S| <= B: was an AlgebraError, a crash
        memref_of('!cute.memref<f16, smem, align<16>, S<3,4,2>, "(64,32):(32,1)">')


def test_dynamic_integers_are_replaced_by_what_the_ir_knows():
    text, replaced = representative("(?{div=8},?{div=8},?):(?{i64 div=8},1,?{i64 div=64})")
    assert replaced
    shape, stride = text.split(":")
    assert shape == "(4096,4096,4096)"
    outer = int(stride.strip("()").split(",")[0])
    assert outer % 8 == 0 and (outer // 8) % 2 == 1       # divisible by 8, and by no larger power of two
    assert representative("(64,32):(32,1)") == ("(64,32):(32,1)", False)
    # a 64-bit stride of no stated divisibility (mark_layout_dynamic without one): the floor given, 16 bytes of the
    # TMA's elements, times an odd number
    text, replaced = representative("(?,?,?):(?{i64},1,?{i64})", 8)
    assert replaced and text == "(4096,4096,4096):(4104,1,4104)"


@pytest.mark.parametrize("seed", [7, 8, 9])
def test_mangled_ir_is_imported_or_refused_in_one_line_never_a_crash(seed: int, tmp_path: Path):
    """Random damage to the tile kernel's IR (cut lines, dropped or repeated lines, stray characters, other element
    types): import-dsl either writes a spec that loads or refuses with DslInputError; it never raises anything else
    (found: a `get_iter` left without its operand crashed the pointer walk)."""
    import random

    from verifier.importer.kernel_spec import ATOM_LIBRARY
    from verifier.dsl.importer import run
    from verifier.specfile import load_spec
    lines = TILE.read_text(encoding="utf-8").splitlines()
    rng = random.Random(seed)
    target = tmp_path / "damaged.mlir"
    for _ in range(50):
        damaged = list(lines)
        for _ in range(rng.randint(1, 4)):
            j, k = rng.randrange(len(damaged)), rng.randrange(5)
            if k == 0:
                damaged[j] = damaged[j][:rng.randrange(len(damaged[j]) + 1)]
            elif k == 1:
                del damaged[j]
            elif k == 2:
                damaged.insert(j, damaged[rng.randrange(len(damaged))])
            elif k == 3 and damaged[j]:
                p = rng.randrange(len(damaged[j]))
                damaged[j] = damaged[j][:p] + rng.choice('%<>(){}",:!?#@') + damaged[j][p:]
            else:
                damaged[j] = damaged[j].replace("f16", rng.choice(["bf16", "f32", "i8"]))
        target.write_text("\n".join(damaged), encoding="utf-8")
        try:
            text, _ = run([target], ATOM_LIBRARY, "damaged")
        except DslInputError:
            continue
        spec = tmp_path / "damaged.yaml"
        spec.write_text(text, encoding="utf-8")
        load_spec(spec, allow_outside=True)


def test_the_mma_partition_regrouping_touches_only_the_partition_form():
    """A Hopper (MN, K, PIPE) tile whose MN mode is nested is not a tcgen05 partition: left as given (regrouping it
    refuted every Hopper descriptor check once); ((MMA_MN, MMA_K), REST_MN, REST_K[, PIPE]) becomes (MN, K[, PIPE])."""
    from verifier.algebra.syntax import parse_layout
    from verifier.dsl.kernel_checks import mn_k_pipe
    hopper = parse_layout("((64,2),(8,8),(1,3)):((1,512),(64,1024),(0,8192))")
    assert mn_k_pipe(hopper) is hopper
    staged = parse_layout("((128,16),1,4,3):((64,1),0,16,8192)")
    assert mn_k_pipe(staged).plain() == "((128,1),(16,4),3):((64,0),(1,16),8192)"
    one_stage = parse_layout("((128,16),1,4):((64,1),0,16)")
    assert mn_k_pipe(one_stage) is one_stage
    assert mn_k_pipe(one_stage, pipe=False).plain() == "((128,1),(16,4)):((64,0),(1,16))"


GIVEN_TOO_FEW_VALUES = """\
version: 2
name: given_tiled_copy
include: [{atoms}/sm80_f16.yaml, {atoms}/sm75.yaml]
checks:
  b_load:
    mma: SM80_16x8x16_F32F16F16F32_TN
    atom_layout: "(2,2,1):(1,2,0)"
    permutation: [32, 16, 16]
    operand: B
    copy: SM75_U16x8_LDSM_T
    value_type: half_t{given}
    smem: "Sw<3,4,3> o smem_ptr[16b](unset) o ((64,2),(8,4)):((1,512),(64,1024))"
"""
# the tiled copy the CuTe DSL builds for Ampere's tensorop_gemm with its N permutation halved: 4 values a thread, where
# ldmatrix.x4.trans moves 8 (C++'s make_tiled_copy refuses it; the DSL compiles it and issues it)
GIVEN_COPY = '\n    tiled_copy: {layout_tv: "((4,8,2,2),((2,2),(1,1))):((32,1,0,8),((16,128),(0,0)))", tiler: [16, 16]}'


@pytest.mark.parametrize("given,verdict,exit_code", [
    (GIVEN_COPY, "unsupported", ExitCode.UNDECIDED),     # the DSL built it: CuTe C++'s rule is not the DSL's verdict
    ("", "refuted", ExitCode.WRONG),                     # CuTe C++ derives it from the MMA: its static_assert refuses
])
def test_a_tiled_copy_of_fewer_values_than_its_atom_is_refused_only_when_cute_cpp_builds_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], given: str, verdict: str, exit_code: ExitCode):
    spec = tmp_path / "given.yaml"
    atoms = (Path(__file__).resolve().parent.parent / "specs" / "atoms").as_posix()
    spec.write_text(GIVEN_TOO_FEW_VALUES.format(atoms=atoms, given=given), encoding="utf-8")
    code, checks = _prove(spec, capsys)
    assert code == exit_code and [c["verdict"] for c in checks] == [verdict], checks
    reasons = " ".join(str(i) for c in checks for t in c["theorems"] for i in (t.get("reason") or "",))
    assert "TiledCopy uses too few vals for selected CopyAtom" in reasons, checks


@pytest.mark.parametrize("atom_type,mode", [
    ('!cute_nvgpu.atom.tma_store<f16, copy_bits = 32768, mode = tiled, g_stride = <"()"> '
     'tma_gbasis = <"(64,32):(1@0,1@1)">>', 0),
    ('!cute_nvgpu.atom.tma_load<f16, tma_gbasis = <"((8,8),32):((1@1,8@1),1@0)">>', 1),
    ("!cute_nvgpu.atom.tma_load<f16>", None),
])
def test_a_tma_atom_s_dimension_0_is_its_basis_first_mode(atom_type: str, mode: int | None):
    """The global mode a TMA atom's dimension 0 runs along, which a buffer check proves contiguous (theorem 23)."""
    from verifier.dsl.kernel_checks import tma_dim0
    assert tma_dim0(atom_type) == mode


_BLOCK_SCALED = ("!cute_nvgpu.sm100.mma_bs<128x128x{k}, num_cta = {ctas}, ab_major = (k, k), "
                 "elem_type = ({a}, {b}, f32), sf_type = {sf}, frag_kind = ss, vec_size = {vs}>")


@pytest.mark.parametrize("k,ctas,a,b,sf,vs,name", [
    (64, 1, "f4E2M1FN", "f4E2M1FN", "f8E4M3FN", 16,
     "SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,128,16>"),        # nvfp4
    (64, 2, "f4E2M1FN", "f4E2M1FN", "f8E8M0FNU", 32,
     "SM100_MMA_MXF4_2x1SM_SS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,128,128,32>"),  # mxf4
    (32, 1, "f8E4M3FN", "f8E4M3FN", "f8E8M0FNU", 32,
     "SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,128,128>"),      # mxf8
    # .kind::mxf8f6f4 reads 4- and 6-bit operands a byte an element: CuTe's unpacked types (the mixed kernels of
    # dense_blockscaled_gemm_persistent)
    (32, 1, "f4E2M1FN", "f4E2M1FN", "f8E8M0FNU", 32,
     "SM100_MMA_MXF8F6F4_SS<float_e2m1_unpacksmem_t,float_e2m1_unpacksmem_t,float,float_ue8m0_t,128,128>"),
    (32, 1, "f8E4M3FN", "f4E2M1FN", "f8E8M0FNU", 32,
     "SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e2m1_unpacksmem_t,float,float_ue8m0_t,128,128>"),
    (32, 2, "f6E3M2FN", "f8E5M2", "f8E8M0FNU", 32,
     "SM100_MMA_MXF8F6F4_2x1SM_SS<float_e3m2_unpacksmem_t,float_e5m2_t,float,float_ue8m0_t,128,128>"),
    (32, 1, "f8E4M3FN", "f8E4M3FN", "f8E4M3FN", 16, None),       # an 8-bit atom with VS 16: no such instruction
    (32, 1, "f8E4M3FN", "f16", "f8E8M0FNU", 32, None),           # f16 is no operand of .kind::mxf8f6f4
])
def test_a_block_scaled_mma_atom_is_named_as_the_atom_library_names_it(k: int, ctas: int, a: str, b: str, sf: str,
                                                                        vs: int, name: str | None):
    """The DSL's block-scaled tcgen05 atom (`mma_bs`) by CuTe C++'s name, so that its operands' descriptor checks are
    written; a name the library has (specs/atoms/sm100_umma_blockscaled.yaml) or its family's rule builds, or
    none."""
    from verifier.cute.mma_families import family_atom
    from verifier.dsl.atom_names import Unnamed, mma_atom_name
    from verifier.dsl.cute_types import mma_atom_of
    got = mma_atom_name(mma_atom_of(_BLOCK_SCALED.format(k=k, ctas=ctas, a=a, b=b, sf=sf, vs=vs)))
    if name is None:
        assert isinstance(got, Unnamed), got
        return
    assert got == name
    library = (Path(__file__).resolve().parent.parent / "specs" / "atoms" / "sm100_umma_blockscaled.yaml").read_text()
    assert f'"{name}":' in library or family_atom(name) is not None


_UMMA = "!cute_nvgpu.sm100.mma<128x64x{k}, num_cta = 1, ab_major = (k, k), elem_type = ({a}, {b}, f32), frag_kind = ss>"


@pytest.mark.parametrize("k,a,b,name", [
    (16, "f16", "f16", "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,64>"),
    (32, "f8E4M3FN", "f8E5M2", "SM100_MMA_F8F6F4_SS<float_e4m3_t,float_e5m2_t,float,128,64>"),
    (32, "f8E4M3FN", "f4E2M1FN", "SM100_MMA_F8F6F4_SS<float_e4m3_t,float_e2m1_unpacksmem_t,float,128,64>"),
    (32, "f6E2M3FN", "f8E4M3FN", "SM100_MMA_F8F6F4_SS<float_e2m3_unpacksmem_t,float_e4m3_t,float,128,64>"),
    (32, "i8", "f16", None),                 # one kind reads both operands: s8 and f16 share none
])
def test_a_dense_tcgen05_atom_is_named_as_cute_names_it(k: int, a: str, b: str, name: str | None):
    """A dense tcgen05.mma atom by CuTe's name: the f8f6f4 kind's 4- and 6-bit operands by their unpacked types (a
    byte an element in shared memory), both operands of one kind (it was named by A's type alone)."""
    from verifier.cute.mma_families import family_atom
    from verifier.dsl.atom_names import Unnamed, mma_atom_name
    from verifier.dsl.cute_types import mma_atom_of
    got = mma_atom_name(mma_atom_of(_UMMA.format(k=k, a=a, b=b)))
    if name is None:
        assert isinstance(got, Unnamed), got
        return
    assert got == name and family_atom(name) is not None


_UNPACKING_TMA = ('!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, {element}, copy_bits = 65536, '
                  'tma_gbasis = <"(128,128,1):(1@1,1@0,1@2)">, tma_format = {format}>')


@pytest.mark.parametrize("element,fmt,view,tile,box", [
    ("f4E2M1FN", "U4_UNPACK_U8", "i8", "float_e2m1_unpacksmem_t", (128, 128)),   # unpacked: the box in elements
    ("f6E3M2FN", "U6_UNPACK_U8", "i8", "float_e3m2_unpacksmem_t", (128, 128)),
    ("f4E2M1FN", "U8", "i8", "int8_t", None),            # a byte copy into the byte view: the tile holds bytes
    ("f8E4M3FN", "U8", "f8E4M3FN", "float_e4m3_t", (128, 128)),
])
def test_a_byte_tile_a_tma_atom_unpacks_into_holds_the_unpacked_type(element: str, fmt: str, view: str, tile: str,
                                                                     box: tuple[int, int] | None):
    """The type a TMA-filled tile holds: a byte view a TMA atom unpacks 4- or 6-bit elements into (`tma_format =
    U4_UNPACK_U8`) holds CuTe's unpacked type, which .kind::f8f6f4 / mxf8f6f4 reads (the mixed block-scaled kernels'
    `i8` tile of e2m1); filled by a plain byte copy, it holds bytes (theorem 12 judges them against the MMA)."""
    from verifier.dsl.cute_types import memref_of
    from verifier.dsl.kernel_checks import check_units_box, tile_value_type, tma_box
    atom_type = _UNPACKING_TMA.format(element=element, format=fmt)
    memref = memref_of(f'!cute.memref<{view}, smem, align<1024>, "(128,128):(128,1)">')
    assert tile_value_type(memref, atom_type) == tile
    assert check_units_box(tma_box(atom_type), atom_type, memref) == box


def test_an_unpacking_tma_s_global_stride_is_a_multiple_of_32_bytes():
    """A TMA atom that unpacks 4-bit elements needs every global stride a multiple of 32 bytes (the ALIGN16B data
    types): the representative stride is an odd multiple of the least common multiple of that and the IR's stated
    divisibility (an odd multiple of 32 elements, 16 bytes, was refuted at theorem 13 as no run-time stride could
    be)."""
    from verifier.dsl.kernel_checks import representative
    text, replaced = representative("(?{div=32},?,?):(?,1,?{div=32})", 64, 64)
    stride = int(text.split(":")[1].strip("()").split(",")[0])
    assert replaced and stride % 64 == 0 and (stride // 64) % 2 == 1
    assert representative("(?{div=32},?,?):(?,1,?{div=32})", 32)[0].endswith("(4128,1,4128)")


_WGMMA = "!cute_nvgpu.sm90.mma<64x128x{k}, ab_major = ({ma}, {mb}), elem_type = ({a}, {a}, f32), frag_kind = ss>"


@pytest.mark.parametrize("k,a,majors,name", [
    (16, "f16", ("k", "mn"), "SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::MN>"),
    (32, "f8E4M3FN", ("k", "k"), "SM90_64x128x32_F32E4M3E4M3_SS_TN"),     # 8-bit: K-major only, named _TN
    (8, "tf32", ("k", "k"), "SM90_64x128x8_F32TF32TF32_SS_TN"),
    (32, "f8E4M3FN", ("k", "mn"), None),                                  # wgmma reads .e4m3 K-major only
])
def test_a_wgmma_atom_is_named_as_cute_names_it(k: int, a: str, majors: tuple[str, str], name: str | None):
    """CuTe names a wgmma atom of 16-bit operands with its majors and any other (8-bit, tf32) `_TN`: the DSL's
    fp8 atom named with majors was a name no atom has, so the fp8 kernels' descriptor checks went unwritten."""
    from verifier.dsl.atom_names import Unnamed, mma_atom_name
    from verifier.dsl.cute_types import mma_atom_of
    got = mma_atom_name(mma_atom_of(_WGMMA.format(k=k, ma=majors[0], mb=majors[1], a=a)))
    if name is None:
        assert isinstance(got, Unnamed) and "K-major only" in got.why, got
        return
    assert got == name


def test_a_spec_the_reader_writes_and_the_loader_refuses_is_an_internal_error(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch):
    """The readers load what they wrote back before handing it on: a check the loader refuses (here a value type of
    another width than its layout's, as the collective reader once wrote for example 72c's 4-bit B) is the reader's
    bug, ReaderBug (exit 4), never the user's bad input when they prove the spec; what they write correctly loads."""
    from verifier.dsl import importer
    from verifier.importer.kernel_spec import ATOM_LIBRARY
    from verifier.importer.loaded_back import ReaderBug, load_back
    written = importer.spec_text
    monkeypatch.setattr(importer, "spec_text", lambda *a, **k: written(*a, **k).replace(
        "value_type: half_t", "value_type: float_e2m1_t", 1))
    with pytest.raises(ReaderBug, match=r"import-dsl wrote a spec the spec loader refuses, at line \d+:\d+"):
        main(["import-dsl", str(TILE), "-o", str(tmp_path / "tile.yaml")])
    assert not (tmp_path / "tile.yaml").exists()
    monkeypatch.setattr(importer, "spec_text", written)
    text, _ = importer.run([TILE], ATOM_LIBRARY, None)
    load_back(text, "import-dsl")


@pytest.mark.parametrize("atom_type,box", [
    ('!cute_nvgpu.atom.tma_load<sm_90, f16, copy_bits = 65536, tma_gbasis = <"(64,64):(1@1,1@0)">>', (64, 64)),
    ('!cute_nvgpu.atom.tma_load<sm_90, f16, copy_bits = 256, tma_gbasis = <"(16,1):(1@1,1@0)">>', (16, 1)),
    ('!cute_nvgpu.atom.tma_load<f4E2M1FN, tma_gbasis = <"(128,128,1):(1@1,1@0,1@2)">>', (128, 128)),
    ('!cute_nvgpu.atom.tma_load<f16, tma_gbasis = <"((8,8),32):((1@1,8@1),1@0)">>', None),     # a scaled step
    ('!cute_nvgpu.atom.tma_load<f8E8M0FNU, tma_gbasis = <"((2,4,32),1,1,1):((1@1@0@1,1@1@0@0,1@0@0@0),1@1@0,'
     '1@1@1,1@1@2)">>', None),                                                                  # nested steps
    ("!cute_nvgpu.atom.tma_load<f16>", None),                                                   # no basis written
])
def test_a_tma_atom_s_own_box_is_read_from_its_basis(atom_type: str, box: tuple[int, int] | None):
    """The box the DSL's TMA atom copies (its tma_gbasis), which the descriptor check states (`tma_box`) rather than
    modelling the boxes from the layout the MMA reads; a basis of another form is not stated (an `assumes:`)."""
    from verifier.dsl.kernel_checks import tma_box
    assert tma_box(atom_type) == box


@pytest.mark.parametrize("atom_type,memref,box", [
    ('!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_90, f16, tma_gbasis = <"(64,192):(1@1,1@0)">>',
     '!cute.memref<f16, smem, align<1024>, S<3,4,3>, "((64,8),(64,1)):((64,1),(0,1))">', (64, 192)),
    # packed 4-bit: the check counts the tile in bytes along the contiguous mode
    ('!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_100_2sm, f4E2M1FN, tma_gbasis = <"(256,96,1):(1@1,1@0,1@2)">>',
     '!cute.memref<f4E2M1FN, smem, align<1024>, S<3,4,3>, "(96,256):(256,1)">', (128, 96)),
    # a byte view an unpacked 4-bit operand's TMA fills: other elements, not stated
    ('!cute_nvgpu.atom.non_exec_tiled_tma_load<sm_100, f4E2M1FN, tma_gbasis = <"(128,128,1):(1@1,1@0,1@2)">>',
     '!cute.memref<i8, smem, align<1024>, S<3,4,3>, "(128,128):(128,1)">', None),
])
def test_a_tma_box_is_stated_in_the_units_the_check_counts(atom_type: str, memref: str,
                                                           box: tuple[int, int] | None):
    from verifier.dsl.cute_types import memref_of
    from verifier.dsl.kernel_checks import check_units_box, tma_box
    assert check_units_box(tma_box(atom_type), atom_type, memref_of(memref)) == box


def test_a_tiled_copy_sliced_at_another_coordinate_than_tid_has_a_slice_check(tmp_path: Path,
                                                                            capsys: pytest.CaptureFixture[str]):
    """get_slice(tid % 128) on a 128-thread copy in a 128-thread block takes every slice at its own thread: the
    thread-slice check (theorem 37) is written and verified, the coordinate read back from the IR; get_slice(tid)
    writes none (each thread its own slice), and the other checks are the tile kernel's."""
    spec = _import(tmp_path, DATA / "tile_g2s_sliced_mod128.mlir", capsys)
    text = spec.read_text(encoding="utf-8")
    assert 'slice: {threads: 128, block: 128, coordinate: "tid % 128"}' in text
    code, checks = _prove(spec, capsys)
    assert code == ExitCode.OK and [c["verdict"] for c in checks] == ["verified"] * len(checks)
    assert sum("slice" in str(c["check"]) for c in checks) == 1
    plain = _import(tmp_path, TILE, capsys).read_text(encoding="utf-8")
    assert "slice:" not in plain


@pytest.mark.parametrize("ops,expected", [
    (["%0 = nvvm.read.ptx.sreg.tid.x : i32", "%c = cute.make_coord(%0) : (i32) -> !cute.coord<\"?\">"], "tid"),
    (["%0 = nvvm.read.ptx.sreg.tid.x : i32", "%c128 = arith.constant 128 : i32", "%1 = arith.subi %0, %c128 : i32",
      "%c = cute.make_coord(%1) : (i32) -> !cute.coord<\"?\">"], "tid - 128"),
    (["%0 = nvvm.read.ptx.sreg.laneid : i32", "%c = cute.make_coord(%0) : (i32) -> !cute.coord<\"?\">"],
     "tid % 32"),
    (["%c = cute.make_coord() : () -> !cute.coord<\"0\">"], "0"),
    (["%0 = nvvm.read.ptx.sreg.tid.x : i32", "%c2 = arith.constant 2 : i32", "%1 = arith.floordivsi %0, %c2 : i32",
      "%c = cute.make_coord(%1) : (i32) -> !cute.coord<\"?\">"], "floordiv(tid, 2)"),
    # threadIdx.y in a block of one dimension (its launch says so) is 0, blockDim.x the launch's
    (["%0 = nvvm.read.ptx.sreg.tid.y : i32", "%c = cute.make_coord(%0) : (i32) -> !cute.coord<\"?\">"], "0"),
    (["%0 = nvvm.read.ptx.sreg.tid.x : i32", "%1 = nvvm.read.ptx.sreg.tid.y : i32",
      "%2 = nvvm.read.ptx.sreg.ntid.x : i32", "%3 = arith.muli %1, %2 : i32", "%4 = arith.addi %0, %3 : i32",
      "%c32 = arith.constant 32 : i32", "%5 = arith.floordivsi %4, %c32 : i32",
      "%6 = cute_nvgpu.arch.make_warp_uniform(%5) : i32",
      "%c = cute.make_coord(%6) : (i32) -> !cute.coord<\"?\">"], "floordiv(tid, 32)"),
    (["%0 = nvvm.read.ptx.sreg.tid.x : i32", "%c3 = arith.constant 3 : i32", "%1 = arith.remui %0, %c3 : i32",
      "%c = cute.make_coord(%1) : (i32) -> !cute.coord<\"?\">"], None),     # unsigned: not read
])
def test_a_thread_coordinate_is_read_back_as_an_expression_of_tid(ops: list[str], expected: str | None):
    """The coordinate get_slice is handed, read from the IR's arithmetic on threadIdx.x (theorem 37's input); an
    operation the reader does not evaluate leaves it unread (the slice is then listed as not checked)."""
    from verifier.dsl.flow import read_flow
    from verifier.dsl.thread_coordinate import Untraced, coordinate_text
    from verifier.kinds.slice.coordinate import plain
    body = "\n".join("    " + op for op in ops)
    text = ("gpu.module @m {\n  gpu.func @k() kernel attributes {nvvm.reqntid = array<i32: 128, 1, 1>} {\n"
            f"{body}\n    gpu.return\n  }}\n}}\n")
    module = read_module(text, "t.mlir")
    kernel = module.kernels()[0]
    flow = read_flow(module, kernel)
    coord = next(v for op in kernel.ops if op.name == "cute.make_coord" for v in op.results)
    got = coordinate_text(flow, coord)
    if expected is None:
        assert isinstance(got, Untraced), got
    else:
        assert not isinstance(got, Untraced) and plain(got) == expected


def test_a_copy_run_by_the_second_warps_is_checked_for_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """Warps 4..7 of a 256-thread block copy the C tile out (under `if warp_idx >= 4`), sliced at tid - 128: the slice
    check states which threads run it (`runs:`, read from the condition) and is verified for them; the mainloop's
    copies, run by warps 0..3 at tid (the block's first threads, each its own slice), write none.  Sliced at tid
    instead, the same copy is refuted (MISTAKES): thread 128 takes slice 128, none of the copy's."""
    spec = _import(tmp_path, DATA / "tile_copy_out_second_warps.mlir", capsys)
    text = spec.read_text(encoding="utf-8")
    assert 'slice: {threads: 128, block: 256, coordinate: "tid - 128", runs: "floordiv(tid, 32) >= 4"}' in text
    assert text.count("slice:") == 1
    code, checks = _prove(spec, capsys)
    assert code == ExitCode.OK and [c["verdict"] for c in checks] == ["verified"] * len(checks)


RUNNING = """gpu.module @m {{
  gpu.func @k(%arg0: i32) kernel attributes {{nvvm.reqntid = array<i32: 256, 1, 1>}} {{
    %0 = nvvm.read.ptx.sreg.tid.x : i32
    %c4 = arith.constant 4 : i32
    %c32 = arith.constant 32 : i32
    %w = arith.floordivsi %0, %c32 : i32
    %f = arith.cmpi sge, %w, %c4 : i32
    %u = arith.cmpi eq, %arg0, %c4 : i32
{body}
    gpu.return
  }}
}}
"""


@pytest.mark.parametrize("body,expected", [
    ("    scf.if %f {\n      cute.copy(%arg0, %arg0, %arg0) : (i32, i32, i32)\n    }", "floordiv(tid, 32) >= 4"),
    ("    scf.if %f {\n    } else {\n      cute.copy(%arg0, %arg0, %arg0) : (i32, i32, i32)\n    }",
     "not (floordiv(tid, 32) >= 4)"),
    # a condition of a kernel argument is the same for every thread of the block: it says nothing of which run it
    ("    scf.if %u {\n      scf.if %f {\n        cute.copy(%arg0, %arg0, %arg0) : (i32, i32, i32)\n      }\n    }",
     "floordiv(tid, 32) >= 4"),
    ("    cute.copy(%arg0, %arg0, %arg0) : (i32, i32, i32)", None),
    # a loop's carried value may differ from thread to thread: the threads that run the copy are not read
    ("    %r = scf.for %i = %c4 to %c32 step %c4 iter_args(%a = %0) -> (i32) {\n"
     "      %g = arith.cmpi slt, %a, %c4 : i32\n      scf.if %g {\n"
     "        cute.copy(%arg0, %arg0, %arg0) : (i32, i32, i32)\n      }\n      scf.yield %a : i32\n    }", "unread"),
    # a loop whose trips depend on the thread (from tid): the threads that run the copy are not read either
    ("    scf.for %i = %0 to %c32 step %c4 {\n      scf.if %f {\n"
     "        cute.copy(%arg0, %arg0, %arg0) : (i32, i32, i32)\n      }\n    }", "unread bounds"),
    ("    scf.for %i = %c4 to %c32 step %c4 {\n      scf.if %f {\n"
     "        cute.copy(%arg0, %arg0, %arg0) : (i32, i32, i32)\n      }\n    }", "floordiv(tid, 32) >= 4"),
])
def test_the_threads_that_run_a_copy_are_read_from_the_conditions_around_it(body: str, expected: str | None):
    from verifier.dsl.flow import read_flow
    from verifier.dsl.thread_coordinate import Untraced, running_condition
    module = read_module(RUNNING.format(body=body), "t.mlir")
    kernel = module.kernels()[0]
    copy = next(op for op in kernel.ops if op.name == "cute.copy")
    got = running_condition(read_flow(module, kernel), copy)
    if expected is not None and expected.startswith("unread"):
        assert isinstance(got, Untraced) and "may depend on the thread" in got.why, got
        assert ("bounds" in got.why) == expected.endswith("bounds"), got
    else:
        assert got == expected, got


@pytest.mark.parametrize("atom, layout, says", [
    # the 64x64 tile of A split between 2 CTAs at the coordinate 0 in each, by a plain load: its own slice alone
    ("sm_90", "2:1", "no CTA takes slice 1"),
    # ... by a multicast load: both CTAs load slice 0 for both, slice 1 by none
    ("sm_90_multicast", "2:1", "CTAs 0 and 1 both take slice 0"),
])
def test_a_tma_tile_split_among_ctas_at_one_coordinate_is_refuted(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                   atom: str, layout: str, says: str):
    """A TMA partition splits its tile among the CTAs of its CTA layout, each loading the slice at its coordinate: a
    coordinate the same in every CTA (static), or a load that writes its own CTA alone (no multicast), leaves slices
    no CTA loads -- survey 7's b4_09 / b5_09 (A's multicast partitioned at the M coordinate, always 0), refuted at a
    CTA-slice check.  Our Hopper TMA kernel's A partition, its CTA layout and atom edited in the IR; unedited, its
    CTA layout is one CTA and no such check is written."""
    text = (DATA / "tma.mlir").read_text(encoding="utf-8")
    line = next(ln for ln in text.splitlines() if "tma_partition(%arg0," in ln)
    mutated = line.replace('!cute.layout<"1:0">', f'!cute.layout<"{layout}">').replace(
        "non_exec_tiled_tma_load<sm_90,", f"non_exec_tiled_tma_load<{atom},")
    assert mutated != line
    ir = tmp_path / "tma_split.mlir"
    ir.write_text(text.replace(line, mutated), encoding="utf-8")
    spec = _import(tmp_path, ir, capsys)
    assert 'slice: {threads: 2, block: ' in spec.read_text(encoding="utf-8")
    assert "unit: cta" in spec.read_text(encoding="utf-8")
    code = main(["prove", str(spec), "--allow-outside"])
    out = capsys.readouterr().out
    assert code == ExitCode.WRONG and "REFUTED (copy.thread_slice)" in out and says in out, out
    assert "unit: cta" not in _import(tmp_path, DATA / "tma.mlir", capsys).read_text(encoding="utf-8")


def test_a_copy_between_global_memory_and_registers_is_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """No check models a copy between global memory and registers alone (the tile kernel's copy of C out of its
    registers; fp16_gemm_6's dequantizing kernel, which had none other, was imported with nothing said: survey 7's
    b6_06): each kernel lists them once, at the first; copies through shared memory are not among them."""
    spec = tmp_path / "tile.yaml"
    assert main(["import-dsl", str(TILE), "-o", str(spec)]) == ExitCode.OK
    err = capsys.readouterr().err
    listed = [line for line in err.splitlines() if "cute.copy between global memory and registers" in line]
    assert len(listed) == 1 and listed[0].startswith(f"{TILE}:175:7: 1 cute.copy"), err


def test_the_threads_that_run_a_partition_s_copies_are_their_union():
    """A partition copied under each branch of a condition (warps 0..3 in one, 4..7 in the other) is moved by the
    threads of both: the check states their union; a copy every thread runs, or one whose conditions are not read,
    leaves the running threads unstated (the block search)."""
    from verifier.dsl.kernel_checks import _running_threads
    from verifier.dsl.thread_coordinate import Untraced
    from verifier.kinds.slice.coordinate import read_coordinate
    both, note = _running_threads(["floordiv(tid, 32) < 4", "not (floordiv(tid, 32) < 4)", "floordiv(tid, 32) < 4"])
    assert both == "(floordiv(tid, 32) < 4) or (not (floordiv(tid, 32) < 4))" and note == ""
    assert [t for t in range(256) if read_coordinate(both)(t)] == list(range(256))
    assert _running_threads(["floordiv(tid, 32) < 4", None]) == (None, "")
    runs, note = _running_threads(["tid < 4", Untraced("a loop's value")])
    assert runs is None and "a loop's value" in note


COMPOSED = """!m = !cute.memref<f16, smem, align<1024>, "(16,16):(16,1)">
!mt = !cute.memref<f16, smem, align<1024>, "(16,16):(1,16)">
gpu.module @m {
  gpu.func @k() kernel {
    %smem = cute.memref.alloca() : !m
    %lay = cute.make_layout() : () -> !cute.layout<"(16,16):(16,1)">
    %t = cute.composition(%smem, %lay) : (!m, !cute.layout<"(16,16):(16,1)">) -> !mt
    %same = cute.group_modes(%smem) <0, 1> : (!m) -> !m
    gpu.return
  }
}
"""


def test_a_view_composed_with_a_layout_names_other_coordinates():
    """A transposed view made by composition (flash attention's sVt = sV o T, read by ldmatrix.trans) names the
    tile's elements at other coordinates than the view its writer fills: it is not paired with that writer as the
    same coordinates of the same bytes (Ampere flash_attention_v2 at 256 threads, a square 128x128 V tile: its
    buffer check was refuted at element (0,1), the writer's (s, d) read as (d, s)); a view regrouped over the same
    coordinates still is."""
    from verifier.dsl.flow import read_flow
    from verifier.dsl.kernel_checks import _same_buffer
    module = read_module(COMPOSED, "t.mlir")
    kernel = module.kernels()[0]
    flow = read_flow(module, kernel)
    view = {str(op.results[0]): flow.view(op.results[0]) for op in kernel.ops if op.results}
    smem, transposed, regrouped = view["%smem"], view["%t"], view["%same"]
    assert transposed.recomposed and not smem.recomposed and not regrouped.recomposed
    assert not _same_buffer(smem, transposed) and _same_buffer(smem, regrouped)


@pytest.mark.parametrize("name", ["tmem.mlir", "tmem_one_view.mlir"])
def test_a_staged_tmem_accumulator_s_stages_are_stated_and_the_same_on_both_sides(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """Our SM100 kernel (tests/dsl_tmem_kernel.py): tile t's MMAs write accumulator stage t % 2 and the epilogue's
    tcgen05.ld reads it, each from its own view of the TMEM address or both from one; the stages each side takes are
    stated on the TMEM check and proved the same (theorem 38)."""
    spec = _import(tmp_path, DATA / name, capsys)
    code, checks = _prove(spec, capsys)
    assert code == ExitCode.OK and all(c["verdict"] == "verified" for c in checks), checks
    text = spec.read_text(encoding="utf-8")
    assert text.count("accumulator_stages: {mma: [0, 1], load: [0, 1], mma_wait_offsets: [0], "
                      "load_wait_offsets: [0]}") == 1, text
    assert "MMA: a counter modulo 2" in text and "load: a counter modulo 2" in text
    assert 'tmem_view: {layout: "((128,64),1,1,2):((65536,1),0,0,64)", column: 0, stages: [0, 1]}' in text
    tmem = next(c for c in checks if "tmem_load" in str(c["check"]))
    assert "tmem.accumulator_stages" in json.dumps(tmem)


def test_tmem_stages_of_a_form_the_reader_does_not_follow_are_not_stated(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]):
    """The same kernel with its stage computed as t & 1 (the same stages, a form the reader does not read): no
    stages are stated, the description says why, and the TMEM check has no theorem 38 (no claim is made)."""
    ir = tmp_path / "tmem_and_1.mlir"
    text = (DATA / "tmem.mlir").read_text(encoding="utf-8")
    assert text.count("%16 = arith.remsi %arg9, %c2_i32 : i32") == 1
    ir.write_text(text.replace("%16 = arith.remsi %arg9, %c2_i32 : i32", "%16 = arith.andi %arg9, %c1_i32 : i32"),
                  encoding="utf-8")
    spec = _import(tmp_path, ir, capsys)
    written = spec.read_text(encoding="utf-8")
    assert "accumulator_stages:" not in written
    assert "no accumulator stages stated (the stage index of the slice at" in written
    code, checks = _prove(spec, capsys)
    assert code == ExitCode.OK and "tmem.accumulator_stages" not in json.dumps(checks)


def test_a_tensor_memory_store_beside_the_accumulator_is_placed_apart(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]):
    """The same kernel with a tcgen05.st of a tile of its own into tensor memory (as block-scaled kernels copy their
    scale factors there): at columns 128.. it is apart from the accumulator's 0..127, and the stages are stated and
    proved; at columns 64.., over stage 1, the MMAs are not the accumulator's only writers and nothing is stated."""
    apart = _import(tmp_path, DATA / "tmem_store_apart.mlir", capsys).read_text(encoding="utf-8")
    assert "accumulator_stages: {mma: [0, 1], load: [0, 1], mma_wait_offsets: [0], load_wait_offsets: [0]}" in apart
    assert 'tmem_view: {layout: "(128,64):(65536,1)", column: 128}' in apart      # the store's tile, where it lies
    spec = _import(tmp_path, DATA / "tmem_store_over.mlir", capsys)
    over = spec.read_text(encoding="utf-8")
    assert "accumulator_stages:" not in over
    assert "no accumulator stages stated (a tcgen05.st or tcgen05.cp writes tensor memory this reader does not " \
        "place apart from the accumulator" in over
    code, checks = _prove(spec, capsys)
    assert code == ExitCode.OK and "tmem.accumulator_stages" not in json.dumps(checks)


def test_tmem_stages_of_views_apart_are_numbered_by_their_columns(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]):
    """The MMAs and the epilogue each take their own view of the accumulator: where the views lie apart (the
    epilogue's 64 columns on) or differ (the MMAs' of one stage), both sides' stages are numbered by the column each
    starts at, so a stage one side takes and the other does not is refuted."""
    spec = _import(tmp_path, DATA / "tmem_epi_offset_64.mlir", capsys)
    text = spec.read_text(encoding="utf-8")
    assert "accumulator_stages: {mma: [0, 1], load: [1, 2]" in text
    assert "stages numbered by the column each starts at (0 at 0, 1 at 64, 2 at 128)" in text
    one = _import(tmp_path, DATA / "tmem_mma_view_one_stage.mlir", capsys).read_text(encoding="utf-8")
    assert "accumulator_stages: {mma: [0], load: [0, 1]" in one


def test_the_allocated_columns_are_stated_where_every_allocation_agrees(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]):
    """A kernel that allocates tensor memory twice (a kernel inlined in two branches) states the columns where both
    allocate one count, and says why none is stated where they differ."""
    text = (DATA / "tmem.mlir").read_text(encoding="utf-8")
    alloc = "cute_nvgpu.arch.sm100.alloc_tmem(%c128_i32, %iter_4) [ cta_1] : i32, !cute.ptr<i32, smem, align<8>>"
    assert text.count(alloc) == 1
    for other, said in (("%c128_i32", "tmem_columns: 128"), ("%c2_i32", "the columns allocated are not stated "
                                                                          "(its tcgen05.alloc calls allocate [2, "
                                                                          "128] columns)")):
        ir = tmp_path / f"twice_{other[2:]}.mlir"
        ir.write_text(text.replace(alloc, alloc + "\n        " + alloc.replace("%c128_i32", other)),
                      encoding="utf-8")
        assert said in _import(tmp_path, ir, capsys).read_text(encoding="utf-8")


def test_the_tmem_stage_refutations_name_the_stage_and_the_side(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]):
    for name, said, side in (
            ("tmem_mma_stage0.mlir", "the MMAs write stage 0, the load reads stages 0, 1: stage 1 read and never "
                                     "written", "the MMAs slice"),
            ("tmem_load_stage0.mlir", "the MMAs write stages 0, 1, the load reads stage 0: stage 1 written and "
                                      "never read", "the TMEM load slices")):
        spec = _import(tmp_path, DATA / name, capsys)
        assert main(["prove", str(spec), "--allow-outside"]) == ExitCode.WRONG
        out = capsys.readouterr().out
        assert said in out and f"suspect: the stage indices {side} the staged accumulator at" in out, out
        assert "a static stage index 0" in spec.read_text(encoding="utf-8")
    for name, key, side in (("tmem_load_next.mlir", "load_wait_offsets", "the TMEM loads"),
                            ("tmem_mma_next.mlir", "mma_wait_offsets", "the MMAs")):
        spec = _import(tmp_path, DATA / name, capsys)
        text = spec.read_text(encoding="utf-8")
        assert f"{key}: [1]" in text and "accumulator_stages: {mma: [0, 1], load: [0, 1]" in text, text
        assert "takes the stage 1 past the one whose barrier was waited on at line" in text
        assert main(["prove", str(spec), "--allow-outside"]) == ExitCode.WRONG
        out = capsys.readouterr().out
        assert "take the stage 1 past the one whose barrier their thread waited on" in out
        assert "a barrier's stage is not the same on both sides" in out
        assert f"suspect: the stage {side} slice the accumulator at, against the barrier" in out, out


def test_an_ldmatrix_of_the_other_operands_tile_is_refuted(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """Our tile kernel's A ldmatrix edited to partition sB's view (sA and sB of one layout): the tiled check states the
    memory the copy's view and the fragment's view start in (`tiles:`) and theorem 7 refutes it; as compiled, each
    operand's copy reads the allocation its fragment was made from."""
    text = TILE.read_text(encoding="utf-8")
    spec = _import(tmp_path, TILE, capsys)
    assert 'tiles: {copied_from: "the shared allocation at line 51", fragment_of: "the shared allocation at line 51"}' \
        in spec.read_text(encoding="utf-8")
    old = "%src_partitioned_36 = cute.tiled.copy.partition_S(%1, %view_35, %coord)"
    assert old in text
    ir = tmp_path / "a_reads_b.mlir"
    ir.write_text(text.replace(old, old.replace("%view_35", "%view_7")), encoding="utf-8")
    code, checks = _prove(_import(tmp_path, ir, capsys), capsys)
    assert code == ExitCode.WRONG
    [a] = [c for c in checks if "_A_ldsm" in str(c["check"])]
    assert a["verdict"] == "refuted" and "the copy reads the shared allocation at line 55" in json.dumps(a), a


def test_a_two_stage_index_reversed_is_read_as_the_next_stage(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """1 - s of a stage s that cycles through 0 and 1 is (s + 1) mod 2: the epilogue reading stage 1 - s after
    waiting on stage s's barrier takes the stage past it (refuted, MISTAKES); both sides taking 1 - s rename the two
    stages alike, verified.  Before, `1 - s` was a form the reader did not follow and theorem 38 was not stated."""
    spec = _import(tmp_path, DATA / "tmem_load_reversed.mlir", capsys)
    text = spec.read_text(encoding="utf-8")
    assert "load_wait_offsets: [1]" in text and "1 minus a counter modulo 2" in text, text
    spec = _import(tmp_path, DATA / "tmem_both_reversed.mlir", capsys)
    assert "mma_wait_offsets: [1], load_wait_offsets: [1]" in spec.read_text(encoding="utf-8")
    assert main(["prove", str(spec), "--allow-outside"]) == ExitCode.OK


def test_a_staged_mainloop_s_stages_are_stated_and_the_same_on_both_sides(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]):
    """Our TMA kernel with a 2-stage mainloop (k-tile k into stage k % 2): each buffer's TMA load and the tensor
    core's descriptors are the only sides of their views, so the stages each takes are stated (the counter modulo 2
    on both) and verified the same; with the wgmmas reading stage 0 only, stage 1 is filled and never read."""
    spec = _import(tmp_path, DATA / "tma_staged.mlir", capsys)
    code, checks = _prove(spec, capsys)
    assert code == ExitCode.OK and all(c["verdict"] == "verified" for c in checks)
    text = spec.read_text(encoding="utf-8")
    assert text.count("stage_indices: [0, 1]") == 4, text            # writer and reader of sA and of sB
    assert "a counter modulo 2" in text and "the writer takes stages 0, 1 (a counter modulo 2" in text
    spec = _import(tmp_path, DATA / "tma_staged_mma_stage0.mlir", capsys)
    assert main(["prove", str(spec), "--allow-outside"]) == ExitCode.WRONG
    out = capsys.readouterr().out
    assert out.count("the writer fills stages 0, 1, the reader reads stage 0: stage 1 filled and never read") == 2
    assert "a static stage index 0" in spec.read_text(encoding="utf-8")


def test_a_tma_partition_is_named_with_the_tensors_of_its_map_and_of_its_tiles(tmp_path: Path,
                                                                              capsys: pytest.CaptureFixture[str]):
    """Our TMA kernel: each TMA side states the host argument its atom's tensor map was made from and the one whose
    tile coordinates its partition takes -- one tensor (A: argument 0, B: argument 1), or, with A's partition taking
    B's tile, argument 0's map at argument 1's tiles (refuted).  A coordinate tensor no TMA atom's maker made (an
    identity tensor, as block-scaled kernels build for their scale factors) is not compared."""
    from verifier.dsl.flow import Role, read_flow
    from verifier.dsl.mlir_text import read_module
    from verifier.dsl.tma_tensors import tma_tensors
    spec = _import(tmp_path, DATA / "tma.mlir", capsys)
    text = spec.read_text(encoding="utf-8")
    assert 'tma_map_of: "host argument 0", tma_tiles_of: "host argument 0"' in text
    assert 'tma_map_of: "host argument 1", tma_tiles_of: "host argument 1"' in text
    spec = _import(tmp_path, DATA / "tma_a_tiles_of_b.mlir", capsys)
    assert 'tma_map_of: "host argument 0", tma_tiles_of: "host argument 1"' in spec.read_text(encoding="utf-8")
    assert main(["prove", str(spec), "--allow-outside"]) == ExitCode.WRONG
    out = capsys.readouterr().out
    assert "its tensor map is made from host argument 0, the tiles its partition takes are host argument 1's" in out
    # A's descriptor check states them too (theorem 14), so it holds where the buffer check is not written
    assert "A_tma_descriptor  REFUTED (tma.placement)" in out
    ir = (DATA / "tma.mlir").read_text(encoding="utf-8")
    maker = next(line for line in ir.splitlines() if "%tma_tensor_4 = " in line)
    identity = ('    %ident = cute.make_identity_tensor(%2) : (!cute.layout<"(64,64):(1@0,1@1)">) -> '
                '!cute.coord_tensor<"(0,0)", "(64,64):(1@0,1@1)">')
    launch = next(line for line in ir.splitlines() if "cuda.launch_ex" in line)
    ir = ir.replace(maker, maker + "\n" + identity).replace(launch, launch.replace("%tma_tensor_4,", "%ident,"))
    module = read_module(ir, "identity.mlir")
    flow = read_flow(module, module.kernels()[0])
    found = [tma_tensors(flow, p) for p in flow.partitions if p.role is Role.TMA]
    assert len(found) == 2 and found[0] is not None and found[1] is None, found


def test_an_mma_operand_loaded_from_a_tensor_the_kernel_stores_is_refuted(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]):
    """Our TMA kernel storing A's tile by TMA: to a fourth tensor D, each of A's and B's loads (read by the tensor core)
    states the tensor the store writes (host argument 3), and every check is verified; over B's own tensor, B's load
    reads a tensor the kernel's TMA store writes (refuted).  The store's own buffer (A's load, the store) states
    nothing: its reader is no MMA."""
    spec = _import(tmp_path, DATA / "tma_store_a_d.mlir", capsys)
    text = spec.read_text(encoding="utf-8")
    assert text.count('tma_stores_write: ["host argument 3"]') == 2, text
    code, checks = _prove(spec, capsys)
    assert code == ExitCode.OK and len(checks) == 6 and all(c["verdict"] == "verified" for c in checks)
    spec = _import(tmp_path, DATA / "tma_store_a_b.mlir", capsys)
    assert spec.read_text(encoding="utf-8").count('tma_stores_write: ["host argument 1"]') == 2
    assert main(["prove", str(spec), "--allow-outside"]) == ExitCode.WRONG
    out = capsys.readouterr().out
    assert out.count("REFUTED") == 1 and "its tensor map is made from host argument 1, which the kernel's TMA " \
        "stores write" in out, out


def test_an_mma_s_a_and_b_tiles_taken_at_one_coordinate_are_refuted(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]):
    """Our TMA kernel on a 2x2 grid: CTA (x, y) takes A's M tile at block x and B's N tile at block y -- each load
    states its values and the other operand's (%17 and %18, the block indices), verified -- or A's at y as well, both
    operands' tiles at one value (refuted on both loads).  On one CTA (every tile at the constant 0) nothing is
    stated."""
    spec = _import(tmp_path, DATA / "tma_tiles_grid.mlir", capsys)
    text = spec.read_text(encoding="utf-8")
    assert 'mn_tile_at: ["%17 (line 66)"], other_mn_tile_at: ["%18 (line 67)"]' in text
    assert 'mn_tile_at: ["%18 (line 67)"], other_mn_tile_at: ["%17 (line 66)"]' in text
    code, checks = _prove(spec, capsys)
    assert code == ExitCode.OK and all(c["verdict"] == "verified" for c in checks)
    spec = _import(tmp_path, DATA / "tma_tiles_a_at_n.mlir", capsys)
    assert spec.read_text(encoding="utf-8").count('mn_tile_at: ["%18 (line 67)"], other_mn_tile_at: '
                                                  '["%18 (line 67)"]') == 2
    assert main(["prove", str(spec), "--allow-outside"]) == ExitCode.WRONG
    out = capsys.readouterr().out
    assert out.count("the other operand's are both taken at %18 (line 67)") == 2, out
    assert "mn_tile_at" not in _import(tmp_path, DATA / "tma.mlir", capsys).read_text(encoding="utf-8")


def test_operands_read_by_ldmatrix_state_their_tiles_as_descriptors_do(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]):
    """Our TMA kernel with mma.sync in place of wgmma (`mma=sync`): ldmatrix copies fill A's and B's register
    fragments from the TMA-written tiles, and the buffer's reader is the MMA operand the copy fills, so each TMA load
    states its tile coordinates against the other operand's as a descriptor-read one does: verified on the 2x2 grid,
    refuted where A's M tile is taken at y, and where A's ldmatrix reads B's tile (both operands B's tiles at y)."""
    spec = _import(tmp_path, DATA / "tma_ldsm_grid.mlir", capsys)
    text = spec.read_text(encoding="utf-8")
    assert 'mn_tile_at: ["%17 (line 81)"], other_mn_tile_at: ["%18 (line 82)"]' in text
    assert 'mn_tile_at: ["%18 (line 82)"], other_mn_tile_at: ["%17 (line 81)"]' in text
    code, checks = _prove(spec, capsys)
    assert code == ExitCode.OK and all(c["verdict"] == "verified" for c in checks) and len(checks) == 5
    spec = _import(tmp_path, DATA / "tma_ldsm_a_at_n.mlir", capsys)
    assert main(["prove", str(spec), "--allow-outside"]) == ExitCode.WRONG
    assert capsys.readouterr().out.count("the other operand's are both taken at %18 (line 82)") == 2
    spec = _import(tmp_path, DATA / "tma_ldsm_a_reads_b.mlir", capsys)
    assert spec.read_text(encoding="utf-8").count('mn_tile_at: ["%18 (line 82)"], other_mn_tile_at: '
                                                  '["%18 (line 82)"]') == 2
    one = _import(tmp_path, DATA / "tma_ldsm.mlir", capsys)
    assert "mn_tile_at" not in one.read_text(encoding="utf-8")
    code, checks = _prove(one, capsys)
    assert code == ExitCode.OK and all(c["verdict"] == "verified" for c in checks)


def test_a_slice_one_stage_past_the_barrier_it_waited_on_is_refuted(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]):
    """Our TMA kernel's 2-stage mainloop: TMA fills stage k % 2 and the wgmmas wait on its barrier, then read stage
    k % 2 (each side's slices state offset 0 from the barrier waited on) -- or (k + 1) % 2, which takes the same
    stages (theorem 23's stage sets agree) one step early: refuted with the slices and the wait named; or stage 0
    in the first k-block only, the others k % 2: a fixed stage right after the wait, refuted."""
    spec = _import(tmp_path, DATA / "tma_staged.mlir", capsys)
    assert spec.read_text(encoding="utf-8").count("wait_offsets: [0]") == 4        # TMA and descriptor, sA and sB
    spec = _import(tmp_path, DATA / "tma_staged_mma_stage_next.mlir", capsys)
    text = spec.read_text(encoding="utf-8")
    assert text.count("wait_offsets: [0]") == 2 and text.count("wait_offsets: [1]") == 2, text
    assert text.count("stage_indices: [0, 1]") == 4
    assert "of the reader's 4 slices linked to barrier waits, the slice at line " in text
    assert "takes the stage 1 past the one whose barrier was waited on at line " in text
    assert main(["prove", str(spec), "--allow-outside"]) == ExitCode.WRONG
    out = capsys.readouterr().out
    assert out.count("the writer's and the reader's slices take the same stage of the barrier their thread waited "
                     "on") == 2, out
    assert out.count("the reader's slices take the stage 1 past the one whose barrier their thread waited on: a "
                     "barrier's stage is not the same on both sides") == 2
    spec = _import(tmp_path, DATA / "tma_staged_mma_first_zero.mlir", capsys)
    text = spec.read_text(encoding="utf-8")
    assert text.count("fixed_after_wait: [0]") == 2 and text.count("stage_indices: [0, 1]") == 4, text
    assert "takes stage 0 after the barrier of a cycling stage was waited on at line " in text
    assert main(["prove", str(spec), "--allow-outside"]) == ExitCode.WRONG
    assert capsys.readouterr().out.count("a slice takes stage 0 right after its pipeline waited on the barrier of a "
                                         "cycling stage") == 2


def test_a_buffer_nothing_writes_is_said_so_only_where_every_shared_write_is_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """tma_a_fills_b.mlir: A's TMA fills sB, so the sA wgmma reads through its descriptor has no writer; every
    operation on the kernel's shared allocation is one whose writes the reader knows (the TMA loads', the
    barriers'), none reaching sA's bytes: a buffer check of sA with `unwritten`, refuted.  The same kernel with one
    operation on shared memory the reader does not know (an mbarrier operation under another name): whether
    anything writes sA is not known, so sA's reader is listed as not checked, with that reason, and nothing is
    refuted."""
    ir = DATA / "tma_a_fills_b.mlir"
    spec = _import(tmp_path, ir, capsys)
    text = spec.read_text(encoding="utf-8")
    assert "unwritten: \"the kernel's" in text and "none writes bytes [1024, 9216)" in text
    assert "nvvm.mbarrier.init" in text and "cute.copy's barrier" in text  # the allocation's writes, named
    assert '    mma: "SM90_64x64x16_F32F16F16_SS' in text                   # the reader's atom: the MMA's descriptor
    code, checks = _prove(spec, capsys)
    assert code == ExitCode.WRONG
    assert [c["check"] for c in checks if c["verdict"] == "refuted"] == [
        "tma_wgmma_kernel_buffer_f16_smem1024_unwritten"]
    unknown = tmp_path / "unknown_op.mlir"
    unknown.write_text(ir.read_text(encoding="utf-8").replace("nvvm.mbarrier.init ", "nvvm.mbarrier.init.unmodelled ",
                                                              1), encoding="utf-8")
    assert main(["import-dsl", str(unknown), "-o", str(tmp_path / "u.yaml")]) == ExitCode.OK
    err = capsys.readouterr().err
    assert "no writer of the same coordinates in this kernel (whether anything writes its bytes is not known" in err
    assert "nvvm.mbarrier.init.unmodelled takes shared memory; what it writes there is not read" in err
    assert "unwritten" not in (tmp_path / "u.yaml").read_text(encoding="utf-8")
    # a TMA atom given a shared value in another field than its barrier: what the copy does with it is not read
    other = tmp_path / "other_field.mlir"
    other.write_text(ir.read_text(encoding="utf-8").replace("set_value<tma_bar>", "set_value<tma_descriptor_ptr>"),
                     encoding="utf-8")
    assert main(["import-dsl", str(other), "-o", str(tmp_path / "o.yaml")]) == ExitCode.OK
    assert "gives an atom a shared value other than its TMA barrier" in capsys.readouterr().err
    assert "unwritten" not in (tmp_path / "o.yaml").read_text(encoding="utf-8")


def test_no_correct_fixture_has_a_buffer_nothing_writes():
    for ir in (TMA, TILE, SIMT, DATA / "tma_staged.mlir", DATA / "tma_ldsm_grid.mlir", DATA / "tmem.mlir",
               DATA / "tma_share_ab.mlir", DATA / "tma_store_a_d.mlir"):
        records = [r for k in import_files([ir]).kernels for r in k.records]
        assert not [r for r in records if isinstance(r, BufferRecord) and r.writer is None], ir


def test_a_barrier_at_a_run_time_stage_is_bounded_by_its_struct_field(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]):
    """tma_staged_a_fills_b.mlir: the pipeline's barrier of stage k % 2 is written at an offset known only at run
    time: somewhere in the struct field of the barriers (bytes [0, 16)), so sA's bytes are still unwritten.  The same
    IR without the struct's fields: the barrier may be anywhere from the array's start to the allocation's end, over
    sA's bytes, so nothing is said unwritten."""
    ir = DATA / "tma_staged_a_fills_b.mlir"
    text = _import(tmp_path, ir, capsys).read_text(encoding="utf-8")
    assert "(at an offset known at run time)" in text and "bytes [0, 16)" in text and "unwritten:" in text
    import re
    unfielded = tmp_path / "no_fields.mlir"
    unfielded.write_text(re.sub(r", smem\.struct_fields = \[[^\]]*\]", "", ir.read_text(encoding="utf-8")),
                         encoding="utf-8")
    assert "struct_fields" not in unfielded.read_text(encoding="utf-8")
    spec = _import(tmp_path, unfielded, capsys)
    assert "unwritten" not in spec.read_text(encoding="utf-8")


def test_the_tensor_map_is_the_copies_atom_s(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """TMA reads through the tensor map of the atom a copy takes.  tma.mlir with A's partition made with B's atom
    while its copy still takes A's (A's map at A's coordinates, B's boxes of the same shape: harmless): A's descriptor
    check names A's tensor on both sides, verified.  Its copy taking B's atom over A's own partition: B's map at A's
    coordinates, refuted at theorem 14."""
    from verifier.dsl.flow import Role, read_flow
    from verifier.dsl.mlir_text import read_module
    from verifier.dsl.tma_tensors import copying_atom
    ir = (DATA / "tma.mlir").read_text(encoding="utf-8")
    partition_b = ir.replace("cute_nvgpu.atom.tma_partition(%arg0,", "cute_nvgpu.atom.tma_partition(%arg2,", 1)
    copy_b = ir.replace("cute_nvgpu.atom.make_exec_tma(%arg0)", "cute_nvgpu.atom.make_exec_tma(%arg2)", 1)
    assert partition_b != ir and copy_b != ir
    for text, atoms in ((ir, ["%arg0", "%arg2"]), (partition_b, ["%arg0", "%arg2"]), (copy_b, ["%arg2", "%arg2"])):
        module = read_module(text, "t.mlir")
        flow = read_flow(module, module.kernels()[0])
        assert [str(copying_atom(flow, p)) for p in flow.partitions if p.role is Role.TMA] == atoms
    for name, text, verdict in (("partition_b", partition_b, ExitCode.OK), ("copy_b", copy_b, ExitCode.WRONG)):
        path = tmp_path / f"{name}.mlir"
        path.write_text(text, encoding="utf-8")
        spec = _import(tmp_path, path, capsys)
        a = spec.read_text(encoding="utf-8").split("tma_wgmma_kernel_A_tma_descriptor:")[1].split("\n  tma_")[0]
        want = '"host argument 0"' if name == "partition_b" else '"host argument 1"'
        assert f"tma_tensors: {{map_of: {want}, tiles_of: \"host argument 0\"}}" in a, a
        code, checks = _prove(spec, capsys)
        assert code == verdict, checks


EPILOGUES = ("tma_epilogue_elements.mlir", "tma_epilogue_views.mlir", "tma_epilogue_wait_1.mlir")


@pytest.mark.parametrize("name", EPILOGUES)
def test_an_epilogue_stored_subtile_by_subtile_is_verified(name: str, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]):
    """Our kernel's CUTLASS-style epilogue (registers element by element, or as views at an offset, converted and
    stored by stmatrix into a 2-stage shared subtile, each TMA-stored to its place): one subtile check, whose stores
    the reader read from the IR, verified by theorem 39; nothing listed."""
    spec = tmp_path / "e.yaml"
    assert main(["import-dsl", str(DATA / name), "-o", str(spec)]) == ExitCode.OK
    assert "things not checked" not in capsys.readouterr().err.split("import-dsl:")[0]
    text = spec.read_text(encoding="utf-8")
    assert "- {at: [0, 0], registers: [0, 1, 2, 3, 4, 5, 6, 7]}" in text
    assert "- {at: [0, 48], registers: [24, 25, 26, 27, 28, 29, 30, 31]}" in text
    code, checks = _prove(spec, capsys)
    assert code == ExitCode.OK
    [subtiles] = [c for c in checks if "_C_subtiles" in str(c["check"])]
    assert subtiles["verdict"] == "verified" and "epilogue.subtiles" in json.dumps(subtiles)
    # the stores' pipeline: two stages, each store fenced after its copy; one store left reading at most (wait_1)
    pending = 1 if "wait_1" in name else 0
    assert (f"pipeline: {{stages: [0, 1, 0, 1], fenced: [true, true, true, true], "
            f"pending: [{pending}, {pending}, {pending}, {pending}], pending_at_start: []}}") in text
    assert "epilogue.store_pipeline" in json.dumps(subtiles)


@pytest.mark.parametrize("name, want", [
    ("elementwise.mlir", ["{tile: [16, 256], thread_values: \"((32,4),(8,4)):((128,4),(16,1))\"}",
                          "- [[0, 0], [1, 0]]", "- [[0, 31], [1, 31]]"]),
    ("elementwise_slice.mlir", ["output: {tile: [1, 128]}", "- [[0, 127]]"]),
    ("elementwise_compose.mlir", ["{tile: [16, 256], thread_values: \"((32,4),(8,4)):((128,4),(16,1))\"}",
                                  "every side's rest mode is composed with !cute.tile<\\\"[_;(2,4):(4,1)]\\\">"]),
])
def test_an_elementwise_kernel_is_read_and_verified(name: str, want: list[str], tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]):
    """Our C = A + B (each side partitioned by its tiled copy at the thread, one block a tile), D = Q * s (a thread a
    tile, autovec_copy in, `.store()` out) and C = A * B tiled as CUTLASS's elementwise_apply (tiles remapped on the
    host, each composed with the (thr, val) layout and sliced at the thread): one element-wise check each, what every
    output value is computed from read lane by lane, verified; the copies and partitions it reads are not listed."""
    spec = tmp_path / "e.yaml"
    assert main(["import-dsl", str(DATA / name), "-o", str(spec)]) == ExitCode.OK
    listed = capsys.readouterr().err.split("import-dsl:")[0]
    assert "global memory and registers" not in listed and "partition of a global" not in listed, listed
    text = spec.read_text(encoding="utf-8")
    assert "elementwise:\n      shape: [64, " in text and all(w in text for w in want), text
    code, checks = _prove(spec, capsys)
    assert code == ExitCode.OK and [c["verdict"] for c in checks] == ["verified"]


def test_a_register_element_past_its_tensor_is_listed_not_an_internal_error(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]):
    text = (DATA / "elementwise_slice.mlir").read_text(encoding="utf-8")
    old = 'cute.make_coord() : () -> !cute.coord<"5">'
    assert old in text
    ir = tmp_path / "edited.mlir"
    ir.write_text(text.replace(old, 'cute.make_coord() : () -> !cute.coord<"500">', 1), encoding="utf-8")
    main(["import-dsl", str(ir), "-o", str(tmp_path / "e.yaml")])
    err = capsys.readouterr().err
    assert "element 500 of a register tensor of 128" in err and "Traceback" not in err, err


def test_sides_sliced_at_one_permuted_thread_are_paired_alike(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """Every side's tiled copy sliced at tid ^ 1 (one value): the threads trade whole slices, and the element-wise
    check is verified (the thread-slice check, which cannot tell, is unsupported); with B's alone at tid ^ 1 the
    check states each side's slice (`thread: "(tid ^ 1)"`) and is refuted (MISTAKES)."""
    spec = tmp_path / "e.yaml"
    assert main(["import-dsl", str(DATA / "elementwise_all_xor1.mlir"), "-o", str(spec)]) == ExitCode.OK
    capsys.readouterr()
    code, checks = _prove(spec, capsys)
    verdicts = {str(c["check"]).rsplit("_", 2)[-1]: c["verdict"] for c in checks}
    assert verdicts["elementwise"] == "verified" and code == ExitCode.UNDECIDED, verdicts
    assert main(["import-dsl", str(DATA / "elementwise_b_xor1.mlir"), "-o", str(spec)]) == ExitCode.OK
    capsys.readouterr()
    assert 'thread: "(tid ^ 1)"}' in spec.read_text(encoding="utf-8")


@pytest.mark.parametrize("old, new, why", [
    # every output value adds B's value 0: a broadcast of one value
    ("%5 = arith.addf %3, %4 : vector<32xf16>",
     "%b0 = vector.extract %4[0] : f16 from vector<32xf16>\n      %5 = arith.addf %3, %b0 : vector<32xf16>",
     "value 0 of input 1 feeds the output's values 0 and 1 (a broadcast, not element-wise)"),
    # the sum made by an operation of another dialect
    ("%5 = arith.addf %3, %4 : vector<32xf16>", "%5 = llvm.fadd %3, %4 : vector<32xf16>",
     "value 0 of the output is made through an operation this reader does not follow"),
    # B's copy into the registers A's copy filled: B's are never loaded, and A's overwritten
    ("cute.copy(%atom, %grouped_22, %grouped_25)", "cute.copy(%atom, %grouped_22, %grouped_18)",
     "value 0 of the output is computed from a register nothing wrote"),
])
def test_an_elementwise_kernel_the_reader_cannot_follow_is_listed_with_the_reason(
        old: str, new: str, why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    text = (DATA / "elementwise.mlir").read_text(encoding="utf-8")
    assert old in text
    ir = tmp_path / "edited.mlir"
    ir.write_text(text.replace(old, new, 1), encoding="utf-8")
    spec = tmp_path / "e.yaml"
    main(["import-dsl", str(ir), "-o", str(spec)])
    err = capsys.readouterr().err
    assert "read as an element-wise computation: not read" in err and why in err, err


def test_a_tma_partition_copied_with_another_atom_counts_the_copies_boxes_and_is_not_modelled_as_either(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """A's tile partitioned with B's atom (32x64 boxes of 4096 bytes) and copied with A's (64x64, 8192 bytes): the
    transaction check counts the two boxes the partition cuts, each getting A's box (16384 bytes, refuted against the
    12288 armed), and the descriptor and buffer checks of A, which would model the fill by one of the two atoms, are
    listed with why."""
    spec = tmp_path / "p.yaml"
    assert main(["import-dsl", str(DATA / "tma_n32_a_partition_b.mlir"), "-o", str(spec)]) == ExitCode.OK
    err = capsys.readouterr().err
    why = ("was made with the atom %arg2 (boxes of 32768 bits, (64,32):(1@1,1@0)) and its copies take %arg0 (boxes "
           "of 65536 bits, (64,64):(1@1,1@0))")
    assert f"operand A read through a descriptor: the TMA partition (line 81) {why}" in err
    assert f"the shared buffer of the TMA load: the TMA partition (line 81) {why}" in err
    text = spec.read_text(encoding="utf-8")
    assert "A_tma_descriptor" not in text and "B_tma_descriptor" in text
    assert "- {bytes: 16384, ctas: 1, by: " in text and "2 boxes of its atom's 4096 bytes, each copied by an atom " \
                                                        "of 8192 bytes" in text
    code, checks = _prove(spec, capsys)
    assert code == ExitCode.WRONG
    assert {c["check"]: c["verdict"] for c in checks} == {
        "tma_wgmma_kernel_B_tma_descriptor": "verified", "tma_wgmma_kernel_buffer_f16_smem9216": "verified",
        "tma_wgmma_kernel_transaction": "refuted"}


def test_an_epilogue_store_of_a_stage_its_copy_did_not_write_puts_the_last_copy_into_that_stage(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """Subtile 2's TMA store edited to read stage 1 (its copy wrote stage 0): it puts subtile 1's elements, which
    subtile 1's copy left there, at subtile 2's place -- the stores' stages are stated and theorem 39 refutes it."""
    ir = _edited_epilogue(tmp_path, '%coord_88 = cute.make_coord() : () -> !cute.coord<"(_,0)">',
                          '%coord_88 = cute.make_coord() : () -> !cute.coord<"(_,1)">', 1)
    spec = tmp_path / "e.yaml"
    assert main(["import-dsl", str(ir), "-o", str(spec)]) == ExitCode.OK
    assert "things not checked" not in capsys.readouterr().err.split("import-dsl:")[0]
    text = spec.read_text(encoding="utf-8")
    assert "- {at: [0, 32], registers: [16, 17, 18, 19, 20, 21, 22, 23], write: 0, read: 1}" in text
    assert "pending_at_start: [], reads: [0, 1, 1, 1]}" in text
    code, checks = _prove(spec, capsys)
    assert code == ExitCode.WRONG
    [subtiles] = [c for c in checks if "_C_subtiles" in str(c["check"])]
    assert subtiles["verdict"] == "refuted"
    assert "subtile 2's store reads the stage subtile 1's copy wrote" in json.dumps(subtiles)


def _edited_epilogue(tmp_path: Path, old: str, new: str, occurrence: int) -> Path:
    """tma_epilogue_views.mlir with the `occurrence`-th (from 0) `old` written `new`."""
    text = (DATA / "tma_epilogue_views.mlir").read_text(encoding="utf-8")
    parts = text.split(old)
    assert len(parts) > occurrence + 1
    edited = old.join(parts[:occurrence + 1]) + new + old.join(parts[occurrence + 1:])
    ir = tmp_path / "edited.mlir"
    ir.write_text(edited, encoding="utf-8")
    return ir


@pytest.mark.parametrize("old, new, occurrence, why", [
    # subtile 1's conversion through an operation the reader does not run lane by lane
    ("arith.truncf %26 :", "llvm.fptrunc %26 :", 0, "made through an operation this reader does not follow"),
    # subtile 2's TMA store reads the stage at a run-time index, its copy wrote static stage 0
    ('%coord_88 = cute.make_coord() : () -> !cute.coord<"(_,0)">',
     '%coord_88 = cute.make_coord(%c1_i32) : (i32) -> !cute.coord<"(_,?)">', 1,
     "reads the stage index %c1_i32, the copy wrote stage 0, and which stage holds which subtile is not read: the "
     "subtiles take static and run-time stages together"),
])
def test_an_epilogue_the_reader_cannot_follow_is_listed_with_the_reason(
        old: str, new: str, occurrence: int, why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    ir = _edited_epilogue(tmp_path, old, new, occurrence)
    spec = tmp_path / "e.yaml"
    assert main(["import-dsl", str(ir), "-o", str(spec)]) == ExitCode.OK
    err = capsys.readouterr().err
    assert "is an epilogue subtile of the tiled MMA's 64x64 C tile; its subtiles are not read" in err and why in err
    assert "_C_subtiles" not in spec.read_text(encoding="utf-8")


@pytest.mark.parametrize("name, armed", [("tma.mlir", 16384), ("tma_staged.mlir", 16384)])
def test_a_barrier_armed_for_its_loads_tiles_is_verified(name: str, armed: int, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]):
    """Our TMA kernel's barrier (one, or one a stage of the 2-stage pipeline, armed in the loop that loads): a
    transaction check whose loads are A's and B's 8 KB tiles, verified by theorem 41."""
    spec = tmp_path / "t.yaml"
    assert main(["import-dsl", str(DATA / name), "-o", str(spec)]) == ExitCode.OK
    capsys.readouterr()
    text = spec.read_text(encoding="utf-8")
    assert f"armed: {armed}" in text and text.count("- {bytes: 8192, ctas: 1, by: ") == 2
    code, checks = _prove(spec, capsys)
    assert code == ExitCode.OK
    [tx] = [c for c in checks if "_transaction" in str(c["check"])]
    assert tx["verdict"] == "verified" and "tma.transaction_bytes" in json.dumps(tx)
