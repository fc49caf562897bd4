// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg.c - a /dev/kmsg record's header, text and dictionary (kmsg.h).
 */
#include <errno.h>
#include <string.h>

#include "kmsg.h"
#include "text.h"

/* a decimal field ended by end: where it ends, NULL if malformed */
static char *field(char *s, char end, uint64_t *v)
{
	const char *e = text_dec_u64(s, v);

	if (!e || *e != end)
		return NULL;
	return (char *)e;
}

static void dictionary(char *s, struct kmsg_rec *r)
{
	char *line, *next;

	for (line = s; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (*line != ' ')
			continue;
		if (!strncmp(line + 1, "SUBSYSTEM=", 10))
			text_copy(r->subsystem, sizeof(r->subsystem), line + 11);
		else if (!strncmp(line + 1, "DEVICE=", 7))
			text_copy(r->device, sizeof(r->device), line + 8);
	}
}

int kmsg_parse(char *buf, size_t len, struct kmsg_rec *r)
{
	char *s = buf, *semi, *nl;
	uint64_t v;

	memset(r, 0, sizeof(*r));
	if (!len || buf[len - 1] != '\n')
		return -EPROTO;
	buf[len - 1] = '\0';
	if (!(s = field(s, ',', &v)) || v > 1023)
		return -EPROTO;
	r->prio = (unsigned int)v;
	if (!(s = field(s + 1, ',', &r->seq)))
		return -EPROTO;
	s = field(s + 1, ',', &r->ts_us);
	semi = s ? strchr(s, ';') : NULL;
	if (!semi)
		return -EPROTO;
	/* the flag, then fields this reader does not know (the ABI allows more) */
	r->cont = s[1] == 'c';
	r->text = semi + 1;
	nl = strchr(semi + 1, '\n');
	if (nl) {
		*nl = '\0';
		dictionary(nl + 1, r);
	}
	r->len = strlen(r->text);
	return 0;
}
