// SPDX-License-Identifier: GPL-2.0
/*
 * Guest-side load generators for scripts/run.sh, built statically on the
 * host:
 *
 *   schedbench step CPU [fifo]
 *                            sleep 2 s (a new task's PELT utilization
 *                            starts at half the CPU's spare capacity and
 *                            must decay first), mark "sched_util: step_up"
 *                            in the trace, run 100% on CPU for 1 s, mark
 *                            "sched_util: step_down", sleep 1 s (blocked,
 *                            not exited: its utilization decays instead of
 *                            being removed at once). With "fifo", as
 *                            SCHED_FIFO priority 1.
 *
 *   schedbench rise CPU      pinned to CPU, sleeps 2 s (its utilization
 *                            decays to nothing), then spins reading its
 *                            own PELT utilization (/proc/self/sched, which
 *                            the tick updates) and prints the milliseconds
 *                            from its first spin to 80% (819 of 1024):
 *                            PELT's step response as
 *                            kernel.sched_pelt_multiplier sets it. The
 *                            task times itself: a reader on another CPU
 *                            saw the start late when the host stalled it.
 *
 *   schedbench pingpong CPU N
 *                            two processes pinned to CPU pass a byte back
 *                            and forth through two pipes N times; prints
 *                            the elapsed and the CPU nanoseconds (both
 *                            processes) per round trip.
 *
 *   schedbench periodic CPU N PERIOD_US
 *                            pinned to CPU with 1 ns timer slack, sleeps
 *                            PERIOD_US and wakes, N times, on an otherwise
 *                            idle CPU: a switch to and from idle and a
 *                            timer IRQ per period. Prints the elapsed time
 *                            per period beyond PERIOD_US (the wake-up, the
 *                            run and the way back to idle, in ns) and the
 *                            task's CPU nanoseconds per period.
 *
 *   schedbench ipi CPU N     from the other CPU, reads /dev/cpu/CPU/cpuid
 *                            N times (x86, CONFIG_X86_CPUID): each read
 *                            sends a function-call IPI to CPU, idle, and
 *                            sleeps until the handler there completes it:
 *                            an IRQ on an idle CPU that wakes no task on
 *                            it, a wake-up from it, and a switch to and
 *                            from idle on this CPU. Prints the elapsed and
 *                            CPU nanoseconds per read.
 *
 *   schedbench eas N PERIODS PERIOD_US RUN_US
 *                            N processes, not pinned, each woken by an
 *                            absolute timer every PERIOD_US and running
 *                            RUN_US of CPU time, PERIODS times: small
 *                            periodic tasks whose every wake-up, on an
 *                            asymmetric system with EAS (none of them
 *                            overutilizes a CPU), goes through
 *                            find_energy_efficient_cpu(), which reads the
 *                            placement signal's cpu_util_without() for
 *                            every candidate CPU. Their phases are spread
 *                            over the period, so that none waits for
 *                            another. Prints the mean wake-up latency
 *                            (timer expiry to running again: the timer
 *                            IRQ, the placement, a migration and a switch
 *                            from idle, in ns) and the CPU nanoseconds per
 *                            period beyond RUN_US, over all N.
 *
 *   schedbench migrate N     a waker pinned to CPU 0 and a sleeper that it
 *                            wakes N times through a pipe, each time on
 *                            the other CPU: the waker waits until the
 *                            sleeper sleeps (its /proc stat state), moves
 *                            its affinity to the other CPU and wakes it,
 *                            so every wake-up migrates the sleeper
 *                            (try_to_wake_up() -> set_task_cpu() with only
 *                            p->pi_lock held); the sleeper checks that it
 *                            woke there and wakes the waker back. Prints
 *                            the elapsed and CPU nanoseconds (both) per
 *                            round trip.
 *
 *   schedbench asuser UID CMD [ARG...]
 *                            runs CMD as user and group UID, without
 *                            supplementary groups or capabilities.
 *
 *   schedbench uclampmin PID PERCENT
 *                            sets PID's uclamp.min (sched_setattr(),
 *                            SCHED_FLAG_UTIL_CLAMP_MIN) to PERCENT of
 *                            SCHED_CAPACITY_SCALE; its later children
 *                            inherit it. The reference configuration of
 *                            Table 3: upstream's per-task boost, with its
 *                            enqueue/dequeue bucket accounting on.
 *
 *   schedbench failing mkdir|rmdir PATH | write PATH VALUE
 *                            the one system call with the kernel's fault
 *                            injection aimed at this process alone
 *                            (/proc/self/make-it-fail, with failslab's and
 *                            fail_page_alloc's task-filter on): prints
 *                            "ok" or the error, exits 0 or 1.
 *
 *   schedbench duty CPU RUN_US PERIOD_US
 *                            pinned to CPU, runs RUN_US of its own CPU
 *                            time in every PERIOD_US and sleeps the rest,
 *                            until killed: a load with a known busy time
 *                            per window. Periods missed (a suspend froze
 *                            it) are skipped, not caught up.
 *
 *   schedbench rtcwake SECS  sets the alarm of /dev/rtc0 SECS seconds
 *                            ahead (RTC_WKALM_SET) and suspends to idle
 *                            ("freeze" into /sys/power/state), which
 *                            returns once the alarm has woken the system;
 *                            prints "slept B M", the seconds that
 *                            CLOCK_BOOTTIME and CLOCK_MONOTONIC advanced
 *                            across it (the latter stops while suspended).
 *
 *   schedbench cputime CMD [ARG...]
 *                            runs CMD; prints its elapsed and CPU time in
 *                            microseconds, CPU time being user + system of
 *                            CMD and the children it waited for.
 *
 * Under QEMU -icount, guest time counts instructions. CPU time (the
 * scheduler's sum_exec_runtime, which rusage adds up exactly) leaves out
 * the idle gaps whose length varies with where and when tasks wake, so it
 * is the steadier measure of what the scheduler's hooks cost.
 */
