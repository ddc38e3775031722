/* A fake libnccl.so.2 for gpu-doctor's tests: the real C ABI of nccl.h (ncclGetVersion,
 * ncclCommInitAll, ncclAllReduce, ncclGroupStart/End, ncclCommDestroy, ncclGetErrorString,
 * ncclCommGetAsyncError), over the fake libcuda's memory (device memory is host memory).
 *
 * As the real library: one thread driving several GPUs must put their calls in one group
 * (ncclGroupStart/ncclGroupEnd); a collective is launched once every rank has called it,
 * and runs asynchronously on each rank's stream (through the fake libcuda's
 * fake_cuda_enqueue_host, so the result appears only when the stream is waited for).
 * Only float32 (ncclFloat32 = 7) sums (ncclSum = 0) are implemented; other types and
 * operations are ncclInvalidArgument here.
 *
 *   FAKE_NCCL_VERSION=N      ncclGetVersion (default 22005, NCCL 2.20.5)
 *   FAKE_NCCL_INIT_ERROR=N   ncclCommInitAll returns ncclResult_t N (2: system error)
 *   FAKE_NCCL_WRONG=1        the all-reduce completes but one element of the last rank is off
 *   FAKE_NCCL_HANG=1         the all-reduce never completes (its streams never finish)
 *   FAKE_NCCL_ASYNC_ERROR=N  ncclCommGetAsyncError reports N on every communicator
 * A missing library is tested by its absence. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int ncclResult_t;
#define ncclSuccess 0
#define ncclSystemError 2
#define ncclInvalidArgument 4
#define ncclInvalidUsage 5
#define ncclFloat32 7
#define ncclSum 0
#define MAX_RANKS 64

struct ncclComm {
    int rank, nranks, dev;
    struct clique *clique;
};
typedef struct ncclComm *ncclComm_t;

/* The communicators of one ncclCommInitAll and the collective being assembled. */
struct call { const float *send; float *recv; size_t count; void *stream; int set; };
struct clique {
    int nranks;
    struct call calls[MAX_RANKS];
    int pending;
};

/* One launched all-reduce, shared by the host functions queued on every rank's stream. */
struct coll {
    int nranks, done, refs;
    struct call calls[MAX_RANKS];
};

static int group_depth;
static struct clique *open_cliques[MAX_RANKS];
static int open_count;

static int env_int(const char *name, int fallback) {
    const char *v = getenv(name);
    return v && *v ? atoi(v) : fallback;
}

ncclResult_t ncclGetVersion(int *version) {
    if (!version) return ncclInvalidArgument;
    *version = env_int("FAKE_NCCL_VERSION", 22005);
    return ncclSuccess;
}

const char *ncclGetErrorString(ncclResult_t result) {
    switch (result) {
    case 0: return "no error";
    case 1: return "unhandled cuda error (run with NCCL_DEBUG=INFO for details)";
    case 2: return "unhandled system error (run with NCCL_DEBUG=INFO for details)";
    case 3: return "internal error - please report this issue to the NCCL developers";
    case 4: return "invalid argument (run with NCCL_DEBUG=WARN for details)";
    case 5: return "invalid usage (run with NCCL_DEBUG=WARN for details)";
    case 6: return "remote process exited or there was a network error";
    case 7: return "NCCL operation in progress";
    default: return "unknown result code";
    }
}

ncclResult_t ncclCommInitAll(ncclComm_t *comms, int ndev, const int *devlist) {
    if (!comms || ndev < 1 || ndev > MAX_RANKS) return ncclInvalidArgument;
    int rc = env_int("FAKE_NCCL_INIT_ERROR", 0);
    if (rc) return rc;
    struct clique *c = calloc(1, sizeof *c);
    if (!c) return ncclSystemError;
    c->nranks = ndev;
    for (int r = 0; r < ndev; r++) {
        int dev = devlist ? devlist[r] : r;
        if (dev < 0) return ncclInvalidArgument;
        comms[r] = calloc(1, sizeof(struct ncclComm));
        if (!comms[r]) return ncclSystemError;
        comms[r]->rank = r;
        comms[r]->nranks = ndev;
        comms[r]->dev = dev;
        comms[r]->clique = c;
    }
    return ncclSuccess;
}

