/* The histogram picture (see plot.h), drawn with cairo. */
#include <cairo/cairo-svg.h>
#include <cairo/cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tools/common/atomic_file.h"
#include "tools/stat/plot.h"

#define WIDTH	      1000.0
#define PANEL_HEIGHT  360.0
#define TITLE_HEIGHT  40.0
#define MARGIN_LEFT   70.0
#define MARGIN_RIGHT  20.0
#define MARGIN_TOP    30.0
#define MARGIN_BOTTOM 50.0
#define PER_BAR	      10 /* expected samples per bar */
#define BARS_MIN      20
#define BARS_MAX      400
#define X_TICKS	      8
#define Y_TICKS	      5
#define MIB	      (1024.0 * 1024.0)

static void text(cairo_t *cr, double x, double y, double size, const char *s, double anchor)
{
	cairo_text_extents_t e;
	cairo_set_font_size(cr, size);
	cairo_text_extents(cr, s, &e);
	cairo_move_to(cr, x - anchor * e.width, y);
	cairo_show_text(cr, s);
}

/*
 * Bars of 'group' consecutive slots (the last may hold fewer), about PER_BAR expected samples
 * each, so that uniformity shows as bars of even height rather than as noise.
 */
static uint64_t group_size(uint64_t slots, size_t n)
{
	uint64_t bars = (uint64_t)n / PER_BAR;
	bars = bars < BARS_MIN ? BARS_MIN : bars > BARS_MAX ? BARS_MAX : bars;
	return bars >= slots ? 1 : (slots + bars - 1) / bars;
}

static double bar_slots(uint64_t j, uint64_t group, uint64_t slots)
{
	uint64_t first = j * group;
	return (double)(slots - first < group ? slots - first : group);
}

/* Address of slot 'index', for the axis labels. */
static uint64_t slot_address(const struct slot_set *set, uint64_t index)
{
	for (size_t i = 0; i < set->spans; i++) {
		if (index < set->count[i])
			return set->first[i] + index * set->align;
		index -= set->count[i];
	}
	return 0;
}

/* "816 MiB", "1.5 GiB", "+96.0 TiB": short enough for a tick. */
static void size_label(char *buf, size_t cap, const char *sign, uint64_t v)
{
	double d = (double)v;
	if (d >= 1024 * 1024 * MIB)
		snprintf(buf, cap, "%s%.1f TiB", sign, d / (1024 * 1024 * MIB));
	else if (d >= 16 * 1024 * MIB)
		snprintf(buf, cap, "%s%.1f GiB", sign, d / (1024 * MIB));
	else
		snprintf(buf, cap, "%s%.0f MiB", sign, d / MIB);
}

/* Where a panel's histogram lies on the page: bars of 'group' slots, counts up to ymax. */
struct frame {
	double x0, x1, y0, y1, ymax;
	uint64_t group, slots;
};

/* Bar j spans slots [j * group, (j + 1) * group), placed by slot so partial bars are narrow. */
static double frame_x(const struct frame *f, uint64_t j)
{
	uint64_t slot = j * f->group < f->slots ? j * f->group : f->slots;
	return f->x0 + (double)slot * (f->x1 - f->x0) / (double)f->slots;
}

static double frame_y(const struct frame *f, double v)
{
	return f->y0 - v / f->ymax * (f->y0 - f->y1);
}

/* The uniform band (about 95% of uniform draws stay in it, bar by bar), the bars of count[k],
 * and the uniform expectation. */
static void draw_bars(cairo_t *cr, const struct frame *f, const double *count, uint64_t k,
		      size_t n)
{
	cairo_set_source_rgb(cr, 0.85, 0.90, 0.97);
	for (uint64_t j = 0; j < k; j++) {
		double q = bar_slots(j, f->group, f->slots) / (double)f->slots;
		double e = (double)n * q, sd = sqrt(e * (1 - q));
		double lo = fmax(0, e - 2 * sd), hi = e + 2 * sd;
		cairo_rectangle(cr, frame_x(f, j), frame_y(f, hi), frame_x(f, j + 1) - frame_x(f, j),
				frame_y(f, lo) - frame_y(f, hi));
	}
	cairo_fill(cr);

	cairo_set_source_rgb(cr, 0.20, 0.35, 0.65);
	for (uint64_t j = 0; j < k; j++) {
		double w = frame_x(f, j + 1) - frame_x(f, j);
		if (count[j] > 0)
			cairo_rectangle(cr, frame_x(f, j) + (w > 3 ? 0.5 : 0), frame_y(f, count[j]),
					w > 3 ? w - 1 : w, f->y0 - frame_y(f, count[j]));
	}
	cairo_fill(cr);

	cairo_set_source_rgb(cr, 0.80, 0.15, 0.10);
	cairo_set_line_width(cr, 1.5);
	for (uint64_t j = 0; j < k; j++) {
		double e = (double)n * bar_slots(j, f->group, f->slots) / (double)f->slots;
		if (j == 0)
			cairo_move_to(cr, frame_x(f, j), frame_y(f, e));
		cairo_line_to(cr, frame_x(f, j), frame_y(f, e));
		cairo_line_to(cr, frame_x(f, j + 1), frame_y(f, e));
	}
	cairo_stroke(cr);
}

