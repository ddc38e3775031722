#!/usr/bin/env bash
# Prepares real PyTorch virtual environments for tests/real_wheels.rs.
#
# Why: the fatbin reader and the torch fact readers must agree with what torch itself
# reports for real wheels, and that can only be checked against real wheels. Importing
# torch works without a GPU, so the expected values are recorded here once and the Rust
# tests never start Python.
#
# Idempotent and cached: a venv whose marker file exists is left alone; a venv without
# it (an interrupted run) is rebuilt from scratch. pip's own cache makes rebuilds cheap.
#
#   GPU_DOCTOR_TEST_VENVS  where the venvs go (default ~/.cache/gpu-doctor/test-venvs)
#   PYTHON                 the interpreter to build them from (default python3)
#   ONLY                   build only this venv name (e.g. torch-2.4.1)
set -euo pipefail

ROOT="${GPU_DOCTOR_TEST_VENVS:-$HOME/.cache/gpu-doctor/test-venvs}"
PYTHON="${PYTHON:-python3}"
MARKER=".gpu-doctor-ready"

# name  pip requirement
VENVS=(
  "torch-2.4.1 torch==2.4.1"
  "torch-current torch==2.15.0"
)

# Written into each venv: what torch reports about itself, for the tests to compare with.
RECORD_PY='
import json, torch
out = {
    "version": torch.__version__,
    "cuda": torch.version.cuda,
    "arch_list": torch.cuda.get_arch_list(),
    "arch_flags": torch._C._cuda_getArchFlags(),
}
try:
    out["cudnn"] = torch.backends.cudnn.version()
except Exception as e:
    out["cudnn"] = None
    out["cudnn_error"] = str(e)
try:
    v = torch.cuda.nccl.version()
    out["nccl"] = ".".join(str(x) for x in v) if isinstance(v, tuple) else str(v)
except Exception as e:
    out["nccl"] = None
    out["nccl_error"] = str(e)
print(json.dumps(out, indent=1))
'

prepare() {
  local name="$1" requirement="$2"
  local venv="$ROOT/$name"
  if [[ -f "$venv/$MARKER" ]]; then
    echo "== $name: ready (remove $venv/$MARKER to rebuild)"
    return 0
  fi
  echo "== $name: building ($requirement)"
  rm -rf "$venv"
  "$PYTHON" -m venv "$venv"
  "$venv/bin/python" -m pip install --no-input --quiet "$requirement"
  # Run from an empty folder so nothing in the cwd shadows torch.
  local scratch
  scratch="$(mktemp -d)"
  (
    cd "$scratch"
    "$venv/bin/python" -c 'import torch; print(" ".join(torch.cuda.get_arch_list())); print(torch._C._cuda_getArchFlags())' \
      >"$venv/torch-arch.txt"
    "$venv/bin/python" -c "$RECORD_PY" >"$venv/torch-expected.json"
  )
  rmdir "$scratch"
  date -u +%Y-%m-%dT%H:%M:%SZ >"$venv/$MARKER"
  echo "== $name: done"
}

mkdir -p "$ROOT"
for entry in "${VENVS[@]}"; do
  read -r name requirement <<<"$entry"
  if [[ -n "${ONLY:-}" && "$ONLY" != "$name" ]]; then
    continue
  fi
  prepare "$name" "$requirement"
done
# ptxas from NVIDIA's pip wheel, for tests/ptx.rs (validates assets/probes.ptx for
# every target from sm_50 up). CUDA 12.9 is the last ptxas that still targets sm_50-sm_72.
PTXAS_VENV="$ROOT/ptxas-12.9"
if [[ -z "${ONLY:-}" || "$ONLY" == "ptxas-12.9" ]]; then
  if [[ -f "$PTXAS_VENV/$MARKER" ]]; then
    echo "== ptxas-12.9: ready"
  else
    echo "== ptxas-12.9: building (nvidia-cuda-nvcc-cu12==12.9.86)"
    rm -rf "$PTXAS_VENV"
    "$PYTHON" -m venv "$PTXAS_VENV"
    "$PTXAS_VENV/bin/python" -m pip install --no-input --quiet "nvidia-cuda-nvcc-cu12==12.9.86"
    chmod +x "$PTXAS_VENV"/lib/python3*/site-packages/nvidia/cuda_nvcc/bin/ptxas
    date -u +%Y-%m-%dT%H:%M:%SZ >"$PTXAS_VENV/$MARKER"
  fi
fi
echo "venvs under $ROOT"
