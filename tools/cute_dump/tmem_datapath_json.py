"""Parse tools/cute_dump/tmem_datapath.cu's "@case" lines into tests/data/cute_tmem_datapath.json.

    python tools/cute_dump/tmem_datapath_json.py t.txt tests/data/cute_tmem_datapath.json
"""
from __future__ import annotations

import json
import sys

SOURCE = ("CUTLASS 4.2.0 (the nvidia-cutlass wheel's headers), compiled on the host with nvcc 13.0: "
          "UMMA::tmem_frg_1sm / tmem_frg_2sm (TmemAllocMode::Interleaved) and UMMA::tmem_frg_ws_1sm of float "
          "over ((M_MMA_SM, N), 1, tiles along N) (tools/cute_dump/tmem_datapath.cu)")
FIELDS = ("frg", "ctas", "ws", "rows", "n", "tiles_n", "layout")


def parse(lines: list[str]) -> dict[str, object]:
    cases = []
    for line in lines:
        if not line.startswith("@case "):
            continue
        parts = line.split(maxsplit=len(FIELDS))[1:]
        case: dict[str, object] = dict(zip(FIELDS, parts))
        for k in FIELDS[1:-1]:
            case[k] = int(str(case[k]))
        case["ws"] = bool(case["ws"])
        cases.append(case)
    return {"source": SOURCE, "cases": cases}


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = parse(f.read().splitlines())
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
