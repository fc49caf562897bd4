// SPDX-License-Identifier: GPL-2.0
/*
 * records_dir.c - the flight records fabteld read, kept in record_dir
 * (records_dir.h), so that a restart serves them again: one file per
 * record, the bytes fabtel.ko gave (scripts/lab/record-dump reads either),
 * named <device>-<port>-<trigger_real_ns>-<seq>.ftr.  A record is written
 * once (the name says whether it is there), through a temporary file and a
 * rename, so a crash leaves a whole file or none; the directory holds the
 * newest REC_KEEP, as the model does.  A file that is not a whole version 1
 * record, or whose name does not match its header, is left alone and
 * counted bad.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "records_dir.h"

#define REC_SUFFIX	".ftr"
#define REC_SCAN_MAX	4096	/* entries of the directory looked at, at most */

struct rec_name {
	char device[64];
	uint32_t port;
	uint64_t real_ns, seq;
};

/* "<device>-<port>-<ns>-<seq>.ftr", parsed from its end (device names may hold '-') */
static int parse_name(const char *name, struct rec_name *n)
{
	char buf[256], *dash[3], *end;
	size_t len = strlen(name);
	unsigned long long v[3];
	int i;

	if (len >= sizeof(buf) || len <= strlen(REC_SUFFIX) ||
	    strcmp(name + len - strlen(REC_SUFFIX), REC_SUFFIX))
		return -1;
	memcpy(buf, name, len - strlen(REC_SUFFIX));
	buf[len - strlen(REC_SUFFIX)] = '\0';
	for (i = 2; i >= 0; i--) {
		dash[i] = strrchr(buf, '-');
		if (!dash[i] || dash[i] == buf || !isdigit((unsigned char)dash[i][1]))
			return -1;
		errno = 0;
		v[i] = strtoull(dash[i] + 1, &end, 10);
		if (*end || errno)
			return -1;
		*dash[i] = '\0';
	}
	if (strlen(buf) >= sizeof(n->device) || !v[0] || v[0] > UINT32_MAX || !v[2])
		return -1;
	snprintf(n->device, sizeof(n->device), "%s", buf);
	n->port = (uint32_t)v[0];
	n->real_ns = v[1];
	n->seq = v[2];
	return 0;
}

static void make_name(char *out, size_t size, const struct rec *r)
{
	snprintf(out, size, "%s-%u-%llu-%llu" REC_SUFFIX, r->device, r->port,
		 (unsigned long long)r->h.trigger_real_ns, (unsigned long long)r->h.seq);
}

static void load_one(struct records *rs, int dfd, const char *name)
{
	struct rec_name n;
	struct rec r = { 0 }, *to;
	struct stat st;
	ssize_t len;
	int fd;

	if (parse_name(name, &n))
		return;		/* not ours (or a temporary file) */
	/* whatever the directory's owner put there: a regular file, or nothing read */
	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		goto bad;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		goto bad;
	}
	len = rec_read_fd(rs, fd);
	if (len < 0 || rec_parse(rs->buf, (size_t)len, &r))
		goto bad;
	if (r.h.seq != n.seq || r.h.trigger_real_ns != n.real_ns) {
		free(r.s);
		goto bad;
	}
	snprintf(r.device, sizeof(r.device), "%s", n.device);
	r.port = n.port;
	r.saved = true;
	rs->counts.loaded++;
	to = rec_slot(rs->pending, &rs->nr_pending, REC_PENDING, &r);	/* the newest stay */
	if (to)
		*to = r;
	else
		free(r.s);
	return;
bad:
	rs->counts.bad++;
	fprintf(stderr, "fabteld: %s/%s: not a whole flight record, left alone\n", rs->dir, name);
}

void records_dir_load(struct records *rs)
{
	struct dirent *de;
	unsigned int seen = 0;
	DIR *d;

	if (!rs->dir[0])
		return;
	d = opendir(rs->dir);
	if (!d) {
		snprintf(rs->dir_error, sizeof(rs->dir_error), "%s: %s", rs->dir, strerror(errno));
		return;
	}
	while ((de = readdir(d)) && seen++ < REC_SCAN_MAX)
		if (de->d_name[0] != '.')
			load_one(rs, dirfd(d), de->d_name);
	closedir(d);
}

/* the oldest of our files beyond REC_KEEP removed */
static void prune(int dfd)
{
	char oldest[256];
	uint64_t oldest_ns;
	struct rec_name n;
	struct dirent *de;
	unsigned int nr, seen;
	DIR *d;

	for (;;) {
		int fd = dup(dfd);

		d = fd < 0 ? NULL : fdopendir(fd);
		if (!d) {
			if (fd >= 0)
				close(fd);
			return;
		}
		nr = seen = 0;
		oldest_ns = UINT64_MAX;
		while ((de = readdir(d)) && seen++ < REC_SCAN_MAX) {
			if (parse_name(de->d_name, &n))
				continue;
			nr++;
			if (n.real_ns < oldest_ns) {
				oldest_ns = n.real_ns;
				snprintf(oldest, sizeof(oldest), "%s", de->d_name);
			}
		}
		closedir(d);
		if (nr <= REC_KEEP || unlinkat(dfd, oldest, 0))
			return;
	}
}

static int write_all(int fd, const unsigned char *buf, size_t len)
{
	ssize_t put;

	while (len) {
		put = write(fd, buf, len);
		if (put < 0)
			return -errno;
		buf += put;
		len -= (size_t)put;
	}
	return 0;
}

/* r's file as fabtel.ko had it, into rs->buf: its length */
static size_t rec_bytes(struct records *rs, const struct rec *r)
{
	struct fabtel_rec_trailer t = { .seq = r->h.seq, .magic = FABTEL_REC_MAGIC };
	size_t at = sizeof(r->h), len = (size_t)r->h.nr_samples * sizeof(r->s[0]);

	memcpy(rs->buf, &r->h, sizeof(r->h));
	memcpy(rs->buf + at, r->s, len);
	memcpy(rs->buf + at + len, &t, sizeof(t));
	return at + len + sizeof(t);
}

void records_dir_write(struct records *rs, const struct rec *r)
{
	char name[256], tmp[270];
	int dfd, fd, err;
	size_t len;

	if (!rs->dir[0])
		return;
	len = rec_bytes(rs, r);
	make_name(name, sizeof(name), r);
	snprintf(tmp, sizeof(tmp), ".%s.tmp", name);
	dfd = open(rs->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		err = -errno;
		goto failed;
	}
	if (!faccessat(dfd, name, F_OK, AT_SYMLINK_NOFOLLOW)) {
		close(dfd);
		return;		/* read again after a restart: written already */
	}
	unlinkat(dfd, tmp, 0);	/* a crash's leftover */
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0640);
	if (fd < 0) {
		err = -errno;
		goto close_dir;
	}
	err = write_all(fd, rs->buf, len);
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && renameat(dfd, tmp, dfd, name))
		err = -errno;
	if (err) {
		unlinkat(dfd, tmp, 0);
		goto close_dir;
	}
	rs->dir_error[0] = '\0';
	fsync(dfd);	/* the rename, too, survives a crash */
	prune(dfd);
	close(dfd);
	return;
close_dir:
	close(dfd);
failed:
	rs->counts.persist_errors++;
	snprintf(rs->dir_error, sizeof(rs->dir_error), "%s/%s: %s", rs->dir, name,
		 strerror(-err));
}
