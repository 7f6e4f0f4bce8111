/*
 * Authenticode signing (authenticode.h). The digest follows the specification's steps
 * ("Calculating the PE Image Hash") on any PE32+; the signature is built as sbsign builds it
 * (sbsigntool's idc.c), since that is what distributions sign their EFI binaries with and what
 * OVMF, shim and sbverify accept:
 *
 *   WIN_CERTIFICATE { dwLength, 0x0200, PKCS_SIGNED_DATA,
 *     ContentInfo SignedData {
 *       contentType 1.3.6.1.4.1.311.2.1.4 (SpcIndirectDataContent):
 *         SEQUENCE { SpcAttributeTypeAndOptionalValue { 1.3.6.1.4.1.311.2.1.15 (PE image),
 *                                                       SpcPeImageData }
 *                    DigestInfo { sha256, the PE digest } }
 *       signerInfo: signed attributes contentType (that OID) and messageDigest (SHA-256 of
 *         the SpcIndirectDataContent's value, its tag and length left out), then RSA } }
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pkcs7.h>
#include <openssl/x509.h>

#include "include/protocol/uefi.h"
#include "lib/unaligned.h"
#include "tools/pack/authenticode.h"
#include "tools/pack/fail.h"

#define SPC_INDIRECT_DATA_OID "1.3.6.1.4.1.311.2.1.4"
#define MAX_SECTIONS	      96 /* the PE loader's own limit (PE Format, COFF header) */

/*
 * SpcIndirectDataContent for a PE image, DER, the digest last. SpcPeImageData is what every
 * signer writes: no flags, and the file link "<<<Obsolete>>>" as a BMPString.
 */
/* clang-format off */
static const uint8_t idc_head[] = {
	0x30, 0x68,				/* SpcIndirectDataContent, 104 bytes */
	0x30, 0x33,				/*   SpcAttributeTypeAndOptionalValue */
	0x06, 0x0a, 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x02, 0x01, 0x0f,
	0x30, 0x25,				/*     SpcPeImageData */
	0x03, 0x01, 0x00,			/*       flags: an empty BIT STRING */
	0xa0, 0x20, 0xa2, 0x1e, 0x80, 0x1c,	/*       [0] SpcLink [2] file [0] unicode */
	0x00, '<', 0x00, '<', 0x00, '<', 0x00, 'O', 0x00, 'b', 0x00, 's', 0x00, 'o',
	0x00, 'l', 0x00, 'e', 0x00, 't', 0x00, 'e', 0x00, '>', 0x00, '>', 0x00, '>',
	0x30, 0x31,				/*   DigestInfo */
	0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00,
	0x04, 0x20,				/*     the digest: SHA-256's 32 bytes */
};
/* clang-format on */
#define IDC_SIZE       (sizeof(idc_head) + AUTHENTICODE_DIGEST_SIZE)
#define IDC_VALUE_SKIP 2 /* the outer SEQUENCE's tag and one-byte length */
_Static_assert(IDC_SIZE == 2 + 0x68, "the DER lengths above add up");

struct span {
	size_t at, size;
};

