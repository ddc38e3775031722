#!/usr/bin/env bash
# Peak memory and time of `gpu-doctor fleet --reports DIR --json` at several fleet sizes:
# for each N, N saved reports (the fixture reports in tests/fixtures/reports/ in turn) in a
# temporary folder, then the run with its output thrown away; the peak RSS is the child's
# own (wait4's rusage).
#
#   scripts/bench-fleet-reports.sh [N ...]        (default: 200 2000 20000)
#   GPU_DOCTOR=target/release/gpu-doctor scripts/bench-fleet-reports.sh 2000
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${GPU_DOCTOR:-target/debug/gpu-doctor}"
[ -x "$bin" ] || cargo build --quiet
[ "$#" -gt 0 ] || set -- 200 2000 20000
exec python3 - "$bin" "$@" <<'PY'
import glob, os, shutil, sys, tempfile, time
binary, sizes = sys.argv[1], [int(n) for n in sys.argv[2:]]
reports = [open(p, "rb").read() for p in sorted(glob.glob("tests/fixtures/reports/*.json"))]
for n in sizes:
    d = tempfile.mkdtemp(prefix="gpu-doctor-bench-")
    try:
        for i in range(n):
            with open(f"{d}/node{i:06}.json", "wb") as f:
                f.write(reports[i % len(reports)])
        start = time.time()
        pid = os.fork()
        if pid == 0:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.dup2(null, 2)
            os.execv(binary, [binary, "fleet", "--json", "--reports", d])
        _, status, usage = os.wait4(pid, 0)
        print(f"{n} hosts: exit {os.waitstatus_to_exitcode(status)}, "
              f"peak RSS {usage.ru_maxrss} KiB, {time.time() - start:.1f} s", flush=True)
    finally:
        shutil.rmtree(d)
PY
