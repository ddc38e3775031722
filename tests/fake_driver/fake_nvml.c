/* A fake libnvidia-ml.so.1 for gpu-doctor's tests: the real C ABI (names and
 * signatures from nvml.h), behaviour told through environment variables read at call
 * time:
 *   FAKE_NVML_INIT=N            nvmlInit_v2 returns nvmlReturn_t N (default 0)
 *   FAKE_NVML_HANG=1            nvmlInit_v2 never returns
 *   FAKE_NVML_CRASH=1           nvmlInit_v2 dies of SIGSEGV (a store to NULL)
 *   FAKE_NVML_INIT_LOG=PATH     nvmlInit_v2 appends the calling process's pid to PATH
 *   FAKE_NVML_DRIVER_VERSION=S  nvmlSystemGetDriverVersion (default 550.54.15)
 *   FAKE_NVML_CUDA_VERSION=N    nvmlSystemGetCudaDriverVersion(_v2) (default 12040)
 *   FAKE_NVML_GPUS="NAME,CC,MEMORY_BYTES,PCI_BUS_ID[,UUID];..."   one entry per GPU
 *   FAKE_NVML_COUNT_ERROR=N     nvmlDeviceGetCount_v2 returns nvmlReturn_t N
 *       (default: no GPUs). CC "9.0"; a field "-" makes its call return
 *       NVML_ERROR_NOT_SUPPORTED. Names must not contain ',' or ';'.
 * Per-GPU health, FAKE_NVML_GPU<i>_<FIELD> (i = the GPU's index), read at call time;
 * a value "-" makes that field's calls return NVML_ERROR_NOT_SUPPORTED. Defaults are a
 * healthy, idle GPU:
 *   _USED=BYTES                 memory used (default 0; free = total - used)
 *   _PERSISTENCE=0|1            nvmlDeviceGetPersistenceMode (default 1)
 *   _MIG=CURRENT,PENDING        nvmlDeviceGetMigMode, 0|1 each (default 0,0)
 *   _MIG_INSTANCES=N            MIG devices in slots 0..N-1 of 7 (default 0); each
 *                               has UUID MIG-0000000<i>-0000-4000-8000-00000000000<slot>,
 *                               name "<GPU name> MIG 1g.10gb", 1/8 of the memory
 *   _COMPUTE_MODE=N             nvmlComputeMode_t: 0 default, 1 exclusive thread,
 *                               2 prohibited, 3 exclusive process (default 0)
 *   _ECC=EN,PEND,VC,VU,AC,AU    ECC mode current/pending (0|1) and total ECC errors:
 *                               volatile corrected, volatile uncorrected, aggregate
 *                               corrected, aggregate uncorrected (default 1,1,0,0,0,0)
 *   _RETIRED=SBE,DBE,PENDING    retired page counts by cause, pending 0|1 (default 0,0,0)
 *   _REMAP=COR,UNC,PEND,FAIL    row remapper fields NVML_FI_DEV_REMAPPED_* through
 *                               nvmlDeviceGetFieldValues (default 0,0,0,0)
 *   _PCIE=CG,CW,MG,MW           current gen, current width, max gen, max width
 *                               (default 4,16,4,16)
 *   _THROTTLE=MASK              nvmlClocksThrottleReason bits, decimal or 0x.. (default 1,
 *                               GPU idle)
 *   _TEMP=C                     GPU temperature (default 35)
 *   _POWER=DRAW_MW,LIMIT_MW     power usage and enforced limit (default 60000,300000)
 *   _VBIOS=S                    nvmlDeviceGetVbiosVersion (default 96.00.74.00.01)
 *   _PROCS="PID:BYTES[:NAME];..." compute processes (default none); BYTES "-" is
 *                               NVML_VALUE_NOT_AVAILABLE; NAME is what
 *                               nvmlSystemGetProcessName answers for PID
 *   _LOST_AFTER=N|CALL          from the N+1th call on this GPU (or from the call named
 *                               CALL, e.g. nvmlDeviceGetEccMode) every call on it returns
 *                               NVML_ERROR_GPU_IS_LOST (15); calls on MIG devices count
 *                               for their GPU
 *   _PROC_COUNT=N               the process calls report N processes and never have room
 *                               (a corrupt answer)
 *   _NVLINKS=N                  NVLink links 0..N-1 (default 0: nvmlDeviceGetNvLinkState
 *                               answers NVML_ERROR_NOT_SUPPORTED, a GPU without NVLink);
 *                               links N..17 answer NOT_SUPPORTED, 18 and up
 *                               NVML_ERROR_INVALID_ARGUMENT, as NVML_NVLINK_MAX_LINKS is 18
 *   _NVLINK_DOWN=L[,L...]       these links are inactive (NVML_FEATURE_DISABLED)
 *   _NVLINK_VERSION=V           nvmlDeviceGetNvLinkVersion (default 4)
 *   _NVLINK_REMOTE=BUS_ID       nvmlDeviceGetNvLinkRemotePciInfo_v2's busId (default
 *                               00000000:05:00.0, an NVSwitch); inactive links answer
 *                               NVML_ERROR_NOT_SUPPORTED
 *   _FABRIC=STATE,STATUS[,CLIQUE] nvmlDeviceGetGpuFabricInfo(V): nvmlGpuFabricState_t
 *                               (1 not started, 2 in progress, 3 completed) and the
 *                               nvmlReturn_t status (default "-": NVML_ERROR_NOT_SUPPORTED,
 *                               no NVSwitch). The V call takes the v2 and v3 structs and
 *                               answers NVML_ERROR_ARGUMENT_VERSION_MISMATCH (25) to others.
 *   _FABRIC_HEALTH=MASK          the V call's healthMask (decimal or 0x..; default 0, every
 *                               field "not supported"): 2 bits each for degraded bandwidth,
 *                               route recovery, route unhealthy and access-timeout recovery
 *                               (1 true, 2 false), then 4 bits of incorrect configuration
 *                               (1 none, 2 sysguid, 3 chassis SN, 4 no partition, 5 too few
 *                               NVLinks), as nvml.h's NVML_GPU_FABRIC_HEALTH_MASK_* lay it out
 *   FAKE_NVML_COUNT=N            nvmlDeviceGetCount_v2 reports N (a corrupt answer)
 *   FAKE_NVML_TOPOLOGY=N         nvmlDeviceGetTopologyCommonAncestor for every pair:
 *                                nvmlGpuTopologyLevel_t (0 internal, 10 single switch, 20
 *                                multiple, 30 host bridge, 40 node, 50 system; default 30);
 *                                "-" NVML_ERROR_NOT_SUPPORTED
 *   FAKE_NVML_NVLINK_PAIRS="0-1,2-3" pairs NVLink joins: nvmlDeviceGetP2PStatus with
 *                                NVML_P2P_CAPS_INDEX_NVLINK answers NVML_P2P_STATUS_OK for
 *                                them, NVML_P2P_STATUS_NOT_SUPPORTED for the others
 *   FAKE_NVML_MAX_MIG=N          nvmlDeviceGetMaxMigDeviceCount reports N
 * nvmlDeviceGetComputeRunningProcesses_v3 writes the 32-byte struct of drivers
 * 535.43.02 to 535.86.05 (with usedGpuCcProtectedMemory) when FAKE_NVML_DRIVER_VERSION is
 * one of them, the 24-byte one otherwise.
 * Built with -DFAKE_OLD_DRIVER it is an R470 driver: it lacks nvmlDeviceGetMemoryInfo_v2,
 * nvmlSystemGetCudaDriverVersion_v2, nvmlDeviceGetFieldValues (the row remapper fields)
 * and nvmlDeviceGetComputeRunningProcesses_v3 (it has _v2 and the v1 call), and the
 * fabric calls (R530+). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int nvmlReturn_t;
typedef struct fake_device *nvmlDevice_t;

#define NVML_SUCCESS 0
#define NVML_ERROR_UNINITIALIZED 1
#define NVML_ERROR_INVALID_ARGUMENT 2
#define NVML_ERROR_NOT_SUPPORTED 3
#define NVML_ERROR_NOT_FOUND 6
#define NVML_ERROR_INSUFFICIENT_SIZE 7
#define NVML_ERROR_GPU_IS_LOST 15
#define NVML_ERROR_ARGUMENT_VERSION_MISMATCH 25
#define NVML_NVLINK_MAX_LINKS 18

#define NVML_VALUE_TYPE_UNSIGNED_INT 1
#define NVML_VALUE_NOT_AVAILABLE 0xFFFFFFFFFFFFFFFFULL
#define NVML_FI_DEV_REMAPPED_COR 142
#define NVML_FI_DEV_REMAPPED_UNC 143
#define NVML_FI_DEV_REMAPPED_PENDING 144
#define NVML_FI_DEV_REMAPPED_FAILURE 145

#define MAX_GPUS 16
#define MAX_MIG 7
#define MAX_PROCS 32
#define FIELD 96

struct fake_device {
    char name[FIELD];
    char cc[FIELD];
    char memory[FIELD];
    char bus_id[FIELD];
    char uuid[FIELD];
    unsigned int index;   /* the GPU's index (a MIG device's parent's) */
    int mig;              /* a MIG device handle */
    unsigned long long mig_memory;
};

