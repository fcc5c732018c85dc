#!/usr/bin/env bash
# The ladder's single-source rungs (kernels/blocktile_1d.h, blocktile_2d.h,
# vectorized.h, warptile.h, double_buffer.h) on the GPU:
#  - the instrumented build's trace equals the emulator's event for event at
#    every shape of gpu_trace_test's Rungs suite (square, non-square ragged
#    multiples of 4, and 37x29x45 for the scalar rungs), and the plain build
#    against the double-precision reference;
#  - the GPU's counting build equals the emulator's and the trace's counters;
#  - compute-sanitizer memcheck and racecheck on the plain, instrumented and
#    counting builds at the small ragged shapes;
#  - the plain build (NAME) against the benchmark-only kernel it replaced
#    (NAME-before) at 4096^3, median of 20 runs, same run: the figure the
#    conversion must hold (within 2% of its GFLOP/s); double-buffer's listing
#    against the tuned kernel;
#  - double-buffer's % of cuBLAS SGEMM at 4096^3 measured as a user's
#    `tilescope bench --kernels double-buffer --size 4096` does, three times
#    in three processes, with the SM clock, power and throttle reasons logged
#    alongside (double_buffer_user.txt): the median is this GPU's figure
#    (the target: at least 95%), the spread is what a re-run on it gives; the
#    README quotes the range over the GPUs measured so far. (On 2026-11-28 an
#    H100 gave 93.5% here and 95.7% in a user's bench of another call; on an
#    H200 check 45's own command, a user's bench and the listing first all gave
#    96.4%; the same SASS and the same command gave 95.7% and 93.7% on the
#    H100 in calls 38 and 43 of 2026-11-26: the figure moves between calls,
#    not between the two ways of measuring. docs/ladder-notes.md, run 32.)
#  - where the toolkit has cuobjdump, the SASS of both in the built tilescope:
#    FFMA, LDS.128, LDG.E.128 and all instructions of each main loop, and
#    their registers per thread.
set -uo pipefail
rc=0
results=${RESULTS:-${OUT:-.}}
if ldd "$BIN/tilescope" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
timeout --kill-after=10 240 "$BIN/gpu_trace_test" --gtest_filter='Rungs/*' --gtest_output=json:"$results/rungs_gpu_trace_test.json" || rc=1
timeout --kill-after=10 240 "$BIN/counter_gpu_test" --gtest_filter='Rungs/*' --gtest_output=json:"$results/rungs_counter_gpu_test.json" || rc=1
for tool in memcheck racecheck; do
  compute-sanitizer --tool "$tool" --error-exitcode 99 \
    "$BIN/gpu_trace_test" --gtest_filter='Rungs/*_68x132x36:Rungs/*_37x29x45' \
    > "$results/rungs_sanitizer_$tool.log" 2>&1 || rc=1
  tail -n 3 "$results/rungs_sanitizer_$tool.log"
  compute-sanitizer --tool "$tool" --error-exitcode 99 \
    "$BIN/counter_gpu_test" --gtest_filter='Rungs/*_68x132x36' > "$results/rungs_counted_sanitizer_$tool.log" 2>&1 || rc=1
  tail -n 3 "$results/rungs_counted_sanitizer_$tool.log"
done
names=blocktile-1d,blocktile-1d-before,blocktile-2d,blocktile-2d-before,vectorized,vectorized-before,warptile,warptile-before,double-buffer,double-buffer-before
"$BIN/tilescope" bench --kernels "$names" --size 4096 --runs 20 --no-ceilings \
  -o "$results/bench_rungs.json" -o "$results/bench_rungs.csv" > "$results/bench_rungs.log" 2>&1 || rc=1
tail -n 12 "$results/bench_rungs.log"
# NAME against NAME-before, read back from the CSV by column name.
awk -F, '/^#/ {next} !h {for (i = 1; i <= NF; ++i) col[$i] = i; h = 1; next}
  {g[$col["kernel"]] = $col["gflops"]; p[$col["kernel"]] = $col["pct_cublas"]}
  END {
    n = split("blocktile-1d blocktile-2d vectorized warptile double-buffer", r, " ")
    for (i = 1; i <= n; ++i) {
      a = g[r[i]]; b = g[r[i] "-before"]
      if (a == "" || b == "") { printf "%s: missing from the results\n", r[i]; bad = 1; continue }
      d = 100 * (a - b) / b
      printf "%-14s %9.1f GFLOP/s, before %9.1f: %+5.1f%% %s\n", r[i], a, b, d, (d >= -2 ? "ok" : "SLOWER than 2%")
      if (d < -2) bad = 1
    }
    printf "double-buffer  %5.1f%% of cuBLAS SGEMM in this list (the figure is the user-style median below)\n", p["double-buffer"]
    exit bad
  }' "$results/bench_rungs.csv" | tee "$results/bench_rungs_compare.txt" || rc=1
# double-buffer as a user's bench measures it: three processes, clocks logged.
smi_pid=
if command -v nvidia-smi > /dev/null; then
  nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv,noheader \
    -lms 200 > "$results/double_buffer_user_smi.csv" 2>&1 &
  smi_pid=$!
fi
for i in 1 2 3; do
  "$BIN/tilescope" bench --kernels double-buffer --size 4096 --runs 20 -o "$results/double_buffer_user_$i.csv" \
    > "$results/double_buffer_user_$i.log" 2>&1 || rc=1
done
[[ -n $smi_pid ]] && kill "$smi_pid"
awk -F, 'FNR == 1 {h = 0} /^#/ {next} !h {delete col; for (i = 1; i <= NF; ++i) col[$i] = i; h = 1; next}
  $col["kernel"] == "double-buffer" {v[++n] = $col["pct_cublas"] + 0}
  END {
    for (i = 2; i <= n; ++i) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; --j) v[j + 1] = v[j]; v[j + 1] = t }
    if (n < 3) { print "double-buffer as a user measures it: " n " of 3 runs"; exit 1 }
    printf "double-buffer as a user measures it: %.1f%% of cuBLAS SGEMM at 4096^3 (median of %d processes; %.1f-%.1f%%) %s\n",
      v[2], n, v[1], v[n], (v[2] >= 95 ? "ok" : "BELOW 95%")
    exit v[2] < 95
  }' "$results"/double_buffer_user_[123].csv | tee "$results/double_buffer_user.txt" || rc=1
[[ -s $results/double_buffer_user_smi.csv ]] &&
  awk -F', ' '{c[$2]++; if ($5 != "0x0000000000000000") r[$5]++; if ($3 + 0 > p) p = $3 + 0}
    END {printf "SM clock while it ran:"; for (k in c) printf " %s x%d", k, c[k]; printf "; peak power %.0f W; throttle reasons:", p
         for (k in r) printf " %s x%d", k, r[k]; print ""}' "$results/double_buffer_user_smi.csv" | tee -a "$results/double_buffer_user.txt"
if command -v cuobjdump > /dev/null; then
  python3 scripts/sass-loop-counts.py "$BIN/tilescope" --match plain_rung _before > "$results/rungs_sass.txt" 2>&1 || rc=1
  cat "$results/rungs_sass.txt"
  # Registers per thread (occupancy): the same budget before and after (docs/ladder-notes.md, plain-build parity).
  cuobjdump -res-usage "$BIN/tilescope" 2>&1 | grep -A1 -E "plain_rung|_before" > "$results/rungs_res_usage.txt" || rc=1
  cat "$results/rungs_res_usage.txt"
fi
exit $rc
