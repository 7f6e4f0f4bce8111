/*
 * Work for an application processor (kernel/smp/smp.h): the boot CPU hands one function to one
 * AP and waits until it has run there. That is all the scheduling the kernel does: a ring-3
 * process pinned to an AP (kernel/proc/proc.c) is such a function, and only one CPU at a time ever
 * runs one, so the kernel's process and syslog state needs no lock.
 *
 * Whichever CPU waits halts with interrupts off, and the other ends the HLT with an NMI (SDM
 * Vol. 3A, 6.7.1 and 10.6.1): its gate leads through the entry stubs to trap(), which
 * returns at once, and the CPU looks at the call's state again. An NMI that lands just before
 * the HLT is lost, so the sender knocks (sends NMIs) until the other answers; and the other
 * waits for the sender to say it has stopped before going on, so that no NMI can still be on
 * its way when it next heads for ring 3 (an NMI in the entry stubs, between SWAPGS and the
 * stack switch, would run on ring 3's GS).
 *
 *   boot CPU  POSTED, knocks ...  GO                 HLT ...  (woken) SEEN   waits    IDLE
 *   AP        HLT ... (woken) TAKEN  waits  fn(arg)  DONE, knocks ...          CLEAR
 *
 * The boot CPU halts rather than spins while the AP works: under QEMU a spinning vCPU takes a
 * host CPU the working one could use.
 */
#include <stdbool.h>
#include <stddef.h>

#include "kernel/smp/smp.h"
#include "kernel/smp/smp_call.h"

enum call_state {
	CALL_IDLE,
	CALL_POSTED, /* the boot CPU has handed fn over */
	CALL_TAKEN,  /* the AP has it: no more knocks */
	CALL_GO,     /* the boot CPU has stopped knocking */
	CALL_DONE,   /* fn has returned */
	CALL_SEEN,   /* the boot CPU knows: no more knocks */
	CALL_CLEAR,  /* the AP has stopped knocking */
};

/* How long a knock waits for an answer after each NMI, in TSC cycles (about 0.5 ms at
 * 2 GHz), and how many NMIs it sends: about 10 s in all, as long as an AP has to start
 * (kernel/smp/smp.c), for a host that may not run the other vCPU for a while. */
#define WAKE_WAIT_CYCLES (1ull << 20)
#define WAKE_TRIES 20000

struct call {
	void (*fn)(void *arg);
	void *arg;
	unsigned state;
};

static struct call calls[CPU_AP_MAX];

static void set_state(struct call *c, enum call_state s)
{
	__atomic_store_n(&c->state, s, __ATOMIC_RELEASE);
}

static enum call_state state_of(struct call *c)
{
	return __atomic_load_n(&c->state, __ATOMIC_ACQUIRE);
}

/* NMIs to the CPU with this APIC ID until the call is in state want; false if it never is. */
static bool knock(uint32_t apic_id, struct call *c, enum call_state want)
{
	for (unsigned tries = 0; tries < WAKE_TRIES; tries++) {
		smp_nmi(apic_id);
		if (smp_wait_for(&c->state, want, WAKE_WAIT_CYCLES))
			return true;
	}
	return false;
}

static bool woken(unsigned ap, struct call *c)
{
	if (knock(smp_ap_apic_id(ap), c, CALL_TAKEN))
		return true;
	/* Given up: take the call back, unless the AP took it after all. */
	unsigned posted = CALL_POSTED;
	return !__atomic_compare_exchange_n(&c->state, &posted, CALL_IDLE, false,
					    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

bool smp_call(unsigned ap, void (*fn)(void *arg), void *arg)
{
	const struct smp_state *s = smp_state();
	if (ap >= s->aps_wanted || !s->ap[ap].started)
		return false;
	struct call *c = &calls[ap];
	c->fn = fn;
	c->arg = arg;
	set_state(c, CALL_POSTED);
	if (!woken(ap, c))
		return false;
	set_state(c, CALL_GO);
	while (state_of(c) != CALL_DONE)
		__asm__ volatile("hlt" : : : "memory"); /* IF is clear: the AP's NMI ends it */
	set_state(c, CALL_SEEN);
	while (state_of(c) != CALL_CLEAR)
		smp_spin();
	set_state(c, CALL_IDLE);
	return true;
}

void smp_call_forget(unsigned ap)
{
	set_state(&calls[ap], CALL_IDLE);
}

void smp_ap_wait_for_work(unsigned ap)
{
	struct call *c = &calls[ap];
	for (;;) {
		/* IF is clear: only an NMI (smp_call's) or INIT ends the HLT. */
		while (state_of(c) != CALL_POSTED)
			__asm__ volatile("hlt" : : : "memory");
		set_state(c, CALL_TAKEN);
		while (state_of(c) != CALL_GO)
			smp_spin();
		c->fn(c->arg);
		set_state(c, CALL_DONE);
		/* The boot CPU waits for this (it halts until it answers, so it always does). */
		knock(smp_state()->boot_apic_id, c, CALL_SEEN);
		set_state(c, CALL_CLEAR);
	}
}