/* The spans of the file the digest covers, in order; their count, or -1 with a message. */
static int digest_spans(const uint8_t *file, size_t size, struct span *spans, char *err,
			size_t err_cap)
{
	if (size < PE_DOS_LFANEW + 4 || load_le16(file) != PE_DOS_MAGIC)
		return pack_fail(err, err_cap, "not a PE file (no MZ)");
	size_t coff = (size_t)load_le32(file + PE_DOS_LFANEW) + 4;
	size_t opt = coff + PE_COFF_SIZE;
	if (opt + PE_OPT_SIZE > size || load_le32(file + coff - 4) != PE_SIGNATURE ||
	    load_le16(file + opt) != PE_OPT_MAGIC_PE32PLUS)
		return pack_fail(err, err_cap, "not a PE32+ file");
	size_t checksum = opt + PE_OPT_CHECKSUM;
	size_t dir = opt + PE_OPT_DATA_DIRS + PE_DIR_SECURITY * PE_DIR_SIZE;
	size_t headers = load_le32(file + opt + PE_OPT_SIZE_OF_HEADERS);
	size_t table = load_le32(file + dir), table_size = load_le32(file + dir + 4);
	size_t end = table_size ? table : size; /* the certificates are never hashed */
	size_t count = load_le16(file + coff + 2);
	size_t sections = opt + load_le16(file + coff + 16);
	if (headers < dir + PE_DIR_SIZE || headers > end || end > size ||
	    (table_size && table_size != size - table) || count > MAX_SECTIONS ||
	    sections + count * PE_SECTION_SIZE > headers)
		return pack_fail(err, err_cap,
				 "a PE whose headers, sections and certificate "
				 "table do not fit in it");
	int n = 0;
	spans[n++] = (struct span){ 0, checksum };
	spans[n++] = (struct span){ checksum + 4, dir - checksum - 4 };
	spans[n++] = (struct span){ dir + PE_DIR_SIZE, headers - dir - PE_DIR_SIZE };
	/* The sections with raw data by PointerToRawData (an insertion sort: a handful). */
	int first = n;
	for (size_t i = 0; i < count; i++) {
		const uint8_t *s = file + sections + i * PE_SECTION_SIZE;
		struct span sp = { load_le32(s + 20), load_le32(s + 16) };
		if (!sp.size)
			continue;
		if (sp.at < headers || sp.at > end || sp.size > end - sp.at)
			return pack_fail(err, err_cap, "a PE section outside the file");
		int j = n++;
		for (; j > first && spans[j - 1].at > sp.at; j--)
			spans[j] = spans[j - 1];
		spans[j] = sp;
	}
	size_t hashed = headers;
	for (int i = first; i < n; i++)
		hashed += spans[i].size;
	if (hashed < end) /* what follows the sections, up to the certificate table */
		spans[n++] = (struct span){ hashed, end - hashed };
	return n;
}

int authenticode_digest(const uint8_t *file, size_t size, uint8_t digest[AUTHENTICODE_DIGEST_SIZE],
			char *err, size_t err_cap)
{
	struct span spans[MAX_SECTIONS + 4];
	int n = digest_spans(file, size, spans, err, err_cap);
	if (n < 0)
		return -1;
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	int ok = md && EVP_DigestInit_ex(md, EVP_sha256(), NULL);
	for (int i = 0; ok && i < n; i++)
		ok = EVP_DigestUpdate(md, file + spans[i].at, spans[i].size);
	ok = ok && EVP_DigestFinal_ex(md, digest, NULL);
	EVP_MD_CTX_free(md);
	return ok ? 0 : pack_fail(err, err_cap, "SHA-256 failed");
}

/* The NID of SpcIndirectDataContent's OID, made known to OpenSSL the first time. */
static int idc_nid(void)
{
	int nid = OBJ_txt2nid(SPC_INDIRECT_DATA_OID);
	return nid != NID_undef ? nid
				: OBJ_create(SPC_INDIRECT_DATA_OID, "spcIndirectDataContext",
					     "Indirect Data Context");
}

/*
 * PKCS#7 SignedData over idc, DER (OPENSSL_malloc'd), or NULL. OpenSSL signs only content it
 * knows, so it is given idc's value as plain data to digest and sign, and the content is then
 * replaced by idc itself under its own type, as sbsign does.
 */