ncclResult_t ncclCommDestroy(ncclComm_t comm) {
    if (!comm) return ncclInvalidArgument;
    free(comm);
    return ncclSuccess;
}

ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t *error) {
    if (!comm || !error) return ncclInvalidArgument;
    *error = env_int("FAKE_NCCL_ASYNC_ERROR", 0);
    return ncclSuccess;
}

/* Runs on a rank's stream: the first rank's stream to get there computes every rank's
 * result. */
static void run_coll(void *arg) {
    struct coll *c = arg;
    if (env_int("FAKE_NCCL_HANG", 0))
        for (;;) pause();
    if (!c->done) {
        size_t count = c->calls[0].count;
        float *sum = calloc(count ? count : 1, sizeof *sum);
        if (sum) {
            for (int r = 0; r < c->nranks; r++)
                for (size_t i = 0; i < count; i++) sum[i] += c->calls[r].send[i];
            for (int r = 0; r < c->nranks; r++)
                memcpy(c->calls[r].recv, sum, count * sizeof *sum);
            if (env_int("FAKE_NCCL_WRONG", 0) && count)
                c->calls[c->nranks - 1].recv[count / 2] += 1.0f;
            free(sum);
        }
        c->done = 1;
    }
    if (--c->refs == 0) free(c);
}

typedef int (*enqueue_fn)(void *, void (*)(void *), void *);

static void launch(struct clique *q) {
    struct coll *c = calloc(1, sizeof *c);
    if (!c) return;
    c->nranks = q->nranks;
    c->refs = q->nranks;
    memcpy(c->calls, q->calls, sizeof c->calls);
    /* The libcuda the process loaded (as the real NCCL uses the process's driver). */
    void *lib = dlopen("libcuda.so.1", RTLD_NOLOAD | RTLD_LAZY);
    enqueue_fn enqueue = lib ? (enqueue_fn)dlsym(lib, "fake_cuda_enqueue_host") : NULL;
    for (int r = 0; r < q->nranks; r++) {
        if (!enqueue || enqueue(q->calls[r].stream, run_coll, c) != 0) run_coll(c);
        q->calls[r].set = 0;
    }
    q->pending = 0;
}

ncclResult_t ncclGroupStart(void) {
    group_depth++;
    return ncclSuccess;
}

ncclResult_t ncclGroupEnd(void) {
    if (group_depth == 0) return ncclInvalidUsage;
    if (--group_depth > 0) return ncclSuccess;
    ncclResult_t rc = ncclSuccess;
    for (int i = 0; i < open_count; i++) {
        struct clique *q = open_cliques[i];
        if (q->pending == q->nranks) launch(q);
        else rc = ncclInvalidUsage; /* a collective some ranks never joined */
    }
    open_count = 0;
    return rc;
}

ncclResult_t ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count, int datatype,
                           int op, ncclComm_t comm, void *stream) {
    if (!comm || !sendbuff || !recvbuff) return ncclInvalidArgument;
    if (datatype != ncclFloat32 || op != ncclSum) return ncclInvalidArgument;
    struct clique *q = comm->clique;
    struct call *call = &q->calls[comm->rank];
    if (call->set) return ncclInvalidUsage;
    call->send = sendbuff;
    call->recv = recvbuff;
    call->count = count;
    call->stream = stream;
    call->set = 1;
    q->pending++;
    int listed = 0;
    for (int i = 0; i < open_count; i++) listed |= open_cliques[i] == q;
    if (!listed && open_count < MAX_RANKS) open_cliques[open_count++] = q;
    /* Outside a group, the collective starts once every rank has called it. */
    if (group_depth == 0 && q->pending == q->nranks) {
        launch(q);
        open_count = 0;
    }
    return ncclSuccess;
}
