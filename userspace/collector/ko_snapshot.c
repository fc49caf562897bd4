// SPDX-License-Identifier: GPL-2.0
/*
 * ko_snapshot.c - fabtel.ko's snapshot text into a struct raw_port
 * (ko_parse_snapshot, source.h; the format is
 * Documentation/ABI/testing/sysfs-kernel-fabtel).
 *
 * It runs for every port at every sample, so it is built for that: lines
 * are cut and split in place, no sscanf, no strtok; decimal numbers are
 * read by hand; a line's key is looked up once, by its length first, in a
 * table that says what it is (the many keys fabteld does not use, samples,
 * pfc_cap, ets_*, dscp_prio, are skipped at once; the driver's "raw" lines
 * before any split); counters and PMA counters are searched from the one
 * found last, as fabtel.ko writes them in the schema's order.  A new key
 * goes in the table and its case.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema.h"
#include "source.h"
#include "text.h"

#define KO_TOKENS	9

/* A line split at its blanks, in place: tok[0] the key. */
struct ko_line {
	char *tok[KO_TOKENS];
	unsigned int n;
	size_t len0;		/* tok[0]'s length */
	bool more;		/* more tokens than KO_TOKENS: only a "source" line's are used */
};

static void ko_split(char *line, struct ko_line *l)
{
	l->n = 0;
	l->len0 = 0;
	l->more = false;
	while (*line && l->n < KO_TOKENS) {
		while (*line == ' ' || *line == '\t')
			*line++ = '\0';
		if (!*line)
			break;
		l->tok[l->n++] = line;
		while (*line && *line != ' ' && *line != '\t')
			line++;
		if (l->n == 1)
			l->len0 = (size_t)(line - l->tok[0]);
	}
	if (*line)
		*line++ = '\0';	/* the last token kept ends here */
	while (*line == ' ' || *line == '\t')
		line++;
	l->more = *line != '\0';
}

/*
 * A whole unsigned number: base 10 digits only (text_dec_u64: the
 * snapshot's numbers are most of its bytes); base 16 by strtoull ("0x"
 * allowed).
 */
static bool ko_u64(const char *s, int base, unsigned long long *v)
{
	const char *dec;
	uint64_t n;
	char *end;

	if (base != 10) {
		if (!isxdigit((unsigned char)*s))
			return false;
		errno = 0;
		*v = strtoull(s, &end, base);
		return !*end && !errno;
	}
	dec = text_dec_u64(s, &n);
	if (!dec || *dec)
		return false;
	*v = n;
	return true;
}

enum ko_kid {
	KID_COUNTER, KID_PFC_MASK, KID_PFC_PRIO, KID_PMA, KID_PMA_COUNTER,
	KID_FEC, KID_FEC_MODE, KID_FEC_STAT, KID_DEVICE, KID_PORT, KID_DRIVER, KID_NETDEV,
	KID_STATE, KID_CARRIER, KID_IFINDEX, KID_ND_RX, KID_ND_TX, KID_SPEED, KID_COUNT,
	KID_SOURCE,
};

#define K(s)	(s), sizeof(s) - 1
#define RP(f)	offsetof(struct raw_port, f)

/*
 * Looked up by length, then bytes (most keys fabteld skips differ in
 * length from all); KID_COUNT: "key N" counts, where the value and its
 * flag go.
 */
