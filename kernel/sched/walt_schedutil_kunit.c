// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of schedutil's input with WALT selected. WALT covers the
 * whole CPU: RT, DL and IRQ time reach schedutil once, through WALT, a DL
 * task's bandwidth stays a floor, and SchedTune's margin applies to all
 * of it.
 *
 * Each case runs periodic kthreads bound to one CPU for 10 windows, so
 * that PELT's RT and DL utilization (32 ms half-life, 200 ms) is within
 * 2% of its final value too, then reads schedutil's input,
 * sugov_cpu_util(), under the CPU's rq lock.
 *
 * Tolerance: each load runs a given time of its own clock per period of
 * one window, so a window holds that run time give or take the way into
 * and out of each sleep, what else runs on the CPU (kworkers, timers) and
 * the IRQ time, which WALT counts and the task's clock does not (a host
 * stall in an IRQ handler turns into IRQ time): 1/8 of the capacity
 * (2.5 ms of a 20 ms window) either way, plus above the CPU's IRQ time in
 * the last two windows (see loads_run()). Composing WALT like a CFS signal adds PELT's RT or DL
 * utilization again; each case checks that this is more than the
 * tolerance, so that the case fails with that composition.
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

/* What schedutil reads of a CPU, and PELT's RT/DL values beside it. */
struct sugov_input {
	unsigned long util, min, max;
	unsigned long rt, dl, bw;
};

