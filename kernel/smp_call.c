/*
 * Work for an application processor (kernel/smp.h): the boot CPU hands one function to one
 * AP and waits until it has run there. That is all the scheduling the kernel does: a ring-3
 * process pinned to an AP (kernel/proc.c) is such a function, and only one CPU at a time ever
 * runs one, so the kernel's process and syslog state needs no lock.
 *
 * Between calls an AP halts with interrupts off; an NMI ends the HLT (SDM Vol. 3A, 6.7.1, and
 * 8.4.4 on sending one), its gate leads through the entry stubs to trap(), which returns at
 * once, and the AP looks at its mailbox again. An NMI that lands just before the HLT is lost,
 * so the boot CPU sends them until the AP answers (CALL_TAKEN); and it says CALL_GO only then,
 * so that no NMI it sent can still be on its way once the AP heads for ring 3 (an NMI in the
 * entry stubs, between SWAPGS and the stack switch, would run on ring 3's GS).
 *
 *   boot CPU            CALL_POSTED -> NMI ... NMI        CALL_GO                 (waits)
 *   AP        HLT ... (woken) sees POSTED -> CALL_TAKEN  sees GO -> fn(arg) -> CALL_DONE
 */
#include <stdbool.h>
#include <stddef.h>

#include "kernel/smp.h"

enum call_state { CALL_IDLE, CALL_POSTED, CALL_TAKEN, CALL_GO, CALL_DONE };

/* How long the boot CPU waits for an answer after each NMI, in TSC cycles (about 0.5 ms at
 * 2 GHz), and how many it sends: about a second in all. */
#define WAKE_WAIT_CYCLES (1ull << 20)
#define WAKE_TRIES 2048

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

static bool woken(unsigned ap, struct call *c)
{
	for (unsigned tries = 0; tries < WAKE_TRIES; tries++) {
		smp_cpu_nmi(ap);
		if (smp_wait_for(&c->state, CALL_TAKEN, WAKE_WAIT_CYCLES))
			return true;
	}
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
		while (state_of(c) != CALL_POSTED)
			__asm__ volatile("hlt" : : : "memory"); /* IF is clear: an NMI or INIT ends it */
		set_state(c, CALL_TAKEN);
		while (state_of(c) != CALL_GO)
			smp_spin();
		c->fn(c->arg);
		set_state(c, CALL_DONE);
	}
}
