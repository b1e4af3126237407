// SPDX-License-Identifier: GPL-2.0
/*
 * Work that takes time on the virtual SoC (scripts/soc-dtb.py, the
 * virtual OPP driver's device-tree mode): a vCPU runs at the same speed
 * whatever OPP schedutil picks and whatever capacity the device tree gives
 * its CPU, so work counted in loop iterations would finish in the same time
 * everywhere. Work here is counted in time of the reference CPU, the
 * biggest at its highest OPP (capacity 1024), and is emulated: the task
 * spins, reading its own CPU time, and each interval of it advances the
 * work by
 *
 *     interval * cpu_capacity / 1024 * scaling_cur_freq / cpuinfo_max_freq
 *
 * of the CPU it runs on, both read from the kernel. A unit of work thus
 * takes 1024 / capacity * f_max / f times as long as on the reference CPU,
 * as on a board whose memory keeps up with the core. Only this program's
 * work is emulated: the kernel and everything else run at vCPU speed.
 *
 * The CPU time is the thread's (CLOCK_THREAD_CPUTIME_ID): time the task
 * was preempted, or spent in interrupts, does no work. The rate is
 * re-read every GRANULE_NS of CPU time, so an OPP change counts from at
 * most 50 us late; schedutil changes the OPP at most once per rate limit
 * (1 ms with the virtual OPP driver), so the error is at most 5% of the
 * work in the millisecond after a change, and nothing at a fixed OPP.
 *
 *   socload work CPU US       run US us of work on CPU; prints the CPU
 *                             time and the elapsed time it took, in us
 *   socload periodic CPU PERIOD_US WORK_US SECONDS
 *                             an activation of WORK_US of work every
 *                             PERIOD_US on CPU for SECONDS; prints the
 *                             mean of the task's PELT util_avg read at
 *                             the start of every 4th activation of the
 *                             second half
 *   socload ramp CPU          the SchedTune RFC's rt-app ramp: a 16 ms
 *                             period, work of 5% to 60% of it in 5%
 *                             steps of 62 activations (about 1 s) each;
 *                             prints "perf AVG STD N", the PerfIndex
 *                             (below) over all activations
 *
 * Activations follow rt-app's absolute timer: the k-th is due at
 * start + k * period whatever happened before, so a late activation
 * starts at once and lateness accumulates. PerfIndex is LISA's rt-app
 * analysis (lisa/analysis/rta.py, PerfAnalysis): per activation,
 *     slack / (period - run)
 * with slack the time from the end of the activation's work to its next
 * due time (negative when late) and run the work's duration on the
 * reference CPU. The ramp marks "sched_util: ramp_start" and
 * "sched_util: ramp_end" in the trace.
 */
#include "guest.h"

#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NSEC_PER_USEC	1000LL
#define NSEC_PER_SEC	1000000000LL
#define GRANULE_NS	(50 * NSEC_PER_USEC)
#define MAX_CPUS	64

struct cpu_speed {
	int cur_fd;		/* scaling_cur_freq, kept open */
	double per_khz;		/* capacity / 1024 / cpuinfo_max_freq */
};

static struct cpu_speed speed[MAX_CPUS];

static long long clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static long read_long(int fd, const char *path)
{
	char buf[32];
	ssize_t n;

	if (fd < 0)
		fd = open(path, O_RDONLY);
	n = fd < 0 ? -1 : pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0) {
		perror(path);
		exit(1);
	}
	buf[n] = 0;
	return atol(buf);
}

static void speed_init(void)
{
	char path[96];
	int cpu;

	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpu_capacity", cpu);
		if (access(path, R_OK))
			break;
		speed[cpu].per_khz = read_long(-1, path) / 1024.0;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", cpu);
		speed[cpu].per_khz /= read_long(-1, path);
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu);
		speed[cpu].cur_fd = open(path, O_RDONLY);
		if (speed[cpu].cur_fd < 0) {
			perror(path);
			exit(1);
		}
	}
	if (!cpu) {
		fprintf(stderr, "socload: no cpu_capacity in sysfs\n");
		exit(1);
	}
}

