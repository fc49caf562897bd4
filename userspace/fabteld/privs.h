/* SPDX-License-Identifier: GPL-2.0 */
/*
 * privs.h - what fabteld keeps of root once its sources are open (privs.c).
 */
#ifndef FABTELD_PRIVS_H
#define FABTELD_PRIVS_H

#include <stdbool.h>

/*
 * Become user (unless "root" or not started as root) and keep no
 * capability but CAP_NET_ADMIN, and that only when net_admin: the wire
 * program is attached (its TC filters are attached to new ports and
 * removed at exit).  Every BPF object in use stays usable through its file
 * descriptor.  0, or -1 having said why on stderr.
 */
int privs_drop(const char *user, bool net_admin);
/*
 * record_dir made, owned by user, 0750, when started as root and it is not
 * there yet (one that is stays as it is); a failure is said on stderr and
 * the records are then not kept.
 */
void privs_make_dir(const char *path, const char *user);

#endif /* FABTELD_PRIVS_H */
