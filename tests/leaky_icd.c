/* leaky_icd.c - an OpenCL ICD that leaks, for tests/lsan_icd.py.
 *
 * The ICD loader opens every ICD installed on a machine, whether lockstep
 * uses it or not, and some leak as they start: Mesa's rusticl 72 bytes with
 * a stack that ends inside it (built without frame pointers), Mesa's
 * Clover 128 from its software rasterizer, which it has closed again by the
 * time LeakSanitizer names the modules of a leak's stack. This one, built
 * as a distribution builds an ICD (no frame pointers, no sanitizer), leaks
 * 72 bytes three times as the loader asks for its platforms:
 *   - on the caller's thread, a stack that ends inside it;
 *   - from libleaky_icd_part.so, beside it, which it opens and closes;
 *   - on a thread of its own, a stack with no frame but its own.
 * Its one platform has no devices. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr */
#endif
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl_icd.h>

struct _cl_platform_id {
    struct _cl_icd_dispatch *dispatch; /* first, as the loader requires */
};

static struct _cl_icd_dispatch dispatch;
static struct _cl_platform_id platform = {&dispatch};

/* Opens the part beside this library, calls it and closes it again. */
static void leak_from_closed_part(void)
{
    Dl_info self;
    char path[4096];
    if (!dladdr((void *)leak_from_closed_part, &self) || !self.dli_fname)
        return;
    const char *slash = strrchr(self.dli_fname, '/');
    int dir = slash ? (int)(slash - self.dli_fname + 1) : 0;
    snprintf(path, sizeof path, "%.*slibleaky_icd_part.so", dir, self.dli_fname);
    void *part = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!part)
        return;
    void (*start)(void) = (void (*)(void))dlsym(part, "leaky_icd_part_start");
    if (start)
        start();
    dlclose(part);
}

/* The leak: a block whose last pointer is dropped. */
static void *leak_72_bytes(void *arg)
{
    (void)arg;
    char *volatile block = calloc(1, 72);
    if (block)
        block[0] = 1;
    block = NULL;
    return NULL;
}

static cl_int CL_API_CALL get_platform_info(cl_platform_id p, cl_platform_info what, size_t size, void *value,
                                            size_t *size_ret)
{
    const char *text = what == CL_PLATFORM_ICD_SUFFIX_KHR ? "LEAKY"
                       : what == CL_PLATFORM_NAME         ? "leaky test ICD"
                       : what == CL_PLATFORM_VERSION      ? "OpenCL 1.2 leaky"
                       : what == CL_PLATFORM_EXTENSIONS   ? "cl_khr_icd" /* the loader requires it */
                                                          : "leaky";
    size_t len = strlen(text) + 1;
    if (p != &platform)
        return CL_INVALID_PLATFORM;
    if (size_ret)
        *size_ret = len;
    if (value && size < len)
        return CL_INVALID_VALUE;
    if (value)
        memcpy(value, text, len);
    return CL_SUCCESS;
}

static cl_int CL_API_CALL get_device_ids(cl_platform_id p, cl_device_type type, cl_uint n, cl_device_id *devices,
                                         cl_uint *count)
{
    (void)type;
    (void)n;
    (void)devices;
    if (p != &platform)
        return CL_INVALID_PLATFORM;
    if (count)
        *count = 0;
    return CL_DEVICE_NOT_FOUND;
}

CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint n, cl_platform_id *platforms, cl_uint *count)
{
    static int leaked;
    if (!leaked) {
        leaked = 1;
        leak_72_bytes(NULL); /* on the caller's thread */
        leak_from_closed_part();
        pthread_t thread;
        if (pthread_create(&thread, NULL, leak_72_bytes, NULL) == 0)
            pthread_join(thread, NULL);
    }
    dispatch.clGetPlatformInfo = get_platform_info;
    dispatch.clGetDeviceIDs = get_device_ids;
    if (platforms && n > 0)
        platforms[0] = &platform;
    if (count)
        *count = 1;
    return CL_SUCCESS;
}

/* The loader looks these up by name. */
CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id p, cl_platform_info what, size_t size, void *value,
                                                  size_t *size_ret)
{
    return get_platform_info(p, what, size, value, size_ret);
}

CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddress(const char *name)
{
    return strcmp(name, "clIcdGetPlatformIDsKHR") == 0 ? (void *)clIcdGetPlatformIDsKHR : NULL;
}
