#!/bin/bash
# Slurm HealthCheckProgram running gpu-doctor directly (without NHC; with NHC use
# gpu_doctor.nhc instead). In slurm.conf:
#
#   HealthCheckProgram=/usr/local/sbin/gpu-doctor-healthcheck
#   HealthCheckInterval=300
#   HealthCheckNodeState=ANY,CYCLE
#
# slurmd runs it as root on every node and kills it after 60 seconds, so gpu-doctor gets
# 45 (GPU_DOCTOR_TIMEOUT). When the node cannot run GPU work it is drained with
# gpu-doctor's one-line reason; when it can again, a drain that gpu-doctor set (reason
# starting "gpu-doctor:") is lifted. Drains set by people are left alone.
set -u
GPU_DOCTOR="${GPU_DOCTOR:-/usr/local/bin/gpu-doctor}"
GPU_DOCTOR_TIMEOUT="${GPU_DOCTOR_TIMEOUT:-45}"
GPU_DOCTOR_ARGS="${GPU_DOCTOR_ARGS---tier quick --probe-timeout 10s}"
node="${SLURMD_NODENAME:-$(hostname -s)}"

# shellcheck disable=SC2086  # GPU_DOCTOR_ARGS is a list of words
line=$(timeout -k 5 "$GPU_DOCTOR_TIMEOUT" "$GPU_DOCTOR" --slurm $GPU_DOCTOR_ARGS 2>/dev/null)
rc=$?
line="${line%%$'\n'*}"
case $rc in
    0)
        reason=$(sinfo -h -N -n "$node" -o '%E' 2>/dev/null | head -n 1)
        if [[ "$reason" == gpu-doctor:* ]]; then
            scontrol update nodename="$node" state=resume
        fi
        exit 0
        ;;
    124 | 137) line="gpu-doctor: no answer within ${GPU_DOCTOR_TIMEOUT}s (hung driver or GPU?)" ;;
    126 | 127) line="gpu-doctor: $GPU_DOCTOR could not be run (exit $rc)" ;;
esac
scontrol update nodename="$node" state=drain reason="${line:-gpu-doctor: exit status $rc and no reason}"
exit 0