#include "guest.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/rtc.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * From the kernel's uapi <linux/sched/types.h> and <linux/sched.h>, which
 * clash with glibc's <sched.h> (struct sched_param, CLONE_*).
 */
struct sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

#define SCHED_FLAG_KEEP_POLICY		0x08
#define SCHED_FLAG_KEEP_PARAMS		0x10
#define SCHED_FLAG_UTIL_CLAMP_MIN	0x20

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int step(int cpu, int fifo)
{
	struct sched_param param = { .sched_priority = 1 };
	long long end;

	pin(cpu);
	if (fifo && sched_setscheduler(0, SCHED_FIFO, &param)) {
		perror("sched_setscheduler");
		return 1;
	}
	sleep(2);
	mark("step_up");
	end = now_ns() + 1000000000LL;
	while (now_ns() < end)
		;
	mark("step_down");
	sleep(1);
	return 0;
}

/*
 * After fork(): parent and child of a round trip keep only their ends of
 * the pipes @ab (parent to child), @ba (child to parent) and @back (the
 * child's result).
 */
static void close_ends(pid_t pid, int ab[2], int ba[2], int back[2])
{
	if (pid) {
		close(ab[0]);
		close(ba[1]);
		close(back[1]);
	} else {
		close(ab[1]);
		close(ba[0]);
		close(back[0]);
	}
}

