// sinew — see include/sinew.h for version and licence
// <time.h> of the wasm compressor: clocks from the host's performance.now() (the module's one import).
#ifndef SINEW_WC_TIME_H
#define SINEW_WC_TIME_H

typedef long long time_t;
typedef int clockid_t;
struct timespec {
	time_t tv_sec;
	long tv_nsec;
};
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
int clock_gettime(clockid_t clock, struct timespec *out);
time_t time(time_t *out);
int nanosleep(const struct timespec *request, struct timespec *remaining);

#endif
