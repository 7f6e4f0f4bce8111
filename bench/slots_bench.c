/*
 * Slot search benchmark: slot_map_build plus one slot_map_address, as the stub calls them,
 * for n usable ranges and n avoided ranges (n = 10 ... 10,000 by default). Prints the time
 * per call and the time over N log2 N (N = 2n ranges): a flat last column is n log n growth.
 *
 * The ranges are a shuffled, fragmented map: usable pieces of random length with holes
 * between them, and avoided ranges dropped at random, some overlapping, across 1 TiB.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/timing.h"
#include "lib/errors.h"
#include "lib/slots.h"

#define SPACE (1ull << 40) /* the map spreads over 1 TiB */
#define IMAGE_SIZE (8u << 20)
#define ALIGN 0x200000u /* 2 MiB, the default alignment */
#define MIN_BASE 0x1000000u
#define TARGET_NS 200000000u /* run each size for about 0.2 s */

static void make_ranges(struct mem_range *usable, struct mem_range *avoid, size_t n,
			uint64_t *seed)
{
	uint64_t step = SPACE / n;
	for (size_t i = 0; i < n; i++) {
		uint64_t start = i * step + bench_rand(seed) % (step / 4);
		usable[i] = (struct mem_range){ start, step / 2 + bench_rand(seed) % (step / 4) };
		uint64_t at = bench_rand(seed) % SPACE;
		avoid[i] = (struct mem_range){ at, 1 + bench_rand(seed) % (step / 2) };
	}
	/* The stub gets the map in whatever order the firmware wrote it. */
	for (size_t i = n; i-- > 1;) {
		size_t j = bench_rand(seed) % (i + 1);
		struct mem_range t = usable[i];
		usable[i] = usable[j];
		usable[j] = t;
	}
}

/* Best time of one build + address over several batches; -1 on error. */
static double time_search(const struct slot_request *req, struct span *work, size_t cap,
			  uint64_t *slots)
{
	struct slot_map map;
	uint64_t address, calls = 1, best = UINT64_MAX, total = 0;
	uint64_t index = 0;
	while (total < TARGET_NS) {
		uint64_t t0 = now_ns();
		for (uint64_t c = 0; c < calls; c++) {
			if (slot_map_build(&map, req, work, cap) != KS_OK || map.total == 0 ||
			    slot_map_address(&map, index, &address) != KS_OK)
				return -1;
			index = (index + 0x9e3779b97f4a7c15u) % map.total;
		}
		uint64_t dt = now_ns() - t0;
		total += dt;
		if (dt / calls < best)
			best = dt / calls;
		if (dt < TARGET_NS / 20)
			calls *= 2;
	}
	*slots = map.total;
	return (double)best;
}

int main(int argc, char **argv)
{
	size_t sizes[16] = { 10, 100, 1000, 10000 };
	size_t count = 4;
	if (argc > 1) {
		if (!strcmp(argv[1], "--help")) {
			printf("usage: slots-bench [N]...\n");
			return 0;
		}
		count = 0;
		for (int i = 1; i < argc && count < 16; i++)
			sizes[count++] = strtoull(argv[i], NULL, 0);
	}
	printf("slots: n usable + n avoided ranges over 1 TiB, image %u MiB, align 2 MiB\n",
	       IMAGE_SIZE >> 20);
	for (size_t s = 0; s < count; s++) {
		size_t n = sizes[s];
		uint64_t seed = n;
		struct mem_range *usable = calloc(n, sizeof(*usable));
		struct mem_range *avoid = calloc(n, sizeof(*avoid));
		size_t cap = SLOT_WORK_SPANS(n, n);
		struct span *work = calloc(cap, sizeof(*work));
		if (!usable || !avoid || !work || n < 2) {
			fprintf(stderr, "slots-bench: bad size or out of memory\n");
			return 1;
		}
		make_ranges(usable, avoid, n, &seed);
		struct slot_request req = { usable, n, avoid, n, IMAGE_SIZE, ALIGN, MIN_BASE,
					    SPACE - 1 };
		uint64_t slots;
		double ns = time_search(&req, work, cap, &slots);
		if (ns < 0) {
			fprintf(stderr, "slots-bench: the search failed for n=%zu\n", n);
			return 1;
		}
		double big_n = 2.0 * (double)n;
		printf("slots: n=%-6zu slots=%-8llu time=%10.0f ns  per N log2 N=%.2f ns\n", n,
		       (unsigned long long)slots, ns, ns / (big_n * log2(big_n)));
		free(work);
		free(avoid);
		free(usable);
	}
	return 0;
}
