/* ethnl.h: the netlink plumbing under the ethtool probe, in layers as in
 * ethtool's netlink/: the generic netlink socket of the "ethtool" family
 * and its transactions, the reply walk (errors and extack), attribute
 * tables, bitsets and the kernel's string sets. Nothing here knows what a
 * reply means; probe-ethtool.c does. */
#ifndef PS_ETHNL_H
#define PS_ETHNL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

#define PS_NL_NA (-1)	  /* an attribute that is absent or too short */
#define PS_NL_ATTR_MAX 32 /* big enough for every table parsed here */
#define PS_NL_EXT_LEN 160 /* room for the kernel's extack text */
#define PS_ETH_STRLEN 32  /* ETH_GSTRING_LEN: kernel string-set names */

/* ---- reply walk ---------------------------------------------------------- */

struct ps_nl_walk {
	uint8_t want_cmd; /* genl reply command to hand to cb */
	int (*cb)(const struct nlmsghdr *nlh, void *data);
	void *data;
	char ext[PS_NL_EXT_LEN]; /* the kernel's extack message */
	int n_data;		 /* data messages seen */
};

/*
 * Walk the messages of one reply (the raw bytes as received). Returns 0
 * after the ACK (or DONE, or the end of data messages), the negative errno
 * of an error message (its extack text in w->ext), or -EBADMSG when the
 * bytes are not netlink messages.
 */
int ps_nl_walk_reply(const void *buf, size_t len, struct ps_nl_walk *w);
/* one message fits in rem bytes (mnl_nlmsg_ok() trusts nlmsg_len too much) */
bool ps_nl_msg_ok(const struct nlmsghdr *nlh, size_t rem);
const struct nlmsghdr *ps_nl_msg_next(const struct nlmsghdr *nlh, size_t *rem);

/* ---- attribute tables and values ------------------------------------------
 */

struct ps_nl_table {
	const struct nlattr *tb[PS_NL_ATTR_MAX + 1];
};

/* the attributes of a genl message / of a nest, by type */
void ps_nl_table_msg(const struct nlmsghdr *nlh, struct ps_nl_table *t);
void ps_nl_table_nest(const struct nlattr *nest, struct ps_nl_table *t);
/* a value, or PS_NL_NA when absent or short (u64: clamped to INT64_MAX) */
int64_t ps_nl_u32(const struct nlattr *a);
int ps_nl_u8(const struct nlattr *a);
int ps_nl_bool(const struct nlattr *a);
int64_t ps_nl_u64(const struct nlattr *a);

/* ---- bitsets ---------------------------------------------------------------
 */

struct ps_nl_bitset {
	unsigned size; /* bits */
	uint32_t *value;
	uint32_t *mask; /* NULL with NOMASK */
};

bool ps_nl_bit_test(const uint32_t *words, unsigned size, unsigned i);
/* both encodings: compact (VALUE/MASK words) and verbose (BITS list);
 * 0, -ENOENT (no nest) or -EBADMSG */
int ps_nl_bitset_parse(const struct nlattr *nest, struct ps_nl_bitset *bs);
void ps_nl_bitset_free(struct ps_nl_bitset *bs);

/* ---- string sets ------------------------------------------------------------
 */

/* one kernel string set (ETH_SS_*), fetched once with STRSET_GET */
struct ps_ethtool_strset {
	unsigned id;
	unsigned count;
	char (*str)[PS_ETH_STRLEN]; /* count entries, "" where unnamed */
};

/* the global string sets the parsers need (features, link modes, stats) */
struct ps_ethtool_strsets {
	unsigned n;
	struct ps_ethtool_strset set[8];
};

/* a STRSET_GET reply; 0 or -errno / -EBADMSG (then *ss is empty) */
int ps_ethtool_parse_strsets(const void *buf, size_t len,
			     struct ps_ethtool_strsets *ss);
void ps_ethtool_strsets_free(struct ps_ethtool_strsets *ss);
/* the name of entry idx of set id, or NULL when unnamed or unknown */
const char *ps_ethtool_strset_get(const struct ps_ethtool_strsets *ss,
				  unsigned id, unsigned idx);

/* ---- the live session (one per process, behind one lock) ------------------
 */

void ps_ethnl_lock(void);
void ps_ethnl_unlock(void);
/* with the lock held: open the socket, resolve the family (never a fixed
 * id) and fetch the string sets, once; 0, -ENOENT (no ethtool family) or
 * -errno */
int ps_ethnl_open(void);
/* close the socket and forget the string sets (tests, exit) */
void ps_ethnl_close(void);
/* the string sets of the running kernel (empty before ps_ethnl_open) */
const struct ps_ethtool_strsets *ps_ethnl_strsets(void);
/* whether the running kernel has request cmd (true when it does not say) */
bool ps_ethnl_op_known(uint8_t cmd);
/* a request of the family in buf (MNL_SOCKET_BUFFER_SIZE bytes, zeroed) */
struct nlmsghdr *ps_ethnl_req(char *buf, uint8_t cmd);
/* send req, gather every reply byte until its ACK/error (*out malloc'ed) */
int ps_ethnl_transact(struct nlmsghdr *req, char **out, size_t *outlen);
/* SIOCETHTOOL on the session's socket: 0 or -errno */
int ps_ethnl_ioctl(const char *ifname, void *cmd);
/* write every raw reply to DIR/<name>.bin (fixtures); NULL stops */
void ps_ethnl_record_to(const char *dir);
void ps_ethnl_record(const char *name, const void *buf, size_t len);
/* buf into DIR/NAME.bin (a warning when that fails); nothing when !dir */
void ps_nl_record_file(const char *dir, const char *name, const void *buf,
		       size_t len);

#endif
