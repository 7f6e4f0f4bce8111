/* kernel/smp/smp.h: the boot CPU's side of INIT-SIPI-SIPI, and the AP's first C code. */
#include <stddef.h>

#include "arch/x86/arch_ops.h"
#include "arch/x86/sysregs.h"
#include "arch/x86/x86.h"
#include "kernel/console.h"
#include "kernel/cpu/cpu_tables.h"
#include "kernel/cpu/descriptor.h"
#include "kernel/memory.h"
#include "kernel/mm/frames.h"
#include "kernel/smp/smp.h"
#include "kernel/smp/smp_call.h"
#include "kernel/smp/trampoline.h"
#include "lib/cpu.h"
#include "lib/string.h"

/* Local APIC registers, as 32-bit word indexes (SDM Vol. 3A, table 10-1). */
#define LAPIC_ID (0x20 / 4)
#define LAPIC_SVR (0xf0 / 4)
#define LAPIC_ICR_LOW (0x300 / 4)
#define LAPIC_ICR_HIGH (0x310 / 4)
#define LAPIC_ID_SHIFT 24
#define LAPIC_SVR_ENABLE 0x100
#define LAPIC_SPURIOUS_VECTOR 0xff
#define ICR_INIT 0x00000500
#define ICR_NMI 0x00000400
#define ICR_STARTUP 0x00000600
#define ICR_LEVEL_ASSERT 0x00004000
#define ICR_DELIVERY_PENDING 0x00001000
/* SDM Vol. 3A, 8.4.4.1: 10 ms after INIT, 200 us between the start-up IPIs. */
#define INIT_DELAY_US 10000
#define SIPI_DELAY_US 200
/* How long an AP may take to check in: about 10 s at 2 GHz, in TSC cycles, as Linux waits
 * (do_boot_cpu). Under TCG the AP is a host thread that a loaded host may not run for a
 * while. */
#define AP_WAIT_CYCLES 20000000000ull
/* Each write to the POST port takes about a microsecond on ISA timing: a delay loop that
 * needs no calibrated timer (under TCG it is faster, which only shortens the waits). */
#define IO_DELAY_PORT 0x80
/* A start-up IPI names the trampoline by its 4 KiB page number. */
#define SIPI_PAGE_SHIFT 12
#define AP_STACK_BYTES 8192

static struct smp_state state;
static uintptr_t boot_cr0;
static volatile uint32_t *lapic;
static uint8_t ap_stack[CPU_AP_MAX][AP_STACK_BYTES] __attribute__((aligned(16)));
static unsigned ap_checked_in;
static uint32_t ap_apic_id[CPU_AP_MAX];

static void delay_us(unsigned us)
{
	for (unsigned i = 0; i < us; i++)
		outb(IO_DELAY_PORT, 0);
}

static void ipi(uint32_t apic_id, uint32_t command)
{
	lapic[LAPIC_ICR_HIGH] = apic_id << LAPIC_ID_SHIFT;
	lapic[LAPIC_ICR_LOW] = command;
	while (lapic[LAPIC_ICR_LOW] & ICR_DELIVERY_PENDING)
		cpu_relax();
}

void smp_ap_main(unsigned ap);

/* The AP, in the kernel on its own stack: take the tables, say what it sees, park. */
void smp_ap_main(unsigned ap)
{
	arch_ap_enter();
	/* INIT left CD and NW set (SDM Vol. 3A, table 9-1): caches as the boot CPU has them. */
	write_cr0(boot_cr0);
	cpu_ap_load(ap);
	struct smp_ap_view *v = &state.ap[ap];
	struct desc_ptr idt, gdt;
	sidt(&idt);
	sgdt(&gdt);
	struct cpu_features f;
	cpu_probe(&x86_arch_ops, &f);
	*v = (struct smp_ap_view){ .started = true,
				   .apic_id = lapic[LAPIC_ID] >> LAPIC_ID_SHIFT,
				   .idt_base = idt.base,
				   .gdt_base = gdt.base,
				   .idt_limit = idt.limit,
				   .gdt_limit = gdt.limit,
				   .ldt = sldt(),
				   .tr = str(),
				   .has_umip = f.umip,
				   .umip_on = (read_cr4() & CR4_UMIP) != 0,
				   .has_smep = f.smep,
				   .has_smap = f.smap,
				   .cr0 = read_cr0(),
				   .cr4 = read_cr4() };
	__atomic_store_n(&ap_checked_in, ap + 1, __ATOMIC_RELEASE);
	/* Until the next INIT: no interrupt reaches it (IF is clear); the NMIs of smp_call do. */
	smp_ap_wait_for_work(ap);
}

