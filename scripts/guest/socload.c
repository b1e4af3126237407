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
 *
 * Placement (Table 5; CPU -1: not pinned, the scheduler places the task;
 * "big" is a CPU of capacity 1024):
 *
 *   socload step -1           1 s of 10% (1.6 ms of work every 16 ms),
 *                             then work without a break for up to 1 s;
 *                             prints "step CAP MS": the capacity of the
 *                             CPU it ran on at the step, and the ms from
 *                             the step to its first work on a big CPU
 *                             (-1: not within the second), after which
 *                             it works 200 ms more
 *   socload sleeper -1        1 s of 80% (12.8 ms every 16 ms), 300 ms of
 *                             sleep, then 80% for 0.5 s; prints
 *                             "sleeper CAP MS": the capacity of the CPU
 *                             of its first work after the sleep, and the
 *                             ms from the wake-up to its first work on a
 *                             big CPU (0: woke there, -1: never)
 *   socload place -1 SECONDS [US]
 *                             US us of work every 16 ms (default 4000:
 *                             25%); prints "place BIG PERF STD N": the %
 *                             of its CPU time on big CPUs and the
 *                             PerfIndex; marks place_start and place_end
 *   socload wake4 -1 ROUNDS   four children blocked on pipes, woken
 *                             together every 32 ms; each does 0.5 ms of
 *                             work per wake-up. The parent leaves the
 *                             schedtune group it started in (the
 *                             children stay). Prints "wake4 P50 P95 MAX
 *                             N BIG": wake-up latency in us, from just
 *                             before the parent's first write to the
 *                             child's return from read(), and the % of
 *                             wake-ups that ran on a big CPU; the
 *                             children are named "wakee"
 *
 * Energy and frame times (Table 4): frames are due at 60 Hz vsyncs,
 * FRAME_NS apart; a frame's time runs from its vsync to the end of its
 * render, and it is late above FRAME_NS. Marks t4_start and t4_end.
 *
 *   socload video -1 SECONDS  a decoder with one frame per vsync in groups
 *                             of 8 pictures, an I-frame of 3 ms of work
 *                             then 7 P-frames of 1 ms, each handed to a
 *                             render process (1 ms), beside a
 *                             SCHED_FIFO audio process on CPU 0 (0.3 ms
 *                             every 10 ms); prints "frames N LATE P90 P95 P99",
 *                             the frame times in us
 *   socload ui -1 BURSTS      Jankbench-like: BURSTS times 500 ms of
 *                             idle, then 30 frames from a UI process
 *                             (2 ms of work, every 8th frame 3 ms) to a
 *                             render process (the same);
 *                             prints as video
 *   socload bench CPU ROUNDS  cpufreq-bench: for each of 50, 100, 150,
 *                             200 and 250 ms, ROUNDS rounds of a load
 *                             phase that long, spinning, then a sleep as
 *                             long; prints "bench W50 W100 W150 W200
 *                             W250", the reference work of the load
 *                             phases of each length, in us
 */
#include "guest.h"

#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NSEC_PER_USEC	1000LL
#define NSEC_PER_SEC	1000000000LL
#define GRANULE_NS	(50 * NSEC_PER_USEC)
#define MAX_CPUS	64

