/* A fake libcuda.so.1 for gpu-doctor's tests: the real C ABI (names and signatures
 * from cuda.h), behaviour told through environment variables read at call time:
 *   FAKE_CUDA_INIT=N             cuInit returns CUresult N (default 0)
 *   FAKE_CUDA_HANG=1             cuInit never returns
 *   FAKE_CUDA_CRASH=1            cuInit dies of SIGSEGV (a store to NULL)
 *   FAKE_CUDA_EXIT=N             cuInit ends the process with exit status N
 *   FAKE_CUDA_STDOUT=TEXT        cuInit prints TEXT (no newline) to stdout first, as
 *                                chatty libraries do
 *   FAKE_CUDA_DRIVER_VERSION=N   cuDriverGetVersion (default 12040); works without cuInit
 *   FAKE_CUDA_DEVICES=N          cuDeviceGetCount after a successful cuInit (default 1)
 * cuGetErrorName/cuGetErrorString know a few codes and, like the real ones, return
 * CUDA_ERROR_INVALID_VALUE with a NULL string for the others. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef int CUresult;

#define CUDA_SUCCESS 0
#define CUDA_ERROR_INVALID_VALUE 1
#define CUDA_ERROR_NOT_INITIALIZED 3

static int initialised;

/* A real fault, not raise(): Rust's runtime handles SIGSEGV to detect stack overflow
 * and returns from a raised one, but a faulting store re-faults after the handler. */
static void crash(void) {
    *(volatile int *)0 = 0;
    abort();
}

static int env_int(const char *name, int fallback) {
    const char *v = getenv(name);
    return v && *v ? atoi(v) : fallback;
}

CUresult cuInit(unsigned int flags) {
    (void)flags;
    if (env_int("FAKE_CUDA_HANG", 0))
        for (;;) pause();
    if (env_int("FAKE_CUDA_CRASH", 0)) crash();
    const char *chatter = getenv("FAKE_CUDA_STDOUT");
    if (chatter) {
        fputs(chatter, stdout);
        fflush(stdout);
    }
    if (env_int("FAKE_CUDA_EXIT", 0)) exit(env_int("FAKE_CUDA_EXIT", 0));
    CUresult rc = env_int("FAKE_CUDA_INIT", 0);
    initialised = rc == CUDA_SUCCESS;
    return rc;
}

CUresult cuDriverGetVersion(int *version) {
    if (!version) return CUDA_ERROR_INVALID_VALUE;
    *version = env_int("FAKE_CUDA_DRIVER_VERSION", 12040);
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count) {
    if (!count) return CUDA_ERROR_INVALID_VALUE;
    if (!initialised) return CUDA_ERROR_NOT_INITIALIZED;
    *count = env_int("FAKE_CUDA_DEVICES", 1);
    return CUDA_SUCCESS;
}

struct known { CUresult code; const char *name; const char *text; };
static const struct known KNOWN[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {802, "CUDA_ERROR_SYSTEM_NOT_READY", "system not yet initialized"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
     "system has unsupported display driver / cuda driver combination"},
    {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
     "forward compatibility was attempted on non supported HW"},
    {999, "CUDA_ERROR_UNKNOWN", "unknown error"},
    {4242, "CUDA_ERROR_FROM_THE_FUTURE", "a code newer than the bindings"},
};

static const struct known *lookup(CUresult code) {
    for (size_t i = 0; i < sizeof KNOWN / sizeof KNOWN[0]; i++)
        if (KNOWN[i].code == code) return &KNOWN[i];
    return NULL;
}

CUresult cuGetErrorName(CUresult error, const char **str) {
    const struct known *k = lookup(error);
    if (!str) return CUDA_ERROR_INVALID_VALUE;
    *str = k ? k->name : NULL;
    return k ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult error, const char **str) {
    const struct known *k = lookup(error);
    if (!str) return CUDA_ERROR_INVALID_VALUE;
    *str = k ? k->text : NULL;
    return k ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
