#!/usr/bin/env bash
# Validate gpu-doctor on a machine with NVIDIA GPUs: every probe on every GPU with its
# timings, the report without probes (timed, NVML start-up included), `--deep` against a
# real PyTorch, and the NVML facts; everything lands in one folder.
#
#   scripts/validate-hardware.sh [--out DIR] [--python PATH]... [--runs N]
#
#   --out DIR      where the results go (default target/validate-hardware/HOST-DATE)
#   --python PATH  an interpreter or venv with the torch to ask (`--deep`); repeatable;
#                  without one, --deep looks at what gpu-doctor finds on PATH
#   --runs N       timed repetitions of the no-probe report (default 5)
#
# The binary is $GPU_DOCTOR_BIN, else target/release/gpu-doctor (built here with cargo
# when missing). Copy that binary to the GPU machine if it has no Rust toolchain. Every
# environment variable is passed through, so CUDA_VISIBLE_DEVICES and the like apply.
#
# Results:
#   report.json     the full report with every probe (`--save`; replayable with --from)
#   report.txt      the same as text
#   timings.txt     each probe's time on each GPU, the whole suite, the no-probe report,
#                   and the goals (suite under 5 s per GPU, no-probe report under 1 s)
#   no-probes.json  the report without probes; no-probes-times.txt its wall times (ms)
#   deep.json       the report with --deep (torch asked in a subprocess)
#   nvml.json       facts.driver_api (NVML and the CUDA driver API as the driver answered)
#   machine.txt     uname, nvidia-smi -L and -q, the binary's version
# To keep a machine's report as a regression fixture, copy report.json to
# tests/fixtures/real/NAME.json: tests/real_hardware.rs replays every file there with
# --from and expects the verdict the report recorded.
set -uo pipefail
cd "$(dirname "$0")/.."

out=""
runs=5
pythons=()
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out="$2"; shift 2 ;;
        --python) pythons+=(--python "$2"); shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
        *) echo "validate-hardware.sh: unknown argument $1" >&2; exit 3 ;;
    esac
done
[ -n "$out" ] || out="target/validate-hardware/$(hostname -s 2>/dev/null || echo host)-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out" || exit 3

bin="${GPU_DOCTOR_BIN:-target/release/gpu-doctor}"
if [ ! -x "$bin" ]; then
    if command -v cargo >/dev/null 2>&1; then
        cargo build --release --locked -q || exit 3
    else
        echo "validate-hardware.sh: no gpu-doctor at $bin and no cargo to build it (set GPU_DOCTOR_BIN)" >&2
        exit 3
    fi
fi

ms_now() { date +%s%N | cut -b1-13; }
log() { echo "validate-hardware: $*" >&2; }

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "uname: $(uname -a)"
    echo "gpu-doctor: $("$bin" -V 2>&1)"
    if command -v nvidia-smi >/dev/null 2>&1; then
        echo "--- nvidia-smi -L"; nvidia-smi -L 2>&1
        echo "--- nvidia-smi -q"; nvidia-smi -q 2>&1
    else
        echo "nvidia-smi: not found"
    fi
} > "$out/machine.txt"

log "the report without probes, $runs times"
: > "$out/no-probes-times.txt"
for _ in $(seq 1 "$runs"); do
    t0=$(ms_now)
    "$bin" --json --no-probes > "$out/no-probes.json" 2> "$out/no-probes.stderr"
    echo $(( $(ms_now) - t0 )) >> "$out/no-probes-times.txt"
done

log "every probe on every GPU"
t0=$(ms_now)
"$bin" --json --force --save "$out/report.json" > /dev/null 2> "$out/report.stderr"
code=$?
suite_ms=$(( $(ms_now) - t0 ))
"$bin" --plain --color never --from "$out/report.json" > "$out/report.txt" 2>&1

log "--deep against the torch found"
"$bin" --json --no-probes --deep "${pythons[@]}" > "$out/deep.json" 2> "$out/deep.stderr"

# Timings and the goals, read from the saved report (python3 when present).
if command -v python3 >/dev/null 2>&1; then
    python3 - "$out" "$suite_ms" "$code" <<'PY' > "$out/timings.txt"
import json, sys, os
out, suite_ms, code = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
r = json.load(open(os.path.join(out, "report.json")))
json.dump(r["facts"].get("driver_api"), open(os.path.join(out, "nvml.json"), "w"), indent=2)
probes = r["facts"].get("probes") or []
gpus = sorted({p["cuda_ordinal"] for p in probes})
print(f"verdict: {r['summary']['verdict']} (exit {code}); whole run with every probe: {suite_ms} ms")
for g in gpus:
    mine = [p for p in probes if p["cuda_ordinal"] == g]
    total = sum(p["elapsed_ms"] for p in mine)
    name = mine[0].get("gpu_name") or "?"
    print(f"\nCUDA device {g} ({name}): probes {total} ms in all (goal: under 5000 ms) {'OK' if total < 5000 else 'SLOW'}")
    for p in mine:
        o = p["outcome"]
        ms = ", ".join(f'{m["name"]}={m["value"]:.4g} {m["unit"]}' for m in o.get("measurements", []))
        print(f'  {p["probe"]:<11} {o["status"]:<9} {p["elapsed_ms"]:>7} ms  {ms}')
times = [int(x) for x in open(os.path.join(out, "no-probes-times.txt")).read().split()]
if times:
    times.sort()
    med = times[len(times) // 2]
    print(f"\nreport without probes (NVML start-up included): median {med} ms of {times} (goal: under 1000 ms) {'OK' if med < 1000 else 'SLOW'}")
PY
else
    echo "verdict exit code $code; whole run with every probe: $suite_ms ms (python3 not found: no per-probe table)" > "$out/timings.txt"
fi
cat "$out/timings.txt"
log "results in $out"
exit 0
