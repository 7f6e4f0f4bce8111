/* Gathering the boots' lines into one series (see samples.h). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tools/stat/samples.h"

#define LINE_MAX_BYTES (1 << 18) /* a random= line of 64 KiB is 128 KiB of hex */

void samples_init(struct samples *s)
{
	memset(s, 0, sizeof(*s));
}

void samples_free(struct samples *s)
{
	free(s->phys);
	free(s->virt);
	free(s->credited);
	memset(s, 0, sizeof(*s));
}

static int fail(struct samples *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->error, sizeof(s->error), fmt, ap);
	va_end(ap);
	return -1;
}

static int grow(struct samples *s)
{
	size_t cap = s->cap ? 2 * s->cap : 1024;
	uint64_t *phys = realloc(s->phys, cap * sizeof(*phys));
	if (phys)
		s->phys = phys;
	uint64_t *virt = realloc(s->virt, cap * sizeof(*virt));
	if (virt)
		s->virt = virt;
	unsigned *credited = realloc(s->credited, cap * sizeof(*credited));
	if (credited)
		s->credited = credited;
	if (!phys || !virt || !credited)
		return fail(s, "out of memory");
	s->cap = cap;
	return 0;
}

static void count_sources(struct samples *s, const struct base_line *b)
{
	for (size_t i = 0; i < s->set_count; i++) {
		struct source_set *set = &s->sets[i];
		if (strcmp(set->names, b->entropy))
			continue;
		set->boots++;
		set->credited_min =
			b->credited < set->credited_min ? b->credited : set->credited_min;
		set->credited_max =
			b->credited > set->credited_max ? b->credited : set->credited_max;
		return;
	}
	if (s->set_count == SAMPLES_SOURCE_SETS)
		return;
	struct source_set *set = &s->sets[s->set_count++];
	snprintf(set->names, sizeof(set->names), "%s", b->entropy);
	set->boots = 1;
	set->credited_min = set->credited_max = b->credited;
}

static int add_base(struct samples *s, const struct base_line *b)
{
	if (s->n == 0) {
		s->first = *b;
	} else if (b->slots != s->first.slots || b->align != s->first.align ||
		   b->vslots != s->first.vslots || b->valign != s->first.valign) {
		return fail(s,
			    "slot count changed between boots (%llu at 0x%llx, now %llu at 0x%llx)",
			    (unsigned long long)s->first.slots, (unsigned long long)s->first.align,
			    (unsigned long long)b->slots, (unsigned long long)b->align);
	}
	if (s->n == s->cap && grow(s))
		return -1;
	s->phys[s->n] = b->phys;
	s->virt[s->n] = b->virt;
	s->credited[s->n] = b->credited;
	s->n++;
	if (!s->linux_own)
		count_sources(s, b);
	return 0;
}

/* Where Linux found itself, as a base of its own KASLR: no slots or entropy are reported. */
static int add_linux(struct samples *s, const struct linux_report *r)
{
	struct base_line b = {.virt = r->text, .phys = r->code_first};
	return add_base(s, &b);
}

/* The packed image of every boot: one place, as the slot count is one. */
static int add_image(struct samples *s, uint64_t at)
{
	if (s->has_image_at && s->image_at != at)
		return fail(s, "the image moved between boots (0x%llx, now 0x%llx)",
			    (unsigned long long)s->image_at, (unsigned long long)at);
	s->image_at = at;
	s->has_image_at = true;
	return 0;
}

/* The initrd of every boot: one place, however many boots report it. */
static int add_initrd(struct samples *s, const struct mem_span *span)
{
	if (s->initrd_count && (s->initrd.start != span->start || s->initrd.end != span->end))
		return fail(s, "the initrd moved between boots (0x%llx, now 0x%llx)",
			    (unsigned long long)s->initrd.start, (unsigned long long)span->start);
	s->initrd = *span;
	s->initrd_count = 1;
	return 0;
}

