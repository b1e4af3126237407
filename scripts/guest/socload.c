// SPDX-License-Identifier: GPL-2.0
/*
 * The virtual SoC's load generator. Its work is emulated (emuwork.h,
 * shared with the patched rt-app of Table 4): counted in time of the
 * reference CPU, the biggest at its highest OPP, it takes
 * 1024 / capacity * f_max / f times as long on a CPU of that capacity at
 * OPP f.
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
 * Energy and frame times (Table 4): frames at 60 Hz vsyncs, FRAME_NS
 * apart, each frame's work drawn from a seeded generator. Marks t4_start
 * and t4_end.
 *
 *   socload video -1 SECONDS  a decoder working ahead into a queue of 3
 *                             buffers, a render process and the display
 *                             at each vsync (video() below), beside a
 *                             SCHED_FIFO audio process on CPU 0 (0.3 ms
 *                             every 10 ms); prints "frames N JANK P90
 *                             P95 P99 WAKE50 WAKE95": the vsyncs that
 *                             found no frame ready, the frame times
 *                             (decode start to render end), and the
 *                             render's wake-up latency per frame, in us
 *   socload ui -1 BURSTS      Jankbench-like (ui() below): BURSTS bursts
 *                             of 10 frames after 250 ms of idle, the
 *                             first discarded; prints as video, LATE the
 *                             frames whose time from vsync to render end
 *                             exceeds a vsync period
 *   socload bench CPU ROUNDS  cpufreq-bench: for each of 50, 100, 150,
 *                             200 and 250 ms, ROUNDS rounds of a load
 *                             phase that long, spinning, then a sleep as
 *                             long; prints "bench W50 W100 W150 W200
 *                             W250", the reference work of the load
 *                             phases of each length, in us
 */
#include "guest.h"
#include "emuwork.h"

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
		emu_work(run);
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
			emu_work(run);
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
	return emu_cpu[sched_getcpu()].capacity;
}

/*
 * @work_ns of work in granules; returns the CLOCK_MONOTONIC time of the
 * first granule on a big CPU, or 0 if none.
 */
