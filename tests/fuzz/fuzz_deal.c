/* fuzz_deal.c - libFuzzer harness for the deal parser (bmn_parse_deal) and,
 * on what it accepts, the exact player: any input must give a deal or a
 * message, never a crash; an accepted deal must print and parse back to
 * the same hands, and small ones are played to the end (or a loop). */
#include <stdlib.h>
#include <string.h>

#include "bmn_host.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0; /* the parser takes C strings: a NUL inside ends it */
    bmn_hands h;
    char msg[200];
    if (bmn_parse_deal(text, &h, msg, sizeof msg) != 0) {
        if (!memchr(msg, 0, sizeof msg) || !msg[0])
            abort(); /* a refusal always says why */
        free(text);
        return 0;
    }
    size_t len = bmn_format_deal(h.a, h.na, h.b, h.nb, NULL, 0) + 1;
    char *again = malloc(len);
    bmn_hands back;
    if (again) {
        bmn_format_deal(h.a, h.na, h.b, h.nb, again, len);
        if (bmn_parse_deal(again, &back, msg, sizeof msg) != 0 || back.na != h.na || back.nb != h.nb ||
            memcmp(back.a, h.a, h.na) != 0 || memcmp(back.b, h.b, h.nb) != 0)
            abort(); /* printed hands must read back as the same deal */
        bmn_hands_free(&back);
    }
    if (h.na + h.nb <= 200) {
        bmn_host_opts o = {1000000, NULL, NULL, NULL};
        bmn_host_result r;
        if (bmn_host_play(h.a, h.na, h.b, h.nb, &o, &r, msg, sizeof msg) != 0)
            abort(); /* a parsed deal is always playable */
    }
    free(again);
    bmn_hands_free(&h);
    free(text);
    return 0;
}
