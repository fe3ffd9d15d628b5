"""Truth tables captured on the GPU (tools/gpu/capture.cu), kept as test data."""
import functools
import gzip
import json
from pathlib import Path

HW = Path(__file__).parent / "data" / "hw"


@functools.lru_cache(maxsize=None)
def tables(family: str) -> dict:
    with gzip.open(HW / f"{family}.json.gz", "rt") as f:
        return json.load(f)
