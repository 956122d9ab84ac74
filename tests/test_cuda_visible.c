/* test_cuda_visible.c - which GPUs a run that names its CUDA devices lets
 * the driver initialise (src/cuda_visible.h, issue 36): the devices named,
 * as entries of the CUDA_VISIBLE_DEVICES the process was given, each at
 * its place among them; nothing narrowed where the driver might read the
 * variable otherwise, or an index is past the GPUs there are. */
#include <string.h>

#include "cuda_visible.h"

#include "check.h"

/* Narrows visible for the n indices; 1 when it did and set out to want
 * with the given count of GPUs listed. */
static int narrows_to(const char *visible, int gpus, const int *index, int n, const char *want, int listed)
{
    char out[256] = "untouched";
    int ordinal[LS_CUDA_VISIBLE_MAX];
    int got = ls_cuda_visible_for(visible, gpus, index, n, out, sizeof out, ordinal);
    if (got != listed || strcmp(out, want) != 0) {
        printf("  %s, %d GPUs: listed %d, CUDA_VISIBLE_DEVICES=%s (wanted %d, %s)\n", visible ? visible : "(unset)",
               gpus, got, out, listed, want);
        return 0;
    }
    return 1;
}

static int refused(const char *visible, int gpus, const int *index, int n)
{
    char out[256];
    int ordinal[LS_CUDA_VISIBLE_MAX];
    return ls_cuda_visible_for(visible, gpus, index, n, out, sizeof out, ordinal) == 0;
}

int main(void)
{
    int zero[] = {0}, one[] = {1}, three[] = {3}, one_three[] = {3, 1}, two_zero[] = {2, 0};
    check(narrows_to(NULL, 2, zero, 1, "0", 2), "cuda:0 of 2 GPUs: CUDA_VISIBLE_DEVICES=0");
    check(narrows_to(NULL, 4, one, 1, "1", 4), "cuda:1 of 4: =1");
    check(narrows_to(NULL, 4, one_three, 2, "1,3", 4), "cuda:3,cuda:1 of 4: =1,3 (in the driver's order)");
    check(narrows_to("2,3", 4, one, 1, "3", 2), "cuda:1 with CUDA_VISIBLE_DEVICES=2,3: =3, 2 GPUs listed");
    check(narrows_to("GPU-8932f937-d72c,GPU-aa11", -1, one, 1, "GPU-aa11", 2), "UUIDs: the one named");
    check(narrows_to("MIG-GPU-8932f937/1/0,3", 4, zero, 1, "MIG-GPU-8932f937/1/0", 2), "a MIG instance");
    check(refused(NULL, 2, three, 1), "cuda:3 of 2 GPUs: not narrowed (the open says how many there are)");
    check(refused(NULL, -1, zero, 1), "no device nodes read and no variable: not narrowed");
    check(refused(NULL, 0, zero, 1), "no GPUs: not narrowed");
    check(refused("0,1", 2, two_zero, 2), "cuda:2 of a variable with 2 entries: not narrowed");
    check(refused("0,7", 2, zero, 1), "an entry past the GPUs (the driver stops there): not narrowed");
    check(refused("0, 1", 2, zero, 1), "a space: not narrowed");
    check(refused("0,,1", 2, zero, 1), "an empty entry: not narrowed");
    check(refused("", 2, zero, 1), "an empty variable (no GPU visible): not narrowed");
    check(refused("1,1", 2, zero, 1), "an entry twice: not narrowed");
    check(refused("-1", 2, zero, 1), "a negative entry: not narrowed");
    check(refused("nvidia0", 2, zero, 1), "a name the driver does not take: not narrowed");
    int ordinal[LS_CUDA_VISIBLE_MAX];
    char out[64];
    int ok = ls_cuda_visible_for(NULL, 4, one_three, 2, out, sizeof out, ordinal) == 4;
    check(ok && ordinal[0] == -1 && ordinal[1] == 0 && ordinal[2] == -1 && ordinal[3] == 1,
          "cuda:1 and cuda:3 are the process's devices 0 and 1; 0 and 2 none");
    char tiny[3];
    check(ls_cuda_visible_for(NULL, 4, one_three, 2, tiny, sizeof tiny, ordinal) == 0, "a value too long: refused");
    return check_finish();
}
