"""Parse tools/cute_dump/sparse.cu's "@key value" lines into tests/data/cute_sparse.json.

    python tools/cute_dump/sparse_json.py sparse.txt tests/data/cute_sparse.json
"""
from __future__ import annotations

import json
import sys
from typing import Any

SOURCE = ("CUTLASS 4.2.0 (the nvidia-cutlass wheel's headers), compiled on the host with nvcc 13.0 (no GPU): "
          "CollectiveBuilder<Sm90, OpClassSparseTensorOp, ...>::CollectiveOp instantiated, and its SmemLayoutA/B/E, "
          "Sm90GemmSparseConfig's TensorEAtom, fill_layoutA/E, the atom's ELayout, get_layoutE_TV, "
          "make_tiled_copy_E, for each listed thread partition_E, make_fragment_like, partition_S of the shared E "
          "tile (the offsets read), "
          "retile_D, recast<uint32_t> of each wgmma's metadata and partition_A's slices, and "
          "cute::detail::construct_tma_gbasis<uint64_t> of E printed (tools/cute_dump/sparse.cu)")
INTS = ("stages", "threads", "e_tma_rank")
INT_LISTS = ("tile", "e_tma_global_dim", "e_tma_global_strides", "e_tma_box")
THREAD_LAYOUTS = ("tCsE", "tCrE", "tErE", "tEsE")


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
            a, b, acc, la, lb, aa, ab, schedule = value.split()
            config["kernel"] = {"element_a": a, "element_b": b, "element_acc": acc, "layout_a": la, "layout_b": lb,
                                "align_a": int(aa), "align_b": int(ab), "schedule": schedule}
        elif key == "thread":
            thread = {"thread": int(value), "words": [], "a_origins": []}
            config["threads_dumped"].append(thread)
        elif key in THREAD_LAYOUTS:
            thread[key] = value
        elif key == "reads":
            thread["reads"] = [int(x) for x in value.split()]
        elif key == "word":
            r, kb, size, offset = (int(x) for x in value.split())
            thread["words"].append({"m_block": r, "k_block": kb, "registers": size, "register": offset})
        elif key == "a_origin":
            r, kb, m, k = (int(x) for x in value.split())
            thread["a_origins"].append({"m_block": r, "k_block": kb, "m": m, "k": k})
        elif key in INTS:
            config[key] = int(value)
        elif key in INT_LISTS:
            config[key] = [int(x) for x in value.split()]
        else:
            config[key] = value
    return {"source": SOURCE, "configurations": configs}


def main(argv: list[str]) -> int:
    with open(argv[1], encoding="utf-8") as f:
        data = parse(f.readlines())
    with open(argv[2], "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
