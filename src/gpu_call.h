/* gpu_call.h - the one way callers use a GPU device's primitives (gpu.h):
 * thin wrappers that check the arguments once, for every backend, and then
 * call the backend's method, as SQLite's sqlite3OsRead wraps a VFS's xRead
 * and ggml_backend_tensor_set checks a range before a buffer's set_tensor.
 *
 * A buffer made by ls_gpu_alloc knows its device, its size and what it is
 * for (ls_buf_head), so a read, write or copy takes the buffer alone, and
 * a range that runs past its end, an offset and length whose sum
 * overflows, a NULL buffer or host pointer, a queue that is not 0 or 1,
 * or a launch of no groups is refused here, naming the buffer and the
 * device, before any backend sees it. The backends keep only the
 * checks of their own API.
 *
 * Each call returns 0, or -1 with err set; d is any device: the host CPU
 * (OpenMP) offers the primitives too, with host memory and the workloads'
 * own C as its kernels (host_kernel.h). The timer
 * primitives are wrapped by gpu_timer.h, which also checks their figures. */
#ifndef LOCKSTEP_GPU_CALL_H
#define LOCKSTEP_GPU_CALL_H

#include <stddef.h>
#include <stdint.h>

#include "caps.h"
#include "device.h"

/* The device's limits (gpu.h's info). */
void ls_gpu_info_of(const ls_device *d, ls_gpu_info *out);
/* The kernel shape an opened device runs (shape.h): its ls_gpu_info's,
 * LS_SHAPE_NONE for the reference, whose kernels are the workloads' own C. */
ls_shape ls_device_shape(const ls_device *d);

/* `bytes` of d's memory, zeroed; `what` names it in every message about
 * it ("the Life grid"). */
int ls_gpu_alloc(const ls_device *d, size_t bytes, const char *what, ls_buf **out, ls_error *err);
/* NULL is fine. */
void ls_gpu_free(ls_buf *buf);

/* Host memory at src into buf from byte `offset`, ordered on `queue`;
 * src stays valid until the queue has run it (gpu.h). */
int ls_gpu_write(ls_buf *buf, int queue, size_t offset, const void *src, size_t bytes, ls_error *err);
/* Waits for both queues, then buf's bytes from `offset` into dst. */
int ls_gpu_read(ls_buf *buf, size_t offset, void *dst, size_t bytes, ls_error *err);

/* src's bytes from src_offset into dst from dst_offset, device to device
 * (gpu.h's copy: ordered after the work queued on both devices so far);
 * refused unless both devices are of one backend and support LS_CAP_COPY
 * (caps.h), which a caller asks first, staging through the host with
 * read and write where they do not. */
int ls_gpu_copy(ls_buf *dst, size_t dst_offset, ls_buf *src, size_t src_offset, size_t bytes, ls_error *err);

/* Host memory of `bytes` that crosses the bus to and from d often (Life's
 * ghost planes): page-locked where the backend has it (gpu.h's
 * alloc_host), else malloc's; freed by ls_gpu_free_host (NULL is fine)
 * while d is open. */
int ls_gpu_alloc_host(const ls_device *d, size_t bytes, const char *what, void **out, ls_error *err);
void ls_gpu_free_host(const ls_device *d, void *p);

/* buf's handle for another process (LS_GPU_HANDLE_BYTES into handle);
 * refused on a device without LS_CAP_SHARE (caps.h), as opening is. */
int ls_gpu_share(ls_buf *buf, unsigned char *handle, ls_error *err);
/* Another process's buffer of `bytes` from its handle, as a buffer of d
 * that ls_gpu_copy writes; `what` names it. Closed by ls_gpu_close_shared
 * (NULL is fine), never by ls_gpu_free. */
int ls_gpu_open_shared(const ls_device *d, const unsigned char *handle, size_t bytes, const char *what,
                       ls_buf **out, ls_error *err);
void ls_gpu_close_shared(ls_buf *buf);

/* Entry point `name` of program `program`. */
int ls_gpu_kernel(const ls_device *d, const char *program, const char *name, ls_kernel **out, ls_error *err);
/* The same built with `defines` (gpu.h's kernel_with); refused on a
 * device without LS_CAP_DEFINES (caps.h), where a caller takes
 * ls_gpu_kernel's, which has the same arguments. */
int ls_gpu_kernel_with(const ls_device *d, const char *program, const char *defines, const char *name,
                       ls_kernel **out, ls_error *err);
/* Groups of `group_size` with `local_bytes` of dynamic local memory
 * resident on one compute unit at once; at least 1. */
int ls_gpu_groups_per_unit(const ls_device *d, ls_kernel *k, uint32_t group_size, size_t local_bytes,
                           uint32_t *out, ls_error *err);
/* Queues a launch of k: at least one group of at least one work-item, on
 * queue 0 or 1, each buffer argument NULL or one of d's. */
int ls_gpu_launch(const ls_device *d, ls_kernel *k, const ls_launch *launch, ls_error *err);

/* caps.h's ls_caps_supports of an opened device, from the caps its backend
 * listed; the reason names the device and the capability ("opencl:0:
 * device-to-device copies: opencl copies through the host"). */
int ls_device_supports(const ls_device *d, ls_cap cap, char *why, size_t len);

#endif
