/*
 * Proving at pack time that every base the image allows works (base_window.h). Each fixup
 * is linear in the slide d, so the slides a field survives form one interval; intersected
 * over all fields they give the slides the kernel survives, and the window's lowest and
 * highest slide must both lie inside. A field's value is what the stub finds in the payload
 * (0 past the file-backed bytes, where the stub writes zeros).
 *
 *   ADD32   v + d in [0, 2^32)           (R_386_32, R_X86_64_32)
 *   ADD32S  v + d in [-2^31, 2^31)       v sign-extended (R_X86_64_32S)
 *   SUB32S  v - d in [-2^31, 2^31)       v sign-extended (inverse PC-relative)
 *   ADD64   v + d in [-2^63, 2^63)       v as a signed address: upper-half addresses are
 *                                        negative, so a move never crosses the sign
 */
#include <stdio.h>

#include "include/kslide/image.h"
#include "tools/pack/base_window.h"

typedef __int128 wide; /* slides and bounds of 64-bit values without overflow */

static uint64_t align_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) & ~(a - 1);
}

static uint64_t align_down(uint64_t x, uint64_t a)
{
	return x & ~(a - 1);
}

void base_window_of(const struct kernel_elf *k, const struct pack_options *opt,
		    struct base_window *w)
{
	w->virtual_bases = k->fixups_follow_virt;
	uint64_t min, last_byte;
	if (w->virtual_bases) {
		w->link = k->link_virt;
		w->align = opt->virt_align;
		w->size = k->mem_size; /* the stub sizes virtual slots by the payload */
		min = opt->virt_min;
		last_byte = opt->virt_last;
	} else {
		w->link = k->link_phys;
		w->align = opt->align;
		w->size = opt->memory_size > k->mem_size ? opt->memory_size : k->mem_size;
		min = opt->min;
		last_byte = opt->max - 1;
	}
	w->empty = w->size == 0 || last_byte < w->size - 1 || min > UINT64_MAX - (w->align - 1);
	if (w->empty)
		return;
	w->first = align_up(min, w->align);
	w->last = align_down(last_byte - (w->size - 1), w->align);
	w->empty = w->first > w->last;
}

static uint64_t field_value(const struct kernel_elf *k, const struct fixup *f, unsigned width)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < width; i++)
		if (f->offset + i < k->file_size)
			v |= (uint64_t)k->payload[f->offset + i] << (8 * i);
	return v;
}

/* The slides [*lo, *hi] a field of kind survives holding v: the value as its kind reads it
 * (an unsigned 32-bit number for ADD32, a signed one for the others). */
static void value_slides(enum reloc_kind kind, wide v, wide *lo, wide *hi)
{
	const wide int32_lo = INT32_MIN, int32_hi = INT32_MAX;
	switch (kind) {
	case RELOC_ADD32:
		*lo = -v;
		*hi = (wide)UINT32_MAX - v;
		return;
	case RELOC_ADD32S:
		*lo = int32_lo - v;
		*hi = int32_hi - v;
		return;
	case RELOC_SUB32S:
		*lo = v - int32_hi;
		*hi = v - int32_lo;
		return;
	case RELOC_ADD64:
		break;
	}
	*lo = (wide)INT64_MIN - v;
	*hi = (wide)INT64_MAX - v;
}

/* The slides [*lo, *hi] field f survives. */
static void field_slides(const struct kernel_elf *k, const struct fixup *f, wide *lo, wide *hi)
{
	wide v = f->kind == RELOC_ADD32	   ? (wide)field_value(k, f, 4)
		 : f->kind == RELOC_ADD64 ? (wide)(int64_t)field_value(k, f, 8)
					  : (wide)(int32_t)(uint32_t)field_value(k, f, 4);
	value_slides(f->kind, v, lo, hi);
}

bool base_window_holds(const struct kernel_elf *k, const struct pack_options *opt,
		       enum reloc_kind kind, int64_t value)
{
	struct base_window w;
	base_window_of(k, opt, &w);
	wide lo, hi, first = 0, last = 0; /* the link base, slide 0, is always possible */
	value_slides(kind, value, &lo, &hi);
	if (!w.empty) {
		wide low = (int64_t)(w.first - w.link), high = (int64_t)(w.last - w.link);
		first = low < 0 ? low : 0;
		last = high > 0 ? high : 0;
	}
	return lo <= first && last <= hi;
}

