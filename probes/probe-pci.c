/* probe-pci.c: the NIC's PCIe link as "lspci -vv" shows it (LnkCap vs
 * LnkSta, "(downgraded)"), the narrowest link on the way to the root port,
 * payload sizes, NUMA node and the usable bandwidth of the link, with the
 * sentence that says how it was computed ("pipescope probe", the NIC panel
 * and the PCIe ceiling of the checks) */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>
#include <pci/pci.h>

#include "brief.h"
#include "jsonutil.h"
#include "log.h"
#include "nls.h"
#include "pcie-bw.h"
#include "probe-pci.h"
#include "probe.h"
#include "sysroot.h"
#include "xmalloc.h"

/* ------------------------------------------------------------------ */
/* pure helpers                                                        */

int ps_pci_parse_speed(const char *s, double *gts)
{
	char *e;
	double v;

	*gts = 0;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	v = strtod(s, &e);
	while (*e == ' ')
		e++;
	if (strncmp(e, "GT/s", 4) || v <= 0 || v > 1000)
		return -EINVAL;
	*gts = v;
	return 0;
}

double ps_pci_speed_of_code(unsigned code)
{
	switch (code) {
	case 1:
		return 2.5;
	case 2:
		return 5;
	case 3:
		return 8;
	case 4:
		return 16;
	case 5:
		return 32;
	case 6:
		return 64;
	case 8:
		return 128;
	default:
		return 0;
	}
}

/* "(downgraded)" right after a field: copy the word inside */
static void paren_mark(const char *p, char *mark, size_t len)
{
	const char *e;

	mark[0] = 0;
	while (*p == ' ')
		p++;
	if (*p != '(')
		return;
	e = strchr(p, ')');
	if (!e || (size_t)(e - p - 1) >= len)
		return;
	memcpy(mark, p + 1, e - p - 1);
	mark[e - p - 1] = 0;
}

int ps_pci_parse_lnk(const char *line, struct ps_pci_lnk *out)
{
	const char *s = strstr(line, "Speed "), *w = strstr(line, "Width x");
	char *e;
	long v;

	memset(out, 0, sizeof(*out));
	if (!s || !w)
		return -EINVAL;
	s += 6;
	if (ps_pci_parse_speed(s, &out->speed) && strncasecmp(s, "unknown", 7))
		return -EINVAL;
	s += strcspn(s, " ,");
	paren_mark(s, out->speed_mark, sizeof(out->speed_mark));
	w += 7;
	v = strtol(w, &e, 10);
	if (e == w || v <= 0 || v > 64)
		return -EINVAL;
	out->width = (int)v;
	paren_mark(e, out->width_mark, sizeof(out->width_mark));
	return 0;
}

double ps_pci_encoding(double gts, const char **name)
{
	return ps_pcie_encoding(gts, name);
}

double ps_pci_encoded_bps(double gts, int width)
{
	return gts * 1e9 * width * ps_pcie_encoding(gts, NULL);
}

/* the sentence beside the numbers of bw (usable_how) */
static void usable_how(const struct ps_pcie_bw *bw, bool known, char *how,
		       size_t howlen)
{
	if (!known) {
		snprintf(how, howlen, "%s", _("link speed or width unknown"));
		return;
	}
	snprintf(how, howlen,
		 !bw->payload_assumed
			 ? _("%g GT/s x%d with %s encoding = %.3f Gbit/s; x "
			     "%d/(%d+%d) for TLP overhead at max payload %d "
			     "bytes = %.3f Gbit/s usable per direction")
			 : _("%g GT/s x%d with %s encoding = %.3f Gbit/s; x "
			     "%d/(%d+%d) for TLP overhead, max payload unknown "
			     "so %d bytes assumed = %.3f Gbit/s usable per "
			     "direction"),
		 bw->speed_gts, bw->lanes, bw->encoding, bw->encoded_bps / 1e9,
		 bw->payload_bytes, bw->payload_bytes, bw->tlp_overhead_bytes,
		 bw->payload_bytes, bw->usable_bps / 1e9);
}

double ps_pci_usable_bps(double gts, int width, int mps, char *how,
			 size_t howlen)
{
	struct ps_pcie_bw bw;
	bool known = ps_pcie_bw(gts, width, mps, &bw) == 0;

	if (how && howlen)
		usable_how(&bw, known, how, howlen);
	return bw.usable_bps;
}

const char *ps_pci_compare(double sta, double cap, bool port)
{
	if (sta <= 0 || cap <= 0 || sta == cap)
		return "";
	if (sta > cap)
		return "overdriven";
	return port ? "" : "downgraded";
}

