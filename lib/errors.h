/* Status codes shared by every lib/ function: 0 is success, failures are negative. */
#ifndef KSLIDE_LIB_ERRORS_H
#define KSLIDE_LIB_ERRORS_H

enum ks_status {
	KS_OK = 0,
	KS_EINVAL = -1,    /* an argument breaks the function's contract */
	KS_ERANGE = -2,    /* an entry points outside the buffer it describes */
	KS_ENOSPC = -3,    /* the caller's fixed-size table is too small */
	KS_EOVERFLOW = -4, /* a result does not fit its type */
	KS_EFORMAT = -5,   /* encoded data is malformed or truncated */
	KS_ENOENT = -6,    /* nothing matched (no slot, no such key) */
	KS_EORDER = -7,    /* valid, but not in the order a one-pass reader needs */
};

/* A short English description, never NULL. */
const char *ks_strerror(int status);

#endif
