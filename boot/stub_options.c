/*
 * The stub's own words on the kernel's command line (stub_parts.h): nokaslr and kaslr, the
 * kslide.entropy= sources (kslide.phys= and kslide.virt= are boot/placement.c's), and a warning for every kslide.* word it does not know, since the
 * stub takes them all off the line the kernel reads.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "boot/console.h"
#include "boot/random_dump.h"
#include "boot/stub_parts.h"
#include "lib/cmdline.h"
#include "lib/errors.h"
#include "lib/string.h"

#define ENTROPY_OPTION "kslide.entropy" /* restrict sources, e.g. kslide.entropy=rdtsc,pit */
#define ENTROPY_NONE   "none"		/* kslide.entropy=none: no source, a predictable base */

uint32_t stub_cmdline_length(void)
{
	return stub_env.cmdline ? (uint32_t)strlen(stub_env.cmdline) : 0;
}

static bool has_flag(const char *flag)
{
	return cmdline_has_flag(stub_env.cmdline, stub_cmdline_length(), flag);
}

bool options_randomize(void)
{
	if (image_header.flags & KSLIDE_IMAGE_NOKASLR_DEFAULT)
		return has_flag("kaslr") && !has_flag("nokaslr");
	return !has_flag("nokaslr");
}

/* word[0, len) as a NUL-terminated string in out[cap], cut short with "..." if it must be. */
static const char *word_text(const char *word, size_t len, char *out, size_t cap)
{
	static const char cut[] = "...";
	size_t keep = len < cap ? len : cap - sizeof(cut);
	memcpy(out, word, keep);
	if (keep < len)
		memcpy(out + keep, cut, sizeof(cut));
	else
		out[keep] = '\0';
	return out;
}

static bool word_equals(const char *word, size_t len, const char *text)
{
	return len == strlen(text) && memcmp(word, text, len) == 0;
}

/* A kslide.entropy= item that names no source is said, not silently dropped. */
static void warn_unknown_sources(const char *list)
{
	size_t pos = 0, len;
	const char *item;
	while (cmdline_list_next(list, &pos, &item, &len)) {
		bool known = word_equals(item, len, ENTROPY_NONE);
		for (int s = 0; s < ENTROPY_SOURCE_COUNT; s++)
			known |=
				word_equals(item, len, entropy_source_name((enum entropy_source)s));
		char text[OPTION_MAX];
		if (known)
			continue;
		console_print("kslide: warning: %s= names \"%s\", no source this stub knows (",
			      ENTROPY_OPTION, word_text(item, len, text, sizeof(text)));
		for (int s = 0; s < ENTROPY_SOURCE_COUNT; s++)
			console_print("%s, ", entropy_source_name((enum entropy_source)s));
		console_print("or %s); ignored\n", ENTROPY_NONE);
	}
}

/*
 * The stub takes every "kslide." word off the kernel's command line (cmdline_is_stub_word),
 * so one it does not know (a typo: kslide.entopy=pit) would vanish without a trace; nor may
 * kslide.trial, which only a stub started by UEFI firmware can honour.
 */
void options_warn_unknown_words(bool from_uefi)
{
	static const char *const flags[] = {"nokaslr", "kaslr", "kslide.trial"};
	static const char *const keys[] = {ENTROPY_OPTION "=", RANDOM_OPTION "=",
					   PLACEMENT_PHYS_OPTION "=", PLACEMENT_VIRT_OPTION "="};
	size_t pos = 0, len;
	const char *word;
	while (cmdline_next_stub_word(stub_env.cmdline, stub_cmdline_length(), &pos, &word, &len)) {
		bool known = false;
		for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
			known |= word_equals(word, len, flags[i]);
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			known |= len >= strlen(keys[i]) &&
				 memcmp(word, keys[i], strlen(keys[i])) == 0;
		char text[OPTION_MAX];
		if (!from_uefi && word_equals(word, len, "kslide.trial"))
			console_print("kslide: warning: \"kslide.trial\" ignored: only a stub started "
				      "by UEFI firmware can return to it for another draw\n");
		if (!known)
			console_print("kslide: warning: \"%s\" ignored: not an option of the stub "
				      "(nokaslr, kaslr, kslide.trial, %s=, %s=, %s=, %s=)\n",
				      word_text(word, len, text, sizeof(text)), ENTROPY_OPTION,
				      RANDOM_OPTION, PLACEMENT_PHYS_OPTION, PLACEMENT_VIRT_OPTION);
	}
}

uint32_t options_entropy_sources(void)
{
	char list[OPTION_MAX];
	int rc = cmdline_get(stub_env.cmdline, stub_cmdline_length(), ENTROPY_OPTION, list,
			     sizeof(list));
	if (rc == KS_ENOSPC)
		console_print(
			"kslide: warning: %s= ignored: its value is longer than %u characters; "
			"every source is used\n",
			ENTROPY_OPTION, OPTION_MAX - 1);
	if (rc != KS_OK)
		return ENTROPY_ALL;
	uint32_t mask = 0;
	for (int s = 0; s < ENTROPY_SOURCE_COUNT; s++)
		if (cmdline_list_has(list, entropy_source_name((enum entropy_source)s)))
			mask |= ENTROPY_BIT(s);
	warn_unknown_sources(list);
	return mask;
}