static struct fake_device devices[MAX_GPUS];
static struct fake_device mig_devices[MAX_GPUS][MAX_MIG];
static unsigned int device_count;
static int initialised;
/* Per GPU: calls answered so far, and whether it is lost. */
static unsigned int calls_made[MAX_GPUS];
static int gpu_lost[MAX_GPUS];

typedef struct {
    char busIdLegacy[16];
    unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];
} nvmlPciInfo_t;

typedef struct {
    unsigned int version;
    unsigned long long total, reserved, free, used;
} nvmlMemory_v2_t;

typedef struct {
    unsigned long long total, free, used;
} nvmlMemory_t;

/* nvmlProcessInfo_t (= nvmlProcessInfo_v2_t) of nvml.h */
typedef struct {
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
} nvmlProcessInfo_t;

typedef union {
    double dVal;
    int siVal;
    unsigned int uiVal;
    unsigned long ulVal;
    unsigned long long ullVal;
    signed long long sllVal;
    unsigned short usVal;
} nvmlValue_t;

typedef struct {
    unsigned int fieldId;
    unsigned int scopeId;
    long long timestamp;
    long long latencyUsec;
    int valueType; /* nvmlValueType_t */
    nvmlReturn_t nvmlReturn;
    nvmlValue_t value;
} nvmlFieldValue_t;

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

static const char *env_str(const char *name, const char *fallback) {
    const char *v = getenv(name);
    return v && *v ? v : fallback;
}

/* FAKE_NVML_GPU<i>_<field>, or the fallback. */
static const char *gpu_env(unsigned int index, const char *field, const char *fallback) {
    char name[64];
    snprintf(name, sizeof name, "FAKE_NVML_GPU%u_%s", index, field);
    return env_str(name, fallback);
}

