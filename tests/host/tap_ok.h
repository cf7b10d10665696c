/*
 * The TAP result line of the kernel's host harnesses (the *_test.c
 * files of tests/kernel): ok(cond, what) numbers each result on stdout;
 * n counts them (the plan, "1..n") and failed the failures (the exit
 * status). For one .c file each: the state is static.
 */
#ifndef CQ_TESTS_HOST_TAP_OK_H
#define CQ_TESTS_HOST_TAP_OK_H

#include <stdio.h>

static int n, failed;

static void ok(int cond, const char *what)
{
	n++;
	printf("%sok %d - %s\n", cond ? "" : "not ", n, what);
	if (!cond)
		failed++;
	fflush(stdout);
}

#endif
