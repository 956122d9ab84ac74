/* leak_check.h - under LeakSanitizer (the sanitizer build), a stretch of
 * this thread whose allocations are not checked for leaks; nothing in
 * other builds.
 *
 * For code that is not lockstep's and cannot be suppressed by name: the
 * OpenCL ICD loader opens every ICD installed on the machine, whether
 * lockstep runs on it or not, and some leak as they start, through a
 * library they close again (Mesa's Clover: 128 bytes from its software
 * rasterizer) or with a stack that ends inside them. */
#ifndef LOCKSTEP_LEAK_CHECK_H
#define LOCKSTEP_LEAK_CHECK_H

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#define LS_LEAK_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_LEAK__)
#define LS_LEAK_SANITIZER 1
#endif

#ifdef LS_LEAK_SANITIZER
#include <sanitizer/lsan_interface.h>
static inline void ls_leak_check_pause(void)
{
    __lsan_disable();
}
static inline void ls_leak_check_resume(void)
{
    __lsan_enable();
}
#else
static inline void ls_leak_check_pause(void)
{
}
static inline void ls_leak_check_resume(void)
{
}
#endif

#endif