/* Up to n comma-separated unsigned numbers (decimal or 0x..); returns how many. */
static int numbers(const char *spec, unsigned long long *out, int n) {
    int got = 0;
    const char *p = spec;
    while (got < n && *p) {
        char *end;
        out[got++] = strtoull(p, &end, 0);
        if (*end != ',') break;
        p = end + 1;
    }
    return got;
}

static void copy_field(char *dst, const char *start, size_t len) {
    if (len >= FIELD) len = FIELD - 1;
    memcpy(dst, start, len);
    dst[len] = 0;
}

static void parse_gpus(void) {
    const char *spec = env_str("FAKE_NVML_GPUS", "");
    device_count = 0;
    memset(calls_made, 0, sizeof calls_made);
    memset(gpu_lost, 0, sizeof gpu_lost);
    while (*spec && device_count < MAX_GPUS) {
        struct fake_device *d = &devices[device_count];
        memset(d, 0, sizeof *d);
        d->index = device_count;
        char *fields[5] = {d->name, d->cc, d->memory, d->bus_id, d->uuid};
        const char *end = strchr(spec, ';');
        if (!end) end = spec + strlen(spec);
        const char *p = spec;
        for (int f = 0; f < 5 && p <= end; f++) {
            const char *comma = memchr(p, ',', (size_t)(end - p));
            const char *stop = comma ? comma : end;
            copy_field(fields[f], p, (size_t)(stop - p));
            p = stop + 1;
        }
        if (!d->uuid[0])
            snprintf(d->uuid, FIELD, "GPU-00000000-0000-0000-0000-%012u", device_count);
        device_count++;
        spec = *end ? end + 1 : end;
    }
}

static int unsupported(const char *field) { return strcmp(field, "-") == 0; }

static nvmlReturn_t copy_out(const char *value, char *buf, unsigned int len) {
    if (!buf) return NVML_ERROR_INVALID_ARGUMENT;
    if (strlen(value) + 1 > len) return NVML_ERROR_INSUFFICIENT_SIZE;
    strcpy(buf, value);
    return NVML_SUCCESS;
}

static struct fake_device *dev(nvmlDevice_t d) { return (struct fake_device *)d; }

/* Every per-device entry point starts here: a lost GPU answers GPU_IS_LOST, and
 * FAKE_NVML_GPU<i>_LOST_AFTER decides when it is lost. */
static nvmlReturn_t enter_index(unsigned int index, const char *call) {
    if (!initialised) return NVML_ERROR_UNINITIALIZED;
    if (index >= MAX_GPUS) return NVML_ERROR_INVALID_ARGUMENT;
    if (gpu_lost[index]) return NVML_ERROR_GPU_IS_LOST;
    const char *after = gpu_env(index, "LOST_AFTER", "");
    if (*after) {
        char *end;
        unsigned long n = strtoul(after, &end, 10);
        if ((*end == 0 && calls_made[index] >= n) || (*end != 0 && strcmp(after, call) == 0)) {
            gpu_lost[index] = 1;
            return NVML_ERROR_GPU_IS_LOST;
        }
    }
    calls_made[index]++;
    return NVML_SUCCESS;
}

#define ENTER(device)                                                     \
    do {                                                                  \
        if (!(device)) return NVML_ERROR_INVALID_ARGUMENT;                \
        nvmlReturn_t entered_ = enter_index(dev(device)->index, __func__); \
        if (entered_ != NVML_SUCCESS) return entered_;                    \
    } while (0)

nvmlReturn_t nvmlInit_v2(void) {
    const char *log = getenv("FAKE_NVML_INIT_LOG");
    if (log && *log) {
        FILE *f = fopen(log, "a");
        if (f) {
            fprintf(f, "%d\n", (int)getpid());
            fclose(f);
        }
    }
    if (env_int("FAKE_NVML_HANG", 0))
        for (;;) pause();
    if (env_int("FAKE_NVML_CRASH", 0)) crash();
    int rc = env_int("FAKE_NVML_INIT", 0);
    if (rc == NVML_SUCCESS) {
        initialised = 1;
        parse_gpus();
    }
    return rc;
}

nvmlReturn_t nvmlInitWithFlags(unsigned int flags) { (void)flags; return nvmlInit_v2(); }
nvmlReturn_t nvmlInit(void) { return nvmlInit_v2(); }

nvmlReturn_t nvmlShutdown(void) {
    if (!initialised) return NVML_ERROR_UNINITIALIZED;
    initialised = 0;
    return NVML_SUCCESS;
}

const char *nvmlErrorString(nvmlReturn_t result) {
    switch (result) {
    case 0: return "Success";
    case 3: return "Not Supported";
    case 6: return "Not Found";
    case 9: return "Driver Not Loaded";
    case 15: return "GPU is lost";
    case 18: return "RM has detected an NVML/RM version mismatch.";
    default: return "Unknown Error";
    }
}

nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length) {
    if (!initialised) return NVML_ERROR_UNINITIALIZED;
    return copy_out(env_str("FAKE_NVML_DRIVER_VERSION", "550.54.15"), version, length);
}

nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *v) {
    if (!v) return NVML_ERROR_INVALID_ARGUMENT;
    *v = env_int("FAKE_NVML_CUDA_VERSION", 12040);
    return NVML_SUCCESS;
}

