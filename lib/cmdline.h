/*
 * Kernel command-line words: "nokaslr selftest=reloc kslide.entropy=rdtsc,pit". Words are
 * separated by spaces or tabs; a word is a flag ("nokaslr") or key=value. No quoting.
 * The string need not be NUL-terminated within len; parsing stops at len or at a NUL.
 */
#ifndef KSLIDE_LIB_CMDLINE_H
#define KSLIDE_LIB_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* True if 'flag' appears as a whole word (not "xnokaslr", not "nokaslr=1"). */
bool cmdline_has_flag(const char *cmdline, size_t len, const char *flag);

/*
 * Find the last "key=value" word and copy value (NUL-terminated) into out. Returns KS_OK,
 * KS_ENOENT if absent, or KS_ENOSPC if the value does not fit in cap bytes (out is then "").
 */
int cmdline_get(const char *cmdline, size_t len, const char *key, char *out, size_t cap);

/*
 * For comma lists: is 'item' one of the comma-separated items of list? ("rdtsc" in "pit,rdtsc").
 */
bool cmdline_list_has(const char *list, const char *item);

/*
 * The stub's own words, which a kernel must not see: "nokaslr", "kaslr" and every word that
 * starts with "kslide." (kslide.entropy=, kslide.random=).
 */
bool cmdline_is_stub_word(const char *word, size_t len);

/*
 * Remove the stub's words from the NUL-terminated string s, in place; the other words keep
 * their order, separated by single spaces. Returns the new length.
 */
size_t cmdline_remove_stub_words(char *s);

/*
 * The bytes before a Multiboot 1 command line's arguments: QEMU's -kernel and GRUB's
 * `multiboot` put the kernel's path first ("/boot/kernel.img quiet"), which GRUB's `linux` and
 * `multiboot2` never give. The first word and the spaces after it.
 */
size_t cmdline_image_path_length(const char *s);

/*
 * Walks the stub's words of a command line: the next one at or after *pos (start at 0) in
 * *word and *word_len, *pos moved past it; false when there is none left.
 */
bool cmdline_next_stub_word(const char *cmdline, size_t len, size_t *pos, const char **word,
			    size_t *word_len);

/*
 * Walks a comma list: the next non-empty item at or after *pos (start at 0) in *item and
 * *item_len; false when there is none left. Empty items (",,") are skipped.
 */
bool cmdline_list_next(const char *list, size_t *pos, const char **item, size_t *item_len);

/*
 * A number value, "0x" then hex digits or plain decimal digits, and nothing else (no sign, no
 * spaces, no suffix): KS_OK with *out set, KS_EOVERFLOW above 2^64 - 1, KS_EINVAL otherwise.
 */
int cmdline_parse_u64(const char *s, uint64_t *out);

#endif
