/* test_gpu_call.c - the wrappers of src/gpu_call.h over a fake GPU backend
 * whose methods check nothing (they count their calls and copy what they
 * are told to): every range past a buffer's end, every sum of offset and
 * length that overflows, a missing host pointer, a queue that is not
 * there, a launch of no work or with another device's buffer is refused
 * by the wrapper, with a message naming the buffer and the device, and
 * never reaches the method; ranges that fit reach it and move the bytes.
 * So is a copy, a share or a program with definitions on a device whose
 * capabilities (caps.h, from its backend's table) do not offer it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_call.h"

#include "check.h"

struct ls_buf {
    ls_buf_head head;
    unsigned char *mem;
};
struct ls_ctx {
    int calls; /* methods called on this device */
};
struct ls_kernel {
    int unused;
};

static void fake_info(ls_ctx *ctx, ls_gpu_info *out)
{
    ctx->calls++;
    memset(out, 0, sizeof *out);
    out->max_group = 64;
}

static int fake_alloc(ls_ctx *ctx, size_t bytes, const char *what, ls_buf **out, ls_error *err)
{
    (void)what, (void)err;
    ctx->calls++;
    ls_buf *b = calloc(1, sizeof *b);
    b->mem = calloc(bytes ? bytes : 1, 1);
    *out = b;
    return 0;
}

static void fake_free(ls_ctx *ctx, ls_buf *b)
{
    ctx->calls++;
    free(b->mem);
    free(b);
}

static int fake_write(ls_ctx *ctx, int queue, ls_buf *b, size_t offset, const void *src, size_t bytes, ls_error *err)
{
    (void)queue, (void)err;
    ctx->calls++;
    memcpy(b->mem + offset, src, bytes);
    return 0;
}

static int fake_read(ls_ctx *ctx, ls_buf *b, size_t offset, void *dst, size_t bytes, ls_error *err)
{
    (void)err;
    ctx->calls++;
    memcpy(dst, b->mem + offset, bytes);
    return 0;
}

static int fake_kernel(ls_ctx *ctx, const char *program, const char *name, ls_kernel **out, ls_error *err)
{
    static ls_kernel k;
    (void)program, (void)name, (void)err;
    ctx->calls++;
    *out = &k;
    return 0;
}

static int fake_kernel_with(ls_ctx *ctx, const char *program, const char *defines, const char *name, ls_kernel **out,
                            ls_error *err)
{
    (void)defines;
    return fake_kernel(ctx, program, name, out, err);
}

static int fake_groups(ls_ctx *ctx, ls_kernel *k, uint32_t group_size, size_t local_bytes, uint32_t *out,
                       ls_error *err)
{
    (void)k, (void)group_size, (void)local_bytes, (void)err;
    ctx->calls++;
    *out = 1;
    return 0;
}

static int fake_launch(ls_ctx *ctx, ls_kernel *k, const ls_launch *l, ls_error *err)
{
    (void)k, (void)l, (void)err;
    ctx->calls++;
    return 0;
}

static int fake_copy(ls_ctx *dst_ctx, ls_buf *dst, size_t dst_offset, ls_ctx *src_ctx, ls_buf *src, size_t src_offset,
                     size_t bytes, ls_error *err)
{
    (void)err;
    dst_ctx->calls++;
    src_ctx->calls++;
    memcpy(dst->mem + dst_offset, src->mem + src_offset, bytes);
    return 0;
}

/* Page-locked host memory, as CUDA's: counted, so that the test sees the
 * backend's method used where there is one. */
static int pinned_live;
static int fake_alloc_host(ls_ctx *ctx, size_t bytes, const char *what, void **out, ls_error *err)
{
    (void)what;
    (void)err;
    ctx->calls++;
    *out = malloc(bytes);
    pinned_live += *out != NULL;
    return *out ? 0 : -1;
}

static void fake_free_host(ls_ctx *ctx, void *p)
{
    ctx->calls++;
    pinned_live -= p != NULL;
    free(p);
}

/* Another process's buffer: here the handle holds the address of one of
 * this process's fake buffers. */
static int fake_share(ls_ctx *ctx, ls_buf *b, unsigned char *handle, ls_error *err)
{
    (void)err;
    ctx->calls++;
    memset(handle, 0, LS_GPU_HANDLE_BYTES);
    memcpy(handle, &b, sizeof b);
    return 0;
}

static int fake_open_shared(ls_ctx *ctx, const unsigned char *handle, ls_buf **out, ls_error *err)
{
    (void)err;
    ctx->calls++;
    ls_buf *shared;
    memcpy(&shared, handle, sizeof shared);
    *out = calloc(1, sizeof **out);
    if (*out)
        (*out)->mem = shared->mem; /* the same memory, as a mapping is */
    return *out ? 0 : -1;
}

