"""Compare a capture of tools/gpu/capture_wgmma_sparse.cu (wgmma_sparse.json) with the model of
verifier/hardware/wgmma_sparse.py, whose sp-meta bit mapping is inferred until a capture confirms it.

    python tools/gpu/compare_wgmma_sparse.py OUTDIR/wgmma_sparse.json

prints one line per disagreement (none: the model reproduces the capture) and exits 1 when there is one.

What the capture says (see the .cu's header): with every stored A element one and B(n, k) = 2^(k % chunk) on
chunk n, D(m, n) is the sum of 2^q over the kept positions q of chunk n of row m.  The baseline sets every nibble
to `base_nibble`; probe 8*t + j sets nibble j of thread t to `alt_nibble`.  The model predicts: a thread that
does not supply metadata under the table's sp-sel changes nothing; one that does changes exactly the accumulator
of (row, chunk) = meta_bit(t, 4j) — to the sum of the alternative nibble's kept positions.
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

from verifier.hardware.wgmma import _d  # noqa: E402
from verifier.hardware.wgmma_sparse import NIBBLE_BITS, meta_bit, sparse_type, supplies  # noqa: E402
from verifier.symbolic.expr import TRUE  # noqa: E402

THREADS = 128
NIBBLES = 8
TWO_BIT = 2           # a 2:4 nibble holds two 2-bit indices; a 1:2 nibble one 4-bit index
ONE_OF_TWO = {0b0100: (0,), 0b1110: (1,)}    # the 1:2 (tf32) indices the PTX ISA gives a meaning


def kept_positions(nibble: int, chunk: int) -> tuple[int, ...]:
    """The positions of a chunk a metadata nibble keeps (2:4: its two 2-bit indices; 1:2: the one index)."""
    if chunk == 2:
        return ONE_OF_TWO[nibble]
    return (nibble & 0b11, (nibble >> TWO_BIT) & 0b11)


def chunk_sum(nibble: int, chunk: int) -> float:
    return float(sum(2 ** q for q in kept_positions(nibble, chunk)))


def disagreements(table: dict[str, Any]) -> list[str]:
    """Where one captured table and the model differ, in words (empty: they agree)."""
    out: list[str] = []
    t = sparse_type(table["type"])
    if t is None:
        return [f"{table['id']}: no sparse type {table['type']!r} in the model"]
    m, n, _ = table["shape"]
    num_d = table["num_d"]
    d_of = _d(n, 32)
    slot_mn = {lane * num_d + i: tuple(int(x) for x in d_of.coord(lane, i)) for lane in range(THREADS)
               for i in range(num_d)}
    base = chunk_sum(table["base_nibble"], t.chunk)
    alt = chunk_sum(table["alt_nibble"], t.chunk)
    for slot, value in table["baseline"]:
        if value != base:
            out.append(f"{table['id']}: baseline slot {slot} {slot_mn[slot]} holds {value}, expected {base}")
    if len(table["baseline"]) != len(slot_mn):
        out.append(f"{table['id']}: {len(table['baseline'])} baseline slots recorded, expected {len(slot_mn)}")
    changes: dict[int, list[tuple[int, float]]] = {}
    for probe, slot, value in table["changes"]:
        changes.setdefault(probe, []).append((slot, value))
    for probe in range(THREADS * NIBBLES):
        thread, nibble = divmod(probe, NIBBLES)
        seen = sorted(changes.get(probe, []))
        if supplies(t, thread, table["sp_sel"]) is not TRUE:
            if seen:
                out.append(f"{table['id']}: thread {thread} does not supply metadata under sp-sel {table['sp_sel']}, "
                           f"yet its nibble {nibble} changed {seen}")
            continue
        bit = meta_bit(t, thread, NIBBLE_BITS * nibble)
        want = (int(bit.row), int(bit.chunk))
        expected = [(s, alt) for s, mn in slot_mn.items() if mn == want]
        if [(slot_mn[s], v) for s, v in seen] != [(slot_mn[s], v) for s, v in expected]:
            out.append(f"{table['id']}: thread {thread} nibble {nibble}: the model says row {want[0]} chunk "
                       f"{want[1]} -> {alt}; the capture changed {[(slot_mn[s], v) for s, v in seen]}")
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: compare_wgmma_sparse.py WGMMA_SPARSE.json[.gz]", file=sys.stderr)
        return 2
    path = Path(argv[0])
    raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    doc = json.loads(raw)
    problems = [p for table in doc["tables"] for p in disagreements(table)]
    for p in problems:
        print(p)
    print(f"{len(doc['tables'])} tables, {len(problems)} disagreements", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
