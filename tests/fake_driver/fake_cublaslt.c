/* A fake libcublasLt.so for gpu-doctor's tests: the entry points the cublaslt probe
 * calls, with cublasLt.h's signatures. Device memory of the fake libcuda is host
 * memory, so the matmul really runs here, on the CPU, in the element types asked for.
 *   FAKE_CUBLASLT_VERSION=N     cublasLtGetVersion (default 120403, or 130100 when the
 *                               file is a libcublasLt.so.13, as the soname says)
 *   FAKE_CUBLASLT_HEURISTIC=N   cublasLtMatmulAlgoGetHeuristic returns status N
 *                               (3 = CUBLAS_STATUS_ALLOC_FAILED)
 *   FAKE_CUBLASLT_NO_ALGO=1     the heuristic returns no algorithm
 *   FAKE_CUBLASLT_WORKSPACE=B   workspace the chosen algorithm asks for (default 0)
 *   FAKE_CUBLASLT_WRONG=1       the matmul computes a wrong element
 *   FAKE_CUBLASLT_NO_FP8=1      no algorithm for FP8 (E4M3) inputs, as in cuBLASLt
 *                               releases older than the GPU's FP8 support
 * Like the real library: a release older than 11.11 (CUDA 11.8) does not know the FP8
 * type and refuses its layout with CUBLAS_STATUS_INVALID_VALUE (7); cublasLtCreate
 * answers CUBLAS_STATUS_NOT_INITIALIZED (1) when the driver (cuDriverGetVersion of the
 * loaded libcuda) is older than the library's CUDA major; and cublasLtMatmul only
 * enqueues the work on its stream (through the fake libcuda), so it reads A and B when
 * the stream gets there, not when it is called. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int cublasStatus_t;
#define OK 0
#define INVALID_VALUE 7

static int env_int(const char *name, int fallback) {
    const char *v = getenv(name);
    return v && *v ? atoi(v) : fallback;
}

struct desc { int compute, scale, transa; };
struct layout { int type; uint64_t rows, cols; int64_t ld; };
typedef struct {
    uint64_t algo[8];
    size_t workspaceSize;
    int state;
    float wavesCount;
    int reserved[4];
} heuristic_t;

size_t cublasLtGetVersion(void) {
    Dl_info self;
    int fallback = 120403;
    if (dladdr((void *)cublasLtGetVersion, &self) && self.dli_fname &&
        strstr(self.dli_fname, "libcublasLt.so.13"))
        fallback = 130100;
    return (size_t)env_int("FAKE_CUBLASLT_VERSION", fallback);
}

static void *libcuda(const char *symbol) {
    void *lib = dlopen("libcuda.so.1", RTLD_NOLOAD | RTLD_LAZY);
    return lib ? dlsym(lib, symbol) : NULL;
}

cublasStatus_t cublasLtCreate(void **handle) {
    if (!handle) return INVALID_VALUE;
    int (*driver_version)(int *) = (int (*)(int *))libcuda("cuDriverGetVersion");
    int v = 0;
    if (driver_version && driver_version(&v) == 0 &&
        v / 1000 < (int)(cublasLtGetVersion() / 10000))
        return 1; /* CUBLAS_STATUS_NOT_INITIALIZED */
    *handle = malloc(1);
    return OK;
}
cublasStatus_t cublasLtDestroy(void *handle) { free(handle); return OK; }

cublasStatus_t cublasLtMatmulDescCreate(void **d, int compute, int scale) {
    if (!d) return INVALID_VALUE;
    struct desc *x = calloc(1, sizeof *x);
    x->compute = compute;
    x->scale = scale;
    *d = x;
    return OK;
}
cublasStatus_t cublasLtMatmulDescDestroy(void *d) { free(d); return OK; }
cublasStatus_t cublasLtMatmulDescSetAttribute(void *d, int attr, const void *buf, size_t size) {
    if (!d || !buf) return INVALID_VALUE;
    if (attr == 3 && size == sizeof(int)) ((struct desc *)d)->transa = *(const int *)buf;
    return OK;
}

cublasStatus_t cublasLtMatrixLayoutCreate(void **l, int type, uint64_t rows, uint64_t cols, int64_t ld) {
    if (!l) return INVALID_VALUE;
    if (type == 28 && cublasLtGetVersion() < 111100) return INVALID_VALUE;
    struct layout *x = calloc(1, sizeof *x);
    x->type = type;
    x->rows = rows;
    x->cols = cols;
    x->ld = ld;
    *l = x;
    return OK;
}
cublasStatus_t cublasLtMatrixLayoutDestroy(void *l) { free(l); return OK; }

