// SPDX-License-Identifier: GPL-2.0
/*
 * test_text - the text helpers (lib/text.c) and the counter parse built on
 * them (fsread.c's fs_read_u64), the bounded copy: decimal digits up to 2^64 - 1 and no
 * further; what is not plain decimal (hex, a leading zero) still read as
 * strtoull reads it with base 0, as before the fast path.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fsread.h"
#include "text.h"

static void dec_u64_bounds(void **state)
{
	const char *end;
	uint64_t v = 7;

	(void)state;
	end = text_dec_u64("18446744073709551615", &v);
	assert_non_null(end);
	assert_int_equal(*end, '\0');
	assert_true(v == UINT64_MAX);
	v = 7;
	assert_null(text_dec_u64("18446744073709551616", &v));	/* 2^64 */
	assert_null(text_dec_u64("99999999999999999999", &v));
	assert_null(text_dec_u64("", &v));
	assert_null(text_dec_u64(" 1", &v));
	assert_null(text_dec_u64("-1", &v));
	assert_int_equal(v, 7);		/* untouched by a failure */
	end = text_dec_u64("1234 56", &v);
	assert_string_equal(end, " 56");
	assert_int_equal(v, 1234);
	end = text_dec_u64("0", &v);
	assert_string_equal(end, "");
	assert_int_equal(v, 0);
}

/* TEXT written to a file, read back with fs_read_u64: its return, the value in *v */
static int read_back(const char *text, uint64_t *v)
{
	char path[] = "/tmp/test_text.XXXXXX";
	int fd = mkstemp(path), err;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	*v = 0;
	err = fs_read_u64(path, v);
	unlink(path);
	return err;
}

static void counter_text(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(read_back("123456789\n", &v), 0);
	assert_int_equal(v, 123456789);
	assert_int_equal(read_back("18446744073709551615\n", &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(read_back("18446744073709551616\n", &v), -1);
	assert_int_equal(read_back("42 extra\n", &v), 0);	/* a space ends it */
	assert_int_equal(v, 42);
	assert_int_equal(read_back("42x\n", &v), -1);
	assert_int_equal(read_back("0x1003\n", &v), 0);	/* a flags file */
	assert_int_equal(v, 0x1003);
	assert_int_equal(read_back("0\n", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(read_back("010\n", &v), 0);	/* base 0: octal, as strtoull */
	assert_int_equal(v, 8);
	assert_int_equal(read_back("\n", &v), -1);
}

static void copy_cut_to_fit(void **state)
{
	char d[6];

	(void)state;
	memset(d, 'x', sizeof(d));
	text_copy(d, sizeof(d), "mlx5_0");		/* 6 characters: 5 fit */
	assert_string_equal(d, "mlx5_");
	text_copy(d, sizeof(d), "eth0");
	assert_string_equal(d, "eth0");
	text_copy(d, 1, "abc");
	assert_string_equal(d, "");
	memset(d, 'x', sizeof(d));
	text_copy(d, 0, "abc");				/* no room: untouched */
	assert_int_equal(d[0], 'x');
}

static void trim(void **state)
{
	char s[] = " \t a b \n";

	(void)state;
	assert_string_equal(text_trim(s), "a b");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dec_u64_bounds),
		cmocka_unit_test(counter_text),
		cmocka_unit_test(copy_cut_to_fit),
		cmocka_unit_test(trim),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