static const struct ko_key {
	const char *key;
	size_t len;
	enum ko_kid kid;
	size_t val, have;
} ko_keys[] = {
	{ K("counter"), KID_COUNTER, 0, 0 },
	{ K("dcb_busy_skips"), KID_COUNT, RP(dcb_busy_skips), RP(have_busy_skips) },
	{ K("device"), KID_DEVICE, 0, 0 },
	{ K("driver"), KID_DRIVER, 0, 0 },
	{ K("events_dropped"), KID_COUNT, RP(events_dropped), RP(have_events_dropped) },
	{ K("events_seq"), KID_COUNT, RP(bursts), RP(have_bursts) },
	{ K("fec"), KID_FEC, 0, 0 },
	{ K("fec_mode"), KID_FEC_MODE, 0, 0 },
	{ K("fec_stat"), KID_FEC_STAT, 0, 0 },
	{ K("link_carrier"), KID_CARRIER, 0, 0 },
	{ K("link_flaps"), KID_COUNT, RP(flaps), RP(have_flaps) },
	{ K("link_speed_mbps"), KID_SPEED, 0, 0 },
	{ K("link_state"), KID_STATE, 0, 0 },
	{ K("netdev"), KID_NETDEV, 0, 0 },
	{ K("netdev_ifindex"), KID_IFINDEX, 0, 0 },
	{ K("netdev_rx_bytes"), KID_ND_RX, 0, 0 },
	{ K("netdev_tx_bytes"), KID_ND_TX, 0, 0 },
	{ K("pfc_enabled_mask"), KID_PFC_MASK, 0, 0 },
	{ K("pfc_prio"), KID_PFC_PRIO, 0, 0 },
	{ K("pma"), KID_PMA, 0, 0 },
	{ K("pma_counter"), KID_PMA_COUNTER, 0, 0 },
	{ K("pma_errors"), KID_COUNT, RP(pma_errors), RP(have_pma_errors) },
	{ K("port"), KID_PORT, 0, 0 },
	{ K("recorder_seq"), KID_COUNT, RP(rec_seq), RP(have_rec_seq) },
	{ K("source"), KID_SOURCE, 0, 0 },
};

static const struct ko_key *find_key(const char *key, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(ko_keys) / sizeof(ko_keys[0]); i++)
		if (ko_keys[i].len == len && !memcmp(ko_keys[i].key, key, len))
			return &ko_keys[i];
	return NULL;
}

/*
 * The index of name among n names (name_of), or -1, searched from the one
 * after the last found (*hint): one comparison a line, not half the list.
 */
static int find_from(unsigned int *hint, unsigned int n, const char *name,
		     const char *(*name_of)(unsigned int))
{
	unsigned int k, i;

	for (k = 0; k < n; k++) {
		i = (*hint + k) % n;
		if (!strcmp(name, name_of(i))) {
			*hint = i + 1;
			return (int)i;
		}
	}
	return -1;
}

static const char *ctr_name(unsigned int c)
{
	return schema_ctr_name((enum fabtel_counter)c);
}

static const char *pma_file(unsigned int c)
{
	return schema_pma_file((enum fabtel_pma)c);
}

struct hints {
	unsigned int ctr, pma;
	const struct ko_key *last;	/* the last line's key: runs of one key are the rule */
};

/* "counter <name> <value|->", "pma_counter <file> <value|->" */
static void parse_counters(const struct ko_line *l, enum ko_kid kid, struct raw_port *p,
			   struct hints *h)
{
	unsigned long long v;
	int c;

	if (l->n != 3 || !ko_u64(l->tok[2], 10, &v))
		return;
	if (kid == KID_COUNTER) {
		c = find_from(&h->ctr, FABTEL_NR_COUNTERS, l->tok[1], ctr_name);
		if (c >= 0) {
			p->ctr[c] = v;
			p->have[c] = true;
		}
		return;
	}
	c = find_from(&h->pma, FABTEL_NR_PMA, l->tok[1], pma_file);
	if (c >= 0) {
		p->pma[c] = (uint64_t)v * schema_pma_scale((enum fabtel_pma)c);
		p->have_pma[c] = true;
	}
}

/* "pfc_enabled_mask 0xMM", "pfc_prio P en tx rx storm storms dur" */
static void parse_pfc(const struct ko_line *l, enum ko_kid kid, struct raw_port *p)
{
	unsigned long long v[7];
	unsigned int i;

	if (kid == KID_PFC_MASK) {
		if (l->n == 2 && ko_u64(l->tok[1], 16, &v[0])) {
			p->pfc_mask = (uint8_t)v[0];
			p->pfc_read = true;
		}
		return;
	}
	if (l->n != 8)
		return;
	for (i = 0; i < 7; i++)
		if (!ko_u64(l->tok[i + 1], 10, &v[i]))
			return;
	if (v[0] >= MODEL_PRIOS)
		return;
	p->prio_read[v[0]] = true;
	p->pause_tx[v[0]] = v[2];
	p->pause_rx[v[0]] = v[3];
	p->storm[v[0]] = v[4];
	p->storms[v[0]] = v[5];
}

