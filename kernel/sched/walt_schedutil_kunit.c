// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of schedutil's input with WALT selected. WALT covers the
 * whole CPU: RT, DL and IRQ time reach schedutil once, through WALT, a DL
 * task's bandwidth stays a floor, and SchedTune's margin applies to all
 * of it, as it does to the whole CPU's utilization under PELT (the last
 * case, with PELT selected).
 *
 * Each case runs periodic kthreads bound to one CPU for 10 windows, so
 * that PELT's RT and DL utilization (32 ms half-life, 200 ms) is near its
 * final value too, then reads, under the CPU's rq lock, schedutil's input
 * (sugov_cpu_util()) beside WALT's value of the CPU, once a window for
 * SNAPS windows. At every read:
 *
 *  - the input is WALT's value (with SchedTune's margin, if boosted)
 *    exactly: nothing else is added. Each case checks that PELT's RT or
 *    DL utilization was above TOLERANCE at some read where WALT's value
 *    was below the capacity, where the composition of a CFS signal (which
 *    adds them) gives more;
 *  - WALT's value holds what the loads ran in the window it reports, as
 *    their logs bound it from below (loads_ran()), less TOLERANCE (1/8
 *    of the capacity, 2.5 ms of a 20 ms window: the way into and out of
 *    each sleep): their RT or DL time is in it.
 *
 * WALT's value is not bounded above by the loads' logs: it holds whatever
 * else ran on the CPU (kworkers, the test thread itself, 11 ms of a window
 * once in an x86_64 debug boot) and the IRQ time, which a host that stalls
 * the vCPU in an IRQ handler inflates (5 ms in two windows on an arm guest
 * once). How exactly WALT counts a task's time is sched_walt_live's
 * business. A host can also hold a load back for a window: the loads must
 * have run a good part of at least one window of the SNAPS.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/delay.h>

#include <linux/mmu_context.h>

#include "sched.h"
#include "sched_util_kunit.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define TEST_CPU	1
#define TOLERANCE	(SCHED_CAPACITY_SCALE / 8)
#define WINDOWS		10
#define SNAPS		8

/*
 * What schedutil reads of a CPU, WALT's value beside it and the window
 * that value is of, and PELT's RT/DL values.
 */
struct sugov_input {
	unsigned long util, min, max, walt;
	unsigned long rt, dl, bw;
	u64 from;
	bool stable;
	bool busy;	/* RUNNABLE tasks there, so SchedTune's boost applies */
};

/*
 * Windows that have ended on @cpu's grid at @now since its window_start
 * @start, as walt_cpu_util() rolls a copy of its sums to @now.
 */
static u64 windows_ended(u64 start, u64 now, u32 window)
{
	return now > start ? div_u64(now - start, window) : 0;
}

/*
 * walt_cpu_util() reads the clock and reports the last window complete
 * then, which is later than the one before window_start if the CPU has
 * had no event since the boundary (idle with its tick stopped, for
 * windows if its load was held back). Read until two calls around
 * sugov_cpu_util() agree and no boundary passed between them.
 */
static void read_input(int cpu, struct sugov_input *in)
{
	u32 window = walt_window_size();
	struct rq *rq = cpu_rq(cpu);
	unsigned long again;
	u64 ended, start;
	int tries = 0;

	do {
		guard(rq_lock_irqsave)(rq);
		start = walt_rq_of(cpu)->window_start;
		ended = windows_ended(start, local_clock(), window);
		in->walt = walt_cpu_util(cpu);
		in->util = sugov_cpu_util(cpu, &in->min, &in->max);
		again = walt_cpu_util(cpu);
		in->stable = in->walt == again &&
			     ended == windows_ended(start, local_clock(), window);
		in->rt = cpu_util_rt(rq);
		in->dl = cpu_util_dl(rq);
		in->bw = cpu_bw_dl(rq);
		in->busy = rq->nr_running > rq->cfs.h_nr_delayed;
	} while (!in->stable && ++tries < 10);
	in->from = start + ended * window - window;
}