#ifndef FAKE_OLD_DRIVER
nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *v) { return nvmlSystemGetCudaDriverVersion(v); }
#endif

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *count) {
    if (!initialised) return NVML_ERROR_UNINITIALIZED;
    if (!count) return NVML_ERROR_INVALID_ARGUMENT;
    /* FAKE_NVML_COUNT_ERROR=N: the count fails with nvmlReturn_t N (e.g. 999, UNKNOWN). */
    if (env_int("FAKE_NVML_COUNT_ERROR", 0)) return (nvmlReturn_t)env_int("FAKE_NVML_COUNT_ERROR", 0);
    *count = env_str("FAKE_NVML_COUNT", "")[0]
                 ? (unsigned int)strtoul(env_str("FAKE_NVML_COUNT", ""), NULL, 10)
                 : device_count;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device) {
    if (!initialised) return NVML_ERROR_UNINITIALIZED;
    if (index >= device_count || !device) return NVML_ERROR_INVALID_ARGUMENT;
    nvmlReturn_t rc = enter_index(index, __func__);
    if (rc != NVML_SUCCESS) return rc;
    *device = &devices[index];
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length) {
    ENTER(device);
    if (unsupported(dev(device)->name)) return NVML_ERROR_NOT_SUPPORTED;
    return copy_out(dev(device)->name, name, length);
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid, unsigned int length) {
    ENTER(device);
    if (unsupported(dev(device)->uuid)) return NVML_ERROR_NOT_SUPPORTED;
    return copy_out(dev(device)->uuid, uuid, length);
}

nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t *pci) {
    ENTER(device);
    struct fake_device *d = dev(device);
    if (!pci) return NVML_ERROR_INVALID_ARGUMENT;
    if (unsupported(d->bus_id)) return NVML_ERROR_NOT_SUPPORTED;
    memset(pci, 0, sizeof *pci);
    snprintf(pci->busId, sizeof pci->busId, "%.31s", d->bus_id);
    snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "%.15s", d->bus_id);
    pci->pciDeviceId = 0x233010de;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t device, int *major, int *minor) {
    ENTER(device);
    struct fake_device *d = dev(device);
    if (!major || !minor) return NVML_ERROR_INVALID_ARGUMENT;
    if (unsupported(d->cc)) return NVML_ERROR_NOT_SUPPORTED;
    if (sscanf(d->cc, "%d.%d", major, minor) != 2) return NVML_ERROR_NOT_SUPPORTED;
    return NVML_SUCCESS;
}

/* total and used bytes of a device or MIG device; NOT_SUPPORTED for "-". */
static nvmlReturn_t memory_of(struct fake_device *d, unsigned long long *total,
                              unsigned long long *used) {
    if (d->mig) {
        *total = d->mig_memory;
        *used = 0;
        return NVML_SUCCESS;
    }
    if (unsupported(d->memory)) return NVML_ERROR_NOT_SUPPORTED;
    *total = strtoull(d->memory, NULL, 10);
    const char *u = gpu_env(d->index, "USED", "0");
    if (unsupported(u)) return NVML_ERROR_NOT_SUPPORTED;
    *used = strtoull(u, NULL, 10);
    if (*used > *total) *used = *total;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t *memory) {
    ENTER(device);
    if (!memory) return NVML_ERROR_INVALID_ARGUMENT;
    unsigned long long total, used;
    nvmlReturn_t rc = memory_of(dev(device), &total, &used);
    if (rc != NVML_SUCCESS) return rc;
    memory->total = total;
    memory->used = used;
    memory->free = total - used;
    return NVML_SUCCESS;
}

#ifndef FAKE_OLD_DRIVER
nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t device, nvmlMemory_v2_t *memory) {
    ENTER(device);
    if (!memory) return NVML_ERROR_INVALID_ARGUMENT;
    unsigned long long total, used;
    nvmlReturn_t rc = memory_of(dev(device), &total, &used);
    if (rc != NVML_SUCCESS) return rc;
    memory->total = total;
    memory->reserved = 0;
    memory->used = used;
    memory->free = total - used;
    return NVML_SUCCESS;
}
#endif

