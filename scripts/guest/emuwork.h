/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Work that takes time on the virtual SoC (scripts/soc-dtb.py, the
 * virtual OPP driver's device-tree mode), shared by socload.c and by
 * rt-app's run and runtime events (scripts/guest/rt-app-emuwork.patch).
 *
 * A vCPU runs at the same speed whatever OPP schedutil picks and whatever
 * capacity the device tree gives its CPU, so work counted in loop
 * iterations would finish in the same time everywhere. Work here is
 * counted in time of the reference CPU, the biggest at its highest OPP
 * (capacity 1024), and is emulated: the task spins, reading its own CPU
 * time, and each interval of it advances the work by
 *
 *     interval * cpu_capacity / 1024 * scaling_cur_freq / cpuinfo_max_freq
 *
 * of the CPU it runs on, both read from the kernel. A unit of work thus
 * takes 1024 / capacity * f_max / f times as long as on the reference CPU,
 * as on a board whose memory keeps up with the core. Only the emulated
 * work is slowed: the kernel and everything else run at vCPU speed.
 *
 * The CPU time is the thread's (CLOCK_THREAD_CPUTIME_ID): time the thread
 * was preempted, or spent in interrupts, does no work. The rate is re-read
 * every EMU_GRANULE_NS of CPU time, so an OPP change counts from at most
 * 50 us late; schedutil changes the OPP at most once per rate limit, so
 * the error is at most 5% of the work in the millisecond after a change,
 * and nothing at a fixed OPP. Threads share emu_cpu[] read-only after
 * emu_init(); pread() on a shared descriptor is thread-safe.
 */
#ifndef SCHED_UTIL_EMUWORK_H
#define SCHED_UTIL_EMUWORK_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define EMU_GRANULE_NS	50000LL
#define EMU_MAX_CPUS	64

struct emu_cpu {
	int cur_fd;		/* scaling_cur_freq, kept open */
	double per_khz;		/* capacity / 1024 / cpuinfo_max_freq */
	long capacity;		/* cpu_capacity */
};

static struct emu_cpu emu_cpu[EMU_MAX_CPUS];

static inline long long clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline long emu_read_long(int fd, const char *path)
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

/* Read every CPU's capacity and f_max; exits if the kernel has none. */
static inline void emu_init(void)
{
	char path[96];
	int cpu;

	for (cpu = 0; cpu < EMU_MAX_CPUS; cpu++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpu_capacity", cpu);
		if (access(path, R_OK))
			break;
		emu_cpu[cpu].capacity = emu_read_long(-1, path);
		emu_cpu[cpu].per_khz = emu_cpu[cpu].capacity / 1024.0;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", cpu);
		emu_cpu[cpu].per_khz /= emu_read_long(-1, path);
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu);
		emu_cpu[cpu].cur_fd = open(path, O_RDONLY);
		if (emu_cpu[cpu].cur_fd < 0) {
			perror(path);
			exit(1);
		}
	}
	if (!cpu) {
		fprintf(stderr, "emuwork: no cpu_capacity in sysfs\n");
		exit(1);
	}
}

/* Reference work done per ns of CPU time on the CPU this thread is on. */
static inline double emu_rate_now(void)
{
	struct emu_cpu *c = &emu_cpu[sched_getcpu()];

	return c->per_khz * emu_read_long(c->cur_fd, "scaling_cur_freq");
}

/* Do @work_ns of reference work; returns the CPU time it took. */
static inline long long emu_work(long long work_ns)
{
	long long t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID), from = t0, to;
	double left = work_ns, rate;

	while (left > 0) {
		rate = emu_rate_now();
		do {
			to = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		} while (to - from < EMU_GRANULE_NS && (to - from) * rate < left);
		left -= (to - from) * rate;
		from = to;
	}
	return from - t0;
}

#endif
