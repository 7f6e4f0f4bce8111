/* A small printf for the stub and kernel consoles: integers, strings, width and zero padding. */
#include "lib/format.h"

#include <stdbool.h>
#include <stdint.h>

#define FORMAT_MAX_WIDTH 256  /* larger widths are clamped: a console line is never wider */
#define FORMAT_NUM_DIGITS 20  /* UINT64_MAX has 20 decimal digits and 16 hex digits */
#define HEX_DIGIT_BITS 4

struct sink {
	format_putc_fn putc;
	void *ctx;
	format_ptr_fn ptr;
	size_t count;
};

enum length {
	LEN_INT,       /* no modifier: int / unsigned int */
	LEN_LONG,      /* l */
	LEN_LONG_LONG, /* ll */
	LEN_SIZE,      /* z */
};

/* One parsed conversion: %[-0][width][l|ll|z]conv. */
struct spec {
	bool zero_pad;
	bool left;
	unsigned width;
	enum length length;
	char conv;
	char ptr_kind; /* for %p: 'p', or the 'K' or 'x' that followed it */
};

static void put(struct sink *s, char c)
{
	s->putc(s->ctx, c);
	s->count++;
}

static void put_repeat(struct sink *s, char c, unsigned n)
{
	while (n--)
		put(s, c);
}

static size_t str_len(const char *str)
{
	size_t n = 0;
	while (str[n])
		n++;
	return n;
}

/*
 * n / 10 without a 64-bit division: i386 has no divide instruction for 64-bit operands and
 * the stub links no libgcc (__udivdi3). Hacker's Delight, figure 10-19 (divu10) widened to
 * 64 bits: q approximates n * 0.8 / 8 from below, then one correction step.
 */
static uint64_t divmod10(uint64_t n, unsigned *rem)
{
	uint64_t q = (n >> 1) + (n >> 2);
	q += q >> 4;
	q += q >> 8;
	q += q >> 16;
	q += q >> 32;
	q >>= 3;
	uint64_t r = n - ((q << 3) + (q << 1)); /* n - q * 10, in [0, 20) */
	if (r > 9) {
		q++;
		r -= 10;
	}
	*rem = (unsigned)r;
	return q;
}

/* Writes the digits of v so they end just before end; returns where they start. */
static char *utoa(uint64_t v, bool hex, char *end)
{
	static const char digits[] = "0123456789abcdef";
	char *p = end;
	do {
		unsigned d;
		if (hex) {
			d = (unsigned)(v & 0xf);
			v >>= HEX_DIGIT_BITS;
		} else {
			v = divmod10(v, &d);
		}
		*--p = digits[d];
	} while (v != 0);
	return p;
}

/* Emits prefix (sign or "0x") and body within spec->width: zeros go between, spaces outside. */
static void put_field(struct sink *s, const struct spec *spec, const char *prefix,
		      const char *body, size_t body_len)
{
	size_t prefix_len = str_len(prefix);
	size_t len = prefix_len + body_len;
	unsigned pad = spec->width > len ? spec->width - (unsigned)len : 0;
	if (!spec->left && !spec->zero_pad)
		put_repeat(s, ' ', pad);
	for (size_t i = 0; i < prefix_len; i++)
		put(s, prefix[i]);
	if (!spec->left && spec->zero_pad)
		put_repeat(s, '0', pad);
	for (size_t i = 0; i < body_len; i++)
		put(s, body[i]);
	if (spec->left)
		put_repeat(s, ' ', pad);
}

static void put_number(struct sink *s, const struct spec *spec, const char *prefix, uint64_t v,
		       bool hex)
{
	char buf[FORMAT_NUM_DIGITS];
	char *end = buf + sizeof(buf);
	char *start = utoa(v, hex, end);
	put_field(s, spec, prefix, start, (size_t)(end - start));
}

/* va_arg must read exactly the promoted type the caller passed, hence one branch per length. */
static int64_t get_signed(const struct spec *spec, va_list *ap)
{
	switch (spec->length) {
	case LEN_LONG:
		return va_arg(*ap, long);
	case LEN_LONG_LONG:
		return va_arg(*ap, long long);
	case LEN_SIZE:
		return (int64_t)(ptrdiff_t)va_arg(*ap, size_t);
	case LEN_INT:
		break;
	}
	return va_arg(*ap, int);
}

static uint64_t get_unsigned(const struct spec *spec, va_list *ap)
{
	switch (spec->length) {
	case LEN_LONG:
		return va_arg(*ap, unsigned long);
	case LEN_LONG_LONG:
		return va_arg(*ap, unsigned long long);
	case LEN_SIZE:
		return va_arg(*ap, size_t);
	case LEN_INT:
		break;
	}
	return va_arg(*ap, unsigned int);
}

