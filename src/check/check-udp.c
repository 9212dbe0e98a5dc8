/* check-udp.c: a UDP test whose senders did not reach the rate -b asked
 * for: the sender's own limit (a core, the socket), not the path's */
#include "config.h"

#include <stdio.h>

#include "check.h"
#include "nls.h"

/* the threshold of the UDP rate check ("pipescope check --rules") */
enum { R_SHORT };
static const struct ps_rule rules[] = {
	[R_SHORT] = {
		.name = "udp_sender_short",
		.value = 0.9,
		.unit = "share",
		.why = N_("UDP senders below this share of the -b target fell "
			  "short on their own (a core, the socket)"),
	},
};
PS_RULE_FAMILY(udp, rules);

static enum ps_check_state eval_udp_rate(const struct ps_evidence *ev,
					 struct ps_finding *f)
{
	const struct ps_run *r = ev->res;
	const struct ps_step_result *s = NULL;
	char sent[32], want[32];
	double share;

	for (int i = 0; r && i < r->nsteps; i++)
		if (r->steps[i].udp && r->steps[i].udp_target_bps > 0 &&
		    r->steps[i].state == PS_STEP_DONE)
			s = &r->steps[i];
	if (!s) {
		PS_SET(f->evidence, "%s",
		       _("no UDP test with a target rate (-b) ran"));
		return PS_CHECK_NA;
	}
	share = s->udp_sent_bps / s->udp_target_bps;
	ps_fmt_bps(sent, sizeof(sent), s->udp_sent_bps);
	ps_fmt_bps(want, sizeof(want), s->udp_target_bps);
	ps_fact(f, "target_rate", s->udp_target_bps, "bit/s");
	ps_fact(f, "sent_rate", s->udp_sent_bps, "bit/s");
	if (s->udp_packets > 0)
		ps_fact(f, "receiver_loss",
			(double)s->udp_lost / (double)s->udp_packets, "share");
	if (share >= rules[R_SHORT].value) {
		PS_SET(f->evidence,
		       _("the senders sent %s of the %s asked for"), sent,
		       want);
		return PS_CHECK_CLEAR;
	}
	f->severity = PS_SEV_WARNING;
	ps_crossed(f, &rules[R_SHORT]);
	f->scope = PS_SCOPE_FLOW;
	f->ceiling_bps = s->udp_sent_bps;
	f->ceiling_measured = true;
	PS_SET(f->ceiling_what, "%s", _("what the UDP senders could send"));
	PS_SET(f->title, _("The UDP senders reached %s of the %s -b asks for"),
	       sent, want);
	PS_SET(f->evidence,
	       _("%.0f%% of the target: the sending end could not send faster "
		 "(a core or the socket), before any loss on the path"),
	       share * 100);
	if (s->udp_packets > 0)
		PS_APPEND(f->evidence, _("; the receivers lost %.1f%%"),
			  100.0 * (double)s->udp_lost / (double)s->udp_packets);
	PS_SET(f->remedy, "%s",
	       _("more streams (-P), larger datagrams (-l), or a lower -b "
		 "that the sender can keep"));
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_udp_rate = {
	.id = "udp_rate",
	.family = "path",
	.title = N_("the UDP sender against its target rate"),
	.weight = 40,
	.needs_test = true,
	.eval = eval_udp_rate,
};