/* ------------------------------------------------------------------ */
/* netdev -> PCI function                                              */

static bool is_bdf(const char *s)
{
	size_t i = 0, n = strlen(s);

	while (i < n && isxdigit((unsigned char)s[i]))
		i++;
	if (i < 4 || n != i + 8)
		return false;
	s += i;
	return s[0] == ':' && isxdigit((unsigned char)s[1]) &&
	       isxdigit((unsigned char)s[2]) && s[3] == ':' &&
	       isxdigit((unsigned char)s[4]) && isxdigit((unsigned char)s[5]) &&
	       s[6] == '.' && s[7] >= '0' && s[7] <= '7';
}

/* the sysroot as an absolute path, "" when live */
static void real_root(char *buf, size_t len)
{
	char tmp[PATH_MAX];

	buf[0] = 0;
	if (ps_sysroot_is_live())
		return;
	if (realpath(ps_sysroot_get(), tmp))
		snprintf(buf, len, "%s", tmp);
}

int ps_pci_find_function(const char *ifname, char *bdf, size_t bdflen,
			 char *devpath, size_t pathlen, char *child,
			 size_t childlen)
{
	char full[4096], real[PATH_MAX], root[PATH_MAX];
	char *rel, *slash;
	struct stat st;
	size_t rl;

	bdf[0] = devpath[0] = child[0] = 0;
	if (!ifname || !*ifname || strchr(ifname, '/'))
		return -ENOENT;
	ps_path(full, sizeof(full), "/sys/class/net/%s", ifname);
	if (!*full || lstat(full, &st))
		return -ENOENT;
	ps_path(full, sizeof(full), "/sys/class/net/%s/device", ifname);
	if (!*full || !realpath(full, real))
		return -ENODEV;
	real_root(root, sizeof(root));
	rl = strlen(root);
	if (rl && (strncmp(real, root, rl) || real[rl] != '/'))
		return -ENXIO; /* the link leaves the recording */
	rel = real + rl;
	slash = strrchr(rel, '/');
	if (slash && !is_bdf(slash + 1))
		snprintf(child, childlen, "%s", slash + 1);
	while ((slash = strrchr(rel, '/')) && slash != rel) {
		if (is_bdf(slash + 1)) {
			snprintf(bdf, bdflen, "%s", slash + 1);
			snprintf(devpath, pathlen, "%s", rel);
			return 0;
		}
		*slash = 0;
	}
	return -ENXIO;
}

/* ------------------------------------------------------------------ */
/* one device's link: libpci on the config space, or sysfs attributes  */

struct lnk {
	bool pcie;
	double cap_speed, sta_speed;
	int cap_width, sta_width;
	int type; /* PCI_EXP_TYPE_*, -1 unknown */
	int mps, mps_cap, mrrs;
};

static const char *type_name(int type)
{
	switch (type) {
	case PCI_EXP_TYPE_ENDPOINT:
		return "endpoint";
	case PCI_EXP_TYPE_LEG_END:
		return "legacy_endpoint";
	case PCI_EXP_TYPE_ROOT_PORT:
		return "root_port";
	case PCI_EXP_TYPE_UPSTREAM:
		return "upstream_port";
	case PCI_EXP_TYPE_DOWNSTREAM:
		return "downstream_port";
	case PCI_EXP_TYPE_PCI_BRIDGE:
		return "pci_bridge";
	case PCI_EXP_TYPE_PCIE_BRIDGE:
		return "pcie_bridge";
	case PCI_EXP_TYPE_ROOT_INT_EP:
		return "rc_endpoint";
	case PCI_EXP_TYPE_ROOT_EC:
		return "rc_event_collector";
	default:
		return "";
	}
}

static bool is_port(int type)
{
	return type == PCI_EXP_TYPE_ROOT_PORT ||
	       type == PCI_EXP_TYPE_DOWNSTREAM ||
	       type == PCI_EXP_TYPE_PCIE_BRIDGE;
}

/* sysfs current/max_link_*: 0, or -ENOENT when the device has none */
static int read_link_sysfs(const char *devpath, struct lnk *l)
{
	char p[512], buf[64];
	long v;

	memset(l, 0, sizeof(*l));
	l->type = -1;
	snprintf(p, sizeof(p), "%s/current_link_speed", devpath);
	if (ps_read_line(p, buf, sizeof(buf)))
		return -ENOENT;
	l->pcie = true;
	ps_pci_parse_speed(buf, &l->sta_speed);
	snprintf(p, sizeof(p), "%s/max_link_speed", devpath);
	if (!ps_read_line(p, buf, sizeof(buf)))
		ps_pci_parse_speed(buf, &l->cap_speed);
	snprintf(p, sizeof(p), "%s/current_link_width", devpath);
	if (!ps_read_long(p, &v) && v > 0 && v <= 64)
		l->sta_width = (int)v;
	snprintf(p, sizeof(p), "%s/max_link_width", devpath);
	if (!ps_read_long(p, &v) && v > 0 && v <= 64)
		l->cap_width = (int)v;
	return 0;
}