static void read_input(int cpu, struct sugov_input *in)
{
	struct rq *rq = cpu_rq(cpu);

	guard(rq_lock_irqsave)(rq);
	in->util = sugov_cpu_util(cpu, &in->min, &in->max);
	in->rt = cpu_util_rt(rq);
	in->dl = cpu_util_dl(rq);
	in->bw = cpu_bw_dl(rq);
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

/*
 * Let the loads run WINDOWS windows, then until two windows in a row had
 * less than TOLERANCE of IRQ time (at most 5 more tries); return that IRQ
 * time. The two hold the last complete window whenever it is read next.
 * A host that stalls the vCPU in an IRQ handler turns the stall into IRQ
 * time, which WALT counts (5 ms in two windows on an arm guest once): the
 * allowance it needs would hide a double count, so such windows are not
 * the ones compared.
 */
static unsigned long loads_run(struct loads *l)
{
	u32 ms = walt_window_size() / NSEC_PER_MSEC;
	unsigned long irq;
	int tries = 0;

	msleep((WINDOWS - 2) * ms);
	do {
		u64 t = sched_util_kunit_irq_time(TEST_CPU);

		msleep(2 * ms);
		t = sched_util_kunit_irq_time(TEST_CPU) - t;
		/* On the capacity scale of one window, as WALT counts it. */
		irq = min_t(u64, walt_util(t, walt_window_size()),
			    SCHED_CAPACITY_SCALE);
	} while (irq >= TOLERANCE && ++tries <= 5);
	return irq;
}

/*
 * What the loads' logged spins cover of [@from, @to): their union, since
 * a spin preempted by another load's spin logs that time too.
 */
static u64 loads_busy(struct kunit *test, struct loads *l, u64 from, u64 to)
{
	u64 (*iv)[2], busy = 0, end = from;
	int i, j, n = 0;

	iv = kunit_kcalloc(test, 2 * SCHED_UTIL_KUNIT_LOG, sizeof(*iv),
			   GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, iv);

	for (i = 0; i < l->nr; i++) {
		const struct sched_util_kunit_duty *d = &l->d[i];

		for (j = 0; j < min_t(int, d->n, SCHED_UTIL_KUNIT_LOG); j++) {
			u64 a = max(d->spin[j][0], from);
			u64 b = min(d->spin[j][1], to);
			int k = n++;

			if (a >= b) {
				n--;
				continue;
			}
			/* Insertion by start. */
			for (; k > 0 && iv[k - 1][0] > a; k--) {
				iv[k][0] = iv[k - 1][0];
				iv[k][1] = iv[k - 1][1];
			}
			iv[k][0] = a;
			iv[k][1] = b;
		}
	}
	for (i = 0; i < n; i++) {
		u64 a = max(iv[i][0], end);

		if (iv[i][1] > a) {
			busy += iv[i][1] - a;
			end = iv[i][1];
		}
	}
	return busy;
}

/*
 * Read schedutil's input and the CPU's last complete window, stop the
 * loads and return what they ran in that window, on the capacity scale.
 */
static unsigned long read_and_stop(struct kunit *test, struct loads *l,
				   struct sugov_input *in)
{
	u32 window = walt_window_size();
	u64 start;

	scoped_guard(rq_lock_irqsave, cpu_rq(TEST_CPU)) {
		in->util = sugov_cpu_util(TEST_CPU, &in->min, &in->max);
		in->rt = cpu_util_rt(cpu_rq(TEST_CPU));
		in->dl = cpu_util_dl(cpu_rq(TEST_CPU));
		in->bw = cpu_bw_dl(cpu_rq(TEST_CPU));
		start = walt_rq_of(TEST_CPU)->window_start;
	}
	loads_stop(l);
	return walt_util(loads_busy(test, l, start - window, start), window);
}

static void expect_near(struct kunit *test, const struct sugov_input *in,
			unsigned long ran, unsigned long irq)
{
	KUNIT_EXPECT_GE_MSG(test, in->util + TOLERANCE, ran,
			    "input %lu, the loads ran %lu", in->util, ran);
	KUNIT_EXPECT_LE_MSG(test, in->util, ran + TOLERANCE + irq,
			    "input %lu, the loads ran %lu, irq %lu", in->util,
			    ran, irq);
	/* Not vacuous: they ran a good part of the window. */
	KUNIT_EXPECT_GT_MSG(test, ran, 2 * TOLERANCE, "the loads ran %lu", ran);
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
	struct loads *l = loads_new(test);
	unsigned long irq, ran;
	struct sugov_input in;

	load_start(test, l, 1, 3, &fifo_unclamped, "walt_rt");
	irq = loads_run(l);
	ran = read_and_stop(test, l, &in);

	KUNIT_EXPECT_TRUE(test, uclamp_is_used());
	expect_near(test, &in, ran, irq);
	KUNIT_EXPECT_GT_MSG(test, in.rt, TOLERANCE + irq,
			    "PELT's RT utilization %lu: a double count would pass",
			    in.rt);
	KUNIT_EXPECT_LT_MSG(test, in.min, SCHED_CAPACITY_SCALE / 2,
			    "min %lu: the RT task forces a high OPP", in.min);
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
	struct loads *l = loads_new(test);
	unsigned long irq, ran, own, bw = 0;
	struct sugov_input in;
	int i;

	own = to_ratio(window, dl.sched_runtime) >>
	      (BW_SHIFT - SCHED_CAPACITY_SHIFT);
	load_start(test, l, 3, 10, &dl, "walt_dl");
	irq = loads_run(l);
	for (i = 0; i < 100 && bw < own; i++) {
		read_input(TEST_CPU, &in);
		KUNIT_EXPECT_GE_MSG(test, in.min, in.bw, "sample %d", i);
		bw = in.bw;
		usleep_range(1000, 1100);
	}
	KUNIT_EXPECT_GE_MSG(test, bw, own, "the DL task was never active");

	ran = read_and_stop(test, l, &in);
	expect_near(test, &in, ran, irq);
	KUNIT_EXPECT_GT_MSG(test, in.dl, TOLERANCE + irq,
			    "PELT's DL utilization %lu: a double count would pass",
			    in.dl);
}

/*
 * A CFS and an RT task sharing the CPU give their sum, once. The RT task
 * has the larger share, so that PELT's RT utilization is well above the
 * tolerance.
 */
static void walt_cfs_rt_test(struct kunit *test)
{
	struct loads *l = loads_new(test);
	unsigned long irq, ran;
	struct sugov_input in;

	load_start(test, l, 1, 8, NULL, "walt_cfs");
	load_start(test, l, 3, 8, &fifo_unclamped, "walt_rt");
	irq = loads_run(l);
	ran = read_and_stop(test, l, &in);

	expect_near(test, &in, ran, irq);
	KUNIT_EXPECT_GT_MSG(test, in.rt, TOLERANCE + irq,
			    "PELT's RT utilization %lu: a double count would pass",
			    in.rt);
}

#ifdef CONFIG_SCHED_TUNE
static void walt_unboost(void *unused)
{
	sched_tune_set_global_boost(0);
}

/*
 * SchedTune's margin applies to the whole CPU's utilization, RT time
 * included: with every task in the root group boosted 50, schedutil's
 * input is WALT's value boosted. Reads that a window boundary separates
 * are not compared.
 */
static void walt_rt_boost_test(struct kunit *test)
{
	unsigned long cap = arch_scale_cpu_capacity(TEST_CPU);
	unsigned long walt, again, util, min, max;
	struct loads *l = loads_new(test);
	int tries = 0;

	load_start(test, l, 1, 3, &fifo_unclamped, "walt_rt");
	KUNIT_ASSERT_EQ(test, sched_tune_set_global_boost(50), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, walt_unboost,
							NULL), 0);
	loads_run(l);
	do {
		guard(rq_lock_irqsave)(cpu_rq(TEST_CPU));

		walt = walt_cpu_util(TEST_CPU);
		util = sugov_cpu_util(TEST_CPU, &min, &max);
		again = walt_cpu_util(TEST_CPU);
	} while (walt != again && ++tries < 10);

	KUNIT_ASSERT_EQ(test, walt, again);
	KUNIT_EXPECT_EQ(test, util,
			sched_tune_boosted(walt, sched_tune_margin(walt, 50),
					   cap));
	KUNIT_EXPECT_GT_MSG(test, util, walt + TOLERANCE,
			    "walt %lu: its margin is not in the input", walt);
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
