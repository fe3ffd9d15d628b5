#!/usr/bin/env bash
# Build and run tools/gpu/blockwise_scale_overrun.cu for the tiles of the README's blockwise-scale finding and their
# controls, plain (50 runs each) and under compute-sanitizer's memcheck (its first two reports), into one text file:
#   tools/gpu/run_blockwise_overrun.sh CUTLASS_DIR OUT_FILE [BUILD_DIR]
# CUTLASS_DIR holds include/ and tools/util/include/ (the nvidia-cutlass wheel's cutlass_library/source will do).
# A binary already in BUILD_DIR (overrun_<TILE_N>_<GRANULARITY_N>) is run as it is.
set -euo pipefail
cutlass=$1 out=$2 build=${3:-build/hw}
here=$(cd "$(dirname "$0")" && pwd)
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
mkdir -p "$build"
# (tile N, columns a scale of B covers): 88, 104, 120, 216 scales a tile (over 32, no multiple of 32); 1 or 128
# scales a tile, the controls
configs="128_1 88_88 88_1 104_1 120_1 216_216 216_1"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/device: /'
  for c in $configs; do
    tile=${c%_*} gran=${c#*_}
    bin=$build/overrun_$c
    [ -x "$bin" ] || nvcc -std=c++17 -arch=sm_90a -O2 --expt-relaxed-constexpr -DTILE_N="$tile" \
      -DGRANULARITY_N="$gran" -I"$cutlass/include" -I"$cutlass/tools/util/include" \
      "$here/blockwise_scale_overrun.cu" -o "$bin"
    echo "== run $c"
    timeout 120 "$bin" 50 || echo "exit $?"
    echo "== memcheck $c"
    timeout 300 "$sanitizer" --tool memcheck --show-backtrace no --print-limit 2 "$bin" 1 2>&1 \
      | sed -E 's/^(=========     at void cutlass::device_kernel).*/\1<...>/' || true
  done
} > "$out" 2>&1