static uint8_t *sign_idc(const uint8_t idc[IDC_SIZE], const struct signer *s, int *der_size)
{
	int nid = idc_nid();
	PKCS7 *p7 =
		PKCS7_sign(NULL, NULL, NULL, NULL, PKCS7_BINARY | PKCS7_PARTIAL | PKCS7_DETACHED);
	PKCS7_SIGNER_INFO *si =
		p7 ? PKCS7_sign_add_signer(p7, s->cert, s->key, EVP_sha256(), PKCS7_BINARY) : NULL;
	int ok = si && nid != NID_undef && PKCS7_content_new(p7, NID_pkcs7_data) &&
		 PKCS7_add_signed_attribute(si, NID_pkcs9_contentType, V_ASN1_OBJECT,
					    OBJ_nid2obj(nid));
	BIO *data = ok ? PKCS7_dataInit(p7, NULL) : NULL;
	ok = data &&
	     BIO_write(data, idc + IDC_VALUE_SKIP, IDC_SIZE - IDC_VALUE_SKIP) ==
		     (int)(IDC_SIZE - IDC_VALUE_SKIP) &&
	     PKCS7_dataFinal(p7, data);
	BIO_free_all(data);
	ASN1_STRING *value = ok ? ASN1_STRING_new() : NULL;
	ASN1_TYPE *content = value ? ASN1_TYPE_new() : NULL;
	ok = content && ASN1_STRING_set(value, idc, IDC_SIZE);
	if (ok) {
		ASN1_TYPE_set(content, V_ASN1_SEQUENCE, value); /* content owns value now */
		value = NULL;
		ok = PKCS7_set0_type_other(p7->d.sign->contents, nid, content);
	}
	if (ok)
		content = NULL; /* p7 owns it */
	uint8_t *der = NULL;
	*der_size = ok ? i2d_PKCS7(p7, &der) : -1;
	ASN1_STRING_free(value);
	ASN1_TYPE_free(content);
	PKCS7_free(p7);
	return *der_size > 0 ? der : NULL;
}

int authenticode_sign(uint8_t **file, size_t *size, const struct signer *s, char *err,
		      size_t err_cap)
{
	uint8_t idc[IDC_SIZE];
	memcpy(idc, idc_head, sizeof(idc_head));
	if (authenticode_digest(*file, *size, idc + sizeof(idc_head), err, err_cap))
		return -1;
	size_t dir = load_le32(*file + PE_DOS_LFANEW) + 4 + PE_COFF_SIZE + PE_OPT_DATA_DIRS +
		     PE_DIR_SECURITY * PE_DIR_SIZE;
	if (load_le32(*file + dir + 4))
		return pack_fail(err, err_cap, "internal error: the PE is signed already");
	if (*size % PE_WIN_CERT_ALIGN)
		return pack_fail(err, err_cap, "internal error: the PE's end is not 8-aligned");
	int der_size;
	uint8_t *der = sign_idc(idc, s, &der_size);
	if (!der)
		return pack_fail(err, err_cap, "OpenSSL could not sign the image's digest");
	/* dwLength counts the certificate; the table pads it to the next 8 bytes. */
	size_t length = PE_WIN_CERT_HEADER + (size_t)der_size;
	size_t table = (length + PE_WIN_CERT_ALIGN - 1) / PE_WIN_CERT_ALIGN * PE_WIN_CERT_ALIGN;
	uint8_t *grown = *size + table <= UINT32_MAX ? realloc(*file, *size + table) : NULL;
	if (!grown) {
		OPENSSL_free(der);
		return pack_fail(err, err_cap,
				 "no room for the signature (out of memory, or the "
				 "file would pass 4 GiB)");
	}
	uint8_t *cert = grown + *size;
	memset(cert, 0, table);
	store_le32(cert, (uint32_t)length);
	store_le16(cert + 4, PE_WIN_CERT_REVISION_2_0);
	store_le16(cert + 6, PE_WIN_CERT_TYPE_PKCS_SIGNED_DATA);
	memcpy(cert + PE_WIN_CERT_HEADER, der, (size_t)der_size);
	OPENSSL_free(der);
	store_le32(grown + dir, (uint32_t)*size); /* a file offset, unlike the other entries */
	store_le32(grown + dir + 4, (uint32_t)table);
	*file = grown;
	*size += table;
	return 0;
}
