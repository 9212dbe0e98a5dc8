/* probe-platform.c: SMT, cpu0's idle states and the IOMMU
 * (probe-platform.h), read through the sysroot like every probe */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "jsonutil.h"
#include "nls.h"
#include "probe-platform.h"
#include "probe.h"
#include "snapshot.h"
#include "sysroot.h"

#define CPU_DIR "/sys/devices/system/cpu"

/* ---- pure helpers ---------------------------------------------------- */

/* the kernel parameters that decide how the IOMMU maps DMA */
static const char *const iommu_keys[] = { "intel_iommu",  "amd_iommu",
					  "iommu",	  "iommu.passthrough",
					  "iommu.strict", NULL };

static bool value_ok(const char *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)v[i]) && !strchr("_,.-", v[i]))
			return false;
	return n > 0 && n < 32;
}

void ps_platform_iommu_args(const char *cmdline, char *out, size_t len)
{
	const char *p = cmdline ? cmdline : "";
	size_t used = 0;

	if (!len)
		return;
	out[0] = 0;
	while (*p) {
		const char *w, *eq;
		size_t n, k;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		w = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n')
			p++;
		n = (size_t)(p - w);
		eq = memchr(w, '=', n);
		if (!eq)
			continue;
		k = (size_t)(eq - w);
		for (int i = 0; iommu_keys[i]; i++) {
			if (strlen(iommu_keys[i]) != k ||
			    strncmp(w, iommu_keys[i], k) ||
			    !value_ok(eq + 1, n - k - 1))
				continue;
			if (used + n + 2 > len)
				return;
			if (used)
				out[used++] = ' ';
			memcpy(out + used, w, n);
			used += n;
			out[used] = 0;
		}
	}
}

/* the word KEY=... of args, its value into v; false when absent */
static bool arg_value(const char *args, const char *key, char *v, size_t len)
{
	size_t k = strlen(key);
	const char *p = args;

	while ((p = strstr(p, key))) {
		if ((p == args || p[-1] == ' ') && p[k] == '=') {
			size_t n = strcspn(p + k + 1, " ");

			snprintf(v, len, "%.*s", (int)n, p + k + 1);
			return true;
		}
		p += k;
	}
	return false;
}

const char *ps_platform_iommu_mode(const struct ps_platform_info *p)
{
	char v[32];
	bool on = false;

	if (p->iommu_status != PS_ST_OK)
		return "";
	/* the group's own word is what the kernel does */
	if (!strcmp(p->nic_domain, "identity"))
		return "passthrough";
	if (!strncmp(p->nic_domain, "DMA", 3))
		return "translated";
	/* else the command line's, with groups to say an IOMMU is there */
	if ((arg_value(p->iommu_args, "iommu", v, sizeof(v)) &&
	     (!strcmp(v, "pt") || !strcmp(v, "off"))) ||
	    (arg_value(p->iommu_args, "iommu.passthrough", v, sizeof(v)) &&
	     (!strcmp(v, "1") || !strcmp(v, "on") || !strcmp(v, "y"))))
		return !strcmp(v, "off") ? "off" : "passthrough";
	if (arg_value(p->iommu_args, "intel_iommu", v, sizeof(v)))
		on = !strncmp(v, "on", 2);
	if (arg_value(p->iommu_args, "amd_iommu", v, sizeof(v)) &&
	    strcmp(v, "off"))
		on = true;
	if (p->iommu_groups == 0)
		return "off";
	if (on && p->iommu_groups > 0)
		return "translated";
	return "";
}

int ps_platform_deep_states(const struct ps_platform_info *p, long us,
			    long *deepest)
{
	int n = 0;

	*deepest = -1;
	if (p->idle_status != PS_ST_OK)
		return 0;
	for (int i = 0; i < p->nstates; i++) {
		const struct ps_platform_cstate *s = &p->states[i];

		if (s->disabled || s->latency_us <= us)
			continue;
		n++;
		if (s->latency_us > *deepest)
			*deepest = s->latency_us;
	}
	return n;
}

/* ---- sampling --------------------------------------------------------- */

