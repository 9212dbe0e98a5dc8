/* auth.c: iperf3's authentication: --username / --rsa-public-key-path on
 * the client, --rsa-private-key-path / --authorized-users-path on the server
 * (RSA-encrypted credentials in the "authtoken" parameter, OpenSSL) */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include "auth.h"
#include "nls.h"
#include "xmalloc.h"

static EVP_PKEY *load_key(const char *path, bool private_key)
{
	FILE *f = fopen(path, "re");
	EVP_PKEY *k;

	if (!f)
		return NULL;
	k = private_key ? PEM_read_PrivateKey(f, NULL, NULL, NULL)
			: PEM_read_PUBKEY(f, NULL, NULL, NULL);
	fclose(f);
	return k;
}

int ps_auth_key_ok(const char *path, bool private_key)
{
	EVP_PKEY *k = load_key(path, private_key);

	if (!k)
		return -EINVAL;
	EVP_PKEY_free(k);
	return 0;
}

/* iperf3 stamps mktime(localtime(now)); the same on both ends agrees */
static int64_t auth_now(void)
{
	time_t t = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	return (int64_t)mktime(&tm);
}

int ps_auth_token(const char *user, const char *password,
		  const char *pubkey_path, bool pkcs1, char *token,
		  size_t tokenlen, char *err, size_t errlen)
{
	EVP_PKEY *k = load_key(pubkey_path, false);
	EVP_PKEY_CTX *ctx = NULL;
	unsigned char *enc = NULL;
	size_t enclen = 0;
	char *text;
	int rc = -EINVAL;

	if (!k) {
		snprintf(err, errlen, _("cannot read the RSA public key %s"),
			 pubkey_path);
		return -EINVAL;
	}
	xasprintf(&text, "user: %s\npwd:  %s\nts:   %" PRId64, user, password,
		  auth_now());
	ctx = EVP_PKEY_CTX_new(k, NULL);
	if (!ctx || EVP_PKEY_encrypt_init(ctx) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_padding(ctx, pkcs1 ? RSA_PKCS1_PADDING
						    : RSA_PKCS1_OAEP_PADDING) <=
		    0 ||
	    EVP_PKEY_encrypt(ctx, NULL, &enclen, (unsigned char *)text,
			     strlen(text)) <= 0)
		goto fail;
	enc = xmalloc(enclen);
	if (EVP_PKEY_encrypt(ctx, enc, &enclen, (unsigned char *)text,
			     strlen(text)) <= 0)
		goto fail;
	if (4 * ((enclen + 2) / 3) + 1 > tokenlen) {
		snprintf(err, errlen, _("the RSA key is too large"));
		goto out;
	}
	EVP_EncodeBlock((unsigned char *)token, enc, (int)enclen);
	rc = 0;
	goto out;
fail : {
	const char *why = ERR_reason_error_string(ERR_get_error());

	snprintf(err, errlen, _("cannot encrypt the credentials: %s"),
		 why ? why : "?");
	ERR_clear_error();
}
out:
	OPENSSL_cleanse(text, strlen(text));
	free(text);
	free(enc);
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(k);
	return rc;
}

/* decrypt with one padding; the plaintext (NUL-terminated) or NULL */
static char *decrypt(EVP_PKEY *k, const unsigned char *in, size_t inlen,
		     int padding)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(k, NULL);
	unsigned char *out = NULL;
	size_t outlen = 0;

	if (!ctx || EVP_PKEY_decrypt_init(ctx) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_padding(ctx, padding) <= 0 ||
	    EVP_PKEY_decrypt(ctx, NULL, &outlen, in, inlen) <= 0)
		goto fail;
	out = xmalloc(outlen + 1);
	if (EVP_PKEY_decrypt(ctx, out, &outlen, in, inlen) <= 0)
		goto fail;
	out[outlen] = 0;
	EVP_PKEY_CTX_free(ctx);
	return (char *)out;
fail:
	ERR_clear_error();
	free(out);
	EVP_PKEY_CTX_free(ctx);
	return NULL;
}

/* "PREFIXvalue\n": the value, up to the newline, into buf */
static bool field(const char **p, const char *prefix, char *buf, size_t len)
{
	size_t n = strlen(prefix), v;
	const char *end;

	if (strncmp(*p, prefix, n))
		return false;
	*p += n;
	end = strchrnul(*p, '\n');
	v = (size_t)(end - *p);
	if (v == 0 || v >= len)
		return false;
	memcpy(buf, *p, v);
	buf[v] = 0;
	*p = *end ? end + 1 : end;
	return true;
}

