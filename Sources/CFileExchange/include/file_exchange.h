#pragma once

/* Swaps the directory entries `a` and `b` atomically (Linux renameat2 with RENAME_EXCHANGE): both
   must exist; afterwards `b` names what `a` named and the other way round. Returns 0, or -1 with
   errno set (EINVAL or ENOSYS where the file system or kernel cannot exchange). Glibc declares
   renameat2 only under _GNU_SOURCE, which Swift's Glibc module is not built with. */
int cellhost_exchange_paths(const char *a, const char *b);
