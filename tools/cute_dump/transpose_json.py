"""Parse tools/cute_dump/transpose.cu's "@key value" lines into tests/data/cute_transpose.json.

    ./transpose > t.txt && ./transpose_exec >> t.txt
    python tools/cute_dump/transpose_json.py t.txt tests/data/cute_transpose.json

transpose_exec's lines (CUTLASS's operator() run on the host) become each configuration's "executed": the elements
never moved, moved elsewhere than GmmaSmemLayoutB puts them, and moved twice, and per warp tile of the stage the warp
(warp_idx) and call that moved it ("uniform": every element of the tile by that one warp and call).
"""
from __future__ import annotations

import json
import sys
from typing import Any

# executed.movers: [tile_n, tile_k, warp_idx, call, uniform] of each warp tile of the stage
SOURCE = ("CUTLASS 4.2.0 (the nvidia-cutlass wheel's headers), compiled on the host with nvcc 13.0 -DNDEBUG (no GPU): "
          "CollectiveBuilder<Sm90, OpClassTensorOp, tfloat32_t ColumnMajor, tfloat32_t RowMajor, float, ..., "
          "StageCountAutoCarveout<0>, Kernel{TmaWarpSpecialized[Cooperative|Pingpong], CpAsyncWarpSpecialized"
          "[Cooperative]}> instantiated; its CollectiveOp's SmemLayoutB, GmmaSmemLayoutB and TransposeOperandB, the "
          "transposition's constants and each math warp's coordinate-table slice (its constructor's), the warp's "
          "tiled copy, and for every warp tile of the stages shown the element offsets partition_S (of the "
          "position-independent sB) and partition_D (of gmma_sB as the mainloop makes it) give each lane, lane-major "
          "(tools/cute_dump/transpose.cu); and CUTLASS's AsyncTranspositionOperandB::operator() compiled by g++ 12 "
          "and run on the host for every math thread and call of one stage, loads and stores in separate buffers "
          "(tools/cute_dump/transpose_exec.cpp)")
INTS = ("stages", "threads", "steps", "steps_per_warpgroup", "math_warpgroups", "warpgroup_tile", "warp_tile",
        "warpgroup_tiles", "tiles_per_warp")
INT_LISTS = ("warp_thread", "lut")


def parse(lines: list[str]) -> dict[str, Any]:
    configs: list[dict[str, Any]] = []
    config: dict[str, Any] = {}
    executed: dict[str, Any] = {}
    for line in lines:
        if not line.startswith("@"):
            continue
        key, _, value = line[1:].rstrip("\n").partition(" ")
        if key == "executed":
            executed = {"movers": []}
            next(c for c in configs if c["config"] == value)["executed"] = executed
        elif key == "executed_check":
            executed["unmoved"], executed["misplaced"], executed["moved_twice"] = (int(x) for x in value.split())
        elif key == "mover":
            tn, tk, warp_idx, call, uniform = (int(x) for x in value.split())
            executed["movers"].append({"tile_n": tn, "tile_k": tk, "warp_idx": warp_idx, "call": call,
                                       "uniform": bool(uniform)})
        elif key == "config":
            config = {"config": value, "warp_luts": [], "tiles": []}
            configs.append(config)
        elif key == "kernel":
            f = value.split()
            config["kernel"] = {"tile": [int(x) for x in f[:3]], "schedule": f[3], "alignment": [int(f[4]),
                                                                                                  int(f[5])]}
        elif key == "tile" and "|" in value:
            head, *lanes = value.split("|")
            stage, tile_n, tile_k = (int(x) for x in head.split())
            src: list[int] = []
            dst: list[int] = []
            for lane in lanes:
                s, d = lane.split(">")
                src += [int(x) for x in s.split()]
                dst += [int(x) for x in d.split()]
            config["tiles"].append({"stage": stage, "tile_n": tile_n, "tile_k": tile_k, "src": src, "dst": dst})
        elif key == "tile":
            config["tile"] = [int(x) for x in value.split()]
        elif key == "warp_lut":
            w, n, k = (int(x) for x in value.split())
            config["warp_luts"].append({"warp_idx": w, "n": n, "k": k})
        elif key in INTS:
            config[key] = int(value)
        elif key in INT_LISTS:
            config[key] = [int(x) for x in value.split()]
        else:
            config[key] = value
    return {"source": SOURCE, "configurations": configs}


def dumps(data: dict[str, Any]) -> str:
    """JSON with one warp tile a line (the offsets lists kept on it)."""
    out = ['{', f' "source": {json.dumps(data["source"])},', ' "configurations": [']
    for i, c in enumerate(data["configurations"]):
        body = {k: v for k, v in c.items() if k not in ("tiles", "executed")}
        if "executed" in c:
            e = c["executed"]
            body["executed"] = {k: v for k, v in e.items() if k != "movers"}
            body["executed"]["movers"] = [[m["tile_n"], m["tile_k"], m["warp_idx"], m["call"], m["uniform"]]
                                          for m in e["movers"]]
        text = json.dumps(body, indent=1)[:-2]          # without the closing brace
        tiles = ",\n".join("   " + json.dumps(t, separators=(",", ":")) for t in c["tiles"])
        out.append("  " + text.replace("\n", "\n  ") + ',\n   "tiles": [\n' + tiles + "\n  ]}"
                   + ("," if i + 1 < len(data["configurations"]) else ""))
    out += [" ]", "}"]
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    with open(argv[1], encoding="utf-8") as f:
        data = parse(f.readlines())
    json.loads(dumps(data))
    with open(argv[2], "w", encoding="utf-8") as f:
        f.write(dumps(data))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
