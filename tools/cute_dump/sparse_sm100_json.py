"""Parse tools/cute_dump/sparse_sm100.cu's "@key value" lines into tests/data/cute_sparse_sm100.json.

    python tools/cute_dump/sparse_sm100_json.py sparse_sm100.txt tests/data/cute_sparse_sm100.json
"""
from __future__ import annotations

import json
import sys
from typing import Any

SOURCE = ("CUTLASS 4.2.0 (the nvidia-cutlass wheel's headers), compiled on the host with nvcc 13.0 (no GPU): "
          "CollectiveBuilder<Sm100, OpClassSparseTensorOp, ...>::CollectiveOp instantiated (ClusterShape 4x4x1, "
          "StageCountAutoCarveout<0>), and Sm1xxGemmSparseConfig's TensorEAtom, fill_layoutA/E, UtccpReuseCnt, "
          "TileShapeE, SmemLayoutA/B/E, cute::detail::construct_tma_gbasis<uint64_t> of E over thrfrg_A of TileShapeE, "
          "partition_A's k-block origins, the accumulators (EpilogueTile 128x64) and tCtE = make_tensor<FrgTypeE> at "
          "their column offset, the address each tCtE(_, _, i) hands the MMA (id2 = bit 0), make_utccp_copy("
          "SM100_UTCCP_128dp128bit_*, recast<ElementE>(tCtE)) with partition_S / partition_D and "
          "get_utccp_smem_desc_tensor printed (tools/cute_dump/sparse_sm100.cu)")
INTS = ("stages", "ctas", "reuse", "e_tma_rank", "acc_cols", "tmem_e_cols", "stage1_start")
INT_LISTS = ("tile", "tile_e", "e_tma_global_dim", "e_tma_global_strides", "e_tma_box")


def parse(lines: list[str]) -> dict[str, Any]:
    configs: list[dict[str, Any]] = []
    config: dict[str, Any] = {}
    for line in lines:
        if not line.startswith("@"):
            continue
        key, _, value = line[1:].rstrip("\n").partition(" ")
        if key == "config":
            config = {"config": value, "a_origins": [], "mma_addresses": [], "copies": []}
            configs.append(config)
        elif key == "kernel":
            a, b, acc, schedule, m, n, k = value.split()
            config["kernel"] = {"element_a": a, "element_b": b, "element_acc": acc, "schedule": schedule,
                                "tile": [int(m), int(n), int(k)]}
        elif key == "a_origin":
            kb, m, k = (int(x) for x in value.split())
            config["a_origins"].append({"k_block": kb, "m": m, "k": k})
        elif key == "e_addr":
            i, address, selector, sp_meta = (int(x) for x in value.split())
            config["mma_addresses"].append({"index": i, "address": address, "selector": selector,
                                            "sp_meta": sp_meta})
        elif key == "copy":
            i, start, lbo, sbo, layout_type, tmem = (int(x) for x in value.split())
            config["copies"].append({"index": i, "smem_start": start, "lbo": lbo, "sbo": sbo,
                                     "layout_type": layout_type, "tmem_address": tmem})
        elif key in INTS:
            config[key] = int(value)
        elif key in INT_LISTS:
            config[key] = [int(x) for x in value.split()]
        else:
            config[key] = value
    return {"source": SOURCE, "configurations": configs}


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: sparse_sm100_json.py DUMP.txt OUT.json", file=sys.stderr)
        return 2
    with open(argv[0]) as f:
        data = parse(f.readlines())
    with open(argv[1], "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
