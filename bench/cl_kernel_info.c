/* cl_kernel_info.c - what an OpenCL implementation made of a program:
 * builds FILE for the first device of the first platform whose name
 * contains PLATFORM, with OPTIONS, and prints the build log (NVIDIA's
 * -cl-nv-verbose puts ptxas's registers and spills there), then for each
 * KERNEL its largest work-group, local and private memory; the program's
 * binary (NVIDIA's: PTX) is written to BINARY_OUT. For the GPU batches
 * (bench/nv_cl_probe.sh), not part of lockstep.
 *
 *   cl_kernel_info PLATFORM FILE "OPTIONS" BINARY_OUT KERNEL... */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(cl_int st, const char *what)
{
    if (st != CL_SUCCESS) {
        fprintf(stderr, "cl_kernel_info: %s failed: OpenCL error %d\n", what, (int)st);
        exit(1);
    }
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    if (fseek(f, 0, SEEK_END) != 0) {
        perror(path);
        exit(1);
    }
    long n = ftell(f);
    rewind(f);
    char *text = malloc((size_t)n + 1);
    if (n < 0 || !text || fread(text, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "cl_kernel_info: cannot read %s\n", path);
        exit(1);
    }
    text[n] = 0;
    fclose(f);
    return text;
}

static cl_device_id find_device(const char *want)
{
    cl_platform_id platforms[16];
    cl_uint n = 0;
    check(clGetPlatformIDs(16, platforms, &n), "clGetPlatformIDs");
    for (cl_uint i = 0; i < n; i++) {
        char name[256] = "";
        check(clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name - 1, name, NULL), "platform name");
        cl_device_id dev;
        if (strstr(name, want) && clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) == CL_SUCCESS) {
            printf("platform: %s\n", name);
            return dev;
        }
    }
    fprintf(stderr, "cl_kernel_info: no platform named like \"%s\" with a device\n", want);
    exit(1);
}

static void write_binary(cl_program program, const char *path)
{
    size_t bytes = 0;
    check(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof bytes, &bytes, NULL), "binary size");
    unsigned char *bin = malloc(bytes);
    if (!bin) {
        fprintf(stderr, "cl_kernel_info: out of memory\n");
        exit(1);
    }
    check(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL), "binary");
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(bin, 1, bytes, f) != bytes || fclose(f) != 0) {
        fprintf(stderr, "cl_kernel_info: cannot write %s\n", path);
        exit(1);
    }
    printf("binary: %zu bytes in %s\n", bytes, path);
    free(bin);
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: cl_kernel_info PLATFORM FILE \"OPTIONS\" BINARY_OUT KERNEL...\n");
        return 2;
    }
    cl_device_id dev = find_device(argv[1]);
    cl_int st;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &st);
    check(st, "clCreateContext");
    const char *text = read_file(argv[2]);
    cl_program program = clCreateProgramWithSource(ctx, 1, &text, NULL, &st);
    check(st, "clCreateProgramWithSource");
    cl_int built = clBuildProgram(program, 1, &dev, argv[3], NULL, NULL);
    size_t log_bytes = 0;
    check(clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_bytes), "log size");
    char *log = malloc(log_bytes + 1);
    if (!log)
        return 1;
    check(clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG, log_bytes, log, NULL), "log");
    log[log_bytes] = 0;
    printf("options: %s\nbuild log:\n%s\n", argv[3], log);
    check(built, "clBuildProgram");
    write_binary(program, argv[4]);
    for (int i = 5; i < argc; i++) {
        cl_kernel k = clCreateKernel(program, argv[i], &st);
        if (st != CL_SUCCESS) {
            printf("%s: not in the program (%d)\n", argv[i], (int)st);
            continue;
        }
        size_t group = 0;
        cl_ulong local = 0, priv = 0;
        check(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof group, &group, NULL), "group");
        check(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local, NULL), "local");
        check(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof priv, &priv, NULL), "private");
        printf("%s: largest group %zu, local %llu bytes, private %llu bytes\n", argv[i], group,
               (unsigned long long)local, (unsigned long long)priv);
        clReleaseKernel(k);
    }
    clReleaseProgram(program);
    clReleaseContext(ctx);
    return 0;
}
