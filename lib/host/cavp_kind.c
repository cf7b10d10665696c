/* cavp_kind: what a CAVP .rsp file holds, from its NIST file name. */
#include "lib/host/cavp_rsp.h"

#include <string.h>

#include "lib/util/fmt.h"

/* If s starts with prefix, returns the rest of s; else NULL. */
static const char *skip(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);
	return strncmp(s, prefix, n) == 0 ? s + n : NULL;
}

static const char *basename_of(const char *path)
{
	const char *slash = NULL, *p;
	for (p = path; *p; p++)
		if (*p == '/')
			slash = p;
	return slash ? slash + 1 : path;
}

static int aes_kind(const char *s, struct cavp_kind *k)
{
	static const struct { const char *name; enum aes_mode mode; } modes[] = {
		{ "ECB", AES_MODE_ECB }, { "CBC", AES_MODE_CBC },
		{ "CFB128", AES_MODE_CFB128 }, { "OFB", AES_MODE_OFB },
	};
	static const struct { const char *name; enum cavp_test test; } tests[] = {
		{ "GFSbox", CAVP_AES_KAT }, { "KeySbox", CAVP_AES_KAT },
		{ "VarKey", CAVP_AES_KAT }, { "VarTxt", CAVP_AES_KAT },
		{ "MMT", CAVP_AES_MMT }, { "MCT", CAVP_AES_MCT },
	};
	static const char *const test_label[] = { "KAT", "MMT", "MCT" };
	const char *rest = NULL, *t = NULL;
	unsigned i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]) && !rest; i++)
		if ((rest = skip(s, modes[i].name)) != NULL)
			k->mode = modes[i].mode;
	for (i = 0; rest && i < sizeof(tests) / sizeof(tests[0]) && !t; i++)
		if ((t = skip(rest, tests[i].name)) != NULL)
			k->test = tests[i].test;
	if (!t)
		return CAVP_EKIND;
	if (strcmp(t, "128.rsp") == 0)
		k->key_bits = 128;
	else if (strcmp(t, "192.rsp") == 0)
		k->key_bits = 192;
	else if (strcmp(t, "256.rsp") == 0)
		k->key_bits = 256;
	else
		return CAVP_EKIND;
	k->aes = true;
	fmt_snprintf(k->label, sizeof(k->label), "aes-%u-%s %s", k->key_bits,
		     aes_mode_name(k->mode), test_label[k->test]);
	return 0;
}

static int sha_kind(const char *s, struct cavp_kind *k)
{
	const char *t;

	if ((t = skip(s, "SHA1")) != NULL)
		k->alg = HASH_SHA1;
	else if ((t = skip(s, "SHA256")) != NULL)
		k->alg = HASH_SHA256;
	else
		return CAVP_EKIND;
	if (strcmp(t, "ShortMsg.rsp") == 0 || strcmp(t, "LongMsg.rsp") == 0)
		k->test = CAVP_SHA_MSG;
	else if (strcmp(t, "Monte.rsp") == 0)
		k->test = CAVP_SHA_MONTE;
	else
		return CAVP_EKIND;
	k->aes = false;
	fmt_snprintf(k->label, sizeof(k->label), "%s %s", hash_alg_name(k->alg),
		     k->test == CAVP_SHA_MONTE ? "Monte" : "messages");
	return 0;
}

int cavp_kind_from_name(const char *path, struct cavp_kind *k)
{
	const char *name = basename_of(path);

	memset(k, 0, sizeof(*k));
	if (aes_kind(name, k) == 0 || sha_kind(name, k) == 0)
		return 0;
	memset(k, 0, sizeof(*k));
	return CAVP_EKIND;
}