/* Allocated before the action that stops them, so freed after it. */
struct loads {
	struct task_struct *k[2];
	struct sched_util_kunit_duty d[2];
	int nr;
	bool stopped;
};

static void loads_stop(void *arg)
{
	struct loads *l = arg;
	int i;

	for (i = 0; i < l->nr && !l->stopped; i++) {
		kthread_stop(l->k[i]);
		put_task_struct(l->k[i]);
	}
	l->stopped = true;
}

static struct loads *loads_new(struct kunit *test)
{
	struct loads *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, l);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, loads_stop, l), 0);
	return l;
}

/* Run @num/@den of each window on TEST_CPU with @attr (NULL: CFS). */
static void load_start(struct kunit *test, struct loads *l, u32 num, u32 den,
		       const struct sched_attr *attr, const char *name)
{
	struct sched_util_kunit_duty *d = &l->d[l->nr];
	u32 window = walt_window_size();
	struct task_struct *k;

	d->spin_ns = div_u64((u64)window * num, den);
	d->period_ns = window;
	k = sched_util_kunit_duty(d, attr, TEST_CPU, name);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(k), "%s: %ld", name, PTR_ERR(k));
	l->k[l->nr++] = k;
}

static void loads_run(void)
{
	msleep(WINDOWS * (walt_window_size() / NSEC_PER_MSEC));
}

/*
 * A lower bound of what the loads ran in [@from, @to): of each logged
 * spin, its part in the interval less the time within the spin that the
 * load did not run (the spin's length less its run time), which may lie
 * anywhere in it. The loads run on one CPU, so their bounds add up. The
 * time a spin lost is IRQ time or another task's run time, both in the
 * CPU's busy time, or idle time (a DL load throttled mid-spin), which
 * is not: a spin's log alone can overstate the CPU's busy time (WALT 130
 * where a DL load's logs covered 354, in one of 20 arm64 debug boots).
 */
static u64 loads_ran(struct loads *l, u64 from, u64 to)
{
	u64 ran = 0;
	int i, j;

	for (i = 0; i < l->nr; i++) {
		const struct sched_util_kunit_duty *d = &l->d[i];

		for (j = 0; j < min_t(int, d->n, SCHED_UTIL_KUNIT_LOG); j++) {
			u64 a = max(d->spin[j][0], from);
			u64 b = min(d->spin[j][1], to);
			u64 len = d->spin[j][1] - d->spin[j][0];
			u64 lost = len - min(d->ran[j], len);

			if (b > a + lost)
				ran += b - a - lost;
		}
	}
	return ran;
}

/*
 * Read schedutil's input SNAPS times, a window apart, then stop the loads.
 * Their logs are read once they are stopped. With @busy, each read waits
 * (up to a window) for a moment at which the test CPU has RUNNABLE tasks:
 * the loads repeat every window, and reads a window apart can find them
 * at the same, idle point of their period every time (all eight, once on
 * x86_64; sleeps are whole ticks, 10 ms on arm).
 */
static void read_snaps_and_stop(struct loads *l, struct sugov_input *in,
				bool busy)
{
	u64 until;
	int i;

	for (i = 0; i < SNAPS; i++) {
		if (i)
			msleep(walt_window_size() / NSEC_PER_MSEC);
		until = local_clock() + walt_window_size();
		for (;;) {
			read_input(TEST_CPU, &in[i]);
			if (!busy || in[i].busy || local_clock() >= until)
				break;
			while (!READ_ONCE(cpu_rq(TEST_CPU)->nr_running) &&
			       local_clock() < until)
				cpu_relax();
		}
	}
	loads_stop(l);
}

/*
 * Check @in[SNAPS] against @expect(walt): the input is exactly that, and
 * WALT's value holds the loads' time. Returns how many reads had PELT's
 * RT (or, @dl, DL) utilization above TOLERANCE with WALT's value below
 * the capacity: reads at which a double count would have shown.
 */
