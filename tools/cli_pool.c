// sinew — see include/sinew.h for version and licence
// The CLI's thread pool behind sinew_jobs (-j): threads - 1 workers that wait for a batch of tasks; the
// calling thread takes tasks too, and run() returns when the batch is done. One batch at a time.
#include "cli_pool.h"

#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#if !CLI_THREADS
struct cli_pool {
	unsigned unused;
};

static void run(void *user, void (*task)(void *arg, uint32_t index), void *arg, uint32_t count) {
	(void)user;
	for (uint32_t i = 0; i < count; ++i) task(arg, i);
}

unsigned cli_pool_default_threads(void) {
	return 1;
}

cli_pool *cli_pool_create(unsigned threads) {
	(void)threads;
	return (cli_pool *)calloc(1, sizeof(cli_pool));
}

void cli_pool_destroy(cli_pool *p) {
	free(p);
}
#else
#include <pthread.h>

struct cli_pool {
	pthread_mutex_t lock;
	pthread_cond_t work, finished;
	pthread_t *threads;
	unsigned thread_count;       // workers started
	uint64_t generation;         // batches handed out
	bool stop;
	void (*task)(void *arg, uint32_t index);
	void *arg;
	uint32_t count, next, done; // the batch: size, next index to take, tasks finished
};

// Takes and runs the batch's tasks until none is left; called with the lock held, returns with it held.
static void drain(cli_pool *p) {
	while (p->next < p->count) {
		uint32_t i = p->next++;
		void (*task)(void *, uint32_t) = p->task;
		void *arg = p->arg;
		pthread_mutex_unlock(&p->lock);
		task(arg, i);
		pthread_mutex_lock(&p->lock);
		if (++p->done == p->count) pthread_cond_broadcast(&p->finished);
	}
}

static void *worker(void *arg) {
	cli_pool *p = (cli_pool *)arg;
	pthread_mutex_lock(&p->lock);
	uint64_t seen = p->generation;
	for (;;) {
		while (!p->stop && p->generation == seen) pthread_cond_wait(&p->work, &p->lock);
		if (p->stop) break;
		seen = p->generation;
		drain(p);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

static void run(void *user, void (*task)(void *arg, uint32_t index), void *arg, uint32_t count) {
	cli_pool *p = (cli_pool *)user;
	pthread_mutex_lock(&p->lock);
	p->task = task, p->arg = arg, p->count = count, p->next = 0, p->done = 0;
	p->generation++;
	pthread_cond_broadcast(&p->work);
	drain(p);
	while (p->done < p->count) pthread_cond_wait(&p->finished, &p->lock);
	pthread_mutex_unlock(&p->lock);
}

unsigned cli_pool_default_threads(void) {
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1u : n > 256 ? 256u : (unsigned)n;
}

cli_pool *cli_pool_create(unsigned threads) {
	cli_pool *p = (cli_pool *)calloc(1, sizeof *p);
	if (!p) return NULL;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->finished, NULL);
	p->threads = threads > 1 ? (pthread_t *)calloc(threads - 1, sizeof *p->threads) : NULL;
	for (unsigned t = 0; p->threads && t + 1 < threads; ++t) {
		if (pthread_create(&p->threads[t], NULL, worker, p) != 0) break; // fewer workers: still correct
		p->thread_count++;
	}
	return p;
}

void cli_pool_destroy(cli_pool *p) {
	if (!p) return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	for (unsigned t = 0; t < p->thread_count; ++t) pthread_join(p->threads[t], NULL);
	free(p->threads);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->finished);
	pthread_mutex_destroy(&p->lock);
	free(p);
}
#endif

sinew_jobs cli_pool_jobs(cli_pool *p) {
	sinew_jobs j = {run, p};
	return j;
}