/* "fec supported|unsupported", "fec_mode <mode>", "fec_stat <name> <value|->" */
static void parse_fec(const struct ko_line *l, enum ko_kid kid, struct raw_port *p)
{
	static const char *const names[ETHNL_FEC_NR] = {
		[ETHNL_FEC_CORRECTED] = "corrected_blocks",
		[ETHNL_FEC_UNCORR] = "uncorrectable_blocks",
		[ETHNL_FEC_CORR_BITS] = "corrected_bits",
	};
	unsigned long long v;
	unsigned int i;

	if (kid == KID_FEC) {
		p->fec_known = l->n == 2 && (!strcmp(l->tok[1], "supported") ||
					     !strcmp(l->tok[1], "unsupported"));
		return;
	}
	if (kid == KID_FEC_MODE) {
		for (i = ETHTOOL_LINK_MODE_FEC_NONE_BIT; l->n == 2 &&
		     i <= ETHTOOL_LINK_MODE_FEC_LLRS_BIT; i++)
			if (ethnl_fec_mode_name(i) && !strcmp(l->tok[1], ethnl_fec_mode_name(i)))
				p->fec_mode = i;
		return;
	}
	if (l->n != 3 || !ko_u64(l->tok[2], 10, &v))
		return;
	for (i = 0; i < ETHNL_FEC_NR; i++) {
		if (strcmp(l->tok[1], names[i]))
			continue;
		p->fec[i] = v;
		p->have_fec[i] = true;
	}
}

/*
 * The netdev's byte totals ("-": no netdev: nothing to read elsewhere) and
 * speed ("-": not read or unknown: the speed file is read instead).
 */
static void parse_netdev(enum ko_kid kid, const char *v, struct raw_port *p)
{
	unsigned long long n = 0;
	bool num = ko_u64(v, 10, &n);

	if (kid == KID_ND_RX) {
		p->nd_by_ko = true;
		p->nd_rx_bytes = n;
		p->have_nd = num;
	} else if (kid == KID_ND_TX) {
		p->nd_by_ko = true;
		p->nd_tx_bytes = n;
		p->have_nd = p->have_nd && num;
	} else if (num && n) {		/* KID_SPEED */
		p->speed_by_ko = true;
		p->nd_speed_mbps = n;
		p->have_nd_speed = true;
	}
}

/* "key value" lines: counts, what the port is, its link, its netdev */
static void parse_link(const struct ko_line *l, const struct ko_key *k, struct raw_port *p)
{
	const char *v = l->tok[1];
	unsigned long long n;

	if (l->n < 2)
		return;
	switch (k->kid) {
	case KID_COUNT:
		if (l->n == 2 && ko_u64(v, 10, &n)) {
			*(uint64_t *)((char *)p + k->val) = n;
			*(bool *)((char *)p + k->have) = true;
		}
		break;
	case KID_DEVICE:
		text_copy(p->device, sizeof(p->device), v);
		break;
	case KID_PORT:
		if (ko_u64(v, 10, &n) && n <= UINT_MAX)
			p->port = (unsigned int)n;
		break;
	case KID_DRIVER:
		text_copy(p->driver, sizeof(p->driver), v);
		break;
	case KID_NETDEV:
		text_copy(p->netdev, sizeof(p->netdev), strcmp(v, "-") ? v : "");
		break;
	case KID_STATE:
		text_copy(p->state, sizeof(p->state), v);
		break;
	case KID_CARRIER:
		if (ko_u64(v, 10, &n) && n <= 1)
			p->carrier = (int)n;
		break;
	case KID_IFINDEX:
		if (ko_u64(v, 10, &n) && n <= INT_MAX)
			p->ifindex = (int)n;
		break;
	default:
		parse_netdev(k->kid, v, p);
		break;
	}
}

/*
 * "source NAME STATE ERRNO FAILURES RETRY_MS": how fabtel.ko's read NAME
 * fares (kmod/fabtel/fabtel_backoff.c).  A name or state this fabteld does not
 * know, or a malformed line, is skipped; fields after RETRY_MS are not
 * read (a later fabtel.ko may add some).
 */
