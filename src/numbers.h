/* numbers.h - numbers written as people read them, for help texts,
 * progress lines and reports. */
#ifndef LOCKSTEP_NUMBERS_H
#define LOCKSTEP_NUMBERS_H

#include <stddef.h>
#include <stdint.h>

/* Shortest of "1e9" / "123456" for messages about ranges. */
void ls_format_count(uint64_t v, char *out, size_t len);
/* v with a comma between thousands, "10,883,083": a count for people. */
void ls_format_thousands(uint64_t v, char *out, size_t len);
/* A size in bytes in the largest binary unit it reaches, to a tenth:
 * "512 bytes", "4.0 KiB", "116.4 GiB", "2.0 TiB". LS_BYTES_TEXT holds
 * any. */
#define LS_BYTES_TEXT 24
void ls_format_bytes(uint64_t bytes, char *out, size_t len);
/* A workload's unit (ls_workload.unit, a JSON name) as people read it:
 * "cell_updates" -> "cell updates". */
void ls_format_unit(const char *unit, char *out, size_t len);

#endif