/* One per-GPU field parsed into numbers; NOT_SUPPORTED for "-". */
static nvmlReturn_t field(nvmlDevice_t device, const char *name, const char *fallback,
                          unsigned long long *out, int n) {
    const char *spec = gpu_env(dev(device)->index, name, fallback);
    if (unsupported(spec)) return NVML_ERROR_NOT_SUPPORTED;
    memset(out, 0, sizeof *out * (size_t)n);
    numbers(spec, out, n);
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetPersistenceMode(nvmlDevice_t device, int *mode) {
    ENTER(device);
    unsigned long long v;
    if (!mode) return NVML_ERROR_INVALID_ARGUMENT;
    nvmlReturn_t rc = field(device, "PERSISTENCE", "1", &v, 1);
    if (rc == NVML_SUCCESS) *mode = v ? 1 : 0;
    return rc;
}

nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t device, unsigned int *current,
                                  unsigned int *pending) {
    ENTER(device);
    unsigned long long v[2];
    if (!current || !pending) return NVML_ERROR_INVALID_ARGUMENT;
    if (dev(device)->mig) return NVML_ERROR_NOT_SUPPORTED;
    nvmlReturn_t rc = field(device, "MIG", "0,0", v, 2);
    if (rc != NVML_SUCCESS) return rc;
    *current = v[0] ? 1 : 0;
    *pending = v[1] ? 1 : 0;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMaxMigDeviceCount(nvmlDevice_t device, unsigned int *count) {
    ENTER(device);
    unsigned long long v[2];
    if (!count) return NVML_ERROR_INVALID_ARGUMENT;
    nvmlReturn_t rc = field(device, "MIG", "0,0", v, 2);
    if (rc != NVML_SUCCESS) return rc;
    *count = env_str("FAKE_NVML_MAX_MIG", "")[0]
                 ? (unsigned int)strtoul(env_str("FAKE_NVML_MAX_MIG", ""), NULL, 10)
                 : MAX_MIG;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMigDeviceHandleByIndex(nvmlDevice_t device, unsigned int index,
                                                 nvmlDevice_t *mig_device) {
    ENTER(device);
    unsigned long long mode[2], instances = 0;
    struct fake_device *d = dev(device);
    if (!mig_device || index >= MAX_MIG || d->mig) return NVML_ERROR_INVALID_ARGUMENT;
    nvmlReturn_t rc = field(device, "MIG", "0,0", mode, 2);
    if (rc != NVML_SUCCESS) return rc;
    field(device, "MIG_INSTANCES", "0", &instances, 1);
    if (!mode[0] || index >= instances) return NVML_ERROR_NOT_FOUND;
    struct fake_device *m = &mig_devices[d->index][index];
    memset(m, 0, sizeof *m);
    m->index = d->index;
    m->mig = 1;
    snprintf(m->name, FIELD, "%.60s MIG 1g.10gb", d->name);
    snprintf(m->uuid, FIELD, "MIG-%08x-0000-4000-8000-%012x", d->index, index);
    m->mig_memory = strtoull(d->memory, NULL, 10) / 8;
    *mig_device = m;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetComputeMode(nvmlDevice_t device, int *mode) {
    ENTER(device);
    unsigned long long v;
    if (!mode) return NVML_ERROR_INVALID_ARGUMENT;
    nvmlReturn_t rc = field(device, "COMPUTE_MODE", "0", &v, 1);
    if (rc == NVML_SUCCESS) *mode = (int)v;
    return rc;
}

nvmlReturn_t nvmlDeviceGetEccMode(nvmlDevice_t device, int *current, int *pending) {
    ENTER(device);
    unsigned long long v[6];
    if (!current || !pending) return NVML_ERROR_INVALID_ARGUMENT;
    nvmlReturn_t rc = field(device, "ECC", "1,1,0,0,0,0", v, 6);
    if (rc != NVML_SUCCESS) return rc;
    *current = v[0] ? 1 : 0;
    *pending = v[1] ? 1 : 0;
    return NVML_SUCCESS;
}

/* errorType: 0 corrected, 1 uncorrected; counterType: 0 volatile, 1 aggregate. */
nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t device, int errorType, int counterType,
                                         unsigned long long *eccCounts) {
    ENTER(device);
    unsigned long long v[6];
    if (!eccCounts || errorType < 0 || errorType > 1 || counterType < 0 || counterType > 1)
        return NVML_ERROR_INVALID_ARGUMENT;
    nvmlReturn_t rc = field(device, "ECC", "1,1,0,0,0,0", v, 6);
    if (rc != NVML_SUCCESS) return rc;
    if (!v[0]) return NVML_ERROR_NOT_SUPPORTED; /* counters need ECC on */
    *eccCounts = v[2 + counterType * 2 + errorType];
    return NVML_SUCCESS;
}

/* cause: 0 multiple single-bit errors, 1 double-bit error. */
static nvmlReturn_t retired(nvmlDevice_t device, int cause, unsigned int *pageCount,
                            unsigned long long *addresses, unsigned long long *timestamps) {
    unsigned long long v[3];
    if (!pageCount || cause < 0 || cause > 1) return NVML_ERROR_INVALID_ARGUMENT;
    nvmlReturn_t rc = field(device, "RETIRED", "0,0,0", v, 3);
    if (rc != NVML_SUCCESS) return rc;
    unsigned int n = (unsigned int)v[cause];
    if (*pageCount < n) {
        *pageCount = n;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    for (unsigned int i = 0; i < n; i++) {
        if (addresses) addresses[i] = 0x1000ULL * (i + 1);
        if (timestamps) timestamps[i] = 1700000000ULL + i;
    }
    *pageCount = n;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetRetiredPages(nvmlDevice_t device, int cause, unsigned int *pageCount,
                                       unsigned long long *addresses) {
    ENTER(device);
    return retired(device, cause, pageCount, addresses, NULL);
}

nvmlReturn_t nvmlDeviceGetRetiredPages_v2(nvmlDevice_t device, int cause,
                                          unsigned int *pageCount,
                                          unsigned long long *addresses,
                                          unsigned long long *timestamps) {
    ENTER(device);
    return retired(device, cause, pageCount, addresses, timestamps);
}

nvmlReturn_t nvmlDeviceGetRetiredPagesPendingStatus(nvmlDevice_t device, int *isPending) {
    ENTER(device);
    unsigned long long v[3];
    if (!isPending) return NVML_ERROR_INVALID_ARGUMENT;
    nvmlReturn_t rc = field(device, "RETIRED", "0,0,0", v, 3);
    if (rc == NVML_SUCCESS) *isPending = v[2] ? 1 : 0;
    return rc;
}

#ifndef FAKE_OLD_DRIVER
nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t device, int valuesCount,
                                      nvmlFieldValue_t *values) {
    ENTER(device);
    unsigned long long remap[4];
    if (!values || valuesCount <= 0) return NVML_ERROR_INVALID_ARGUMENT;
    nvmlReturn_t remap_rc = field(device, "REMAP", "0,0,0,0", remap, 4);
    for (int i = 0; i < valuesCount; i++) {
        nvmlFieldValue_t *f = &values[i];
        f->timestamp = 1700000000000000LL;
        f->latencyUsec = 0;
        f->valueType = NVML_VALUE_TYPE_UNSIGNED_INT;
        f->value.ullVal = 0;
        if (f->fieldId >= NVML_FI_DEV_REMAPPED_COR && f->fieldId <= NVML_FI_DEV_REMAPPED_FAILURE) {
            f->nvmlReturn = remap_rc;
            if (remap_rc == NVML_SUCCESS)
                f->value.uiVal = (unsigned int)remap[f->fieldId - NVML_FI_DEV_REMAPPED_COR];
        } else {
            f->nvmlReturn = NVML_ERROR_NOT_SUPPORTED;
        }
    }
    return NVML_SUCCESS;
}
#endif

static nvmlReturn_t pcie(nvmlDevice_t device, int which, unsigned int *out) {
    unsigned long long v[4];
    if (!out) return NVML_ERROR_INVALID_ARGUMENT;
    nvmlReturn_t rc = field(device, "PCIE", "4,16,4,16", v, 4);
    if (rc == NVML_SUCCESS) *out = (unsigned int)v[which];
    return rc;
}

nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t device, unsigned int *v) {
    ENTER(device);
    return pcie(device, 0, v);
}

nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t device, unsigned int *v) {
    ENTER(device);
    return pcie(device, 1, v);
}

nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t device, unsigned int *v) {
    ENTER(device);
    return pcie(device, 2, v);
}

nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t device, unsigned int *v) {
    ENTER(device);
    return pcie(device, 3, v);
}

/* ---- topology between GPUs ---------------------------------------------------------- */

nvmlReturn_t nvmlDeviceGetTopologyCommonAncestor(nvmlDevice_t device1, nvmlDevice_t device2,
                                                 int *level) {
    ENTER(device1);
    if (!device2 || !level || device1 == device2) return NVML_ERROR_INVALID_ARGUMENT;
    const char *v = getenv("FAKE_NVML_TOPOLOGY");
    if (v && strcmp(v, "-") == 0) return NVML_ERROR_NOT_SUPPORTED;
    *level = v && *v ? atoi(v) : 30;
    return NVML_SUCCESS;
}

static int nvlink_joins(unsigned int a, unsigned int b) {
    const char *v = getenv("FAKE_NVML_NVLINK_PAIRS");
    if (!v) return 0;
    char x[32], y[32];
    snprintf(x, sizeof x, "%u-%u", a, b);
    snprintf(y, sizeof y, "%u-%u", b, a);
    for (const char *p = v; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if ((n == strlen(x) && strncmp(p, x, n) == 0) || (n == strlen(y) && strncmp(p, y, n) == 0))
            return 1;
        if (!end) break;
        p = end + 1;
    }
    return 0;
}

/* nvmlGpuP2PCapsIndex_t NVML_P2P_CAPS_INDEX_NVLINK = 2; other indices answer OK (PCIe P2P
 * read/write/atomics are not told apart here). */
nvmlReturn_t nvmlDeviceGetP2PStatus(nvmlDevice_t device1, nvmlDevice_t device2, int p2pIndex,
                                    int *p2pStatus) {
    ENTER(device1);
    if (!device2 || !p2pStatus || p2pIndex < 0 || p2pIndex > 4) return NVML_ERROR_INVALID_ARGUMENT;
    if (p2pIndex != 2) {
        *p2pStatus = 0;
        return NVML_SUCCESS;
    }
    *p2pStatus = nvlink_joins(dev(device1)->index, dev(device2)->index) ? 0 : 5;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t device,
                                                       unsigned long long *reasons) {
    ENTER(device);
    if (!reasons) return NVML_ERROR_INVALID_ARGUMENT;
    return field(device, "THROTTLE", "1", reasons, 1);
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, int sensorType, unsigned int *temp) {
    ENTER(device);
    unsigned long long v;
    if (!temp || sensorType != 0) return NVML_ERROR_INVALID_ARGUMENT;
    nvmlReturn_t rc = field(device, "TEMP", "35", &v, 1);
    if (rc == NVML_SUCCESS) *temp = (unsigned int)v;
    return rc;
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int *power) {
    ENTER(device);
    unsigned long long v[2];
    if (!power) return NVML_ERROR_INVALID_ARGUMENT;
    nvmlReturn_t rc = field(device, "POWER", "60000,300000", v, 2);
    if (rc == NVML_SUCCESS) *power = (unsigned int)v[0];
    return rc;
}

nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t device, unsigned int *limit) {
    ENTER(device);
    unsigned long long v[2];
    if (!limit) return NVML_ERROR_INVALID_ARGUMENT;
    nvmlReturn_t rc = field(device, "POWER", "60000,300000", v, 2);
    if (rc == NVML_SUCCESS) *limit = (unsigned int)v[1];
    return rc;
}

nvmlReturn_t nvmlDeviceGetVbiosVersion(nvmlDevice_t device, char *version, unsigned int length) {
    ENTER(device);
    const char *v = gpu_env(dev(device)->index, "VBIOS", "96.00.74.00.01");
    if (unsupported(v)) return NVML_ERROR_NOT_SUPPORTED;
    return copy_out(v, version, length);
}