/*
 * How much of the config space a read returns: -errno, 64 (the standard
 * header only: what non-root users get) or 256 and more. One dword read at
 * 0x40 decides it: every config read is a slow bus (or VM-exit) access.
 */
static long config_bytes(const char *devpath)
{
	char p[512];
	unsigned char dw[4];
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), "%s/config", devpath);
	fd = ps_open(p);
	if (fd < 0)
		return fd;
	n = pread(fd, dw, sizeof(dw), 0x40);
	if (n < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	return n == (ssize_t)sizeof(dw) ? 256 : 64;
}

/*
 * libpci's error hook must not return; it jumps back to the caller. One
 * jump buffer per thread: the workstation's sampler and its guided run's
 * inventory may read PCIe at the same time.
 */
static _Thread_local jmp_buf pci_jmp;
static _Thread_local char pci_errmsg[160];

static void __attribute__((noreturn, format(printf, 1, 2)))
pci_error(char *msg, ...)
{
	va_list ap;

	va_start(ap, msg);
	vsnprintf(pci_errmsg, sizeof(pci_errmsg), msg, ap);
	va_end(ap);
	longjmp(pci_jmp, 1);
}

static void __attribute__((format(printf, 1, 2))) pci_quiet(char *msg, ...)
{
}

static struct pci_access *pci_open(void)
{
	struct pci_access *a = pci_alloc();

	a->error = pci_error;
	a->warning = pci_quiet;
	a->debug = pci_quiet;
	a->method = PCI_ACCESS_SYS_BUS_PCI;
	if (!ps_sysroot_is_live()) {
		char p[4096];

		ps_path(p, sizeof(p), "/sys/bus/pci");
		pci_set_param(a, "sysfs.path", p);
	}
	return a;
}

/* pci_init for config reads: 0, or -EIO when libpci gave up */
static int pci_start(struct pci_access *a)
{
	if (setjmp(pci_jmp)) {
		ps_debug("libpci: %s", pci_errmsg);
		return -EIO;
	}
	pci_init(a);
	return 0;
}

/*
 * libpci opens a function's config file itself: under a sysroot, only when
 * it is a regular file inside the tree (sysroot.c's rules), so a FIFO, a
 * device or a link out of the recording never reaches it
 */
