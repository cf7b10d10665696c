/*
 * emu_tap: TAP version 13 output of the emulator host programs (prove does
 * not know version 14). The kernel code they link prints its own TAP into
 * the console capture (tests/host/console_host.h); these are the program's results.
 */
#ifndef CQ_TESTS_EMU_TAP_H
#define CQ_TESTS_EMU_TAP_H

#include <stdbool.h>

void t_begin(void);					/* "TAP version 13" */
bool t_ok(bool cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void t_skip(const char *reason, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void t_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Each line of text as "# | line". */
void t_diag_lines(const char *text);
/* Prints the plan; returns the exit status (0 when nothing failed). */
int t_end(void);

#endif