/* Reference work done per ns of CPU time on the CPU this task is on now. */
static double rate_now(void)
{
	struct cpu_speed *s = &speed[sched_getcpu()];

	return s->per_khz * read_long(s->cur_fd, "scaling_cur_freq");
}

/* Do @work_ns of reference work; returns the CPU time it took. */
static long long work(long long work_ns)
{
	long long t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID), from = t0, to;
	double left = work_ns, rate;

	while (left > 0) {
		rate = rate_now();
		do {
			to = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		} while (to - from < GRANULE_NS && (to - from) * rate < left);
		left -= (to - from) * rate;
		from = to;
	}
	return from - t0;
}

static void sleep_until(long long t)
{
	struct timespec ts = { t / NSEC_PER_SEC, t % NSEC_PER_SEC };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		;
}

/* The task's own PELT utilization (CONFIG_SCHED_DEBUG). */
static long util_avg(void)
{
	char line[128];
	long util = -1;
	FILE *f = fopen("/proc/self/sched", "r");

	if (!f) {
		perror("/proc/self/sched");
		exit(1);
	}
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "se.avg.util_avg", 15))
			util = atol(strchr(line, ':') + 1);
	fclose(f);
	return util;
}

static int periodic(long long period, long long run, long long len)
{
	long long start = clock_ns(CLOCK_MONOTONIC), due = start;
	long sum = 0, n = 0, i;

	for (i = 0; due - start < len; i++) {
		/*
		 * Reading /proc runs at vCPU speed, unlike the work: every
		 * 4th activation only, so that it weighs little in the
		 * utilization at any OPP.
		 */
		if (due - start >= len / 2 && !(i % 4)) {
			sum += util_avg();
			n++;
		}
		work(run);
		due += period;
		sleep_until(due);
	}
	printf("%.1f\n", n ? (double)sum / n : -1.0);
	return 0;
}

static int ramp(void)
{
	const long long period = 16000 * NSEC_PER_USEC;
	long long due = clock_ns(CLOCK_MONOTONIC), run, end;
	double perf, sum = 0, sum2 = 0;
	int duty, i, n = 0;

	mark("ramp_start");
	for (duty = 5; duty <= 60; duty += 5) {
		run = period * duty / 100;
		for (i = 0; i < 62; i++) {
			work(run);
			end = clock_ns(CLOCK_MONOTONIC);
			due += period;
			perf = (double)(due - end) / (period - run);
			sum += perf;
			sum2 += perf * perf;
			n++;
			if (end < due)
				sleep_until(due);
		}
	}
	mark("ramp_end");
	printf("perf %.2f %.2f %d\n", sum / n,
	       sqrt((sum2 - sum * sum / n) / (n - 1)), n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3) {
		speed_init();
		pin(atoi(argv[2]));
	}
	if (argc == 4 && !strcmp(argv[1], "work")) {
		long long start = clock_ns(CLOCK_MONOTONIC), cpu;

		cpu = work(atoll(argv[3]) * NSEC_PER_USEC);
		printf("%lld %lld\n", cpu / NSEC_PER_USEC,
		       (clock_ns(CLOCK_MONOTONIC) - start) / NSEC_PER_USEC);
		return 0;
	}
	if (argc == 6 && !strcmp(argv[1], "periodic"))
		return periodic(atoll(argv[3]) * NSEC_PER_USEC,
				atoll(argv[4]) * NSEC_PER_USEC,
				atoll(argv[5]) * NSEC_PER_SEC);
	if (argc == 3 && !strcmp(argv[1], "ramp"))
		return ramp();
	fprintf(stderr, "usage: %s work CPU US | periodic CPU PERIOD_US WORK_US SECONDS |\n"
		"       ramp CPU\n", argv[0]);
	return 2;
}
