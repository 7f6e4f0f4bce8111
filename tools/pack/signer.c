/* kslide-pack --sign's key and certificate (signer.h), read with OpenSSL's libcrypto. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "tools/pack/fail.h"
#include "tools/pack/signer.h"

#define PASS_MAX 1024 /* PEM_BUFSIZE, OpenSSL's own bound on a passphrase */

/* What the passphrase callback was given, and whether it was asked at all. */
struct passphrase {
	char text[PASS_MAX];
	int given;
	int asked;
};

/* OpenSSL asks for the passphrase only when the key is encrypted; without --key-pass the
 * answer is "none" (-1), never a prompt on the terminal. */
static int answer(char *buf, int size, int rwflag, void *u)
{
	(void)rwflag;
	struct passphrase *p = u;
	p->asked = 1;
	size_t n = strlen(p->text);
	if (!p->given || n > (size_t)size)
		return -1;
	memcpy(buf, p->text, n);
	return (int)n;
}

/* The first line of path, without its newline. 0, or -1 with a message. */
static int read_passphrase(const char *path, struct passphrase *p, char *err, size_t err_cap)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return pack_fail(err, err_cap, "%s: %s", path, strerror(errno));
	int ok = fgets(p->text, sizeof(p->text), f) != NULL;
	fclose(f);
	if (!ok)
		return pack_fail(err, err_cap,
				 "%s: empty: --key-pass reads the passphrase from "
				 "its first line",
				 path);
	p->text[strcspn(p->text, "\r\n")] = '\0';
	p->given = 1;
	return 0;
}

/* OpenSSL's reason for the last failure, for the end of a message. */
static const char *why(void)
{
	const char *r = ERR_reason_error_string(ERR_peek_last_error());
	return r ? r : "no reason given";
}

static int load_key(struct signer *s, const char *path, struct passphrase *p, char *err,
		    size_t err_cap)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return pack_fail(err, err_cap, "%s: %s", path, strerror(errno));
	ERR_clear_error();
	s->key = PEM_read_PrivateKey(f, NULL, answer, p);
	fclose(f);
	if (s->key)
		return 0;
	if (p->asked && !p->given)
		return pack_fail(err, err_cap,
				 "%s: the key is encrypted: give its passphrase with --key-pass "
				 "FILE (the file's first line)",
				 path);
	if (p->asked)
		return pack_fail(err, err_cap,
				 "%s: cannot decrypt the key with the passphrase "
				 "--key-pass gave (%s)",
				 path, why());
	return pack_fail(err, err_cap, "%s: not a PEM private key (%s)", path, why());
}

static int load_cert(struct signer *s, const char *path, char *err, size_t err_cap)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return pack_fail(err, err_cap, "%s: %s", path, strerror(errno));
	ERR_clear_error();
	s->cert = PEM_read_X509(f, NULL, NULL, NULL);
	fclose(f);
	return s->cert ? 0
		       : pack_fail(err, err_cap, "%s: not a PEM X.509 certificate (%s)", path,
				   why());
}

int signer_load(struct signer *s, const char *key_path, const char *cert_path,
		const char *pass_path, char *err, size_t err_cap)
{
	struct passphrase p = { .given = 0, .asked = 0 };
	p.text[0] = '\0';
	s->key = NULL;
	s->cert = NULL;
	int rc = pass_path ? read_passphrase(pass_path, &p, err, err_cap) : 0;
	if (!rc)
		rc = load_key(s, key_path, &p, err, err_cap);
	if (!rc)
		rc = load_cert(s, cert_path, err, err_cap);
	if (!rc && X509_check_private_key(s->cert, s->key) != 1)
		rc = pack_fail(err, err_cap,
			       "%s: not the key of the certificate %s (its public key is "
			       "another's)",
			       key_path, cert_path);
	OPENSSL_cleanse(p.text, sizeof(p.text));
	if (rc)
		signer_free(s);
	return rc;
}

void signer_free(struct signer *s)
{
	EVP_PKEY_free(s->key);
	X509_free(s->cert);
	s->key = NULL;
	s->cert = NULL;
}
