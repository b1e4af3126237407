/* SPDX-License-Identifier: GPL-2.0 */
/* What schedbench.c and socload.c, the guests' load generators, share. */
#ifndef SCHED_UTIL_GUEST_H
#define SCHED_UTIL_GUEST_H

#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		exit(1);
	}
}

/* Any CPU: undo an affinity inherited from the guest's pinned shell. */
static inline void unpin(void)
{
	long cpu, n = sysconf(_SC_NPROCESSORS_CONF);
	cpu_set_t set;

	CPU_ZERO(&set);
	for (cpu = 0; cpu < n; cpu++)
		CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		exit(1);
	}
}

/* A "sched_util: WHAT" line in the trace, which the host's parsers key on. */
static inline void mark(const char *what)
{
	int fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY);

	if (fd < 0 || dprintf(fd, "sched_util: %s\n", what) < 0) {
		perror("trace_marker");
		exit(1);
	}
	close(fd);
}

#endif
