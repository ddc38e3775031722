#!/usr/bin/env bash
# Benchmark: gpu-doctor's full no-probe report against the tools people use today,
# on the same Python environment. Needs the venvs of scripts/prepare-test-venvs.sh
# (or a venv path as $1) and hyperfine (installed with apt when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
venvs="${GPU_DOCTOR_TEST_VENVS:-$HOME/.cache/gpu-doctor/test-venvs}"
venv="${1:-$venvs/torch-current}"
[ -x "$venv/bin/python" ] || { echo "bench.sh: no venv at $venv (run scripts/prepare-test-venvs.sh)" >&2; exit 1; }
if ! command -v hyperfine >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq hyperfine
fi
cargo build --release --locked -q
out="target/bench"
mkdir -p "$out"
cmds=(
    "target/release/gpu-doctor --json --no-probes --python $venv/bin/python"
    "target/release/gpu-doctor --plain --no-probes --python $venv/bin/python"
    "$venv/bin/python -m torch.utils.collect_env"
)
if command -v nvidia-smi >/dev/null 2>&1; then
    # With a GPU: the full run with every probe, and the tools people use today.
    cmds+=("target/release/gpu-doctor --json --python $venv/bin/python" "nvidia-smi" "nvidia-smi -q")
fi
# -N: no intermediate shell; -i: gpu-doctor exits 2 on a machine without a GPU.
hyperfine -N -i --warmup 3 --min-runs 10 --export-json "$out/bench.json" --export-markdown "$out/bench.md" "${cmds[@]}"
python3 - "$out/bench.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
base = r[0]["median"]
for x in r:
    print(f'{x["median"]*1000:9.1f} ms median  {x["median"]/base:7.1f}x  {x["command"]}')
PY
