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
#define CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED 900

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
    char name[FIELD], cc[FIELD], memory[FIELD], bus_id[FIELD], uuid[FIELD];
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
        char *fields[5] = {g->name, g->cc, g->memory, g->bus_id, g->uuid};
        const char *end = strchr(spec, ';');
        if (!end) end = spec + strlen(spec);
        const char *p = spec;
        for (int f = 0; f < 5 && p <= end; f++) {
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
        } else if (strncmp(entry, "GPU-", 4) == 0) {
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
    case 16: *value = 132; break;
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

CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice d) {
    struct gpu *g = gpu_of(d);
    if (!g) return CUDA_ERROR_INVALID_DEVICE;
    if (!uuid) return CUDA_ERROR_INVALID_VALUE;
    const char *p = g->uuid + 4; /* past "GPU-" */
    int k = 0;
    while (*p && k < 16) {
        if (*p == '-') { p++; continue; }
        unsigned int byte = 0;
        if (sscanf(p, "%2x", &byte) != 1) break;
        uuid->bytes[k++] = (unsigned char)byte;
        p += 2;
    }
    while (k < 16) uuid->bytes[k++] = 0;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice d) { return cuDeviceGetUuid_v2(uuid, d); }

/* ---- contexts and memory ------------------------------------------------------- */

static int current = -1;

