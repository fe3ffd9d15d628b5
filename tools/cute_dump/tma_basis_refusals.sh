#!/bin/bash
# tools/cute_dump/tma_basis_refusals.sh -- compile each CASE of tma_basis_refusals.cu (host only) and print, per case,
# "NAME compiles" or "NAME refused: MESSAGE" (the first static_assert nvcc reports: the later ones follow from it):
#   CUTLASS=/path/to/cutlass bash tools/cute_dump/tma_basis_refusals.sh > tests/data/cute_tma_basis_refusals.txt
set -u
here=$(dirname "$0")
inc=${CUTLASS:?set CUTLASS to a CUTLASS checkout (its include/ is used)}/include
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
while read -r name n; do
  [ -z "$name" ] && continue
  if log=$(nvcc -std=c++17 -arch=sm_90a -O0 -I"$inc" -DCASE="$n" -c "$here/tma_basis_refusals.cu" -o "$out/$n.o" 2>&1); then
    echo "$name compiles"
  else
    first=$(echo "$log" | grep -m1 -E 'error: static assertion failed with' | sed -E 's/^.*: error: //')
    echo "$name refused: ${first:-$(echo "$log" | grep -m1 error)}"
  fi
done <<'CASES'
scale_rows_in_order 1
scale_rows_exchanged 2
scale_k_major_global 3
scale_every_other_slot 4
CASES