static int expect_input(struct kunit *test, struct loads *l,
			const struct sugov_input *in,
			unsigned long (*expect)(const struct sugov_input *in),
			bool dl)
{
	unsigned long cap = arch_scale_cpu_capacity(TEST_CPU);
	u32 window = walt_window_size();
	unsigned long best = 0;
	int i, shown = 0;

	for (i = 0; i < SNAPS; i++) {
		unsigned long ran;

		KUNIT_EXPECT_TRUE_MSG(test, in[i].stable,
				      "read %d: WALT's value or window never stable",
				      i);
		if (!in[i].stable)
			continue;
		ran = walt_util(loads_ran(l, in[i].from, in[i].from + window),
				window);
		best = max(best, ran);
		KUNIT_EXPECT_EQ_MSG(test, in[i].util, expect(&in[i]),
				    "read %d: walt %lu, rt %lu, dl %lu", i,
				    in[i].walt, in[i].rt, in[i].dl);
		KUNIT_EXPECT_GE_MSG(test, in[i].walt + TOLERANCE, ran,
				    "read %d: walt %lu, the loads ran %lu", i,
				    in[i].walt, ran);
		if ((dl ? in[i].dl : in[i].rt) > TOLERANCE && in[i].walt < cap)
			shown++;
	}
	/* Not vacuous: they ran a good part of a window. */
	KUNIT_EXPECT_GT_MSG(test, best, 2 * TOLERANCE,
			    "the loads ran at most %lu in a window", best);
	return shown;
}

static unsigned long walt_unboosted(const struct sugov_input *in)
{
	return in->walt;
}

/* SCHED_FIFO with uclamp.min 0, as sched_util_clamp_min_rt_default 0 sets. */
static const struct sched_attr fifo_unclamped = {
	.size		= sizeof(struct sched_attr),
	.sched_policy	= SCHED_FIFO,
	.sched_priority	= 1,
	.sched_flags	= SCHED_FLAG_UTIL_CLAMP_MIN,
	.sched_util_min	= 0,
};

/*
 * An RT task at a third of each window gives schedutil a third, not two
 * thirds; with uclamp in use and its min at 0 it does not force the
 * highest OPP either.
 */
static void walt_rt_third_test(struct kunit *test)
{
	struct sugov_input in[SNAPS];
	struct loads *l = loads_new(test);
	int i;

	load_start(test, l, 1, 3, &fifo_unclamped, "walt_rt");
	loads_run();
	read_snaps_and_stop(l, in, false);

	KUNIT_EXPECT_TRUE(test, uclamp_is_used());
	KUNIT_EXPECT_GT_MSG(test, expect_input(test, l, in, walt_unboosted,
					       false), 0,
			    "PELT's RT utilization: a double count would pass");
	for (i = 0; i < SNAPS; i++)
		KUNIT_EXPECT_LT_MSG(test, in[i].min, SCHED_CAPACITY_SCALE / 2,
				    "read %d: the RT task forces a high OPP", i);
}

/*
 * A DL task gives at least its bandwidth, as a floor, and its run time
 * once. Its bandwidth is in the CPU's while it is active (until its 0-lag
 * time after it sleeps), beside that of 6.12's fair server when that is
 * active: sample until it is, and require the floor at every sample.
 */