/* INIT, then two start-up IPIs (SDM Vol. 3A, 8.4.4.1), and wait for the AP to check in. */
static bool start_ap(struct trampoline_data *d, unsigned ap, uint32_t apic_id)
{
	state.ap[ap].started = false;
	__atomic_store_n(&ap_checked_in, 0, __ATOMIC_RELEASE);
	d->stack = (uintptr_t)(ap_stack[ap] + AP_STACK_BYTES);
	d->cpu = ap;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	ipi(apic_id, ICR_INIT | ICR_LEVEL_ASSERT);
	delay_us(INIT_DELAY_US);
	uint32_t page = (uint32_t)(state.trampoline_phys >> SIPI_PAGE_SHIFT);
	for (int i = 0; i < 2; i++) {
		ipi(apic_id, ICR_STARTUP | page);
		delay_us(SIPI_DELAY_US);
	}
	return smp_wait_for(&ap_checked_in, ap + 1, AP_WAIT_CYCLES);
}

void smp_init(const struct kslide_bootinfo *bi)
{
	state.acpi_ok = acpi_find_cpus(&state.cpus);
	if (!state.acpi_ok || state.cpus.count < 2)
		return;
	lapic = arch_lapic_map(state.cpus.lapic_phys);
	state.boot_apic_id = lapic[LAPIC_ID] >> LAPIC_ID_SHIFT;
	state.boot_cr0 = boot_cr0 = read_cr0();
	lapic[LAPIC_SVR] = LAPIC_SVR_ENABLE | LAPIC_SPURIOUS_VECTOR;

	state.trampoline_pages = trampoline_pages();
	state.trampoline_phys =
		frames_low_free(bi, TRAMPOLINE_MIN, TRAMPOLINE_MAX, state.trampoline_pages);
	if (!state.trampoline_phys) {
		kprintf("smp: no free page below 1 MiB for the AP trampoline\n");
		return;
	}
	unsigned listed = state.cpus.count < CPU_MAX ? state.cpus.count : CPU_MAX;
	for (unsigned i = 0; i < listed; i++) {
		uint32_t id = state.cpus.apic_id[i];
		if (id == state.boot_apic_id)
			continue;
		unsigned ap = state.aps_wanted++;
		ap_apic_id[ap] = id;
		if (smp_cpu_online(ap))
			state.aps_started++;
		else
			kprintf("smp: the CPU with APIC ID %u did not start\n", (unsigned)id);
	}
	kprintf("smp: %u CPUs listed, %u APs started\n", state.cpus.count, state.aps_started);
}

/*
 * The one way an AP comes (back) into the kernel: the trampoline is copied below 1 MiB with
 * its data, the AP started through it, and the pages wiped again, so that between starts
 * nothing of the kernel (its entry, a stack, page tables) stays in low memory.
 */
bool smp_cpu_online(unsigned ap)
{
	if (ap >= state.aps_wanted || !state.trampoline_phys)
		return false;
	smp_call_forget(ap);
	struct trampoline_data *d =
		trampoline_place(state.trampoline_phys, (uintptr_t)smp_ap_main);
	bool ok = start_ap(d, ap, ap_apic_id[ap]);
	trampoline_remove(state.trampoline_phys);
	return ok;
}

/* INIT puts the AP in wait-for-SIPI (SDM Vol. 3A, 8.4.1 and table 9-1): IDTR and GDTR back at
 * their reset values, TR and LDTR null, paging off; it runs nothing until the next start. */
void smp_cpu_offline(unsigned ap)
{
	if (ap >= state.aps_wanted)
		return;
	ipi(ap_apic_id[ap], ICR_INIT | ICR_LEVEL_ASSERT);
	state.ap[ap].started = false;
}

void smp_boot_cpu_resume(void)
{
	if (lapic)
		lapic[LAPIC_SVR] = LAPIC_SVR_ENABLE | LAPIC_SPURIOUS_VECTOR;
}

const struct smp_state *smp_state(void)
{
	return &state;
}

bool smp_trampoline_wiped(void)
{
	if (!state.trampoline_phys)
		return true;
	const uint8_t *p = phys_to_virt(state.trampoline_phys);
	for (size_t i = 0; i < (size_t)state.trampoline_pages * PAGE_SIZE; i++)
		if (p[i])
			return false;
	return true;
}

void smp_nmi(uint32_t apic_id)
{
	ipi(apic_id, ICR_NMI | ICR_LEVEL_ASSERT);
}

uint32_t smp_ap_apic_id(unsigned ap)
{
	return ap_apic_id[ap];
}

/*
 * Neither the port writes of delay_us nor PAUSE: under QEMU each of them takes the global lock
 * that a halted or newly started vCPU needs to run at all, and a million in a row starve the
 * very AP being waited for. The TSC bounds the wait instead.
 */
bool smp_wait_for(const unsigned *word, unsigned value, uint64_t cycles)
{
	for (uint64_t start = rdtsc(); rdtsc() - start < cycles;) {
		if (__atomic_load_n(word, __ATOMIC_ACQUIRE) == value)
			return true;
		smp_spin();
	}
	return __atomic_load_n(word, __ATOMIC_ACQUIRE) == value;
}