static const char *kind_name(enum reloc_kind kind)
{
	switch (kind) {
	case RELOC_ADD32:
		return "a 32-bit field";
	case RELOC_ADD32S:
		return "a 32-bit sign-extended field";
	case RELOC_SUB32S:
		return "a 32-bit PC-relative (inverse) field";
	case RELOC_ADD64:
		break;
	}
	return "a 64-bit field";
}

/* Which bases of the window fail: the lowest ones, the highest ones, or all. */
enum failing_bases { LOW_BASES, HIGH_BASES, WHOLE_WINDOW };

/* The message for field f, which fails for the bases [bad_first, bad_last]; fix is the bound
 * that keeps it whole (a lowest base, or an end for the kernel). */
static int refuse(const struct kernel_elf *k, const struct base_window *w, const struct fixup *f,
		  uint64_t bad_first, uint64_t bad_last, enum failing_bases which, uint64_t fix,
		  char *err, size_t err_cap)
{
	const char *bounds = w->virtual_bases ? "--virt-range allows" : "--min and --max allow";
	const char *advice = which == WHOLE_WINDOW ? "no base of the window can hold it"
			     : w->virtual_bases    ? which == LOW_BASES ? "raise --virt-range's MIN to"
								    : "lower --virt-range's END to"
			     : which == LOW_BASES  ? "raise --min to"
						   : "lower --max to";
	char fix_text[32] = "";
	if (which != WHOLE_WINDOW)
		snprintf(fix_text, sizeof(fix_text), " 0x%llx", (unsigned long long)fix);
	bool kernel_model = k->arch == KSLIDE_ARCH_X86_64 && !k->pie && f->kind != RELOC_ADD64;
	snprintf(err, err_cap,
		 "%s at payload offset 0x%llx (link address 0x%llx, holding 0x%llx) would overflow "
		 "for the %s bases [0x%llx, 0x%llx] of the window [0x%llx, 0x%llx] that %s; %s%s%s",
		 kind_name(f->kind), (unsigned long long)f->offset,
		 (unsigned long long)(k->link_virt + f->offset),
		 (unsigned long long)field_value(k, f, f->kind == RELOC_ADD64 ? 8 : 4),
		 w->virtual_bases ? "virtual" : "physical", (unsigned long long)bad_first,
		 (unsigned long long)bad_last, (unsigned long long)w->first,
		 (unsigned long long)w->last, bounds, advice, fix_text,
		 kernel_model ? " (a -mcmodel=kernel kernel must stay in the top 2 GiB)" : "");
	return -1;
}

int base_window_check(const struct kernel_elf *k, const struct pack_options *opt, char *err,
		      size_t err_cap)
{
	struct base_window w;
	base_window_of(k, opt, &w);
	if (w.empty || k->fixup_count == 0)
		return 0;
	/* The slides every field survives, and the fields that bound them. */
	wide lowest = -((wide)1 << 100), highest = (wide)1 << 100;
	const struct fixup *low_bound = NULL, *high_bound = NULL;
	for (size_t i = 0; i < k->fixup_count; i++) {
		wide lo, hi;
		field_slides(k, &k->fixups[i], &lo, &hi);
		if (lo > lowest) {
			lowest = lo;
			low_bound = &k->fixups[i];
		}
		if (hi < highest) {
			highest = hi;
			high_bound = &k->fixups[i];
		}
	}
	/* The stub adds (int64_t)(base - link): monotonic over any window, whose bases lie on
	 * one side of link + 2^63 (canonical x86-64 addresses, i386 ones below 4 GiB). */
	wide first = (int64_t)(w.first - w.link), last = (int64_t)(w.last - w.link);
	if (lowest > last || highest < first)
		return refuse(k, &w, lowest > last ? low_bound : high_bound, w.first, w.last,
			      WHOLE_WINDOW, 0, err, err_cap);
	if (first < lowest) {
		/* The bases below first + (lowest - first) fail. */
		uint64_t bad_last = align_down(w.first + (uint64_t)(lowest - 1 - first), w.align);
		uint64_t good = align_up(w.first + (uint64_t)(lowest - first), w.align);
		return refuse(k, &w, low_bound, w.first, bad_last, LOW_BASES, good, err, err_cap);
	}
	if (last > highest) {
		/* The highest base that works, and the window's end that stops there. */
		uint64_t bad_first = align_up(w.first + (uint64_t)(highest + 1 - first), w.align);
		uint64_t good = align_down(w.first + (uint64_t)(highest - first), w.align);
		return refuse(k, &w, high_bound, bad_first, w.last, HIGH_BASES, good + w.size, err,
			      err_cap);
	}
	return 0;
}