static void put_signed(struct sink *s, const struct spec *spec, int64_t v)
{
	/* 0 - (uint64_t)v is the magnitude even for INT64_MIN, whose negation overflows int64. */
	uint64_t magnitude = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	put_number(s, spec, v < 0 ? "-" : "", magnitude, false);
}

static void put_string(struct sink *s, const struct spec *spec, const char *str)
{
	struct spec spaces = *spec;
	spaces.zero_pad = false; /* "%05s" pads with spaces, as in C */
	if (str == NULL)
		str = "(null)";
	put_field(s, &spaces, "", str, str_len(str));
}

/* Parses flags, width and length after a '%'; returns a pointer to the conversion character. */
static const char *parse_spec(const char *p, struct spec *spec)
{
	*spec = (struct spec){ .length = LEN_INT };
	for (;; p++) {
		if (*p == '0')
			spec->zero_pad = true;
		else if (*p == '-')
			spec->left = true;
		else
			break;
	}
	for (; *p >= '0' && *p <= '9'; p++) {
		spec->width = spec->width * 10 + (unsigned)(*p - '0');
		if (spec->width > FORMAT_MAX_WIDTH)
			spec->width = FORMAT_MAX_WIDTH;
	}
	if (*p == 'l') {
		spec->length = LEN_LONG;
		if (*++p == 'l') {
			spec->length = LEN_LONG_LONG;
			p++;
		}
	} else if (*p == 'z') {
		spec->length = LEN_SIZE;
		p++;
	}
	spec->conv = *p;
	spec->ptr_kind = 'p';
	if (*p == 'p' && (p[1] == 'K' || p[1] == 'x'))
		spec->ptr_kind = *++p;
	return p;
}

/* Handles one conversion; false if it is not one we know (the caller prints it verbatim). */
static bool convert(struct sink *s, const struct spec *spec, va_list *ap)
{
	switch (spec->conv) {
	case 'd':
	case 'i':
		put_signed(s, spec, get_signed(spec, ap));
		return true;
	case 'u':
		put_number(s, spec, "", get_unsigned(spec, ap), false);
		return true;
	case 'x':
		put_number(s, spec, "", get_unsigned(spec, ap), true);
		return true;
	case 'p':
		if (spec->length != LEN_INT)
			return false;
		uintptr_t p = (uintptr_t)va_arg(*ap, void *);
		if (s->ptr)
			p = s->ptr(s->ctx, spec->ptr_kind, p);
		put_number(s, spec, "0x", p, true);
		return true;
	case 's':
		if (spec->length != LEN_INT)
			return false;
		put_string(s, spec, va_arg(*ap, const char *));
		return true;
	case 'c':
		if (spec->length != LEN_INT)
			return false;
		char c = (char)va_arg(*ap, int);
		struct spec spaces = *spec;
		spaces.zero_pad = false;
		put_field(s, &spaces, "", &c, 1);
		return true;
	}
	return false;
}

size_t format_v(format_putc_fn putc, void *ctx, const char *fmt, va_list ap)
{
	return format_vp(putc, 0, ctx, fmt, ap);
}

size_t format_vp(format_putc_fn putc, format_ptr_fn ptr, void *ctx, const char *fmt, va_list ap)
{
	struct sink s = { .putc = putc, .ctx = ctx, .ptr = ptr, .count = 0 };
	va_list args;
	/* A copy so convert() can advance it through a pointer, which a va_list parameter
	 * (an array type on some ABIs) does not allow portably. */
	va_copy(args, ap);
	for (const char *p = fmt; *p; p++) {
		if (*p != '%') {
			put(&s, *p);
			continue;
		}
		const char *start = p;
		struct spec spec;
		p = parse_spec(p + 1, &spec);
		if (spec.conv == '%') {
			put(&s, '%');
			continue;
		}
		if (convert(&s, &spec, &args))
			continue;
		/* Unknown: show it as written so the mistake is visible on the console. */
		for (const char *q = start; q < p; q++)
			put(&s, *q);
		if (*p == '\0')
			break;
		put(&s, *p);
	}
	va_end(args);
	return s.count;
}

size_t format(format_putc_fn putc, void *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t n = format_v(putc, ctx, fmt, ap);
	va_end(ap);
	return n;
}

/* format_buf's sink: keeps the first cap - 1 characters and counts the rest. */
struct buf_sink {
	char *buf;
	size_t cap;
	size_t len;
};

static void buf_putc(void *ctx, char c)
{
	struct buf_sink *b = ctx;
	if (b->len + 1 < b->cap)
		b->buf[b->len] = c;
	b->len++;
}

size_t format_buf(char *buf, size_t cap, const char *fmt, ...)
{
	struct buf_sink b = { .buf = buf, .cap = cap, .len = 0 };
	va_list ap;
	va_start(ap, fmt);
	size_t n = format_v(buf_putc, &b, fmt, ap);
	va_end(ap);
	if (cap > 0)
		buf[n < cap ? n : cap - 1] = '\0';
	return n;
}