/* The axes, their ticks and labels, and the panel's title. */
static void draw_axes(cairo_t *cr, const struct frame *f, const struct plot_panel *p)
{
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, f->x0, f->y1);
	cairo_line_to(cr, f->x0, f->y0);
	cairo_line_to(cr, f->x1, f->y0);
	cairo_stroke(cr);
	char buf[128];
	for (int t = 0; t <= Y_TICKS; t++) {
		double v = f->ymax * t / Y_TICKS;
		snprintf(buf, sizeof(buf), "%.0f", v);
		text(cr, f->x0 - 6, frame_y(f, v) + 4, 11, buf, 1);
	}
	/* addresses above 4 GiB (x86-64 virtual) read better as offsets from the first slot */
	uint64_t slots = f->slots, origin = slot_address(p->set, 0);
	int relative = slot_address(p->set, slots - 1) >= (1ull << 32);
	for (int t = 0; t <= X_TICKS; t++) {
		uint64_t idx = (uint64_t)((double)(slots - 1) * t / X_TICKS);
		double x = f->x0 + ((double)idx + 0.5) * (f->x1 - f->x0) / (double)slots;
		uint64_t a = slot_address(p->set, idx);
		size_label(buf, sizeof(buf), relative ? "+" : "", relative ? a - origin : a);
		text(cr, x, f->y0 + 16, 11, buf, t == 0 ? 0 : t == X_TICKS ? 1 : 0.5);
	}
	if (relative)
		snprintf(buf, sizeof(buf), "base address, from 0x%llx", (unsigned long long)origin);
	else
		snprintf(buf, sizeof(buf), "base address");
	text(cr, (f->x0 + f->x1) / 2, f->y0 + 36, 12, buf, 0.5);
	snprintf(buf, sizeof(buf),
		 "%s: %zu samples over %llu slots, %llu per bar; red: uniform expectation, "
		 "blue band: +- 2 sd",
		 p->label, p->n, (unsigned long long)slots, (unsigned long long)f->group);
	text(cr, f->x0, f->y1 - 10, 12, buf, 0);
}

static void draw_panel(cairo_t *cr, const struct plot_panel *p, double top)
{
	uint64_t slots = p->set->total;
	uint64_t group = group_size(slots, p->n);
	uint64_t k = slots ? (slots + group - 1) / group : 0;
	double *count = calloc(k ? k : 1, sizeof(*count));
	if (!count || slots == 0) {
		free(count);
		return;
	}
	for (size_t i = 0; i < p->n; i++)
		count[p->index[i] / group]++;
	double top_value = 0;
	for (uint64_t j = 0; j < k; j++) {
		double q = bar_slots(j, group, slots) / (double)slots;
		double e = (double)p->n * q, sd = sqrt(e * (1 - q));
		top_value = fmax(top_value, fmax(e + 2 * sd, count[j]));
	}
	double step = ceil(top_value * 1.1 / Y_TICKS);
	struct frame f = {
		.x0 = MARGIN_LEFT,
		.x1 = WIDTH - MARGIN_RIGHT,
		.y0 = top + PANEL_HEIGHT - MARGIN_BOTTOM,
		.y1 = top + MARGIN_TOP,
		.ymax = (step < 1 ? 1 : step) * Y_TICKS,
		.group = group,
		.slots = slots,
	};
	draw_bars(cr, &f, count, k, p->n);
	draw_axes(cr, &f, p);
	free(count);
}

static void draw(cairo_t *cr, const char *title, const struct plot_panel *panels, size_t count)
{
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_source_rgb(cr, 0, 0, 0);
	text(cr, WIDTH / 2, 26, 15, title, 0.5);
	for (size_t i = 0; i < count; i++)
		draw_panel(cr, &panels[i], TITLE_HEIGHT + (double)i * PANEL_HEIGHT);
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcasecmp(s + n - m, suffix);
}

static cairo_status_t write_to_file(void *closure, const unsigned char *data, unsigned int length)
{
	return fwrite(data, 1, length, closure) == length ? CAIRO_STATUS_SUCCESS
							  : CAIRO_STATUS_WRITE_ERROR;
}

int plot_write(const char *path, const char *title, const struct plot_panel *panels, size_t count,
	       const char **why)
{
	static char err[512];
	int svg = has_suffix(path, ".svg");
	if (!svg && !has_suffix(path, ".png")) {
		*why = "the picture's name must end in .png or .svg";
		return -1;
	}
	struct atomic_file out;
	if (atomic_file_open(&out, path, 0666, err, sizeof(err))) {
		*why = err;
		return -1;
	}
	double height = TITLE_HEIGHT + PANEL_HEIGHT * (double)count;
	cairo_surface_t *s =
		svg ? cairo_svg_surface_create_for_stream(write_to_file, out.f, WIDTH, height)
		    : cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)WIDTH, (int)height);
	cairo_t *cr = cairo_create(s);
	draw(cr, title, panels, count);
	cairo_destroy(cr);
	cairo_status_t st = svg ? (cairo_surface_finish(s), cairo_surface_status(s))
				: cairo_surface_write_to_png_stream(s, write_to_file, out.f);
	cairo_surface_destroy(s);
	if (st != CAIRO_STATUS_SUCCESS) {
		*why = cairo_status_to_string(st);
		atomic_file_discard(&out);
		return -1;
	}
	if (atomic_file_commit(&out, err, sizeof(err))) {
		*why = err;
		return -1;
	}
	return 0;
}
