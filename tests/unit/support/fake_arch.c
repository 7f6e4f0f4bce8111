/* The scriptable arch_ops behind fake_arch.h. */
#include "tests/unit/support/fake_arch.h"

#include <string.h>

#define PORT_PIT_CH0 0x40
#define PORT_PIT_CMD 0x43
#define PORT_CMOS_INDEX 0x70
#define PORT_CMOS_DATA 0x71
#define CMOS_REG_A 0x0a
#define CMOS_UIP 0x80
#define PIT_LATCH_CH0 0x00
#define FLOATING_BUS 0xff

static bool fake_cpuid_present(void *ctx)
{
	struct fake_arch *f = ctx;

	return f->cpuid_present;
}

static void fake_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out)
{
	struct fake_arch *f = ctx;

	memset(out, 0, sizeof(*out));
	if (leaf >= FAKE_CPUID_LEAVES) {
		f->cpuid_other_calls++;
		return;
	}
	f->cpuid_calls[leaf]++;
	if (leaf == 0)
		out->eax = f->max_leaf;
	else if (leaf == 1)
		*out = f->leaf1;
	else if (leaf == 7) {
		if (subleaf != 0)
			f->cpuid_bad_subleaf++;
		*out = f->leaf7;
	}
}

static bool insn(struct fake_rng_insn *r, uint32_t *out)
{
	r->calls++;
	*out = 0; /* what the hardware leaves in the register when carry is clear */
	if (r->fail || (r->succeed_first && r->calls > r->succeed_first))
		return false;
	if (r->streak < r->fail_before_each) {
		r->streak++;
		return false;
	}
	r->streak = 0;
	if (r->values) {
		*out = r->values[r->next];
		r->next = (r->next + 1) % r->count;
	} else {
		*out = 0x9e3779b9u * r->calls + 0x7f4a7c15u;
	}
	return true;
}

static bool fake_rdrand(void *ctx, uint32_t *out)
{
	return insn(&((struct fake_arch *)ctx)->rdrand, out);
}

static bool fake_rdseed(void *ctx, uint32_t *out)
{
	return insn(&((struct fake_arch *)ctx)->rdseed, out);
}

static uint64_t fake_rdtsc(void *ctx)
{
	struct fake_arch *f = ctx;
	uint64_t now = f->tsc;

	f->tsc_calls++;
	if (f->tsc_steps) {
		f->tsc += f->tsc_steps[f->tsc_next];
		f->tsc_next = (f->tsc_next + 1) % f->tsc_nsteps;
	} else {
		f->tsc += f->tsc_step;
	}
	return now;
}

static uint8_t pit_read(struct fake_arch *f)
{
	uint8_t v;

	if (!f->pit_present)
		return FLOATING_BUS;
	if (f->pit_latches == 0) {
		f->pit_reads_unlatched++;
		return 0;
	}
	v = f->pit_high_next ? (uint8_t)(f->pit_latched >> 8) : (uint8_t)f->pit_latched;
	f->pit_high_next = !f->pit_high_next;
	return v;
}

static uint8_t cmos_read(struct fake_arch *f)
{
	if (!f->rtc_present)
		return FLOATING_BUS;
	if (f->cmos_index == CMOS_REG_A) {
		uint8_t a = f->cmos[CMOS_REG_A] & (uint8_t)~CMOS_UIP;

		f->reg_a_reads++;
		if (f->uip_forever || f->reg_a_reads <= f->uip_polls)
			a |= CMOS_UIP;
		return a;
	}
	return f->cmos[f->cmos_index % FAKE_CMOS_REGS];
}

static uint8_t fake_inb(void *ctx, uint16_t port)
{
	struct fake_arch *f = ctx;

	switch (port) {
	case PORT_PIT_CH0:
		return pit_read(f);
	case PORT_CMOS_DATA:
		return cmos_read(f);
	}
	f->bad_ports++;
	return FLOATING_BUS;
}

static void fake_outb(void *ctx, uint16_t port, uint8_t value)
{
	struct fake_arch *f = ctx;

	switch (port) {
	case PORT_PIT_CMD:
		if (value != PIT_LATCH_CH0) {
			f->bad_ports++;
			return;
		}
		f->pit_latches++;
		f->pit_high_next = false;
		if (f->pit_values) {
			f->pit_latched = f->pit_values[f->pit_next];
			f->pit_next = (f->pit_next + 1) % f->pit_count;
		} else {
			f->pit_latched = (uint16_t)(f->pit_latched - f->pit_step);
		}
		return;
	case PORT_CMOS_INDEX:
		f->cmos_index = value;
		return;
	}
	f->bad_ports++;
}

void fake_arch_init(struct fake_arch *fake, struct arch_ops *ops)
{
	memset(fake, 0, sizeof(*fake));
	ops->ctx = fake;
	ops->cpuid_present = fake_cpuid_present;
	ops->cpuid = fake_cpuid;
	ops->rdrand32 = fake_rdrand;
	ops->rdseed32 = fake_rdseed;
	ops->rdtsc = fake_rdtsc;
	ops->inb = fake_inb;
	ops->outb = fake_outb;
}