/* a part not read: unsupported on this machine, not recorded in a tree */
static void missing(enum ps_status *st, char *reason, size_t len,
		    const char *live_why, const char *tree_why)
{
	*st = ps_sysroot_is_live() ? PS_ST_UNSUPPORTED : PS_ST_NOT_RECORDED;
	snprintf(reason, len, "%s", ps_sysroot_is_live() ? live_why : tree_why);
}

static void sample_smt(struct ps_platform_info *o)
{
	long active;

	if (ps_read_long(CPU_DIR "/smt/active", &active)) {
		missing(&o->smt_status, o->smt_reason, sizeof(o->smt_reason),
			_("the kernel has no SMT control (smt/active)"),
			_("no smt/active in the recorded tree"));
		return;
	}
	o->smt_status = PS_ST_OK;
	o->smt_active = active == 1;
	if (ps_read_line(CPU_DIR "/smt/control", o->smt_control,
			 sizeof(o->smt_control)) ||
	    !value_ok(o->smt_control, strlen(o->smt_control)))
		o->smt_control[0] = 0;
}

static void sample_idle(struct ps_platform_info *o)
{
	char path[128];

	if (ps_read_line(CPU_DIR "/cpuidle/current_driver", o->idle_driver,
			 sizeof(o->idle_driver)) ||
	    !value_ok(o->idle_driver, strlen(o->idle_driver)))
		o->idle_driver[0] = 0;
	for (int i = 0; i < PS_PLATFORM_MAX_CSTATES; i++) {
		struct ps_platform_cstate *s = &o->states[o->nstates];
		long v;

		snprintf(path, sizeof(path),
			 CPU_DIR "/cpu0/cpuidle/state%d/name", i);
		if (ps_read_line(path, s->name, sizeof(s->name)))
			break;
		if (!value_ok(s->name, strlen(s->name)))
			snprintf(s->name, sizeof(s->name), "state%d", i);
		snprintf(path, sizeof(path),
			 CPU_DIR "/cpu0/cpuidle/state%d/latency", i);
		s->latency_us =
			!ps_read_long(path, &v) && v >= 0 && v < 1000000000
				? v
				: PS_NA;
		snprintf(path, sizeof(path),
			 CPU_DIR "/cpu0/cpuidle/state%d/disable", i);
		s->disabled = !ps_read_long(path, &v) && v == 1;
		o->nstates++;
	}
	if (o->nstates || o->idle_driver[0]) {
		o->idle_status = PS_ST_OK;
		return;
	}
	missing(&o->idle_status, o->idle_reason, sizeof(o->idle_reason),
		_("no cpuidle states in sysfs (a virtual machine, or "
		  "idle=poll)"),
		_("no cpuidle files in the recorded tree"));
}

static void sample_iommu(const char *ifname, struct ps_platform_info *o)
{
	char path[160];
	size_t len = 0;
	char *cmdline = ps_read_file("/proc/cmdline", &len);
	DIR *d;
	struct dirent *de;

	o->iommu_groups = PS_NA;
	if (cmdline) {
		/* one line, at most a page (COMMAND_LINE_SIZE) read */
		if (len > 4096)
			cmdline[4096] = 0;
		ps_platform_iommu_args(cmdline, o->iommu_args,
				       sizeof(o->iommu_args));
		free(cmdline);
	}
	d = ps_opendir("/sys/kernel/iommu_groups");
	if (d) {
		o->iommu_groups = 0;
		while ((de = readdir(d)) && o->iommu_groups < 1000000)
			if (de->d_name[0] != '.')
				o->iommu_groups++;
		closedir(d);
	}
	if (ifname && *ifname && !strchr(ifname, '/')) {
		snprintf(path, sizeof(path),
			 "/sys/class/net/%s/device/iommu_group/type", ifname);
		if (ps_read_line(path, o->nic_domain, sizeof(o->nic_domain)) ||
		    !value_ok(o->nic_domain, strlen(o->nic_domain)))
			o->nic_domain[0] = 0;
	}
	if (cmdline || o->iommu_groups != PS_NA) {
		o->iommu_status = PS_ST_OK;
		return;
	}
	missing(&o->iommu_status, o->iommu_reason, sizeof(o->iommu_reason),
		_("neither /proc/cmdline nor /sys/kernel/iommu_groups could be "
		  "read"),
		_("no /proc/cmdline or iommu_groups in the recorded tree"));
}

