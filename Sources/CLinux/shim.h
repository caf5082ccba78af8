#ifndef CLINUX_SHIM_H
#define CLINUX_SHIM_H

// Linux system calls that Swift's Glibc module does not export. The C library declares their
// wrappers only under _GNU_SOURCE, which that module is not built with, and a static
// executable cannot look them up at run time (dlsym finds nothing there), so they are made
// here, through syscall(2), the same in a static and a dynamic build.

#include <errno.h>
#include <fcntl.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

// renameat2(2) with RENAME_EXCHANGE (1 << 1 in <linux/fs.h>): swaps what the two paths name.
// -1 with errno ENOSYS where the kernel or its headers have no such call.
static inline int clinux_exchange(const char *from, const char *to) {
#ifdef SYS_renameat2
  return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 1u << 1);
#else
  errno = ENOSYS;
  return -1;
#endif
}

// renameat2(2) with RENAME_NOREPLACE (1 << 0): moves `from` (in `fromdir`) to `to` (in
// `todir`) only when nothing is there. -1 with errno EINVAL or ENOSYS where the file system or
// the kernel cannot.
static inline int clinux_move_noreplace(int fromdir, const char *from, int todir, const char *to) {
#ifdef SYS_renameat2
  return (int)syscall(SYS_renameat2, fromdir, from, todir, to, 1u << 0);
#else
  errno = ENOSYS;
  return -1;
#endif
}

// statfs(2)'s f_type for `path` (0 when it cannot be read): which kind of file system holds
// it. Swift's Glibc module does not export statfs.
static inline unsigned long clinux_fs_type(const char *path) {
  struct statfs info;
  if (statfs(path, &info) != 0) return 0;
  return (unsigned long)info.f_type;
}

#endif