static long long work_until_big(long long work_ns)
{
	long long first = 0;

	for (; work_ns > 0; work_ns -= EMU_GRANULE_NS) {
		emu_work(EMU_GRANULE_NS);
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
		emu_work(run);
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
		emu_work(200000 * NSEC_PER_USEC);
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
			emu_work(run);
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
		cpu = emu_work(run);
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
				emu_work(500 * NSEC_PER_USEC);
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
 * with its index and the time it was sent. Each frame's work is drawn from a seeded
 * generator, the same in every run and configuration, so that no single
 * OPP decides whether frames are late.
 */
#define FRAME_NS	16666667LL

struct frame {
	int idx;
	long long sent;
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

/* xorshift64*, seeded: a fixed sequence of frame works. */
static unsigned long long frame_rng = 0x2545f4914f6cdd1dULL;

/* Work in [@lo_us, @hi_us) us, uniformly, in ns. */
static long long work_between(long long lo_us, long long hi_us)
{
	frame_rng ^= frame_rng >> 12;
	frame_rng ^= frame_rng << 25;
	frame_rng ^= frame_rng >> 27;
	return (lo_us + (frame_rng * 0x2545f4914f6cdd1dULL >> 11) %
		(unsigned long long)(hi_us - lo_us)) * NSEC_PER_USEC;
}

static int pipe_or_die(int fds[2])
{
	if (pipe(fds)) {
		perror("pipe");
		exit(1);
	}
	return 0;
}

static void write_or_die(int fd, const void *buf, size_t len)
{
	if (write(fd, buf, len) != (ssize_t)len) {
		perror("write");
		exit(1);
	}
}

/*
 * A render process: for each frame it reads, its wake-up latency (from
 * the frame's write to the return of its read) into @wake[idx], work[idx],
 * then the time it finished into @done[idx], and a byte to @ack_fd (if
 * >= 0). Returns the write end of its pipe.
 */
static int render_fork(const long long *work, long long *done, long long *wake,
		       int ack_fd)
{
	struct frame fr;
	char c = 0;
	int fds[2];

	pipe_or_die(fds);
	if (!fork()) {
		prctl(PR_SET_NAME, "render");
		close(fds[1]);
		while (read(fds[0], &fr, sizeof(fr)) == sizeof(fr)) {
			wake[fr.idx] = clock_ns(CLOCK_MONOTONIC) - fr.sent;
			emu_work(work[fr.idx]);
			done[fr.idx] = clock_ns(CLOCK_MONOTONIC);
			if (ack_fd >= 0)
				write_or_die(ack_fd, &c, 1);
		}
		_exit(0);
	}
	close(fds[0]);
	return fds[1];
}

static void frame_send(int fd, int idx)
{
	struct frame fr = { idx, clock_ns(CLOCK_MONOTONIC) };

	write_or_die(fd, &fr, sizeof(fr));
}

static int reap(int children)
{
	int st, bad = 0;

	while (children--)
		if (wait(&st) < 0 || st)
			bad = 1;
	mark("t4_end");
	if (bad)
		fprintf(stderr, "socload: a child failed\n");
	return bad;
}

/*
 * "frames N LATE P90 P95 P99 WAKE50 WAKE95": the percentiles of @times
 * and the median and 95th percentile of the render's wake-up latencies
 * @wake, in us (both sorted in place).
 */
static void frames_print(long long *times, long long *wake, int n, int late)
{
	qsort(times, n, sizeof(*times), cmp_ll);
	qsort(wake, n, sizeof(*wake), cmp_ll);
	printf("frames %d %d %lld %lld %lld %lld %lld\n", n, late,
	       times[n * 90 / 100] / 1000, times[n * 95 / 100] / 1000,
	       times[n * 99 / 100] / 1000, wake[n / 2] / 1000,
	       wake[n * 95 / 100] / 1000);
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
		emu_work(300 * NSEC_PER_USEC);
		due += 10000 * NSEC_PER_USEC;
		sleep_until(due);
	}
	_exit(0);
}

#define VIDEO_BUFFERS	3

/*
 * Video playback through a queue of VIDEO_BUFFERS buffers, as Android's
 * BufferQueue: a decoder process decodes ahead into any free buffer (an
 * I-frame of 2-4 ms of work every 8 frames, P-frames of 0.5-1.5 ms), a
 * render process renders each frame (0.5-1.5 ms), and the display (this
 * process) latches at each vsync the next frame if it is rendered, which
 * frees the buffer of the frame it replaces. A vsync with no frame ready
 * is a janky frame; the one late frame is then shown a vsync later, the
 * ones behind it are not late for it. Frame time: from the start of its
 * decode to the end of its render.
 */
static int video(long long len)
{
	int k, j, n = len / FRAME_NS, shown = 0, jank = 0, rfd, freefd[2];
	/* [0]: audio's stop flag; decode work, render work, start, done */
	long long *shared = shared_ll(1 + 5 * n), *dec = shared + 1;
	long long *ren = dec + n, *start = ren + n, *done = start + n;
	long long *wake = done + n;
	long long vsync;
	char c = 0;

	for (k = 0; k < n; k++) {
		dec[k] = k % 8 ? work_between(500, 1500) : work_between(2000, 4000);
		ren[k] = work_between(500, 1500);
	}
	rfd = render_fork(ren, done, wake, -1);
	pipe_or_die(freefd);
	for (k = 0; k < VIDEO_BUFFERS; k++)
		write_or_die(freefd[1], &c, 1);
	audio_fork(&shared[0]);
	mark("t4_start");
	if (!fork()) {
		prctl(PR_SET_NAME, "decoder");
		for (k = 0; k < n; k++) {
			if (read(freefd[0], &c, 1) != 1)
				_exit(1);
			start[k] = clock_ns(CLOCK_MONOTONIC);
			emu_work(dec[k]);
			frame_send(rfd, k);
		}
		_exit(0);
	}
	close(rfd);
	/* The display starts at the first vsync after frame 0 is ready. */
	vsync = clock_ns(CLOCK_MONOTONIC);
	for (j = 0; shown < n; j++, vsync += FRAME_NS) {
		sleep_until(vsync);
		if (!done[shown]) {
			jank += shown > 0;
			continue;
		}
		if (shown++)
			write_or_die(freefd[1], &c, 1);
	}
	shared[0] = 1;
	close(freefd[1]);
	if (reap(3))
		return 1;
	for (k = 0; k < n; k++)
		start[k] = done[k] - start[k];
	frames_print(start, wake, n, jank);
	return 0;
}

/*
 * Jankbench-like UI: @bursts bursts of UI_FRAMES frames, each after 250 ms
 * of idle, the first burst discarded (a new process's first frames). A
 * frame starts at a vsync: the UI process's work, then it waits for the
 * render process to finish the previous frame (Android's sync of the frame
 * state) and hands this one over. Work of a frame: UI 1.5-2.5 ms and
 * render 1-2 ms, one frame in 6 (at seeded positions) heavy: UI 3-5 ms,
 * render 2-3 ms. The next frame starts at the first vsync after the UI's
 * part of this one, as Android's Choreographer skips the vsyncs it
 * missed: a slow frame does not make the next one late. Frame time: from
 * its vsync to the end of its render; late above one vsync period.
 */
#define UI_FRAMES	10
#define UI_IDLE_NS	(250000 * NSEC_PER_USEC)

static int ui(int bursts)
{
	int b, i, k, fd, late = 0, n = bursts * UI_FRAMES, ack[2];
	long long *shared = shared_ll(5 * n), *uiw = shared, *ren = uiw + n;
	long long *vs = ren + n, *done = vs + n, *wake = done + n, vsync, now;
	char c;

	for (k = 0; k < n; k++) {
		int heavy = work_between(0, 6) == 0;

		uiw[k] = heavy ? work_between(3000, 5000) : work_between(1500, 2500);
		ren[k] = heavy ? work_between(2000, 3000) : work_between(1000, 2000);
	}
	pipe_or_die(ack);
	fd = render_fork(ren, done, wake, ack[1]);
	close(ack[1]);
	mark("t4_start");
	vsync = clock_ns(CLOCK_MONOTONIC);
	for (b = 0, k = 0; b < bursts; b++) {
		vsync += UI_IDLE_NS / FRAME_NS * FRAME_NS;
		for (i = 0; i < UI_FRAMES; i++, k++) {
			sleep_until(vsync);
			vs[k] = vsync;
			emu_work(uiw[k]);
			if (k && read(ack[0], &c, 1) != 1)
				return 1;
			frame_send(fd, k);
			now = clock_ns(CLOCK_MONOTONIC);
			vsync += ((now - vsync) / FRAME_NS + 1) * FRAME_NS;
		}
	}
	close(fd);
	if (reap(1))
		return 1;
	/* The first burst is discarded. */
	for (k = UI_FRAMES; k < n; k++) {
		vs[k - UI_FRAMES] = done[k] - vs[k];
		wake[k - UI_FRAMES] = wake[k];
		late += vs[k - UI_FRAMES] > FRAME_NS;
	}
	frames_print(vs, wake, n - UI_FRAMES, late);
	return 0;
}

/* Spin for @len of CLOCK_MONOTONIC; returns the reference work done. */
static long long work_for(long long len)
{
	long long end = clock_ns(CLOCK_MONOTONIC) + len, done = 0;
	long long from = clock_ns(CLOCK_THREAD_CPUTIME_ID), to;
	double rate;

	while (clock_ns(CLOCK_MONOTONIC) < end) {
		rate = emu_rate_now();
		do {
			to = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		} while (to - from < EMU_GRANULE_NS);
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
		emu_init();
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

		cpu = emu_work(atoll(argv[3]) * NSEC_PER_USEC);
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
