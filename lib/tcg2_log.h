/*
 * The TPM 2.0 crypto-agile event log (include/protocol/tcg2.h): the size of its entries, which
 * the log does not record. The firmware's GetEventLog names only where the last entry starts,
 * and Linux needs the log's whole length (and that of any final events it must skip), so the
 * EFI stub sizes entries as Linux's own stub does (__calc_tpm2_event_size): each digest's
 * length comes from the log's first entry, the Spec ID event.
 */
#ifndef KSLIDE_LIB_TCG2_LOG_H
#define KSLIDE_LIB_TCG2_LOG_H

#include <stdint.h>

/* The bytes of the log's first entry (a TCG_PCR_EVENT carrying the Spec ID event) at first,
 * of which avail are readable: 0 when it is not one or does not fit. */
uint64_t tcg2_first_event_size(const uint8_t *first, uint64_t avail);

/* The bytes of the TCG_PCR_EVENT2 at event (avail readable), its digests sized by the Spec ID
 * event at first (first_size bytes, as tcg2_first_event_size measured it): 0 when the entry
 * is malformed, names an algorithm the Spec ID event does not, or does not fit. */
uint64_t tcg2_event_size(const uint8_t *event, uint64_t avail, const uint8_t *first,
			 uint64_t first_size);

#endif
