/* ethnl.c: the netlink plumbing of the ethtool probe (ethnl.h): reply walk
 * and extack, attribute tables, bitsets, string sets, and the one live
 * generic netlink session of the "ethtool" family with its transactions */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <libmnl/libmnl.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/sockios.h>
#include <net/if.h>

#include "ethnl.h"
#include "log.h"
#include "nls.h"
#include "xmalloc.h"

/* ---- reply walk: messages, errors and extack --------------------------- */

static int extack_cb(const struct nlattr *a, void *data)
{
	struct ps_nl_walk *w = data;

	if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
	    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0)
		snprintf(w->ext, sizeof(w->ext), "%s", mnl_attr_get_str(a));
	/* newer kernels name a missing attribute instead of a message */
	if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MISS_TYPE && !w->ext[0] &&
	    mnl_attr_get_payload_len(a) >= sizeof(uint32_t))
		snprintf(w->ext, sizeof(w->ext), _("missing attribute %u"),
			 mnl_attr_get_u32(a));
	return MNL_CB_OK;
}

/*
 * mnl_nlmsg_ok() casts nlmsg_len to int, so a length above 2^31 in damaged
 * bytes passes it; these two keep every step inside the buffer. libmnl's
 * attribute walk runs to the message's aligned end (NLMSG_ALIGN), so the
 * padding must be in the buffer too, as the kernel always sends it.
 */
/* NLMSG_ALIGN's mask is 32 bits wide: a length near 2^32 aligns to 0 */
static size_t msg_aligned(const struct nlmsghdr *nlh)
{
	return ((size_t)nlh->nlmsg_len + NLMSG_ALIGNTO - 1) &
	       ~(size_t)(NLMSG_ALIGNTO - 1);
}

bool ps_nl_msg_ok(const struct nlmsghdr *nlh, size_t rem)
{
	return rem >= sizeof(*nlh) && nlh->nlmsg_len >= sizeof(*nlh) &&
	       msg_aligned(nlh) <= rem;
}

const struct nlmsghdr *ps_nl_msg_next(const struct nlmsghdr *nlh, size_t *rem)
{
	size_t step = msg_aligned(nlh);

	*rem = step < *rem ? *rem - step : 0;
	return (const struct nlmsghdr *)((const char *)nlh + step);
}

/*
 * Walk the messages of one reply. Returns 0 after the ACK (or DONE, or
 * the end of data messages), the negative errno of an error message, or
 * -EBADMSG when the bytes are not netlink messages.
 */
int ps_nl_walk_reply(const void *buf, size_t len, struct ps_nl_walk *w)
{
	const struct nlmsghdr *nlh = buf;
	size_t rem = len;

	w->ext[0] = '\0';
	w->n_data = 0;
	if (!buf || len < sizeof(struct nlmsghdr))
		return -EBADMSG;
	while (ps_nl_msg_ok(nlh, rem)) {
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
			size_t plen = mnl_nlmsg_get_payload_len(nlh);
			size_t off = sizeof(*e);

			if (plen < sizeof(*e))
				return -EBADMSG;
			if (e->error == 0) /* the ACK: was there a reply? */
				return w->n_data ? 0 : -EBADMSG;
			if (!(nlh->nlmsg_flags & NLM_F_CAPPED) &&
			    e->msg.nlmsg_len >= sizeof(struct nlmsghdr))
				off += e->msg.nlmsg_len -
				       sizeof(struct nlmsghdr);
			if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && off < plen)
				mnl_attr_parse_payload((const char *)e + off,
						       plen - off, extack_cb,
						       w);
			/* any int may arrive: -INT_MIN does not exist */
			if (e->error == INT_MIN)
				return -EPROTO;
			return e->error < 0 ? e->error : -e->error;
		}
		if (nlh->nlmsg_type == NLMSG_DONE)
			return w->n_data ? 0 : -EBADMSG;
		if (nlh->nlmsg_type >= NLMSG_MIN_TYPE &&
		    mnl_nlmsg_get_payload_len(nlh) >= GENL_HDRLEN) {
			const struct genlmsghdr *gh =
				mnl_nlmsg_get_payload(nlh);

			if (gh->cmd == w->want_cmd) {
				int ret = w->cb(nlh, w->data);

				if (ret < 0)
					return ret;
				w->n_data++;
			}
		}
		nlh = ps_nl_msg_next(nlh, &rem);
	}
	if (rem != 0)
		return -EBADMSG; /* a truncated message */
	return w->n_data ? 0 : -EBADMSG;
}

/* ---- attribute tables and values --------------------------------------- */