/* FAKE_NVML_GPU<i>_PROCS entries: pid, used bytes (NVML_VALUE_NOT_AVAILABLE for "-"),
 * name (may be empty). Returns how many, or -1 for "-". */
struct fake_proc {
    unsigned int pid;
    unsigned long long used;
    char name[FIELD];
};

static int procs_of(unsigned int index, struct fake_proc *out, int max) {
    const char *spec = gpu_env(index, "PROCS", "");
    if (unsupported(spec)) return -1;
    int n = 0;
    while (*spec && n < max) {
        const char *end = strchr(spec, ';');
        if (!end) end = spec + strlen(spec);
        char entry[FIELD * 2];
        copy_field(entry, spec, (size_t)(end - spec));
        struct fake_proc *p = &out[n];
        memset(p, 0, sizeof *p);
        char *used = strchr(entry, ':');
        char *name = used ? strchr(used + 1, ':') : NULL;
        if (used) *used++ = 0;
        if (name) *name++ = 0;
        p->pid = (unsigned int)strtoul(entry, NULL, 10);
        p->used = (!used || strcmp(used, "-") == 0) ? NVML_VALUE_NOT_AVAILABLE
                                                    : strtoull(used, NULL, 10);
        if (name) snprintf(p->name, FIELD, "%s", name);
        n++;
        spec = *end ? end + 1 : end;
    }
    return n;
}

#ifndef FAKE_OLD_DRIVER
static int version_between(const char *v, const char *lo, const char *hi) {
    unsigned a[3] = {0}, l[3] = {0}, h[3] = {0};
    sscanf(v, "%u.%u.%u", &a[0], &a[1], &a[2]);
    sscanf(lo, "%u.%u.%u", &l[0], &l[1], &l[2]);
    sscanf(hi, "%u.%u.%u", &h[0], &h[1], &h[2]);
    unsigned long long x = a[0] * 1000000ULL + a[1] * 1000ULL + a[2];
    return x >= l[0] * 1000000ULL + l[1] * 1000ULL + l[2] &&
           x <= h[0] * 1000000ULL + h[1] * 1000ULL + h[2];
}
#endif

/* Writes the list with `stride` bytes per entry: pid (u32), usedGpuMemory (u64 at 8),
 * then gpuInstanceId, computeInstanceId (u32 at 16, 20) when stride >= 24, and
 * usedGpuCcProtectedMemory (u64 at 24) when 32. */
static nvmlReturn_t processes(nvmlDevice_t device, unsigned int *infoCount, void *infos,
                              size_t stride) {
    ENTER(device);
    struct fake_proc procs[MAX_PROCS];
    if (!infoCount) return NVML_ERROR_INVALID_ARGUMENT;
    const char *forced = gpu_env(dev(device)->index, "PROC_COUNT", "");
    if (*forced) {
        *infoCount = (unsigned int)strtoul(forced, NULL, 10);
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    int n = procs_of(dev(device)->index, procs, MAX_PROCS);
    if (n < 0) return NVML_ERROR_NOT_SUPPORTED;
    if (*infoCount < (unsigned int)n || (!infos && n > 0)) {
        *infoCount = (unsigned int)n;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    for (int i = 0; i < n; i++) {
        unsigned char *e = (unsigned char *)infos + (size_t)i * stride;
        memset(e, 0, stride);
        memcpy(e, &procs[i].pid, 4);
        memcpy(e + 8, &procs[i].used, 8);
        if (stride >= 24) memset(e + 16, 0xff, 8);
    }
    *infoCount = (unsigned int)n;
    return NVML_SUCCESS;
}

#ifndef FAKE_OLD_DRIVER
nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t device,
                                                     unsigned int *infoCount,
                                                     nvmlProcessInfo_t *infos) {
    const char *v = env_str("FAKE_NVML_DRIVER_VERSION", "550.54.15");
    return processes(device, infoCount, infos,
                     version_between(v, "535.43.02", "535.86.05") ? 32 : 24);
}
#endif

nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v2(nvmlDevice_t device,
                                                     unsigned int *infoCount, void *infos) {
    return processes(device, infoCount, infos, 24);
}

nvmlReturn_t nvmlDeviceGetComputeRunningProcesses(nvmlDevice_t device, unsigned int *infoCount,
                                                  void *infos) {
    return processes(device, infoCount, infos, 16);
}

nvmlReturn_t nvmlSystemGetProcessName(unsigned int pid, char *name, unsigned int length) {
    struct fake_proc procs[MAX_PROCS];
    if (!initialised) return NVML_ERROR_UNINITIALIZED;
    for (unsigned int g = 0; g < device_count; g++) {
        int n = procs_of(g, procs, MAX_PROCS);
        for (int i = 0; i < n; i++)
            if (procs[i].pid == pid && procs[i].name[0]) return copy_out(procs[i].name, name, length);
    }
    return NVML_ERROR_NOT_FOUND;
}

/* NVLink: FAKE_NVML_GPU<i>_NVLINKS links, those in _NVLINK_DOWN inactive. */
static nvmlReturn_t nvlink_exists(nvmlDevice_t device, unsigned int link) {
    unsigned long long n = 0;
    if (link >= NVML_NVLINK_MAX_LINKS) return NVML_ERROR_INVALID_ARGUMENT;
    if (dev(device)->mig) return NVML_ERROR_NOT_SUPPORTED;
    field(device, "NVLINKS", "0", &n, 1);
    return link < n ? NVML_SUCCESS : NVML_ERROR_NOT_SUPPORTED;
}

static int nvlink_down(nvmlDevice_t device, unsigned int link) {
    unsigned long long down[NVML_NVLINK_MAX_LINKS];
    const char *spec = gpu_env(dev(device)->index, "NVLINK_DOWN", "");
    if (!*spec) return 0;
    int n = numbers(spec, down, NVML_NVLINK_MAX_LINKS);
    for (int i = 0; i < n; i++)
        if (down[i] == link) return 1;
    return 0;
}

/* nvmlEnableState_t: 0 NVML_FEATURE_DISABLED, 1 NVML_FEATURE_ENABLED. */
nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t device, unsigned int link, int *isActive) {
    ENTER(device);
    if (!isActive) return NVML_ERROR_INVALID_ARGUMENT;
    nvmlReturn_t rc = nvlink_exists(device, link);
    if (rc != NVML_SUCCESS) return rc;
    *isActive = nvlink_down(device, link) ? 0 : 1;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetNvLinkVersion(nvmlDevice_t device, unsigned int link,
                                        unsigned int *version) {
    ENTER(device);
    unsigned long long v;
    if (!version) return NVML_ERROR_INVALID_ARGUMENT;
    nvmlReturn_t rc = nvlink_exists(device, link);
    if (rc != NVML_SUCCESS) return rc;
    rc = field(device, "NVLINK_VERSION", "4", &v, 1);
    if (rc == NVML_SUCCESS) *version = (unsigned int)v;
    return rc;
}

nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo_v2(nvmlDevice_t device, unsigned int link,
                                                 nvmlPciInfo_t *pci) {
    ENTER(device);
    if (!pci) return NVML_ERROR_INVALID_ARGUMENT;
    nvmlReturn_t rc = nvlink_exists(device, link);
    if (rc != NVML_SUCCESS) return rc;
    if (nvlink_down(device, link)) return NVML_ERROR_NOT_SUPPORTED;
    const char *bus = gpu_env(dev(device)->index, "NVLINK_REMOTE", "00000000:05:00.0");
    memset(pci, 0, sizeof *pci);
    snprintf(pci->busId, sizeof pci->busId, "%.31s", bus);
    snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "%.15s", bus);
    pci->pciDeviceId = 0x22a310de; /* an NVSwitch */
    return NVML_SUCCESS;
}

