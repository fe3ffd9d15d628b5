#!/usr/bin/env python3
"""Gzip the capture's JSON files into tests/data/hw/ deterministically (mtime=0, no name).

    python3 tools/gpu/pack_tables.py CAPTURE_OUTDIR [DEST=tests/data/hw]

The JSON bytes are copied unchanged (no re-serialisation); only the known families are packed.
"""
import gzip
import json
import sys
from pathlib import Path

FAMILIES = ["ldmatrix", "stmatrix", "movmatrix", "mma_sync", "mma_sync_b1", "wgmma",   # capture.cu, capture_wgmma.cu
            "tma", "gmma_desc", "tma_store",      # capture_tma.cu, capture_gmma_desc.cu, capture_tma_store.cu
            "tma_nd",                             # capture_tma_nd.cu
            "tma_im2col",                         # capture_tma_im2col.cu
            "wgmma_sparse", "cp_async"]           # capture_wgmma_sparse.cu, capture_cp_async.cu


def main():
    src = Path(sys.argv[1])
    dest = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(__file__).resolve().parents[2] / "tests" / "data" / "hw"
    dest.mkdir(parents=True, exist_ok=True)
    for fam in FAMILIES:
        f = src / f"{fam}.json"
        if not f.exists():
            print(f"missing {f}", file=sys.stderr)
            continue
        raw = f.read_bytes()
        doc = json.loads(raw)  # must parse
        assert not doc["meta"].get("fake"), f"{f} was written with --fake"
        out = dest / f"{fam}.json.gz"
        out.write_bytes(gzip.compress(raw, compresslevel=9, mtime=0))
        print(f"{out}: {len(doc['tables'])} tables, {len(raw)} -> {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
