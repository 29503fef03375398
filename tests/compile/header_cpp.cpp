// sinew — the public header compiles as C++ (extern "C", no C-only constructs).
#include "sinew.h"

int main() {
	sinew_context_options options = {};
	options.random_access = 1;
	return sinew_version_number() == SINEW_VERSION_NUMBER && sinew_error_string(SINEW_RESULT_OK) && options.random_access ? 0 : 1;
}