static void init(struct ps_platform_info *o)
{
	memset(o, 0, sizeof(*o));
	o->iommu_groups = PS_NA;
	for (int i = 0; i < PS_PLATFORM_MAX_CSTATES; i++)
		o->states[i].latency_us = PS_NA;
}

int ps_platform_sample(const char *ifname, struct ps_platform_info *out)
{
	init(out);
	sample_smt(out);
	sample_idle(out);
	sample_iommu(ifname, out);
	if (out->smt_status == PS_ST_OK || out->idle_status == PS_ST_OK ||
	    out->iommu_status == PS_ST_OK)
		return 0;
	out->status = out->smt_status;
	snprintf(out->reason, sizeof(out->reason), "%s",
		 _("no SMT, idle-state or IOMMU readings"));
	return -ENOENT;
}

void ps_platform_free(struct ps_platform_info *info)
{
	(void)info; /* nothing on the heap */
}

/* ---- JSON ------------------------------------------------------------- */

#define PI struct ps_platform_info
#define PC struct ps_platform_cstate

static const struct ps_jfield smt_table[] = {
	PS_JSTATUS(PI, smt_status, smt_reason, PS_JF_NA),
	PS_JFIELD(PI, smt_active, "active", PS_JT_BOOL, PS_JF_OK,
		  N_("SMT active:"), NULL),
	PS_JFIELD(PI, smt_control, "control", PS_JT_STRING,
		  PS_JF_OK | PS_JF_NA | PS_JF_SKIPNA, N_("SMT control:"), NULL),
	PS_JEND
};

static const struct ps_jfield state_table[] = {
	PS_JFIELD(PC, name, "name", PS_JT_STRING, 0, NULL, NULL),
	PS_JFIELD(PC, latency_us, "latency_us", PS_JT_INT, PS_JF_NA, NULL,
		  NULL),
	PS_JFIELD(PC, disabled, "disabled", PS_JT_BOOL, 0, NULL, NULL), PS_JEND
};

static const struct ps_jfield idle_table[] = {
	PS_JSTATUS(PI, idle_status, idle_reason, PS_JF_NA),
	PS_JFIELD(PI, idle_driver, "driver", PS_JT_STRING,
		  PS_JF_OK | PS_JF_NA | PS_JF_SKIPNA, N_("cpuidle driver:"),
		  NULL),
	{ .key = "states",
	  .type = PS_JT_ARRAY,
	  .flags = PS_JF_OK | PS_JF_NOTEXT,
	  .off = offsetof(PI, states),
	  .size = PS_JSIZE(PI, states),
	  .off2 = offsetof(PI, nstates),
	  .size2 = PS_JSIZE(PI, nstates),
	  .elem = PS_JT_OBJECT,
	  .elem_size = sizeof(PC),
	  .max = PS_PLATFORM_MAX_CSTATES,
	  .sub = state_table },
	PS_JEND
};

static const struct ps_jfield iommu_table[] = {
	PS_JSTATUS(PI, iommu_status, iommu_reason, PS_JF_NA),
	PS_JFIELD(PI, iommu_args, "cmdline", PS_JT_STRING, PS_JF_OK | PS_JF_NA,
		  N_("IOMMU kernel words:"), NULL),
	PS_JFIELD(PI, iommu_groups, "groups", PS_JT_INT, PS_JF_OK | PS_JF_NA,
		  N_("IOMMU groups:"), NULL),
	PS_JFIELD(PI, nic_domain, "nic_domain", PS_JT_STRING,
		  PS_JF_OK | PS_JF_NA, N_("NIC's DMA domain:"), NULL),
	PS_JEND
};

