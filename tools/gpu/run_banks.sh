#!/usr/bin/env bash
# tools/gpu/run_banks.sh BINARY PATTERNS OUTDIR -- run capture_banks under Nsight Compute on the GPU machine.
# Writes OUTDIR/{banks_run.json, ncu.csv, ncu.err, metrics.txt, ncu_query_metrics.txt, ncu_version.txt,
# sass_banks.txt, nvidia-smi.txt}.  The metrics are every shared-memory wavefront / bank-conflict counter
# this ncu knows (l1tex__data_pipe_lsu_wavefronts_mem_shared*, l1tex__data_bank_conflicts_pipe_lsu_mem_shared*)
# and the executed shared-memory instruction counts, each summed over the launch.
set -uo pipefail
B=$1; P=$2; O=$3
mkdir -p "$O"
nvidia-smi > "$O/nvidia-smi.txt" 2>&1
ncu --version > "$O/ncu_version.txt" 2>&1
ncu --query-metrics > "$O/ncu_query_metrics.txt" 2>&1
M=$(grep -oE '^(l1tex__data_pipe_lsu_wavefronts_mem_shared[a-z_]*|l1tex__data_bank_conflicts_pipe_lsu_mem_shared[a-z_]*|smsp__sass_inst_executed_op_(shared|ldsm|stsm|ldgsts)[a-z_]*)' \
      "$O/ncu_query_metrics.txt" | sort -u | sed 's/$/.sum/' | paste -sd, -)
echo "$M" > "$O/metrics.txt"
D=$(date -u +%FT%TZ)
V=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -n1)
ncu --metrics "$M" --csv --print-units base --kernel-name bank_kernel \
    "$B" "$P" "$O/banks_run.json" --date "$D" --driver "$V" > "$O/ncu.csv" 2> "$O/ncu.err"
echo "ncu exit $?"
cuobjdump --dump-sass "$B" | grep -E "Function :|LDS|STS|LDSM|STSM|LDGSTS" > "$O/sass_banks.txt" 2>&1
wc -l "$O/ncu.csv" "$O/metrics.txt"; tail -3 "$O/ncu.err"
