"""Compare a capture of tools/gpu/capture_tma_im2col.cu (tma_im2col.json) with the im2col model of
verifier/hardware/tma_im2col.py, written from the documentation before any capture.

    python tools/gpu/compare_tma_im2col.py OUTDIR/tma_im2col.json[.gz]

prints one line per disagreement (none: the model reproduces the capture) and exits 1 when there is one; notes on what
the model leaves open (a filter base outside the bounding box, interleaved layouts) go to stderr with the counts.

What is compared:
- every encode the capture tried (the encode_rules_im2col table and every placement's): the driver's CUresult is
  0 exactly when encode_refusal_im2col accepts the parameters;
- every placement the driver encoded and the model lets run: the window bytes it wrote, byte for byte (the global
  byte each came from, or the fill byte), against placement_im2col; the transaction: with expect_tx equal to the
  model's count the mbarrier completes, with any other count it does not;
- a placement the model refuses at run time (channel start off 16 bytes, a misaligned destination) must have failed
  (its job in failed_at_run_time), and a job that failed must hold only such placements.
"""
from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from verifier.hardware.tma import NAN_FILL_UNIT, TmaSwizzle  # noqa: E402
from verifier.hardware.tma_im2col import (Im2colMap, Im2colUnmodelled, base_outside_box,  # noqa: E402
                                          copy_refusal_im2col, encode_refusal_im2col, global_offset_im2col,
                                          placement_elements, tx_bytes_im2col)

Observed = dict[int, Any]        # window offset -> global byte offset, or ("fill", byte)
PASSES = 2                       # base-256 digits of a global byte's index + 1 (tools/gpu/tma_common.h)
SHOWN = 4                        # differing bytes listed in one disagreement line


def placement_map(p: dict[str, Any]) -> Im2colMap:
    """A captured placement's tensor map (the .cu's field names)."""
    return Im2colMap(p["dtype"], tuple(p["global_dim"]), tuple(p["global_strides"]), tuple(p["lower_corner"]),
                     tuple(p["upper_corner"]), p["channels_per_pixel"], p["pixels_per_column"],
                     tuple(p["element_strides"]), TmaSwizzle(p["swizzle"]), p["oob_fill"] == "nan")


def observed(p: dict[str, Any]) -> Observed:
    """Window offset -> global byte offset, or ('fill', byte) for a byte no global byte went to."""
    out: Observed = {}
    for off, v, length, dv in p["runs"]:
        for i in range(length):
            value = v + i * dv
            out[off + i] = value - 1 if 1 <= value <= p["global_bytes"] else ("fill", value & 0xFF)
    return out


def modelled(t: Im2colMap, p: dict[str, Any]) -> Observed:
    """Window offset -> global byte offset (or ('fill', byte)) as the model places the placement's copy."""
    window = p["window_addr"]
    e = t.elem_bytes
    fill = [NAN_FILL_UNIT[b % 2] if t.oob_nan else 0 for b in range(e)]
    out: Observed = {}
    for w in placement_elements(t, tuple(p["start"]), tuple(p["offsets"]), window + p["dst_offset"]):
        off = w.addr - window
        if w.coord is None:
            for b in range(e):
                out[off + b] = ("fill", fill[b])
        else:
            g = global_offset_im2col(t, w.coord)
            for b in range(e):
                out[off + b] = g + b
    return out


def runs_of(values: Observed) -> list[list[int]]:
    """The capture's run-length encoding ([offset, v, length, dv]) of window offset -> value (v: global byte + 1,
    or the fill byte), as tools/gpu/tma_common.h's written_runs makes it."""
    def value(x: Any) -> int:      # a fill byte reads the same in every pass: one digit each
        return sum(int(x[1]) << (8 * d) for d in range(PASSES)) if isinstance(x, tuple) else int(x) + 1
    runs: list[list[int]] = []
    offsets = sorted(values)
    i = 0
    while i < len(offsets):
        off, v0 = offsets[i], value(values[offsets[i]])
        length, dv = 1, 0
        if i + 1 < len(offsets) and offsets[i + 1] == off + 1:
            dv = value(values[offsets[i + 1]]) - v0
        while i + length < len(offsets) and offsets[i + length] == off + length \
                and value(values[offsets[i + length]]) == v0 + dv * length:
            length += 1
        runs.append([off, v0, length, dv])
        i += length
    return runs


def _where(p: dict[str, Any]) -> str:
    return (f"rank {p['rank']} {p['dtype']} {p['swizzle']} dims {p['global_dim']} corners {p['lower_corner']}/"
            f"{p['upper_corner']} {p['channels_per_pixel']}ch x {p['pixels_per_column']}px estr "
            f"{p['element_strides']} start {p['start']} offsets {p['offsets']} dst +{p['dst_offset']}")