static int pingpong(int cpu, long n)
{
	int ab[2], ba[2], back[2];
	long long start, cpu0, child_cpu = 0;
	char c = 0;
	pid_t pid;
	long i;

	if (pipe(ab) || pipe(ba) || pipe(back)) {
		perror("pipe");
		return 1;
	}
	pin(cpu);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	/*
	 * Each side closes the other's ends: a parent that fails and exits
	 * ends the child's read with EOF instead of leaving it blocked.
	 */
	close_ends(pid, ab, ba, back);
	if (!pid) {
		cpu0 = cpu_ns();
		for (i = 0; i < n; i++)
			if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
				_exit(1);
		child_cpu = cpu_ns() - cpu0;
		_exit(write(back[1], &child_cpu, sizeof(child_cpu)) !=
		      sizeof(child_cpu));
	}
	start = now_ns();
	cpu0 = cpu_ns();
	for (i = 0; i < n; i++)
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1) {
			perror("pingpong");
			return 1;
		}
	cpu0 = cpu_ns() - cpu0;
	start = now_ns() - start;
	if (read(back[0], &child_cpu, sizeof(child_cpu)) != sizeof(child_cpu)) {
		perror("pingpong child");
		return 1;
	}
	waitpid(pid, NULL, 0);
	printf("%.1f %.1f\n", (double)start / n, (double)(cpu0 + child_cpu) / n);
	return 0;
}

static int periodic(int cpu, long n, long period_us)
{
	struct timespec ts = {
		.tv_sec = period_us / 1000000,
		.tv_nsec = period_us % 1000000 * 1000,
	};
	long long start, cpu0;
	long i;

	pin(cpu);
	if (prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL)) {
		perror("PR_SET_TIMERSLACK");
		return 1;
	}
	start = now_ns();
	cpu0 = cpu_ns();
	for (i = 0; i < n; i++)
		if (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL)) {
			perror("clock_nanosleep");
			return 1;
		}
	cpu0 = cpu_ns() - cpu0;
	start = now_ns() - start;
	printf("%.1f %.1f\n", (double)start / n - period_us * 1000.0,
	       (double)cpu0 / n);
	return 0;
}

static int ipi(int cpu, long n)
{
	char path[32];
	long long start, cpu0;
	char regs[16];
	long i;
	int fd;

	snprintf(path, sizeof(path), "/dev/cpu/%d/cpuid", cpu);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	pin(!cpu);
	start = now_ns();
	cpu0 = cpu_ns();
	for (i = 0; i < n; i++)
		if (pread(fd, regs, sizeof(regs), 0) != sizeof(regs)) {
			perror("cpuid");
			return 1;
		}
	cpu0 = cpu_ns() - cpu0;
	start = now_ns() - start;
	printf("%.1f %.1f\n", (double)start / n, (double)cpu0 / n);
	return 0;
}