static int table_cb(const struct nlattr *a, void *data)
{
	struct ps_nl_table *t = data;
	unsigned type = mnl_attr_get_type(a);

	if (type <= PS_NL_ATTR_MAX)
		t->tb[type] = a;
	return MNL_CB_OK;
}

void ps_nl_table_msg(const struct nlmsghdr *nlh, struct ps_nl_table *t)
{
	memset(t, 0, sizeof(*t));
	mnl_attr_parse(nlh, GENL_HDRLEN, table_cb, t);
}

void ps_nl_table_nest(const struct nlattr *nest, struct ps_nl_table *t)
{
	memset(t, 0, sizeof(*t));
	if (nest)
		mnl_attr_parse_nested(nest, table_cb, t);
}

int64_t ps_nl_u32(const struct nlattr *a)
{
	if (!a || mnl_attr_get_payload_len(a) < sizeof(uint32_t))
		return PS_NL_NA;
	return mnl_attr_get_u32(a);
}

int ps_nl_u8(const struct nlattr *a)
{
	if (!a || mnl_attr_get_payload_len(a) < sizeof(uint8_t))
		return PS_NL_NA;
	return mnl_attr_get_u8(a);
}

int ps_nl_bool(const struct nlattr *a)
{
	int v = ps_nl_u8(a);

	return v == PS_NL_NA ? v : !!v;
}

int64_t ps_nl_u64(const struct nlattr *a)
{
	uint64_t v;

	if (!a || mnl_attr_get_payload_len(a) < sizeof(uint64_t))
		return PS_NL_NA;
	v = mnl_attr_get_u64(a);
	return v > INT64_MAX ? INT64_MAX : (int64_t)v;
}

/* ---- bitsets ------------------------------------------------------------ */

bool ps_nl_bit_test(const uint32_t *words, unsigned size, unsigned i)
{
	return words && i < size && (words[i / 32] >> (i % 32)) & 1;
}

static void bit_set(uint32_t *words, unsigned i)
{
	words[i / 32] |= 1u << (i % 32);
}

void ps_nl_bitset_free(struct ps_nl_bitset *bs)
{
	free(bs->value);
	free(bs->mask);
	memset(bs, 0, sizeof(*bs));
}

/* copy a binary attribute into size bits; a short attribute reads as 0s */
static uint32_t *bitset_words(const struct nlattr *a, unsigned size)
{
	size_t words = (size + 31) / 32;
	uint32_t *w = xcalloc(words ? words : 1, sizeof(uint32_t));
	size_t have;

	if (a) {
		have = mnl_attr_get_payload_len(a);
		if (have > words * sizeof(uint32_t))
			have = words * sizeof(uint32_t);
		memcpy(w, mnl_attr_get_payload(a), have);
	}
	return w;
}

/* both encodings: compact (VALUE/MASK words) and verbose (BITS list) */
int ps_nl_bitset_parse(const struct nlattr *nest, struct ps_nl_bitset *bs)
{
	struct ps_nl_table t;
	int64_t size;
	bool nomask;

	memset(bs, 0, sizeof(*bs));
	if (!nest)
		return -ENOENT;
	ps_nl_table_nest(nest, &t);
	size = ps_nl_u32(t.tb[ETHTOOL_A_BITSET_SIZE]);
	if (size < 0 || size > 65536)
		return -EBADMSG;
	bs->size = (unsigned)size;
	nomask = t.tb[ETHTOOL_A_BITSET_NOMASK] != NULL;
	if (!t.tb[ETHTOOL_A_BITSET_BITS]) {
		bs->value =
			bitset_words(t.tb[ETHTOOL_A_BITSET_VALUE], bs->size);
		if (!nomask)
			bs->mask = bitset_words(t.tb[ETHTOOL_A_BITSET_MASK],
						bs->size);
		return 0;
	}
	/* verbose: one nest per listed bit */
	bs->value = bitset_words(NULL, bs->size);
	if (!nomask)
		bs->mask = bitset_words(NULL, bs->size);
	const struct nlattr *bit;

	mnl_attr_for_each_nested(bit, t.tb[ETHTOOL_A_BITSET_BITS])
	{
		struct ps_nl_table b;
		int64_t idx;

		if (mnl_attr_get_type(bit) != ETHTOOL_A_BITSET_BITS_BIT)
			continue;
		ps_nl_table_nest(bit, &b);
		idx = ps_nl_u32(b.tb[ETHTOOL_A_BITSET_BIT_INDEX]);
		if (idx < 0 || idx >= bs->size)
			continue;
		if (nomask) {
			bit_set(bs->value, (unsigned)idx);
		} else {
			bit_set(bs->mask, (unsigned)idx);
			if (b.tb[ETHTOOL_A_BITSET_BIT_VALUE])
				bit_set(bs->value, (unsigned)idx);
		}
	}
	return 0;
}