static void parse_source(const struct ko_line *l, struct raw_port *p)
{
	unsigned long long err, failures, retry;
	struct read_status *s;
	const char *name;
	unsigned int st;
	bool neg;
	int rd;

	if (l->n < 6 || (rd = port_read_lookup(l->tok[1], strlen(l->tok[1]))) < 0)
		return;
	for (st = BACKOFF_OK; st <= BACKOFF_UNSUPPORTED; st++) {
		name = port_read_state_name(st);
		if (name && !strcmp(l->tok[2], name))
			break;
	}
	neg = l->tok[3][0] == '-';
	if (st > BACKOFF_UNSUPPORTED || !ko_u64(l->tok[3] + neg, 10, &err) || err > 4095 ||
	    neg != (err != 0) || !ko_u64(l->tok[4], 10, &failures) ||
	    !ko_u64(l->tok[5], 10, &retry) || retry > UINT32_MAX)
		return;
	s = &p->reads.s[READER_KO][rd];
	s->state = (enum backoff_state)st;
	s->err = -(int)err;
	s->failures = failures;
	s->retry_ms = (uint32_t)retry;
}

/*
 * What a read fabtel.ko reports unavailable gave is not current (the
 * snapshot keeps its last values, or "-"): left out while it backs off, no
 * series.  Its PMA counters and speed stay fabtel.ko's (none), so that
 * fabteld does not ask the failing driver itself instead.
 */
static void withhold_failing(struct raw_port *p)
{
	const struct read_status *s = p->reads.s[READER_KO];

	if (s[PR_HW_COUNTERS].state == BACKOFF_FAILING)
		memset(p->have, 0, sizeof(p->have));
	if (s[PR_PMA].state == BACKOFF_FAILING) {
		memset(p->have_pma, 0, sizeof(p->have_pma));
		p->pma_known = true;
	}
	if (s[PR_DCB].state == BACKOFF_FAILING) {
		p->pfc_read = false;
		memset(p->prio_read, 0, sizeof(p->prio_read));
	}
	if (s[PR_PHY].state == BACKOFF_FAILING) {
		memset(p->have_fec, 0, sizeof(p->have_fec));
		p->fec_mode = 0;
		p->fec_known = true;
		p->have_nd_speed = false;
		p->speed_by_ko = true;
	}
}

static void parse_line(const struct ko_line *l, struct raw_port *p, struct hints *h)
{
	const struct ko_key *k = h->last;

	if (!k || k->len != l->len0 || memcmp(l->tok[0], k->key, l->len0))
		k = find_key(l->tok[0], l->len0);
	if (!k)
		return;		/* a key this fabteld does not use */
	if (l->more && k->kid != KID_SOURCE)
		return;		/* more tokens than any such line has: not usable */
	h->last = k;
	switch (k->kid) {
	case KID_COUNTER: case KID_PMA_COUNTER:
		parse_counters(l, k->kid, p, h);
		break;
	case KID_PMA:
		p->pma_known = true;
		break;
	case KID_PFC_MASK: case KID_PFC_PRIO:
		parse_pfc(l, k->kid, p);
		break;
	case KID_FEC: case KID_FEC_MODE: case KID_FEC_STAT:
		parse_fec(l, k->kid, p);
		break;
	case KID_SOURCE:
		parse_source(l, p);
		break;
	default:
		parse_link(l, k, p);
		break;
	}
}

/* the line at *pos, cut at its newline in place; *pos moved past it */
static char *next_line(char **pos)
{
	char *line = *pos, *nl = strchrnul(line, '\n');

	*pos = *nl ? nl + 1 : nl;
	*nl = '\0';
	return line;
}

int ko_parse_snapshot(char *text, struct raw_port *p)
{
	struct hints h = { 0, 0, NULL };
	char *pos = text, *line;
	struct ko_line l;
	bool ended = false;

	while (*pos == '\n')
		pos++;
	line = next_line(&pos);
	if (strcmp(line, "fabtel-snapshot 1"))
		return -EPROTO;
	p->carrier = -1;
	while (*pos) {
		line = next_line(&pos);
		if (line[0] == 'r' && !strncmp(line, "raw ", 4))
			continue;	/* the driver's own names: sysfs mode's */
		if (line[0] == 'e' && !strcmp(line, "end")) {
			ended = true;
			break;
		}
		if (line[0] == 't' && !strcmp(line, "truncated")) {
			ended = true;
			break;
		}
		ko_split(line, &l);
		if (l.n)
			parse_line(&l, p, &h);
	}
	withhold_failing(p);
	return ended && p->device[0] && p->port ? 0 : -EPROTO;
}
