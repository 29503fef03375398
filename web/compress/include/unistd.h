// sinew — see include/sinew.h for version and licence
// <unistd.h> of the wasm compressor: one process, no terminal.
#ifndef SINEW_WC_UNISTD_H
#define SINEW_WC_UNISTD_H

typedef int pid_t;
pid_t getpid(void);
int isatty(int fd);
long sysconf(int name);
#define _SC_NPROCESSORS_ONLN 84
#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2

#endif
