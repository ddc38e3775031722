#!/usr/bin/env bash
# The whole test suite, from a fresh Linux machine: installs what the tests need
# (a C compiler for the fake driver libraries, minisign to sign test matrix bundles, tmux
# for the terminal UI tests, OpenSSH for the fleet tests, cached Python venvs with real
# PyTorch wheels and NVIDIA's ptxas wheel for the probe kernels), then runs
# formatting, lints and every test.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v cc >/dev/null 2>&1 || need_apt+=(gcc libc6-dev)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3 python3-venv)
command -v minisign >/dev/null 2>&1 || need_apt+=(minisign)
# The terminal UI's end-to-end tests drive the real binary in a tmux pane.
command -v tmux >/dev/null 2>&1 || need_apt+=(tmux)
# The fleet tests start a real OpenSSH server on loopback and connect with the ssh client.
[ -x /usr/sbin/sshd ] || need_apt+=(openssh-server)
command -v ssh >/dev/null 2>&1 && command -v ssh-keygen >/dev/null 2>&1 || need_apt+=(openssh-client)
if ((${#need_apt[@]})); then
    if command -v apt-get >/dev/null 2>&1; then
        SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}"
    else
        echo "test.sh: please install: ${need_apt[*]}" >&2
        exit 1
    fi
fi

# Real PyTorch wheels for the fatbin and wheel-layout tests, and ptxas (pip
# nvidia-cuda-nvcc-cu12) for tests/ptx.rs, cached between runs.
export GPU_DOCTOR_TEST_VENVS="${GPU_DOCTOR_TEST_VENVS:-$HOME/.cache/gpu-doctor/test-venvs}"
scripts/prepare-test-venvs.sh

# kubernetes-validate (PyPI) in a cached venv for the manifests in deploy/k8s/, which
# tests/deploy.rs validates again, with deliberately broken copies that must fail.
scripts/validate-k8s.sh

cargo fmt --all -- --check
cargo clippy --locked --all-targets -- -D warnings
cargo test --locked --all-targets
