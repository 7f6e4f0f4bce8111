/*
 * A histogram of the bases over the allowed range, one panel per base (physical, and virtual
 * when it is drawn on its own), with the count a uniform choice would give and a band of two
 * standard deviations around it. PNG or SVG by the file name's extension, through cairo.
 */
#ifndef KSLIDE_TOOLS_STAT_PLOT_H
#define KSLIDE_TOOLS_STAT_PLOT_H

#include <stddef.h>
#include <stdint.h>

#include "tools/stat/layout.h"

#define PLOT_PANELS_MAX 2

struct plot_panel {
	const char *label;	    /* "physical base" */
	const struct slot_set *set; /* the slots the base is drawn from */
	const uint64_t *index;	    /* each sample's slot index */
	size_t n;
};

/* Write the picture to 'path' atomically. 0, or -1 with *why set. */
int plot_write(const char *path, const char *title, const struct plot_panel *panels, size_t count,
	       const char **why);

#endif
