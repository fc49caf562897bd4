// SPDX-License-Identifier: GPL-2.0
/*
 * probe_curl.c - libcurl (its GnuTLS build), opened when the prober starts
 * rather than linked.  Its dependencies (libssh2 with OpenSSL's libcrypto,
 * Kerberos, LDAP, SASL, RTMP, ...) cost a fabteld that never probes about
 * 3 MiB of resident pages for their relocations alone
 * (Documentation/performance.rst "Active probes"); opened, they cost that only
 * where probing is configured.
 *
 * libssh2 is opened first and set up without crypto: libcurl's own set-up
 * would otherwise have it set up OpenSSL (1.4 MiB more made resident) for
 * SSH transfers fabteld never makes.  libssh2 sets up its crypto at its
 * first set-up only.
 *
 * libcurl stays mapped after probe_curl_close() (RTLD_NODELETE): a name
 * lookup the fetcher left running at stop (CURLOPT_QUICK_EXIT) finishes in
 * a thread of libcurl's own, which must still have its code to return to.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <libssh2.h>

#include "probe_curl.h"

#define CURL_SONAME	"libcurl-gnutls.so.4"
#define SSH2_SONAME	"libssh2.so.1"

struct probe_curl pcurl;

static void *curl_lib, *ssh2_lib;
static void (*ssh2_exit)(void);

/* each symbol by name into its slot; 0, or -1 naming the first missing */
static int bind_all(char *why, size_t len)
{
	const struct {
		const char *name;
		void **slot;
	} syms[] = {
		{ "curl_global_init", (void **)&pcurl.global_init },
		{ "curl_global_cleanup", (void **)&pcurl.global_cleanup },
		{ "curl_easy_init", (void **)&pcurl.easy_init },
		{ "curl_easy_cleanup", (void **)&pcurl.easy_cleanup },
		{ "curl_easy_setopt", (void **)&pcurl.easy_setopt },
		{ "curl_easy_getinfo", (void **)&pcurl.easy_getinfo },
		{ "curl_easy_strerror", (void **)&pcurl.easy_strerror },
		{ "curl_multi_init", (void **)&pcurl.multi_init },
		{ "curl_multi_cleanup", (void **)&pcurl.multi_cleanup },
		{ "curl_multi_add_handle", (void **)&pcurl.multi_add_handle },
		{ "curl_multi_remove_handle", (void **)&pcurl.multi_remove_handle },
		{ "curl_multi_perform", (void **)&pcurl.multi_perform },
		{ "curl_multi_poll", (void **)&pcurl.multi_poll },
		{ "curl_multi_wakeup", (void **)&pcurl.multi_wakeup },
		{ "curl_multi_info_read", (void **)&pcurl.multi_info_read },
		{ "curl_multi_strerror", (void **)&pcurl.multi_strerror },
	};
	size_t i;

	for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		*syms[i].slot = dlsym(curl_lib, syms[i].name);
		if (!*syms[i].slot) {
			snprintf(why, len, "%s: no %s", CURL_SONAME, syms[i].name);
			return -1;
		}
	}
	return 0;
}

/* libssh2 set up without crypto, if it is there (a libcurl without SSH needs none) */
static int ssh2_open(char *why, size_t len)
{
	int (*init)(int flags);

	ssh2_lib = dlopen(SSH2_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!ssh2_lib)
		return 0;
	*(void **)&init = dlsym(ssh2_lib, "libssh2_init");
	*(void **)&ssh2_exit = dlsym(ssh2_lib, "libssh2_exit");
	if (!init || !ssh2_exit || init(LIBSSH2_INIT_NO_CRYPTO)) {
		snprintf(why, len, "%s: no set-up without crypto", SSH2_SONAME);
		dlclose(ssh2_lib);
		ssh2_lib = NULL;
		return -1;
	}
	return 0;
}

int probe_curl_open(char *why, size_t len)
{
	if (ssh2_open(why, len))
		return -1;
	curl_lib = dlopen(CURL_SONAME, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	if (!curl_lib) {
		snprintf(why, len, "%s", dlerror());
		goto close_ssh2;
	}
	if (bind_all(why, len))
		goto close_curl;
	if (pcurl.global_init(CURL_GLOBAL_NOTHING)) {
		snprintf(why, len, "curl_global_init failed");
		goto close_curl;
	}
	return 0;
close_curl:
	dlclose(curl_lib);
	curl_lib = NULL;
	memset(&pcurl, 0, sizeof(pcurl));
close_ssh2:
	if (ssh2_lib) {
		ssh2_exit();
		dlclose(ssh2_lib);
		ssh2_lib = NULL;
	}
	return -1;
}

void probe_curl_close(void)
{
	if (!curl_lib)
		return;
	pcurl.global_cleanup();
	dlclose(curl_lib);
	curl_lib = NULL;
	memset(&pcurl, 0, sizeof(pcurl));
	if (ssh2_lib) {
		ssh2_exit();
		dlclose(ssh2_lib);
		ssh2_lib = NULL;
	}
}
