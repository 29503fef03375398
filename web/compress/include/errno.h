// sinew — see include/sinew.h for version and licence
// <errno.h> of the wasm compressor (web/compress/libc.c).
#ifndef SINEW_WC_ERRNO_H
#define SINEW_WC_ERRNO_H

extern int errno;
#define errno errno
#define ENOENT 2
#define EIO 5
#define EBADF 9
#define ENOMEM 12
#define EACCES 13
#define EEXIST 17
#define ENOTDIR 20
#define EISDIR 21
#define EINVAL 22
#define ENOSPC 28
#define ERANGE 34
#define ENOSYS 38
#define EAGAIN 11
#define EDEADLK 35

#endif