def _bytes_differ(got: Observed, want: Observed) -> str:
    keys = sorted(set(got) | set(want))
    diff = [k for k in keys if got.get(k) != want.get(k)]
    shown = ", ".join(f"+{k}: capture {got.get(k, 'unwritten')} model {want.get(k, 'unwritten')}" for k in diff[:SHOWN])
    return f"{len(diff)} window bytes differ ({shown}{', ...' if len(diff) > SHOWN else ''})"


def placement_problems(table_id: str, p: dict[str, Any], notes: list[str]) -> list[str]:
    """Disagreements of one placement the capture ran (its job did not fail)."""
    where = f"{table_id}: {_where(p)}"
    try:
        t = placement_map(p)
    except Im2colUnmodelled as e:
        notes.append(f"{where}: not modelled: {e}")
        return []
    refusal = encode_refusal_im2col(t)
    if (p["encode"] == 0) != (refusal is None):
        return [f"{where}: the driver returned {p['encode']}, the model "
                + (f"refuses ({refusal})" if refusal else "accepts")]
    if p["encode"] != 0:
        return []
    start, offsets = tuple(p["start"]), tuple(p["offsets"])
    outside = base_outside_box(t, start)
    if outside:
        notes.append(f"{where}: not modelled ({outside}); the copy wrote {len(observed(p))} bytes")
        return []
    refused = copy_refusal_im2col(t, start, offsets, p["window_addr"] + p["dst_offset"])
    if refused:
        return [f"{where}: the model refuses the copy ({refused}) yet it ran"]
    out = []
    got, want = observed(p), modelled(t, p)
    if got != want:
        out.append(f"{where}: {_bytes_differ(got, want)}")
    tx = tx_bytes_im2col(t)
    if p["tx_complete"] != (p["expect_tx"] == tx):
        out.append(f"{where}: expect_tx {p['expect_tx']} (model's count {tx}) "
                   + ("completed" if p["tx_complete"] else "did not complete"))
    return out


def encode_row_problems(table: dict[str, Any], notes: list[str]) -> list[str]:
    out = []
    for i, row in enumerate(table["rows"]):
        d = dict(zip(table["fields"], row))
        if d["interleave"]:
            notes.append(f"{table['id']} row {i}: interleave {d['interleave']}B not modelled (driver: {d['result']})")
            continue
        t = Im2colMap(d["dtype"], tuple(d["dims"]), tuple(d["strides"]), tuple(d["lower_corner"]),
                      tuple(d["upper_corner"]), d["channels_per_pixel"], d["pixels_per_column"],
                      tuple(d["element_strides"]), TmaSwizzle(d["swizzle"]), d["nan_fill"], d["addr_misalign"])
        refusal = encode_refusal_im2col(t)
        if (d["result"] == 0) != (refusal is None):
            out.append(f"{table['id']} row {i} {row[:-1]}: the driver returned {d['result']}, the model "
                       + (f"refuses ({refusal})" if refusal else "accepts"))
    return out


# the capture's jobs whose every placement the model refuses to run (a channel start off 16 bytes) or leaves open (a
# filter base outside the bounding box): these may fail at run time; any other failed job is a disagreement
MAY_FAIL_JOBS = {"channel_misaligned", "ptx_example_1_c7", "start_outside_box"}


def failed_job_problems(doc: dict[str, Any]) -> list[str]:
    """A job that failed at run time must be one the model expects may fail."""
    return [f"{f['job']}: failed at run time ({f['error']}); the model runs its placements"
            for f in doc["failed_at_run_time"] if f["job"] not in MAY_FAIL_JOBS]


def disagreements(doc: dict[str, Any]) -> tuple[list[str], list[str]]:
    """(disagreements, notes) of a whole capture document."""
    if doc["meta"].get("fake"):
        return ["the capture was written with --fake: it holds no observations"], []
    problems: list[str] = []
    notes: list[str] = []
    for table in doc["tables"]:
        if table["kind"] == "encode_im2col":
            problems += encode_row_problems(table, notes)
        elif table["kind"] == "placement_im2col":
            for p in table["placements"]:
                problems += placement_problems(table["id"], p, notes)
        else:
            problems.append(f"{table['id']}: unknown table kind {table['kind']!r}")
    problems += failed_job_problems(doc)
    return problems, notes


def load(path: Path) -> dict[str, Any]:
    raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    doc: dict[str, Any] = json.loads(raw)
    return doc


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: compare_tma_im2col.py TMA_IM2COL.json[.gz]", file=sys.stderr)
        return 2
    doc = load(Path(argv[0]))
    problems, notes = disagreements(doc)
    for p in problems:
        print(p)
    for n in notes:
        print(f"note: {n}", file=sys.stderr)
    placements = sum(len(t.get("placements", [])) for t in doc["tables"])
    print(f"{len(doc['tables'])} tables, {placements} placements, {len(doc['failed_at_run_time'])} failed jobs, "
          f"{len(notes)} notes, {len(problems)} disagreements", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