static void fake_close_shared(ls_ctx *ctx, ls_buf *b)
{
    ctx->calls++;
    free(b);
}

static const ls_gpu fake_gpu = {
    .info = fake_info, .alloc = fake_alloc, .free = fake_free, .write = fake_write, .read = fake_read,
    .kernel = fake_kernel, .kernel_with = fake_kernel_with, .groups_per_unit = fake_groups, .launch = fake_launch,
    .copy = fake_copy,
    .alloc_host = fake_alloc_host, .free_host = fake_free_host,
    .share = fake_share, .open_shared = fake_open_shared, .close_shared = fake_close_shared,
};
/* The same without a device-to-device copy, as OpenCL's. */
static const ls_gpu fake_gpu_nocopy = {
    .info = fake_info, .alloc = fake_alloc, .free = fake_free, .write = fake_write, .read = fake_read,
    .kernel = fake_kernel, .groups_per_unit = fake_groups, .launch = fake_launch,
};
static const ls_backend fake = {.name = "fake", .gpu = &fake_gpu};
static const ls_backend fake_nocopy = {.name = "nocopy", .gpu = &fake_gpu_nocopy};
static const ls_backend cpu = {.name = "cpu"};

static ls_ctx ctx0, ctx1, ctx2;
static ls_device dev0 = {.backend = &fake, .ctx = &ctx0, .label = "fake:0"};
static ls_device dev1 = {.backend = &fake, .ctx = &ctx1, .label = "fake:1"};
static ls_device dev2 = {.backend = &fake_nocopy, .ctx = &ctx2, .label = "nocopy:0"};
static ls_device host = {.backend = &cpu, .label = "cpu:0"};

static int calls(void)
{
    return ctx0.calls + ctx1.calls + ctx2.calls;
}

/* One call that must be refused by the wrapper: rc -1, a message holding
 * each of `words` (NULL-terminated), and no method called since
 * calls_before. */
static void refused(int rc, const ls_error *err, int calls_before, const char *what, const char *const *words)
{
    char line[600];
    int all = rc == -1 && calls() == calls_before;
    for (int i = 0; words[i]; i++)
        all = all && strstr(err->msg, words[i]) != NULL;
    snprintf(line, sizeof line, "%s is refused before the backend (rc %d, \"%s\")", what, rc, err->msg);
    check(all, line);
}

#define WORDS(...) ((const char *const[]){__VA_ARGS__, NULL})
#define REFUSED(call, what, words)                                                                                 \
    do {                                                                                                           \
        int before_ = calls();                                                                                     \
        err.msg[0] = '\0';                                                                                         \
        int rc_ = (call);                                                                                          \
        refused(rc_, &err, before_, what, words);                                                                  \
    } while (0)

static void ranges(ls_buf *grid)
{
    unsigned char bytes[32], back[32];
    for (int i = 0; i < 32; i++)
        bytes[i] = (unsigned char)(i * 7 + 1);
    ls_error err = {0};
    int before = calls();
    check(ls_gpu_write(grid, 1, 8, bytes, 8, &err) == 0 && calls() == before + 1, "a write inside the buffer runs");
    check(ls_gpu_read(grid, 8, back, 8, &err) == 0 && memcmp(back, bytes, 8) == 0, "and reads back what it wrote");
    check(ls_gpu_read(grid, 16, back, 0, &err) == 0, "an empty read at the end is fine");
    check(ls_gpu_read(grid, 0, back, 16, &err) == 0, "a read of the whole buffer is fine");

    REFUSED(ls_gpu_read(grid, 12, back, 8, &err), "a read 4 bytes past the end",
            WORDS("reading 8 bytes at byte 12", "the test grid", "fake:0", "past its end", "16 bytes"));
    REFUSED(ls_gpu_write(grid, 0, 9, bytes, 8, &err), "a write 1 byte past the end",
            WORDS("writing 8 bytes at byte 9", "the test grid", "past its end"));
    REFUSED(ls_gpu_read(grid, 17, back, 0, &err), "an empty read beyond the end",
            WORDS("reading 0 bytes at byte 17"));
    REFUSED(ls_gpu_read(grid, SIZE_MAX - 3, back, 8, &err),
            "a read whose offset plus length overflows", WORDS("past its end"));
    REFUSED(ls_gpu_write(grid, 0, 8, bytes, SIZE_MAX, &err), "a write of SIZE_MAX bytes",
            WORDS("past its end"));
    REFUSED(ls_gpu_read(grid, 0, NULL, 8, &err), "a read into no host memory",
            WORDS("the test grid", "no host memory"));
    REFUSED(ls_gpu_write(grid, 0, 0, NULL, 8, &err), "a write from no host memory",
            WORDS("no host memory"));
    REFUSED(ls_gpu_write(grid, 2, 0, bytes, 8, &err), "a write on queue 2",
            WORDS("queue 2", "fake:0"));
    REFUSED(ls_gpu_write(grid, -1, 0, bytes, 8, &err), "a write on queue -1", WORDS("queue -1"));
    REFUSED(ls_gpu_read(NULL, 0, back, 8, &err), "a read of no buffer", WORDS("never allocated"));
}

