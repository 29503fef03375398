// sinew — see include/sinew.h for version and licence
// Whitespace tokenizer for the line-oriented text formats (BVH, ASF, AMC): tokens carry their line
// number, numbers are parsed strictly (the whole token, decimal only, finite). Input is a byte range
// that need not be NUL-terminated; any byte that is not a separator is part of a token.
#ifndef SINEW_IMPORT_TEXT_SCAN_H
#define SINEW_IMPORT_TEXT_SCAN_H

#include "../core/base.h"

typedef struct sinewi_token {
	const char *text;
	size_t length;
	size_t line; // 1-based line of the token
	bool first_on_line; // no token before it on its line
} sinewi_token;

typedef struct sinewi_scanner {
	const char *cur, *end;
	size_t line;
	bool at_line_start; // no token returned yet on the current line
	bool hash_comments; // '#' starts a comment that runs to the end of the line (ASF/AMC)
	bool paren_is_space; // '(', ')' and ',' separate tokens like spaces (ASF limits)
} sinewi_scanner;

void sinewi_scan_init(sinewi_scanner *s, const unsigned char *data, size_t size);
// Next token, crossing line breaks. Returns false at the end of the input.
bool sinewi_scan_next(sinewi_scanner *s, sinewi_token *tok);
// Next token on the current line. Returns false at the end of the line (not consumed) or input.
bool sinewi_scan_next_on_line(sinewi_scanner *s, sinewi_token *tok);
// Moves past the end of the current line.
void sinewi_scan_skip_line(sinewi_scanner *s);
// True when the scanner has reached the end of the input (ignoring trailing separators and comments).
bool sinewi_scan_at_end(sinewi_scanner *s);

bool sinewi_token_is(const sinewi_token *tok, const char *word); // exact match
bool sinewi_token_is_nocase(const sinewi_token *tok, const char *word); // ASCII case-insensitive

// Parses the whole token as a finite decimal number: [+-]digits[.digits][(e|E)[+-]digits] (also ".5",
// "5."). Rejects hex, inf, nan, overflow to infinity and trailing characters. Correctly rounded.
bool sinewi_token_number(const sinewi_token *tok, double *out);
// Parses the whole token as an unsigned decimal integer no larger than `max`.
bool sinewi_token_uint(const sinewi_token *tok, uint64_t max, uint64_t *out);
// Number of digits after the decimal point of a number token without exponent; -1 otherwise.
int sinewi_token_decimals(const sinewi_token *tok);

// Copies a token into `buffer` for messages, truncated with "..." and non-printable bytes as '?'.
const char *sinewi_token_quote(const sinewi_token *tok, char *buffer, size_t size);

#endif
