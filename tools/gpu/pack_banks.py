#!/usr/bin/env python3
"""Pack what run_banks.sh returned (banks_run.json: the patterns and the machine; ncu.csv: the counters of each
launch, in launch order) into tests/data/hw/banks.json.gz, deterministic (gzip mtime 0, sorted keys).

    python3 tools/gpu/pack_banks.py DIR      # DIR holds banks_run.json, ncu.csv, ncu_version.txt, metrics.txt

Each pattern keeps its id, the PTX instruction its kind issued, the 32 offsets into the buffer and every counter
ncu reported for its launch (zeros left out; `metrics` lists them all).
"""
from __future__ import annotations

import csv
import gzip
import io
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# the instruction each kind of capture_banks.cu issues (its switch, in order)
INSTRUCTIONS = (
    "ld.shared.b32", "ld.shared.v2.b32", "ld.shared.v4.b32", "st.shared.b32", "st.shared.v2.b32", "st.shared.v4.b32",
    "ldmatrix.sync.aligned.m8n8.x1.shared.b16", "ldmatrix.sync.aligned.m8n8.x2.shared.b16",
    "ldmatrix.sync.aligned.m8n8.x4.shared.b16", "ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16",
    "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16", "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16",
    "stmatrix.sync.aligned.m8n8.x1.shared.b16", "stmatrix.sync.aligned.m8n8.x2.shared.b16",
    "stmatrix.sync.aligned.m8n8.x4.shared.b16", "stmatrix.sync.aligned.m8n8.x1.trans.shared.b16",
    "stmatrix.sync.aligned.m8n8.x2.trans.shared.b16", "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16",
    "cp.async.ca.shared.global 4", "cp.async.ca.shared.global 8", "cp.async.cg.shared.global 16",
    "ld.shared.u16", "ld.shared.u8", "st.shared.u16", "st.shared.u8")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    d = Path(argv[1])
    run = json.loads((d / "banks_run.json").read_text())
    if run["meta"].get("fake") or run["failed_at_run_time"]:
        print("refusing a fake or failed run", file=sys.stderr)
        return 1
    lines = [s for s in (d / "ncu.csv").read_text().splitlines() if s.startswith('"')]
    counters: dict[int, dict[str, int]] = {}
    for row in csv.DictReader(io.StringIO("\n".join(lines))):
        value = float(row["Metric Value"].replace(",", ""))
        counters.setdefault(int(row["ID"]), {})[row["Metric Name"]] = int(value)
    patterns = run["patterns"]
    if sorted(counters) != list(range(len(patterns))):
        print(f"ncu profiled {len(counters)} launches for {len(patterns)} patterns", file=sys.stderr)
        return 1
    out = {"meta": dict(run["meta"], ncu=(d / "ncu_version.txt").read_text().strip().splitlines()[-1]),
           "metrics": (d / "metrics.txt").read_text().strip().split(","),
           "buffer_shared_address": run["buffer_shared_address"], "buffer_bytes": run["buffer_bytes"],
           "patterns": [{"id": p["id"], "instruction": INSTRUCTIONS[p["kind"]], "offsets": p["offsets"],
                         "counters": {k: v for k, v in sorted(counters[p["launch"]].items()) if v}}
                        for p in patterns]}
    data = json.dumps(out, sort_keys=True, separators=(",", ":")).encode()
    target = ROOT / "tests" / "data" / "hw" / "banks.json.gz"
    with open(target, "wb") as f, gzip.GzipFile(fileobj=f, mode="wb", mtime=0, filename="") as g:
        g.write(data)
    print(f"wrote {target.relative_to(ROOT)} ({len(patterns)} patterns)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
