#!/bin/bash
# Slurm Prolog: before a job that asked for GPUs starts on this node, check that the
# node can run GPU work; if not, drain it with gpu-doctor's reason and fail the prolog,
# so Slurm requeues the job elsewhere instead of letting it crash. In slurm.conf:
#
#   Prolog=/usr/local/sbin/gpu-doctor-prolog
#
# A prolog delays every job, so this runs facts and checks only (--no-probes: tens of
# milliseconds, no kernel launched on GPUs another job may be using), bounded at
# 20 s. The HealthCheckProgram (healthcheck.sh or gpu_doctor.nhc) runs the probes.
set -u
GPU_DOCTOR="${GPU_DOCTOR:-/usr/local/bin/gpu-doctor}"
GPU_DOCTOR_TIMEOUT="${GPU_DOCTOR_TIMEOUT:-20}"
GPU_DOCTOR_ARGS="${GPU_DOCTOR_ARGS---no-probes}"
node="${SLURMD_NODENAME:-$(hostname -s)}"

# Jobs that asked for no GPU are not held up.
if [[ -z "${SLURM_JOB_GPUS:-}" && -z "${CUDA_VISIBLE_DEVICES:-}" ]]; then
    exit 0
fi
# shellcheck disable=SC2086  # GPU_DOCTOR_ARGS is a list of words
line=$(timeout -k 2 "$GPU_DOCTOR_TIMEOUT" "$GPU_DOCTOR" --slurm $GPU_DOCTOR_ARGS 2>/dev/null)
rc=$?
[[ $rc -eq 0 ]] && exit 0
line="${line%%$'\n'*}"
[[ $rc -eq 124 || $rc -eq 137 ]] && line="gpu-doctor: no answer within ${GPU_DOCTOR_TIMEOUT}s"
line="${line:-gpu-doctor: exit status $rc and no reason}"
scontrol update nodename="$node" state=drain reason="$line"
echo "$line" >&2
exit 1