#define SMT_GROUP PS_JOBJECT("smt", 0, smt_table, N_("SMT"))
#define IDLE_GROUP PS_JOBJECT("idle", 0, idle_table, N_("Idle states (cpu0)"))
#define IOMMU_GROUP PS_JOBJECT("iommu", 0, iommu_table, N_("IOMMU"))
static const struct ps_jfield platform_table[] = {
	PS_JSTATUS(PI, status, reason, PS_JF_NA), SMT_GROUP, IDLE_GROUP,
	IOMMU_GROUP, PS_JEND
};
/* the text prints each group with its own extra lines after it */
static const struct ps_jfield smt_text[] = { SMT_GROUP, PS_JEND };
static const struct ps_jfield idle_text[] = { IDLE_GROUP, PS_JEND };
static const struct ps_jfield iommu_text[] = { IOMMU_GROUP, PS_JEND };

struct json_object *ps_platform_to_json(const struct ps_platform_info *info)
{
	return ps_jtable_to_json(platform_table, info);
}

int ps_platform_from_json(struct json_object *obj, struct ps_platform_info *out)
{
	init(out);
	if (!obj || !json_object_is_type(obj, json_type_object)) {
		out->status = out->smt_status = out->idle_status =
			out->iommu_status = PS_ST_NOT_RECORDED;
		return -EINVAL;
	}
	ps_jtable_get(obj, platform_table, out);
	if (out->nstates < 0 || out->nstates > PS_PLATFORM_MAX_CSTATES)
		out->nstates = 0;
	/* a snapshot is untrusted: its words are kept only as a machine
	 * writes them */
	for (int i = 0; i < out->nstates; i++)
		if (!value_ok(out->states[i].name, strlen(out->states[i].name)))
			snprintf(out->states[i].name,
				 sizeof(out->states[i].name), "state%d", i);
	if (!value_ok(out->smt_control, strlen(out->smt_control)))
		out->smt_control[0] = 0;
	if (!value_ok(out->idle_driver, strlen(out->idle_driver)))
		out->idle_driver[0] = 0;
	if (!value_ok(out->nic_domain, strlen(out->nic_domain)))
		out->nic_domain[0] = 0;
	{
		char args[sizeof(out->iommu_args)] = { 0 };

		ps_platform_iommu_args(out->iommu_args, args, sizeof(args));
		memcpy(out->iommu_args, args, sizeof(args));
	}
	return 0;
}

#undef PC
#undef PI

/* ---- text ------------------------------------------------------------- */

void ps_platform_print(FILE *out, const struct ps_platform_info *info)
{
	const char *mode = ps_platform_iommu_mode(info);

	if (info->status != PS_ST_OK && info->smt_status != PS_ST_OK &&
	    info->idle_status != PS_ST_OK && info->iommu_status != PS_ST_OK) {
		fprintf(out, "  %s: %s\n", ps_status_text(info->status),
			info->reason);
		return;
	}
	ps_jtable_print(out, smt_text, info);
	ps_jtable_print(out, idle_text, info);
	if (info->idle_status == PS_ST_OK && info->nstates) {
		fprintf(out, "  %-20s", _("states:"));
		for (int i = 0; i < info->nstates; i++) {
			const struct ps_platform_cstate *s = &info->states[i];

			fprintf(out, " %s", s->name);
			if (s->latency_us >= 0)
				fprintf(out, " (%ld us%s)", s->latency_us,
					s->disabled ? _(", disabled") : "");
			else if (s->disabled)
				fprintf(out, " (%s)", _("disabled"));
		}
		fputc('\n', out);
	}
	ps_jtable_print(out, iommu_text, info);
	if (*mode)
		fprintf(out, "  %-20s %s\n", _("IOMMU DMA:"),
			!strcmp(mode, "translated")    ? _("translated")
			: !strcmp(mode, "passthrough") ? _("passed through")
						       : _("off"));
}

/* the probe "pipescope probe" runs (probe.h), in PS_PROBE_LIST */
PS_PROBE_GLUE(platform)

/* clang-format off */
const struct ps_probe_ops ps_platform_ops = {
	PS_PROBE_OPS(platform),
	.title = N_("Platform (SMT, idle states, IOMMU)"),
	.needs_iface = true,
	.on_nic = true,
};
/* clang-format on */
