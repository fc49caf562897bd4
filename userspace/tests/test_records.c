// SPDX-License-Identifier: GPL-2.0
/*
 * test_records - flight records (collector/records.c, records_dir.c) over
 * files made by hand in a temporary directory laid out as fabtel.ko's
 * ports/<n>/recorder/: a whole record parsed, a torn one and a foreign one
 * refused, only the rise read, a replaced one counted missed, record_dir
 * written once per record and read back by a new start without
 * duplicates, the oldest out past REC_KEEP, and the render's event link.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include "records.h"
#include "records_dir.h"

#define NS	1000000000ull
#define REAL0	(1790000000ull * NS)

static char top[64], port_dir[128], rec_dir[128];
static struct records rs;
static struct model_records mr;

/* a record's bytes: seq, n samples 100 ms apart, the trigger at the 3rd last */
static size_t make_rec(unsigned char *buf, uint64_t seq, unsigned int n, uint64_t trailer_seq)
{
	struct fabtel_rec_header h = {
		.magic = FABTEL_REC_MAGIC, .version = FABTEL_REC_VERSION,
		.header_size = sizeof(h), .sample_size = sizeof(struct fabtel_rec_sample),
		.seq = seq, .first_trigger = FABTEL_REC_T_CARRIER,
		.triggers = FABTEL_REC_T_CARRIER | FABTEL_REC_T_PMA, .nr_samples = n,
		.trigger_index = n - 3, .sample_ms = 100, .nr_counters = FABTEL_NR_COUNTERS,
	};
	struct fabtel_rec_trailer t = { .seq = trailer_seq, .magic = FABTEL_REC_MAGIC };
	struct fabtel_rec_sample s;
	unsigned int i;
	size_t at = sizeof(h);

	h.trigger_boot_ns = seq * 100 * NS + (n - 3) * 100000000ull;
	h.trigger_real_ns = REAL0 + h.trigger_boot_ns;
	memcpy(buf, &h, sizeof(h));
	for (i = 0; i < n; i++, at += sizeof(s)) {
		memset(&s, 0, sizeof(s));
		s.boot_ns = seq * 100 * NS + i * 100000000ull;
		s.flags = FABTEL_REC_F_COUNTERS | FABTEL_REC_F_FEC |
			  (i < n - 3 ? FABTEL_REC_F_CARRIER : 0);
		s.fec_corrected = 200 * i;
		memcpy(buf + at, &s, sizeof(s));
	}
	memcpy(buf + at, &t, sizeof(t));
	return at + sizeof(t);
}

static void put_slot(uint64_t seq, unsigned int n, uint64_t trailer_seq)
{
	static unsigned char buf[FABTEL_REC_FILE_MAX];
	char path[256];
	size_t len = make_rec(buf, seq, n, trailer_seq);
	FILE *f;

	snprintf(path, sizeof(path), "%s/recorder/record%u", port_dir,
		 (unsigned int)((seq - 1) % FABTEL_REC_KEEP));
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	fclose(f);
}

static unsigned int files_in(const char *dir)
{
	char cmd[300], out[32] = "";
	FILE *p;

	snprintf(cmd, sizeof(cmd), "ls %s | grep -c '\\.ftr$'", dir);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(out, sizeof(out), p));
	pclose(p);
	return (unsigned int)atoi(out);
}

/* a pass's end, as collect_sample does it: into the model, then to record_dir */
static void fold(struct records *from, struct model_records *to)
{
	records_fold(from, to);
	records_persist(from, to);
}