struct cpu_speed {
	int cur_fd;		/* scaling_cur_freq, kept open */
	double per_khz;		/* capacity / 1024 / cpuinfo_max_freq */
	long capacity;		/* cpu_capacity */
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
		speed[cpu].capacity = read_long(-1, path);
		speed[cpu].per_khz = speed[cpu].capacity / 1024.0;
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

static long capacity_now(void)
{
	return speed[sched_getcpu()].capacity;
}

/*
 * @work_ns of work in granules; returns the CLOCK_MONOTONIC time of the
 * first granule on a big CPU, or 0 if none.
 */
static long long work_until_big(long long work_ns)
{
	long long first = 0;

	for (; work_ns > 0; work_ns -= GRANULE_NS) {
		work(GRANULE_NS);
		if (!first && capacity_now() == 1024)
			first = clock_ns(CLOCK_MONOTONIC);
	}
	return first;
}

/* Periodic work for @len, the absolute timer as in ramp(). */
static void duty(long long period, long long run, long long len)
{
	long long start = clock_ns(CLOCK_MONOTONIC), due = start;

	while (due - start < len) {
		work(run);
		due += period;
		sleep_until(due);
	}
}

static int step(void)
{
	long long t0, big = 0, cap;

	duty(16000 * NSEC_PER_USEC, 1600 * NSEC_PER_USEC, NSEC_PER_SEC);
	mark("step");
	t0 = clock_ns(CLOCK_MONOTONIC);
	cap = capacity_now();
	while (!big && clock_ns(CLOCK_MONOTONIC) - t0 < NSEC_PER_SEC)
		big = work_until_big(1000 * NSEC_PER_USEC);
	/* 200 ms more, for the timeline: whether it stays there. */
	if (big)
		work(200000 * NSEC_PER_USEC);
	printf("step %lld %lld\n", cap, big ? (big - t0) / 1000000 : -1);
	return 0;
}

static int sleeper(void)
{
	const long long period = 16000 * NSEC_PER_USEC;
	const long long run = 12800 * NSEC_PER_USEC;
	long long t0, due, big = 0, cap = 0;

	duty(period, run, NSEC_PER_SEC);
	mark("sleep");
	sleep_until(clock_ns(CLOCK_MONOTONIC) + 300000 * NSEC_PER_USEC);
	mark("wake");
	t0 = due = clock_ns(CLOCK_MONOTONIC);
	while (due - t0 < NSEC_PER_SEC / 2) {
		if (!cap)
			cap = capacity_now();
		if (!big)
			big = work_until_big(run);
		else
			work(run);
		due += period;
		sleep_until(due);
	}
	printf("sleeper %lld %lld\n", cap, big ? (big - t0) / 1000000 : -1);
	return 0;
}

static int place(long long len, long long run)
{
	const long long period = 16000 * NSEC_PER_USEC;
	long long start, due, end, cpu, on_big = 0, all = 0;
	double perf, sum = 0, sum2 = 0;
	int n = 0;

	mark("place_start");
	start = due = clock_ns(CLOCK_MONOTONIC);
	while (due - start < len) {
		cpu = work(run);
		all += cpu;
		if (capacity_now() == 1024)
			on_big += cpu;
		end = clock_ns(CLOCK_MONOTONIC);
		due += period;
		perf = (double)(due - end) / (period - run);
		sum += perf;
		sum2 += perf * perf;
		n++;
		if (end < due)
			sleep_until(due);
	}
	mark("place_end");
	printf("place %.1f %.2f %.2f %d\n", 100.0 * on_big / all, sum / n,
	       sqrt((sum2 - sum * sum / n) / (n - 1)), n);
	return 0;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static int wake4(int rounds)
{
	long long *shared, *lat;
	int fds[4][2], i, r, n = 4 * rounds;
	char c = 0;
	FILE *f;

	/*
	 * [0]: the parent's time of the round; [1 + child * rounds + r]: the
	 * latencies; then 1 per wake-up that ran on a big CPU.
	 */
	shared = mmap(NULL, (1 + 2 * n) * sizeof(*shared),
		      PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	lat = shared + 1;
	for (i = 0; i < 4; i++) {
		if (pipe(fds[i])) {
			perror("pipe");
			return 1;
		}
		if (!fork()) {
			/* For the trace: sched_switch of the wakees only. */
			prctl(PR_SET_NAME, "wakee");
			for (r = 0; r < rounds; r++) {
				if (read(fds[i][0], &c, 1) != 1)
					_exit(1);
				lat[i * rounds + r] = clock_ns(CLOCK_MONOTONIC) -
						      shared[0];
				lat[n + i * rounds + r] = capacity_now() == 1024;
				work(500 * NSEC_PER_USEC);
			}
			_exit(0);
		}
	}
	/* The parent, the waker, leaves the group: only the wakees prefer idle. */
	f = fopen("/dev/stune/tasks", "w");
	if (!f || fprintf(f, "%d\n", getpid()) < 0 || fclose(f)) {
		perror("/dev/stune/tasks");
		return 1;
	}
	usleep(100000);
	for (r = 0; r < rounds; r++) {
		shared[0] = clock_ns(CLOCK_MONOTONIC);
		for (i = 0; i < 4; i++)
			if (write(fds[i][1], &c, 1) != 1)
				return 1;
		usleep(32000);
	}
	for (i = 0; i < 4; i++)
		if (wait(&r) < 0 || r)
			return 1;
	for (i = 0, r = 0; i < n; i++)
		r += lat[n + i];
	qsort(lat, n, sizeof(*lat), cmp_ll);
	printf("wake4 %lld %lld %lld %d %.1f\n", lat[n / 2] / 1000,
	       lat[n * 95 / 100] / 1000, lat[n - 1] / 1000, n, 100.0 * r / n);
	return 0;
}

/*
 * Frames (Table 4). A stage hands each frame to the next through a pipe,
 * with its index and its vsync.
 */
#define FRAME_NS	16666667LL

struct frame {
	int idx;
	long long vsync;
};

static long long *shared_ll(int n)
{
	long long *p = mmap(NULL, n * sizeof(*p), PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	return p;
}

/*
 * A render process: for each frame it reads, @run of work (@run8 for
 * every 8th frame), then the frame's time into @times[idx]. Returns the
 * write end of its pipe.
 */
static int render_fork(long long *times, long long run, long long run8)
{
	struct frame fr;
	int fds[2];

	if (pipe(fds)) {
		perror("pipe");
		exit(1);
	}
	if (!fork()) {
		prctl(PR_SET_NAME, "render");
		close(fds[1]);
		while (read(fds[0], &fr, sizeof(fr)) == sizeof(fr)) {
			work(fr.idx % 8 ? run : run8);
			times[fr.idx] = clock_ns(CLOCK_MONOTONIC) - fr.vsync;
		}
		_exit(0);
	}
	close(fds[0]);
	return fds[1];
}

static void frame_send(int fd, int idx, long long vsync)
{
	struct frame fr = { idx, vsync };

	if (write(fd, &fr, sizeof(fr)) != sizeof(fr)) {
		perror("write");
		exit(1);
	}
}

/*
 * Close the render pipe, reap @children, print the frames late and the
 * 90th, 95th and 99th percentile frame times.
 */
static int frames_end(int fd, long long *times, int n, int children)
{
	int i, st, late = 0, bad = 0;

	close(fd);
	while (children--)
		if (wait(&st) < 0 || st)
			bad = 1;
	mark("t4_end");
	if (bad) {
		fprintf(stderr, "socload: a child failed\n");
		return 1;
	}
	for (i = 0; i < n; i++)
		late += times[i] > FRAME_NS;
	qsort(times, n, sizeof(*times), cmp_ll);
	printf("frames %d %d %lld %lld %lld\n", n, late,
	       times[n * 90 / 100] / 1000, times[n * 95 / 100] / 1000,
	       times[n * 99 / 100] / 1000);
	return 0;
}

/*
 * Audio: SCHED_FIFO, 0.3 ms of work every 10 ms until *@stop, on CPU 0:
 * an RT task's CPU is not chosen by EAS, and a run on a big CPU costs more
 * than the rest of the load.
 */
static void audio_fork(volatile long long *stop)
{
	struct sched_param sp = { .sched_priority = 2 };
	long long due;

	if (fork())
		return;
	prctl(PR_SET_NAME, "audio");
	pin(0);
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("SCHED_FIFO");
		_exit(1);
	}
	for (due = clock_ns(CLOCK_MONOTONIC); !*stop;) {
		work(300 * NSEC_PER_USEC);
		due += 10000 * NSEC_PER_USEC;
		sleep_until(due);
	}
	_exit(0);
}

static int video(long long len)
{
	int k, fd, n = len / FRAME_NS;
	/* [0]: audio's stop flag, then the frame times */
	long long *shared = shared_ll(1 + n), *times = shared + 1, start;

	fd = render_fork(times, 1000 * NSEC_PER_USEC, 1000 * NSEC_PER_USEC);
	audio_fork(&shared[0]);
	mark("t4_start");
	start = clock_ns(CLOCK_MONOTONIC);
	for (k = 0; k < n; k++) {
		sleep_until(start + k * FRAME_NS);
		work((k % 8 ? 1000 : 3000) * NSEC_PER_USEC);
		frame_send(fd, k, start + k * FRAME_NS);
	}
	shared[0] = 1;
	return frames_end(fd, times, n, 2);
}

static int ui(int bursts)
{
	const int per_burst = 30, idle = 30;	/* vsyncs: 500 ms each */
	int b, i, k, fd, n = bursts * per_burst;
	long long *times = shared_ll(n), vsync;

	fd = render_fork(times, 2000 * NSEC_PER_USEC, 3000 * NSEC_PER_USEC);
	mark("t4_start");
	vsync = clock_ns(CLOCK_MONOTONIC);
	for (b = 0, k = 0; b < bursts; b++) {
		vsync += idle * FRAME_NS;
		for (i = 0; i < per_burst; i++, k++, vsync += FRAME_NS) {
			sleep_until(vsync);
			work((k % 8 ? 2000 : 3000) * NSEC_PER_USEC);
			frame_send(fd, k, vsync);
		}
	}
	return frames_end(fd, times, n, 1);
}

/* Spin for @len of CLOCK_MONOTONIC; returns the reference work done. */
static long long work_for(long long len)
{
	long long end = clock_ns(CLOCK_MONOTONIC) + len, done = 0;
	long long from = clock_ns(CLOCK_THREAD_CPUTIME_ID), to;
	double rate;

	while (clock_ns(CLOCK_MONOTONIC) < end) {
		rate = rate_now();
		do {
			to = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		} while (to - from < GRANULE_NS);
		done += (to - from) * rate;
		from = to;
	}
	return done;
}

static int bench(int rounds)
{
	long long done[5] = { 0 }, len;
	int i, r;

	mark("t4_start");
	for (i = 0; i < 5; i++) {
		len = (i + 1) * 50000 * NSEC_PER_USEC;
		for (r = 0; r < rounds; r++) {
			done[i] += work_for(len);
			sleep_until(clock_ns(CLOCK_MONOTONIC) + len);
		}
	}
	mark("t4_end");
	printf("bench");
	for (i = 0; i < 5; i++)
		printf(" %lld", done[i] / 1000);
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3) {
		speed_init();
		if (atoi(argv[2]) >= 0)
			pin(atoi(argv[2]));
		else
			unpin();
	}
	if (argc == 3 && !strcmp(argv[1], "step"))
		return step();
	if (argc == 3 && !strcmp(argv[1], "sleeper"))
		return sleeper();
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "place"))
		return place(atoll(argv[3]) * NSEC_PER_SEC,
			     (argc == 5 ? atoll(argv[4]) : 4000) * NSEC_PER_USEC);
	if (argc == 4 && !strcmp(argv[1], "wake4"))
		return wake4(atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "video"))
		return video(atoll(argv[3]) * NSEC_PER_SEC);
	if (argc == 4 && !strcmp(argv[1], "ui"))
		return ui(atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "bench"))
		return bench(atoi(argv[3]));
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
		"       ramp CPU | step -1 | sleeper -1 | place -1 SECONDS [US] |\n"
		"       wake4 -1 ROUNDS | video -1 SECONDS | ui -1 BURSTS |\n"
		"       bench CPU ROUNDS\n", argv[0]);
	return 2;
}