/* ---- string sets --------------------------------------------------------- */

void ps_ethtool_strsets_free(struct ps_ethtool_strsets *ss)
{
	if (!ss)
		return;
	for (unsigned i = 0; i < ss->n; i++)
		free(ss->set[i].str);
	memset(ss, 0, sizeof(*ss));
}

const char *ps_ethtool_strset_get(const struct ps_ethtool_strsets *ss,
				  unsigned id, unsigned idx)
{
	if (!ss)
		return NULL;
	for (unsigned i = 0; i < ss->n; i++)
		if (ss->set[i].id == id) {
			if (idx >= ss->set[i].count || !ss->set[i].str[idx][0])
				return NULL;
			return ss->set[i].str[idx];
		}
	return NULL;
}

static int strset_msg(const struct nlmsghdr *nlh, void *data)
{
	struct ps_ethtool_strsets *ss = data;
	const struct nlattr *set;
	struct ps_nl_table t;

	ps_nl_table_msg(nlh, &t);
	if (!t.tb[ETHTOOL_A_STRSET_STRINGSETS])
		return 0;
	mnl_attr_for_each_nested(set, t.tb[ETHTOOL_A_STRSET_STRINGSETS])
	{
		struct ps_ethtool_strset *s;
		const struct nlattr *str;
		struct ps_nl_table st;
		int64_t id, count;

		if (mnl_attr_get_type(set) != ETHTOOL_A_STRINGSETS_STRINGSET)
			continue;
		ps_nl_table_nest(set, &st);
		id = ps_nl_u32(st.tb[ETHTOOL_A_STRINGSET_ID]);
		count = ps_nl_u32(st.tb[ETHTOOL_A_STRINGSET_COUNT]);
		if (id < 0 || count < 0 || count > 4096 ||
		    ss->n >= sizeof(ss->set) / sizeof(ss->set[0]))
			continue;
		s = &ss->set[ss->n++];
		s->id = (unsigned)id;
		s->count = (unsigned)count;
		s->str = xcalloc(count ? (size_t)count : 1, PS_ETH_STRLEN);
		if (!st.tb[ETHTOOL_A_STRINGSET_STRINGS])
			continue;
		mnl_attr_for_each_nested(str,
					 st.tb[ETHTOOL_A_STRINGSET_STRINGS])
		{
			struct ps_nl_table sv;
			int64_t idx;

			if (mnl_attr_get_type(str) != ETHTOOL_A_STRINGS_STRING)
				continue;
			ps_nl_table_nest(str, &sv);
			idx = ps_nl_u32(sv.tb[ETHTOOL_A_STRING_INDEX]);
			if (idx < 0 || idx >= count ||
			    !sv.tb[ETHTOOL_A_STRING_VALUE] ||
			    mnl_attr_validate(sv.tb[ETHTOOL_A_STRING_VALUE],
					      MNL_TYPE_NUL_STRING) < 0)
				continue;
			snprintf(s->str[idx], PS_ETH_STRLEN, "%s",
				 mnl_attr_get_str(
					 sv.tb[ETHTOOL_A_STRING_VALUE]));
		}
	}
	return 0;
}

int ps_ethtool_parse_strsets(const void *buf, size_t len,
			     struct ps_ethtool_strsets *ss)
{
	struct ps_nl_walk w = { .want_cmd = ETHTOOL_MSG_STRSET_GET_REPLY,
				.cb = strset_msg,
				.data = ss };

	int ret;

	memset(ss, 0, sizeof(*ss));
	ret = ps_nl_walk_reply(buf, len, &w);
	if (ret < 0) /* not understood: keep nothing (and leak nothing) */
		ps_ethtool_strsets_free(ss);
	return ret;
}

static const unsigned wanted_sets[] = {
	ETH_SS_FEATURES,       ETH_SS_RSS_HASH_FUNCS, ETH_SS_LINK_MODES,
	ETH_SS_STATS_STD,      ETH_SS_STATS_ETH_PHY,  ETH_SS_STATS_ETH_MAC,
	ETH_SS_STATS_ETH_CTRL, ETH_SS_STATS_RMON,
};

/* ---- live: socket, family, transactions -----------------------------------
 */

static struct {
	pthread_mutex_t lock;
	struct mnl_socket *nl;
	uint16_t family;
	uint32_t seq;
	unsigned portid;
	bool have_ops;
	uint8_t ops[256 / 8]; /* request ops the running kernel has */
	struct ps_ethtool_strsets ss;
	char *record;
	char *rxbuf;
} ctx = { .lock = PTHREAD_MUTEX_INITIALIZER };

