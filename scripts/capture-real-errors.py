#!/usr/bin/env python3
"""Raise known CUDA errors on a real GPU on purpose and keep each one's text.

    python3 scripts/capture-real-errors.py OUT_DIR

Needs the machine's PyTorch (and CuPy for the illegal-address cases). Each case runs in a
process of its own, so a poisoned CUDA context ends with it; OUT_DIR/NAME.txt gets its
stdout and stderr and its exit status. Then `gpu-doctor explain --file OUT_DIR/NAME.txt`
should name the cause; tests/real_hardware.rs checks the ones kept in
tests/fixtures/real/errors/. Nothing here changes a GPU setting; the illegal address is
an ordinary application fault (Xid 31 in the kernel log), the device-side assert an Xid 43.
"""
import os
import subprocess
import sys

WRITE_NULL = r'''extern "C" __global__ void w(int* p) { p[threadIdx.x] = 1; }'''

CASES = {
    # torch.OutOfMemoryError: more than any GPU has.
    "oom": "import torch; torch.empty(400 * 2**30, dtype=torch.uint8, device='cuda')",
    # An out-of-range index: the device-side assert, reported at the next sync.
    "device_assert": (
        "import torch\n"
        "x = torch.zeros(3, device='cuda'); i = torch.tensor([5], device='cuda')\n"
        "y = x[i]; torch.cuda.synchronize(); print(y)"
    ),
    "invalid_ordinal": "import torch; torch.zeros(1, device='cuda:3')",
    "no_visible": "import torch; torch.zeros(1, device='cuda')",
    # A kernel writing near address 0.
    "illegal_address": (
        "import cupy as cp\n"
        f"k = cp.RawKernel(r'''{WRITE_NULL}''', 'w')\n"
        "k((1,), (32,), (cp.uint64(16),)); cp.cuda.Device().synchronize()"
    ),
    # The same fault, then torch's next call on the poisoned context: the sticky error.
    "sticky_after_illegal": (
        "import torch\nimport cupy as cp\n"
        "x = torch.ones(4, device='cuda')\n"
        f"k = cp.RawKernel(r'''{WRITE_NULL}''', 'w')\n"
        "try:\n"
        "    k((1,), (32,), (cp.uint64(16),)); cp.cuda.Device().synchronize()\n"
        "except Exception as e:\n"
        "    print('cupy:', e, flush=True)\n"
        "print((x * 2).sum().item())"
    ),
    # One rank asking for a GPU the machine lacks, under torch.distributed.
    "nccl_single": (
        "import os, torch, torch.distributed as dist\n"
        "os.environ.update(MASTER_ADDR='127.0.0.1', MASTER_PORT='29511')\n"
        "dist.init_process_group('nccl', rank=0, world_size=1)\n"
        "t = torch.ones(1, device='cuda:1'); dist.all_reduce(t)"
    ),
    # A program's own mistake: no cause on the machine.
    "bf16_matmul_bad_shape": (
        "import torch\n"
        "a = torch.ones(3, 4, device='cuda', dtype=torch.bfloat16)\n"
        "b = torch.ones(5, 6, device='cuda', dtype=torch.bfloat16)\n"
        "a @ b"
    ),
}

ENV = {"no_visible": {"CUDA_VISIBLE_DEVICES": ""}}


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, code in CASES.items():
        env = dict(os.environ)
        env.update(ENV.get(name, {}))
        try:
            p = subprocess.run([sys.executable, "-c", code], capture_output=True,
                               text=True, timeout=120, env=env)
            text = p.stdout + p.stderr + f"\n[exit {p.returncode}]\n"
        except subprocess.TimeoutExpired as e:
            text = f"[timed out after 120 s]\n{e.stdout or ''}\n{e.stderr or ''}"
        with open(os.path.join(out, name + ".txt"), "w") as f:
            f.write(text)
        print(name, "kept", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
