/* Text for the status codes in errors.h. */
#include "lib/errors.h"

const char *ks_strerror(int status)
{
	switch (status) {
	case KS_OK:
		return "success";
	case KS_EINVAL:
		return "invalid argument";
	case KS_ERANGE:
		return "out of bounds";
	case KS_ENOSPC:
		return "table too small";
	case KS_EOVERFLOW:
		return "arithmetic overflow";
	case KS_EFORMAT:
		return "malformed data";
	case KS_ENOENT:
		return "not found";
	case KS_EORDER:
		return "out of order";
	}
	return "unknown error";
}