static void copies(ls_buf *grid)
{
    ls_error err = {0};
    ls_buf *other = NULL, *plain = NULL;
    check(ls_gpu_alloc(&dev1, 8, "the other grid", &other, &err) == 0, "a buffer on a second device");
    check(ls_gpu_alloc(&dev2, 8, "a plain grid", &plain, &err) == 0, "a buffer on a backend without copy");
    check(ls_device_supports(&dev1, LS_CAP_COPY, NULL, 0) && !ls_device_supports(&dev2, LS_CAP_COPY, NULL, 0) &&
              !ls_device_supports(&host, LS_CAP_COPY, NULL, 0),
          "LS_CAP_COPY: only a backend with a copy");
    int before = calls();
    check(ls_gpu_copy(other, 0, grid, 8, 8, &err) == 0 && calls() == before + 2, "a copy that fits runs");
    REFUSED(ls_gpu_copy(other, 4, grid, 0, 8, &err), "a copy past the destination's end",
            WORDS("copying into 8 bytes at byte 4", "the other grid", "fake:1"));
    REFUSED(ls_gpu_copy(other, 0, grid, 12, 8, &err), "a copy past the source's end",
            WORDS("copying from 8 bytes at byte 12", "the test grid", "fake:0"));
    REFUSED(ls_gpu_copy(plain, 0, plain, 0, 8, &err), "a copy on a backend without one",
            WORDS("nocopy:0", "copies through the host"));
    REFUSED(ls_gpu_copy(plain, 0, grid, 0, 8, &err), "a copy between two backends",
            WORDS("two backends"));
    ls_gpu_free(other);
    ls_gpu_free(plain);
}

static void launches(ls_buf *grid)
{
    ls_error err = {0};
    ls_kernel *k = NULL;
    ls_buf *foreign = NULL;
    check(ls_gpu_kernel(&dev0, "test", "kernel", &k, &err) == 0 && k, "a kernel");
    check(ls_gpu_alloc(&dev1, 4, "the foreign buffer", &foreign, &err) == 0, "a buffer on the other device");
    uint32_t n = 1;
    ls_arg args[] = {LS_ARG(n), LS_ARG_BUF(grid), LS_ARG_BUF(NULL)};
    ls_launch good = {2, 32, 0, 1, args, 3};
    int before = calls();
    check(ls_gpu_launch(&dev0, k, &good, &err) == 0 && calls() == before + 1, "a launch of one device's buffers runs");
    ls_launch l = good;
    l.groups = 0;
    REFUSED(ls_gpu_launch(&dev0, k, &l, &err), "a launch of no groups", WORDS("nothing to run"));
    l = good;
    l.group_size = 0;
    REFUSED(ls_gpu_launch(&dev0, k, &l, &err), "a launch of empty groups", WORDS("nothing to run"));
    l = good;
    l.queue = 2;
    REFUSED(ls_gpu_launch(&dev0, k, &l, &err), "a launch on queue 2", WORDS("queue 2"));
    l = good;
    l.args = NULL;
    REFUSED(ls_gpu_launch(&dev0, k, &l, &err), "a launch without its arguments",
            WORDS("3 arguments"));
    ls_arg mixed[] = {LS_ARG(n), LS_ARG_BUF(foreign)};
    l = good;
    l.args = mixed;
    l.nargs = 2;
    REFUSED(ls_gpu_launch(&dev0, k, &l, &err), "a launch with another device's buffer",
            WORDS("argument 1", "the foreign buffer", "a buffer of fake:1", "on fake:0"));
    int before_with = calls();
    check(ls_gpu_kernel_with(&dev0, "test", "N=1", "kernel", &k, &err) == 0 && k && calls() == before_with + 1,
          "a program with definitions on a device with LS_CAP_DEFINES reaches the backend");
    REFUSED(ls_gpu_kernel_with(&dev2, "test", "N=1", "kernel", &k, &err),
            "a program with definitions on a backend without kernel_with",
            WORDS("nocopy:0", "N=1", "builds no program at run time"));
    uint32_t per_unit = 0;
    REFUSED(ls_gpu_groups_per_unit(&dev0, k, 0, 0, &per_unit, &err), "occupancy of empty groups",
            WORDS("groups of 0"));
    ls_gpu_free(foreign);
}

