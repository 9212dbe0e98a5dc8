/* history.c: the run history's file: SQLite in WAL mode with a busy timeout
 * (two writers lose nothing), a versioned schema with migrations, a record
 * written in one transaction, snapshots compressed with zlib */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <pwd.h>
#include <math.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "clock.h"
#include "history.h"
#include "jsonutil.h"
#include "log.h"
#include "nls.h"
#include "proto.h"
#include "selftest.h"
#include "units.h"
#include "xmalloc.h"

/* how long a writer waits for another one, in steps that look at signals */
#define BUSY_TIMEOUT_MS 3000
#define BUSY_STEP_MS 10
/*
 * How long a test may spend on the history, all statements and waits
 * together (a record takes milliseconds; a hand-made file must not hold
 * a test): writing a record, and a glance (the screen's list, check's
 * "since the last run"). The history commands have no deadline: a signal
 * stops them.
 */
#define WRITE_DEADLINE_S 5
#define GLANCE_DEADLINE_S 2
/* SQLite's virtual machine looks at the deadline and signals this often */
#define PROGRESS_OPS 64

struct ps_hist {
	sqlite3 *db;
	char *path;
	int64_t deadline_ns; /* CLOCK_MONOTONIC; 0: none */
};

/*
 * Version 1, as the first pipescope with a history wrote it: kept so that a
 * new file goes through every migration, as an old one does.
 */
static const char schema_v1[] = "CREATE TABLE runs ("
				" id INTEGER PRIMARY KEY AUTOINCREMENT,"
				" time_ns INTEGER NOT NULL,"
				" kind TEXT NOT NULL,"
				" target TEXT NOT NULL,"
				" direction TEXT NOT NULL,"
				" streams INTEGER NOT NULL,"
				" bps REAL,"
				" top_finding TEXT,"
				" host TEXT,"
				" result TEXT);"
				"PRAGMA user_version = 1;";

/* version 2: both ends, the parameters, the check report, the snapshots
 * (a table of their own, so that listing never reads them) */
static const char migrate_v2[] =
	"ALTER TABLE runs ADD COLUMN proto TEXT NOT NULL DEFAULT 'tcp';"
	"ALTER TABLE runs ADD COLUMN port INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE runs ADD COLUMN spread REAL;"
	"ALTER TABLE runs ADD COLUMN local_boot TEXT;"
	"ALTER TABLE runs ADD COLUMN local_kernel TEXT;"
	"ALTER TABLE runs ADD COLUMN local_version TEXT;"
	"ALTER TABLE runs ADD COLUMN remote_host TEXT;"
	"ALTER TABLE runs ADD COLUMN remote_boot TEXT;"
	"ALTER TABLE runs ADD COLUMN remote_kernel TEXT;"
	"ALTER TABLE runs ADD COLUMN remote_version TEXT;"
	"ALTER TABLE runs ADD COLUMN params TEXT;"
	"ALTER TABLE runs ADD COLUMN extras TEXT;"
	"ALTER TABLE runs ADD COLUMN check_report TEXT;"
	"CREATE TABLE snapshots ("
	" run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" side INTEGER NOT NULL,"
	" encoding TEXT NOT NULL,"
	" size INTEGER NOT NULL,"
	" data BLOB NOT NULL,"
	" PRIMARY KEY (run, side));"
	"CREATE INDEX runs_time ON runs (time_ns);"
	"CREATE INDEX runs_target_time ON runs (target, time_ns);"
	"PRAGMA user_version = 2;";

/* version 3: the documents (the -J document, the check report) in a table
 * of their own, so that the list reads small rows */
static const char migrate_v3[] =
	"CREATE TABLE documents ("
	" run INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,"
	" result TEXT, params TEXT, extras TEXT, check_report TEXT);"
	"INSERT INTO documents SELECT id, result, params, extras,"
	" check_report FROM runs;"
	"UPDATE runs SET result = NULL, params = NULL, extras = NULL,"
	" check_report = NULL;"
	"PRAGMA user_version = 3;";

/* version 4: how each test ended (done, stopped, partial); a test kept
 * before it says partial in its extras, or was whole; stopped and faulted
 * were one then */
static const char migrate_v4[] =
	"ALTER TABLE runs ADD COLUMN ended TEXT;"
	"UPDATE runs SET ended = CASE WHEN EXISTS (SELECT 1 FROM documents d"
	" WHERE d.run = runs.id AND json_valid(d.extras)"
	" AND json_extract(d.extras, '$.partial') = 1)"
	" THEN 'partial' ELSE 'done' END"
	" WHERE kind IN ('test', 'screen');"
	"PRAGMA user_version = 4;";

/* version 5: a UDP run's loss (the share of its datagrams lost, 0-1, both
 * directions of a bidir run), from the -J document of the runs kept
 * before; a value out of 0-1 reads as not known */
static const char migrate_v5[] =
	"ALTER TABLE runs ADD COLUMN loss REAL;"
	"UPDATE runs SET loss = (SELECT CAST(json_extract(d.result,"
	" '$.end.sum.lost_packets') + IFNULL(json_extract(d.result,"
	" '$.end.sum_bidir_reverse.lost_packets'), 0) AS REAL) /"
	" (json_extract(d.result, '$.end.sum.packets') +"
	" IFNULL(json_extract(d.result,"
	" '$.end.sum_bidir_reverse.packets'), 0))"
	" FROM documents d WHERE d.run = runs.id"
	" AND json_valid(d.result) AND json_extract(d.result,"
	" '$.end.sum.packets') > 0)"
	" WHERE proto = 'udp';"
	"PRAGMA user_version = 5;";

static const char *const migrations[PS_HIST_SCHEMA] = { schema_v1, migrate_v2,
							migrate_v3, migrate_v4,
							migrate_v5 };

/* ---- errors ------------------------------------------------------------ */