static int add_usable(struct samples *s, const struct mem_span *spans, size_t count)
{
	if (!s->has_usable) {
		memcpy(s->usable, spans, count * sizeof(spans[0]));
		s->usable_count = count;
		s->has_usable = true;
		return 0;
	}
	size_t i = 0;
	while (i < count && i < s->usable_count && spans[i].start == s->usable[i].start &&
	       spans[i].end == s->usable[i].end)
		i++;
	if (i == count && i == s->usable_count)
		return 0;
	/* Name the first range that differs, so the change can be traced to what made it. */
	char was[64] = "nothing", now[64] = "nothing";
	if (i < s->usable_count)
		snprintf(was, sizeof(was), "0x%llx-0x%llx", (unsigned long long)s->usable[i].start,
			 (unsigned long long)s->usable[i].end);
	if (i < count)
		snprintf(now, sizeof(now), "0x%llx-0x%llx", (unsigned long long)spans[i].start,
			 (unsigned long long)spans[i].end);
	return fail(s, "the usable memory map changed between boots: range %zu was %s, after base "
		       "line %zu it is %s", i + 1, was, s->n, now);
}

static int hex_digit(char c)
{
	return c <= '9' ? c - '0' : c - 'a' + 10;
}

/* One descriptor of a boot's EFI map: kept for the first boot that logs one (0), ignored for
 * later boots and when that boot logs its map again (1): Linux logs it as its stub left it,
 * and again once it has changed it (efi_reserve_boot_services, the runtime mapping). */
static int add_efi_mem(struct samples *s, const struct efi_mem *m)
{
	if (s->n == 0)
		return fail(s, "an EFI memory map line before any base line");
	if (s->has_efi_map && (s->efi_map_boot != s->n - 1 || s->efi_map_done))
		return 1;
	if (s->has_efi_map && m->index == 0) {
		s->efi_map_done = true;
		return 1;
	}
	if (!s->has_efi_map) {
		s->has_efi_map = true;
		s->efi_map_boot = s->n - 1;
	}
	if (m->index != s->efi_map_count)
		return fail(s, "EFI memory map line mem%02u where mem%02zu was due", m->index,
			    s->efi_map_count);
	if (s->efi_map_count == SAMPLES_EFI_MAP_MAX)
		return fail(s, "more than %d EFI memory descriptors", SAMPLES_EFI_MAP_MAX);
	s->efi_map[s->efi_map_count++] = *m;
	return 0;
}

static int add_random(struct samples *s, const char *hex, size_t len)
{
	s->random_lines++;
	s->random_bytes += len / 2;
	if (!s->random_out)
		return 0;
	for (size_t i = 0; i < len; i += 2)
		if (putc(hex_digit(hex[i]) << 4 | hex_digit(hex[i + 1]), s->random_out) == EOF)
			return fail(s, "cannot write the random bytes");
	return 0;
}

int samples_add_line(struct samples *s, const char *line)
{
	struct base_line b;
	struct linux_report report;
	struct mem_span spans[SAMPLES_USABLE_MAX], initrd;
	struct efi_mem mem;
	size_t count, len;
	const char *hex;
	uint64_t image_at;
	int rc;

	if (!s->linux_own && line_parse_base(line, &b) == 0)
		rc = add_base(s, &b);
	else if (s->linux_own && line_parse_linux(line, &report) == 0)
		rc = add_linux(s, &report);
	else if (line_parse_image(line, &image_at) == 0)
		rc = add_image(s, image_at);
	else if (line_parse_initrd(line, &initrd) == 0)
		rc = add_initrd(s, &initrd);
	else if (line_parse_usable(line, spans, SAMPLES_USABLE_MAX, &count) == 0)
		rc = add_usable(s, spans, count);
	else if (line_parse_random(line, &hex, &len) == 0)
		rc = add_random(s, hex, len);
	else if (line_parse_efi_mem(line, &mem) == 0) {
		if ((rc = add_efi_mem(s, &mem)) > 0)
			return 0;
	} else if (!strncmp(line, "kslide: random=", strlen("kslide: random=")))
		return fail(s, "malformed random= line");
	else
		return 0;
	/* A line that ends the run is kept too: --from on the file then shows the same finding. */
	if (s->lines_out) {
		size_t n = strcspn(line, "\r\n");
		fprintf(s->lines_out, "%.*s\n", (int)n, line);
	}
	return rc;
}

int samples_add_file(struct samples *s, FILE *f)
{
	char *line = malloc(LINE_MAX_BYTES);
	int rc = 0;
	if (!line)
		return fail(s, "out of memory");
	while (rc == 0 && fgets(line, LINE_MAX_BYTES, f))
		rc = samples_add_line(s, line);
	free(line);
	return rc;
}

unsigned samples_credited_min(const struct samples *s)
{
	unsigned m = s->n ? s->credited[0] : 0;
	for (size_t i = 1; i < s->n; i++)
		m = s->credited[i] < m ? s->credited[i] : m;
	return m;
}
