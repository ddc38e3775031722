#!/usr/bin/env python3
"""Raise known CUDA errors on a real GPU on purpose and keep each one's text.

    python3 scripts/capture-real-errors.py OUT_DIR [CASE...]

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
WRITE_EACH = WRITE_NULL
MISALIGNED_KERNEL = r'''extern "C" __global__ void w(char* p) { *(int*)(p + 1) = 1; }'''

NO_SM90_PROGRAM = r'''#include <cstdio>
__global__ void k(int* p) { p[0] = 1; }
int main() {
  int* p;
  cudaMalloc(&p, 4);
  k<<<1, 1>>>(p);
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  printf("CUDA error: %s (%s)\n", cudaGetErrorString(e), cudaGetErrorName(e));
  return e != cudaSuccess;
}
'''

EXTENSION_SOURCE = r'''#include <torch/extension.h>
#include <c10/cuda/CUDAException.h>
__global__ void k(float* p) { p[threadIdx.x] += 1.f; }
void run(torch::Tensor t) {
  k<<<1, t.numel()>>>(t.data_ptr<float>());
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}
'''

DUPLICATE_GPU_JOB = r'''import torch, torch.distributed as dist
torch.cuda.set_device(0)
dist.init_process_group("nccl")
t = torch.ones(1, device="cuda:0")
dist.all_reduce(t)
print(t)
'''

TRITON_BIG_TILE = r'''import torch, triton, triton.language as tl
@triton.jit
def k(X, B: tl.constexpr):
    o = tl.arange(0, B)
    x = tl.load(X + o[:, None] * B + o[None, :])
    tl.store(X + o[:, None] * B + o[None, :], tl.dot(x, x))
x = torch.ones(256 * 256, device="cuda")
k[(1,)](x, B=256, num_stages=8)
torch.cuda.synchronize()
'''

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
    # A CUDA program built for sm_100 only, run on an older GPU (nvcc on PATH).
    "no_kernel_image_nvcc": (
        "import os, subprocess, tempfile\n"
        "d = tempfile.mkdtemp(); src = os.path.join(d, 'k.cu')\n"
        "open(src, 'w').write(" + repr(NO_SM90_PROGRAM) + ")\n"
        "subprocess.run(['nvcc', '-arch=sm_100', '-o', os.path.join(d, 'k'), src], check=True)\n"
        "raise SystemExit(subprocess.run([os.path.join(d, 'k')]).returncode)"
    ),
    # A torch extension built for sm_100 only (TORCH_CUDA_ARCH_LIST=10.0), called here.
    "torch_extension_wrong_arch": (
        "import os; os.environ['TORCH_CUDA_ARCH_LIST'] = '10.0'\n"
        "import torch\nfrom torch.utils.cpp_extension import load_inline\n"
        "m = load_inline('wrongarch', cpp_sources='void run(torch::Tensor t);', cuda_sources="
        + repr(EXTENSION_SOURCE) + ", functions=['run'])\n"
        "t = torch.zeros(4, device='cuda'); m.run(t); torch.cuda.synchronize(); print(t)"
    ),
    # Two ranks of one job on the same GPU: NCCL refuses.
    "nccl_duplicate_gpu": (
        "import os, subprocess, sys, tempfile\n"
        "f = os.path.join(tempfile.mkdtemp(), 'job.py')\n"
        "open(f, 'w').write(" + repr(DUPLICATE_GPU_JOB) + ")\n"
        "raise SystemExit(subprocess.run([sys.executable, '-m', 'torch.distributed.run',"
        " '--nproc_per_node=2', '--master_port=29512', f], timeout=100).returncode)"
    ),
    "misaligned_address": (
        "import cupy as cp\n"
        "k = cp.RawKernel(" + repr(MISALIGNED_KERNEL) + ", 'w')\n"
        "x = cp.zeros(16, dtype=cp.int8); k((1,), (1,), (x,)); cp.cuda.Device().synchronize()"
    ),
    "block_too_large": (
        "import cupy as cp\n"
        "k = cp.RawKernel(" + repr(WRITE_EACH) + ", 'w')\n"
        "x = cp.zeros(4096, dtype=cp.int32); k((1,), (2048,), (x,)); cp.cuda.Device().synchronize()"
    ),
    # A host sync inside CUDA graph capture.
    "stream_capture_sync": (
        "import torch\nx = torch.ones(4, device='cuda'); g = torch.cuda.CUDAGraph()\n"
        "with torch.cuda.graph(g):\n    y = (x * 2).sum().item()"
    ),
    "jax_oom": "import jax.numpy as jnp; x = jnp.ones((100 * 2**30,), dtype=jnp.float32); print(x.sum())",
    # A Triton kernel asking for more shared memory than the GPU has.
    "triton_shared_memory": (
        "import os, subprocess, sys, tempfile\n"
        "f = os.path.join(tempfile.mkdtemp(), 'k.py')\n"
        "open(f, 'w').write(" + repr(TRITON_BIG_TILE) + ")\n"
        "raise SystemExit(subprocess.run([sys.executable, f]).returncode)"
    ),
    # CUDA used in the parent, then in a forked child.
    "fork_after_cuda": (
        "import torch, multiprocessing as mp\n"
        "def child(): torch.zeros(1, device='cuda')\n"
        "torch.zeros(1, device='cuda')\n"
        "p = mp.get_context('fork').Process(target=child); p.start(); p.join()\n"
        "raise SystemExit(p.exitcode)"
    ),
    # The toolkit's stub libcuda found first as libcuda.so.1.
    "stub_libcuda": (
        "import glob, os, subprocess, sys, tempfile\n"
        "stub = sorted(glob.glob('/usr/local/cuda*/lib64/stubs/libcuda.so')"
        " + glob.glob('/usr/local/cuda*/targets/*/lib/stubs/libcuda.so'))[0]\n"
        "d = tempfile.mkdtemp(); os.symlink(stub, os.path.join(d, 'libcuda.so.1'))\n"
        "env = dict(os.environ, LD_LIBRARY_PATH=d)\n"
        "code = 'import torch; print(torch.cuda.is_available()); torch.zeros(1, device=\"cuda\")'\n"
        "raise SystemExit(subprocess.run([sys.executable, '-c', code], env=env).returncode)"
    ),
    # A program's own mistake: tensors on two devices.
    "tensors_on_two_devices": "import torch; torch.ones(2, 2, device='cuda').mm(torch.ones(2, 2))",
}

ENV = {"no_visible": {"CUDA_VISIBLE_DEVICES": ""}}


# Building the extension compiles C++ and CUDA: minutes, not seconds.
TIMEOUT = {"torch_extension_wrong_arch": 400, "triton_shared_memory": 300}


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out, only = sys.argv[1], sys.argv[2:]
    unknown = [n for n in only if n not in CASES]
    if unknown:
        print(f"unknown cases: {', '.join(unknown)}; known: {', '.join(CASES)}", file=sys.stderr)
        return 2
    os.makedirs(out, exist_ok=True)
    for name, code in CASES.items():
        if only and name not in only:
            continue
        limit = TIMEOUT.get(name, 120)
        env = dict(os.environ)
        env.update(ENV.get(name, {}))
        try:
            p = subprocess.run([sys.executable, "-c", code], capture_output=True,
                               text=True, timeout=limit, env=env)
            text = p.stdout + p.stderr + f"\n[exit {p.returncode}]\n"
        except subprocess.TimeoutExpired as e:
            text = f"[timed out after {limit} s]\n{e.stdout or ''}\n{e.stderr or ''}"
        with open(os.path.join(out, name + ".txt"), "w") as f:
            f.write(text)
        print(name, "kept", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