/* Host memory for the bus: the backend's page-locked memory where it has
 * some, malloc's elsewhere (OpenCL, a CPU device), freed by the same. */
static void host_memory(void)
{
    ls_error err = {0};
    void *pinned = NULL, *plain = NULL, *cpu_side = NULL;
    int before = calls();
    check(ls_gpu_alloc_host(&dev0, 4096, "ghost planes", &pinned, &err) == 0 && pinned && pinned_live == 1 &&
              calls() == before + 1,
          "host memory from a backend with page-locked memory is the backend's");
    check(ls_gpu_alloc_host(&dev2, 4096, "ghost planes", &plain, &err) == 0 && plain && pinned_live == 1,
          "host memory from a backend without it is malloc's");
    check(ls_gpu_alloc_host(&host, 64, "ghost planes", &cpu_side, &err) == 0 && cpu_side,
          "host memory for a CPU device is malloc's");
    memset(pinned, 1, 4096);
    memset(plain, 1, 4096);
    ls_gpu_free_host(&dev0, pinned);
    ls_gpu_free_host(&dev2, plain);
    ls_gpu_free_host(&host, cpu_side);
    ls_gpu_free_host(&dev0, NULL);
    check(pinned_live == 0, "page-locked memory goes back to the backend that gave it");
}

/* A buffer shared with another process: refused where the backend cannot
 * share; else opened as a buffer of the device, which copy writes into
 * the sharer's memory. */
static void shared_buffers(ls_buf *grid)
{
    ls_error err = {0};
    check(ls_device_supports(&dev0, LS_CAP_SHARE, NULL, 0) && !ls_device_supports(&dev2, LS_CAP_SHARE, NULL, 0) &&
              !ls_device_supports(&host, LS_CAP_SHARE, NULL, 0),
          "LS_CAP_SHARE: only a backend with share, open_shared and close_shared");
    unsigned char handle[LS_GPU_HANDLE_BYTES];
    ls_buf *plain = NULL, *opened = NULL;
    check(ls_gpu_alloc(&dev2, 16, "a buffer of a backend that cannot share", &plain, &err) == 0, "a buffer to share");
    REFUSED(ls_gpu_share(plain, handle, &err), "sharing a buffer of a backend without share",
            WORDS("nocopy:0", "sharing", "no memory another process can open"));
    REFUSED(ls_gpu_open_shared(&dev2, handle, 16, "another's", &opened, &err), "opening on a backend without it",
            WORDS("nocopy:0", "opening another's", "no memory another process can open"));
    ls_buf *theirs = NULL;
    check(ls_gpu_alloc(&dev0, 16, "the sharer's ghosts", &theirs, &err) == 0 && ls_gpu_share(theirs, handle, &err) == 0 &&
              ls_gpu_open_shared(&dev0, handle, 16, "another rank's ghosts", &opened, &err) == 0 && opened,
          "a shared buffer opened from its handle");
    unsigned char mark[4] = {7, 7, 7, 7}, back[4] = {0};
    check(ls_gpu_write(grid, 0, 0, mark, 4, &err) == 0 && ls_gpu_copy(opened, 0, grid, 0, 4, &err) == 0 &&
              ls_gpu_read(theirs, 0, back, 4, &err) == 0 && memcmp(back, mark, 4) == 0,
          "a copy into the opened buffer lands in the sharer's memory");
    REFUSED(ls_gpu_copy(opened, 14, grid, 0, 4, &err), "a copy past the end of an opened buffer",
            WORDS("another rank's ghosts", "fake:0"));
    ls_gpu_close_shared(opened);
    ls_gpu_close_shared(NULL);
    ls_gpu_free(theirs);
    ls_gpu_free(plain);
}

int main(void)
{
    /* What each backend lists, from its table (caps.h). */
    ls_caps_from_methods(&fake_gpu, "fake", &dev0.info.caps);
    ls_caps_from_methods(&fake_gpu, "fake", &dev1.info.caps);
    ls_caps_from_methods(&fake_gpu_nocopy, "nocopy", &dev2.info.caps);
    ls_caps_from_methods(NULL, "cpu", &host.info.caps);
    ls_error err = {0};
    ls_buf *grid = NULL;
    check(ls_gpu_alloc(&dev0, 16, "the test grid", &grid, &err) == 0 && grid, "16 bytes allocated");
    ranges(grid);
    copies(grid);
    launches(grid);
    host_memory();
    shared_buffers(grid);
    ls_buf *none = grid;
    REFUSED(ls_gpu_alloc(&host, 16, "host memory", &none, &err), "memory of a backend without the primitives",
            WORDS("cpu:0", "no device primitives"));
    check(none == NULL, "a refused alloc leaves no buffer");
    ls_gpu_free(NULL);
    ls_gpu_free(grid);
    return check_finish();
}
