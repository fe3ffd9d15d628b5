#!/bin/bash
# tools/cute_dump/descriptor_refusals.sh -- compile each CASE of descriptor_refusals.cu (host only) and print, per
# case, "NAME compiles" or "NAME refused: MESSAGE" (the first static_assert of CuTe's headers in source order):
#   CUTLASS=/path/to/cutlass bash tools/cute_dump/descriptor_refusals.sh > tests/data/cute_descriptor_refusals.txt
set -u
here=$(dirname "$0")
inc=${CUTLASS:?set CUTLASS to a CUTLASS checkout (its include/ is used)}/include
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# name, arch, case: the CASE comments of descriptor_refusals.cu name them (utccp: a tcgen05.cp source, sm_100a)
while read -r name arch n; do
  [ -z "$name" ] && continue
  defs="-DCASE=$n"; [ "$arch" = sm_100a ] && defs="$defs -DSM100_CASES"
  [ "$arch" = utccp ] && { arch=sm_100a; defs="$defs -DUTCCP_CASES"; }
  if log=$(nvcc -std=c++17 -arch="$arch" -O0 -I"$inc" $defs -c "$here/descriptor_refusals.cu" -o "$out/$n.o" 2>&1); then
    echo "$name compiles"
  else
    first=$(echo "$log" | grep -E 'error: static assertion failed with|error: no instance of function template "cute::.*layout_type"' \
            | sed -E 's/^.*\(([0-9]+)\): error: /\1 /' | sort -n | head -1 | cut -d' ' -f2-)
    echo "$name refused: ${first:-$(echo "$log" | grep -m1 error)}"
  fi
done <<'CASES'
gmma_k_sw128_b sm_90a 1
gmma_k_tile_under_mn_b sm_90a 2
gmma_mn_tile_under_k_b sm_90a 3
gmma_k_sw128_rows_64_bytes_apart_b sm_90a 4
gmma_swizzle_s4_b sm_90a 5
gmma_plain_composition_b sm_90a 6
gmma_mn_sw128_b sm_90a 7
gmma_mn_sw64_a sm_90a 8
gmma_k_inter_a sm_90a 9
gmma_k_sw32_e4m3_b sm_90a 10
gmma_tf32_on_mn_tile_a sm_90a 11
gmma_k_split_row_mode_b sm_90a 12
gmma_k_inter_rows_32_bytes_apart_a sm_90a 13
gmma_mn_sw128_k_rows_apart_b sm_90a 14
gmma_k_sw128_row_groups_apart_b sm_90a 15
gmma_k_sw128_units_permuted_b sm_90a 16
umma_k_sw128_a sm_100a 1
umma_mn_tile_under_k_a sm_100a 2
umma_k_tile_under_mn_a sm_100a 3
umma_base32b_under_k_a sm_100a 4
umma_k_sw128_rows_64_bytes_apart_a sm_100a 5
umma_base32b_mn_tf32_a sm_100a 6
umma_base32b_k_rows_4_apart_a sm_100a 7
umma_base32b_k_rows_8_apart_a sm_100a 8
umma_mn_sw64_a sm_100a 9
utccp_sparse_cute utccp 1
utccp_sparse_row_major_atom utccp 2
utccp_sf_cute utccp 3
utccp_sf_rows_uneven utccp 4
CASES
