// sinew — see include/sinew.h for version and licence
// JSON writing helpers of the glTF writer (over sinewi_json_writer, import/json.h) and base64: the .gltf's
// embedded buffer, and data: URIs of a source document.
#include "export_gltf.h"

void sinewi_jw_key(sinewi_json_writer *w, bool *first, const char *name) {
	if (!*first) sinewi_json_write_raw(w, ",", 1);
	*first = false;
	sinewi_json_write_string(w, name);
	sinewi_json_write_raw(w, ":", 1);
}

void sinewi_jw_floats(sinewi_json_writer *w, const float *v, uint32_t n) {
	sinewi_json_write_raw(w, "[", 1);
	for (uint32_t i = 0; i < n; ++i) {
		if (i) sinewi_json_write_raw(w, ",", 1);
		sinewi_jw_num(w, (double)v[i]);
	}
	sinewi_json_write_raw(w, "]", 1);
}

void sinewi_jw_pad(sinewi_json_writer *w, size_t align, char fill) {
	while (w->size % align && !w->failed) sinewi_json_write_raw(w, &fill, 1);
}

void sinewi_jw_trs(sinewi_json_writer *w, bool *first, const sinewi_rest_trs *r) {
	if (r->t[0] != 0.0f || r->t[1] != 0.0f || r->t[2] != 0.0f)
		sinewi_jw_key(w, first, "translation"), sinewi_jw_floats(w, r->t, 3);
	if (r->r[0] != 0.0f || r->r[1] != 0.0f || r->r[2] != 0.0f || r->r[3] != 1.0f)
		sinewi_jw_key(w, first, "rotation"), sinewi_jw_floats(w, r->r, 4);
	if (r->s[0] != 1.0f || r->s[1] != 1.0f || r->s[2] != 1.0f)
		sinewi_jw_key(w, first, "scale"), sinewi_jw_floats(w, r->s, 3);
}

/* ---- base64 ---- */

static const char b64_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void sinewi_jw_base64(sinewi_json_writer *w, const unsigned char *data, size_t size) {
	char chunk[1024];
	size_t n = 0;
	for (size_t i = 0; i < size; i += 3) {
		uint32_t v = (uint32_t)data[i] << 16;
		if (i + 1 < size) v |= (uint32_t)data[i + 1] << 8;
		if (i + 2 < size) v |= data[i + 2];
		chunk[n++] = b64_chars[v >> 18 & 63];
		chunk[n++] = b64_chars[v >> 12 & 63];
		chunk[n++] = i + 1 < size ? b64_chars[v >> 6 & 63] : '=';
		chunk[n++] = i + 2 < size ? b64_chars[v & 63] : '=';
		if (n + 4 > sizeof chunk) sinewi_json_write_raw(w, chunk, n), n = 0;
	}
	if (n) sinewi_json_write_raw(w, chunk, n);
}

static int b64_value(unsigned char c) {
	if (c >= 'A' && c <= 'Z') return c - 'A';
	if (c >= 'a' && c <= 'z') return c - 'a' + 26;
	if (c >= '0' && c <= '9') return c - '0' + 52;
	if (c == '+' || c == '-') return 62;
	if (c == '/' || c == '_') return 63;
	return -1;
}

bool sinewi_base64_decode(const char *text, size_t length, unsigned char *out, size_t *out_size) {
	while (length && text[length - 1] == '=') --length;
	uint32_t acc = 0;
	int bits = 0;
	size_t n = 0;
	for (size_t i = 0; i < length; ++i) {
		int v = b64_value((unsigned char)text[i]);
		if (v < 0) return false;
		acc = (acc << 6 | (uint32_t)v) & 0xffffff;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[n++] = (unsigned char)(acc >> bits);
		}
	}
	*out_size = n;
	return true;
}