static bool config_in_tree(const char *bdf)
{
	char p[128];
	int fd;

	snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/config", bdf);
	fd = ps_open(p);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* the PCIe capability through libpci: 0, -ENODEV (none), -EIO */
static int read_link_config(struct pci_access *a, const char *bdf,
			    struct lnk *l)
{
	unsigned dom, bus, dev, fn;
	struct pci_dev *volatile d = NULL;
	struct pci_cap *cap;
	volatile int rc = -ENODEV;
	unsigned v;

	memset(l, 0, sizeof(*l));
	l->type = -1;
	if (sscanf(bdf, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4)
		return -EINVAL;
	if (!config_in_tree(bdf))
		return -EIO;
	if (setjmp(pci_jmp)) {
		ps_debug("libpci: %s", pci_errmsg);
		if (d)
			pci_free_dev(d);
		return -EIO;
	}
	d = pci_get_dev(a, (int)dom, (int)bus, (int)dev, (int)fn);
	pci_fill_info(d, PCI_FILL_IDENT | PCI_FILL_CLASS | PCI_FILL_CAPS);
	cap = pci_find_cap(d, PCI_CAP_ID_EXP, PCI_CAP_NORMAL);
	if (cap) {
		l->pcie = true;
		v = pci_read_word(d, cap->addr + PCI_EXP_FLAGS);
		l->type = (int)((v & PCI_EXP_FLAGS_TYPE) >> 4);
		v = pci_read_long(d, cap->addr + PCI_EXP_DEVCAP);
		l->mps_cap = 128 << (v & PCI_EXP_DEVCAP_PAYLOAD);
		v = pci_read_word(d, cap->addr + PCI_EXP_DEVCTL);
		l->mps = 128 << ((v & PCI_EXP_DEVCTL_PAYLOAD) >> 5);
		l->mrrs = 128 << ((v & PCI_EXP_DEVCTL_READRQ) >> 12);
		v = pci_read_long(d, cap->addr + PCI_EXP_LNKCAP);
		l->cap_speed = ps_pci_speed_of_code(v & PCI_EXP_LNKCAP_SPEED);
		l->cap_width = (int)((v & PCI_EXP_LNKCAP_WIDTH) >> 4);
		v = pci_read_word(d, cap->addr + PCI_EXP_LNKSTA);
		l->sta_speed = ps_pci_speed_of_code(v & PCI_EXP_LNKSTA_SPEED);
		l->sta_width = (int)((v & PCI_EXP_LNKSTA_WIDTH) >> 4);
		rc = 0;
	}
	pci_free_dev(d);
	return rc;
}

/* ------------------------------------------------------------------ */
/* sampling                                                            */

static void set_reason(char *dst, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set_reason(char *dst, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(dst, len, fmt, ap);
	va_end(ap);
}

static void no_pcie(struct ps_pci_info *o, const char *why)
{
	o->link_status = PS_ST_ABSENT;
	set_reason(o->link_reason, sizeof(o->link_reason), "%s", why);
	o->payload_status = PS_ST_ABSENT;
	set_reason(o->payload_reason, sizeof(o->payload_reason), "%s", why);
}

/*
 * Loading pci.ids costs ~10 ms; the names of a device do not change, so the
 * last few are kept, for every probe set: the sampler, the history
 * recorder's thread and a guided run's inventory each sample PCIe, so the
 * cache has a lock (held for the copy, not for libpci's lookup).
 */
#define NAME_CACHE 8
static struct {
	pthread_mutex_t lock;
	struct pci_names {
		unsigned vendor_id, device_id;
		char vendor[96], device[160];
	} e[NAME_CACHE];
	unsigned next;
} names = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* the cached names of vendor:device into o: true when they were there */
static bool names_cached(struct ps_pci_info *o)
{
	bool hit = false;

	pthread_mutex_lock(&names.lock);
	for (unsigned k = 0; k < NAME_CACHE && !hit; k++) {
		const struct pci_names *c = &names.e[k];

		if (c->vendor_id == o->vendor_id &&
		    c->device_id == o->device_id) {
			snprintf(o->vendor, sizeof(o->vendor), "%s", c->vendor);
			snprintf(o->device, sizeof(o->device), "%s", c->device);
			hit = true;
		}
	}
	pthread_mutex_unlock(&names.lock);
	return hit;
}

static void names_lookup(struct pci_access *a, struct ps_pci_info *o)
{
	struct pci_names *c;
	char buf[256];
	char *n;

	n = pci_lookup_name(a, buf, sizeof(buf),
			    PCI_LOOKUP_VENDOR | PCI_LOOKUP_NO_HWDB,
			    o->vendor_id);
	snprintf(o->vendor, sizeof(o->vendor), "%s", n ? n : "");
	n = pci_lookup_name(a, buf, sizeof(buf),
			    PCI_LOOKUP_DEVICE | PCI_LOOKUP_NO_HWDB,
			    o->vendor_id, o->device_id);
	snprintf(o->device, sizeof(o->device), "%s", n ? n : "");
	pthread_mutex_lock(&names.lock);
	c = &names.e[names.next++ % NAME_CACHE];
	c->vendor_id = o->vendor_id;
	c->device_id = o->device_id;
	snprintf(c->vendor, sizeof(c->vendor), "%s", o->vendor);
	snprintf(c->device, sizeof(c->device), "%s", o->device);
	pthread_mutex_unlock(&names.lock);
}

static void read_names(struct pci_access *a, struct ps_pci_info *o)
{
	char p[512];
	long v;

	snprintf(p, sizeof(p), "%s/vendor", o->devpath);
	if (!ps_read_long(p, &v))
		o->vendor_id = (unsigned)v;
	snprintf(p, sizeof(p), "%s/device", o->devpath);
	if (!ps_read_long(p, &v))
		o->device_id = (unsigned)v;
	if (o->vendor_id && !names_cached(o))
		names_lookup(a, o);
	snprintf(p, sizeof(p), "%s/numa_node", o->devpath);
	if (ps_read_long(p, &v))
		v = -1;
	o->numa_node = (int)v;
	snprintf(p, sizeof(p), "%s/local_cpulist", o->devpath);
	if (ps_read_line(p, o->local_cpulist, sizeof(o->local_cpulist)))
		o->local_cpulist[0] = 0;
	{
		char full[4096], real[PATH_MAX];
		const char *b;

		ps_path(full, sizeof(full), "%s/driver", o->devpath);
		if (*full && realpath(full, real)) {
			b = strrchr(real, '/');
			snprintf(o->driver, sizeof(o->driver), "%.*s",
				 (int)sizeof(o->driver) - 1, b ? b + 1 : real);
		}
	}
}

/* every device from the NIC up to the root port, NIC first */
static void walk_path(struct pci_access *a, bool full_config,
		      struct ps_pci_info *o)
{
	char path[256];

	snprintf(path, sizeof(path), "%s", o->devpath);
	o->nhops = 0;
	for (;;) {
		char *slash = strrchr(path, '/');
		struct ps_pci_hop *h;
		struct lnk l;
		int rc;

		if (!slash || !is_bdf(slash + 1) || o->nhops == PS_PCI_MAX_HOPS)
			break;
		rc = full_config && config_bytes(path) > 64
			     ? read_link_config(a, slash + 1, &l)
			     : -EIO;
		if (rc)
			rc = read_link_sysfs(path, &l);
		if (!rc && l.pcie) {
			h = &o->hops[o->nhops++];
			memset(h, 0, sizeof(*h));
			snprintf(h->bdf, sizeof(h->bdf), "%s", slash + 1);
			snprintf(h->type, sizeof(h->type), "%s",
				 type_name(l.type));
			h->cap_speed = l.cap_speed;
			h->sta_speed = l.sta_speed;
			h->cap_width = l.cap_width;
			h->sta_width = l.sta_width;
			h->bps = ps_pci_encoded_bps(l.sta_speed, l.sta_width);
		}
		*slash = 0;
	}
}

static void find_limit(struct ps_pci_info *o)
{
	double best = 0;
	int lim = -1;

	for (int i = 0; i < o->nhops; i++) {
		double bw = o->hops[i].bps;

		/* like the kernel: the topmost of equally narrow links */
		if (bw > 0 && (lim < 0 || bw <= best)) {
			best = bw;
			lim = i;
		}
	}
	if (lim < 0)
		return;
	snprintf(o->limit_bdf, sizeof(o->limit_bdf), "%s", o->hops[lim].bdf);
	o->limit_speed = o->hops[lim].sta_speed;
	o->limit_width = o->hops[lim].sta_width;
	o->limited_upstream = lim > 0 && o->nhops && best < o->hops[0].bps;
}

/* nothing known yet: what sampling and loading start from */
static void info_init(struct ps_pci_info *out)
{
	memset(out, 0, sizeof(*out));
	out->numa_node = -1;
	out->usable_basis.status = PS_ST_ABSENT;
}

int ps_pci_sample(const char *ifname, struct ps_pci_info *out)
{
	struct pci_access *a;
	struct lnk l;
	long cfg;
	int rc;

	info_init(out);
	snprintf(out->ifname, sizeof(out->ifname), "%s", ifname);
	out->link_status = out->payload_status = PS_ST_ABSENT;

	rc = ps_pci_find_function(ifname, out->bdf, sizeof(out->bdf),
				  out->devpath, sizeof(out->devpath),
				  out->child, sizeof(out->child));
	if (rc == -ENOENT) {
		out->status = PS_ST_ERROR;
		set_reason(
			out->reason, sizeof(out->reason),
			ps_sysroot_is_live()
				? _("no interface named %s")
				: _("no interface named %s in the recording"),
			ifname);
	} else if (rc == -ENODEV) {
		out->status = PS_ST_ABSENT;
		set_reason(
			out->reason, sizeof(out->reason), "%s",
			_("virtual interface (no bus device): no PCIe link"));
	} else if (rc) {
		out->status = PS_ST_ABSENT;
		set_reason(out->reason, sizeof(out->reason), "%s",
			   _("the interface's device is not on a PCI bus"));
	}
	if (rc) {
		set_reason(out->link_reason, sizeof(out->link_reason), "%s",
			   out->reason);
		set_reason(out->payload_reason, sizeof(out->payload_reason),
			   "%s", out->reason);
		out->link_status = out->payload_status = out->status;
		return 0;
	}
	out->status = PS_ST_OK;
	a = pci_open();
	read_names(a, out);

	cfg = config_bytes(out->devpath);
	if (cfg > 64) {
		/* libpci's sysfs method needs the tree it is pointed at */
		if (!config_in_tree(out->bdf))
			rc = -ENOENT;
		else
			rc = pci_start(a);
		if (!rc)
			rc = read_link_config(a, out->bdf, &l);
		else
			cfg = 0; /* libpci unusable here: sysfs only */
		if (rc == -ENODEV) {
			no_pcie(out, _("no PCIe capability: a conventional PCI "
				       "function (such as virtio-pci) has no "
				       "link speed or width"));
			goto out;
		}
	}
	if (cfg > 64 && rc == 0) {
		snprintf(out->link_source, sizeof(out->link_source), "config");
		out->payload_status = PS_ST_OK;
		out->mps = l.mps;
		out->mps_cap = l.mps_cap;
		out->mrrs = l.mrrs;
	} else if (read_link_sysfs(out->devpath, &l) == 0) {
		snprintf(out->link_source, sizeof(out->link_source), "sysfs");
		if (cfg > 64) {
			out->payload_status = PS_ST_ERROR;
			set_reason(out->payload_reason,
				   sizeof(out->payload_reason), "%s",
				   _("libpci could not read the config space"));
		} else if (ps_sysroot_is_live() || cfg == -EACCES ||
			   cfg == -EPERM) {
			out->payload_status = PS_ST_NEEDS_ROOT;
			set_reason(out->payload_reason,
				   sizeof(out->payload_reason), "%s",
				   _("the full config space read needs root "
				     "(others see 64 bytes); speed and width "
				     "come from sysfs"));
		} else {
			out->payload_status = PS_ST_NOT_RECORDED;
			set_reason(
				out->payload_reason,
				sizeof(out->payload_reason), "%s",
				_("the recording has only the first 64 bytes "
				  "of the config space (recorded without "
				  "root); speed and width come from sysfs"));
		}
		set_reason(out->link_reason, sizeof(out->link_reason), "%s",
			   out->payload_reason);
	} else if (cfg == -ENOENT && !ps_sysroot_is_live()) {
		out->link_status = out->payload_status = PS_ST_NOT_RECORDED;
		set_reason(out->link_reason, sizeof(out->link_reason), "%s",
			   _("neither the config space nor the sysfs link "
			     "attributes are in the recording"));
		set_reason(out->payload_reason, sizeof(out->payload_reason),
			   "%s", out->link_reason);
		goto out;
	} else {
		no_pcie(out, _("no PCIe link: the function has no "
			       "current_link_speed in sysfs (conventional PCI, "
			       "such as virtio-pci)"));
		goto out;
	}

	out->link_status = PS_ST_OK;
	snprintf(out->dev_type, sizeof(out->dev_type), "%s", type_name(l.type));
	out->cap_speed = l.cap_speed;
	out->sta_speed = l.sta_speed;
	out->cap_width = l.cap_width;
	out->sta_width = l.sta_width;
	snprintf(out->speed_mark, sizeof(out->speed_mark), "%s",
		 ps_pci_compare(l.sta_speed, l.cap_speed, is_port(l.type)));
	snprintf(out->width_mark, sizeof(out->width_mark), "%s",
		 ps_pci_compare(l.sta_width, l.cap_width, is_port(l.type)));
	out->downgraded = !strcmp(out->speed_mark, "downgraded") ||
			  !strcmp(out->width_mark, "downgraded");
	out->capable_bps = ps_pci_encoded_bps(l.cap_speed, l.cap_width);

	walk_path(a, cfg > 64, out);
	find_limit(out);
	if (ps_pcie_bw(out->limit_speed, out->limit_width, out->mps,
		       &out->usable_basis.bw) == 0) {
		out->usable_basis.status = PS_ST_OK;
	} else {
		memset(&out->usable_basis.bw, 0, sizeof(out->usable_basis.bw));
		out->usable_basis.status = PS_ST_UNSUPPORTED;
		set_reason(out->usable_basis.reason,
			   sizeof(out->usable_basis.reason), "%s",
			   _("link speed or width unknown"));
	}
	if (out->limit_width) {
		char how[256];

		out->encoded_bps =
			ps_pci_encoded_bps(out->limit_speed, out->limit_width);
		out->usable_bps =
			ps_pci_usable_bps(out->limit_speed, out->limit_width,
					  out->mps, how, sizeof(how));
		snprintf(out->usable_how, sizeof(out->usable_how),
			 _("%s; narrowest link at %s"), how, out->limit_bdf);
	} else {
		snprintf(out->usable_how, sizeof(out->usable_how), "%s",
			 _("link speed or width unknown"));
	}
out:
	pci_cleanup(a);
	return 0;
}

void ps_pci_free(struct ps_pci_info *info)
{
	memset(info, 0, sizeof(*info));
}

/* ------------------------------------------------------------------ */
/* the snapshot: JSON and its loader from one table per group           */

#define PI struct ps_pci_info
#define PH struct ps_pci_hop

/* clang-format off */
static const struct ps_jfield hop_table[] = {
	PS_JFIELD(PH, bdf, "bdf", PS_JT_STRING, 0, NULL, NULL),
	PS_JFIELD(PH, type, "device_type", PS_JT_STRING, 0, NULL, NULL),
	PS_JFIELD(PH, cap_speed, "cap_speed_gts", PS_JT_DOUBLE, 0, NULL, NULL),
	PS_JFIELD(PH, cap_width, "cap_width", PS_JT_INT, 0, NULL, NULL),
	PS_JFIELD(PH, sta_speed, "speed_gts", PS_JT_DOUBLE, 0, NULL, NULL),
	PS_JFIELD(PH, sta_width, "width", PS_JT_INT, 0, NULL, NULL),
	PS_JFIELD(PH, bps, "encoded_bps", PS_JT_DOUBLE, 0, NULL, NULL),
	PS_JEND
};

#define F(m, k, ty) PS_JFIELD(PI, m, k, ty, 0, NULL, NULL)

#define B(m, k, ty) PS_JFIELD(PI, usable_basis.bw.m, k, ty, PS_JF_OK, NULL, NULL)

/* the numbers usable_how puts in words; doc/snapshot.md says how they
 * combine */
static const struct ps_jfield basis_table[] = {
	PS_JSTATUS(PI, usable_basis.status, usable_basis.reason, PS_JF_NA),
	B(speed_gts, "speed_gts", PS_JT_DOUBLE),
	B(lanes, "lanes", PS_JT_INT),
	B(encoding, "encoding", PS_JT_STRING),
	B(encoding_ratio, "encoding_ratio", PS_JT_DOUBLE),
	B(encoded_bps, "encoded_bps", PS_JT_DOUBLE),
	B(payload_bytes, "payload_bytes", PS_JT_INT),
	B(payload_assumed, "payload_assumed", PS_JT_BOOL),
	B(tlp_overhead_bytes, "tlp_overhead_bytes", PS_JT_INT),
	B(tlp_efficiency, "tlp_efficiency", PS_JT_DOUBLE),
	B(usable_bps, "usable_bps", PS_JT_DOUBLE),
	PS_JEND
};

static const struct ps_jfield link_table[] = {
	PS_JSTATUS(PI, link_status, link_reason, 0),
	F(link_source, "source", PS_JT_STRING),
	F(dev_type, "device_type", PS_JT_STRING),
	F(cap_speed, "cap_speed_gts", PS_JT_DOUBLE),
	F(cap_width, "cap_width", PS_JT_INT),
	F(sta_speed, "speed_gts", PS_JT_DOUBLE),
	F(sta_width, "width", PS_JT_INT),
	F(speed_mark, "speed_mark", PS_JT_STRING),
	F(width_mark, "width_mark", PS_JT_STRING),
	F(downgraded, "downgraded", PS_JT_BOOL),
	PS_JARRAY_IN(PI, hops, nhops, "path", PS_JT_OBJECT, 0, hop_table),
	F(limit_bdf, "narrowest_bdf", PS_JT_STRING),
	F(limit_speed, "narrowest_speed_gts", PS_JT_DOUBLE),
	F(limit_width, "narrowest_width", PS_JT_INT),
	F(limited_upstream, "limited_upstream", PS_JT_BOOL),
	F(capable_bps, "capable_bps", PS_JT_DOUBLE),
	F(encoded_bps, "encoded_bps", PS_JT_DOUBLE),
	F(usable_bps, "usable_bps", PS_JT_DOUBLE),
	F(usable_how, "usable_how", PS_JT_STRING),
	PS_JOBJECT("usable_basis", PS_JF_OK, basis_table, NULL),
	PS_JEND
};

static const struct ps_jfield payload_table[] = {
	PS_JSTATUS(PI, payload_status, payload_reason, 0),
	F(mps, "max_payload", PS_JT_INT),
	F(mps_cap, "max_payload_cap", PS_JT_INT),
	F(mrrs, "max_read_request", PS_JT_INT),
	PS_JEND
};

/* every key is always written: "" and 0 are "unknown" here */
static const struct ps_jfield pci_table[] = {
	F(ifname, "ifname", PS_JT_STRING),
	PS_JSTATUS(PI, status, reason, 0),
	F(bdf, "bdf", PS_JT_STRING),
	F(devpath, "sysfs_path", PS_JT_STRING),
	F(child, "child_device", PS_JT_STRING),
	F(driver, "driver", PS_JT_STRING),
	F(vendor_id, "vendor_id", PS_JT_UINT),
	F(device_id, "device_id", PS_JT_UINT),
	F(vendor, "vendor", PS_JT_STRING),
	F(device, "device", PS_JT_STRING),
	F(numa_node, "numa_node", PS_JT_INT),
	F(local_cpulist, "local_cpulist", PS_JT_STRING),
	PS_JOBJECT("link", 0, link_table, NULL),
	PS_JOBJECT("payload", 0, payload_table, NULL),
	PS_JEND
};
/* clang-format on */

struct json_object *ps_pci_to_json(const struct ps_pci_info *i)
{
	return ps_jtable_to_json(pci_table, i);
}

int ps_pci_from_json(struct json_object *obj, struct ps_pci_info *i)
{
	info_init(i);
	if (!obj || !json_object_is_type(obj, json_type_object))
		return -EINVAL;
	ps_jtable_get(obj, pci_table, i);
	return 0;
}

/* ------------------------------------------------------------------ */
/* text                                                                */

static const char *mark_text(const char *mark)
{
	if (!strcmp(mark, "downgraded"))
		return _(" (downgraded)");
	if (!strcmp(mark, "overdriven"))
		return _(" (overdriven)");
	return "";
}

void ps_pci_print(FILE *out, const struct ps_pci_info *i)
{
	fprintf(out, _("PCIe of %s\n"), i->ifname);
	if (i->status != PS_ST_OK) {
		fprintf(out, _("  %s (%s)\n"), ps_status_text(i->status),
			i->reason);
		return;
	}
	fprintf(out, _("  function %s: %s %s [%04x:%04x], driver %s\n"), i->bdf,
		i->vendor, i->device, i->vendor_id, i->device_id,
		i->driver[0] ? i->driver : "-");
	if (i->child[0])
		fprintf(out, _("  netdev sits on the child device %s\n"),
			i->child);
	if (i->numa_node >= 0)
		fprintf(out, _("  NUMA node %d, local CPUs %s\n"), i->numa_node,
			i->local_cpulist[0] ? i->local_cpulist : "-");
	else
		fprintf(out,
			_("  NUMA node unknown (single node), local CPUs %s\n"),
			i->local_cpulist[0] ? i->local_cpulist : "-");
	if (i->link_status != PS_ST_OK) {
		fprintf(out, _("  link: %s (%s)\n"),
			ps_status_text(i->link_status), i->link_reason);
		return;
	}
	fprintf(out, _("  LnkCap: %g GT/s, x%d\n"), i->cap_speed, i->cap_width);
	fprintf(out, _("  LnkSta: %g GT/s%s, x%d%s   (read from %s)\n"),
		i->sta_speed, mark_text(i->speed_mark), i->sta_width,
		mark_text(i->width_mark), i->link_source);
	if (i->link_reason[0])
		fprintf(out, _("  note: %s\n"), i->link_reason);
	for (int k = 1; k < i->nhops; k++)
		fprintf(out,
			_("  upstream %s (%s): %g GT/s x%d of %g GT/s x%d\n"),
			i->hops[k].bdf,
			i->hops[k].type[0] ? i->hops[k].type
					   : _("type unknown"),
			i->hops[k].sta_speed, i->hops[k].sta_width,
			i->hops[k].cap_speed, i->hops[k].cap_width);
	if (i->limit_width)
		fprintf(out, _("  narrowest link: %g GT/s x%d at %s%s\n"),
			i->limit_speed, i->limit_width, i->limit_bdf,
			i->limited_upstream ? _(" (upstream of the NIC: lspci "
						"on the NIC does not show it)")
					    : "");
	if (i->payload_status == PS_ST_OK)
		fprintf(out,
			_("  max payload %d bytes (device can %d), max read "
			  "request %d bytes\n"),
			i->mps, i->mps_cap, i->mrrs);
	else
		fprintf(out, _("  max payload: %s (%s)\n"),
			ps_status_text(i->payload_status), i->payload_reason);
	fprintf(out,
		_("  usable: %.2f Gbit/s per direction of %.2f capable (%s)\n"),
		i->usable_bps / 1e9, i->capable_bps / 1e9, i->usable_how);
}

/* the probe "pipescope probe" runs (probe.h), in PS_PROBE_LIST */
PS_PROBE_GLUE(pci)

/* clang-format would pack a list that starts with a macro */
/* clang-format off */
const struct ps_probe_ops ps_pci_ops = {
	PS_PROBE_OPS(pci),
	.title = N_("PCIe"),
	.needs_iface = true,
	.on_nic = true,
	.brief = ps_brief_pci,
};
/* clang-format on */
