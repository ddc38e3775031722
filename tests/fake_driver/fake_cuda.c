/* A fake libcuda.so.1 for gpu-doctor's tests: the real C ABI (names and signatures
 * from cuda.h), behaviour told through environment variables read at call time.
 * "Device memory" is host memory, so the probes' copies and kernels really move data;
 * the known kernels (assets/probes.ptx) are emulated in C by name.
 *
 * Driver state
 *   FAKE_CUDA_INIT=N             cuInit returns CUresult N (default 0)
 *   FAKE_CUDA_HANG=1             cuInit never returns
 *   FAKE_CUDA_CRASH=1            cuInit dies of SIGSEGV (a store to NULL)
 *   FAKE_CUDA_EXIT=N             cuInit ends the process with exit status N
 *   FAKE_CUDA_STDOUT=TEXT        cuInit prints TEXT (no newline) to stdout first
 *   FAKE_CUDA_DRIVER_VERSION=N   cuDriverGetVersion (default 12040); works without cuInit
 *   FAKE_CUDA_PIDFILE=PATH       cuInit appends "PID\n" to PATH (tests check the
 *                                process is gone after a time-out)
 * Machine profile
 *   FAKE_CUDA_GPUS="NAME,CC,MEMORY_BYTES,PCI_BUS_ID,UUID;..."  (falls back to
 *                                FAKE_NVML_GPUS, same format; UUID "GPU-…")
 *   FAKE_CUDA_DEVICES=N          without a GPU list: N generic GPUs (default 1)
 *   FAKE_CUDA_COUNT_ERROR=N      cuDeviceGetCount returns CUresult N
 *   FAKE_CUDA_COUNT=N            cuDeviceGetCount reports N (may be negative)
 *   FAKE_CUDA_ORDER="1,0"        CUDA's default (fastest-first) order, as positions in
 *                                the profile; CUDA_DEVICE_ORDER=PCI_BUS_ID sorts by bus id
 *   CUDA_VISIBLE_DEVICES         honoured like the real driver: indices or GPU-UUID
 *                                prefixes, reading stops at the first entry that matches
 *                                nothing
 *   FAKE_CUDA_MAX_GRID="X,Y,Z"   grid limits (default 2147483647,65535,65535)
 *   FAKE_CUDA_USED=BYTES         memory other processes hold on every GPU
 *   FAKE_CUDA_COUNT=N            cuDeviceGetCount reports N (a corrupt answer)
 * Faults
 *   FAKE_CUDA_GRID_ERROR=N       code of a launch past the grid limits (default 1,
 *                                CUDA_ERROR_INVALID_VALUE)
 *   FAKE_CUDA_OOM_ERROR=N        code of an allocation past free memory (default 2)
 *   FAKE_CUDA_LEAK=1             cuMemFree_v2 does not give memory back
 *   FAKE_CUDA_JIT_ERROR=N        cuModuleLoadData returns N (e.g. 218, 222)
 *   FAKE_CUDA_HANG_CONTEXT=1     cuDevicePrimaryCtxRetain never returns (a GPU that
 *                                hangs on context creation; cuInit still works)
 *   FAKE_CUDA_HANG_KERNEL=NAME   launching kernel NAME never returns
 *   FAKE_CUDA_CRASH_KERNEL=NAME  launching kernel NAME dies of SIGSEGV
 *   FAKE_CUDA_WRONG_KERNEL=NAME  kernel NAME writes wrong results
 *   FAKE_CUDA_GRAPH_ERROR=N      cuGraphInstantiateWithFlags returns N
 *   FAKE_CUDA_COPY_GBPS=F        copies take as long as at F GB/s (default: as fast as
 *                                memcpy)
 *   FAKE_CUDA_STICKY_KERNEL=NAME kernel NAME faults with CUDA_ERROR_ILLEGAL_ADDRESS (700) when
 *                                it runs; like a real fault this poisons the context: every
 *                                later call that needs it returns 700 until the process ends
 *   FAKE_CUDA_BLOCK_NS=N         each block of a kernel takes N ns of (slept) GPU time
 *   FAKE_CUDA_MEMORY_GBPS=F      device memory bandwidth (default 3000 GB/s): the GPU clock
 *                                that events read advances by a device copy's bytes read
 *                                and written at this rate (and by kernels' block time)
 *   FAKE_CUDA_WATCHDOG=1         CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT is 1 (a GPU driving a
 *                                display) and a kernel over FAKE_CUDA_WATCHDOG_MS (default
 *                                2000) of GPU time dies with CUDA_ERROR_LAUNCH_TIMEOUT (702)
 *   FAKE_CUDA_SMS=N              multiprocessor count (default 132)
 *   FAKE_CUDA_JIT_LOG=TEXT       what the JIT writes to the error log buffer on a failure
 *   FAKE_CUDA_MODULE_BYTES=N     the first module loaded in a context reserves N bytes of
 *                                device memory for good (as the real driver's lazy loading
 *                                and local memory do; default 0)
 *   FAKE_CUDA_USED_STEP=BYTES    other processes take BYTES more on every cuMemGetInfo_v2
 *   FAKE_CUDA_FORK_CHILD=1       cuInit forks a child that sleeps 600 s holding stdout/stderr
 *   FAKE_CUDA_STDOUT_BYTES=N     cuInit writes N bytes of chatter (no newline) to stdout
 * Peer access (cuDeviceCanAccessPeer, cuCtxEnablePeerAccess, cuMemcpyPeerAsync), as cuda.h
 * documents it: a device never reports access to itself; enabling access twice returns
 * CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED (704), to a pair without access
 * CUDA_ERROR_PEER_ACCESS_UNSUPPORTED (217), to the current context itself or a bad one
 * CUDA_ERROR_INVALID_CONTEXT (201), with flags other than 0 CUDA_ERROR_INVALID_VALUE; a peer
 * copy is queued on its stream like any asynchronous copy.
 *   FAKE_CUDA_P2P=0              no pair of GPUs reports peer access
 *   FAKE_CUDA_P2P_DENY="0>1,..." these ordered pairs (CUDA ordinals) report no access
 *   FAKE_CUDA_P2P_PAIR="0>1"     the faults below hit only this ordered pair (default: all)
 *   FAKE_CUDA_P2P_CORRUPT=1      a peer copy completes without an error but one word arrives
 *                                changed (an IOMMU/ACS-style redirect)
 *   FAKE_CUDA_P2P_HANG=1         a peer copy never completes (whatever waits for it hangs)
 *   FAKE_CUDA_P2P_GBPS=F         peer copies advance the GPU clock as at F GB/s (default: the
 *                                memory bandwidth, as device copies)
 *   FAKE_CUDA_P2P_ERROR=N        a peer copy faults with CUresult N when it runs (sticky if N is)
 * Asynchrony, as NVIDIA documents it ("API synchronization behavior", "Stream
 * synchronization behavior"): kernels, graph launches, cuMemsetD32_v2, cuMemcpyDtoD_v2,
 * event records and work libraries enqueue (fake_cuda_enqueue_host) are queued and run
 * only when something waits for them: cuCtxSynchronize, cuStreamSynchronize, an event
 * synchronisation, cuMemFree, a copy to host, a copy from pageable memory (which first
 * syncs the legacy stream and then stages; its DMA completes later, on the legacy stream).
 * Work on the legacy stream (NULL) waits for earlier work on blocking streams and they for
 * it; a CU_STREAM_NON_BLOCKING stream orders after nothing but itself. Device memory from
 * cuMemAlloc_v2 and pinned memory from cuMemAllocHost_v2 start as garbage (0xCD), as on a
 * real GPU; copies from pinned memory are synchronous with respect to the host.
 * Built with -DFAKE_OLD_DRIVER it is a CUDA 11.2 driver: no cuGraphInstantiateWithFlags and
 * no cuDeviceGetUuid_v2 (both CUDA 11.4). Built with -DFAKE_MISSING_SYMBOL it lacks
 * cuCtxSetCurrent. Built with -DFAKE_STUB it is the toolkit's stubs/libcuda.so: every entry
 * point returns CUDA_ERROR_STUB_LIBRARY (34).
 * MIG: a profile UUID "MIG-…" is a MIG instance; cuDeviceGetUuid_v2 returns its UUID and
 * the older cuDeviceGetUuid its parent GPU's (the sixth field, "GPU-…").
 * cuGetErrorName/cuGetErrorString know a few codes and, like the real ones, return
 * CUDA_ERROR_INVALID_VALUE with a NULL string for the others. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;

#define CUDA_SUCCESS 0
#define CUDA_ERROR_INVALID_VALUE 1
#define CUDA_ERROR_OUT_OF_MEMORY 2
#define CUDA_ERROR_NOT_INITIALIZED 3
#define CUDA_ERROR_INVALID_DEVICE 101
#define CUDA_ERROR_INVALID_CONTEXT 201
#define CUDA_ERROR_INVALID_IMAGE 200
#define CUDA_ERROR_NOT_FOUND 500
#define CUDA_ERROR_INVALID_HANDLE 400
#define CUDA_ERROR_PEER_ACCESS_UNSUPPORTED 217
#define CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED 704
#define CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED 900

#ifdef FAKE_STUB
/* The toolkit's stubs/libcuda.so: links, loads, and answers every call with 34. */
#define CUDA_ERROR_STUB_LIBRARY 34
CUresult cuInit(unsigned int flags) { (void)flags; return CUDA_ERROR_STUB_LIBRARY; }
CUresult cuDriverGetVersion(int *v) { (void)v; return CUDA_ERROR_STUB_LIBRARY; }
CUresult cuDeviceGetCount(int *c) { (void)c; return CUDA_ERROR_STUB_LIBRARY; }
CUresult cuGetErrorName(CUresult e, const char **s) { (void)e; if (s) *s = NULL; return CUDA_ERROR_STUB_LIBRARY; }
CUresult cuGetErrorString(CUresult e, const char **s) { (void)e; if (s) *s = NULL; return CUDA_ERROR_STUB_LIBRARY; }
#else
#define MAX_GPUS 16
#define FIELD 96

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

