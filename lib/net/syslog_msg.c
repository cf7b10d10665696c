/* syslog_msg: RFC 5424 messages for report lines. See syslog_msg.h. */
#include "lib/net/syslog_msg.h"

#include <string.h>

#include "lib/util/fmt.h"

static bool starts(const char *line, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && memcmp(line, prefix, n) == 0;
}

void syslog_msgid(const char *line, size_t len, char out[SYSLOG_MSGID_MAX + 1])
{
	const char *id = "diag";
	size_t i;

	if (starts(line, len, "# @") && len > 3) {
		/* PRINTUSASCII without '=' or ']' (they are the record's own), up to the blank. */
		for (i = 0; i < SYSLOG_MSGID_MAX && 3 + i < len; i++) {
			char c = line[3 + i];
			if (c <= ' ' || c > '~' || c == '=' || c == ']' || c == '"')
				break;
			out[i] = c;
		}
		if (i > 0) {
			out[i] = '\0';
			return;
		}
	} else if (starts(line, len, "ok ") || starts(line, len, "not ok ")) {
		id = "result";
	} else if (starts(line, len, "# cryptoqual: ")) {
		id = "verdict";
	} else if (starts(line, len, "1..")) {
		id = "plan";
	} else if (starts(line, len, "Bail out!")) {
		id = "bailout";
	} else if (starts(line, len, "# summary:")) {
		id = "summary";
	} else if (starts(line, len, "TAP version")) {
		id = "tap";
	}
	fmt_snprintf(out, SYSLOG_MSGID_MAX + 1, "%s", id);
}

unsigned syslog_severity(const char *line, size_t len)
{
	if (starts(line, len, "Bail out!"))
		return 2;
	if (starts(line, len, "not ok ") || starts(line, len, "# cryptoqual: FAIL"))
		return 3;
	if (starts(line, len, "# warning:"))
		return 4;
	if (starts(line, len, "# cryptoqual: PASS"))
		return 5;
	return 6;
}

size_t syslog_format(char *out, size_t cap, const char *hostname, unsigned long seq, const char *line,
		     size_t len, bool *cut)
{
	char head[160], msgid[SYSLOG_MSGID_MAX + 1];
	size_t h;

	syslog_msgid(line, len, msgid);
	h = fmt_snprintf(head, sizeof(head), "<%u>1 - %s cryptoqual - %s [meta sequenceId=\"%lu\"]%s",
			 SYSLOG_FACILITY * 8 + syslog_severity(line, len), hostname, msgid, seq, len ? " " : "");
	*cut = false;
	if (h >= sizeof(head) || h > cap)
		return 0;
	memcpy(out, head, h);
	if (len > cap - h) {
		len = cap - h;
		*cut = true;
	}
	memcpy(out + h, line, len);
	return h + len;
}
