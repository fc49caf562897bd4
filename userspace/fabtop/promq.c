// SPDX-License-Identifier: GPL-2.0
/*
 * promq.c - the Prometheus HTTP API for fabtop's cluster view (promq.h).
 */
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <curl/curl.h>
#include <json-c/json.h>

#include "http_xfer.h"
#include "promq.h"

#define PROMQ_MAX_BODY	(64u << 20)	/* a bounded query never needs more */

/* The token: the file's first line, trailing blanks cut; 0, or -1 with err. */
static int read_token(const char *path, char *tok, size_t len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f) {
		snprintf(err, errlen, "--bearer-token-file %s: %m", path);
		return -1;
	}
	if (!fgets(tok, (int)len, f))
		tok[0] = '\0';
	fclose(f);
	n = strcspn(tok, "\r\n");
	while (n && isspace((unsigned char)tok[n - 1]))
		n--;
	tok[n] = '\0';
	if (!n) {
		snprintf(err, errlen, "--bearer-token-file %s: empty", path);
		return -1;
	}
	return 0;
}

int promq_init(struct promq *q, const struct promq_opts *o, char *err, size_t len)
{
	char tok[4096], hdr[4200];
	CURL *c;

	memset(q, 0, sizeof(*q));
	q->o = o;
	if (o->token_file) {
		if (read_token(o->token_file, tok, sizeof(tok), err, len))
			return -1;
		snprintf(hdr, sizeof(hdr), "Authorization: Bearer %s", tok);
		q->hdr = curl_slist_append(NULL, hdr);
		memset(tok, 0, sizeof(tok));
		memset(hdr, 0, sizeof(hdr));
		if (!q->hdr)
			goto no_curl;
	}
	c = curl_easy_init();
	q->multi = curl_multi_init();
	if (!c || !q->multi) {
		curl_easy_cleanup(c);
		goto no_curl;
	}
	q->curl = c;
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, o->timeout_ms < 2000 ? o->timeout_ms : 2000);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, o->timeout_ms);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, http_body_write);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "fabtop");
	curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
	if (o->ca_file)
		curl_easy_setopt(c, CURLOPT_CAINFO, o->ca_file);
	if (q->hdr)
		curl_easy_setopt(c, CURLOPT_HTTPHEADER, q->hdr);
	return 0;
no_curl:
	snprintf(err, len, "cannot set up libcurl");
	curl_multi_cleanup(q->multi);
	curl_slist_free_all(q->hdr);
	q->multi = q->hdr = NULL;
	return -1;
}

void promq_free(struct promq *q)
{
	curl_multi_cleanup(q->multi);
	curl_easy_cleanup(q->curl);
	curl_slist_free_all(q->hdr);
	q->curl = q->multi = q->hdr = NULL;
}

void promq_abort(struct promq *q)
{
	atomic_store(&q->stop, true);
	curl_multi_wakeup(q->multi);
}

void promq_reset_count(struct promq *q)
{
	q->queries = 0;
	q->ms = 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A member's text, NULL when absent, null or not a string. */
static const char *str_of(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string) ?
	       json_object_get_string(v) : NULL;
}

/* Prometheus's own words for a failed query: "bad_data: parse error ..." */
static void api_error(struct promq *q, struct json_object *o, long code)
{
	const char *t = str_of(o, "errorType"), *e = str_of(o, "error");

	snprintf(q->error, sizeof(q->error), "prometheus at %s: HTTP %ld, %.40s: %.200s", q->o->url,
		 code, t ? t : "error", e ? e : "no reason given");
}

/* The result of a success answer of the wanted type, else NULL and the error. */
static struct json_object *result_of(struct promq *q, struct json_object *o, long code,
				     const char *want)
{
	const char *st = str_of(o, "status"), *type;
	struct json_object *data, *res;

	if (!st || strcmp(st, "success")) {
		api_error(q, o, code);
		return NULL;
	}
	if (!json_object_object_get_ex(o, "data", &data) || !(type = str_of(data, "resultType")) ||
	    !json_object_object_get_ex(data, "result", &res) ||
	    !json_object_is_type(res, json_type_array)) {
		snprintf(q->error, sizeof(q->error), "prometheus at %s: HTTP %ld, an answer without "
			 "data.resultType and data.result", q->o->url, code);
		return NULL;
	}
	if (strcmp(type, want)) {
		snprintf(q->error, sizeof(q->error), "prometheus at %s: a %.40s where a %s was asked for",
			 q->o->url, type, want);
		return NULL;
	}
	return json_object_get(res);
}

/* The start of a body that is not JSON, printable, for the message. */
static void excerpt(char *dst, size_t len, const char *body)
{
	size_t o = 0;

	for (; body && *body && *body != '\n' && o + 1 < len; body++)
		dst[o++] = isprint((unsigned char)*body) ? *body : '?';
	dst[o] = '\0';
}

struct json_object *promq_parse(struct promq *q, const char *body, long code, const char *want)
{
	struct json_object *o, *res;
	enum json_tokener_error jerr;
	char text[64];

