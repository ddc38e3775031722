/* A fake libnvidia-ml.so.1 for gpu-doctor's tests: the real C ABI (names and
 * signatures from nvml.h), behaviour told through environment variables read at call
 * time:
 *   FAKE_NVML_INIT=N            nvmlInit_v2 returns nvmlReturn_t N (default 0)
 *   FAKE_NVML_HANG=1            nvmlInit_v2 never returns
 *   FAKE_NVML_CRASH=1           nvmlInit_v2 dies of SIGSEGV (a store to NULL)
 *   FAKE_NVML_DRIVER_VERSION=S  nvmlSystemGetDriverVersion (default 550.54.15)
 *   FAKE_NVML_CUDA_VERSION=N    nvmlSystemGetCudaDriverVersion(_v2) (default 12040)
 *   FAKE_NVML_GPUS="NAME,CC,MEMORY_BYTES,PCI_BUS_ID[,UUID];..."   one entry per GPU
 *       (default: no GPUs). CC "9.0"; a field "-" makes its call return
 *       NVML_ERROR_NOT_SUPPORTED. Names must not contain ',' or ';'.
 * Built with -DFAKE_OLD_DRIVER it lacks nvmlDeviceGetMemoryInfo_v2 and
 * nvmlSystemGetCudaDriverVersion_v2, as drivers older than those entry points do. */
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
#define NVML_ERROR_INSUFFICIENT_SIZE 7

#define MAX_GPUS 16
#define FIELD 96

struct fake_device {
    char name[FIELD];
    char cc[FIELD];
    char memory[FIELD];
    char bus_id[FIELD];
    char uuid[FIELD];
};

static struct fake_device devices[MAX_GPUS];
static unsigned int device_count;
static int initialised;

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

static void copy_field(char *dst, const char *start, size_t len) {
    if (len >= FIELD) len = FIELD - 1;
    memcpy(dst, start, len);
    dst[len] = 0;
}

static void parse_gpus(void) {
    const char *spec = env_str("FAKE_NVML_GPUS", "");
    device_count = 0;
    while (*spec && device_count < MAX_GPUS) {
        struct fake_device *d = &devices[device_count];
        memset(d, 0, sizeof *d);
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

nvmlReturn_t nvmlInit_v2(void) {
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
    case 9: return "Driver Not Loaded";
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
    *count = device_count;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device) {
    if (!initialised) return NVML_ERROR_UNINITIALIZED;
    if (index >= device_count || !device) return NVML_ERROR_INVALID_ARGUMENT;
    *device = &devices[index];
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length) {
    if (unsupported(dev(device)->name)) return NVML_ERROR_NOT_SUPPORTED;
    return copy_out(dev(device)->name, name, length);
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid, unsigned int length) {
    if (unsupported(dev(device)->uuid)) return NVML_ERROR_NOT_SUPPORTED;
    return copy_out(dev(device)->uuid, uuid, length);
}

nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t *pci) {
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
    struct fake_device *d = dev(device);
    if (!major || !minor) return NVML_ERROR_INVALID_ARGUMENT;
    if (unsupported(d->cc)) return NVML_ERROR_NOT_SUPPORTED;
    if (sscanf(d->cc, "%d.%d", major, minor) != 2) return NVML_ERROR_NOT_SUPPORTED;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t *memory) {
    struct fake_device *d = dev(device);
    if (!memory) return NVML_ERROR_INVALID_ARGUMENT;
    if (unsupported(d->memory)) return NVML_ERROR_NOT_SUPPORTED;
    memory->total = strtoull(d->memory, NULL, 10);
    memory->used = 0;
    memory->free = memory->total;
    return NVML_SUCCESS;
}

#ifndef FAKE_OLD_DRIVER
nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t device, nvmlMemory_v2_t *memory) {
    struct fake_device *d = dev(device);
    if (!memory) return NVML_ERROR_INVALID_ARGUMENT;
    if (unsupported(d->memory)) return NVML_ERROR_NOT_SUPPORTED;
    memory->total = strtoull(d->memory, NULL, 10);
    memory->reserved = 0;
    memory->used = 0;
    memory->free = memory->total;
    return NVML_SUCCESS;
}
#endif
