/* leaky_icd_part.c - a library that tests/leaky_icd.c opens, calls and
 * closes again, as Mesa's Clover does its software rasterizer: the 72
 * bytes it leaks have a stack in a module that is gone when LeakSanitizer
 * reports them, which no suppression can name. */
#include <stdlib.h>

void leaky_icd_part_start(void);

void leaky_icd_part_start(void)
{
    char *volatile block = calloc(1, 72);
    if (block)
        block[0] = 1;
    block = NULL;
}