CUresult cuDevicePrimaryCtxRetain(void **ctx, CUdevice d) {
    if (!initialised) return CUDA_ERROR_NOT_INITIALIZED;
    if (env_int("FAKE_CUDA_HANG_CONTEXT", 0))
        for (;;) pause();
    if (!gpu_of(d)) return CUDA_ERROR_INVALID_DEVICE;
    if (!ctx) return CUDA_ERROR_INVALID_VALUE;
    *ctx = (void *)(intptr_t)(d + 1);
    return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(void *ctx) {
    current = (int)(intptr_t)ctx - 1;
    return gpu_of(current) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d) {
    return gpu_of(d) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUresult cuCtxSynchronize(void) {
    return gpu_of(current) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

/* Allocations up to BACKED_LIMIT get host memory; larger ones are bookkeeping only
 * (the probes never touch the bytes of a large allocation). */
#define BACKED_LIMIT (256ULL << 20)
#define MAX_ALLOCS 1024
struct alloc { CUdeviceptr ptr; size_t bytes; int backed; };
static struct alloc allocs[MAX_ALLOCS];
static CUdeviceptr next_unbacked = 0x7e0000000000ULL;

static unsigned long long total_of(struct gpu *g) { return strtoull(g->memory, NULL, 10); }

CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total) {
    struct gpu *g = gpu_of(current);
    if (!g) return CUDA_ERROR_INVALID_CONTEXT;
    if (!free_bytes || !total) return CUDA_ERROR_INVALID_VALUE;
    unsigned long long t = total_of(g);
    *total = (size_t)t;
    *free_bytes = (size_t)(g->used >= t ? 0 : t - g->used);
    return CUDA_SUCCESS;
}

CUresult cuMemAlloc_v2(CUdeviceptr *ptr, size_t bytes) {
    struct gpu *g = gpu_of(current);
    if (!g) return CUDA_ERROR_INVALID_CONTEXT;
    if (!ptr || bytes == 0) return CUDA_ERROR_INVALID_VALUE;
    if (g->used + bytes > total_of(g)) return env_int("FAKE_CUDA_OOM_ERROR", CUDA_ERROR_OUT_OF_MEMORY);
    for (int i = 0; i < MAX_ALLOCS; i++) {
        if (allocs[i].ptr) continue;
        if (bytes <= BACKED_LIMIT) {
            void *mem = calloc(1, bytes);
            if (!mem) return CUDA_ERROR_OUT_OF_MEMORY;
            allocs[i].ptr = (CUdeviceptr)(uintptr_t)mem;
            allocs[i].backed = 1;
        } else {
            allocs[i].ptr = next_unbacked;
            next_unbacked += (bytes + 0xfffff) & ~0xfffffULL;
            allocs[i].backed = 0;
        }
        allocs[i].bytes = bytes;
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

CUresult cuMemFree_v2(CUdeviceptr ptr) {
    struct gpu *g = gpu_of(current);
    for (int i = 0; i < MAX_ALLOCS; i++) {
        if (allocs[i].ptr != ptr) continue;
        if (allocs[i].backed) free((void *)(uintptr_t)ptr);
        if (g && !env_int("FAKE_CUDA_LEAK", 0)) g->used -= allocs[i].bytes;
        allocs[i].ptr = 0;
        return CUDA_SUCCESS;
    }
    return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemAllocHost_v2(void **ptr, size_t bytes) {
    if (!ptr) return CUDA_ERROR_INVALID_VALUE;
    *ptr = calloc(1, bytes);
    return *ptr ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuMemFreeHost(void *ptr) {
    free(ptr);
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

static void *host_of(CUdeviceptr p, size_t bytes) {
    struct alloc *a = find_alloc(p, bytes);
    return a && a->backed ? (void *)(uintptr_t)p : NULL;
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes) {
    void *d = host_of(dst, bytes);
    if (!d || !src) return CUDA_ERROR_INVALID_VALUE;
    memcpy(d, src, bytes);
    copy_delay(bytes);
    return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes) {
    void *s = host_of(src, bytes);
    if (!s || !dst) return CUDA_ERROR_INVALID_VALUE;
    memcpy(dst, s, bytes);
    copy_delay(bytes);
    return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
    void *d = host_of(dst, bytes), *s = host_of(src, bytes);
    if (!d || !s) return CUDA_ERROR_INVALID_VALUE;
    memmove(d, s, bytes);
    copy_delay(bytes);
    return CUDA_SUCCESS;
}

CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned int value, size_t count) {
    uint32_t *d = host_of(dst, count * 4);
    if (!d) return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < count; i++) d[i] = value;
    return CUDA_SUCCESS;
}

/* ---- modules, kernels, streams, graphs --------------------------------------- */

static const char *KERNELS[] = {"fill_index", "count_blocks", "add_one"};
#define KERNEL_COUNT 3
struct function { const char *name; };
static struct function functions[KERNEL_COUNT];

CUresult cuModuleLoadData(void **module, const void *image) {
    if (!module || !image) return CUDA_ERROR_INVALID_VALUE;
    int jit = env_int("FAKE_CUDA_JIT_ERROR", 0);
    if (jit) return jit;
    if (!strstr((const char *)image, ".version")) return CUDA_ERROR_INVALID_IMAGE;
    *module = (void *)(intptr_t)1;
    return CUDA_SUCCESS;
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

struct launch {
    struct function *f;
    unsigned int grid[3], block[3];
    CUdeviceptr ptr;
    unsigned int n;
};

static int is_named(const char *var, const char *name) {
    const char *v = env_str(var);
    return v && strcmp(v, name) == 0;
}

static CUresult run_kernel(const struct launch *l) {
    const char *name = l->f->name;
    if (is_named("FAKE_CUDA_HANG_KERNEL", name))
        for (;;) pause();
    if (is_named("FAKE_CUDA_CRASH_KERNEL", name)) crash();
    int wrong = is_named("FAKE_CUDA_WRONG_KERNEL", name);
    unsigned long long blocks = (unsigned long long)l->grid[0] * l->grid[1] * l->grid[2];
    unsigned long long threads = blocks * l->block[0] * l->block[1] * l->block[2];
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
struct stream {
    int capturing;
    struct launch captured[MAX_CAPTURED];
    int captured_count;
};
struct graph {
    struct launch launches[MAX_CAPTURED];
    int count;
};

CUresult cuLaunchKernel(void *f, unsigned int gx, unsigned int gy, unsigned int gz,
                        unsigned int bx, unsigned int by, unsigned int bz,
                        unsigned int shared, void *stream, void **params, void **extra) {
    (void)shared;
    (void)extra;
    if (!gpu_of(current)) return CUDA_ERROR_INVALID_CONTEXT;
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
    return run_kernel(&l);
}

CUresult cuStreamCreate(void **stream, unsigned int flags) {
    (void)flags;
    if (!stream) return CUDA_ERROR_INVALID_VALUE;
    *stream = calloc(1, sizeof(struct stream));
    return *stream ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuStreamDestroy_v2(void *stream) {
    free(stream);
    return CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(void *stream) {
    (void)stream;
    return CUDA_SUCCESS;
}

CUresult cuStreamBeginCapture_v2(void *stream, int mode) {
    (void)mode;
    struct stream *s = stream;
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
    memcpy(g->launches, s->captured, sizeof s->captured);
    g->count = s->captured_count;
    s->capturing = 0;
    *graph = g;
    return CUDA_SUCCESS;
}

CUresult cuGraphInstantiateWithFlags(void **exec, void *graph, unsigned long long flags) {
    (void)flags;
    if (!exec || !graph) return CUDA_ERROR_INVALID_VALUE;
    int rc = env_int("FAKE_CUDA_GRAPH_ERROR", 0);
    if (rc) return rc;
    struct graph *copy = malloc(sizeof *copy);
    if (!copy) return CUDA_ERROR_OUT_OF_MEMORY;
    memcpy(copy, graph, sizeof *copy);
    *exec = copy;
    return CUDA_SUCCESS;
}

CUresult cuGraphLaunch(void *exec, void *stream) {
    (void)stream;
    struct graph *g = exec;
    if (!g) return CUDA_ERROR_INVALID_VALUE;
    for (int i = 0; i < g->count; i++) {
        CUresult rc = run_kernel(&g->launches[i]);
        if (rc) return rc;
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
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
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
