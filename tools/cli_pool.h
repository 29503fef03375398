// sinew — see include/sinew.h for version and licence
// A small thread pool for sinew_compress_options.jobs (the CLI's -j).
#ifndef SINEW_CLI_POOL_H
#define SINEW_CLI_POOL_H

#include "sinew.h"

// Threads where the platform has them; wasm32-wasi has none (web/sinew-compress.wasm): there the pool starts
// no workers and runs every task on the calling thread, and batch compress takes one file at a time.
#if defined(__wasi__) && !defined(_REENTRANT)
#define CLI_THREADS 0
#else
#define CLI_THREADS 1
#endif

typedef struct cli_pool cli_pool;

// The online cores (the default of -j); 1 without threads.
unsigned cli_pool_default_threads(void);
// A pool of `threads` threads counting the caller's (threads - 1 workers); NULL when out of memory.
cli_pool *cli_pool_create(unsigned threads);
void cli_pool_destroy(cli_pool *pool);
// The pool as sinew_jobs (valid until cli_pool_destroy).
sinew_jobs cli_pool_jobs(cli_pool *pool);

#endif
