#!/usr/bin/env bash
# Capture the raw hardware tables on a machine with the GPU.
#   usage: tools/gpu/run_capture.sh OUTDIR [BINARY]
# OUTDIR receives ldmatrix.json stmatrix.json movmatrix.json mma_sync.json mma_sync_b1.json,
# nvidia-smi.txt and a parts/ folder (one file per table).  BINARY defaults to
# tools/gpu/build/capture; if it is missing or does not start on this machine it is rebuilt
# with the local nvcc.  Then run tools/gpu/pack_tables.py OUTDIR to gzip into tests/data/hw/.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT_DIR="${1:?usage: run_capture.sh OUTDIR [BINARY]}"
BIN="${2:-$HERE/build/capture}"
mkdir -p "$OUT_DIR"

"$BIN" >/dev/null 2>&1; rc=$?          # no arguments: prints usage and exits 2
if [ "$rc" -ne 2 ]; then
  echo "[run_capture] $BIN does not start here (rc=$rc); rebuilding with $(command -v nvcc)" >&2
  BIN="$OUT_DIR/capture.local"
  nvcc -arch=sm_90 -O2 -cudart static -std=c++17 -o "$BIN" "$HERE/capture.cu" || exit 1
fi

DATE="$(date -u +%FT%TZ)"
DRIVER="$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1)"
nvidia-smi > "$OUT_DIR/nvidia-smi.txt" 2>&1 || true
echo "[run_capture] date=$DATE driver=$DRIVER binary=$BIN" >&2
"$BIN" "$OUT_DIR" --date "$DATE" --driver "$DRIVER"