/* Whether @pid sleeps interruptibly: the state after its comm in stat. */
static int sleeping(pid_t pid)
{
	char path[32], buf[256], *p;
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return -1;
	buf[len] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

/* A field of /proc/PID/sched (SCHED_DEBUG), -1 if unreadable. */
static long sched_field(pid_t pid, const char *name)
{
	char path[64], line[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/sched", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, strlen(name)) && line[strlen(name)] == ' ') {
			v = atol(strchr(line, ':') + 1);
			break;
		}
	fclose(f);
	return v;
}

static int rise(int cpu)
{
	long long start;
	long util = -1;

	pin(cpu);
	sleep(2);
	start = now_ns();
	while (now_ns() - start < 2000000000LL) {
		util = sched_field(getpid(), "se.avg.util_avg");
		if (util >= 819) {
			printf("%.1f\n", (now_ns() - start) / 1e6);
			return 0;
		}
	}
	fprintf(stderr, "rise: utilization %ld after 2 s\n", util);
	return 1;
}

static int migrate(long n)
{
	int ab[2], ba[2], back[2];
	long long start, cpu0, res[2] = { 0, 0 };
	cpu_set_t set;
	char c = 0;
	pid_t pid;
	long i;
	int s;

	if (pipe(ab) || pipe(ba) || pipe(back)) {
		perror("pipe");
		return 1;
	}
	pin(0);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	/*
	 * As pingpong(): the stress run's CPU hotplug fails the parent's
	 * sched_setaffinity() to an offline CPU, and a child that kept the
	 * write end of its own pipe would wait for ever.
	 */
	close_ends(pid, ab, ba, back);
	if (!pid) {
		/* res[0]: CPU ns; res[1]: wake-ups not on the CPU sent to. */
		cpu0 = cpu_ns();
		for (i = 0; i < n; i++) {
			if (read(ab[0], &c, 1) != 1)
				_exit(1);
			res[1] += sched_getcpu() != (i + 1) % 2;
			if (write(ba[1], &c, 1) != 1)
				_exit(1);
		}
		res[0] = cpu_ns() - cpu0;
		_exit(write(back[1], res, sizeof(res)) != sizeof(res));
	}
	start = now_ns();
	cpu0 = cpu_ns();
	for (i = 0; i < n; i++) {
		while ((s = sleeping(pid)) == 0)
			sched_yield();
		CPU_ZERO(&set);
		CPU_SET((i + 1) % 2, &set);
		if (s < 0 || sched_setaffinity(pid, sizeof(set), &set) ||
		    write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1) {
			perror("migrate");
			return 1;
		}
	}
	cpu0 = cpu_ns() - cpu0;
	start = now_ns() - start;
	if (read(back[0], res, sizeof(res)) != sizeof(res)) {
		perror("migrate sleeper");
		return 1;
	}
	waitpid(pid, NULL, 0);
	if (res[1]) {
		fprintf(stderr, "migrate: %lld of %ld wake-ups not on the CPU the sleeper was sent to\n",
			res[1], n);
		return 1;
	}
	printf("%.1f %.1f\n", (double)start / n, (double)(cpu0 + res[0]) / n);
	return 0;
}

static int cputime(char **argv)
{
	long long start = now_ns();
	struct rusage ru;
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, 1);
		execvp(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return 1;
	printf("%lld %ld\n", (now_ns() - start) / 1000,
	       ru.ru_utime.tv_sec * 1000000L + ru.ru_utime.tv_usec +
	       ru.ru_stime.tv_sec * 1000000L + ru.ru_stime.tv_usec);
	return 0;
}

static int asuser(uid_t uid, char **argv)
{
	if (setgroups(0, NULL) || setgid(uid) || setuid(uid)) {
		perror("asuser");
		return 1;
	}
	execvp(argv[0], argv);
	perror(argv[0]);
	return 127;
}

static int uclampmin(pid_t pid, int percent)
{
	struct sched_attr attr = {
		.size = sizeof(attr),
		.sched_flags = SCHED_FLAG_KEEP_POLICY | SCHED_FLAG_KEEP_PARAMS |
			       SCHED_FLAG_UTIL_CLAMP_MIN,
		.sched_util_min = percent * 1024 / 100,
	};

	if (percent < 0 || percent > 100) {
		fprintf(stderr, "uclampmin: %d is not a percentage\n", percent);
		return 1;
	}
	if (syscall(SYS_sched_setattr, pid, &attr, 0)) {
		perror("sched_setattr");
		return 1;
	}
	return 0;
}

/*
 * Opened before the injection is on and written with pwrite(), which
 * allocates nothing: only the operation under test can fail.
 */
static int make_it_fail(int fd, int on)
{
	if (pwrite(fd, on ? "1" : "0", 1, 0) == 1)
		return 0;
	perror("/proc/self/make-it-fail");
	return -1;
}

static int failing(const char *op, const char *path, const char *value)
{
	int fail = open("/proc/self/make-it-fail", O_WRONLY);
	int fd = -1, ret, err;

	if (fail < 0) {
		perror("/proc/self/make-it-fail");
		return 2;
	}
	/* The open of a write is not the operation under test. */
	if (value) {
		fd = open(path, O_WRONLY);
		if (fd < 0) {
			printf("open: %s\n", strerror(errno));
			return 1;
		}
	}
	if (make_it_fail(fail, 1))
		return 2;
	if (!strcmp(op, "mkdir"))
		ret = mkdir(path, 0755);
	else if (!strcmp(op, "rmdir"))
		ret = rmdir(path);
	else
		ret = write(fd, value, strlen(value)) == (ssize_t)strlen(value) ? 0 : -1;
	err = errno;
	if (make_it_fail(fail, 0))
		return 2;
	close(fail);
	if (fd >= 0)
		close(fd);
	printf("%s\n", ret ? strerror(err) : "ok");
	return ret ? 1 : 0;
}

static long long thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void add_ns(struct timespec *ts, long long ns)
{
	ns += ts->tv_nsec;
	ts->tv_sec += ns / 1000000000LL;
	ts->tv_nsec = ns % 1000000000LL;
}

static long long ts_ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

static int duty(int cpu, long run_us, long period_us)
{
	struct timespec next;
	long long end;

	pin(cpu);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		end = thread_ns() + run_us * 1000LL;
		while (thread_ns() < end)
			;
		/*
		 * The next period that has not begun: after a suspend, a
		 * catch-up of every period missed would run flat out for a
		 * quarter of the time suspended.
		 */
		do
			add_ns(&next, period_us * 1000LL);
		while (ts_ns(&next) <= now_ns());
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	return 0;
}

static int eas(int n, long periods, long period_us, long run_us)
{
	long long sums[2], lat = 0, cpu = 0;
	struct timespec next;
	int back[2], i, status, ret = 0;
	pid_t pid;
	long k;

	if (n < 1 || periods < 1 || run_us >= period_us || pipe(back)) {
		fprintf(stderr, "eas: bad arguments or no pipe\n");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &next);
	/* All start together, 10 ms from now, once every child exists. */
	add_ns(&next, 10000000LL);
	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid)
			continue;
		if (prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL))
			_exit(1);
		/*
		 * Phases spread over the period: packed on one CPU, as EAS
		 * may place them, the tasks still do not wait for each
		 * other, so the latency is the wake-up's alone.
		 */
		add_ns(&next, period_us * 1000LL * i / n);
		sums[0] = 0;
		for (k = 0; k < periods; k++) {
			long long woke, end;

			if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL))
				_exit(1);
			woke = now_ns();
			sums[0] += woke - ts_ns(&next);
			end = thread_ns() + run_us * 1000LL;
			while (thread_ns() < end)
				;
			add_ns(&next, period_us * 1000LL);
		}
		/* Its CPU time: the runs, the wake-ups' and sleeps' share. */
		sums[1] = cpu_ns();
		_exit(write(back[1], sums, sizeof(sums)) != sizeof(sums));
	}
	for (i = 0; i < n; i++) {
		if (read(back[0], sums, sizeof(sums)) != sizeof(sums)) {
			fprintf(stderr, "eas: a child failed\n");
			ret = 1;
			break;
		}
		lat += sums[0];
		cpu += sums[1];
	}
	for (i = 0; i < n; i++)
		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			ret = 1;
	if (ret)
		return 1;
	printf("%.1f %.1f\n", (double)lat / n / periods,
	       (double)cpu / n / periods - run_us * 1000.0);
	return 0;
}

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int rtcwake(int secs)
{
	struct rtc_wkalrm alarm = { .enabled = 1 };
	double boot, mono;
	struct tm tm;
	time_t t;
	int rtc, pm;

	rtc = open("/dev/rtc0", O_RDONLY);
	if (rtc < 0 || ioctl(rtc, RTC_RD_TIME, &alarm.time)) {
		perror("/dev/rtc0");
		return 1;
	}
	memset(&tm, 0, sizeof(tm));
	tm.tm_sec = alarm.time.tm_sec;
	tm.tm_min = alarm.time.tm_min;
	tm.tm_hour = alarm.time.tm_hour;
	tm.tm_mday = alarm.time.tm_mday;
	tm.tm_mon = alarm.time.tm_mon;
	tm.tm_year = alarm.time.tm_year;
	t = timegm(&tm) + secs;
	gmtime_r(&t, &tm);
	alarm.time.tm_sec = tm.tm_sec;
	alarm.time.tm_min = tm.tm_min;
	alarm.time.tm_hour = tm.tm_hour;
	alarm.time.tm_mday = tm.tm_mday;
	alarm.time.tm_mon = tm.tm_mon;
	alarm.time.tm_year = tm.tm_year;
	alarm.time.tm_wday = -1;
	alarm.time.tm_yday = -1;
	alarm.time.tm_isdst = -1;
	if (ioctl(rtc, RTC_WKALM_SET, &alarm)) {
		perror("RTC_WKALM_SET");
		return 1;
	}
	pm = open("/sys/power/state", O_WRONLY);
	boot = clock_s(CLOCK_BOOTTIME);
	mono = clock_s(CLOCK_MONOTONIC);
	if (pm < 0 || write(pm, "freeze", 6) != 6) {
		perror("/sys/power/state");
		return 1;
	}
	printf("slept %.3f %.3f\n", clock_s(CLOCK_BOOTTIME) - boot,
	       clock_s(CLOCK_MONOTONIC) - mono);
	alarm.enabled = 0;
	ioctl(rtc, RTC_WKALM_SET, &alarm);
	close(pm);
	close(rtc);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "step"))
		return step(atoi(argv[2]), 0);
	if (argc == 4 && !strcmp(argv[1], "step") && !strcmp(argv[3], "fifo"))
		return step(atoi(argv[2]), 1);
	if (argc == 3 && !strcmp(argv[1], "rise"))
		return rise(atoi(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "pingpong"))
		return pingpong(atoi(argv[2]), atol(argv[3]));
	if (argc == 5 && !strcmp(argv[1], "periodic"))
		return periodic(atoi(argv[2]), atol(argv[3]), atol(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "ipi"))
		return ipi(atoi(argv[2]), atol(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "migrate"))
		return migrate(atol(argv[2]));
	if (argc == 6 && !strcmp(argv[1], "eas"))
		return eas(atoi(argv[2]), atol(argv[3]), atol(argv[4]), atol(argv[5]));
	if (argc == 4 && !strcmp(argv[1], "failing") &&
	    (!strcmp(argv[2], "mkdir") || !strcmp(argv[2], "rmdir")))
		return failing(argv[2], argv[3], NULL);
	if (argc == 5 && !strcmp(argv[1], "failing") && !strcmp(argv[2], "write"))
		return failing(argv[2], argv[3], argv[4]);
	if (argc == 5 && !strcmp(argv[1], "duty"))
		return duty(atoi(argv[2]), atol(argv[3]), atol(argv[4]));
	if (argc == 3 && !strcmp(argv[1], "rtcwake"))
		return rtcwake(atoi(argv[2]));
	if (argc >= 3 && !strcmp(argv[1], "cputime"))
		return cputime(argv + 2);
	if (argc == 4 && !strcmp(argv[1], "uclampmin"))
		return uclampmin(atoi(argv[2]), atoi(argv[3]));
	if (argc >= 4 && !strcmp(argv[1], "asuser"))
		return asuser(atoi(argv[2]), argv + 3);
	fprintf(stderr,
		"usage: %s step CPU [fifo] | pingpong CPU N | periodic CPU N PERIOD_US |\n"
		"       ipi CPU N | migrate N | eas N PERIODS PERIOD_US RUN_US |\n"
		"       uclampmin PID PERCENT |\n"
		"       failing mkdir|rmdir PATH | failing write PATH VALUE |\n"
		"       duty CPU RUN_US PERIOD_US | rtcwake SECS |\n"
		"       cputime CMD... | asuser UID CMD...\n",
		argv[0]);
	return 2;
}