#define RXBUF_SIZE 65536

void ps_ethnl_record_to(const char *dir)
{
	pthread_mutex_lock(&ctx.lock);
	free(ctx.record);
	ctx.record = dir ? xstrdup(dir) : NULL;
	pthread_mutex_unlock(&ctx.lock);
}

void ps_ethnl_record(const char *name, const void *buf, size_t len)
{
	ps_nl_record_file(ctx.record, name, buf, len);
}

void ps_nl_record_file(const char *dir, const char *name, const void *buf,
		       size_t len)
{
	char *path;
	FILE *f;

	if (!dir)
		return;
	xasprintf(&path, "%s/%s.bin", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len)
		ps_warn(_("cannot record %s: %s"), path, ps_strerror(errno));
	if (f)
		fclose(f);
	free(path);
}

/* send one request, gather every reply byte until the ACK/error */
int ps_ethnl_transact(struct nlmsghdr *req, char **out, size_t *outlen)
{
	size_t cap = 0, len = 0;
	char *acc = NULL;
	bool done = false;

	req->nlmsg_seq = ++ctx.seq;
	req->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	if (mnl_socket_sendto(ctx.nl, req, req->nlmsg_len) < 0)
		return -errno;
	while (!done) {
		ssize_t n = mnl_socket_recvfrom(ctx.nl, ctx.rxbuf, RXBUF_SIZE);
		const struct nlmsghdr *nlh = (const void *)ctx.rxbuf;
		size_t rem;

		if (n < 0) {
			int e = errno;

			free(acc);
			return e == EAGAIN ? -ETIMEDOUT : -e;
		}
		rem = (size_t)n;
		/* keep only our sequence; stop at its ACK, error or DONE */
		for (; ps_nl_msg_ok(nlh, rem);
		     nlh = ps_nl_msg_next(nlh, &rem)) {
			if (nlh->nlmsg_seq != ctx.seq)
				continue;
			if (len + nlh->nlmsg_len > cap) {
				cap = (len + nlh->nlmsg_len) * 2;
				acc = xrealloc(acc, cap);
			}
			memcpy(acc + len, nlh, nlh->nlmsg_len);
			len += nlh->nlmsg_len;
			if (nlh->nlmsg_type == NLMSG_ERROR ||
			    nlh->nlmsg_type == NLMSG_DONE)
				done = true;
		}
	}
	*out = acc;
	*outlen = len;
	return 0;
}

/* buf: MNL_SOCKET_BUFFER_SIZE bytes, zeroed so no padding leaks out */
static struct nlmsghdr *genl_req(char *buf, uint16_t type, uint8_t cmd,
				 uint8_t version)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *gh;

	memset(buf, 0, MNL_SOCKET_BUFFER_SIZE);
	nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = type;
	gh = mnl_nlmsg_put_extra_header(nlh, sizeof(*gh));
	gh->cmd = cmd;
	gh->version = version;
	return nlh;
}

struct family {
	int id;
	bool have_ops;
	uint8_t *ops;
};

static int family_msg(const struct nlmsghdr *nlh, void *data)
{
	struct family *f = data;
	const struct nlattr *op;
	struct ps_nl_table t;

	ps_nl_table_msg(nlh, &t);
	if (!t.tb[CTRL_ATTR_FAMILY_ID] ||
	    mnl_attr_get_payload_len(t.tb[CTRL_ATTR_FAMILY_ID]) < 2)
		return -EBADMSG;
	f->id = mnl_attr_get_u16(t.tb[CTRL_ATTR_FAMILY_ID]);
	if (!t.tb[CTRL_ATTR_OPS])
		return 0;
	f->have_ops = true;
	mnl_attr_for_each_nested(op, t.tb[CTRL_ATTR_OPS])
	{
		struct ps_nl_table o;
		int64_t id;

		ps_nl_table_nest(op, &o);
		id = ps_nl_u32(o.tb[CTRL_ATTR_OP_ID]);
		if (id >= 0 && id < 256)
			f->ops[id / 8] |= (uint8_t)(1u << (id % 8));
	}
	return 0;
}

bool ps_ethnl_op_known(uint8_t cmd)
{
	return !ctx.have_ops || (ctx.ops[cmd / 8] >> (cmd % 8)) & 1;
}

