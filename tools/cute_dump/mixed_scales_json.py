"""Parse tools/cute_dump/mixed_scales.cu's "@key value" lines into tests/data/cute_mixed_scales.json (and
mixed_scales_lut.cu's into tests/data/cute_mixed_scales_lut.json: its reads' third field is the positive table's slot).

    python tools/cute_dump/mixed_scales_json.py mixed.txt tests/data/cute_mixed_scales.json
    python tools/cute_dump/mixed_scales_json.py lut.txt tests/data/cute_mixed_scales_lut.json lut
"""
from __future__ import annotations

import json
import sys
from typing import Any

SOURCE = ("CUTLASS 4.2.0 (the nvidia-cutlass wheel's headers), compiled on the host with nvcc 13.0 (no GPU): "
          "CollectiveBuilder<Sm90, OpClassTensorOp, cute::tuple<Narrow, Scale[, Zero]>, RowMajor, ..., ColumnMajor, "
          "..., float, Tile, Shape<_1,_2,_1>, StageCountAutoCarveout<0>, Schedule> (the mixed-input collective "
          "MainloopSm90TmaGmmaRmemAWarpSpecializedMixedInput) instantiated; SmemLayoutA, SmemLayoutScale, the "
          "transaction bytes, the TensorStorage offsets, construct_tma_gbasis<TmaElementScale> of the scale tensor "
          "(M = 4096, scale_k columns, MN-major), make_tiled_copy_A(SmemCopyAtomScale, TiledMma), the scale fragment "
          "and its retile_D view, and for listed threads the shared slot (and zero slot) in the register "
          "dequantize_A_kblock pairs with each A element (m, k) of every k-block, after copy_tensors_MK's k-block 0 "
          "copy of stage 1 (tools/cute_dump/mixed_scales.cu)")
SOURCE_LUT = ("CUTLASS 4.2.0 (the nvidia-cutlass wheel's headers), compiled on the host with nvcc 13.0 (no GPU): "
              "CollectiveBuilder<Sm90, OpClassTensorOp, cute::tuple<int4b_t, cutlass::Array<Wide, 8>>, RowMajor, "
              "32, Wide, ColumnMajor, 16, float, Tile, Shape<_1,_2,_1>, StageCountAutoCarveout<0>, Schedule> (the "
              "collective's UseScaleLookupTable) instantiated; SmemLayoutScale, the transaction bytes, the "
              "TensorStorage offsets, the A fragment and load buffer, the scale fragment and its retile_D view, and "
              "for listed threads "
              "the slots of the negative and positive tables lookup_table_convert converts each A element (m, k) of "
              "every k-block with, after copy_tensors_MK's k-block 0 copy of stage 1 and dequantize_A_kblock's k-block "
              "0 derivation of the positive tables (tools/cute_dump/mixed_scales_lut.cu)")
INTS = ("stages", "threads", "zero", "k_blocks", "scale_tma_rank", "scale_tma_type_bits", "scale_bits")
INT_LISTS = ("tile", "tx_bytes", "storage", "scale_tma_global_dim", "scale_tma_global_strides", "scale_tma_box")
STORAGE_FIELDS = ("smem_a", "smem_b", "smem_scale", "smem_zero", "size", "align")


def _reads(value: str) -> list[list[int]]:
    """'m,k:slot:zero ...' -> [[m, k, slot, zero], ...] (zero -1 without zero points)."""
    out = []
    for item in value.split():
        coord, slot, zero = item.split(":")
        m, k = coord.split(",")
        out.append([int(m), int(k), int(slot), int(zero)])
    return out


def parse(lines: list[str], source: str = SOURCE) -> dict[str, Any]:
    configs: list[dict[str, Any]] = []
    config: dict[str, Any] = {}
    thread: dict[str, Any] = {}
    for line in lines:
        if not line.startswith("@"):
            continue
        key, _, value = line[1:].rstrip("\n").partition(" ")
        if key == "config":
            config = {"config": value, "threads_dumped": []}
            configs.append(config)
        elif key == "kernel":
            f = value.split()
            config["kernel"] = {"element_a": f[0], "element_b": f[1], "mode": f[2], "tile": [int(x) for x in f[3:6]],
                                "schedule": f[6]}
        elif key == "thread":
            thread = {"thread": int(value)}
            config["threads_dumped"].append(thread)
        elif key == "thread_scale_layout":
            thread["scale_layout"] = value
        elif key == "reads":
            thread["reads"] = _reads(value)
        elif key == "storage":
            config["storage"] = dict(zip(STORAGE_FIELDS, (int(x) for x in value.split())))
        elif key in INTS:
            config[key] = int(value)
        elif key in INT_LISTS:
            config[key] = [int(x) for x in value.split()]
        else:
            config[key] = value
    return {"source": source, "configs": configs}


def main(argv: list[str]) -> None:
    with open(argv[1], encoding="utf-8") as f:
        data = parse(f.readlines(), SOURCE_LUT if argv[3:] == ["lut"] else SOURCE)
    with open(argv[2], "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv)
