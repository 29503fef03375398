/* sinew — the public header compiles alone as C99 and C11 (CI: .ci/run). */
#include "sinew.h"

int main(void) {
	sinew_error error = {SINEW_RESULT_OK, {0}};
	sinew_compress_options options = {0.01, 3.0, SINEW_LEVEL_DEFAULT, 0, 0, 0, 0, {0}, 0, 0, NULL, NULL, NULL, NULL};
	(void)options;
	return sinew_version_number() == SINEW_VERSION_NUMBER && error.code == SINEW_RESULT_OK ? 0 : 1;
}