static const char *env_str(const char *name) {
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

/* ---- the machine profile ------------------------------------------------------- */

struct gpu {
    char name[FIELD], cc[FIELD], memory[FIELD], bus_id[FIELD], uuid[FIELD], parent[FIELD];
    unsigned long long used;
};

static struct gpu profile[MAX_GPUS];
static int profile_count;
static int visible[MAX_GPUS]; /* CUDA ordinal -> profile position */
static int visible_count;

static void copy_field(char *dst, const char *start, size_t len) {
    if (len >= FIELD) len = FIELD - 1;
    memcpy(dst, start, len);
    dst[len] = 0;
}

static void parse_profile(void) {
    const char *spec = env_str("FAKE_CUDA_GPUS");
    if (!spec) spec = env_str("FAKE_NVML_GPUS");
    profile_count = 0;
    if (!spec) {
        int n = env_int("FAKE_CUDA_DEVICES", 1);
        for (int i = 0; i < n && i < MAX_GPUS; i++) {
            struct gpu *g = &profile[profile_count++];
            memset(g, 0, sizeof *g);
            snprintf(g->name, FIELD, "Fake GPU %d", i);
            snprintf(g->cc, FIELD, "9.0");
            snprintf(g->memory, FIELD, "85899345920");
            snprintf(g->bus_id, FIELD, "00000000:%02X:00.0", i + 1);
        }
    }
    while (spec && *spec && profile_count < MAX_GPUS) {
        struct gpu *g = &profile[profile_count];
        memset(g, 0, sizeof *g);
        char *fields[6] = {g->name, g->cc, g->memory, g->bus_id, g->uuid, g->parent};
        const char *end = strchr(spec, ';');
        if (!end) end = spec + strlen(spec);
        const char *p = spec;
        for (int f = 0; f < 6 && p <= end; f++) {
            const char *comma = memchr(p, ',', (size_t)(end - p));
            const char *stop = comma ? comma : end;
            copy_field(fields[f], p, (size_t)(stop - p));
            p = stop + 1;
        }
        profile_count++;
        spec = *end ? end + 1 : end;
    }
    for (int i = 0; i < profile_count; i++) {
        if (!profile[i].uuid[0])
            snprintf(profile[i].uuid, FIELD, "GPU-00000000-0000-0000-0000-%012d", i);
        profile[i].used = (unsigned long long)strtoull(
            env_str("FAKE_CUDA_USED") ? env_str("FAKE_CUDA_USED") : "0", NULL, 10);
    }
}

/* 0000:01:00.0 and 00000000:01:00.0 compare by their numbers. */
static unsigned long long bus_key(const char *bus) {
    unsigned int domain = 0, b = 0, d = 0, f = 0;
    if (sscanf(bus, "%x:%x:%x.%x", &domain, &b, &d, &f) != 4) return ~0ULL;
    return ((unsigned long long)domain << 24) | (b << 16) | (d << 8) | f;
}

static void order_and_filter(void) {
    int order[MAX_GPUS];
    int n = profile_count;
    for (int i = 0; i < n; i++) order[i] = i;
    const char *fastest = env_str("FAKE_CUDA_ORDER");
    if (fastest) {
        int k = 0;
        const char *p = fastest;
        while (*p && k < n) {
            int pos = atoi(p);
            if (pos >= 0 && pos < n) order[k++] = pos;
            p = strchr(p, ',');
            if (!p) break;
            p++;
        }
    }
    const char *device_order = env_str("CUDA_DEVICE_ORDER");
    if (device_order && strcmp(device_order, "PCI_BUS_ID") == 0) {
        for (int i = 0; i < n; i++) order[i] = i;
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                if (bus_key(profile[order[j]].bus_id) < bus_key(profile[order[i]].bus_id)) {
                    int t = order[i];
                    order[i] = order[j];
                    order[j] = t;
                }
    }
    const char *cvd = getenv("CUDA_VISIBLE_DEVICES");
    visible_count = 0;
    if (!cvd) {
        for (int i = 0; i < n; i++) visible[visible_count++] = order[i];
        return;
    }
    const char *p = cvd;
    while (visible_count < MAX_GPUS) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char entry[FIELD];
        copy_field(entry, p, len);
        int match = -1;
        char *digits_end;
        long idx = strtol(entry, &digits_end, 10);
        if (entry[0] && *digits_end == 0) {
            if (idx >= 0 && idx < n) match = order[idx];
        } else if (strncmp(entry, "GPU-", 4) == 0 || strncmp(entry, "MIG-", 4) == 0) {
            int hits = 0;
            for (int i = 0; i < n; i++)
                if (strncmp(profile[order[i]].uuid, entry, strlen(entry)) == 0) {
                    match = order[i];
                    hits++;
                }
            if (hits != 1) match = -1;
        }
        if (match < 0) break;
        visible[visible_count++] = match;
        if (!end) break;
        p = end + 1;
    }
}

