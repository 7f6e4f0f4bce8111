/* The TPM 2.0 event log's entry sizes (lib/tcg2_log.h). Every length is read from the log,
 * so each is checked against what is readable before it is used. */
#include "lib/tcg2_log.h"

#include "include/protocol/tcg2.h"
#include "lib/unaligned.h"

uint64_t tcg2_first_event_size(const uint8_t *first, uint64_t avail)
{
	if (avail < TCG_PCR_EVENT_DATA_AT)
		return 0;
	uint64_t data_size = load_le32(first + TCG_PCR_EVENT_DATA_SIZE_AT);
	if (data_size > avail - TCG_PCR_EVENT_DATA_AT ||
	    data_size < TCG_SPEC_ID_ALGORITHMS_AT + 4)
		return 0;
	const uint8_t *spec = first + TCG_PCR_EVENT_DATA_AT;
	static const char signature[TCG_SPEC_ID_SIGNATURE_SIZE] = TCG_SPEC_ID_SIGNATURE;
	for (unsigned i = 0; i < TCG_SPEC_ID_SIGNATURE_SIZE; i++)
		if (spec[i] != (uint8_t)signature[i])
			return 0;
	uint64_t algorithms = load_le32(spec + TCG_SPEC_ID_ALGORITHMS_AT);
	if (algorithms > (data_size - TCG_SPEC_ID_ALGORITHMS_AT - 4) / 4)
		return 0;
	return TCG_PCR_EVENT_DATA_AT + data_size;
}

/* The digest size the Spec ID event gives algorithm id; 0 when it names none. */
static uint32_t digest_size(const uint8_t *first, uint16_t id)
{
	const uint8_t *spec = first + TCG_PCR_EVENT_DATA_AT;
	uint32_t algorithms = load_le32(spec + TCG_SPEC_ID_ALGORITHMS_AT);
	for (uint32_t i = 0; i < algorithms; i++) {
		const uint8_t *a = spec + TCG_SPEC_ID_ALGORITHMS_AT + 4 + 4 * i;
		if (load_le16(a) == id)
			return load_le16(a + 2);
	}
	return 0;
}

uint64_t tcg2_event_size(const uint8_t *event, uint64_t avail, const uint8_t *first,
			 uint64_t first_size)
{
	if (first_size == 0 || tcg2_first_event_size(first, first_size) != first_size)
		return 0;
	if (avail < TCG_PCR_EVENT2_DIGESTS_AT)
		return 0;
	uint32_t count = load_le32(event + TCG_PCR_EVENT2_COUNT_AT);
	if (count > load_le32(first + TCG_PCR_EVENT_DATA_AT + TCG_SPEC_ID_ALGORITHMS_AT))
		return 0;
	uint64_t at = TCG_PCR_EVENT2_DIGESTS_AT;
	for (uint32_t i = 0; i < count; i++) {
		if (avail - at < 2)
			return 0;
		uint32_t size = digest_size(first, load_le16(event + at));
		if (size == 0 || avail - at - 2 < size)
			return 0;
		at += 2 + size;
	}
	if (avail - at < 4)
		return 0;
	uint64_t data_size = load_le32(event + at);
	at += 4;
	if (data_size > avail - at)
		return 0;
	return at + data_size;
}
