/* auth.h: iperf3's authentication: --username / --rsa-public-key-path on
 * the client, --rsa-private-key-path / --authorized-users-path on the server
 * (RSA-encrypted credentials in the "authtoken" parameter, OpenSSL) */
#ifndef PS_AUTH_H
#define PS_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#define PS_AUTHTOKEN_MAX 2048 /* base64 of an RSA block up to 8192 bits */
#define PS_AUTH_SKEW 10	      /* s, iperf3's default --time-skew-threshold */
#define PS_IEAUTHTEST 142     /* iperf3's i_errno for a refused login */

/*
 * The client's token: "user: U\npwd:  P\nts:   T" encrypted with the
 * server's public key (OAEP, or PKCS#1 v1.5 for iperf3 up to 3.16), in
 * base64. 0, or -errno with a reason in err.
 */
int ps_auth_token(const char *user, const char *password,
		  const char *pubkey_path, bool pkcs1, char *token,
		  size_t tokenlen, char *err, size_t errlen);

/*
 * The server's private key and authorized users file, read once at start
 * (as root, before --user drops privileges). 0, or -EINVAL with a reason.
 */
struct ps_auth_keys;
int ps_auth_keys_load(const char *privkey_path, const char *users_path,
		      struct ps_auth_keys **out, char *err, size_t errlen);
void ps_auth_keys_free(struct ps_auth_keys *keys);

/*
 * The server's check: decrypt with the private key (OAEP; PKCS#1 v1.5
 * too when pkcs1), the time within skew seconds, and "user,sha256({user}pw)"
 * in the authorized users file. 0 with the user name in user, or -EACCES
 * with a reason in err.
 */
int ps_auth_verify(const char *token, const struct ps_auth_keys *keys, int skew,
		   bool pkcs1, char *user, size_t userlen, char *err,
		   size_t errlen);

/* can the key be loaded? 0 or -EINVAL (for the command line) */
int ps_auth_key_ok(const char *path, bool private_key);

/* the password: $IPERF3_PASSWORD, else asked on the terminal; malloc'ed */
char *ps_auth_password(void);

#endif