static void sha256_hex(const char *s, char hex[65])
{
	unsigned char md[32];
	unsigned int mdlen = 0;

	EVP_Digest(s, strlen(s), md, &mdlen, EVP_sha256(), NULL);
	for (unsigned int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	hex[64] = 0;
}

struct ps_auth_keys {
	EVP_PKEY *key;
	char *users; /* the users file, whole */
};

#define USERS_FILE_MAX (1024 * 1024)

int ps_auth_keys_load(const char *privkey_path, const char *users_path,
		      struct ps_auth_keys **out, char *err, size_t errlen)
{
	struct ps_auth_keys *a = xcalloc(1, sizeof(*a));
	FILE *f;
	size_t n;

	*out = NULL;
	a->key = load_key(privkey_path, true);
	if (!a->key) {
		snprintf(err, errlen, _("cannot read the RSA private key %s"),
			 privkey_path);
		free(a);
		return -EINVAL;
	}
	f = fopen(users_path, "re");
	a->users = xmalloc(USERS_FILE_MAX + 1);
	n = f ? fread(a->users, 1, USERS_FILE_MAX + 1, f) : 0;
	if (!f || ferror(f) || n > USERS_FILE_MAX) {
		snprintf(err, errlen,
			 !f || ferror(f)
				 ? _("cannot read the authorized users file %s")
				 : _("the authorized users file %s is larger "
				     "than 1 MiB"),
			 users_path);
		if (f)
			fclose(f);
		ps_auth_keys_free(a);
		return -EINVAL;
	}
	fclose(f);
	a->users = xrealloc(a->users, n + 1);
	a->users[n] = 0;
	*out = a;
	return 0;
}

void ps_auth_keys_free(struct ps_auth_keys *a)
{
	if (!a)
		return;
	EVP_PKEY_free(a->key);
	free(a->users);
	free(a);
}

/* "user,sha256hex" lines (# comments); 0 when user and hash are there */
static int users_file_has(const char *users, const char *user, const char *hash,
			  char *err, size_t errlen)
{
	int found = -EACCES;

	for (const char *line = users; *line;) {
		size_t len = strcspn(line, "\r\n"), ulen = strlen(user);
		const char *comma = memchr(line, ',', len);

		if (line[0] != '#' && comma && (size_t)(comma - line) == ulen &&
		    !memcmp(line, user, ulen) && line + len - comma - 1 == 64 &&
		    !CRYPTO_memcmp(comma + 1, hash, 64))
			found = 0;
		line += len;
		line += strspn(line, "\r\n");
	}
	if (found)
		snprintf(err, errlen,
			 _("unknown user or wrong password for '%s'"), user);
	return found;
}

int ps_auth_verify(const char *token, const struct ps_auth_keys *keys, int skew,
		   bool pkcs1, char *user, size_t userlen, char *err,
		   size_t errlen)
{
	EVP_PKEY *k = keys->key;
	unsigned char *raw;
	size_t tlen = strlen(token), rawlen;
	int n, pad = 0, rc = -EACCES;
	char *text = NULL, *pw = NULL, *salted = NULL, hash[65], ts[32];
	const char *p;
	int64_t when, now;

	user[0] = 0;
	if (!tlen || tlen % 4 || tlen > PS_AUTHTOKEN_MAX) {
		snprintf(err, errlen, _("no valid authentication token"));
		return -EACCES;
	}
	raw = xmalloc(tlen / 4 * 3 + 1);
	n = EVP_DecodeBlock(raw, (const unsigned char *)token, (int)tlen);
	if (n < 0) {
		snprintf(err, errlen, _("no valid authentication token"));
		goto out;
	}
	if (token[tlen - 1] == '=')
		pad++;
	if (token[tlen - 2] == '=')
		pad++;
	rawlen = (size_t)n - (size_t)pad;
	text = decrypt(k, raw, rawlen, RSA_PKCS1_OAEP_PADDING);
	if (!text && pkcs1) /* iperf3 up to 3.16 */
		text = decrypt(k, raw, rawlen, RSA_PKCS1_PADDING);
	if (!text) {
		snprintf(err, errlen,
			 pkcs1 ? _("the credentials do not decrypt with this "
				   "server's key")
			       : _("the credentials do not decrypt with this "
				   "server's key (an iperf3 client before 3.17 "
				   "needs --use-pkcs1-padding here)"));
		goto out;
	}
	pw = xcalloc(1, strlen(text) + 1);
	p = text;
	if (!field(&p, "user: ", user, userlen) ||
	    !field(&p, "pwd:  ", pw, strlen(text) + 1) ||
	    !field(&p, "ts:   ", ts, sizeof(ts))) {
		user[0] = 0;
		snprintf(err, errlen, _("malformed credentials"));
		goto out;
	}
	when = strtoll(ts, NULL, 10);
	now = auth_now();
	if (when > now + skew || when < now - skew) {
		snprintf(err, errlen,
			 _("credentials of '%s' are %" PRId64
			   " s off this server's clock (at most %d)"),
			 user, now - when, skew);
		goto out;
	}
	xasprintf(&salted, "{%s}%s", user, pw);
	sha256_hex(salted, hash);
	rc = users_file_has(keys->users, user, hash, err, errlen);
out:
	if (text)
		OPENSSL_cleanse(text, strlen(text));
	if (pw)
		OPENSSL_cleanse(pw, strlen(pw));
	if (salted)
		OPENSSL_cleanse(salted, strlen(salted));
	free(text);
	free(pw);
	free(salted);
	free(raw);
	return rc;
}

char *ps_auth_password(void)
{
	const char *env = getenv("IPERF3_PASSWORD");
	struct termios old, quiet;
	char buf[256];
	FILE *tty;
	bool echo_off;

	if (env)
		return xstrdup(env);
	tty = fopen("/dev/tty", "r+e");
	if (!tty)
		return NULL;
	echo_off = tcgetattr(fileno(tty), &old) == 0;
	if (echo_off) {
		quiet = old;
		quiet.c_lflag &= ~(tcflag_t)ECHO;
		tcsetattr(fileno(tty), TCSAFLUSH, &quiet);
	}
	fputs(_("Password: "), tty);
	fflush(tty);
	if (!fgets(buf, sizeof(buf), tty))
		buf[0] = 0;
	if (echo_off)
		tcsetattr(fileno(tty), TCSAFLUSH, &old);
	fputc('\n', tty);
	fclose(tty);
	buf[strcspn(buf, "\r\n")] = 0;
	return xstrdup(buf);
}
