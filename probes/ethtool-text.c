/* ethtool-text.c: the driver's own counters ("ethtool -S": the ioctl's
 * names and values, or the recorded text) and the recorded "ethtool -x"
 * text of a --sysroot tree; pure parsers, no I/O */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ethtool-internal.h"
#include "nic-counters.h"
#include "probe-ethtool.h"
#include "xmalloc.h"

/* ---- the driver's own counters ------------------------------------------- */

static bool drv_stat_wanted(const char *name)
{
	static const char *const words[] = {
		"drop", "miss", "discard", "no_buf", "nobuf", "fifo", "error",
	};
	const char *p;

	for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++)
		if (strcasestr(name, words[k]))
			return true;
	/* "rx_wqe_err", "err_frames": the short form, as a whole word */
	for (p = name; (p = strcasestr(p, "err")); p += 3)
		if ((p == name || p[-1] == '_' || p[-1] == '.') &&
		    (p[3] == '\0' || p[3] == '_'))
			return true;
	return false;
}

int ps_ethtool_parse_drv_stats(const char *names, const uint64_t *vals,
			       unsigned n, struct ps_ethtool_info *out)
{
	free(out->drv_stats.v);
	out->drv_stats.v = NULL;
	out->drv_stats.n = 0;
	out->drv_stats.total = n;
	ps_nic_counters_init(&out->nic);
	if (n && (!names || !vals))
		return -EINVAL;
	ps_nic_counters_from(&out->nic, names, PS_ETH_STRLEN, vals, n);
	for (unsigned k = 0; k < n; k++) {
		char name[PS_ETH_STRLEN];

		/* kernel strings are ETH_GSTRING_LEN bytes, maybe unended */
		memcpy(name, names + (size_t)k * PS_ETH_STRLEN, PS_ETH_STRLEN);
		name[PS_ETH_STRLEN - 1] = '\0';
		if (drv_stat_wanted(name))
			ps_eth_add_counter(&out->drv_stats.v, &out->drv_stats.n,
					   "", name, vals[k]);
	}
	ps_eth_set_status(&out->drv_stats.status, out->drv_stats.reason,
			  PS_ST_OK, NULL);
	return 0;
}

int ps_ethtool_parse_stats_text(const char *text, size_t len,
				struct ps_ethtool_info *out)
{
	char(*names)[PS_ETH_STRLEN] = NULL;
	uint64_t *vals = NULL;
	unsigned n = 0, cap = 0;
	size_t indent = SIZE_MAX;

	for (int pass = 0; pass < 2; pass++) {
		const char *p = text, *end = text + len;

		while (p < end) {
			const char *eol = memchr(p, '\n', (size_t)(end - p));
			size_t l = eol ? (size_t)(eol - p) : (size_t)(end - p);
			size_t sp = 0, k, c;
			char line[256], *colon, *e;
			unsigned long long v;

			if (l >= sizeof(line))
				l = sizeof(line) - 1;
			memcpy(line, p, l);
			line[l] = '\0';
			p = eol ? eol + 1 : end;
			while (line[sp] == ' ' || line[sp] == '\t')
				sp++;
			colon = strrchr(line, ':');
			if (!colon || colon[1] != ' ' || colon == line + sp)
				continue;
			errno = 0;
			v = strtoull(colon + 2, &e, 10);
			if (e == colon + 2 || *e || errno || colon[2] == '-')
				continue;
			if (pass == 0) {
				if (sp < indent)
					indent = sp;
				continue;
			}
			if (n >= 65536)
				break;
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				names = xrealloc(names, cap * sizeof(*names));
				vals = xrealloc(vals, cap * sizeof(*vals));
			}
			/* a recorded tree is untrusted: printable ASCII only */
			memset(names[n], 0, PS_ETH_STRLEN);
			for (k = indent, c = 0;
			     line + k < colon && c < PS_ETH_STRLEN - 1;
			     k++, c++)
				names[n][c] = line[k] >= 0x20 && line[k] < 0x7f
						      ? line[k]
						      : '?';
			vals[n++] = v;
		}
	}
	ps_ethtool_parse_drv_stats((const char *)names, vals, n, out);
	free(names);
	free(vals);
	return n ? 0 : -ENOENT;
}

/* "0d:1f:cb:..." into out->rss.hkey; false when not such a line */
static bool hkey_text(const char *line, struct ps_ethtool_info *out)
{
	size_t n = (strlen(line) + 1) / 3;
	uint8_t *k;

	if (n < 4 || n > 256)
		return false;
	k = xmalloc(n);
	for (size_t i = 0; i < n; i++) {
		unsigned b;
		const char *p = line + 3 * i;

		if (!isxdigit((unsigned char)p[0]) ||
		    !isxdigit((unsigned char)p[1]) ||
		    (p[2] != ':' && p[2] != '\0') ||
		    sscanf(p, "%2x", &b) != 1) {
			free(k);
			return false;
		}
		k[i] = (uint8_t)b;
	}
	free(out->rss.hkey);
	out->rss.hkey = k;
	out->rss.n_hkey = (unsigned)n;
	return true;
}

int ps_ethtool_parse_rss_text(const char *text, size_t len,
			      struct ps_ethtool_info *out)
{
	const char *p = text, *end = text + len;
	unsigned cap = 0;
	bool in_func = false;

	ps_eth_clear_group(out, PS_ETHG_RSS);
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t l = eol ? (size_t)(eol - p) : (size_t)(end - p);
		char line[512], *q, *e;
		const char *w;
		long idx;

		if (l >= sizeof(line))
			l = sizeof(line) - 1;
		memcpy(line, p, l);
		line[l] = '\0';
		p = eol ? eol + 1 : end;
		for (w = line; *w == ' ' || *w == '\t'; w++)
			;
		if ((q = strstr(line, " with ")) && strstr(q, "RX ring")) {
			long r = strtol(q + 6, &e, 10);

			if (e != q + 6 && r > 0 && r < 65536)
				out->rss.rx_rings = r;
			continue;
		}
		if (!strncmp(w, "RSS hash function:", 18)) {
			in_func = true;
			continue;
		}
		if (in_func) {
			/* "    toeplitz: on" */
			q = strstr(line, ": on");
			if (q && q > w && (size_t)(q - w) < PS_ETH_STRLEN) {
				char f[PS_ETH_STRLEN];
				size_t k;

				for (k = 0; w + k < q; k++)
					f[k] = isalnum((unsigned char)w[k])
						       ? w[k]
						       : '?';
				f[k] = '\0';
				snprintf(out->rss.hfunc, sizeof(out->rss.hfunc),
					 "%s", f);
			}
			continue;
		}
		if (hkey_text(w, out))
			continue;
		errno = 0;
		idx = strtol(w, &e, 10);
		if (e == w || *e != ':' || idx != (long)out->rss.n_indir)
			continue;
		for (q = e + 1;;) {
			long v = strtol(q, &e, 10);

			if (e == q || v < 0 || v >= 65536 ||
			    out->rss.n_indir >= 65536)
				break;
			if (out->rss.n_indir == cap) {
				cap = cap ? 2 * cap : 64;
				out->rss.indir = xrealloc(
					out->rss.indir, cap * sizeof(uint32_t));
			}
			out->rss.indir[out->rss.n_indir++] = (uint32_t)v;
			q = e;
		}
	}
	if (!out->rss.n_indir) {
		ps_eth_clear_group(out, PS_ETHG_RSS);
		return -ENOENT;
	}
	ps_eth_set_status(&out->rss.status, out->rss.reason, PS_ST_OK, NULL);
	return 0;
}
