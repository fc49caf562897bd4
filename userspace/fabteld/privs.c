// SPDX-License-Identifier: GPL-2.0
/*
 * privs.c - fabteld gives up root once its sources are open (see privs.h).
 *
 * Started as root, fabteld loads and attaches its BPF programs, opens
 * fabtel.ko's files and RDMA netlink, then calls privs_drop(): a switch to
 * the configured user with PR_SET_KEEPCAPS, then capset() to the one
 * capability still needed (or none), then PR_SET_NO_NEW_PRIVS.  With user
 * root the uid stays 0 but the capabilities go the same way.
 */
#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "privs.h"

static int set_caps(bool net_admin)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	if (net_admin) {
		data[CAP_TO_INDEX(CAP_NET_ADMIN)].permitted = CAP_TO_MASK(CAP_NET_ADMIN);
		data[CAP_TO_INDEX(CAP_NET_ADMIN)].effective = CAP_TO_MASK(CAP_NET_ADMIN);
	}
	return (int)syscall(SYS_capset, &hdr, data);
}

static int become(const char *user)
{
	struct passwd *pw = getpwnam(user);

	if (!pw) {
		fprintf(stderr, "fabteld: user '%s' does not exist (set user = ...)\n", user);
		return -1;
	}
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || setgroups(0, NULL) ||
	    setgid(pw->pw_gid) || setuid(pw->pw_uid)) {
		fprintf(stderr, "fabteld: becoming %s: %s\n", user, strerror(errno));
		return -1;
	}
	return 0;
}

int privs_drop(const char *user, bool net_admin)
{
	bool root = !strcmp(user, "root");

	if (geteuid() != 0)
		return 0;
	if (!root && become(user))
		return -1;
	if (set_caps(net_admin) || prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		fprintf(stderr, "fabteld: dropping capabilities: %s\n", strerror(errno));
		return -1;
	}
	if (!root && setuid(0) == 0) {	/* must be impossible now */
		fprintf(stderr, "fabteld: could regain root after dropping it\n");
		return -1;
	}
	fprintf(stderr, "fabteld: running as %s with %s\n", user,
		net_admin ? "CAP_NET_ADMIN only (the wire program's TC filters, qp_counters auto and peer)" :
			    "no capabilities");
	return 0;
}

/* path's parents made (0755) as needed; -errno */
static int make_parents(const char *path)
{
	char buf[256], *slash;

	if (strlen(path) >= sizeof(buf))
		return -ENAMETOOLONG;
	snprintf(buf, sizeof(buf), "%s", path);
	for (slash = strchr(buf + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*slash = '/';
	}
	return 0;
}

void privs_make_dir(const char *path, const char *user)
{
	struct passwd *pw;
	struct stat st;
	int err = 0;

	if (!path[0] || geteuid() != 0)
		return;
	if (!stat(path, &st))
		return;		/* the operator's, as it is */
	err = make_parents(path);	/* a trailing '/' makes the directory itself */
	if (!err && mkdir(path, 0750) && (errno != EEXIST || path[strlen(path) - 1] != '/'))
		err = -errno;
	if (!err && strcmp(user, "root")) {
		pw = getpwnam(user);
		if (!pw || chown(path, pw->pw_uid, pw->pw_gid))
			err = pw ? -errno : -ENOENT;
	}
	if (err)
		fprintf(stderr, "fabteld: making %s for %s: %s (flight records will not be "
			"kept there: /api/v1/records says why)\n", path, user, strerror(-err));
}
