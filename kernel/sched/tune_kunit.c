// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for SchedTune: the margin formula and capacity fitness of a
 * boosted task (sched_tune_margin), negative boosting and what an idle CPU
 * keeps (sched_tune_negative_boost), the boost parser
 * (sched_tune_boost_input), and, live, the per-CPU aggregation of boosts
 * over RUNNABLE tasks and its effect on schedutil and placement
 * (sched_tune_boost_aggregation).
 */
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/delay.h>
#include <linux/kthread.h>

#include <linux/mmu_context.h>

#include "sched.h"
#include "sched_util_kunit.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

struct margin_case {
	const char *name;
	unsigned long util;
	int boost;
	unsigned long capacity;
	long margin;		/* hand-computed */
	unsigned long boosted;	/* hand-computed */
};

static const struct margin_case margin_cases[] = {
	{ "boost 0 leaves a 50% signal alone",		512, 0, 1024, 0, 512 },
	{ "boost 0 leaves a saturated signal alone",	1024, 0, 1024, 0, 1024 },
	{ "boost 10 on an idle CPU",			0, 10, 1024, 102, 102 },
	{ "boost 15 on util 1",				1, 15, 1024, 153, 154 },
	{ "boost 50 on a 50% signal",			512, 50, 1024, 256, 768 },
	{ "boost 60 on util 1023",			1023, 60, 1024, 0, 1023 },
	{ "boost 1 on util 1",				1, 1, 1024, 10, 11 },
	{ "boost 30 on a saturated signal",		1024, 30, 1024, 0, 1024 },
	{ "boost 30 over capacity stays at capacity",	1200, 30, 1024, 0, 1024 },
	{ "boost 100 on an idle CPU is the max OPP",	0, 100, 1024, 1024, 1024 },
	{ "boost 100 on a 50% signal is the max OPP",	512, 100, 1024, 512, 1024 },
	{ "boost 100 on a little CPU stops at its capacity", 0, 100, 512, 1024, 512 },
	{ "boost -50 on a 50% task runs it at 25%",	512, -50, 1024, -256, 256 },
	{ "boost -100 on a 50% task is the min OPP",	512, -100, 1024, -512, 0 },
	{ "boost -20 on util 1 rounds towards zero",	1, -20, 1024, 0, 1 },
	{ "boost -1 on util 1023",			1023, -1, 1024, -10, 1013 },
	{ "boost -50 on an idle CPU",			0, -50, 1024, 0, 0 },
	{ "boost -30 on a saturated signal",		1024, -30, 1024, -307, 717 },
	{ "boost -100 over capacity gives 0",		1200, -100, 1024, -1200, 0 },
	{ "boost -100 on util 1",			1, -100, 1024, -1, 0 },
};

