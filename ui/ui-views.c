/* ui-views.c: the workstation's views in the order of Tab; a new view is
 * its own file (a const struct ui_view_ops with its title, key, keys and
 * state) and one line here. The footers, the help's keys and list of views
 * and the key a string cites a view by come from this table */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nls.h"
#include "ui-internal.h"
#include "xmalloc.h"

/* the views, a line each: ui_view_NAME, the ops in view-NAME.c */
#define VIEWS(X)                                                               \
	X(dashboard)                                                           \
	X(streams)                                                             \
	X(cpu)                                                                 \
	X(irq)                                                                 \
	X(nic)                                                                 \
	X(checklist)                                                           \
	X(history)                                                             \
	X(procs)

#define DECLARE(name) extern const struct ui_view_ops ui_view_##name;
#define ENTRY(name) &ui_view_##name,
VIEWS(DECLARE)

const struct ui_view_ops *const ui_views[] = { VIEWS(ENTRY) };
const int ui_nviews = (int)(sizeof(ui_views) / sizeof(ui_views[0]));

/* at most as many views as there are digits to show them */
#define MAX_VIEWS 9
_Static_assert(sizeof(ui_views) / sizeof(ui_views[0]) <= MAX_VIEWS,
	       "a digit for each view");

const char *ui_view_ref(const struct ui_view_ops *v)
{
	/* one string per view: the caller may hold two at once */
	static char refs[MAX_VIEWS + 1][2];

	for (int i = 0; i < ui_nviews && i < MAX_VIEWS; i++)
		if (ui_views[i] == v) {
			refs[i][0] = (char)v->key;
			return refs[i];
		}
	refs[MAX_VIEWS][0] = (char)v->key;
	return refs[MAX_VIEWS];
}

const char *ui_views_range(void)
{
	static char range[8];

	snprintf(range, sizeof(range), "%c-%c", ui_views[0]->key,
		 ui_views[ui_nviews - 1]->key);
	return range;
}

static int view_index(const struct ui_view_ops *v)
{
	for (int i = 0; i < ui_nviews; i++)
		if (ui_views[i] == v)
			return i;
	return -1;
}

void *ui_view_state(const struct ui *ui, const struct ui_view_ops *v)
{
	int i = view_index(v);

	return i < 0 || !ui->vstate ? NULL : ui->vstate[i];
}

void ui_views_open(struct ui *ui)
{
	ui->vstate = xcalloc((size_t)ui_nviews, sizeof(*ui->vstate));
	for (int i = 0; i < ui_nviews; i++) {
		const struct ui_view_ops *v = ui_views[i];

		if (!v->state_size)
			continue;
		ui->vstate[i] = xcalloc(1, v->state_size);
		if (v->init)
			v->init(ui, ui->vstate[i]);
	}
}

void ui_views_close(struct ui *ui)
{
	if (!ui->vstate)
		return;
	for (int i = 0; i < ui_nviews; i++) {
		if (ui->vstate[i] && ui_views[i]->free)
			ui_views[i]->free(ui, ui->vstate[i]);
		free(ui->vstate[i]);
	}
	free(ui->vstate);
	ui->vstate = NULL;
}

const struct ui_key *ui_key_find(const struct ui_key *keys, int n, int ch)
{
	for (int i = 0; i < n; i++)
		for (int c = 0; c < 4 && keys[i].ch[c]; c++)
			if (keys[i].ch[c] == ch)
				return &keys[i];
	return NULL;
}

/* the format's one %s filled with s; fmt is ours, never translated text
 * from outside */
static void fill(char *buf, size_t len, const char *fmt, const char *s)
{
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	snprintf(buf, len, fmt, s);
#pragma GCC diagnostic pop
}

const char *ui_key_name(const struct ui_key *k, bool shorter, char *buf,
			size_t len)
{
	const char *name = shorter ? k->shortkey : k->key;

	if (!(k->flags & UI_KEY_VIEWS))
		return name;
	fill(buf, len, name, ui_views_range());
	return buf;
}

