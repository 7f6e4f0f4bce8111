/*
 * Counts the instructions a guest executes between two points, from QEMU's TCG log
 * (-d in_asm,exec,nochain): in_asm lists each translation block's instructions when it is
 * translated, and with chaining off every execution of a block prints a "Trace" line. The
 * count starts at the first block at START and ends at the first block outside [LO, HI),
 * which for the stub is the jump into the kernel; that block's address is printed too.
 *
 * With SYMS (the output of nm -n for the guest code), the count is also split by function
 * and the heaviest are printed, one "tbcount: function NAME instructions=N" line each: eight,
 * or with -f N the N heaviest (0: every function that ran).
 *
 * Code that moves itself, as Linux's decompressor does, runs in more than one range: each
 * -r LO:HI adds one where the count goes on. With -k the rest of the log is read (and
 * ignored) after the count, so that QEMU, writing it into a FIFO, can run on to the end.
 *
 * usage: tbcount [-r LO:HI]... [-k] [-f N] START LO HI LOG [SYMS]   (addresses in hex)
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TABLE_BITS 20 /* blocks remembered: far more than a boot translates */
#define TABLE_SIZE (1u << TABLE_BITS)

struct block {
	uint64_t pc; /* 0: empty slot (no block starts at 0 in protected mode) */
	uint32_t insns;
};

static struct block table[TABLE_SIZE];

static struct block *lookup(uint64_t pc)
{
	uint32_t i = (uint32_t)((pc * 0x9e3779b97f4a7c15u) >> (64 - TABLE_BITS));
	while (table[i].pc != 0 && table[i].pc != pc)
		i = (i + 1) & (TABLE_SIZE - 1);
	return &table[i];
}

/* "Trace 0: 0x7f... [cs_base/pc/flags/cflags] ...": the block's pc, or 0 if malformed. */
static uint64_t trace_pc(const char *line)
{
	const char *p = strchr(line, '[');
	if (!p || !(p = strchr(p, '/')))
		return 0;
	return strtoull(p + 1, NULL, 16);
}

#define RANGES_MAX 8

/* [lo, hi): where the counted code runs. */
struct range {
	uint64_t lo, hi;
};

static struct range ranges[RANGES_MAX];
static size_t range_count;

static bool inside(uint64_t pc)
{
	for (size_t i = 0; i < range_count; i++)
		if (pc >= ranges[i].lo && pc < ranges[i].hi)
			return true;
	return false;
}

/* "LO:HI" in hex; 0, or -1. */
static int parse_range(const char *s, struct range *r)
{
	char *end;
	r->lo = strtoull(s, &end, 16);
	if (end == s || *end != ':')
		return -1;
	const char *second = end + 1;
	r->hi = strtoull(second, &end, 16);
	return end == second || *end || r->hi <= r->lo ? -1 : 0;
}

#define SYMBOLS_MAX 4096

struct symbol {
	uint64_t address;
	uint64_t insns;
	char name[64];
};

static struct symbol symbols[SYMBOLS_MAX];
static size_t symbol_count;
static size_t top_functions = 8; /* -f; 0: all */

/* Text symbols from nm -n, ascending by address. */
static int read_symbols(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		perror(path);
		return -1;
	}
	char line[256], type;
	unsigned long long address;
	while (symbol_count < SYMBOLS_MAX && fgets(line, sizeof(line), f)) {
		struct symbol *s = &symbols[symbol_count];
		if (sscanf(line, "%llx %c %63s", &address, &type, s->name) == 3 &&
		    (type == 'T' || type == 't')) {
			s->address = address;
			symbol_count++;
		}
	}
	fclose(f);
	return 0;
}

