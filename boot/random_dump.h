/* A diagnostic: print the stub's generator output so its quality can be tested on the host. */
#ifndef KSLIDE_BOOT_RANDOM_DUMP_H
#define KSLIDE_BOOT_RANDOM_DUMP_H

#include <stddef.h>

#include "lib/pool.h"

#define RANDOM_OPTION "kslide.random"

/*
 * With "kslide.random=N" on the command line, print the next N bytes of 'rng' (at most
 * RANDOM_DUMP_MAX) as one line "kslide: random=<hex>". Without it, do nothing and draw nothing.
 */
void random_dump(const char *cmdline, size_t len, struct rng *rng);

#endif