static int fetch_strsets(size_t nsets)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct nlattr *sets, *set;
	char *reply = NULL;
	size_t len = 0;
	int ret;

	nlh = genl_req(buf, ctx.family, ETHTOOL_MSG_STRSET_GET,
		       ETHTOOL_GENL_VERSION);
	/* the header is required, even empty (global sets, no device) */
	sets = mnl_attr_nest_start(nlh, ETHTOOL_A_STRSET_HEADER);
	mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_FLAGS, 0);
	mnl_attr_nest_end(nlh, sets);
	sets = mnl_attr_nest_start(nlh, ETHTOOL_A_STRSET_STRINGSETS);
	for (size_t k = 0; k < nsets; k++) {
		set = mnl_attr_nest_start(nlh, ETHTOOL_A_STRINGSETS_STRINGSET);
		mnl_attr_put_u32(nlh, ETHTOOL_A_STRINGSET_ID, wanted_sets[k]);
		mnl_attr_nest_end(nlh, set);
	}
	mnl_attr_nest_end(nlh, sets);
	ret = ps_ethnl_transact(nlh, &reply, &len);
	if (ret == 0) {
		ps_ethnl_record("strsets", reply, len);
		ps_ethtool_strsets_free(&ctx.ss);
		ret = ps_ethtool_parse_strsets(reply, len, &ctx.ss);
	}
	free(reply);
	return ret;
}

/* open the socket, resolve the family (never a fixed id), cache strings */
int ps_ethnl_open(void)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct family fam = { .id = -1, .ops = ctx.ops };
	struct timeval tv = { .tv_sec = 2 };
	struct nlmsghdr *nlh;
	struct ps_nl_walk w;
	char *reply = NULL;
	size_t len = 0;
	int one = 1, ret;

	if (ctx.nl)
		return 0;
	ctx.nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!ctx.nl)
		return -errno;
	if (mnl_socket_bind(ctx.nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		ret = -errno;
		goto out_close;
	}
	/* kernel error text in the ACK; the request is not echoed back */
	mnl_socket_setsockopt(ctx.nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(ctx.nl, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(mnl_socket_get_fd(ctx.nl), SOL_SOCKET, SO_RCVTIMEO, &tv,
		   sizeof(tv));
	ctx.portid = mnl_socket_get_portid(ctx.nl);
	ctx.rxbuf = xmalloc(RXBUF_SIZE);

	memset(ctx.ops, 0, sizeof(ctx.ops));
	nlh = genl_req(buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, ETHTOOL_GENL_NAME);
	ret = ps_ethnl_transact(nlh, &reply, &len);
	if (ret == 0) {
		ps_ethnl_record("family", reply, len);
		w = (struct ps_nl_walk){ .want_cmd = CTRL_CMD_NEWFAMILY,
					 .cb = family_msg,
					 .data = &fam };
		ret = ps_nl_walk_reply(reply, len, &w);
	}
	free(reply);
	if (ret < 0)
		goto out_close;
	ctx.family = (uint16_t)fam.id;
	ctx.have_ops = fam.have_ops;
	ret = fetch_strsets(sizeof(wanted_sets) / sizeof(wanted_sets[0]));
	/* kernels before 5.13 lack the statistics sets: the first three */
	if (ret < 0)
		ret = fetch_strsets(3);
	if (ret < 0)
		ps_debug("ethtool string sets: %s", ps_strerror(-ret));
	return 0;

out_close:
	mnl_socket_close(ctx.nl);
	ctx.nl = NULL;
	free(ctx.rxbuf);
	ctx.rxbuf = NULL;
	return ret;
}

void ps_ethnl_close(void)
{
	pthread_mutex_lock(&ctx.lock);
	if (ctx.nl)
		mnl_socket_close(ctx.nl);
	ctx.nl = NULL;
	free(ctx.rxbuf);
	ctx.rxbuf = NULL;
	ps_ethtool_strsets_free(&ctx.ss);
	free(ctx.record);
	ctx.record = NULL;
	pthread_mutex_unlock(&ctx.lock);
}

void ps_ethnl_lock(void)
{
	pthread_mutex_lock(&ctx.lock);
}

void ps_ethnl_unlock(void)
{
	pthread_mutex_unlock(&ctx.lock);
}

const struct ps_ethtool_strsets *ps_ethnl_strsets(void)
{
	return &ctx.ss;
}

struct nlmsghdr *ps_ethnl_req(char *buf, uint8_t cmd)
{
	return genl_req(buf, ctx.family, cmd, ETHTOOL_GENL_VERSION);
}

int ps_ethnl_ioctl(const char *ifname, void *cmd)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = cmd;
	/* SIOCETHTOOL works on any socket; the netlink one will do */
	if (ioctl(mnl_socket_get_fd(ctx.nl), SIOCETHTOOL, &ifr) < 0)
		return -errno;
	return 0;
}