/* the file can be written, and its folder (WAL makes files beside it) */
static bool writable(const char *path)
{
	char *d = xstrdup(path), *s = strrchr(d, '/');
	bool ok;

	if (s)
		*(s == d ? s + 1 : s) = 0;
	else
		snprintf(d, 2, ".");
	ok = !access(d, W_OK) && (access(path, F_OK) || !access(path, W_OK));
	free(d);
	return ok;
}

static int db_error(sqlite3 *db, int rc, const char *path, char *err,
		    size_t errlen)
{
	int e;

	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		/* the wait for the lock ends at a signal */
		if (atomic_load(&ps_stop_requested)) {
			snprintf(err, errlen, _("%s: stopped by a signal"),
				 path);
			e = -EINTR;
			break;
		}
		snprintf(err, errlen, _("%s is locked by another process"),
			 path);
		e = -EBUSY;
		break;
	case SQLITE_READONLY:
		snprintf(err, errlen, _("%s is read-only"), path);
		e = -EROFS;
		break;
	case SQLITE_FULL:
		snprintf(err, errlen, _("the disk holding %s is full"), path);
		e = -ENOSPC;
		break;
	case SQLITE_INTERRUPT:
		if (atomic_load(&ps_stop_requested))
			snprintf(err, errlen, _("%s: stopped by a signal"),
				 path);
		else
			snprintf(err, errlen,
				 _("%s took too long to read or write "
				   "(given up)"),
				 path);
		e = -ETIMEDOUT;
		break;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		snprintf(err, errlen,
			 _("%s is damaged or not a pipescope history "
			   "(move it away to start a new one)"),
			 path);
		e = -EILSEQ;
		break;
	case SQLITE_CANTOPEN:
	case SQLITE_PERM:
	case SQLITE_AUTH:
		if (!writable(path)) {
			snprintf(err, errlen, _("%s is read-only"), path);
			e = -EROFS;
			break;
		}
		snprintf(err, errlen, _("cannot open %s: %s"), path,
			 db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		e = -EACCES;
		break;
	default:
		snprintf(err, errlen, "%s: %s", path,
			 db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		e = -EIO;
		break;
	}
	return e;
}

void ps_hist_warn_once(const char *why)
{
	static atomic_bool told;

	if (!atomic_exchange(&told, true))
		ps_warn(_("this run is not in the history (%s)"), why);
}

/* ---- the file ---------------------------------------------------------- */

char *ps_hist_path(const struct ps_opts *o)
{
	const char *env = getenv("PIPESCOPE_HISTORY");
	const char *state = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	char *p;

	if (o->no_history)
		return NULL;
	if (o->history_file)
		return xstrdup(o->history_file);
	/* "off": none (the test suite's default) */
	if (env && !strcmp(env, "off"))
		return NULL;
	if (env && *env)
		return xstrdup(env);
	if (state && *state == '/')
		xasprintf(&p, "%s/pipescope/history.db", state);
	else if (home && *home)
		xasprintf(&p, "%s/.local/state/pipescope/history.db", home);
	else
		return NULL;
	return p;
}

/* the folders above the file, made private (0700) where they are new */
static int make_parents(const char *path)
{
	char *d = xstrdup(path);
	int rc = 0;

	for (char *s = strchr(d + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		if (mkdir(d, 0700) && errno != EEXIST) {
			rc = -errno;
			break;
		}
		*s = '/';
	}
	free(d);
	return rc;
}

static int exec_sql(struct ps_hist *h, const char *sql, char *err,
		    size_t errlen)
{
	int rc = sqlite3_exec(h->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : db_error(h->db, rc, h->path, err, errlen);
}

/* every object of a database's schema, one line each, in one text
 * (xmalloc'ed; NULL when it cannot be read) */
static char *schema_text(sqlite3 *db)
{
	static const char q[] =
		"SELECT group_concat(x, char(10)) FROM (SELECT type || ' ' ||"
		" name || ' ' || tbl_name || ' ' || ifnull(sql, '') AS x"
		" FROM sqlite_master ORDER BY type, name)";
	sqlite3_stmt *st;
	char *t = NULL;

	if (sqlite3_prepare_v2(db, q, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	if (sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char *s = sqlite3_column_text(st, 0);

		t = xstrdup(s ? (const char *)s : "");
	}
	sqlite3_finalize(st);
	return t;
}

/*
 * The file's schema is exactly what pipescope's migrations make for its
 * version (0: nothing at all): a table, index, trigger or view of anyone
 * else's (an index on an expression makes every insert as slow as its
 * author wishes) is not ours to write or trust.
 */
static int schema_ours(struct ps_hist *h, int v, char *err, size_t errlen)
{
	sqlite3 *mem = NULL;
	char *want = NULL, *have;
	int rc = sqlite3_open_v2(":memory:", &mem,
				 SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
				 NULL);

	for (int i = 0; rc == SQLITE_OK && i < v; i++)
		rc = sqlite3_exec(mem, migrations[i], NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		want = schema_text(mem);
	sqlite3_close(mem);
	have = schema_text(h->db);
	if (!have) {
		rc = db_error(h->db, sqlite3_errcode(h->db), h->path, err,
			      errlen);
	} else if (!want || strcmp(want, have)) {
		snprintf(err, errlen,
			 _("%s is not a pipescope history (its tables are not "
			   "those of schema %d)"),
			 h->path, v);
		rc = -EPROTO;
	} else {
		rc = 0;
	}
	free(want);
	free(have);
	return rc;
}

static int user_version(struct ps_hist *h, int *v, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc =
		sqlite3_prepare_v2(h->db, "PRAGMA user_version", -1, &st, NULL);

	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			*v = sqlite3_column_int(st, 0);
			rc = SQLITE_OK;
		}
		sqlite3_finalize(st);
	}
	if (rc != SQLITE_OK)
		return db_error(h->db, rc, h->path, err, errlen);
	/* a version no pipescope writes: never an index into migrations */
	if (*v < 0) {
		snprintf(err, errlen,
			 _("%s is not a pipescope history (schema version %d)"),
			 h->path, *v);
		return -EPROTO;
	}
	return *v <= PS_HIST_SCHEMA ? schema_ours(h, *v, err, errlen) : 0;
}

/* bring the schema to PS_HIST_SCHEMA, each step in a transaction */
static int migrate(struct ps_hist *h, char *err, size_t errlen)
{
	int v, rc;

	rc = user_version(h, &v, err, errlen);
	if (rc)
		return rc;
	if (v > PS_HIST_SCHEMA) {
		snprintf(err, errlen,
			 _("%s was written by a newer pipescope (schema %d, "
			   "this one reads up to %d)"),
			 h->path, v, PS_HIST_SCHEMA);
		return -EPROTO;
	}
	if (v == PS_HIST_SCHEMA)
		return 0;
	/* another process may be migrating too: take the write lock, then
	 * look again */
	rc = exec_sql(h, "BEGIN IMMEDIATE", err, errlen);
	if (rc)
		return rc;
	rc = user_version(h, &v, err, errlen);
	for (; !rc && v < PS_HIST_SCHEMA; v++)
		rc = exec_sql(h, migrations[v], err, errlen);
	if (!rc)
		rc = exec_sql(h, "COMMIT", err, errlen);
	if (rc)
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

static void harden(struct ps_hist *h);

/*
 * A history on a read-only disk: WAL cannot make its files beside it, so it
 * is read as it is (nobody can be writing it), when its schema is ours.
 */
static int open_readonly(struct ps_hist *h, char *err, size_t errlen)
{
	char *uri;
	int v, rc;

	if (strpbrk(h->path, "?#%"))
		return -EROFS;
	sqlite3_close(h->db);
	h->db = NULL;
	xasprintf(&uri, "file:%s?immutable=1", h->path);
	rc = sqlite3_open_v2(uri, &h->db,
			     SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
				     SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW,
			     NULL);
	free(uri);
	if (rc != SQLITE_OK)
		return db_error(h->db, rc, h->path, err, errlen);
	harden(h);
	rc = user_version(h, &v, err, errlen);
	if (!rc && v != PS_HIST_SCHEMA) {
		snprintf(err, errlen,
			 _("%s is read-only and of schema %d: it cannot be "
			   "brought to %d"),
			 h->path, v, PS_HIST_SCHEMA);
		rc = -EROFS;
	}
	return rc;
}

/* ---- who may have put the file there ---------------------------------- */

static bool trusted_owner(uid_t uid)
{
	return uid == geteuid() || uid == 0;
}

/* a name for a user, for a message */
static void user_name(uid_t uid, char *buf, size_t len)
{
	struct passwd pw, *res = NULL;
	char tmp[1024];

	if (!getpwuid_r(uid, &pw, tmp, sizeof(tmp), &res) && res)
		snprintf(buf, len, "%s", res->pw_name);
	else
		snprintf(buf, len, "uid %u", (unsigned)uid);
}

/*
 * One folder on the way to the file (already resolved: no links): owned by
 * this user or root, and nobody else can replace what is in it; an upper
 * folder others may write only with the sticky bit (as /tmp), the history's
 * own folder not at all.
 */
static int safe_folder(const char *dir, bool own, char *err, size_t errlen)
{
	struct stat st;
	char who[64];

	if (lstat(dir, &st)) {
		int e = errno;

		snprintf(err, errlen, _("cannot open the folder %s: %s"), dir,
			 ps_strerror(e));
		return -e;
	}
	if (!trusted_owner(st.st_uid)) {
		user_name(st.st_uid, who, sizeof(who));
		snprintf(err, errlen,
			 _("the folder %s belongs to %s: the history is kept "
			   "only in folders of its own user or root"),
			 dir, who);
		return -EPERM;
	}
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) &&
	    (own || !(st.st_mode & S_ISVTX))) {
		snprintf(err, errlen,
			 _("other users may write in the folder %s: keep the "
			   "history in a folder only you can write"),
			 dir);
		return -EPERM;
	}
	return 0;
}

/* every folder from / down to the file's own one */
static int safe_folders(const char *path, char *err, size_t errlen)
{
	char *d = xstrdup(path), *s = strrchr(d, '/'), *real;
	size_t n;
	int rc;

	if (s)
		*(s == d ? s + 1 : s) = 0;
	else
		snprintf(d, 2, ".");
	real = realpath(d, NULL);
	if (!real) {
		rc = -errno;
		snprintf(err, errlen, _("cannot open the folder %s: %s"), d,
			 ps_strerror(-rc));
		free(d);
		return rc;
	}
	free(d);
	n = strlen(real);
	rc = safe_folder("/", n == 1, err, errlen);
	for (size_t i = 1; !rc && i <= n; i++) {
		char c = real[i];

		if (c && c != '/')
			continue;
		real[i] = 0;
		rc = safe_folder(real, i == n, err, errlen);
		real[i] = c;
	}
	free(real);
	return rc;
}

/*
 * The file and the ones SQLite makes beside it: regular files, never links,
 * and this user's when they are to be written. A missing file is made
 * here, private (never a chmod by name afterwards).
 */
static int safe_files(const char *path, enum ps_hist_mode mode, char *err,
		      size_t errlen)
{
	static const char *const beside[] = { "", "-wal", "-shm", "-journal" };
	char name[PATH_MAX + 16], who[64];
	struct stat st;
	int fd;

	for (size_t i = 0; i < sizeof(beside) / sizeof(*beside); i++) {
		snprintf(name, sizeof(name), "%s%s", path, beside[i]);
		if (lstat(name, &st)) {
			int e = errno;

			if (e == ENOENT)
				continue;
			snprintf(err, errlen, _("cannot open %s: %s"), name,
				 ps_strerror(e));
			return -e;
		}
		if (S_ISLNK(st.st_mode)) {
			snprintf(err, errlen,
				 _("%s is a symbolic link: name the file "
				   "itself"),
				 name);
			return -ELOOP;
		}
		if (!S_ISREG(st.st_mode)) {
			snprintf(err, errlen, _("%s is not a file"), name);
			return -EINVAL;
		}
		if (mode == PS_HIST_WRITE && st.st_uid != geteuid()) {
			user_name(st.st_uid, who, sizeof(who));
			snprintf(err, errlen,
				 _("%s belongs to %s: a history is written "
				   "only by its own user"),
				 name, who);
			return -EPERM;
		}
	}
	if (mode != PS_HIST_WRITE)
		return 0;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd >= 0) {
		close(fd);
	} else if (errno != EEXIST) {
		int e = errno;

		snprintf(err, errlen, _("cannot make %s: %s"), path,
			 ps_strerror(e));
		return -e;
	}
	return 0;
}

/* ---- the connection ---------------------------------------------------- */

static bool past_deadline(const struct ps_hist *h)
{
	return h->deadline_ns && ps_mono_ns() > h->deadline_ns;
}

/* SQLite's virtual machine asks: non-zero interrupts the statement */
static int progress(void *arg)
{
	return atomic_load(&ps_stop_requested) || past_deadline(arg);
}

/* another process holds the lock: wait in short steps, never past a
 * signal, the deadline or BUSY_TIMEOUT_MS */
static int busy(void *arg, int n)
{
	struct timespec ts = { 0, BUSY_STEP_MS * 1000000L };

	if (atomic_load(&ps_stop_requested) || past_deadline(arg) ||
	    n >= BUSY_TIMEOUT_MS / BUSY_STEP_MS)
		return 0;
	nanosleep(&ts, NULL);
	return 1;
}

/*
 * What a file handed to us cannot make SQLite do: run triggers or views of
 * its own (we use neither), call functions its schema names, write the
 * schema, attach other files, or hold a value larger than a record may be.
 */
static void harden(struct ps_hist *h)
{
	sqlite3 *db = h->db;

	sqlite3_extended_result_codes(db, 0);
	sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	sqlite3_limit(db, SQLITE_LIMIT_LENGTH, PS_HIST_VALUE_MAX);
	sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
	/* our own statements nest a few levels; a schema's expression
	 * thousands of terms long is no history of ours */
	sqlite3_limit(db, SQLITE_LIMIT_EXPR_DEPTH, 100);
	sqlite3_busy_handler(db, busy, h);
	sqlite3_progress_handler(db, PROGRESS_OPS, progress, h);
}

int ps_hist_open(const char *path, enum ps_hist_mode mode, struct ps_hist **out,
		 char *err, size_t errlen)
{
	struct ps_hist *h;
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX |
		    SQLITE_OPEN_NOFOLLOW;
	int64_t budget = mode == PS_HIST_WRITE	  ? WRITE_DEADLINE_S
			 : mode == PS_HIST_GLANCE ? GLANCE_DEADLINE_S
						  : 0;
	bool safe;
	int rc;

	*out = NULL;
	if (mode != PS_HIST_WRITE && access(path, F_OK)) {
		snprintf(err, errlen, _("no history yet: %s does not exist"),
			 path);
		return -ENOENT;
	}
	if (mode == PS_HIST_WRITE) {
		rc = make_parents(path);
		if (rc) {
			snprintf(err, errlen,
				 _("cannot make the folder of %s: %s"), path,
				 ps_strerror(-rc));
			return rc;
		}
	}
	/* a file another user could have put or swapped is never written;
	 * it can still be read, as it is (nothing is made beside it) */
	rc = safe_folders(path, err, errlen);
	if (!rc)
		rc = safe_files(path, mode, err, errlen);
	if (rc && (mode == PS_HIST_WRITE || rc == -ELOOP))
		return rc;
	safe = !rc;
	h = xcalloc(1, sizeof(*h));
	h->path = xstrdup(path);
	h->deadline_ns = budget ? ps_mono_ns() + budget * 1000000000LL : 0;
	if (!safe) {
		rc = open_readonly(h, err, errlen);
		if (rc)
			goto out_close;
		*out = h;
		return 0;
	}
	rc = sqlite3_open_v2(path, &h->db, flags, NULL);
	if (rc != SQLITE_OK) {
		rc = db_error(h->db, rc, path, err, errlen);
		if (rc == -EROFS && mode != PS_HIST_WRITE)
			rc = open_readonly(h, err, errlen);
		if (rc)
			goto out_close;
		*out = h;
		return 0;
	}
	harden(h);
	/* WAL: readers and writers do not block each other, and a killed
	 * writer leaves the file as it was */
	rc = exec_sql(h, "PRAGMA journal_mode = WAL", err, errlen);
	if (!rc)
		rc = exec_sql(h, "PRAGMA synchronous = NORMAL", err, errlen);
	if (!rc)
		rc = exec_sql(h, "PRAGMA foreign_keys = ON", err, errlen);
	if (!rc)
		rc = migrate(h, err, errlen);
	if (rc == -EROFS && mode != PS_HIST_WRITE)
		rc = open_readonly(h, err, errlen);
	if (rc)
		goto out_close;
	*out = h;
	return 0;
out_close:
	ps_hist_close(h);
	return rc;
}

void ps_hist_close(struct ps_hist *h)
{
	if (!h)
		return;
	sqlite3_close(h->db);
	free(h->path);
	free(h);
}

void ps_hist_rec_free(struct ps_hist_rec *r)
{
	free(r->params);
	free(r->result);
	free(r->extras);
	free(r->check);
	free(r->snap[0]);
	free(r->snap[1]);
	r->params = r->result = r->extras = r->check = NULL;
	r->snap[0] = r->snap[1] = NULL;
}

/* ---- writing ----------------------------------------------------------- */

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s && *s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

static void bind_real(sqlite3_stmt *st, int i, double v)
{
	if (isfinite(v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static const char insert_run[] =
	"INSERT INTO runs (time_ns, kind, target, direction, streams, bps,"
	" top_finding, host, proto, port, spread, local_boot,"
	" local_kernel, local_version, remote_host, remote_boot,"
	" remote_kernel, remote_version, ended, loss)"
	" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";

static int insert_docs(struct ps_hist *h, int64_t id,
		       const struct ps_hist_rec *r)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(h->db,
				    "INSERT INTO documents (run, result,"
				    " params, extras, check_report)"
				    " VALUES (?, ?, ?, ?, ?)",
				    -1, &st, NULL);

	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(st, 1, id);
	bind_text(st, 2, r->result);
	bind_text(st, 3, r->params);
	bind_text(st, 4, r->extras);
	bind_text(st, 5, r->check);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int insert_snap(struct ps_hist *h, int64_t id, int side,
		       const char *json)
{
	uLong len = (uLong)strlen(json);
	uLongf zlen = compressBound(len);
	Bytef *z = xmalloc(zlen);
	sqlite3_stmt *st;
	int rc;

	if (compress2(z, &zlen, (const Bytef *)json, len, 3) != Z_OK) {
		free(z);
		return SQLITE_NOMEM;
	}
	rc = sqlite3_prepare_v2(h->db,
				"INSERT INTO snapshots (run, side, encoding,"
				" size, data) VALUES (?, ?, 'zlib', ?, ?)",
				-1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int(st, 2, side);
		sqlite3_bind_int64(st, 3, (sqlite3_int64)len);
		sqlite3_bind_blob(st, 4, z, (int)zlen, SQLITE_STATIC);
		rc = sqlite3_step(st);
		rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
		sqlite3_finalize(st);
	}
	free(z);
	return rc;
}

/* what a JSON text holds (values and containers), or false when it is
 * more than one part may be */
static bool part_size(const char *text, struct ps_json_limit *used)
{
	static const struct ps_json_limit part = {
		.values = PS_HIST_REC_VALUES,
		.containers = PS_HIST_REC_CONTAINERS,
	};
	size_t n = text ? strlen(text) : 0;

	memset(used, 0, sizeof(*used));
	return n <= PS_HIST_VALUE_MAX &&
	       (!n || !ps_json_within(text, n, &part, used));
}

static bool fits(const struct ps_json_limit *a, const struct ps_json_limit *b)
{
	return (uint64_t)a->bytes + b->bytes <= PS_HIST_REC_BYTES &&
	       (uint64_t)a->values + b->values <= PS_HIST_REC_VALUES &&
	       (uint64_t)a->containers + b->containers <=
		       PS_HIST_REC_CONTAINERS;
}

static void add_size(struct ps_json_limit *sum, const struct ps_json_limit *x)
{
	sum->bytes += x->bytes;
	sum->values += x->values;
	sum->containers += x->containers;
}

/*
 * The -J document made smaller, for a record that would be larger than
 * a record may be read back: the intervals' streams first (their sums
 * stay), then the intervals; "pipescope"."history_trimmed" says which.
 * xmalloc'ed, or NULL when even that does not fit `room`.
 */
static char *trim_result(const char *result, const struct ps_json_limit *room)
{
	static const char *const steps[] = { "streams", "intervals" };
	struct json_object *doc = json_tokener_parse(result), *iv, *ext;
	char *out = NULL;

	if (!doc || !json_object_is_type(doc, json_type_object)) {
		json_object_put(doc);
		return NULL;
	}
	for (size_t k = 0; k < 2 && !out; k++) {
		struct ps_json_limit used;
		const char *t;

		if (json_object_object_get_ex(doc, "intervals", &iv) &&
		    json_object_is_type(iv, json_type_array)) {
			if (k == 0)
				for (size_t i = 0;
				     i < json_object_array_length(iv); i++)
					json_object_object_del(
						json_object_array_get_idx(iv,
									  i),
						"streams");
			else
				json_object_object_del(doc, "intervals");
		}
		if (json_object_object_get_ex(doc, "pipescope", &ext) &&
		    json_object_is_type(ext, json_type_object))
			json_object_object_add(
				ext, "history_trimmed",
				json_object_new_string(steps[k]));
		t = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN);
		if (part_size(t, &used) && fits(room, &used))
			out = xstrdup(t);
	}
	json_object_put(doc);
	return out;
}

/*
 * A record as it will be read back whole: the snapshots and the small
 * documents first, the -J document trimmed to what is left, and when even
 * the rest is too large (no real record is), the far end's snapshot, then
 * this end's, left out. w's texts are r's, but a trimmed result (*own,
 * freed by the caller).
 */
static void fit_record(const struct ps_hist_rec *r, struct ps_hist_rec *w,
		       char **own)
{
	struct ps_json_limit sum = { 0 }, size[5], res;
	char **part[] = { &w->params, &w->extras, &w->check, &w->snap[0],
			  &w->snap[1] };

	*w = *r;
	*own = NULL;
	for (int j = 0; j < 5; j++) {
		if (!part_size(*part[j], &size[j])) {
			*part[j] = NULL;
			memset(&size[j], 0, sizeof(size[j]));
		}
		add_size(&sum, &size[j]);
	}
	for (int j = 4; j >= 3 && !fits(&sum, &(struct ps_json_limit){ 0 });
	     j--) {
		sum.bytes -= size[j].bytes;
		sum.values -= size[j].values;
		sum.containers -= size[j].containers;
		*part[j] = NULL;
	}
	if (!w->result || (part_size(w->result, &res) && fits(&sum, &res)))
		return;
	*own = trim_result(w->result, &sum);
	w->result = *own;
}

int ps_hist_write(struct ps_hist *h, const struct ps_hist_rec *rec, int64_t *id,
		  char *err, size_t errlen)
{
	struct ps_hist_rec fitted, *r = &fitted;
	const struct ps_hist_end *l = &rec->end[0], *f = &rec->end[1];
	sqlite3_stmt *st = NULL;
	int64_t rowid = 0;
	char *trimmed;
	int rc, i = 1;

	/* made to fit before the file is locked; the deadline is the file's
	 * (its statements and waits), so it starts once the record is ready:
	 * trimming our own record is work bounded by its size, and under a
	 * sanitizer a record trimmed from 400000 values takes seconds */
	fit_record(rec, &fitted, &trimmed);
	if (h->deadline_ns)
		h->deadline_ns = ps_mono_ns() + WRITE_DEADLINE_S * 1000000000LL;
	rc = sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		rc = db_error(h->db, rc, h->path, err, errlen);
		free(trimmed);
		return rc;
	}
	rc = sqlite3_prepare_v2(h->db, insert_run, -1, &st, NULL);
	if (rc != SQLITE_OK)
		goto out_rollback;
	sqlite3_bind_int64(st, i++, r->time_ns);
	sqlite3_bind_text(st, i++, r->kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, i++, r->target, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, i++, r->direction, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, i++, r->streams);
	bind_real(st, i++, r->bps);
	bind_text(st, i++, r->top_finding);
	bind_text(st, i++, l->host);
	sqlite3_bind_text(st, i++, r->proto, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, i++, r->port);
	bind_real(st, i++, r->spread);
	bind_text(st, i++, l->boot_id);
	bind_text(st, i++, l->kernel);
	bind_text(st, i++, l->version);
	bind_text(st, i++, f->host);
	bind_text(st, i++, f->boot_id);
	bind_text(st, i++, f->kernel);
	bind_text(st, i++, f->version);
	bind_text(st, i++, r->ended);
	bind_real(st, i++, r->loss);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		goto out_rollback;
	rowid = sqlite3_last_insert_rowid(h->db);
	rc = insert_docs(h, rowid, r);
	if (rc != SQLITE_OK)
		goto out_rollback;
	for (int s = 0; s < 2; s++) {
		if (!r->snap[s] || !*r->snap[s])
			continue;
		rc = insert_snap(h, rowid, s, r->snap[s]);
		if (rc != SQLITE_OK)
			goto out_rollback;
	}
	rc = sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		goto out_rollback;
	if (id)
		*id = rowid;
	free(trimmed);
	return 0;
out_rollback:
	rc = db_error(h->db, rc, h->path, err, errlen);
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
	free(trimmed);
	return rc;
}

/* ---- reading ----------------------------------------------------------- */

static void col_str(sqlite3_stmt *st, int i, char *buf, size_t len)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	snprintf(buf, len, "%s", s ? (const char *)s : "");
}

static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? xstrdup((const char *)s) : NULL;
}

/* a number, or NAN (NULL, or text or a blob a hand-edited file holds) */
static double col_real(sqlite3_stmt *st, int i)
{
	int t = sqlite3_column_type(st, i);

	return t == SQLITE_FLOAT || t == SQLITE_INTEGER
		       ? sqlite3_column_double(st, i)
		       : NAN;
}

#define LIST_COLS                                                              \
	"id, time_ns, kind, target, direction, streams, bps, top_finding,"     \
	" host, proto, port, spread, ended, loss"

static void row_list(sqlite3_stmt *st, struct ps_hist_rec *r)
{
	memset(r, 0, sizeof(*r));
	r->id = sqlite3_column_int64(st, 0);
	r->time_ns = sqlite3_column_int64(st, 1);
	col_str(st, 2, r->kind, sizeof(r->kind));
	col_str(st, 3, r->target, sizeof(r->target));
	col_str(st, 4, r->direction, sizeof(r->direction));
	r->streams = sqlite3_column_int(st, 5);
	r->bps = col_real(st, 6);
	col_str(st, 7, r->top_finding, sizeof(r->top_finding));
	col_str(st, 8, r->end[0].host, sizeof(r->end[0].host));
	col_str(st, 9, r->proto, sizeof(r->proto));
	r->port = sqlite3_column_int(st, 10);
	r->spread = col_real(st, 11);
	/* a word of its own, or not known */
	col_str(st, 12, r->ended, sizeof(r->ended));
	if (strcmp(r->ended, "done") && strcmp(r->ended, "stopped") &&
	    strcmp(r->ended, "partial"))
		r->ended[0] = 0;
	/* a share, or not known (the file is not trusted) */
	r->loss = col_real(st, 13);
	if (!(r->loss >= 0 && r->loss <= 1))
		r->loss = NAN;
}

int ps_hist_list(struct ps_hist *h, const char *target, int last,
		 struct ps_hist_rec **rows, char *err, size_t errlen)
{
	char sql[256];
	sqlite3_stmt *st;
	size_t n = 0, cap = 0;
	struct ps_hist_rec *v = NULL;
	int rc;

	*rows = NULL;
	snprintf(sql, sizeof(sql),
		 "SELECT " LIST_COLS " FROM runs %s"
		 " ORDER BY time_ns DESC, id DESC LIMIT ?",
		 target ? "WHERE target = ?" : "");
	rc = sqlite3_prepare_v2(h->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return db_error(h->db, rc, h->path, err, errlen);
	if (target)
		sqlite3_bind_text(st, 1, target, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, target ? 2 : 1, last > 0 ? last : -1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			v = xrealloc(v, cap * sizeof(*v));
		}
		row_list(st, &v[n++]);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(v);
		return db_error(h->db, rc, h->path, err, errlen);
	}
	/* oldest first */
	for (size_t i = 0; i < n / 2; i++) {
		struct ps_hist_rec t = v[i];

		v[i] = v[n - 1 - i];
		v[n - 1 - i] = t;
	}
	*rows = v;
	return (int)n;
}

/* what is left of a record's bounds while its parts are read */
struct budget {
	struct ps_json_limit left;
};

static void budget_init(struct budget *b)
{
	b->left.bytes = PS_HIST_REC_BYTES;
	b->left.values = PS_HIST_REC_VALUES;
	b->left.containers = PS_HIST_REC_CONTAINERS;
}

/* the part's size (before it is read or inflated) fits what is left */
static bool budget_room(const struct budget *b, int64_t size)
{
	return size > 0 && size <= PS_HIST_VALUE_MAX && size <= b->left.bytes;
}

/* *text kept when it fits what is left of the record (its bytes, values
 * and containers, counted without building anything), else freed and
 * named in r->left_out */
static void budget_take(struct budget *b, struct ps_hist_rec *r, char **text,
			unsigned part)
{
	struct ps_json_limit used;
	size_t n;

	if (!*text)
		return;
	n = strlen(*text);
	if (budget_room(b, (int64_t)n) &&
	    !ps_json_within(*text, n, &b->left, &used)) {
		b->left.bytes -= used.bytes;
		b->left.values -= used.values;
		b->left.containers -= used.containers;
		return;
	}
	free(*text);
	*text = NULL;
	r->left_out |= part;
}

/* a snapshot's JSON back from its stored form, or NULL (size is what it
 * says it inflates to, bounded by the caller before anything is made) */
static char *snap_text(const char *enc, const void *data, int len, int64_t size)
{
	uLongf out;
	char *s;

	if (!data || len <= 0 || size <= 0 || size > PS_HIST_VALUE_MAX)
		return NULL;
	if (!strcmp(enc, "json")) {
		s = xmalloc((size_t)len + 1);
		memcpy(s, data, (size_t)len);
		s[len] = 0;
		return s;
	}
	if (strcmp(enc, "zlib"))
		return NULL;
	out = (uLongf)size;
	s = xmalloc((size_t)size + 1);
	if (uncompress((Bytef *)s, &out, data, (uLong)len) != Z_OK ||
	    out != (uLongf)size) {
		free(s);
		return NULL;
	}
	s[size] = 0;
	return s;
}

static int read_snaps(struct ps_hist *h, struct ps_hist_rec *r,
		      struct budget *b)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(h->db,
				    "SELECT side, encoding, size, data FROM "
				    "snapshots WHERE run = ?",
				    -1, &st, NULL);

	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(st, 1, r->id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int side = sqlite3_column_int(st, 0);
		const unsigned char *enc = sqlite3_column_text(st, 1);

		unsigned part;

		if (side < 0 || side > 1 || r->snap[side])
			continue;
		part = side ? PS_HIST_LEFT_SNAP_REMOTE
			    : PS_HIST_LEFT_SNAP_LOCAL;
		/* bounded by what it says it inflates to, before inflating */
		if (!budget_room(b, sqlite3_column_int64(st, 2))) {
			r->left_out |= part;
			continue;
		}
		r->snap[side] = snap_text(enc ? (const char *)enc : "",
					  sqlite3_column_blob(st, 3),
					  sqlite3_column_bytes(st, 3),
					  sqlite3_column_int64(st, 2));
		budget_take(b, r, &r->snap[side], part);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

#define FULL_COLS                                                              \
	LIST_COLS ", d.result, local_boot, local_kernel, local_version,"       \
		  " remote_host, remote_boot, remote_kernel, remote_version,"  \
		  " d.params, d.extras, d.check_report"                        \
		  " FROM runs LEFT JOIN documents d ON d.run = runs.id"

/* a document column, when it fits what is left of the record */
static char *col_doc(sqlite3_stmt *st, int i, struct budget *b,
		     struct ps_hist_rec *r, unsigned part)
{
	char *t;

	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return NULL;
	if (!budget_room(b, sqlite3_column_bytes(st, i))) {
		r->left_out |= part;
		return NULL;
	}
	t = col_dup(st, i);
	budget_take(b, r, &t, part);
	return t;
}

static void row_full(sqlite3_stmt *st, struct ps_hist_rec *r, struct budget *b)
{
	int i = 14;

	row_list(st, r);
	budget_init(b);
	r->result = col_doc(st, i++, b, r, PS_HIST_LEFT_RESULT);
	col_str(st, i++, r->end[0].boot_id, sizeof(r->end[0].boot_id));
	col_str(st, i++, r->end[0].kernel, sizeof(r->end[0].kernel));
	col_str(st, i++, r->end[0].version, sizeof(r->end[0].version));
	col_str(st, i++, r->end[1].host, sizeof(r->end[1].host));
	col_str(st, i++, r->end[1].boot_id, sizeof(r->end[1].boot_id));
	col_str(st, i++, r->end[1].kernel, sizeof(r->end[1].kernel));
	col_str(st, i++, r->end[1].version, sizeof(r->end[1].version));
	r->params = col_doc(st, i++, b, r, PS_HIST_LEFT_PARAMS);
	r->extras = col_doc(st, i++, b, r, PS_HIST_LEFT_EXTRAS);
	r->check = col_doc(st, i++, b, r, PS_HIST_LEFT_CHECK);
}

static int get_one(struct ps_hist *h, int64_t id, struct ps_hist_rec *r,
		   bool snaps, char *err, size_t errlen)
{
	struct budget b;
	sqlite3_stmt *st;
	int rc;

	memset(r, 0, sizeof(*r));
	rc = sqlite3_prepare_v2(h->db, "SELECT " FULL_COLS " WHERE id = ?", -1,
				&st, NULL);
	if (rc != SQLITE_OK)
		return db_error(h->db, rc, h->path, err, errlen);
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		row_full(st, r, &b);
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE) {
		snprintf(err, errlen, _("no run %lld in %s"), (long long)id,
			 h->path);
		return -ENOENT;
	}
	if (rc != SQLITE_ROW)
		return db_error(h->db, rc, h->path, err, errlen);
	if (!snaps)
		return 0;
	rc = read_snaps(h, r, &b);
	if (rc != SQLITE_OK) {
		ps_hist_rec_free(r);
		return db_error(h->db, rc, h->path, err, errlen);
	}
	return 0;
}

int ps_hist_get(struct ps_hist *h, int64_t id, struct ps_hist_rec *r, char *err,
		size_t errlen)
{
	return get_one(h, id, r, true, err, errlen);
}

int ps_hist_get_docs(struct ps_hist *h, int64_t id, struct ps_hist_rec *r,
		     char *err, size_t errlen)
{
	return get_one(h, id, r, false, err, errlen);
}

int ps_hist_each(struct ps_hist *h,
		 void (*fn)(const struct ps_hist_rec *r, void *arg), void *arg,
		 char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc;

	rc = sqlite3_prepare_v2(h->db,
				"SELECT " FULL_COLS " ORDER BY time_ns, id", -1,
				&st, NULL);
	if (rc != SQLITE_OK)
		return db_error(h->db, rc, h->path, err, errlen);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ps_hist_rec r;
		struct budget b;

		row_full(st, &r, &b);
		if (read_snaps(h, &r, &b) != SQLITE_OK) {
			ps_hist_rec_free(&r);
			continue;
		}
		fn(&r, arg);
		ps_hist_rec_free(&r);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0
				 : db_error(h->db, rc, h->path, err, errlen);
}

/* ---- shared by the renderers ------------------------------------------- */

/* history --format json's object (doc/history.md); not known: no key */
#define HR struct ps_hist_rec
static bool rec_has_loss(const void *base)
{
	return isfinite(ps_hist_loss(base));
}

static const struct ps_jfield rec_table[] = {
	PS_JFIELD(HR, id, "id", PS_JT_INT, 0, NULL, NULL),
	PS_JFIELD(HR, time_ns, "time_ns", PS_JT_INT, 0, NULL, NULL),
	PS_JFIELD(HR, kind, "kind", PS_JT_STRING, 0, NULL, NULL),
	PS_JFIELD(HR, target, "target", PS_JT_STRING, PS_JF_NA, NULL, NULL),
	PS_JFIELD(HR, port, "port", PS_JT_INT, 0, NULL, NULL),
	PS_JFIELD(HR, proto, "protocol", PS_JT_STRING, 0, NULL, NULL),
	PS_JFIELD(HR, direction, "direction", PS_JT_STRING, 0, NULL, NULL),
	PS_JFIELD(HR, streams, "streams", PS_JT_INT, 0, NULL, NULL),
	{ .key = "bits_per_second",
	  .type = PS_JT_DOUBLE,
	  .flags = PS_JF_ROUND | PS_JF_NA,
	  .decimals = PS_JV_EXACT,
	  .off = offsetof(HR, bps),
	  .size = PS_JSIZE(HR, bps) },
	{ .key = "spread",
	  .type = PS_JT_DOUBLE,
	  .flags = PS_JF_ROUND | PS_JF_NA,
	  .decimals = PS_JV_EXACT,
	  .off = offsetof(HR, spread),
	  .size = PS_JSIZE(HR, spread) },
	{ .key = "loss",
	  .type = PS_JT_DOUBLE,
	  .flags = PS_JF_ROUND | PS_JF_NA,
	  .decimals = PS_JV_EXACT,
	  .when = rec_has_loss,
	  .off = offsetof(HR, loss),
	  .size = PS_JSIZE(HR, loss) },
	PS_JFIELD(HR, ended, "ended", PS_JT_STRING, PS_JF_NA, NULL, NULL),
	PS_JFIELD(HR, top_finding, "top_finding", PS_JT_STRING, PS_JF_NA, NULL,
		  NULL),
	PS_JFIELD(HR, end[0].host, "host", PS_JT_STRING, PS_JF_NA, NULL, NULL),
	PS_JEND
};
#undef HR

double ps_hist_loss(const struct ps_hist_rec *r)
{
	/* in 0-1 or NAN: row_list bounds what the file holds */
	return !strcmp(r->proto, "udp") ? r->loss : NAN;
}

void ps_hist_rate_text(const struct ps_hist_rec *r, char *buf, size_t len)
{
	char rate[32], loss[16];

	if (isfinite(r->bps))
		ps_fmt_bps(rate, sizeof(rate), r->bps);
	else
		snprintf(rate, sizeof(rate), "-");
	if (!isfinite(ps_hist_loss(r))) {
		snprintf(buf, len, "%s", rate);
		return;
	}
	ps_fmt_loss(loss, sizeof(loss), r->loss);
	snprintf(buf, len, _("%s, %s lost"), rate, loss);
}

const char *ps_hist_ended_text(const struct ps_hist_rec *r)
{
	if (!strcmp(r->ended, "done"))
		return _("done");
	if (!strcmp(r->ended, "stopped"))
		return _("stopped");
	if (!strcmp(r->ended, "partial"))
		return _("partial");
	return "-";
}

struct json_object *ps_hist_rec_json(const struct ps_hist_rec *r)
{
	return ps_jtable_to_json(rec_table, r);
}

void ps_hist_left_out_text(const struct ps_hist_rec *r, char *buf, size_t len)
{
	static const struct {
		unsigned part;
		const char *what;
	} parts[] = {
		{ PS_HIST_LEFT_RESULT, N_("the -J document") },
		{ PS_HIST_LEFT_PARAMS, N_("the options") },
		{ PS_HIST_LEFT_EXTRAS, N_("pipescope's extras") },
		{ PS_HIST_LEFT_CHECK, N_("the check report") },
		{ PS_HIST_LEFT_SNAP_LOCAL, N_("this end's snapshot") },
		{ PS_HIST_LEFT_SNAP_REMOTE, N_("the far end's snapshot") },
	};
	size_t used = 0;

	buf[0] = 0;
	for (size_t i = 0; i < sizeof(parts) / sizeof(*parts); i++) {
		int w;

		if (!(r->left_out & parts[i].part) || used >= len)
			continue;
		w = snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
			     _(parts[i].what));
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

void ps_hist_when(int64_t ns, bool seconds, char *buf, size_t len)
{
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;

	if (!localtime_r(&t, &tm) ||
	    !strftime(buf, len,
		      seconds ? "%Y-%m-%d %H:%M:%S" : "%Y-%m-%d %H:%M", &tm))
		snprintf(buf, len, "?");
}
