"""Parse tools/cute_dump/blockwise.cu's "@key value" lines into tests/data/cute_blockwise.json.

    python tools/cute_dump/blockwise_json.py blockwise.txt tests/data/cute_blockwise.json
"""
from __future__ import annotations

import json
import sys
from typing import Any

SOURCE = ("CUTLASS 4.2.0 (the nvidia-cutlass wheel's headers), compiled on the host with nvcc 13.0 (no GPU; "
          "cute/numeric/math.hpp's rotl/rotr negative-shift branches computed directly, as blockscaled.cu's build "
          "does): the SM90 CollectiveBuilder<Sm90, OpClassTensorOp, ..., KernelTmaWarpSpecializedCooperativeFP8"
          "Blockwise / KernelPtrArrayTmaWarpSpecializedCooperativeFP8Blockwise> and the SM100 CollectiveBuilder<Sm100, "
          "..., KernelPtrArrayTmaWarpSpecializedBlockwise1SmSm100> with its epilogue (PtrArrayTmaWarpSpecialized1Sm, "
          "EpilogueTileAuto) instantiated; SmemLayoutSFA/SFB, tile_atom_to_shape_SFA/SFB over two CTA tiles each "
          "way, every cp.async of the scale warp's copy_if for the last k-tile of the last CTA tile into stage 1 "
          "(predicate:global element:shared slot), construct_tma_gbasis<float> of a TMA-loaded SFA, and the slot "
          "each accumulator value's scale is read from (SM90 partition_C of the broadcast view at stage 1; SM100 "
          "partition_D of the epilogue-tiled view through accum()'s compact registers at stage 1), with the "
          "accumulator coordinates and TMEM addresses (tools/cute_dump/blockwise.cu)")
INTS = ("arch", "stages", "threads", "a_tma_rank", "a_copy_threads", "b_copy_threads")
INT_LISTS = ("tile", "granularity", "scales_per_tile", "tma_load", "a_tma_global_dim", "a_tma_global_strides",
             "a_tma_box")
EPILOGUE_KEYS = ("epilogue_tmem_load", "epilogue_epilogue_tile")     # dump_epilogue's lines
LANE_KEYS = {"a_lane": "a_lanes", "b_lane": "b_lanes"}


def _writes(value: str) -> list[list[int]]:
    return [[int(x) for x in w.split(":")] for w in value.split()]


def _pairs(value: str) -> list[list[int]]:
    return [[int(x) for x in p.split(",")] for p in value.split()]


def parse(lines: list[str]) -> dict[str, Any]:
    configs: list[dict[str, Any]] = []
    epilogues: list[dict[str, Any]] = []
    config: dict[str, Any] = {}
    lane: dict[str, Any] = {}
    thread: dict[str, Any] = {}
    epilogue: dict[str, Any] = {}
    for line in lines:
        if not line.startswith("@"):
            continue
        key, _, value = line[1:].rstrip("\n").partition(" ")
        if key == "config":
            config = {"config": value, "a_lanes": [], "b_lanes": [], "reader_threads": []}
            configs.append(config)
        elif key == "epilogue":
            m, n, c, d, layout = value.split()
            epilogue = {"tile": [int(m), int(n)], "element_c": c, "element_d": d, "layout": layout}
            epilogues.append(epilogue)
        elif key in EPILOGUE_KEYS:
            epilogue[key.removeprefix("epilogue_")] = value
        elif key == "kernel":
            f = value.split()
            config["kernel"] = {"element_a": f[0], "element_b": f[1], "granularity": [int(x) for x in f[2:5]],
                                "tile": [int(x) for x in f[5:8]], "rest": f[8:]}
        elif key in LANE_KEYS:
            lane = {"lane": int(value)}
            config[LANE_KEYS[key]].append(lane)
        elif key in ("a_writes", "b_writes"):
            lane["writes"] = _writes(value)
        elif key == "reader_thread":
            thread = {"thread": int(value)}
            config["reader_threads"].append(thread)
        elif key in ("reader_a", "reader_b"):
            thread[key] = [int(x) for x in value.split()]
        elif key == "reader_c":
            thread[key] = _pairs(value)
        elif key == "reader_tmem":
            thread[key] = [int(x) for x in value.split()]
        elif key == "reader_a_layout":
            thread[key] = value
        elif key in INTS:
            config[key] = int(value)
        elif key in INT_LISTS:
            config[key] = [int(x) for x in value.split()]
        else:
            config[key] = value
    return {"source": SOURCE, "configurations": configs, "epilogues": epilogues}


def main(argv: list[str]) -> int:
    with open(argv[1], encoding="utf-8") as f:
        data = parse(f.readlines())
    with open(argv[2], "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