static void walt_dl_test(struct kunit *test)
{
	u32 window = walt_window_size();
	struct sched_attr dl = {
		.size		= sizeof(dl),
		.sched_policy	= SCHED_DEADLINE,
		/*
		 * 70% reserved, 30% run: the floor is above the run time,
		 * and the task is never throttled mid-spin. A wake-up before
		 * its deadline keeps what runtime is left (CBS), which with
		 * 40% reserved ran out mid-spin in 7 of 50 debug boots on a
		 * loaded host: it then idled inside its logged spin.
		 */
		.sched_runtime	= div_u64((u64)window * 7, 10),
		.sched_deadline	= window,
		.sched_period	= window,
	};
	struct sugov_input in[SNAPS];
	struct loads *l = loads_new(test);
	unsigned long own, bw = 0;
	int i;

	own = to_ratio(window, dl.sched_runtime) >>
	      (BW_SHIFT - SCHED_CAPACITY_SHIFT);
	load_start(test, l, 3, 10, &dl, "walt_dl");
	loads_run();
	for (i = 0; i < 100 && bw < own; i++) {
		read_input(TEST_CPU, &in[0]);
		KUNIT_EXPECT_GE_MSG(test, in[0].min, in[0].bw, "sample %d", i);
		bw = in[0].bw;
		usleep_range(1000, 1100);
	}
	KUNIT_EXPECT_GE_MSG(test, bw, own, "the DL task was never active");

	read_snaps_and_stop(l, in, false);
	KUNIT_EXPECT_GT_MSG(test, expect_input(test, l, in, walt_unboosted,
					       true), 0,
			    "PELT's DL utilization: a double count would pass");
	for (i = 0; i < SNAPS; i++)
		KUNIT_EXPECT_GE_MSG(test, in[i].min, in[i].bw, "read %d", i);
}

/*
 * A CFS and an RT task sharing the CPU give their sum, once. The RT task
 * has the larger share, so that PELT's RT utilization is well above the
 * tolerance.
 */
static void walt_cfs_rt_test(struct kunit *test)
{
	struct sugov_input in[SNAPS];
	struct loads *l = loads_new(test);

	load_start(test, l, 1, 8, NULL, "walt_cfs");
	load_start(test, l, 3, 8, &fifo_unclamped, "walt_rt");
	loads_run();
	read_snaps_and_stop(l, in, false);

	KUNIT_EXPECT_GT_MSG(test, expect_input(test, l, in, walt_unboosted,
					       false), 0,
			    "PELT's RT utilization: a double count would pass");
}

#ifdef CONFIG_SCHED_TUNE
static void walt_unboost(void *unused)
{
	sched_tune_set_global_boost(0);
}

/* An idle CPU keeps no inflating boost: its input is WALT's value. */
static unsigned long walt_boosted_50(const struct sugov_input *in)
{
	if (!in->busy)
		return in->walt;
	return sched_tune_boosted(in->walt, sched_tune_margin(in->walt, 50),
				  arch_scale_cpu_capacity(TEST_CPU));
}

/*
 * SchedTune's margin applies to the whole CPU's utilization, RT time
 * included: with every task in the root group boosted 50, schedutil's
 * input is WALT's value boosted while the CPU has RUNNABLE tasks.
 */
static void walt_rt_boost_test(struct kunit *test)
{
	struct sugov_input in[SNAPS];
	struct loads *l = loads_new(test);
	int i, margin = 0;

	load_start(test, l, 1, 3, &fifo_unclamped, "walt_rt");
	KUNIT_ASSERT_EQ(test, sched_tune_set_global_boost(50), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, walt_unboost,
							NULL), 0);
	loads_run();
	read_snaps_and_stop(l, in, true);

	expect_input(test, l, in, walt_boosted_50, false);
	/*
	 * Not vacuous: the margin is half the headroom, so it is large
	 * where WALT's value is low; a window in which other work filled
	 * the CPU (923 once on arm64) leaves little. One read must show it.
	 */
	for (i = 0; i < SNAPS; i++)
		margin += in[i].stable && in[i].util > in[i].walt + TOLERANCE;
	KUNIT_EXPECT_GT_MSG(test, margin, 0,
			    "no read with a margin above %ld in the input",
			    TOLERANCE);
}

/*
 * schedutil's input under PELT, read with the parts it is made of, and
 * what the margin on the CFS signal alone would have given.
 */
struct pelt_input {
	unsigned long util, sum, rt, cfs_only;
	bool busy;
};