static struct gpu *gpu_of(CUdevice d) {
    if (d < 0 || d >= visible_count) return NULL;
    return &profile[visible[d]];
}

CUresult cuInit(unsigned int flags) {
    (void)flags;
    const char *pidfile = env_str("FAKE_CUDA_PIDFILE");
    if (pidfile) {
        FILE *f = fopen(pidfile, "a");
        if (f) {
            fprintf(f, "%d\n", (int)getpid());
            fclose(f);
        }
    }
    if (env_int("FAKE_CUDA_HANG", 0))
        for (;;) pause();
    if (env_int("FAKE_CUDA_CRASH", 0)) crash();
    const char *chatter = getenv("FAKE_CUDA_STDOUT");
    if (chatter) {
        fputs(chatter, stdout);
        fflush(stdout);
    }
    long noise = env_int("FAKE_CUDA_STDOUT_BYTES", 0);
    if (noise > 0) {
        char block[4096];
        memset(block, '#', sizeof block);
        for (long left = noise; left > 0; left -= (long)sizeof block)
            fwrite(block, 1, left < (long)sizeof block ? (size_t)left : sizeof block, stdout);
        fflush(stdout);
    }
    if (env_int("FAKE_CUDA_FORK_CHILD", 0)) {
        /* A helper daemon of the driver: it keeps the worker's stdout and stderr open.
         * cuInit returns once the helper has written its pid. */
        int ready[2];
        if (pipe(ready) == 0) {
            pid_t helper = fork();
            if (helper == 0) {
                close(ready[0]);
                const char *pidfile = env_str("FAKE_CUDA_PIDFILE");
                if (pidfile) {
                    FILE *f = fopen(pidfile, "a");
                    if (f) { fprintf(f, "%d\n", (int)getpid()); fclose(f); }
                }
                close(ready[1]);
                sleep(600);
                _exit(0);
            }
            close(ready[1]);
            char c;
            while (helper > 0 && read(ready[0], &c, 1) > 0) {}
            close(ready[0]);
        }
    }
    if (env_int("FAKE_CUDA_EXIT", 0)) exit(env_int("FAKE_CUDA_EXIT", 0));
    CUresult rc = env_int("FAKE_CUDA_INIT", 0);
    initialised = rc == CUDA_SUCCESS;
    if (initialised) {
        parse_profile();
        order_and_filter();
    }
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
    /* FAKE_CUDA_COUNT_ERROR=N: the count fails with CUresult N; FAKE_CUDA_COUNT=N: the
     * count is N whatever the profile says (a negative one included). */
    if (env_int("FAKE_CUDA_COUNT_ERROR", 0)) return (CUresult)env_int("FAKE_CUDA_COUNT_ERROR", 0);
    if (env_str("FAKE_CUDA_COUNT")) {
        *count = env_int("FAKE_CUDA_COUNT", 0);
        return CUDA_SUCCESS;
    }
    *count = visible_count;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
    if (!initialised) return CUDA_ERROR_NOT_INITIALIZED;
    if (!device) return CUDA_ERROR_INVALID_VALUE;
    if (!gpu_of(ordinal)) return CUDA_ERROR_INVALID_DEVICE;
    *device = ordinal;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice d) {
    struct gpu *g = gpu_of(d);
    if (!g) return CUDA_ERROR_INVALID_DEVICE;
    if (!name || len <= 0) return CUDA_ERROR_INVALID_VALUE;
    snprintf(name, (size_t)len, "%s", g->name);
    return CUDA_SUCCESS;
}

static void max_grid(unsigned int out[3]) {
    out[0] = 2147483647u;
    out[1] = 65535u;
    out[2] = 65535u;
    const char *v = env_str("FAKE_CUDA_MAX_GRID");
    if (v) sscanf(v, "%u,%u,%u", &out[0], &out[1], &out[2]);
}