static void margin_case_desc(const struct margin_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(margin, margin_cases, margin_case_desc);

static void sched_tune_margin_test(struct kunit *test)
{
	const struct margin_case *c = test->param_value;
	long margin = sched_tune_margin(c->util, c->boost);

	KUNIT_EXPECT_EQ_MSG(test, margin, c->margin,
			    "util=%lu boost=%d", c->util, c->boost);
	KUNIT_EXPECT_EQ_MSG(test, sched_tune_boosted(c->util, margin, c->capacity),
			    c->boosted, "util=%lu boost=%d capacity=%lu",
			    c->util, c->boost, c->capacity);
}

/*
 * Every utilization in [0, 1024] for a set of boosts, against the formula
 * written out independently: the margin is the exact rational value of
 * the formula rounded towards zero, so margin * 100 is within 100 of it.
 */
static void sched_tune_margin_sweep_test(struct kunit *test)
{
	static const int boosts[] = { -100, -60, -33, -1, 0, 1, 15, 30, 60, 99, 100 };
	unsigned int i;
	long util;

	for (i = 0; i < ARRAY_SIZE(boosts); i++) {
		int b = boosts[i];

		for (util = 0; util <= SCHED_CAPACITY_SCALE; util++) {
			long exact = b > 0 ? b * (SCHED_CAPACITY_SCALE - util) : b * util;
			long m = sched_tune_margin(util, b);
			unsigned long boosted;

			/* Between 0 and the exact value, less than 1 away. */
			KUNIT_ASSERT_TRUE_MSG(test, m * 100 >= min(exact, 0L) &&
					      m * 100 <= max(exact, 0L) &&
					      abs(exact - m * 100) < 100,
					      "boost=%d util=%ld margin=%ld exact*100=%ld",
					      b, util, m, exact);
			boosted = sched_tune_boosted(util, m, SCHED_CAPACITY_SCALE);
			KUNIT_ASSERT_LE_MSG(test, boosted, SCHED_CAPACITY_SCALE,
					    "boost=%d util=%ld", b, util);
			if (b >= 0)
				KUNIT_ASSERT_GE(test, boosted, (unsigned long)util);
			else
				KUNIT_ASSERT_LE(test, boosted, (unsigned long)util);
		}
	}
}

/*
 * Capacity fitness of a boosted task with uclamp (task_fits_cpu()):
 * util_fits_capacity_boosted() on the HiKey960's little (462) and big
 * (1024) CPUs, no capacity pressure. fits_capacity() keeps a 20% margin:
 * up to util 369 fits 462, up to 819 fits 1024. A positive boost is a hint
 * like uclamp.min: the task's own utilization must fit, the boosted value
 * must not exceed the capacity (else -1); a negative one lowers what must
 * fit.
 */
struct fits_case {
	const char *name;
	unsigned long util;
	int boost;
	unsigned long uclamp_min, uclamp_max, capacity;
	unsigned long boosted;	/* hand-computed */
	int fits;		/* hand-computed */
};

static const struct fits_case fits_cases[] = {
	{ "300, boost 0, fits the little CPU",		300, 0, 0, 1024, 462, 300, 1 },
	{ "300, boost 10 (+72): 372 within 462, fits",	300, 10, 0, 1024, 462, 372, 1 },
	{ "300, boost 10, fits the big CPU",		300, 10, 0, 1024, 1024, 372, 1 },
	{ "400 does not fit the little CPU",		400, 0, 0, 1024, 462, 400, 0 },
	{ "400, boost 10: the task itself does not fit", 400, 10, 0, 1024, 462, 462, 0 },
	{ "400, boost -10 (-40), does",			400, -10, 0, 1024, 462, 360, 1 },
	{ "100, boost 60 (+554), little: hint unmet",	100, 60, 0, 1024, 462, 654, -1 },
	{ "100, boost 60, on the big",			100, 60, 0, 1024, 1024, 654, 1 },
	{ "100, boost 80 (+739), little: hint unmet",	100, 80, 0, 1024, 462, 839, -1 },
	{ "100, boost 80: 839 > 819 still fits the big", 100, 80, 0, 1024, 1024, 839, 1 },
	{ "boost 60 under uclamp.max 300 fits the little", 100, 60, 0, 300, 462, 654, 1 },
	{ "boost 60 under uclamp.max 300, big",		100, 60, 0, 300, 1024, 654, 1 },
	{ "boost 60 over uclamp.min 700, little",	100, 60, 700, 1024, 462, 654, -1 },
	{ "boost -50 under uclamp.min 512, little: hint unmet", 100, -50, 512, 1024, 462, 50, -1 },
	{ "boost -50 under uclamp.min 512, big",	100, -50, 512, 1024, 1024, 50, 1 },
	{ "800 fits the big CPU",			800, 0, 0, 1024, 1024, 800, 1 },
	{ "800, boost 10 (+22) fits the big CPU",	800, 10, 0, 1024, 1024, 822, 1 },
	{ "830 misfits the big CPU at any boost",	830, 50, 0, 1024, 1024, 927, 0 },
	{ "800, boost -100, fits the little CPU",	800, -100, 0, 1024, 462, 0, 1 },
	{ "1024, boost 100, misfits",			1024, 100, 0, 1024, 1024, 1024, 0 },
};

static void fits_case_desc(const struct fits_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(fits, fits_cases, fits_case_desc);

static void sched_tune_fits_test(struct kunit *test)
{
	const struct fits_case *c = test->param_value;
	unsigned long boosted = sched_tune_task_boosted(c->util, c->boost);

	KUNIT_EXPECT_EQ_MSG(test, boosted, c->boosted, "util=%lu boost=%d",
			    c->util, c->boost);
	KUNIT_EXPECT_EQ(test,
			util_fits_capacity_boosted(c->util,
						   (long)boosted - (long)c->util,
						   c->uclamp_min, c->uclamp_max,
						   c->capacity, c->capacity,
						   c->capacity),
			c->fits);
}

/*
 * prefer_idle's choice on a HiKey960: CPUs 0-3 of capacity 462, 4-7 of
 * 1024. Bit n of @idle and @fits is CPU n (fits: util_fits_cpu() > 0).
 */
struct prefer_idle_case {
	const char *name;
	bool boosted;
	int prev_cpu;
	u8 idle, fits;
	int want;		/* hand-picked */
};

static const struct prefer_idle_case prefer_idle_cases[] = {
	{ "boosted: the first idle big CPU",		true, 0, 0x31, 0xff, 4 },
	{ "boosted: the previous big CPU wins the tie",	true, 5, 0x31, 0xff, 5 },
	{ "boosted: only littles idle, the first",	true, 7, 0x06, 0xff, 1 },
	{ "boosted: fitness does not matter",		true, 7, 0x03, 0x00, 0 },
	{ "not boosted: the idle little that fits",	false, 6, 0x31, 0xff, 0 },
	{ "not boosted: the previous little wins",	false, 3, 0x0d, 0xff, 3 },
	{ "not boosted: littles too small, a big",	false, 0, 0x31, 0xf0, 4 },
	{ "not boosted: a big that fits, no little",	false, 0, 0x83, 0x80, 7 },
	{ "not boosted: nothing idle fits",		false, 0, 0x03, 0xf0, -1 },
	{ "boosted: nothing idle",			true, 0, 0x00, 0xff, -1 },
	{ "not boosted: nothing idle",			false, 0, 0x00, 0xff, -1 },
};

static void prefer_idle_case_desc(const struct prefer_idle_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(prefer_idle, prefer_idle_cases, prefer_idle_case_desc);

static void sched_tune_prefer_idle_test(struct kunit *test)
{
	const struct prefer_idle_case *c = test->param_value;
	struct stune_idle_pick pick = {
		.boosted	= c->boosted,
		.prev_cpu	= c->prev_cpu,
		.cpu		= -1,
	};
	int cpu;

	for (cpu = 0; cpu < 8; cpu++)
		sched_tune_prefer_idle_consider(&pick, cpu, cpu < 4 ? 462 : 1024,
						c->idle & BIT(cpu),
						c->fits & BIT(cpu) ? 1 : 0);
	KUNIT_EXPECT_EQ(test, pick.cpu, c->want);
}

static struct kunit_case sched_tune_margin_cases[] = {
	KUNIT_CASE_PARAM(sched_tune_margin_test, margin_gen_params),
	KUNIT_CASE(sched_tune_margin_sweep_test),
	KUNIT_CASE_PARAM(sched_tune_fits_test, fits_gen_params),
	KUNIT_CASE_PARAM(sched_tune_prefer_idle_test, prefer_idle_gen_params),
	{}
};

static struct kunit_suite sched_tune_margin_suite = {
	.name = "sched_tune_margin",
	.test_cases = sched_tune_margin_cases,
};

/* Negative boost: the examples of Documentation/scheduler/sched-tune.rst. */

struct aggregation_case {
	const char *name;
	int boosts[4];		/* boosts of the RUNNABLE tasks on a CPU */
	int nr;
	int cpu_boost;		/* hand-computed */
};

static const struct aggregation_case aggregation_cases[] = {
	{ "no runnable task gives boost 0", { }, 0, 0 },
	{ "T1 -20 alone slows the CPU down 20%", { -20 }, 1, -20 },
	{ "T1 -20 with T2 +30 boosts the CPU +30", { -20, 30 }, 2, 30 },
	{ "T2 +30 with T1 -20 in the other order", { 30, -20 }, 2, 30 },
	{ "all negative: the least negative wins", { -80, -20, -50 }, 3, -20 },
	{ "a boost 0 task cancels any deflation", { -100, 0 }, 2, 0 },
	{ "-100 alone", { -100 }, 1, -100 },
	{ "+100 with -100", { -100, 100 }, 2, 100 },
	{ "two tasks of one group", { 15, 15 }, 2, 15 },
};

static void aggregation_case_desc(const struct aggregation_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(aggregation, aggregation_cases, aggregation_case_desc);

static void sched_tune_aggregation_test(struct kunit *test)
{
	const struct aggregation_case *c = test->param_value;
	struct stune_cpu *sc;
	int i;

	sc = kunit_kzalloc(test, sizeof(*sc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sc);

	for (i = 0; i < c->nr; i++)
		stune_count(sc, c->boosts[i]);
	KUNIT_EXPECT_EQ_MSG(test, sc->boost, c->cpu_boost, "after enqueue");

	/* Dequeue in enqueue order: the CPU ends up unboosted. */
	for (i = 0; i < c->nr; i++) {
		stune_uncount(sc, c->boosts[i]);
		if (i + 1 < c->nr)
			KUNIT_EXPECT_GE(test, sc->boost, c->boosts[c->nr - 1]);
	}
	KUNIT_EXPECT_EQ_MSG(test, sc->boost, 0, "after dequeue of all");
	KUNIT_EXPECT_TRUE(test, bitmap_empty(sc->busy, STUNE_BUCKETS));
}

/* The -50% and -100% examples end to end: the CPU's boosted utilization. */
static void sched_tune_negative_examples_test(struct kunit *test)
{
	struct stune_cpu *sc;

	sc = kunit_kzalloc(test, sizeof(*sc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sc);

	stune_count(sc, -50);
	KUNIT_EXPECT_EQ(test, sched_tune_boosted(512, sched_tune_margin(512, sc->boost),
						 1024), 256UL);
	stune_uncount(sc, -50);
	stune_count(sc, -100);
	KUNIT_EXPECT_EQ(test, sched_tune_boosted(512, sched_tune_margin(512, sc->boost),
						 1024), 0UL);
	stune_count(sc, 30);
	KUNIT_EXPECT_EQ(test, sched_tune_boosted(512, sched_tune_margin(512, sc->boost),
						 1024), 665UL);
}

/*
 * Going idle: the CPU's boost drops to 0; the boost schedutil applies to
 * the blocked utilization stays the last one, if it deflates, until a
 * task is RUNNABLE, and drops to 0 too if it inflates.
 */
static void sched_tune_idle_hold_test(struct kunit *test)
{
	struct stune_cpu *sc;

	sc = kunit_kzalloc(test, sizeof(*sc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sc);

	stune_count(sc, -100);
	stune_count(sc, -20);
	KUNIT_EXPECT_EQ(test, sc->freq_boost, -20);
	stune_uncount(sc, -20);
	KUNIT_EXPECT_EQ(test, sc->freq_boost, -100);
	stune_uncount(sc, -100);
	KUNIT_EXPECT_EQ(test, sc->boost, 0);
	KUNIT_EXPECT_EQ(test, sc->freq_boost, -100);
	stune_count(sc, 0);
	KUNIT_EXPECT_EQ(test, sc->boost, 0);
	KUNIT_EXPECT_EQ(test, sc->freq_boost, 0);
	/* An inflating boost is not held: the CPU asks for its idle OPP. */
	stune_count(sc, 60);
	stune_uncount(sc, 0);
	stune_uncount(sc, 60);
	KUNIT_EXPECT_EQ(test, sc->boost, 0);
	KUNIT_EXPECT_EQ(test, sc->freq_boost, 0);
	/* What is held is the last boost, not the lowest one seen. */
	stune_count(sc, -30);
	stune_count(sc, 60);
	KUNIT_EXPECT_EQ(test, sc->freq_boost, 60);
	stune_uncount(sc, 60);
	KUNIT_EXPECT_EQ(test, sc->freq_boost, -30);
	stune_uncount(sc, -30);
	KUNIT_EXPECT_EQ(test, sc->boost, 0);
	KUNIT_EXPECT_EQ(test, sc->freq_boost, -30);
}

static struct kunit_case sched_tune_negative_cases[] = {
	KUNIT_CASE_PARAM(sched_tune_aggregation_test, aggregation_gen_params),
	KUNIT_CASE(sched_tune_negative_examples_test),
	KUNIT_CASE(sched_tune_idle_hold_test),
	{}
};

static struct kunit_suite sched_tune_negative_suite = {
	.name = "sched_tune_negative_boost",
	.test_cases = sched_tune_negative_cases,
};

/* Bad input: every string a user may write to a boost knob. */

struct input_case {
	const char *name;
	const char *text;
	int ret;
	int boost;		/* when ret == 0 */
};

static const struct input_case input_cases[] = {
	{ "zero", "0", 0, 0 },
	{ "zero with newline", "0\n", 0, 0 },
	{ "positive", "15\n", 0, 15 },
	{ "maximum", "100", 0, 100 },
	{ "minimum", "-100\n", 0, -100 },
	{ "negative", "-20", 0, -20 },
	{ "just above the maximum", "101", -EINVAL, 0 },
	{ "just below the minimum", "-101", -EINVAL, 0 },
	{ "huge", "99999999999999999999", -EINVAL, 0 },
	{ "INT_MAX", "2147483647", -EINVAL, 0 },
	{ "INT_MIN", "-2147483648", -EINVAL, 0 },
	{ "wraps to 10 in 32 bits", "4294967306", -EINVAL, 0 },
	{ "negative zero", "-0", -EINVAL, 0 },
	{ "plus sign", "+5", -EINVAL, 0 },
	{ "leading zero", "05", -EINVAL, 0 },
	{ "double zero", "00", -EINVAL, 0 },
	{ "hex", "0x10", -EINVAL, 0 },
	{ "upper-case hex", "0X1F", -EINVAL, 0 },
	{ "octal-looking", "010", -EINVAL, 0 },
	{ "leading space", " 5", -EINVAL, 0 },
	{ "trailing space", "5 ", -EINVAL, 0 },
	{ "inner space", "- 5", -EINVAL, 0 },
	{ "tab", "\t5", -EINVAL, 0 },
	{ "two newlines", "5\n\n", -EINVAL, 0 },
	{ "trailing garbage", "5abc", -EINVAL, 0 },
	{ "leading garbage", "abc5", -EINVAL, 0 },
	{ "two values", "5 6", -EINVAL, 0 },
	{ "empty", "", -EINVAL, 0 },
	{ "only a newline", "\n", -EINVAL, 0 },
	{ "only a minus", "-", -EINVAL, 0 },
	{ "double minus", "--5", -EINVAL, 0 },
	{ "decimal point", "5.0", -EINVAL, 0 },
	{ "exponent", "1e2", -EINVAL, 0 },
	{ "word", "max", -EINVAL, 0 },
	{ "very long", "1000000000000000000000000000000000000000000000000000", -EINVAL, 0 },
};

static void input_case_desc(const struct input_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(input, input_cases, input_case_desc);

static void sched_tune_input_test(struct kunit *test)
{
	const struct input_case *c = test->param_value;
	int boost = 42;

	KUNIT_EXPECT_EQ_MSG(test, sched_tune_parse_boost(c->text, &boost), c->ret,
			    "input \"%s\"", c->text);
	KUNIT_EXPECT_EQ_MSG(test, boost, c->ret ? 42 : c->boost,
			    "input \"%s\"", c->text);
}

static struct kunit_case sched_tune_input_cases[] = {
	KUNIT_CASE_PARAM(sched_tune_input_test, input_gen_params),
	{}
};

static struct kunit_suite sched_tune_input_suite = {
	.name = "sched_tune_boost_input",
	.test_cases = sched_tune_input_cases,
};

/*
 * Live aggregation: kthreads pinned to CPU 1 of the root group, whose
 * boost is kernel.sched_cfs_boost. Boost writes must reach tasks that
 * are already RUNNABLE at once, and a CPU with nothing runnable is
 * unboosted. Timing tolerance: a woken kthread is given up to 1 s to be
 * enqueued (QEMU TCG with 2 vCPUs schedules within a few ticks).
 */
#define STUNE_TEST_CPU	1

static void stune_restore_boost(void *unused)
{
	sched_tune_set_global_boost(0);
}

static void stune_unpin(void *unused)
{
	set_cpus_allowed_ptr(current, cpu_possible_mask);
}

static bool stune_wait_boost(int cpu, int boost)
{
	int i;

	for (i = 0; i < 1000; i++) {
		if (sched_tune_cpu_boost(cpu) == boost)
			return true;
		usleep_range(1000, 2000);
	}
	return false;
}

/*
 * A spinner on STUNE_TEST_CPU, the global boost restored at the end of the
 * test, and this thread kept off that CPU meanwhile: while it runs there,
 * it is a RUNNABLE root-group task itself and CPU 1 could never be
 * unboosted.
 */
static struct task_struct *stune_spinner(struct kunit *test, atomic_t **running,
					 const char *name)
{
	struct task_struct *k;

	*running = kunit_kzalloc(test, sizeof(**running), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *running);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, stune_restore_boost,
							NULL), 0);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(0)), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, stune_unpin, NULL), 0);
	k = sched_util_kunit_spinner(*running, cpumask_of(STUNE_TEST_CPU), name);
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	return k;
}

static void sched_tune_live_test(struct kunit *test)
{
	struct sched_placement_inputs in;
	struct task_struct *k;
	atomic_t *running;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs, run with -smp 2 or more");

	k = stune_spinner(test, &running, "stune_spin");
	/*
	 * Let it spin 50 ms, so that its utilization is above 100 however it
	 * started: a new task on an idle CPU starts near 0 (52 after the
	 * few ms the writes below take, in a boot that ran this suite alone),
	 * and PELT takes it to about 680 in 50 ms.
	 */
	msleep(50);

	/* A write reaches the already-runnable kthread at once. */
	KUNIT_EXPECT_EQ(test, sched_tune_set_global_boost(30), 0);
	KUNIT_EXPECT_EQ(test, sched_tune_cpu_boost(STUNE_TEST_CPU), 30);
	KUNIT_EXPECT_EQ(test, sched_tune_set_global_boost(-20), 0);
	KUNIT_EXPECT_EQ(test, sched_tune_cpu_boost(STUNE_TEST_CPU), -20);

	/* Out-of-range writes change nothing. */
	KUNIT_EXPECT_EQ(test, sched_tune_set_global_boost(101), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_tune_set_global_boost(-101), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_tune_cpu_boost(STUNE_TEST_CPU), -20);

	/* Blocked: once CPU 1 has nothing runnable, it is unboosted. */
	atomic_set(running, SPIN_BLOCK);
	KUNIT_EXPECT_TRUE_MSG(test, stune_wait_boost(STUNE_TEST_CPU, 0),
			      "boost %d with the kthread blocked",
			      sched_tune_cpu_boost(STUNE_TEST_CPU));
	KUNIT_EXPECT_FALSE(test, READ_ONCE(k->stune_active));

	/*
	 * Placement weighs the blocked kthread, not RUNNABLE, with its group's
	 * boost: a waking task is placed before it is counted on a CPU.
	 */
	sched_placement_inputs(k, STUNE_TEST_CPU, &in);
	KUNIT_EXPECT_GT(test, in.task_util, 100UL);
	KUNIT_EXPECT_EQ(test, in.task_fit, sched_tune_task_boosted(in.task_util, -20));
	KUNIT_EXPECT_LT(test, in.task_fit, in.task_util);

	/* Woken again: dequeue/enqueue keep counting it. */
	atomic_set(running, SPIN_RUN);
	wake_up_process(k);
	KUNIT_EXPECT_TRUE_MSG(test, stune_wait_boost(STUNE_TEST_CPU, -20),
			      "boost %d with the kthread running",
			      sched_tune_cpu_boost(STUNE_TEST_CPU));

	/* And the margin reaches schedutil's input. */
	KUNIT_EXPECT_EQ(test, sched_tune_cpu_util(STUNE_TEST_CPU, 512), 410UL);

	sched_util_kunit_spinner_stop(k);
	KUNIT_EXPECT_TRUE(test, stune_wait_boost(STUNE_TEST_CPU, 0));
}

/*
 * Once no group is boosted, SchedTune stops counting and applying
 * margins, within a second and a bit (up to 3 s allowed: the disabling
 * work waits a second, and a guest's workqueue may run late); a boost set
 * again reaches a task that was RUNNABLE all along at once.
 */
static void sched_tune_off_test(struct kunit *test)
{
	struct task_struct *k;
	atomic_t *running;
	int i;

	k = stune_spinner(test, &running, "stune_off");

	KUNIT_EXPECT_EQ(test, sched_tune_set_global_boost(30), 0);
	KUNIT_EXPECT_EQ(test, sched_tune_cpu_boost(STUNE_TEST_CPU), 30);
	KUNIT_EXPECT_EQ(test, sched_tune_set_global_boost(0), 0);
	for (i = 0; i < 150 && static_key_enabled(&sched_tune_used); i++)
		msleep(20);
	KUNIT_EXPECT_FALSE_MSG(test, static_key_enabled(&sched_tune_used),
			       "still counting %d ms after the last boost went",
			       i * 20);
	KUNIT_EXPECT_EQ(test, sched_tune_cpu_util(STUNE_TEST_CPU, 512), 512UL);

	/* Counted again at once, the spinner RUNNABLE throughout. */
	KUNIT_EXPECT_EQ(test, sched_tune_set_global_boost(30), 0);
	KUNIT_EXPECT_EQ(test, sched_tune_cpu_boost(STUNE_TEST_CPU), 30);
	sched_util_kunit_spinner_stop(k);
}

static struct kunit_case sched_tune_live_cases[] = {
	KUNIT_CASE_SLOW(sched_tune_live_test),
	KUNIT_CASE_SLOW(sched_tune_off_test),
	{}
};

static struct kunit_suite sched_tune_live_suite = {
	.name = "sched_tune_boost_aggregation",
	.test_cases = sched_tune_live_cases,
};

kunit_test_suites(&sched_tune_margin_suite, &sched_tune_negative_suite,
		  &sched_tune_input_suite, &sched_tune_live_suite);

MODULE_DESCRIPTION("KUnit tests for SchedTune");
MODULE_LICENSE("GPL");
