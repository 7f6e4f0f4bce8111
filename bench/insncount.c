/*
 * A QEMU TCG plugin that counts the guest instructions run from a code's entry to the jump
 * into the kernel, for code whose address is not known before the boot: a PE that UEFI
 * firmware loads wherever it allocates (bench/uefi-cost.sh). Every block adds its length to
 * one counter by an inline add, so the firmware's own boot costs no logging; only blocks
 * that may be the start or the end call back.
 *
 * start=HEX   the first bytes at the entry (from the file); a block is the start when its
 *             bytes begin with them (or, for a shorter block, they begin with the block's)
 * page=N      ...and its address modulo 4096 is N: the entry's RVA, since firmware loads a
 *             PE at a page boundary at least
 * align=N     after the start, each block run at a multiple of N (the kernel's alignment)
 *             is a candidate end: its address and the count before it are written, the
 *             first MAX_ENDS of them; the caller keeps the one at the kernel's entry
 * out=FILE    where the lines go (appended)
 *
 * Lines: "insncount: start=0xADDR" once, then "insncount: end=0xADDR instructions=N" per
 * candidate, N counting the start's block and every block after it, interrupts and firmware
 * calls included, up to the candidate's block (not counting it).
 *
 * Built against QEMU 7.2's plugin interface, version 1 (Debian 12); only the calls used are
 * declared here.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef struct {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t, struct qemu_plugin_tb *);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t, qemu_plugin_vcpu_tb_trans_cb_t);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *, qemu_plugin_vcpu_udata_cb_t,
					  enum qemu_plugin_cb_flags, void *userdata);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *, enum qemu_plugin_op,
					      void *ptr, uint64_t imm);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *, size_t);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *);

#define EXPORT __attribute__((visibility("default")))
EXPORT int qemu_plugin_version = 1;

enum { MAX_START_BYTES = 64, MAX_ENDS = 64, PAGE = 4096 };

static uint8_t start_bytes[MAX_START_BYTES];
static size_t start_len;
static uint64_t start_page;
static uint64_t end_align;
static FILE *out;

static uint64_t count;     /* every instruction run, from power-on */
static uint64_t count_at_start;
static bool started;
static unsigned ends;

/* One vCPU (the callers run -smp 1), so the counter needs no atomics. */

struct block {
	uint64_t vaddr;
	uint64_t insns;
	bool may_start;
	bool may_end;
};

/* Which blocks are candidates is known at translation; the order of a block's inline add and
 * its callback is not, so the callback reads the counter and the block's length and the
 * inline add is left off blocks that call back. */
static void on_block(unsigned int vcpu, void *arg)
{
	const struct block *b = arg;

	(void)vcpu;
	if (b->may_start && !started) {
		started = true;
		count_at_start = count;
		fprintf(out, "insncount: start=0x%" PRIx64 "\n", b->vaddr);
		fflush(out);
	} else if (b->may_end && started && ends < MAX_ENDS) {
		ends++;
		fprintf(out, "insncount: end=0x%" PRIx64 " instructions=%" PRIu64 "\n", b->vaddr,
			count - count_at_start);
		fflush(out);
	}
	count += b->insns;
}

static bool block_starts_with_entry(const struct qemu_plugin_tb *tb, uint64_t vaddr)
{
	size_t n = qemu_plugin_tb_n_insns(tb), have = 0;

	if (vaddr % PAGE != start_page)
		return false;
	for (size_t i = 0; i < n && have < start_len; i++) {
		const struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const uint8_t *data = qemu_plugin_insn_data(insn);
		size_t size = qemu_plugin_insn_size(insn), take = size;

		if (take > start_len - have)
			take = start_len - have;
		if (memcmp(data, start_bytes + have, take) != 0)
			return false;
		have += take;
	}
	return have > 0;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb), insns = qemu_plugin_tb_n_insns(tb);
	bool may_start = block_starts_with_entry(tb, vaddr);
	bool may_end = vaddr % end_align == 0;

	(void)id;
	if (!may_start && !may_end) {
		qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &count,
							 insns);
		return;
	}
	/* Kept for the life of the run: blocks are retranslated rarely, and only these. */
	struct block *b = malloc(sizeof(*b));
	if (b == NULL) {
		fprintf(stderr, "insncount: out of memory\n");
		exit(1);
	}
	*b = (struct block){ vaddr, insns, may_start, may_end };
	qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block, QEMU_PLUGIN_CB_NO_REGS, b);
}

static int parse_hex_bytes(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n % 2 != 0 || n / 2 > MAX_START_BYTES)
		return -1;
	for (size_t i = 0; i < n / 2; i++) {
		char pair[3] = { s[2 * i], s[2 * i + 1], 0 }, *end;
		unsigned long v = strtoul(pair, &end, 16);
		if (*end != 0)
			return -1;
		start_bytes[i] = (uint8_t)v;
	}
	start_len = n / 2;
	return 0;
}

static int parse_number(const char *s, uint64_t *v)
{
	char *end;

	*v = strtoull(s, &end, 0);
	return *s != 0 && *end == 0 ? 0 : -1;
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
			       char **argv)
{
	const char *path = NULL;
	int bad = 0;

	if (!info->system_emulation || info->system.smp_vcpus != 1) {
		fprintf(stderr, "insncount: needs system emulation with one vCPU (-smp 1)\n");
		return 1;
	}
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (strncmp(a, "start=", 6) == 0)
			bad |= parse_hex_bytes(a + 6) != 0;
		else if (strncmp(a, "page=", 5) == 0)
			bad |= parse_number(a + 5, &start_page) || start_page >= PAGE;
		else if (strncmp(a, "align=", 6) == 0)
			bad |= parse_number(a + 6, &end_align) || end_align == 0;
		else if (strncmp(a, "out=", 4) == 0)
			path = a + 4;
		else {
			fprintf(stderr, "insncount: unknown argument '%s'\n", a);
			return 1;
		}
	}
	if (bad || start_len == 0 || end_align == 0 || path == NULL) {
		fprintf(stderr, "insncount: needs start=HEX (up to %d bytes), page=N (< 4096), "
				"align=N (> 0) and out=FILE\n", MAX_START_BYTES);
		return 1;
	}
	out = fopen(path, "a");
	if (out == NULL) {
		perror(path);
		return 1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	return 0;
}