CUresult cuDeviceGetAttribute(int *value, int attribute, CUdevice d) {
    struct gpu *g = gpu_of(d);
    if (!g) return CUDA_ERROR_INVALID_DEVICE;
    if (!value) return CUDA_ERROR_INVALID_VALUE;
    int major = 9, minor = 0;
    sscanf(g->cc, "%d.%d", &major, &minor);
    unsigned int grid[3];
    max_grid(grid);
    switch (attribute) {
    case 1: *value = 1024; break;
    case 2: *value = 1024; break;
    case 3: *value = 1024; break;
    case 4: *value = 64; break;
    case 5: *value = (int)grid[0]; break;
    case 6: *value = (int)grid[1]; break;
    case 7: *value = (int)grid[2]; break;
    case 8: *value = 49152; break;
    case 16: *value = env_int("FAKE_CUDA_SMS", 132); break;
    case 17: *value = env_int("FAKE_CUDA_WATCHDOG", 0) ? 1 : 0; break;
    case 75: *value = major; break;
    case 76: *value = minor; break;
    case 81: *value = 233472; break;
    case 97: *value = 232448; break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d) {
    struct gpu *g = gpu_of(d);
    if (!g) return CUDA_ERROR_INVALID_DEVICE;
    if (!bytes) return CUDA_ERROR_INVALID_VALUE;
    *bytes = (size_t)strtoull(g->memory, NULL, 10);
    return CUDA_SUCCESS;
}

/* CUDA prints a 4-digit domain where NVML prints 8. */
CUresult cuDeviceGetPCIBusId(char *bus, int len, CUdevice d) {
    struct gpu *g = gpu_of(d);
    if (!g) return CUDA_ERROR_INVALID_DEVICE;
    if (!bus || len <= 0) return CUDA_ERROR_INVALID_VALUE;
    unsigned int domain = 0, b = 0, dev = 0, f = 0;
    sscanf(g->bus_id, "%x:%x:%x.%x", &domain, &b, &dev, &f);
    snprintf(bus, (size_t)len, "%04x:%02x:%02x.%x", domain, b, dev, f);
    return CUDA_SUCCESS;
}

typedef struct { unsigned char bytes[16]; } CUuuid;

static void uuid_bytes(const char *text, CUuuid *uuid) {
    const char *p = text + 4; /* past "GPU-" or "MIG-" */
    int k = 0;
    while (*p && k < 16) {
        if (*p == '-') { p++; continue; }
        unsigned int byte = 0;
        if (sscanf(p, "%2x", &byte) != 1) break;
        uuid->bytes[k++] = (unsigned char)byte;
        p += 2;
    }
    while (k < 16) uuid->bytes[k++] = 0;
}

#ifndef FAKE_OLD_DRIVER
/* Under MIG: the instance's UUID. */
CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice d) {
    struct gpu *g = gpu_of(d);
    if (!g) return CUDA_ERROR_INVALID_DEVICE;
    if (!uuid) return CUDA_ERROR_INVALID_VALUE;
    uuid_bytes(g->uuid, uuid);
    return CUDA_SUCCESS;
}
#endif

/* Under MIG: the parent GPU's UUID. */
CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice d) {
    struct gpu *g = gpu_of(d);
    if (!g) return CUDA_ERROR_INVALID_DEVICE;
    if (!uuid) return CUDA_ERROR_INVALID_VALUE;
    if (strncmp(g->uuid, "MIG-", 4) == 0)
        uuid_bytes(g->parent[0] ? g->parent : "GPU-00000000-0000-0000-0000-0000000000ff", uuid);
    else
        uuid_bytes(g->uuid, uuid);
    return CUDA_SUCCESS;
}

static void copy_delay(size_t bytes) {
    const char *v = env_str("FAKE_CUDA_COPY_GBPS");
    if (!v) return;
    double gbps = atof(v);
    if (gbps <= 0) return;
    double seconds = (double)bytes / (gbps * 1e9);
    struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    nanosleep(&ts, NULL);
}

/* ---- contexts, sticky errors and the work queue ---------------------------------- */

static int current = -1;
/* A sticky error poisons the context until the process ends. */
static CUresult sticky;

static int is_sticky(CUresult rc) {
    return rc == 214 || rc == 700 || rc == 702 || rc == 709 || rc == 710 ||
           (rc >= 714 && rc <= 719) || rc == 999;
}

/* The context is usable: 0, or the reason it is not. */
static CUresult ctx_state(void) {
    if (!gpu_of(current)) return CUDA_ERROR_INVALID_CONTEXT;
    return sticky;
}

CUresult cuDevicePrimaryCtxRetain(void **ctx, CUdevice d) {
    if (!initialised) return CUDA_ERROR_NOT_INITIALIZED;
    if (env_int("FAKE_CUDA_HANG_CONTEXT", 0))
        for (;;) pause();
    if (!gpu_of(d)) return CUDA_ERROR_INVALID_DEVICE;
    if (!ctx) return CUDA_ERROR_INVALID_VALUE;
    *ctx = (void *)(intptr_t)(d + 1);
    return CUDA_SUCCESS;
}

#ifndef FAKE_MISSING_SYMBOL
CUresult cuCtxSetCurrent(void *ctx) {
    current = (int)(intptr_t)ctx - 1;
    return gpu_of(current) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}
