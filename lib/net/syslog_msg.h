/*
 * syslog_msg: one line of the report as one RFC 5424 syslog message, to
 * go in one UDP datagram (RFC 5426). Freestanding; no I/O.
 *
 *   <PRI>1 - HOSTNAME cryptoqual - MSGID [meta sequenceId="N"] LINE
 *
 * PRI: facility local0 (16, RFC 5424 table 1) times 8 plus the line's
 * severity (syslog_severity()). TIMESTAMP is the NILVALUE: the box has a
 * CMOS clock of unknown time zone, and RFC 5424 6.2.3 demands an offset,
 * so the collector stamps the arrival. HOSTNAME is the box key
 * (lib/util/boxkey.h: one token of A-Z a-z 0-9 . _ -), APP-NAME
 * "cryptoqual", PROCID the NILVALUE, MSGID the line's record type
 * (syslog_msgid()), and the registered SD-ID "meta" carries sequenceId
 * (RFC 5424 7.3.1: 1, 2, ... per message sent, so a receiver sees loss
 * and reordering). MSG is the line as printed (printable ASCII: the report
 * escapes everything it echoes), no BOM, no line end.
 */
#ifndef CQ_LIB_NET_SYSLOG_MSG_H
#define CQ_LIB_NET_SYSLOG_MSG_H

#include <stdbool.h>
#include <stddef.h>

#define SYSLOG_PORT		514	/* RFC 5426 3.3 */
#define SYSLOG_FACILITY		16	/* local0 */
#define SYSLOG_MSGID_MAX	32	/* RFC 5424 6.2.7 */

/*
 * The MSGID of a report line (len bytes, no line end): the record name of
 * "# @NAME ..." (at most 32 characters), "result" for "ok N"/"not ok N",
 * "verdict" for "# cryptoqual: ...", "plan" for "1..N", "bailout" for
 * "Bail out!", "summary" for "# summary: ...", "tap" for "TAP version",
 * "diag" for any other line. Writes it into out (SYSLOG_MSGID_MAX + 1 bytes).
 */
void syslog_msgid(const char *line, size_t len, char out[SYSLOG_MSGID_MAX + 1]);

/*
 * The severity of a report line (RFC 5424 table 2): 2 critical for
 * "Bail out!", 3 error for "not ok" and a FAIL verdict, 4 warning for
 * "# warning: ...", 5 notice for a PASS verdict, 6 informational otherwise.
 */
unsigned syslog_severity(const char *line, size_t len);

/*
 * Formats the message for one line (len bytes, no line end) into out
 * (cap bytes; nothing is NUL-terminated: a datagram carries its length).
 * hostname: the box key; seq: 1..2147483647. A line longer than what fits
 * in cap is cut and *cut set. Returns the message length (0 when cap
 * cannot hold even the header).
 */
size_t syslog_format(char *out, size_t cap, const char *hostname, unsigned long seq, const char *line,
		     size_t len, bool *cut);

#endif
