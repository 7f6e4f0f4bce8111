/* Kernel command-line words: flags, key=value lookups and comma lists (see lib/cmdline.h). */
#include "lib/cmdline.h"
#include "lib/errors.h"

/* A word of the command line: not NUL-terminated, so always carried with its length. */
struct word {
	const char *text;
	size_t len;
};

static bool is_separator(char c)
{
	return c == ' ' || c == '\t';
}

/* The end of the usable string: len, or the first NUL before it. */
static size_t effective_len(const char *s, size_t len)
{
	size_t n = 0;
	while (n < len && s[n] != '\0')
		n++;
	return n;
}

static size_t str_len(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

static bool same_bytes(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/* Finds the word at or after *pos in s[0, end); advances *pos past it. False at the end. */
static bool next_word(const char *s, size_t end, size_t *pos, struct word *w)
{
	size_t i = *pos;
	while (i < end && is_separator(s[i]))
		i++;
	if (i == end)
		return false;
	size_t start = i;
	while (i < end && !is_separator(s[i]))
		i++;
	w->text = s + start;
	w->len = i - start;
	*pos = i;
	return true;
}

bool cmdline_has_flag(const char *cmdline, size_t len, const char *flag)
{
	if (cmdline == NULL || flag == NULL || flag[0] == '\0')
		return false;
	size_t end = effective_len(cmdline, len);
	size_t flag_len = str_len(flag);
	size_t pos = 0;
	struct word w;
	while (next_word(cmdline, end, &pos, &w))
		if (w.len == flag_len && same_bytes(w.text, flag, flag_len))
			return true;
	return false;
}

/* On every failure out becomes "" (when it has room for that), so a caller never reads junk. */
int cmdline_get(const char *cmdline, size_t len, const char *key, char *out, size_t cap)
{
	if (cap > 0)
		out[0] = '\0';
	if (key == NULL || key[0] == '\0')
		return KS_EINVAL;
	if (cmdline == NULL)
		return KS_ENOENT;
	size_t end = effective_len(cmdline, len);
	size_t key_len = str_len(key);
	size_t pos = 0;
	struct word w;
	struct word value = { NULL, 0 };
	bool found = false;
	/* Later words override earlier ones, as with the kernel's own parameters. */
	while (next_word(cmdline, end, &pos, &w)) {
		if (w.len > key_len && w.text[key_len] == '=' && same_bytes(w.text, key, key_len)) {
			value.text = w.text + key_len + 1;
			value.len = w.len - key_len - 1;
			found = true;
		}
	}
	if (!found)
		return KS_ENOENT;
	if (value.len >= cap)
		return KS_ENOSPC; /* a truncated value could be misread as a different valid one */
	for (size_t i = 0; i < value.len; i++)
		out[i] = value.text[i];
	out[value.len] = '\0';
	return KS_OK;
}

bool cmdline_list_has(const char *list, const char *item)
{
	if (list == NULL || item == NULL || item[0] == '\0')
		return false;
	size_t item_len = str_len(item);
	const char *p = list;
	for (;;) {
		const char *start = p;
		while (*p != '\0' && *p != ',')
			p++;
		if ((size_t)(p - start) == item_len && same_bytes(start, item, item_len))
			return true;
		if (*p == '\0')
			return false;
		p++; /* skip the comma */
	}
}

#define STUB_PREFIX "kslide."
#define STUB_PREFIX_LEN (sizeof(STUB_PREFIX) - 1)

static bool word_is(const char *word, size_t len, const char *text)
{
	return len == str_len(text) && same_bytes(word, text, len);
}

bool cmdline_is_stub_word(const char *word, size_t len)
{
	return word_is(word, len, "nokaslr") || word_is(word, len, "kaslr") ||
	       (len > STUB_PREFIX_LEN && same_bytes(word, STUB_PREFIX, STUB_PREFIX_LEN));
}

size_t cmdline_remove_stub_words(char *s)
{
	size_t end = str_len(s), out = 0, pos = 0;
	struct word w;
	/* Words only move left (out <= their start), so copying forward is safe. */
	while (next_word(s, end, &pos, &w)) {
		if (cmdline_is_stub_word(w.text, w.len))
			continue;
		if (out > 0)
			s[out++] = ' ';
		for (size_t i = 0; i < w.len; i++)
			s[out++] = w.text[i];
	}
	s[out] = '\0';
	return out;
}

size_t cmdline_image_path_length(const char *s)
{
	size_t n = 0;
	while (s[n] && s[n] != ' ')
		n++;
	while (s[n] == ' ')
		n++;
	return n;
}

bool cmdline_next_stub_word(const char *cmdline, size_t len, size_t *pos, const char **word,
			    size_t *word_len)
{
	if (cmdline == NULL)
		return false;
	size_t end = effective_len(cmdline, len);
	struct word w;
	while (next_word(cmdline, end, pos, &w)) {
		if (cmdline_is_stub_word(w.text, w.len)) {
			*word = w.text;
			*word_len = w.len;
			return true;
		}
	}
	return false;
}

bool cmdline_list_next(const char *list, size_t *pos, const char **item, size_t *item_len)
{
	if (list == NULL)
		return false;
	size_t i = *pos;
	while (list[i] == ',')
		i++;
	if (list[i] == '\0') {
		*pos = i;
		return false;
	}
	size_t start = i;
	while (list[i] != '\0' && list[i] != ',')
		i++;
	*item = list + start;
	*item_len = i - start;
	*pos = i;
	return true;
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

/* Shifts for hex and a multiply by a constant for decimal: no 64-bit division on i386. */
int cmdline_parse_u64(const char *s, uint64_t *out)
{
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	unsigned int radix = hex ? 16 : 10;
	uint64_t v = 0;
	if (hex)
		s += 2;
	if (*s == '\0')
		return KS_EINVAL;
	for (; *s; s++) {
		unsigned int d = (unsigned int)digit_value(*s);
		if (d >= radix)
			return KS_EINVAL;
		if (hex ? v >> 60 != 0 : v > (UINT64_MAX - d) / 10)
			return KS_EOVERFLOW;
		v = hex ? v << 4 | d : v * 10 + d;
	}
	*out = v;
	return KS_OK;
}
