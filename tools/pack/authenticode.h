/*
 * Authenticode signatures for kslide-pack --sign, as Microsoft's "Windows Authenticode Portable
 * Executable Signature Format" specifies them and UEFI's Secure Boot checks them: the PE
 * file's SHA-256 digest (all of it but the checksum, the certificate table's directory entry
 * and the table itself), in an SpcIndirectDataContent, signed as PKCS#7 SignedData with
 * OpenSSL's libcrypto, in a WIN_CERTIFICATE appended to the file. The structure sbsign
 * (sbsigntool) writes; tests/pack/sign.sh holds the two side by side.
 */
#ifndef KSLIDE_TOOLS_PACK_AUTHENTICODE_H
#define KSLIDE_TOOLS_PACK_AUTHENTICODE_H

#include <stddef.h>
#include <stdint.h>

#include "tools/pack/signer.h"

#define AUTHENTICODE_DIGEST_SIZE 32 /* SHA-256 */

/*
 * The Authenticode digest of the PE32+ file (size bytes): the headers up to SizeOfHeaders
 * less the checksum and the certificate table's entry, the sections in file order, then
 * whatever follows them up to the certificate table. 0, or -1 with a message.
 */
int authenticode_digest(const uint8_t *file, size_t size, uint8_t digest[AUTHENTICODE_DIGEST_SIZE],
			char *err, size_t err_cap);

/*
 * Sign the unsigned PE32+ file (*file, *size bytes, malloc'd): the certificate table appended
 * (the file reallocated and *size grown) and named by its directory entry. The PE checksum is
 * the caller's to set again afterwards (it covers the table; the digest does not cover it).
 * 0, or -1 with a message, the file as it was.
 */
int authenticode_sign(uint8_t **file, size_t *size, const struct signer *s, char *err,
		      size_t err_cap);

#endif
