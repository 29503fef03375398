// sinew — see include/sinew.h for version and licence
// ACL raw clip writer (.acl.sjson, version 5, the layout of ACL's acl/io/clip_writer.h and of
// src/import/import_acl.c): one bone per joint in clip order (parents come first), a track per
// bone with every sample, values binary-exact (the hex bits of each double, `is_binary_exact`),
// no `settings` block so ACL's tools apply their defaults (0.01 cm, 3 cm when vertex_distance says
// so). ACL works in centimetres: translations and vertex distances are converted from clip units.
// Scalar tracks are not written (ACL keeps them in separate track-list files).
#include "export_internal.h"

#include <stdio.h>
#include <string.h>

static void put_double(FILE *f, double v) {
	uint64_t bits;
	memcpy(&bits, &v, sizeof bits);
	fprintf(f, "\"%016llX\"", (unsigned long long)bits);
}

static void put_vector(FILE *f, const float *v, int n, double scale) {
	fputs("[ ", f);
	for (int i = 0; i < n; ++i) {
		if (i) fputs(", ", f);
		put_double(f, (double)v[i] * scale);
	}
	fputs(" ]", f);
}

// Text inside an sjson string, kept to characters its reader takes there.
static void put_text(FILE *f, const char *text) {
	for (const char *c = text; *c; ++c) fputc(*c == '"' || *c == '\\' || (unsigned char)*c < 32 ? '_' : *c, f);
}

// ACL names bones and refers to parents by name: names are made unique.
static void put_name(FILE *f, const sinew_clip *clip, uint32_t j) {
	const char *name = clip->joints[j].name;
	bool usable = name && name[0];
	for (uint32_t k = 0; usable && k < j; ++k) usable = !clip->joints[k].name || strcmp(clip->joints[k].name, name) != 0;
	fputc('"', f);
	put_text(f, name && name[0] ? name : "joint");
	if (!usable) fprintf(f, "#%u", j); // '#' keeps it distinct from any name used as is
	fputc('"', f);
}

static bool write_clip(FILE *f, const sinew_clip *clip) {
	const double to_cm = 100.0 / clip->unit_scale;
	fputs("version = 5\n\nclip =\n{\n\tname = ", f);
	fputc('"', f);
	put_text(f, clip->name ? clip->name : "clip");
	fprintf(f, "\"\n\tnum_samples = %u\n\tsample_rate = %.17g\n\tis_binary_exact = true\n}\n\nbones =\n[\n", clip->sample_count,
	        clip->sample_rate);
	for (uint32_t j = 0; j < clip->joint_count; ++j) {
		const sinew_joint *joint = &clip->joints[j];
		const sinew_qvv *bind = &joint->default_pose;
		double shell = joint->shell_distance > 0.0f ? joint->shell_distance * to_cm : SINEW_DEFAULT_SHELL_CM;
		fputs("\t{\n\t\tname = ", f);
		put_name(f, clip, j);
		fputs("\n\t\tparent = ", f);
		if (joint->parent >= 0) put_name(f, clip, (uint32_t)joint->parent);
		else fputs("\"\"", f);
		fprintf(f, "\n\t\tvertex_distance = %.17g", shell); // decimal: ACL reads it so even in binary-exact files
		fputs("\n\t\tbind_rotation = ", f), put_vector(f, bind->rotation, 4, 1.0);
		fputs("\n\t\tbind_translation = ", f), put_vector(f, bind->translation, 3, to_cm);
		fputs("\n\t\tbind_scale = ", f), put_vector(f, bind->scale, 3, 1.0);
		fputs("\n\t}\n", f);
	}
	fputs("]\n\ntracks =\n[\n", f);
	static const char *const kinds[3] = {"rotations", "translations", "scales"};
	for (uint32_t j = 0; j < clip->joint_count; ++j) {
		fputs("\t{\n\t\tname = ", f);
		put_name(f, clip, j);
		fputc('\n', f);
		for (int k = 0; k < 3; ++k) {
			fprintf(f, "\t\t%s =\n\t\t[\n", kinds[k]);
			for (uint32_t s = 0; s < clip->sample_count; ++s) {
				const sinew_qvv *x = &clip->transforms[(size_t)s * clip->joint_count + j];
				fputs("\t\t\t", f);
				if (k == 0) put_vector(f, x->rotation, 4, 1.0);
				else put_vector(f, k == 1 ? x->translation : x->scale, 3, k == 1 ? to_cm : 1.0);
				fputc('\n', f);
			}
			fputs("\t\t]\n", f);
		}
		fputs("\t}\n", f);
	}
	fputs("]\n", f);
	return !ferror(f);
}

sinew_result sinew_export_acl(const sinew_clip *clip, const char *path, sinew_error *error) {
	SINEWI_CHECK(clip && path, error, SINEW_RESULT_INVALID_ARGUMENT, "export_acl: NULL argument");
	SINEWI_TRY(sinew_clip_validate(clip, error));
	SINEWI_CHECK(clip->joint_count > 0, error, SINEW_RESULT_UNSUPPORTED,
	             "export_acl: clip '%s' has no joints (ACL raw clips hold transforms only)", clip->name ? clip->name : "");
	SINEWI_CHECK(clip->time_mark_count == 0, error, SINEW_RESULT_UNSUPPORTED,
	             "export_acl: clip '%s' is sampled off a uniform grid (%u time marks); ACL clips are uniform: import it "
	             "with a sample rate (--rate)", clip->name ? clip->name : "", clip->time_mark_count);
	sinewi_export_file out;
	SINEWI_TRY(sinewi_export_open(path, &out, error));
	return sinewi_export_close(&out, write_clip(out.f, clip), error);
}
