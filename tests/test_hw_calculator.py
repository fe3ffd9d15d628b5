"""`python -m verifier hw`: the hardware calculator of DESIGN.md answers from the validated models, refuses what
the driver or the hardware refuses, and `hw -` answers every line."""
import json
import subprocess
import sys
from pathlib import Path

from hw_tables import tables
from verifier.commands.hw import hw_main

ROOT = Path(__file__).parent.parent


def hw(*argv, stdin=None):
    return subprocess.run([sys.executable, "-m", "verifier", "hw", *argv], capture_output=True, text=True, cwd=ROOT,
                          input=stdin)


def query(capsys, *argv):
    code = hw_main(list(argv))
    return code, capsys.readouterr()


def test_tma_writes_match_a_captured_placement(capsys):
    p = next(p for t in tables("tma")["tables"] if t["id"] == "place_uint16_128B" for p in t["placements"]
             if p["box"] == [64, 5] and p["start"] == [0, 0] and p["dst_offset"] == 128)
    code, out = query(capsys, "tma", "--elem-bytes", "2", "--box", "64,5", "--swizzle", "128B",
                      "--dst", str(p["window_addr"] + 128), "--global-dim", "131,20", "--global-stride", "288",
                      "--json")
    ans = json.loads(out.out)
    assert code == 0 and ans["tx_bytes"] == 640
    first = {(r, c, b): a - p["window_addr"] for a, r, c, b in ans["writes"]}
    assert first[(0, 0, 0)] == 144 and first[(0, 8, 0)] == 128      # chunk 0 and 1 of row 0 swapped


def test_tma_out_of_bounds_bytes_have_row_and_col_minus_one(capsys):
    code, out = query(capsys, "tma", "--elem-bytes", "4", "--box", "8,2", "--dst", "1024", "--start=-4,0",
                      "--global-dim", "8,8", "--json")
    writes = json.loads(out.out)["writes"]
    assert code == 0 and len(writes) == 64
    assert all(w[1] == w[2] == -1 for w in writes[:16]) and writes[16][1:] == [0, 0, 0]


def test_tma_refusals_name_the_rule(capsys):
    for argv, words in ((["--box", "128,1", "--swizzle", "64B", "--dst", "1024"], "exceeds the 64B swizzle span"),
                        (["--box", "8,1", "--dst", "1040"], "not 128-byte aligned"),
                        (["--box", "8,1", "--dst", "1024", "--start", "3,0"], "illegal instruction"),
                        (["--box", "8,257", "--dst", "1024"], "boxDim[1]")):
        code, out = query(capsys, "tma", "--elem-bytes", "2", *argv, "--json")
        assert code == 0 and words in json.loads(out.out)["refused"], argv


