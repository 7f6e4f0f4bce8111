/*
 * The key material of kslide-pack --sign KEY --cert CERT [--key-pass FILE]: a PEM private key,
 * a PEM X.509 certificate whose public key is that key's, and for an encrypted key its
 * passphrase, the first line of FILE (never asked for on a terminal: a build runs unattended).
 * Read once, before packing, so that a bad key costs no packing.
 */
#ifndef KSLIDE_TOOLS_PACK_SIGNER_H
#define KSLIDE_TOOLS_PACK_SIGNER_H

#include <stddef.h>

struct signer {
	struct evp_pkey_st *key; /* OpenSSL's EVP_PKEY and X509, by their struct names */
	struct x509_st *cert;
};

/*
 * Load key and cert (pass_path: the passphrase's file, or NULL). 0, or -1 with a message that
 * names the file at fault: missing or unreadable, not PEM, encrypted without --key-pass, a
 * wrong passphrase, or a key that is not the certificate's.
 */
int signer_load(struct signer *s, const char *key_path, const char *cert_path,
		const char *pass_path, char *err, size_t err_cap);

void signer_free(struct signer *s);

#endif