/* The function holding pc: the last symbol at or below it. */
static struct symbol *function_at(uint64_t pc)
{
	size_t lo = 0, hi = symbol_count;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (symbols[mid].address <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &symbols[lo - 1] : NULL;
}

static int by_insns_descending(const void *a, const void *b)
{
	const struct symbol *x = a, *y = b;
	return (x->insns < y->insns) - (x->insns > y->insns);
}

static void print_functions(void)
{
	qsort(symbols, symbol_count, sizeof(symbols[0]), by_insns_descending);
	for (size_t i = 0;
	     i < symbol_count && (!top_functions || i < top_functions) && symbols[i].insns; i++)
		printf("tbcount: function %s instructions=%" PRIu64 "\n", symbols[i].name,
		       symbols[i].insns);
}

static void remember(uint64_t pc, uint32_t insns)
{
	struct block *b = lookup(pc);
	b->pc = pc;
	b->insns = insns; /* a later translation of the same address replaces the earlier */
}

/*
 * An in_asm line that only continues the byte dump of the instruction above: QEMU (7.2, with
 * capstone) prints at most eight bytes a line, so a longer instruction (a VEX one with a
 * 32-bit displacement) takes a second line, "0x00100785:  00", which is no instruction.
 */
static bool bytes_only(const char *line)
{
	const char *p = strchr(line, ':');
	if (!p)
		return false;
	int pairs = 0;
	for (p++; *p == ' '; pairs++) {
		while (*p == ' ')
			p++;
		if (*p == '\n' || *p == '\0')
			break;
		if (!strchr("0123456789abcdef", p[0]) || !p[1] || !strchr("0123456789abcdef", p[1]) ||
		    (p[2] != ' ' && p[2] != '\n' && p[2] != '\0'))
			return false;
		p += 2;
	}
	return pairs > 0 && (*p == '\n' || *p == '\0');
}

static int usage(void)
{
	fprintf(stderr, "usage: tbcount [-r LO:HI]... [-k] [-f N] START LO HI LOG [SYMS]\n");
	return 2;
}

/* The rest of the log, unread, so that its writer does not block or fail. */
static void drain(FILE *in)
{
	char buf[65536];
	while (fread(buf, 1, sizeof(buf), in) > 0)
		;
}

int main(int argc, char **argv)
{
	bool keep_reading = false;
	int opt;
	range_count = 1; /* ranges[0] is LO HI */
	while ((opt = getopt(argc, argv, "r:kf:")) != -1) {
		char *end;
		if (opt == 'k') {
			keep_reading = true;
		} else if (opt == 'f') {
			top_functions = strtoul(optarg, &end, 10);
			if (end == optarg || *end)
				return usage();
		} else if (opt != 'r' || range_count == RANGES_MAX ||
			   parse_range(optarg, &ranges[range_count++])) {
			return usage();
		}
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (argc != 5 && argc != 6)
		return usage();
	uint64_t start = strtoull(argv[1], NULL, 16);
	ranges[0].lo = strtoull(argv[2], NULL, 16);
	ranges[0].hi = strtoull(argv[3], NULL, 16);
	if (argc == 6 && read_symbols(argv[5]))
		return 1;
	FILE *in = fopen(argv[4], "r");
	if (!in) {
		perror(argv[4]);
		return 1;
	}
	char line[4096];
	uint64_t tb_pc = 0, insns = 0, blocks = 0;
	uint32_t listing = 0; /* instructions seen in the block being listed */
	int counting = 0;
	while (fgets(line, sizeof(line), in)) {
		if (!strncmp(line, "IN:", 3)) {
			listing = 0;
			tb_pc = 0;
			continue;
		}
		if (!strncmp(line, "0x", 2)) {
			if (bytes_only(line))
				continue;
			if (listing++ == 0)
				tb_pc = strtoull(line, NULL, 16);
			if (tb_pc)
				remember(tb_pc, listing);
			continue;
		}
		if (strncmp(line, "Trace ", 6) != 0)
			continue;
		uint64_t pc = trace_pc(line);
		if (!counting && pc == start)
			counting = 1;
		if (!counting)
			continue;
		if (!inside(pc)) {
			printf("tbcount: instructions=%" PRIu64 " blocks=%" PRIu64 " exit=0x%" PRIx64
			       "\n",
			       insns, blocks, pc);
			print_functions();
			fflush(stdout);
			if (keep_reading)
				drain(in);
			return 0;
		}
		struct block *b = lookup(pc);
		if (b->pc != pc) {
			fprintf(stderr, "tbcount: block at 0x%" PRIx64 " ran but was never listed\n",
				pc);
			return 1;
		}
		insns += b->insns;
		blocks++;
		struct symbol *f = symbol_count ? function_at(pc) : NULL;
		if (f)
			f->insns += b->insns;
	}
	fprintf(stderr, "tbcount: the log ended before %s\n",
		counting ? "leaving the range" : "reaching the start");
	return 1;
}
