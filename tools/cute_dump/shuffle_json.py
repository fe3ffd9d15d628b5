"""Parse tools/cute_dump/shuffle.cu's "@key value" lines into tests/data/cute_shuffle.json.

    python tools/cute_dump/shuffle_json.py shuffle.txt tests/data/cute_shuffle.json
"""
from __future__ import annotations

import json
import sys
from typing import Any

SOURCE = ("CUTLASS 4.2.0 (the nvidia-cutlass wheel's headers, with tools/util/include for "
          "compute_memory_reordering_atom), compiled on the host with nvcc 13.0 (no GPU): CollectiveBuilder<Sm90, "
          "OpClassTensorOp, Narrow, tile_to_shape(compute_memory_reordering_atom<Wide, Layout<Shape<_1,_1>>, "
          "ValueShuffle>(), Layout<Shape<int,int,int>, TagToStrideA_t<RowMajor>>), ...>::CollectiveOp instantiated; "
          "SmemLayoutA/B, the reordered global A over two tiles each way, construct_tma_gbasis<TmaElementA>, and for "
          "each listed thread partition_A of the shared tile, make_layout_like of its stage 0 (make_tensor_like), "
          "partition_fragment_A, retile_D of make_tiled_copy_A(Copy_Atom<AutoVectorizingCopy, Narrow>), every element "
          "the copy moves from stage 1 (register:shared), dequantize_A_kblock's chunks (k-block, chunk, source "
          "register, destination register, coalesced layouts) and partition_A of the identity "
          "(tools/cute_dump/shuffle.cu)")
INTS = ("stages", "threads", "a_tma_rank", "tma_element_bits")
INT_LISTS = ("tile", "a_tma_global_dim", "a_tma_global_strides", "a_tma_box")
TEXTS = ("value_shuffle", "atom_quant", "smem_a", "smem_b", "gmem_a")
THREAD_LAYOUTS = ("tCsA", "load", "mma", "view")


def parse(lines: list[str]) -> dict[str, Any]:
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
            a, b, m, n, k, schedule = value.split()
            config["kernel"] = {"element_a": a, "element_b": b, "tile": [int(m), int(n), int(k)],
                                "schedule": schedule}
        elif key == "thread":
            thread = {"thread": int(value), "copies": {}, "chunks": [], "coords": {}}
            config["threads_dumped"].append(thread)
        elif key in THREAD_LAYOUTS:
            thread[key] = value
        elif key == "copy":
            kb, *pairs = value.split()
            thread["copies"][kb] = [[int(x) for x in p.split(":")] for p in pairs]
        elif key == "chunk":
            kb, i, src, dst, src_layout, dst_layout = value.split()
            thread["chunks"].append({"k_block": int(kb), "chunk": int(i), "src": int(src), "dst": int(dst),
                                     "src_layout": src_layout, "dst_layout": dst_layout})
        elif key == "coords":
            kb, *entries = value.split()
            out = []
            for e in entries:
                reg, mk = e.split(":")
                m, k = mk.split(",")
                out.append([int(reg), int(m), int(k)])
            thread["coords"][kb] = out
        elif key in INTS:
            config[key] = int(value)
        elif key in INT_LISTS:
            config[key] = [int(x) for x in value.split()]
        elif key in TEXTS:
            config[key] = value
    return {"source": SOURCE, "configs": configs}


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        data = parse(f.readlines())
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