#endif

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d) {
    return gpu_of(d) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

struct stream {
    int id;
    unsigned int flags; /* CU_STREAM_NON_BLOCKING = 1 */
    int capturing;
    struct launch *captured;
    int captured_count;
};

struct function { const char *name; };
struct launch {
    struct function *f;
    unsigned int grid[3], block[3];
    CUdeviceptr ptr;
    unsigned int n;
};

struct event { int recorded, done; double at; };

enum op_kind { OP_KERNEL, OP_COPY, OP_MEMSET, OP_HOST, OP_EVENT, OP_PEER };
struct op {
    unsigned long seq;
    int stream; /* 0: the legacy stream */
    int blocking;
    enum op_kind kind;
    struct launch launch;
    void *dst;
    const void *src;
    size_t bytes;
    int free_src;
    unsigned int value;
    void (*host_fn)(void *);
    void *host_arg;
    struct event *event;
    int src_dev, dst_dev; /* OP_PEER: CUDA ordinals */
};

static int peer_faulty(int src, int dst);

static struct op *queue;
static size_t queued, queue_cap;
static unsigned long next_seq = 1;

static CUresult run_kernel(const struct launch *l);
/* The GPU's own clock, which events read: advanced by the work that runs. */
static double gpu_clock_ns;

static void run_op(struct op *o) {
    if (sticky) goto done; /* a poisoned context runs nothing more */
    switch (o->kind) {
    case OP_KERNEL: {
        CUresult rc = run_kernel(&o->launch);
        if (rc && is_sticky(rc)) sticky = rc;
        break;
    }
    case OP_COPY: {
        memmove(o->dst, o->src, o->bytes);
        const char *bw = env_str("FAKE_CUDA_MEMORY_GBPS");
        double gbps = bw ? atof(bw) : 3000.0;
        if (gbps > 0) gpu_clock_ns += 2.0 * (double)o->bytes / gbps;
        break;
    }
    case OP_MEMSET:
        for (size_t i = 0; i < o->bytes; i++) ((uint32_t *)o->dst)[i] = o->value;
        break;
    case OP_PEER: {
        int faulty = peer_faulty(o->src_dev, o->dst_dev);
        if (faulty && env_int("FAKE_CUDA_P2P_HANG", 0))
            for (;;) pause();
        CUresult rc = faulty ? env_int("FAKE_CUDA_P2P_ERROR", 0) : 0;
        if (rc) {
            if (is_sticky(rc)) sticky = rc;
            break;
        }
        memmove(o->dst, o->src, o->bytes);
        if (faulty && env_int("FAKE_CUDA_P2P_CORRUPT", 0) && o->bytes >= 4)
            ((uint32_t *)o->dst)[o->bytes / 8] ^= 0x40u;
        const char *p2p = faulty ? env_str("FAKE_CUDA_P2P_GBPS") : NULL;
        const char *bw = env_str("FAKE_CUDA_MEMORY_GBPS");
        double gbps = p2p ? atof(p2p) * 2.0 : (bw ? atof(bw) : 3000.0);
        if (gbps > 0) gpu_clock_ns += 2.0 * (double)o->bytes / gbps;
        break;
    }
    case OP_HOST: o->host_fn(o->host_arg); break;
    case OP_EVENT: o->event->at = gpu_clock_ns; o->event->done = 1; break;
    }
done:
    if (o->kind == OP_EVENT) o->event->done = 1;
    if (o->free_src) free((void *)o->src);
}

static int enqueue(struct stream *s, struct op o) {
    if (queued == queue_cap) {
        size_t cap = queue_cap ? queue_cap * 2 : 256;
        struct op *q = realloc(queue, cap * sizeof *q);
        if (!q) return 0;
        queue = q;
        queue_cap = cap;
    }
    o.seq = next_seq++;
    o.stream = s ? s->id : 0;
    o.blocking = s ? !(s->flags & 1) : 0;
    queue[queued++] = o;
    return 1;
}

/* Runs the queued work that `stream` (0: legacy) up to `seq` waits for, and only that:
 * walking back from the newest op, an op is needed when a needed later op orders after
 * it (same stream; legacy after blocking; blocking after legacy). */
static void drain(int stream, unsigned long upto) {
    if (!queued) return;
    char *needed = calloc(queued, 1);
    int streams[256], nstreams = 0;
    int legacy_after = 0, blocking_after = 0;
    if (!needed) return;
    streams[nstreams++] = stream;
    if (stream == 0) legacy_after = 1;
    for (size_t k = queued; k-- > 0;) {
        struct op *o = &queue[k];
        if (o->seq > upto) continue;
        int in = 0;
        for (int i = 0; i < nstreams; i++) in |= streams[i] == o->stream;
        if (in || (o->stream == 0 && blocking_after) || (o->blocking && legacy_after)) {
            needed[k] = 1;
            if (!in && nstreams < 256) streams[nstreams++] = o->stream;
            if (o->stream == 0) legacy_after = 1;
            if (o->blocking) blocking_after = 1;
        }
    }
    size_t kept = 0;
    for (size_t k = 0; k < queued; k++) {
        if (needed[k]) run_op(&queue[k]);
        else queue[kept++] = queue[k];
    }
    queued = kept;
    free(needed);
}

static void drain_all(void) {
    for (size_t k = 0; k < queued; k++) run_op(&queue[k]);
    queued = 0;
}

/* A blocking stream's work already waits for earlier legacy work (see drain). */
static void drain_stream(struct stream *s) { drain(s ? s->id : 0, ~0UL); }

/* For libraries (the fake cuBLASLt): run fn(arg) on `stream` in order with its work. */
int fake_cuda_enqueue_host(void *stream, void (*fn)(void *), void *arg) {
    struct op o = {0};
    o.kind = OP_HOST;
    o.host_fn = fn;
    o.host_arg = arg;
    return enqueue(stream, o) ? 0 : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuCtxSynchronize(void) {
    if (!gpu_of(current)) return CUDA_ERROR_INVALID_CONTEXT;
    drain_all();
    return sticky;
}

/* Allocations up to BACKED_LIMIT get host memory; larger ones are bookkeeping only
 * (the probes never touch the bytes of a large allocation). */
#define BACKED_LIMIT (256ULL << 20)
#define MAX_ALLOCS 1024
struct alloc { CUdeviceptr ptr; size_t bytes; int backed; struct gpu *gpu; };
static struct alloc allocs[MAX_ALLOCS];
static CUdeviceptr next_unbacked = 0x7e0000000000ULL;
#define MAX_PINNED 64
static struct { void *ptr; size_t bytes; } pinned[MAX_PINNED];

static unsigned long long total_of(struct gpu *g) { return strtoull(g->memory, NULL, 10); }

CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total) {
    struct gpu *g = gpu_of(current);
    if (!g) return CUDA_ERROR_INVALID_CONTEXT;
    if (sticky) return sticky;
    if (!free_bytes || !total) return CUDA_ERROR_INVALID_VALUE;
    g->used += strtoull(env_str("FAKE_CUDA_USED_STEP") ? env_str("FAKE_CUDA_USED_STEP") : "0", NULL, 10);
    unsigned long long t = total_of(g);
    *total = (size_t)t;
    *free_bytes = (size_t)(g->used >= t ? 0 : t - g->used);
    return CUDA_SUCCESS;
}

CUresult cuMemAlloc_v2(CUdeviceptr *ptr, size_t bytes) {
    struct gpu *g = gpu_of(current);
    if (!g) return CUDA_ERROR_INVALID_CONTEXT;
    if (sticky) return sticky;
    if (!ptr || bytes == 0) return CUDA_ERROR_INVALID_VALUE;
    if (g->used + bytes > total_of(g)) return env_int("FAKE_CUDA_OOM_ERROR", CUDA_ERROR_OUT_OF_MEMORY);
    for (int i = 0; i < MAX_ALLOCS; i++) {
        if (allocs[i].ptr) continue;
        if (bytes <= BACKED_LIMIT) {
            void *mem = malloc(bytes);
            if (!mem) return CUDA_ERROR_OUT_OF_MEMORY;
            memset(mem, 0xcd, bytes); /* device memory is not cleared */
            allocs[i].ptr = (CUdeviceptr)(uintptr_t)mem;
            allocs[i].backed = 1;
        } else {
            allocs[i].ptr = next_unbacked;
            next_unbacked += (bytes + 0xfffff) & ~0xfffffULL;
            allocs[i].backed = 0;
        }
        allocs[i].bytes = bytes;
        allocs[i].gpu = g;
        g->used += bytes;
        *ptr = allocs[i].ptr;
        return CUDA_SUCCESS;
    }
    return CUDA_ERROR_OUT_OF_MEMORY;
}

static struct alloc *find_alloc(CUdeviceptr p, size_t bytes) {
    for (int i = 0; i < MAX_ALLOCS; i++)
        if (allocs[i].ptr && p >= allocs[i].ptr && p + bytes <= allocs[i].ptr + allocs[i].bytes)
            return &allocs[i];
    return NULL;
}

/* cuMemFree waits for the device, so no queued work outlives its memory; the memory goes
 * back to the GPU it was allocated on (unified addressing: any context may free it). */
CUresult cuMemFree_v2(CUdeviceptr ptr) {
    drain_all();
    for (int i = 0; i < MAX_ALLOCS; i++) {
        if (allocs[i].ptr != ptr) continue;
        struct gpu *g = allocs[i].gpu;
        if (allocs[i].backed) free((void *)(uintptr_t)ptr);
        if (g && !env_int("FAKE_CUDA_LEAK", 0)) g->used -= allocs[i].bytes;
        allocs[i].ptr = 0;
        return sticky;
    }
    return sticky ? sticky : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemAllocHost_v2(void **ptr, size_t bytes) {
    if (sticky) return sticky;
    if (!ptr) return CUDA_ERROR_INVALID_VALUE;
    for (int i = 0; i < MAX_PINNED; i++) {
        if (pinned[i].ptr) continue;
        *ptr = malloc(bytes ? bytes : 1);
        if (!*ptr) return CUDA_ERROR_OUT_OF_MEMORY;
        memset(*ptr, 0xcd, bytes); /* nor is pinned memory */
        pinned[i].ptr = *ptr;
        pinned[i].bytes = bytes;
        return CUDA_SUCCESS;
    }
    return CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuMemFreeHost(void *ptr) {
    drain_all();
    for (int i = 0; i < MAX_PINNED; i++)
        if (pinned[i].ptr == ptr) {
            pinned[i].ptr = NULL;
            free(ptr);
            return sticky;
        }
    return CUDA_ERROR_INVALID_VALUE;
}

static int is_pinned(const void *p, size_t bytes) {
    for (int i = 0; i < MAX_PINNED; i++)
        if (pinned[i].ptr && (const char *)p >= (const char *)pinned[i].ptr &&
            (const char *)p + bytes <= (const char *)pinned[i].ptr + pinned[i].bytes)
            return 1;
    return 0;
}

static void *host_of(CUdeviceptr p, size_t bytes) {
    struct alloc *a = find_alloc(p, bytes);
    return a && a->backed ? (void *)(uintptr_t)p : NULL;
}

/* Pinned source: synchronous with respect to the host (after the legacy stream's earlier
 * work). Pageable source: the legacy stream is synchronised, the bytes are staged, and
 * the DMA to the device lands later, on the legacy stream. */
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes) {
    CUresult rc = ctx_state();
    if (rc) return rc;
    void *d = host_of(dst, bytes);
    if (!d || !src) return CUDA_ERROR_INVALID_VALUE;
    drain(0, ~0UL);
    if (sticky) return sticky;
    if (is_pinned(src, bytes)) {
        memcpy(d, src, bytes);
        copy_delay(bytes);
        return CUDA_SUCCESS;
    }
    void *staged = malloc(bytes ? bytes : 1);
    if (!staged) return CUDA_ERROR_OUT_OF_MEMORY;
    memcpy(staged, src, bytes);
    struct op o = {0};
    o.kind = OP_COPY;
    o.dst = d;
    o.src = staged;
    o.bytes = bytes;
    o.free_src = 1;
    if (!enqueue(NULL, o)) return CUDA_ERROR_OUT_OF_MEMORY;
    return CUDA_SUCCESS;
}

/* To host: returns once the copy has completed, after the legacy stream's earlier work. */
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes) {
    CUresult rc = ctx_state();
    if (rc) return rc;
    void *s = host_of(src, bytes);
    if (!s || !dst) return CUDA_ERROR_INVALID_VALUE;
    drain(0, ~0UL);
    if (sticky) return sticky;
    memcpy(dst, s, bytes);
    copy_delay(bytes);
    return CUDA_SUCCESS;
}

/* Device to device: no host-side synchronisation; queued on the legacy stream. */
CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
    CUresult rc = ctx_state();
    if (rc) return rc;
    void *d = host_of(dst, bytes), *s = host_of(src, bytes);
    if (!d || !s) return CUDA_ERROR_INVALID_VALUE;
    struct op o = {0};
    o.kind = OP_COPY;
    o.dst = d;
    o.src = s;
    o.bytes = bytes;
    return enqueue(NULL, o) ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

/* Memset of device memory is asynchronous with respect to the host. */
CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned int value, size_t count) {
    CUresult rc = ctx_state();
    if (rc) return rc;
    uint32_t *d = host_of(dst, count * 4);
    if (!d) return CUDA_ERROR_INVALID_VALUE;
    struct op o = {0};
    o.kind = OP_MEMSET;
    o.dst = d;
    o.bytes = count;
    o.value = value;
    return enqueue(NULL, o) ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

/* ---- peer access ------------------------------------------------------------------ */

static int peer_enabled[MAX_GPUS][MAX_GPUS];

/* "0>1" listed in the variable's comma-separated pairs. */
static int pair_listed(const char *var, int src, int dst) {
    const char *v = env_str(var);
    if (!v) return 0;
    char want[32];
    snprintf(want, sizeof want, "%d>%d", src, dst);
    size_t n = strlen(want);
    for (const char *p = v; (p = strstr(p, want)) != NULL; p += n)
        if ((p == v || p[-1] == ',') && (p[n] == 0 || p[n] == ',')) return 1;
    return 0;
}

static int peer_allowed(int src, int dst) {
    if (src == dst || !gpu_of(src) || !gpu_of(dst)) return 0;
    if (env_str("FAKE_CUDA_P2P") && env_int("FAKE_CUDA_P2P", 1) == 0) return 0;
    return !pair_listed("FAKE_CUDA_P2P_DENY", src, dst);
}

static int peer_faulty(int src, int dst) {
    return !env_str("FAKE_CUDA_P2P_PAIR") || pair_listed("FAKE_CUDA_P2P_PAIR", src, dst);
}

CUresult cuDeviceCanAccessPeer(int *can, CUdevice dev, CUdevice peer) {
    if (!initialised) return CUDA_ERROR_NOT_INITIALIZED;
    if (!can) return CUDA_ERROR_INVALID_VALUE;
    if (!gpu_of(dev) || !gpu_of(peer)) return CUDA_ERROR_INVALID_DEVICE;
    *can = peer_allowed(dev, peer);
    return CUDA_SUCCESS;
}

CUresult cuCtxEnablePeerAccess(void *peer_ctx, unsigned int flags) {
    CUresult rc = ctx_state();
    if (rc) return rc;
    int peer = (int)(intptr_t)peer_ctx - 1;
    if (!gpu_of(peer) || peer == current) return CUDA_ERROR_INVALID_CONTEXT;
    if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
    if (!peer_allowed(current, peer)) return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
    if (peer_enabled[current][peer]) return CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
    peer_enabled[current][peer] = 1;
    return CUDA_SUCCESS;
}

/* Queued on the stream; without peer access enabled the real driver stages the copy
 * through host memory, which is slower but as correct. */
CUresult cuMemcpyPeerAsync(CUdeviceptr dst, void *dst_ctx, CUdeviceptr src, void *src_ctx,
                           size_t bytes, void *stream) {
    CUresult rc = ctx_state();
    if (rc) return rc;
    int d_dev = (int)(intptr_t)dst_ctx - 1, s_dev = (int)(intptr_t)src_ctx - 1;
    if (!gpu_of(d_dev) || !gpu_of(s_dev)) return CUDA_ERROR_INVALID_CONTEXT;
    void *d = host_of(dst, bytes), *s = host_of(src, bytes);
    if (!d || !s) return CUDA_ERROR_INVALID_VALUE;
    struct op o = {0};
    o.kind = OP_PEER;
    o.dst = d;
    o.src = s;
    o.bytes = bytes;
    o.src_dev = s_dev;
    o.dst_dev = d_dev;
    return enqueue(stream, o) ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

/* ---- events ----------------------------------------------------------------------- */

CUresult cuEventCreate(void **event, unsigned int flags) {
    (void)flags;
    if (sticky) return sticky;
    if (!event) return CUDA_ERROR_INVALID_VALUE;
    *event = calloc(1, sizeof(struct event));
    return *event ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuEventDestroy_v2(void *event) { free(event); return CUDA_SUCCESS; }

static unsigned long event_seq(struct event *e) {
    for (size_t k = 0; k < queued; k++)
        if (queue[k].kind == OP_EVENT && queue[k].event == e) return queue[k].seq;
    return 0;
}

CUresult cuEventRecord(void *event, void *stream) {
    CUresult rc = ctx_state();
    if (rc) return rc;
    struct event *e = event;
    if (!e) return CUDA_ERROR_INVALID_HANDLE;
    e->recorded = 1;
    e->done = 0;
    struct op o = {0};
    o.kind = OP_EVENT;
    o.event = e;
    return enqueue(stream, o) ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuEventSynchronize(void *event) {
    struct event *e = event;
    if (!e) return CUDA_ERROR_INVALID_HANDLE;
    unsigned long seq = event_seq(e);
    if (seq) {
        for (size_t k = 0; k < queued; k++)
            if (queue[k].seq == seq) { drain(queue[k].stream, seq); break; }
    }
    return sticky;
}

CUresult cuEventElapsedTime(float *ms, void *start, void *end) {
    struct event *a = start, *b = end;
    if (!ms || !a || !b) return CUDA_ERROR_INVALID_VALUE;
    if (!a->recorded || !b->recorded) return CUDA_ERROR_INVALID_HANDLE;
    if (!a->done || !b->done) return 600; /* CUDA_ERROR_NOT_READY */
    *ms = (float)((b->at - a->at) / 1e6);
    return sticky;
}

/* ---- modules, kernels, streams, graphs --------------------------------------- */

static const char *KERNELS[] = {"fill_index", "count_blocks", "add_one"};
#define KERNEL_COUNT 3
static struct function functions[KERNEL_COUNT];
static int modules_loaded;

static CUresult load_module(void **module, const void *image, char *log, size_t *log_size) {
    CUresult rc = ctx_state();
    if (rc) return rc;
    if (!module || !image) return CUDA_ERROR_INVALID_VALUE;
    int jit = env_int("FAKE_CUDA_JIT_ERROR", 0);
    if (jit) {
        const char *text = env_str("FAKE_CUDA_JIT_LOG");
        if (log && log_size && *log_size && text) {
            snprintf(log, *log_size, "%s", text);
            *log_size = strlen(log) + 1;
        } else if (log_size) {
            *log_size = 0;
        }
        return jit;
    }
    if (!strstr((const char *)image, ".version")) return CUDA_ERROR_INVALID_IMAGE;
    if (!modules_loaded++) {
        struct gpu *g = gpu_of(current);
        g->used += strtoull(env_str("FAKE_CUDA_MODULE_BYTES") ? env_str("FAKE_CUDA_MODULE_BYTES") : "0", NULL, 10);
    }
    *module = (void *)(intptr_t)1;
    if (log_size) *log_size = 0;
    return CUDA_SUCCESS;
}

CUresult cuModuleLoadData(void **module, const void *image) {
    return load_module(module, image, NULL, NULL);
}

/* CUjit_option: CU_JIT_ERROR_LOG_BUFFER 5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES 6. */
CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned int n, int *options,
                            void **values) {
    char *log = NULL;
    size_t size = 0;
    int size_slot = -1;
    for (unsigned int i = 0; i < n && options && values; i++) {
        if (options[i] == 5) log = values[i];
        if (options[i] == 6) { size = (size_t)(uintptr_t)values[i]; size_slot = (int)i; }
    }
    CUresult rc = load_module(module, image, log, &size);
    if (size_slot >= 0) values[size_slot] = (void *)(uintptr_t)size;
    return rc;
}

CUresult cuModuleUnload(void *module) { return module ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE; }

CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
    if (!function || !module || !name) return CUDA_ERROR_INVALID_VALUE;
    for (int i = 0; i < KERNEL_COUNT; i++)
        if (strcmp(name, KERNELS[i]) == 0) {
            functions[i].name = KERNELS[i];
            *function = &functions[i];
            return CUDA_SUCCESS;
        }
    return CUDA_ERROR_NOT_FOUND;
}

static int is_named(const char *var, const char *name) {
    const char *v = env_str(var);
    return v && strcmp(v, name) == 0;
}

static CUresult run_kernel(const struct launch *l) {
    const char *name = l->f->name;
    if (is_named("FAKE_CUDA_HANG_KERNEL", name))
        for (;;) pause();
    if (is_named("FAKE_CUDA_CRASH_KERNEL", name)) crash();
    if (is_named("FAKE_CUDA_STICKY_KERNEL", name)) return 700;
    int wrong = is_named("FAKE_CUDA_WRONG_KERNEL", name);
    unsigned long long blocks = (unsigned long long)l->grid[0] * l->grid[1] * l->grid[2];
    unsigned long long threads = blocks * l->block[0] * l->block[1] * l->block[2];
    double ns = (double)blocks * env_int("FAKE_CUDA_BLOCK_NS", 0);
    gpu_clock_ns += ns + 1000.0; /* a launch costs a microsecond */
    if (env_int("FAKE_CUDA_WATCHDOG", 0) && ns > env_int("FAKE_CUDA_WATCHDOG_MS", 2000) * 1e6)
        return 702; /* CUDA_ERROR_LAUNCH_TIMEOUT */
    if (ns > 0) {
        struct timespec ts = {(time_t)(ns / 1e9), (long)(ns - (double)(time_t)(ns / 1e9) * 1e9)};
        nanosleep(&ts, NULL);
    }
    if (strcmp(name, "count_blocks") == 0) {
        uint32_t *counters = host_of(l->ptr, 256 * 4);
        if (!counters) return 700; /* CUDA_ERROR_ILLEGAL_ADDRESS */
        counters[0] += (uint32_t)(blocks - (wrong ? 1 : 0));
        return CUDA_SUCCESS;
    }
    unsigned long long n = l->n < threads ? l->n : threads;
    uint32_t *data = host_of(l->ptr, (size_t)n * 4);
    if (!data && n) return 700;
    for (unsigned long long i = 0; i < n; i++) {
        if (strcmp(name, "fill_index") == 0) data[i] = (uint32_t)(i * 3 + 7);
        else data[i] += 1;
    }
    if (wrong && n) data[n - 1] ^= 0x5a;
    return CUDA_SUCCESS;
}

#define MAX_CAPTURED 64
struct graph {
    struct launch launches[MAX_CAPTURED];
    int count;
};

CUresult cuLaunchKernel(void *f, unsigned int gx, unsigned int gy, unsigned int gz,
                        unsigned int bx, unsigned int by, unsigned int bz,
                        unsigned int shared, void *stream, void **params, void **extra) {
    (void)shared;
    (void)extra;
    CUresult rc = ctx_state();
    if (rc) return rc;
    if (!f || !params) return CUDA_ERROR_INVALID_VALUE;
    unsigned int grid[3];
    max_grid(grid);
    if (gx == 0 || gy == 0 || gz == 0 || gx > grid[0] || gy > grid[1] || gz > grid[2])
        return env_int("FAKE_CUDA_GRID_ERROR", CUDA_ERROR_INVALID_VALUE);
    if (bx * by * bz > 1024 || bx * by * bz == 0) return CUDA_ERROR_INVALID_VALUE;
    struct launch l = {f, {gx, gy, gz}, {bx, by, bz}, 0, 0};
    l.ptr = *(CUdeviceptr *)params[0];
    if (strcmp(l.f->name, "count_blocks") != 0) l.n = *(unsigned int *)params[1];
    struct stream *s = stream;
    if (s && s->capturing) {
        if (s->captured_count >= MAX_CAPTURED) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
        s->captured[s->captured_count++] = l;
        return CUDA_SUCCESS;
    }
    struct op o = {0};
    o.kind = OP_KERNEL;
    o.launch = l;
    return enqueue(s, o) ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

static int next_stream_id = 1;

CUresult cuStreamCreate(void **stream, unsigned int flags) {
    if (sticky) return sticky;
    if (!stream) return CUDA_ERROR_INVALID_VALUE;
    struct stream *s = calloc(1, sizeof *s);
    if (!s) return CUDA_ERROR_OUT_OF_MEMORY;
    s->captured = calloc(MAX_CAPTURED, sizeof *s->captured);
    s->id = next_stream_id++;
    s->flags = flags;
    *stream = s;
    return CUDA_SUCCESS;
}

/* Work still queued on a destroyed stream completes later, as on a real device. */
CUresult cuStreamDestroy_v2(void *stream) {
    struct stream *s = stream;
    if (!s) return CUDA_ERROR_INVALID_HANDLE;
    free(s->captured);
    free(s);
    return CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(void *stream) {
    if (!gpu_of(current)) return CUDA_ERROR_INVALID_CONTEXT;
    drain_stream(stream);
    return sticky;
}

CUresult cuStreamBeginCapture_v2(void *stream, int mode) {
    (void)mode;
    struct stream *s = stream;
    if (sticky) return sticky;
    if (!s) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    s->capturing = 1;
    s->captured_count = 0;
    return CUDA_SUCCESS;
}

CUresult cuStreamEndCapture(void *stream, void **graph) {
    struct stream *s = stream;
    if (!s || !graph || !s->capturing) return CUDA_ERROR_INVALID_VALUE;
    struct graph *g = calloc(1, sizeof *g);
    if (!g) return CUDA_ERROR_OUT_OF_MEMORY;
    memcpy(g->launches, s->captured, sizeof(struct launch) * MAX_CAPTURED);
    g->count = s->captured_count;
    s->capturing = 0;
    *graph = g;
    return CUDA_SUCCESS;
}

static CUresult instantiate(void **exec, void *graph) {
    if (sticky) return sticky;
    if (!exec || !graph) return CUDA_ERROR_INVALID_VALUE;
    int rc = env_int("FAKE_CUDA_GRAPH_ERROR", 0);
    if (rc) return rc;
    struct graph *copy = malloc(sizeof *copy);
    if (!copy) return CUDA_ERROR_OUT_OF_MEMORY;
    memcpy(copy, graph, sizeof *copy);
    *exec = copy;
    return CUDA_SUCCESS;
}

#ifndef FAKE_OLD_DRIVER
CUresult cuGraphInstantiateWithFlags(void **exec, void *graph, unsigned long long flags) {
    (void)flags;
    return instantiate(exec, graph);
}
#endif

/* CUDA 11.0: (exec, graph, errorNode out, log buffer, its size). */
CUresult cuGraphInstantiate_v2(void **exec, void *graph, void **error_node, char *log,
                               size_t log_size) {
    if (error_node) *error_node = NULL;
    if (log && log_size) log[0] = 0;
    return instantiate(exec, graph);
}

CUresult cuGraphLaunch(void *exec, void *stream) {
    CUresult rc = ctx_state();
    if (rc) return rc;
    struct graph *g = exec;
    if (!g) return CUDA_ERROR_INVALID_VALUE;
    for (int i = 0; i < g->count; i++) {
        struct op o = {0};
        o.kind = OP_KERNEL;
        o.launch = g->launches[i];
        if (!enqueue(stream, o)) return CUDA_ERROR_OUT_OF_MEMORY;
    }
    return CUDA_SUCCESS;
}

CUresult cuGraphDestroy(void *graph) { free(graph); return CUDA_SUCCESS; }
CUresult cuGraphExecDestroy(void *exec) { free(exec); return CUDA_SUCCESS; }

/* ---- error names ---------------------------------------------------------------- */

struct known { CUresult code; const char *name; const char *text; };
static const struct known KNOWN[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "the provided PTX was compiled with an unsupported toolchain."},
    {217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED", "peer access is not supported between these two devices"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
    {704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED", "peer access is already enabled"},
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

#endif /* FAKE_STUB */