#ifndef FAKE_OLD_DRIVER
/* nvml.h's nvmlGpuFabricInfo_t, _v2_t and _v3_t. */
typedef struct {
    unsigned char clusterUuid[16];
    nvmlReturn_t status;
    unsigned int cliqueId;
    unsigned char state;
} nvmlGpuFabricInfo_t;

typedef struct {
    unsigned int version;
    unsigned char clusterUuid[16];
    nvmlReturn_t status;
    unsigned int cliqueId;
    unsigned char state;
    unsigned int healthMask;
} nvmlGpuFabricInfo_v2_t;

typedef struct {
    unsigned int version;
    unsigned char clusterUuid[16];
    nvmlReturn_t status;
    unsigned int cliqueId;
    unsigned char state;
    unsigned int healthMask;
    unsigned char healthSummary;
} nvmlGpuFabricInfo_v3_t;

#define FABRIC_V2 ((unsigned int)(sizeof(nvmlGpuFabricInfo_v2_t) | (2U << 24)))
#define FABRIC_V3 ((unsigned int)(sizeof(nvmlGpuFabricInfo_v3_t) | (3U << 24)))

/* state, status and clique of FAKE_NVML_GPU<i>_FABRIC; NOT_SUPPORTED for "-". */
static nvmlReturn_t fabric(nvmlDevice_t device, unsigned char *uuid, nvmlReturn_t *status,
                           unsigned int *clique, unsigned char *state) {
    unsigned long long v[3];
    if (dev(device)->mig) return NVML_ERROR_NOT_SUPPORTED;
    nvmlReturn_t rc = field(device, "FABRIC", "-", v, 3);
    if (rc != NVML_SUCCESS) return rc;
    *state = (unsigned char)v[0];
    *status = (nvmlReturn_t)v[1];
    *clique = (unsigned int)v[2];
    memset(uuid, 0, 16);
    if (v[0] == 3) /* registered: a cluster UUID */
        for (int i = 0; i < 16; i++) uuid[i] = (unsigned char)(0xa0 + i);
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetGpuFabricInfo(nvmlDevice_t device, nvmlGpuFabricInfo_t *info) {
    ENTER(device);
    if (!info) return NVML_ERROR_INVALID_ARGUMENT;
    return fabric(device, info->clusterUuid, &info->status, &info->cliqueId, &info->state);
}

nvmlReturn_t nvmlDeviceGetGpuFabricInfoV(nvmlDevice_t device, nvmlGpuFabricInfo_v3_t *info) {
    ENTER(device);
    if (!info) return NVML_ERROR_INVALID_ARGUMENT;
    if (info->version != FABRIC_V2 && info->version != FABRIC_V3)
        return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
    nvmlReturn_t rc = fabric(device, info->clusterUuid, &info->status, &info->cliqueId, &info->state);
    if (rc != NVML_SUCCESS) return rc;
    unsigned long long mask;
    numbers(gpu_env(dev(device)->index, "FABRIC_HEALTH", "0"), &mask, 1);
    info->healthMask = (unsigned int)mask;
    if (info->version == FABRIC_V3) info->healthSummary = 0;
    return NVML_SUCCESS;
}
#endif