def test_tma_store_answers_a_captured_store_byte_for_byte(capsys):
    """`hw tma --store`: every global byte the H200 wrote, the shared byte it came from, and the box elements past
    the tensor's end listed as untouched."""
    s = next(s for t in tables("tma_store")["tables"] if t["id"] == "store_uint32_128B_past_end" for s in t["stores"]
             if s["box"] == [32, 5])
    code, out = query(capsys, "tma", "--store", "--elem-bytes", "4", "--box", "32,5", "--swizzle", "128B",
                      "--dst", str(s["window_addr"]), "--start", ",".join(map(str, s["start"])),
                      "--global-dim", ",".join(map(str, s["global_dim"])), "--global-stride", str(s["global_stride"]),
                      "--json")
    ans = json.loads(out.out)
    seen = {off + i: v + i * dv - 1 for off, v, length, dv in s["runs"] for i in range(length)}
    assert code == 0 and {o: src - s["window_addr"] for o, _, _, _, src in ans["stores"]} == seen
    row_end = -(-s["global_dim"][0] * 4 // 16) * 16               # a row's bytes up to its next 16-byte boundary
    assert ans["untouched"] and all(r >= s["global_dim"][1] or c * 4 >= row_end for r, c in ans["untouched"])


def test_tma_store_refusals_and_what_it_does_not_model(capsys):
    for argv, key, words in ((["--start=-4,0"], "refused", "traps"), (["--start=0,-1"], "refused", "traps"),
                             (["--dst", "1040"], "refused", "aligned"),
                             (["--element-strides", "1,2"], "unsupported", "not captured"),
                             (["--start", "3,0"], "unsupported", "not captured")):
        code, out = query(capsys, "tma", "--store", "--elem-bytes", "2", "--box", "8,2",
                          *(argv if "--dst" in argv else [*argv, "--dst", "1024"]), "--json")
        assert words in json.loads(out.out)[key], argv
        assert code == (3 if key == "unsupported" else 0)
    code, out = query(capsys, "tma", "--store", "--elem-bytes", "2", "--box", "8,2", "--dst", "0",
                      "--oob-fill", "nan")
    assert code == 2 and "a store writes no fill" in out.err
    code, out = query(capsys, "tma", "--store", "--elem-bytes", "2", "--box", "8,2", "--dst", "0", "--multicast", "3",
                      "--cluster", "2")
    assert code == 2 and "are a load's" in out.err


def test_tma_element_strides_answer_a_captured_strided_load(capsys):
    p = next(p for t in tables("tma_store")["tables"] if t["id"] == "strided_float16_128B" for p in t["placements"]
             if p["element_strides"] == [2, 3] or (p["element_strides"] == [1, 3] and p["start"] == [0, 0]))
    code, out = query(capsys, "tma", "--elem-bytes", "2", "--box", ",".join(map(str, p["box"])), "--swizzle", "128B",
                      "--element-strides", ",".join(map(str, p["element_strides"])), "--dst", str(p["window_addr"]),
                      "--global-dim", ",".join(map(str, p["global_dim"])), "--global-stride", str(p["global_stride"]),
                      "--json")
    ans = json.loads(out.out)
    seen = {off + i: v + i * dv - 1 for off, v, length, dv in p["runs"] for i in range(length)}
    got = {a - p["window_addr"]: r * p["global_stride"] + c * 2 + b for a, r, c, b in ans["writes"]}
    assert code == 0 and got == seen and ans["tx_bytes"] == len(seen) == 32 * 2 * 2


def test_tma_multicast_answers_which_cta_receives_which_bytes(capsys):
    m = next(m for t in tables("tma_store")["tables"] if t["id"] == "multicast_cluster4" for m in t["loads"]
             if m["mask"] == 10 and m["swizzle"] == "128B" and m["issuer"] == 0)
    code, out = query(capsys, "tma", "--elem-bytes", "2", "--box", "64,8", "--swizzle", "128B", "--dst", "1024",
                      "--global-dim", "160,24", "--global-stride", "320", "--multicast", "0b1010", "--cluster", "4",
                      "--json")
    ans = json.loads(out.out)
    assert code == 0 and [c["rank"] for c in ans["ctas"]] == [1, 3] and ans["untouched_ctas"] == [0, 2]
    cta1 = next(c for c in m["ctas"] if c["rank"] == 1)
    seen = {off + i: v + i * dv - 1 for off, v, length, dv in cta1["runs"] for i in range(length)}
    assert {a - 1024: r * 320 + c * 2 + b for a, r, c, b in ans["ctas"][0]["writes"]} == seen
    code, out = query(capsys, "tma", "--elem-bytes", "2", "--box", "8,1", "--dst", "0", "--multicast", "0x10",
                      "--cluster", "4", "--json")
    assert "outside the cluster of 4" in json.loads(out.out)["refused"]
    code, out = query(capsys, "tma", "--elem-bytes", "2", "--box", "8,1", "--dst", "0", "--multicast", "3")
    assert code == 2 and "go together" in out.err


def test_wgmma_reads_match_a_captured_probe(capsys):
    probe = next(pr["probe"] for t in tables("gmma_desc")["tables"] for pr in t["probes"]
                 if pr["id"] == "SsF16T1_MN_64B_lbo1024_sbo512_base0_start0")
    code, out = query(capsys, "wgmma", "--instruction", "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16",
                      "--operand", "A", "--major", "MN", "--desc", probe["descriptor"], "--json")
    reads = {(m, k): a - probe["window_addr"] for m, k, a in json.loads(out.out)["reads"]}
    assert code == 0 and reads == {(m, k): off for m, k, off in probe["reads"]}


def test_wgmma_refuses_mn_major_for_8_bit_types(capsys):
    code, out = query(capsys, "wgmma", "--instruction", "wgmma.mma_async.sync.aligned.m64n16k32.f32.e4m3.e4m3",
                      "--operand", "B", "--major", "MN", "--desc", "0x40", "--json")
    assert code == 0 and "MN-major" in json.loads(out.out)["refused"]


def test_banks_answers_a_captured_pattern(capsys):
    """hw banks gives the wavefronts Nsight Compute counted for a captured pattern, in DESIGN.md's form."""
    doc = tables("banks")
    p = next(p for p in doc["patterns"] if p["id"] == "ldsm_x4/sm80_a_unswizzled")
    addrs = ",".join(str(doc["buffer_shared_address"] + o) for o in p["offsets"])
    code, out = query(capsys, "banks", "--instruction", p["instruction"], "--addresses", addrs, "--json")
    ans = json.loads(out.out)
    assert code == 0 and ans["wavefronts"] == p["counters"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"]
    assert ans["ideal"] == 4 and ans["phases"][0]["conflicting_lanes"] == list(range(8))
    code, out = query(capsys, "banks", "--instruction", p["instruction"], "--addresses", addrs)
    assert code == 0 and out.out.startswith("wavefronts 32 (ideal 4)") and "bank 0 holds 8 words" in out.out


def test_banks_declines_cp_async_and_refuses_bad_addresses(capsys):
    code, out = query(capsys, "banks", "--instruction", "cp.async.cg.shared.global", "--addresses",
                      ",".join(["0"] * 32), "--json")
    assert code == 3 and "cp.async" in json.loads(out.out)["unsupported"]
    code, out = query(capsys, "banks", "--instruction", "ld.shared.b32", "--addresses", "0,4,8", "--json")
    assert code == 2 and "32 addresses" in out.err and out.err.count("\n") == 1


def test_bad_queries_are_exit_2_with_one_line(capsys):
    code, out = query(capsys, "tma", "--box", "8")
    assert code == 2 and out.err.count("\n") == 1 and "Traceback" not in out.err


def test_batch_answers_every_line():
    good = "tma --elem-bytes 1 --box 16,2 --dst 1024 --json"
    lines = [good, "wgmma --operand A", "'unbalanced", "hw " + good, "x" * 5000, "banks --instruction a --addresses 1",
             "-", good.replace("--json", "")] * 25
    p = hw("-", stdin="\n".join(lines) + "\n")
    out = p.stdout.splitlines()
    assert p.returncode == 2 and len(out) == len(lines) and "Traceback" not in p.stderr
    answers = [json.loads(x) for x in out]
    assert sum("error" in a for a in answers) == 5 * 25 and sum("writes" in a for a in answers) == 3 * 25