	o = json_tokener_parse_verbose(body ? body : "", &jerr);
	if (!o || !json_object_is_type(o, json_type_object)) {
		excerpt(text, sizeof(text), body);
		snprintf(q->error, sizeof(q->error),
			 "prometheus at %s: HTTP %ld, not a JSON object (%s)%s%s%s", q->o->url, code,
			 o ? "another type" : json_tokener_error_desc(jerr), text[0] ? ": \"" : "",
			 text, text[0] ? "\"" : "");
		json_object_put(o);
		return NULL;
	}
	res = result_of(q, o, code, want);
	json_object_put(o);
	return res;
}

static struct json_object *post(struct promq *q, const char *path, const char *form,
				const char *want)
{
	struct json_object *res;
	struct http_body b = { .max = PROMQ_MAX_BODY };
	char url[1024], cerr[CURL_ERROR_SIZE] = "";
	double t0 = now_ms();
	long code = 0;
	CURLcode rc;

	snprintf(url, sizeof(url), "%s%s", q->o->url, path);
	curl_easy_setopt(q->curl, CURLOPT_URL, url);
	curl_easy_setopt(q->curl, CURLOPT_POSTFIELDS, form);
	curl_easy_setopt(q->curl, CURLOPT_WRITEDATA, &b);
	curl_easy_setopt(q->curl, CURLOPT_ERRORBUFFER, cerr);
	rc = http_multi_perform(q->multi, q->curl, &q->stop);	/* promq_abort ends it */
	q->queries++;
	q->ms += now_ms() - t0;
	if (rc != CURLE_OK) {
		snprintf(q->error, sizeof(q->error), "prometheus at %s unreachable (%s)", q->o->url,
			 b.too_big ? "answer over 64 MiB" :
			 rc == CURLE_ABORTED_BY_CALLBACK ? "stopped" :
			 rc == CURLE_OPERATION_TIMEDOUT ? "no answer in time" :
			 cerr[0] ? cerr : curl_easy_strerror(rc));
		free(b.p);
		return NULL;
	}
	curl_easy_getinfo(q->curl, CURLINFO_RESPONSE_CODE, &code);
	res = promq_parse(q, b.p, code, want);
	free(b.p);
	return res;
}

/* "query=" and the expression, form-encoded; NULL when out of memory */
static char *query_form(struct promq *q, const char *expr, const char *rest)
{
	char *enc = curl_easy_escape(q->curl, expr, 0), *form;
	size_t n;

	if (!enc)
		return NULL;
	n = strlen(enc) + strlen(rest) + 8;
	form = malloc(n);
	if (form)
		snprintf(form, n, "query=%s%s", enc, rest);
	curl_free(enc);
	return form;
}

struct json_object *promq_instant(struct promq *q, const char *expr)
{
	char *form = query_form(q, expr, "");
	struct json_object *r;

	if (!form) {
		snprintf(q->error, sizeof(q->error), "out of memory");
		return NULL;
	}
	r = post(q, "/api/v1/query", form, "vector");
	free(form);
	return r;
}

struct json_object *promq_range(struct promq *q, const char *expr, double start, double end,
				double step)
{
	char rest[128], *form;
	struct json_object *r;

	snprintf(rest, sizeof(rest), "&start=%.3f&end=%.3f&step=%.3f", start, end, step);
	form = query_form(q, expr, rest);
	if (!form) {
		snprintf(q->error, sizeof(q->error), "out of memory");
		return NULL;
	}
	r = post(q, "/api/v1/query_range", form, "matrix");
	free(form);
	return r;
}

const char *promq_label(struct json_object *sample, const char *name)
{
	struct json_object *m, *v;

	if (json_object_object_get_ex(sample, "metric", &m) &&
	    json_object_object_get_ex(m, name, &v) && json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	return "";
}

/* [time, "value"]: the value as a number, NAN when it is not one */
static double pair_value(struct json_object *pair)
{
	struct json_object *s = json_object_is_type(pair, json_type_array) &&
				json_object_array_length(pair) == 2 ?
				json_object_array_get_idx(pair, 1) : NULL;
	const char *t = s && json_object_is_type(s, json_type_string) ? json_object_get_string(s) : NULL;
	char *end;
	double d;

	if (!t)
		return NAN;
	d = strtod(t, &end);
	return end != t && !*end ? d : NAN;
}

double promq_value(struct json_object *sample)
{
	struct json_object *v;

	return json_object_object_get_ex(sample, "value", &v) ? pair_value(v) : NAN;
}

size_t promq_points(struct json_object *series)
{
	struct json_object *vs;

	return json_object_object_get_ex(series, "values", &vs) &&
	       json_object_is_type(vs, json_type_array) ? json_object_array_length(vs) : 0;
}

double promq_point(struct json_object *series, size_t i, double *t)
{
	struct json_object *vs, *p;

	if (t)
		*t = NAN;
	if (!json_object_object_get_ex(series, "values", &vs) ||
	    !json_object_is_type(vs, json_type_array) || i >= json_object_array_length(vs))
		return NAN;
	p = json_object_array_get_idx(vs, i);
	if (!json_object_is_type(p, json_type_array) || json_object_array_length(p) != 2)
		return NAN;	/* not [time, "value"] */
	if (t)
		*t = json_object_get_double(json_object_array_get_idx(p, 0));
	return pair_value(p);
}
