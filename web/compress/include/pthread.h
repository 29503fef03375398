// sinew — see include/sinew.h for version and licence
// <pthread.h> of the wasm compressor: one thread; pthread_create runs the function to completion at once
// (the CLI's batch workers then take every item in turn: the same output as any -j).
#ifndef SINEW_WC_PTHREAD_H
#define SINEW_WC_PTHREAD_H

typedef struct {
	void *result;
} *pthread_t;
typedef struct {
	int unused;
} pthread_mutex_t, pthread_attr_t, pthread_mutexattr_t, pthread_cond_t, pthread_condattr_t;
#define PTHREAD_MUTEX_INITIALIZER {0}
int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg);
int pthread_join(pthread_t thread, void **result);
int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr);
int pthread_mutex_destroy(pthread_mutex_t *m);
int pthread_mutex_lock(pthread_mutex_t *m);
int pthread_mutex_unlock(pthread_mutex_t *m);
// Condition variables for the CLI's pool (tools/cli_pool.c), which starts no worker here (one core): a
// wait would never end, and none happens.
int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr);
int pthread_cond_destroy(pthread_cond_t *c);
int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);
int pthread_cond_broadcast(pthread_cond_t *c);

#endif