cublasStatus_t cublasLtMatmulPreferenceCreate(void **p) {
    if (!p) return INVALID_VALUE;
    *p = calloc(1, sizeof(uint64_t));
    return OK;
}
cublasStatus_t cublasLtMatmulPreferenceDestroy(void *p) { free(p); return OK; }
cublasStatus_t cublasLtMatmulPreferenceSetAttribute(void *p, int attr, const void *buf, size_t size) {
    if (!p || !buf) return INVALID_VALUE;
    if (attr == 1 && size == 8) *(uint64_t *)p = *(const uint64_t *)buf;
    return OK;
}

cublasStatus_t cublasLtMatmulAlgoGetHeuristic(void *h, void *d, void *a, void *b, void *c, void *dd,
                                              void *pref, int requested, heuristic_t *results,
                                              int *returned) {
    (void)h; (void)d; (void)b; (void)c; (void)dd;
    if (!results || !returned || requested < 1 || !a) return INVALID_VALUE;
    int rc = env_int("FAKE_CUBLASLT_HEURISTIC", 0);
    if (rc) return rc;
    int fp8 = ((struct layout *)a)->type == 28;
    *returned = env_int("FAKE_CUBLASLT_NO_ALGO", 0) || (fp8 && env_int("FAKE_CUBLASLT_NO_FP8", 0)) ? 0 : 1;
    memset(results, 0, sizeof *results);
    results->workspaceSize = (size_t)env_int("FAKE_CUBLASLT_WORKSPACE", 0);
    if (results->workspaceSize > *(uint64_t *)pref) return 3;
    results->algo[0] = 42;
    return OK;
}

static float load(int type, const void *base, uint64_t i) {
    switch (type) {
    case 0: return ((const float *)base)[i];
    case 2: return (float)((const _Float16 *)base)[i];
    case 14: {
        uint32_t bits = (uint32_t)((const uint16_t *)base)[i] << 16;
        float f;
        memcpy(&f, &bits, 4);
        return f;
    }
    case 28: { /* E4M3 */
        uint8_t v = ((const uint8_t *)base)[i];
        int sign = v & 0x80 ? -1 : 1, exp = (v >> 3) & 15, man = v & 7;
        if (!exp) return sign * ldexpf((float)man / 8.0f, -6);
        return sign * ldexpf(1.0f + (float)man / 8.0f, exp - 7);
    }
    }
    return NAN;
}

static void store(int type, void *base, uint64_t i, float v) {
    switch (type) {
    case 0: ((float *)base)[i] = v; break;
    case 2: ((_Float16 *)base)[i] = (_Float16)v; break;
    default: {
        uint32_t bits;
        memcpy(&bits, &v, 4);
        ((uint16_t *)base)[i] = (uint16_t)(bits >> 16);
    }
    }
}

struct matmul {
    struct desc x;
    struct layout a, b, d;
    const void *A, *B;
    void *D;
    float alpha;
};

static void run_matmul(void *arg) {
    struct matmul *m = arg;
    uint64_t rows = m->d.rows, n = m->d.cols, k = m->b.rows;
    for (uint64_t j = 0; j < n; j++)
        for (uint64_t i = 0; i < rows; i++) {
            float sum = 0;
            for (uint64_t kk = 0; kk < k; kk++) {
                uint64_t ai = m->x.transa ? kk + i * (uint64_t)m->a.ld : i + kk * (uint64_t)m->a.ld;
                sum += load(m->a.type, m->A, ai) * load(m->b.type, m->B, kk + j * (uint64_t)m->b.ld);
            }
            store(m->d.type, m->D, i + j * (uint64_t)m->d.ld, m->alpha * sum);
        }
    if (env_int("FAKE_CUBLASLT_WRONG", 0)) store(m->d.type, m->D, 0, 1234.0f);
    free(m);
}

cublasStatus_t cublasLtMatmul(void *h, void *desc, const void *alpha, const void *A, void *Ad,
                              const void *B, void *Bd, const void *beta, const void *C, void *Cd,
                              void *D, void *Dd, const void *algo, void *ws, size_t wss, void *stream) {
    (void)h; (void)beta; (void)C; (void)Cd; (void)algo; (void)ws; (void)wss;
    struct desc *x = desc;
    struct layout *a = Ad, *b = Bd, *d = Dd;
    if (!x || !a || !b || !d || !A || !B || !D || !alpha) return INVALID_VALUE;
    struct matmul *m = malloc(sizeof *m);
    if (!m) return 3;
    m->x = *x;
    m->a = *a;
    m->b = *b;
    m->d = *d;
    m->A = A;
    m->B = B;
    m->D = D;
    m->alpha = *(const float *)alpha;
    int (*enqueue)(void *, void (*)(void *), void *) =
        (int (*)(void *, void (*)(void *), void *))libcuda("fake_cuda_enqueue_host");
    if (!enqueue) {
        run_matmul(m);
        return OK;
    }
    return enqueue(stream, run_matmul, m) ? 13 /* EXECUTION_FAILED */ : OK;
}