static int setup(void **state)
{
	char path[200];

	(void)state;
	snprintf(top, sizeof(top), "/tmp/test_records.XXXXXX");
	assert_non_null(mkdtemp(top));
	snprintf(port_dir, sizeof(port_dir), "%s/ports/1", top);
	snprintf(rec_dir, sizeof(rec_dir), "%s/records", top);
	snprintf(path, sizeof(path), "%s/ports", top);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(mkdir(port_dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/recorder", port_dir);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(mkdir(rec_dir, 0750), 0);
	memset(&mr, 0, sizeof(mr));
	records_init(&rs, rec_dir);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	records_free(&rs);
	model_records_free(&mr);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void parse_whole_torn_foreign(void **state)
{
	static unsigned char buf[FABTEL_REC_FILE_MAX];
	struct rec r = { 0 };
	size_t len = make_rec(buf, 5, 20, 5);

	(void)state;
	assert_int_equal(rec_parse(buf, len, &r), 0);
	assert_int_equal(r.h.nr_samples, 20);
	assert_int_equal(r.s[19].fec_corrected, 3800);
	/* sample 0 is 1.7 s before the trigger */
	assert_int_equal(r.h.trigger_real_ns - rec_sample_real_ns(&r, 0), 1700000000ull);
	free(r.s);
	len = make_rec(buf, 5, 20, 4);		/* a trailer from the next record */
	assert_int_equal(rec_parse(buf, len, &r), -EAGAIN);
	len = make_rec(buf, 5, 20, 5);
	assert_int_equal(rec_parse(buf, len - 192, &r), -EAGAIN);	/* cut short */
	buf[4] = 2;				/* version 2 */
	assert_int_equal(rec_parse(buf, len, &r), -EPROTO);
	assert_int_equal(rec_parse(buf, 10, &r), -EPROTO);
}

/* only the rise is read; what fabtel.ko replaced before the read is missed */
static void read_rise_and_missed(void **state)
{
	(void)state;
	put_slot(1, 20, 1);
	put_slot(2, 12, 2);
	records_read_port(&rs, port_dir, "fake-roce0", 1, 0, 2, true);
	fold(&rs, &mr);
	assert_int_equal(mr.nr, 2);
	assert_int_equal(mr.counts.read, 2);
	assert_int_equal(files_in(rec_dir), 2);
	/* seq 3..7 came: slots hold 4..7, 3 was replaced by 7 before this read */
	put_slot(4, 20, 4);
	put_slot(5, 20, 5);
	put_slot(6, 20, 6);
	put_slot(7, 20, 7);
	records_read_port(&rs, port_dir, "fake-roce0", 1, 2, 7, false);
	fold(&rs, &mr);
	assert_int_equal(mr.counts.missed, 1);
	assert_int_equal(mr.nr, 6);
	assert_non_null(model_record_find(&mr, "fake-roce0", 1, 7, 0));
	assert_null(model_record_find(&mr, "fake-roce0", 1, 3, 0));
	/* a torn slot thrice: bad, not kept */
	put_slot(8, 20, 9);
	records_read_port(&rs, port_dir, "fake-roce0", 1, 7, 8, false);
	fold(&rs, &mr);
	assert_int_equal(mr.counts.bad, 1);
	assert_null(model_record_find(&mr, "fake-roce0", 1, 8, 0));
}

/* a restart: record_dir read back, fabtel.ko's same records read again, none twice */
static void restart_no_duplicates(void **state)
{
	struct records again;
	struct model_records mr2 = { 0 };

	(void)state;
	put_slot(1, 20, 1);
	put_slot(2, 20, 2);
	records_read_port(&rs, port_dir, "fake-roce0", 1, 0, 2, true);
	fold(&rs, &mr);
	records_init(&again, rec_dir);
	assert_int_equal(again.counts.loaded, 2);
	fold(&again, &mr2);
	records_read_port(&again, port_dir, "fake-roce0", 1, 0, 2, true);
	fold(&again, &mr2);
	assert_int_equal(mr2.nr, 2);
	assert_int_equal(mr2.counts.missed, 0);
	assert_int_equal(files_in(rec_dir), 2);
	assert_int_equal(model_record_find(&mr2, "fake-roce0", 1, 2, 0)->h.nr_samples, 20);
	records_free(&again);
	model_records_free(&mr2);
}

/* past REC_KEEP the oldest goes, from the model and from record_dir */
static void oldest_out(void **state)
{
	uint64_t seq;

	(void)state;
	for (seq = 1; seq <= REC_KEEP + 4; seq++) {
		put_slot(seq, 10, seq);
		records_read_port(&rs, port_dir, "fake-roce0", 1, seq - 1, seq, seq == 1);
		fold(&rs, &mr);
	}
	assert_int_equal(mr.nr, REC_KEEP);
	assert_null(model_record_find(&mr, "fake-roce0", 1, 4, 0));
	assert_non_null(model_record_find(&mr, "fake-roce0", 1, 5, 0));
	assert_int_equal(files_in(rec_dir), REC_KEEP);
}

/* an event within a record's span (plus slack) finds it; one outside does not */
static void event_near(void **state)
{
	const struct rec *r;

	(void)state;
	put_slot(1, 20, 1);
	records_read_port(&rs, port_dir, "fake-roce0", 1, 0, 1, true);
	fold(&rs, &mr);
	r = model_record_find(&mr, "fake-roce0", 1, 1, 0);
	assert_non_null(r);
	assert_ptr_equal(model_record_near(&mr, "fake-roce0", 1, r->h.trigger_real_ns + NS, NS),
			 r);
	assert_null(model_record_near(&mr, "fake-roce0", 1, r->h.trigger_real_ns + 5 * NS, NS));
	assert_null(model_record_near(&mr, "fake-roce0", 2, r->h.trigger_real_ns, NS));
}

/* a file in record_dir that is not a whole record: counted bad, left alone */
static void bad_file_left(void **state)
{
	char path[256];
	struct records again;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/fake-roce0-1-77-3.ftr", rec_dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("not a record\n", f);
	fclose(f);
	records_init(&again, rec_dir);
	assert_int_equal(again.counts.bad, 1);
	assert_int_equal(again.nr_pending, 0);
	assert_int_equal(access(path, F_OK), 0);
	records_free(&again);
}

/* a FIFO named as a record (the directory's owner may make one): skipped, never opened blocking */
static void fifo_skipped(void **state)
{
	char path[256];
	struct records again;

	(void)state;
	snprintf(path, sizeof(path), "%s/fake-roce0-1-77-3.ftr", rec_dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	records_init(&again, rec_dir);
	assert_int_equal(again.counts.bad, 1);
	assert_int_equal(again.nr_pending, 0);
	records_free(&again);
}

/* more than a pass's worth: the rest is read at the next pass, none missed */
static void pass_limit_resumes(void **state)
{
	uint64_t got = 0, seq;
	char p2[160], cmd[400];
	unsigned int port;

	(void)state;
	for (port = 2; port <= 6; port++) {	/* 5 ports x 4 records: 20 > REC_PENDING */
		snprintf(p2, sizeof(p2), "%s/ports/%u", top, port);
		snprintf(cmd, sizeof(cmd), "mkdir -p %s/recorder && cp -r %s/recorder %s/", p2,
			 port_dir, p2);
		for (seq = 1; seq <= 4; seq++)
			put_slot(seq, 10, seq);
		assert_int_equal(system(cmd), 0);
	}
	for (port = 2; port <= 6; port++) {
		snprintf(p2, sizeof(p2), "%s/ports/%u", top, port);
		got = records_read_port(&rs, p2, "fake-roce0", port, 0, 4, true);
	}
	assert_int_equal(got, 0);		/* port 6: nothing room left this pass */
	assert_int_equal(rs.counts.missed, 0);
	fold(&rs, &mr);
	assert_int_equal(mr.nr, REC_KEEP);
	snprintf(p2, sizeof(p2), "%s/ports/6", top);
	assert_int_equal(records_read_port(&rs, p2, "fake-roce0", 6, got, 4, false), 4);
	fold(&rs, &mr);
	assert_int_equal(mr.counts.missed, 0);
	assert_non_null(model_record_find(&mr, "fake-roce0", 6, 4, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_whole_torn_foreign),
		cmocka_unit_test_setup_teardown(read_rise_and_missed, setup, teardown),
		cmocka_unit_test_setup_teardown(restart_no_duplicates, setup, teardown),
		cmocka_unit_test_setup_teardown(oldest_out, setup, teardown),
		cmocka_unit_test_setup_teardown(event_near, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_file_left, setup, teardown),
		cmocka_unit_test_setup_teardown(fifo_skipped, setup, teardown),
		cmocka_unit_test_setup_teardown(pass_limit_resumes, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
