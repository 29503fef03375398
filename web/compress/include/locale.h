// sinew — see include/sinew.h for version and licence
// <locale.h> of the wasm compressor: the C locale only.
#ifndef SINEW_WC_LOCALE_H
#define SINEW_WC_LOCALE_H

#include <stddef.h>

struct lconv {
	char *decimal_point;
	char *thousands_sep;
	char *grouping;
};
#define LC_ALL 6
#define LC_NUMERIC 1
struct lconv *localeconv(void);
char *setlocale(int category, const char *locale);

#endif
