// SPDX-License-Identifier: GPL-2.0
/*
 * http_web.c - HTTPS and basic auth for fabteld's endpoint (http_web.h).
 *
 * TLS is libmicrohttpd's (GnuTLS); the certificate and key are read into
 * memory at start, as root, so the key file may stay 0600.  A password is
 * checked with libxcrypt's crypt_r against the user's bcrypt hash: tens of
 * milliseconds, on the HTTP thread.  A password that passed is kept and
 * compared (in constant time) on the next request, so Prometheus's scrapes
 * pay bcrypt once; a wrong one pays it every time.
 */
#include <crypt.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http_web.h"

/* the whole of a small file, NUL-terminated; NULL with errno */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0, cap = 0, got;

	if (!f)
		return NULL;
	do {
		if (cap - n < 4096) {
			char *nb = cap < (1u << 20) ? realloc(buf, cap + 8192) : NULL;

			if (!nb) {
				free(buf);
				fclose(f);
				errno = EFBIG;
				return NULL;
			}
			buf = nb;
			cap += 8192;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
	} while (got);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

int web_load(struct web *w, const struct config *cfg, char *err, size_t errlen)
{
	memset(w, 0, sizeof(*w));
	w->cfg = cfg;
	if (!cfg->tls_cert_file[0] && !cfg->tls_key_file[0])
		return 0;
	if (!cfg->tls_cert_file[0] || !cfg->tls_key_file[0]) {
		snprintf(err, errlen, "HTTPS needs both tls_cert_file and tls_key_file");
		return -1;
	}
	if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
		snprintf(err, errlen, "this libmicrohttpd has no TLS support");
		return -1;
	}
	w->cert_pem = slurp(cfg->tls_cert_file);
	if (!w->cert_pem) {
		snprintf(err, errlen, "tls_cert_file %s: %s", cfg->tls_cert_file, strerror(errno));
		return -1;
	}
	w->key_pem = slurp(cfg->tls_key_file);
	if (!w->key_pem) {
		snprintf(err, errlen, "tls_key_file %s: %s", cfg->tls_key_file, strerror(errno));
		goto free_cert;
	}
	if (!strstr(w->cert_pem, "-----BEGIN CERTIFICATE-----") ||
	    !strstr(w->key_pem, "PRIVATE KEY-----")) {
		snprintf(err, errlen, "%s or %s is not PEM (a certificate, a private key)",
			 cfg->tls_cert_file, cfg->tls_key_file);
		goto free_key;
	}
	return 0;

free_key:
	free(w->key_pem);
	w->key_pem = NULL;
free_cert:
	free(w->cert_pem);
	w->cert_pem = NULL;
	return -1;
}

void web_free(struct web *w)
{
	if (w->key_pem)
		explicit_bzero(w->key_pem, strlen(w->key_pem));
	free(w->key_pem);
	free(w->cert_pem);
	explicit_bzero(w->ok, sizeof(w->ok));
	w->key_pem = w->cert_pem = NULL;
}

/* equal strings, in a time that depends on their lengths only */
static bool same(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i;
	unsigned char d = la != lb;

	for (i = 0; i < la && i < lb; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return !d;
}

static bool password_ok(struct web *w, size_t i, const char *pass)
{
	struct crypt_data *cd;
	const char *h;
	bool ok;

	if (w->have_ok[i])
		return same(pass, w->ok[i]);
	cd = calloc(1, sizeof(*cd));
	if (!cd)
		return false;
	h = crypt_r(pass, w->cfg->users[i].hash, cd);
	ok = h && h[0] != '*' && same(h, w->cfg->users[i].hash);
	explicit_bzero(cd, sizeof(*cd));
	free(cd);
	if (ok && strlen(pass) < sizeof(w->ok[i])) {
		snprintf(w->ok[i], sizeof(w->ok[i]), "%s", pass);
		w->have_ok[i] = true;
	}
	return ok;
}

bool web_auth_ok(struct web *w, struct MHD_Connection *c)
{
	char *user, *pass = NULL;
	bool ok = false;
	size_t i;

	if (!w->cfg->nr_users)
		return true;
	user = MHD_basic_auth_get_username_password(c, &pass);
	if (user && pass)
		for (i = 0; i < w->cfg->nr_users; i++)
			if (!strcmp(user, w->cfg->users[i].name)) {
				ok = password_ok(w, i, pass);
				break;
			}
	if (pass) {
		explicit_bzero(pass, strlen(pass));
		MHD_free(pass);
	}
	if (user)
		MHD_free(user);
	return ok;
}

enum MHD_Result web_auth_fail(struct MHD_Connection *c)
{
	static const char body[] = "401 unauthorized: basic auth required\n";
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(sizeof(body) - 1, (void *)body,
					    MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	ret = MHD_queue_basic_auth_fail_response(c, "fabteld", r);
	MHD_destroy_response(r);
	return ret;
}
