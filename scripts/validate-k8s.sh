#!/usr/bin/env bash
# Validates Kubernetes manifests (default: deploy/k8s/*.yaml) against the Kubernetes
# OpenAPI schemas with the PyPI package kubernetes-validate, strict (unknown fields are
# errors), installed once into a cached venv under ~/.cache/gpu-doctor/.
# Exit status: 0 all valid, non-zero otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${GPU_DOCTOR_K8S_VALIDATE_VENV:-$HOME/.cache/gpu-doctor/kubernetes-validate}"
version="1.37.0"
if [ ! -x "$venv/bin/kubernetes-validate" ]; then
    echo "validate-k8s: installing kubernetes-validate $version into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "kubernetes-validate==$version"
fi
if [ "$#" -eq 0 ]; then
    set -- deploy/k8s/*.yaml
fi
exec "$venv/bin/kubernetes-validate" --strict --quiet --kubernetes-version 1.30.0 "$@"