static void pelt_read_input(int cpu, struct pelt_input *in)
{
	struct rq *rq = cpu_rq(cpu);
	unsigned long min, max, cfs;

	guard(rq_lock_irqsave)(rq);
	in->util = sugov_cpu_util(cpu, &min, &max);
	in->sum = effective_cpu_util(cpu, cpu_util_cfs_boost(cpu), NULL, NULL);
	in->rt = cpu_util_rt(rq);
	in->busy = rq->nr_running > rq->cfs.h_nr_delayed;
	cfs = sched_tune_cpu_util(cpu, cpu_util_cfs_boost(cpu));
	in->cfs_only = effective_cpu_util(cpu, cfs, NULL, NULL);
}

/*
 * The same rule under PELT: the margin applies to the CPU's whole
 * utilization, the CFS signal with the RT, DL and IRQ utilization that
 * effective_cpu_util() adds, not to the CFS signal alone. With a
 * SCHED_FIFO load at a quarter of each window and a CFS one at an eighth,
 * boosted 50, the two rules differ by half the RT utilization (about
 * 128) where the CPU is not saturated: a host that stalls the guest
 * inflates PELT's values, and a read at the capacity tells the rules
 * apart no more, so the test reads on (up to five times as long) until
 * one tells them apart. Everything is read under the CPU's rq lock,
 * which every PELT update of its sums holds, so the values are exact.
 */
static void pelt_rt_boost_test(struct kunit *test)
{
	struct loads *l = loads_new(test);
	unsigned long cap = arch_scale_cpu_capacity(TEST_CPU);
	struct pelt_input in;
	int i, shown = 0;

	KUNIT_ASSERT_EQ(test, sched_util_signal_select("pelt"), 0);
	load_start(test, l, 1, 4, &fifo_unclamped, "pelt_rt");
	load_start(test, l, 1, 8, NULL, "pelt_cfs");
	KUNIT_ASSERT_EQ(test, sched_tune_set_global_boost(50), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, walt_unboost,
							NULL), 0);
	loads_run();
	for (i = 0; i < 8 * SNAPS || (!shown && i < 40 * SNAPS); i++) {
		unsigned long expect;

		usleep_range(2000, 3000);
		pelt_read_input(TEST_CPU, &in);
		expect = in.sum;
		if (in.busy)
			expect = sched_tune_boosted(in.sum,
						    sched_tune_margin(in.sum, 50),
						    cap);
		KUNIT_EXPECT_EQ_MSG(test, in.util, expect,
				    "read %d: sum %lu, rt %lu, busy %d", i,
				    in.sum, in.rt, in.busy);
		shown += in.busy && in.cfs_only > in.util + TOLERANCE / 2;
	}
	loads_stop(l);
	/* Not vacuous: a read where the margin on CFS alone gives more. */
	KUNIT_EXPECT_GT_MSG(test, shown, 0,
			    "no busy read where the two rules differ by %ld",
			    TOLERANCE / 2);
}
#endif

static void walt_select_pelt(void *unused)
{
	sched_util_signal_select("pelt");
}

static int walt_schedutil_test_init(struct kunit *test)
{
	int ret = sched_util_signal_select("walt");

	if (ret)
		return ret;
	return kunit_add_action_or_reset(test, walt_select_pelt, NULL);
}

static struct kunit_case walt_schedutil_cases[] = {
	KUNIT_CASE_SLOW(walt_rt_third_test),
	KUNIT_CASE_SLOW(walt_dl_test),
	KUNIT_CASE_SLOW(walt_cfs_rt_test),
#ifdef CONFIG_SCHED_TUNE
	KUNIT_CASE_SLOW(walt_rt_boost_test),
	KUNIT_CASE_SLOW(pelt_rt_boost_test),
#endif
	{}
};

static struct kunit_suite walt_schedutil_suite = {
	.name = "sched_walt_schedutil",
	.init = walt_schedutil_test_init,
	.test_cases = walt_schedutil_cases,
};

kunit_test_suite(walt_schedutil_suite);

MODULE_DESCRIPTION("KUnit tests of schedutil's input with WALT selected");
MODULE_LICENSE("GPL");