/* whether view v's footer leaves key k out */
static bool left_out(const struct ui_view_ops *v, const struct ui_key *k)
{
	return v->footer_without && k->ch[0] > 0 && k->ch[0] < 256 &&
	       strchr(v->footer_without, k->ch[0]);
}

/* whether one of v's keys it shows now has the name of k */
static bool taken(struct ui *ui, const struct ui_view_ops *v,
		  const struct ui_key *k)
{
	for (int i = 0; i < v->nkeys; i++) {
		const struct ui_key *o = &v->keys[i];

		if (o->key && !(o->flags & UI_KEY_OTHER_FOOTERS) &&
		    (!o->shown || o->shown(ui)) && !strcmp(o->key, k->key))
			return true;
	}
	return false;
}

/* out[0..n) by rank, the order they came in kept among equals */
static void by_rank(const struct ui_key **out, int n)
{
	for (int i = 1; i < n; i++)
		for (int k = i; k > 0 && out[k]->rank < out[k - 1]->rank; k--) {
			const struct ui_key *t = out[k];

			out[k] = out[k - 1];
			out[k - 1] = t;
		}
}

int ui_footer_keys(struct ui *ui, const struct ui_view_ops *v,
		   const struct ui_key **out, int max)
{
	int n = 0;

	for (int i = 0; i < ui_nglobal_keys && n < max; i++) {
		const struct ui_key *k = &ui_global_keys[i];

		if (k->key && !left_out(v, k) && !taken(ui, v, k))
			out[n++] = k;
	}
	for (int w = 0; w < ui_nviews; w++) {
		if (ui_views[w] == v)
			continue;
		for (int i = 0; i < ui_views[w]->nkeys && n < max; i++) {
			const struct ui_key *k = &ui_views[w]->keys[i];

			if (k->key && (k->flags & UI_KEY_OTHER_FOOTERS) &&
			    !left_out(v, k))
				out[n++] = k;
		}
	}
	for (int i = 0; i < v->nkeys && n < max; i++) {
		const struct ui_key *k = &v->keys[i];

		if (k->key && !(k->flags & UI_KEY_OTHER_FOOTERS) &&
		    (!k->shown || k->shown(ui)))
			out[n++] = k;
	}
	by_rank(out, n);
	return n;
}

/* "dashboard, streams, CPU, ..." */
static void view_names(char *buf, size_t len)
{
	size_t l = 0;

	buf[0] = 0;
	for (int i = 0; i < ui_nviews && l < len; i++) {
		snprintf(buf + l, len - l, "%s%s", i ? ", " : "",
			 _(ui_views[i]->noun));
		l = strlen(buf);
	}
}

static void help_line(const struct ui_key *k, struct ui_help_line *h)
{
	char names[256];

	if (k->flags & UI_KEY_VIEWS) {
		fill(h->key, sizeof(h->key), k->helpkey, ui_views_range());
		view_names(names, sizeof(names));
		fill(h->text, sizeof(h->text), _(k->help), names);
	} else if (k->ref) {
		snprintf(h->key, sizeof(h->key), "%s", k->helpkey);
		/* its one %s, as msgfmt -c checks of the catalogue */
		fill(h->text, sizeof(h->text), _(k->help), ui_view_ref(k->ref));
	} else {
		snprintf(h->key, sizeof(h->key), "%s", k->helpkey);
		snprintf(h->text, sizeof(h->text), "%s", _(k->help));
	}
}

int ui_help_lines(struct ui_help_line *out, int max)
{
	const struct ui_key *keys[64];
	int n = 0;

	for (int i = 0; i < ui_nglobal_keys && n < 64; i++)
		if (ui_global_keys[i].helpkey)
			keys[n++] = &ui_global_keys[i];
	for (int w = 0; w < ui_nviews; w++)
		for (int i = 0; i < ui_views[w]->nkeys && n < 64; i++)
			if (ui_views[w]->keys[i].helpkey)
				keys[n++] = &ui_views[w]->keys[i];
	by_rank(keys, n);
	if (n > max)
		n = max;
	for (int i = 0; i < n; i++)
		help_line(keys[i], &out[i]);
	return n;
}
