// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the WALT window arithmetic in walt_window.h.
 *
 * Every expected value below is worked out by hand from the rules at the
 * top of walt_window.h. Unless a row says otherwise: 20 ms windows, full
 * frequency and capacity (1024), N = 5 history windows, and the rq's
 * current window starts at 1000 ms.
 */

#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "walt_window.h"

#define MS(x)		((u64)(x) * NSEC_PER_MSEC)
#define US(x)		((u64)(x) * NSEC_PER_USEC)
#define WINDOW		MS(20)
#define NR_HIST		5
#define WALT_RQ(ws, curr, prev)	{ MS(ws), MS(curr), MS(prev) }

static void expect_u64(struct kunit *test, const char *name,
		       const char *what, u64 expected, u64 seen)
{
	KUNIT_EXPECT_EQ_MSG(test, seen, expected,
			    "%s: %s expected %llu, seen %llu",
			    name, what, expected, seen);
}

/* sched_walt_rollover: walt_update_busy() */

/* State of one task and its rq around one event. */
struct walt_state {
	u64 window_start;
	u64 mark_start;
	u32 curr;
	u32 prev;
	u64 rq_curr;
	u64 rq_prev;
	u32 demand;	/* before: every hist[] slot holds this value */
};

struct walt_busy_case {
	const char *name;
	struct walt_ctx ctx;	/* 0 window, N and scales: the defaults */
	struct walt_state before;
	struct walt_state after;
	bool accounted;
};

/*
 * Columns of before and after:
 *	window_start, mark_start, curr, prev, rq curr, rq prev, demand
 */
static const struct walt_busy_case walt_busy_cases[] = {
	{
		.name = "a task running inside one window adds the run to curr",
		.ctx = { .event = WALT_PUT_PREV_TASK, .wallclock = MS(1012) },
		.before = { MS(1000), MS(1005), MS(3), MS(7), MS(10), MS(15) },
		.after = { MS(1000), MS(1012), MS(10), MS(7), MS(17), MS(15) },
		.accounted = true,
	}, {
		.name = "a task running up to a window end completes that window",
		.ctx = { .event = WALT_PUT_PREV_TASK, .wallclock = MS(1020) },
		.before = { MS(1000), MS(1005), MS(3), MS(7), MS(10), MS(15) },
		.after = { MS(1020), MS(1020), 0, MS(18), 0, MS(25), MS(18) },
		.accounted = true,
	}, {
		.name = "a task running across one boundary splits its run",
		.ctx = { .event = WALT_PUT_PREV_TASK, .wallclock = MS(1026) },
		.before = { MS(1000), MS(1015), MS(4), MS(9), MS(10), MS(15) },
		.after = { MS(1020), MS(1026), MS(6), MS(9), MS(6), MS(15),
			   MS(9) },
		.accounted = true,
	}, {
		.name = "a task running across three boundaries has a full prev",
		.ctx = { .event = WALT_PUT_PREV_TASK, .wallclock = MS(1065) },
		.before = { MS(1000), MS(1015), MS(4), MS(9), MS(10), MS(15) },
		.after = { MS(1060), MS(1065), MS(5), MS(20), MS(5), MS(20),
			   MS(20) },
		.accounted = true,
	}, {
		.name = "an idle rq crossing one boundary moves curr to prev",
		.ctx = { .event = WALT_PUT_PREV_TASK, .wallclock = MS(1030),
			 .is_idle = true },
		.before = { MS(1000), MS(1005), 0, 0, MS(10), MS(15) },
		.after = { MS(1020), MS(1030), 0, 0, 0, MS(10) },
		.accounted = true,
	}, {
		.name = "an idle rq crossing three boundaries forgets both sums",
		.ctx = { .event = WALT_PUT_PREV_TASK, .wallclock = MS(1065),
			 .is_idle = true },
		.before = { MS(1000), MS(1005), 0, 0, MS(10), MS(15) },
		.after = { MS(1060), MS(1065), 0, 0, 0, 0 },
		.accounted = true,
	}, {
		.name = "a new task's first event only sets mark_start",
		.ctx = { .event = WALT_PUT_PREV_TASK, .wallclock = MS(1012) },
		.before = { MS(1000), 0, 0, 0, MS(10), MS(15) },
		.after = { MS(1000), MS(1012), 0, 0, MS(10), MS(15) },
		.accounted = true,
	}, {
		.name = "a new task's first event still rolls the rq",
		.ctx = { .event = WALT_PUT_PREV_TASK, .wallclock = MS(1025) },
		.before = { MS(1000), 0, 0, 0, MS(10), MS(15) },
		.after = { MS(1020), MS(1025), 0, 0, 0, MS(10) },
		.accounted = true,
	}, {
		.name = "idle IRQ time is busy and the rest of idle is not",
		.ctx = { .event = WALT_IRQ_UPDATE, .wallclock = MS(1012),
			 .irqtime = MS(2), .is_idle = true },
		.before = { MS(1000), MS(1005), 0, 0, MS(10), MS(15) },
		.after = { MS(1000), MS(1012), 0, 0, MS(12), MS(15) },
		.accounted = true,
	}, {
		.name = "idle IRQ time across a boundary is split prev and curr",
		.ctx = { .event = WALT_IRQ_UPDATE, .wallclock = MS(1021),
			 .irqtime = MS(3), .is_idle = true },
		.before = { MS(1000), MS(1005), 0, 0, MS(10), MS(15) },
		.after = { MS(1020), MS(1021), 0, 0, MS(1), MS(12) },
		.accounted = true,
	}, {
		.name = "idle IRQ time is cut at the idle task's mark_start",
		.ctx = { .event = WALT_IRQ_UPDATE, .wallclock = MS(1012),
			 .irqtime = MS(9), .is_idle = true },
		.before = { MS(1000), MS(1008), 0, 0, MS(10), MS(15) },
		.after = { MS(1000), MS(1012), 0, 0, MS(14), MS(15) },
		.accounted = true,
	}, {
		.name = "idle while tasks wait on IO is busy all along",
		.ctx = { .event = WALT_PUT_PREV_TASK, .wallclock = MS(1012),
			 .is_idle = true, .waiting_on_io = true },
		.before = { MS(1000), MS(1005), 0, 0, MS(10), MS(15) },
		.after = { MS(1000), MS(1012), 0, 0, MS(17), MS(15) },
		.accounted = true,
	}, {
		.name = "idle while no task waits on IO is not busy",
		.ctx = { .event = WALT_PUT_PREV_TASK, .wallclock = MS(1012),
			 .is_idle = true },
		.before = { MS(1000), MS(1005), 0, 0, MS(10), MS(15) },
		.after = { MS(1000), MS(1012), 0, 0, MS(10), MS(15) },
		.accounted = true,
	}, {
		.name = "an IRQ during idle waiting on IO is counted only once",
		.ctx = { .event = WALT_IRQ_UPDATE, .wallclock = MS(1012),
			 .irqtime = MS(2), .is_idle = true,
			 .waiting_on_io = true },
		.before = { MS(1000), MS(1005), 0, 0, MS(10), MS(15) },
		.after = { MS(1000), MS(1012), 0, 0, MS(17), MS(15) },
		.accounted = true,
	}, {
		.name = "a clock going backwards changes nothing",
		.ctx = { .event = WALT_PUT_PREV_TASK, .wallclock = MS(1005) },
		.before = { MS(1000), MS(1012), MS(3), MS(7), MS(10), MS(15) },
		.after = { MS(1000), MS(1012), MS(3), MS(7), MS(10), MS(15) },
		.accounted = false,
	}, {
		.name = "a clock going backwards does not even roll the rq",
		.ctx = { .event = WALT_PUT_PREV_TASK, .wallclock = MS(1025) },
		.before = { MS(1000), MS(1030), MS(3), MS(7), MS(10), MS(15) },
		.after = { MS(1000), MS(1030), MS(3), MS(7), MS(10), MS(15) },
		.accounted = false,
	}, {
		.name = "a wallclock behind the rq's window_start counts up to it",
		.ctx = { .event = WALT_PUT_PREV_TASK, .wallclock = MS(1018) },
		.before = { MS(1020), MS(1015), MS(4), MS(9), MS(3), MS(10) },
		.after = { MS(1020), MS(1020), 0, MS(9), MS(3), MS(15), MS(9) },
		.accounted = true,
	}, {
		.name = "half the frequency halves the busy time",
		.ctx = { .event = WALT_PUT_PREV_TASK, .wallclock = MS(1012),
			 .freq_scale = 512 },
		.before = { MS(1000), MS(1005), MS(3), MS(7), MS(10), MS(15) },
		.after = { MS(1000), MS(1012), US(6500), MS(7), US(13500),
			   MS(15) },
		.accounted = true,
	}, {
		.name = "half the capacity halves the busy time",
		.ctx = { .event = WALT_PUT_PREV_TASK, .wallclock = MS(1012),
			 .cpu_scale = 512 },
		.before = { MS(1000), MS(1005), MS(3), MS(7), MS(10), MS(15) },
		.after = { MS(1000), MS(1012), US(6500), MS(7), US(13500),
			   MS(15) },
		.accounted = true,
	}, {
		.name = "half the frequency on half the capacity quarters it",
		.ctx = { .event = WALT_PUT_PREV_TASK, .wallclock = MS(1012),
			 .freq_scale = 512, .cpu_scale = 512 },
		.before = { MS(1000), MS(1005), MS(3), MS(7), MS(10), MS(15) },
		.after = { MS(1000), MS(1012), US(4750), MS(7), US(11750),
			   MS(15) },
		.accounted = true,
	}, {
		.name = "half the frequency makes a full window half a window",
		.ctx = { .event = WALT_PUT_PREV_TASK, .wallclock = MS(1065),
			 .freq_scale = 512 },
		.before = { MS(1000), MS(1015), MS(4), MS(9), MS(10), MS(15) },
		.after = { MS(1060), MS(1065), US(2500), MS(10), US(2500),
			   MS(10), MS(10) },
		.accounted = true,
	}, {
		.name = "a waking task's sleep is not busy",
		.ctx = { .event = WALT_TASK_WAKE, .wallclock = MS(1012) },
		.before = { MS(1000), MS(1005), MS(3), MS(7), MS(10), MS(15) },
		.after = { MS(1000), MS(1012), MS(3), MS(7), MS(10), MS(15) },
		.accounted = true,
	}, {
		.name = "a wake after ten windows asleep records only its last one",
		.ctx = { .event = WALT_TASK_WAKE, .wallclock = MS(1205) },
		.before = { MS(1000), MS(1005), MS(3), MS(8), MS(10), MS(15),
			    MS(8) },
		.after = { MS(1200), MS(1205), 0, 0, 0, 0, MS(7) },
		.accounted = true,
	}, {
		.name = "a pick without account_wait_time does not count the wait",
		.ctx = { .event = WALT_PICK_NEXT_TASK, .wallclock = MS(1012) },
		.before = { MS(1000), MS(1005), MS(3), MS(7), MS(10), MS(15) },
		.after = { MS(1000), MS(1012), MS(3), MS(7), MS(10), MS(15) },
		.accounted = true,
	}, {
		.name = "a pick with account_wait_time counts the wait",
		.ctx = { .event = WALT_PICK_NEXT_TASK, .wallclock = MS(1012),
			 .account_wait_time = true },
		.before = { MS(1000), MS(1005), MS(3), MS(7), MS(10), MS(15) },
		.after = { MS(1000), MS(1012), MS(10), MS(7), MS(17), MS(15) },
		.accounted = true,
	}, {
		.name = "a migration with account_wait_time counts the wait",
		.ctx = { .event = WALT_TASK_MIGRATE, .wallclock = MS(1012),
			 .account_wait_time = true },
		.before = { MS(1000), MS(1005), MS(3), MS(7), MS(10), MS(15) },
		.after = { MS(1000), MS(1012), MS(10), MS(7), MS(17), MS(15) },
		.accounted = true,
	}, {
		.name = "a window the task only waited in is not a history sample",
		.ctx = { .event = WALT_PICK_NEXT_TASK, .wallclock = MS(1025) },
		.before = { MS(1000), MS(1015), 0, MS(6), MS(10), MS(15),
			    MS(8) },
		.after = { MS(1020), MS(1025), 0, 0, 0, MS(10), MS(8) },
		.accounted = true,
	},
};

KUNIT_ARRAY_PARAM_DESC(walt_busy, walt_busy_cases, name);

static void walt_busy_test(struct kunit *test)
{
	const struct walt_busy_case *tc = test->param_value;
	const struct walt_state *want = &tc->after;
	struct walt_ctx ctx = tc->ctx;
	struct walt_task_win t = {
		.mark_start = tc->before.mark_start,
		.curr_window = tc->before.curr,
		.prev_window = tc->before.prev,
		.demand = tc->before.demand,
	};
	struct walt_rq_win rq = {
		.window_start = tc->before.window_start,
		.curr_runnable_sum = tc->before.rq_curr,
		.prev_runnable_sum = tc->before.rq_prev,
	};
	unsigned int i;
	bool ret;

	for (i = 0; i < WALT_HIST_MAX; i++)
		t.hist[i] = tc->before.demand;
	ctx.window_size = ctx.window_size ?: WINDOW;
	ctx.nr_hist = ctx.nr_hist ?: NR_HIST;
	ctx.freq_scale = ctx.freq_scale ?: SCHED_CAPACITY_SCALE;
	ctx.cpu_scale = ctx.cpu_scale ?: SCHED_CAPACITY_SCALE;

	ret = walt_update_busy(&t, &rq, &ctx);

	expect_u64(test, tc->name, "return", tc->accounted, ret);
	expect_u64(test, tc->name, "window_start", want->window_start,
		   rq.window_start);
	expect_u64(test, tc->name, "mark_start", want->mark_start,
		   t.mark_start);
	expect_u64(test, tc->name, "task curr", want->curr, t.curr_window);
	expect_u64(test, tc->name, "task prev", want->prev, t.prev_window);
	expect_u64(test, tc->name, "rq curr", want->rq_curr,
		   rq.curr_runnable_sum);
	expect_u64(test, tc->name, "rq prev", want->rq_prev,
		   rq.prev_runnable_sum);
	expect_u64(test, tc->name, "demand", want->demand, t.demand);
}

/* sched_walt_rollover: walt_rq_rollover() on its own */

struct walt_rq_roll_case {
	const char *name;
	u64 wallclock;
	u64 nr_windows;
	struct walt_rq_win after;	/* before: 1000 ms, curr 10, prev 15 */
};

static const struct walt_rq_roll_case walt_rq_roll_cases[] = {
	{
		.name = "a wallclock inside the window ends no window",
		.wallclock = MS(1019) + 999999,
		.nr_windows = 0,
		.after = { MS(1000), MS(10), MS(15) },
	}, {
		.name = "a wallclock on the window end ends one window",
		.wallclock = MS(1020),
		.nr_windows = 1,
		.after = { MS(1020), 0, MS(10) },
	}, {
		.name = "a wallclock late in the next window ends one window",
		.wallclock = MS(1039),
		.nr_windows = 1,
		.after = { MS(1020), 0, MS(10) },
	}, {
		.name = "a wallclock two windows on ends two and empties prev",
		.wallclock = MS(1040),
		.nr_windows = 2,
		.after = { MS(1040), 0, 0 },
	}, {
		.name = "a wallclock far ahead keeps window_start aligned",
		.wallclock = MS(21000) + 7,
		.nr_windows = 1000,
		.after = { MS(21000), 0, 0 },
	}, {
		.name = "a wallclock behind window_start ends no window",
		.wallclock = MS(990),
		.nr_windows = 0,
		.after = { MS(1000), MS(10), MS(15) },
	},
};

KUNIT_ARRAY_PARAM_DESC(walt_rq_roll, walt_rq_roll_cases, name);

static void walt_rq_roll_test(struct kunit *test)
{
	const struct walt_rq_roll_case *tc = test->param_value;
	struct walt_rq_win rq = { MS(1000), MS(10), MS(15) };
	u64 nr;

	nr = walt_rq_rollover(&rq, tc->wallclock, WINDOW);

	expect_u64(test, tc->name, "windows", tc->nr_windows, nr);
	expect_u64(test, tc->name, "window_start", tc->after.window_start,
		   rq.window_start);
	expect_u64(test, tc->name, "rq curr", tc->after.curr_runnable_sum,
		   rq.curr_runnable_sum);
	expect_u64(test, tc->name, "rq prev", tc->after.prev_runnable_sum,
		   rq.prev_runnable_sum);
}

/*
 * sched_walt_rollover: walt_task_rollover() on its own. Before each row
 * the task's prev is 9 ms and every history slot holds 5 ms (demand 5 ms).
 */

struct walt_task_roll_case {
	const char *name;
	u64 mark_start;
	u32 curr;
	u64 window_start;
	u32 skipped_runtime;
	u64 nr_windows;
	u32 curr_after;
	u32 prev_after;
	u32 newest[3];		/* hist[0..2] after */
	u32 demand;
};

static const struct walt_task_roll_case walt_task_roll_cases[] = {
	{
		.name = "a task marked in the previous window turns curr into prev",
		.mark_start = MS(1015), .curr = MS(4), .window_start = MS(1020),
		.nr_windows = 1, .curr_after = 0, .prev_after = MS(4),
		.newest = { MS(4), MS(5), MS(5) }, .demand = US(4800),
	}, {
		.name = "a task marked on the previous window's start does too",
		.mark_start = MS(1000), .curr = MS(4), .window_start = MS(1020),
		.nr_windows = 1, .curr_after = 0, .prev_after = MS(4),
		.newest = { MS(4), MS(5), MS(5) }, .demand = US(4800),
	}, {
		.name = "a task marked 1 ns before the previous window has no prev",
		.mark_start = MS(1000) - 1, .curr = MS(4),
		.window_start = MS(1020),
		.nr_windows = 2, .curr_after = 0, .prev_after = 0,
		.newest = { MS(4), MS(5), MS(5) }, .demand = US(4800),
	}, {
		.name = "a task busy through two skipped windows has a full prev",
		.mark_start = MS(1015), .curr = MS(9), .window_start = MS(1060),
		.skipped_runtime = MS(20),
		.nr_windows = 3, .curr_after = 0, .prev_after = MS(20),
		.newest = { MS(20), MS(20), MS(9) }, .demand = MS(20),
	}, {
		.name = "a task already in the current window does not roll",
		.mark_start = MS(1020), .curr = MS(4), .window_start = MS(1020),
		.nr_windows = 0, .curr_after = MS(4), .prev_after = MS(9),
		.newest = { MS(5), MS(5), MS(5) }, .demand = MS(5),
	}, {
		.name = "a task asleep for ten windows records only its last one",
		.mark_start = MS(1005), .curr = MS(3), .window_start = MS(1200),
		.nr_windows = 10, .curr_after = 0, .prev_after = 0,
		.newest = { MS(3), MS(5), MS(5) }, .demand = US(4600),
	}, {
		.name = "ten busy skipped windows fill the whole history",
		.mark_start = MS(1015), .curr = MS(9), .window_start = MS(1220),
		.skipped_runtime = MS(20),
		.nr_windows = 11, .curr_after = 0, .prev_after = MS(20),
		.newest = { MS(20), MS(20), MS(20) }, .demand = MS(20),
	}, {
		.name = "a window the task did not run in is not recorded",
		.mark_start = MS(1015), .curr = 0, .window_start = MS(1020),
		.nr_windows = 1, .curr_after = 0, .prev_after = 0,
		.newest = { MS(5), MS(5), MS(5) }, .demand = MS(5),
	},
};

KUNIT_ARRAY_PARAM_DESC(walt_task_roll, walt_task_roll_cases, name);

static void walt_task_roll_test(struct kunit *test)
{
	const struct walt_task_roll_case *tc = test->param_value;
	struct walt_task_win t = {
		.mark_start = tc->mark_start,
		.curr_window = tc->curr,
		.prev_window = MS(9),
		.demand = MS(5),
	};
	unsigned int i;
	u64 nr;

	for (i = 0; i < WALT_HIST_MAX; i++)
		t.hist[i] = MS(5);

	nr = walt_task_rollover(&t, tc->window_start, WINDOW,
				tc->skipped_runtime, 0, NR_HIST);

	expect_u64(test, tc->name, "windows", tc->nr_windows, nr);
	expect_u64(test, tc->name, "task curr", tc->curr_after,
		   t.curr_window);
	expect_u64(test, tc->name, "task prev", tc->prev_after,
		   t.prev_window);
	expect_u64(test, tc->name, "hist[0]", tc->newest[0], t.hist[0]);
	expect_u64(test, tc->name, "hist[1]", tc->newest[1], t.hist[1]);
	expect_u64(test, tc->name, "hist[2]", tc->newest[2], t.hist[2]);
	expect_u64(test, tc->name, "demand", tc->demand, t.demand);
}

/* sched_walt_rollover: walt_in_window() and the in-window fast path */

struct walt_in_window_case {
	const char *name;
	u64 mark_start;
	u64 wallclock;
	bool in_window;		/* the rq's window: [1000, 1020) ms */
};

static const struct walt_in_window_case walt_in_window_cases[] = {
	{ "an interval inside the window", MS(1005), MS(1012), true },
	{ "an interval from the window start", MS(1000), MS(1000), true },
	{ "an interval ending 1 ns before the boundary", MS(1005),
	  MS(1020) - 1, true },
	{ "an interval ending on the boundary", MS(1005), MS(1020), false },
	{ "a mark in the previous window", MS(995), MS(1012), false },
	{ "a task never accounted (mark 0)", 0, MS(1012), false },
	{ "a clock gone backwards", MS(1012), MS(1005), false },
};

KUNIT_ARRAY_PARAM_DESC(walt_in_window, walt_in_window_cases, name);

static void walt_in_window_test(struct kunit *test)
{
	const struct walt_in_window_case *tc = test->param_value;
	struct walt_task_win t = { .mark_start = tc->mark_start };
	struct walt_rq_win rq = { .window_start = MS(1000) };

	KUNIT_EXPECT_EQ_MSG(test, walt_in_window(&t, &rq, tc->wallclock, WINDOW),
			    tc->in_window, "%s", tc->name);
}

/*
 * walt_update_in_window() and walt_update_rolling() agree on every
 * interval that walt_in_window() accepts: all events, task and idle, with
 * and without IRQ time, IO wait and account_wait_time, at full and half
 * frequency.
 */
static void walt_in_window_agrees_test(struct kunit *test)
{
	static const u64 spans[][2] = {
		{ MS(1005), MS(1012) }, { MS(1000), MS(1020) - 1 },
		{ MS(1010), MS(1010) }, { MS(1001), MS(1002) },
	};
	const unsigned int nr_spans = ARRAY_SIZE(spans);
	unsigned int n, h;

	/* n enumerates span x event x 5 flags. */
	for (n = 0; n < nr_spans * WALT_NR_EVENTS * 32; n++) {
		unsigned int i = n % nr_spans;
		unsigned int ev = n / nr_spans % WALT_NR_EVENTS;
		unsigned int bits = n / nr_spans / WALT_NR_EVENTS;
		bool idle = bits & 1, irq = bits & 2, io = bits & 4;
		bool half = bits & 8, wait = bits & 16;
		struct walt_ctx c = {
			.wallclock = spans[i][1],
			.irqtime = irq ? MS(3) : 0,
			.window_size = WINDOW,
			.nr_hist = NR_HIST,
			.freq_scale = half ? 512 : SCHED_CAPACITY_SCALE,
			.cpu_scale = SCHED_CAPACITY_SCALE,
			.is_idle = idle,
			.waiting_on_io = io,
			.account_wait_time = wait,
			.event = ev,
		};
		struct walt_task_win fast = {
			.mark_start = spans[i][0], .curr_window = MS(2),
			.prev_window = MS(7), .demand = MS(7),
			.hist = { MS(7), MS(7), MS(7), MS(7), MS(7) },
		};
		struct walt_task_win slow = fast;
		struct walt_rq_win rq_fast = { MS(1000), MS(4), MS(15) };
		struct walt_rq_win rq_slow = rq_fast;

		KUNIT_ASSERT_TRUE(test, walt_in_window(&fast, &rq_fast,
						       c.wallclock, WINDOW));
		walt_update_in_window(&fast, &rq_fast, &c);
		walt_update_rolling(&slow, &rq_slow, &c);
		KUNIT_EXPECT_EQ_MSG(test, fast.mark_start, slow.mark_start,
				    "event %u flags %#x span %u", ev, bits, i);
		KUNIT_EXPECT_EQ(test, fast.curr_window, slow.curr_window);
		KUNIT_EXPECT_EQ(test, fast.prev_window, slow.prev_window);
		KUNIT_EXPECT_EQ(test, fast.demand, slow.demand);
		for (h = 0; h < WALT_HIST_MAX; h++)
			KUNIT_EXPECT_EQ(test, fast.hist[h], slow.hist[h]);
		KUNIT_EXPECT_EQ(test, rq_fast.window_start, rq_slow.window_start);
		KUNIT_EXPECT_EQ_MSG(test, rq_fast.curr_runnable_sum,
				    rq_slow.curr_runnable_sum,
				    "event %u flags %#x span %u", ev, bits, i);
		KUNIT_EXPECT_EQ(test, rq_fast.prev_runnable_sum,
				rq_slow.prev_runnable_sum);
	}
}

/*
 * A plain wake-up need not be accounted (walt_activate()): the pick that
 * follows folds the task anyway. Folding at the wake-up (what the task ran
 * before it slept) and then at the pick (nothing more) must leave the
 * same windows as folding it all at the pick, and both the windows worked
 * out by hand. The rq's window at each event is the one holding its time.
 */
struct walt_wake_case {
	const char *name;
	u64 ran;		/* before the task slept */
	u64 wake, pick;
	struct walt_state before;	/* rq columns unused */
	struct walt_state after;
};

static const struct walt_wake_case walt_wake_cases[] = {
	{
		.name = "woken and picked in the task's window",
		.ran = MS(2), .wake = MS(1008), .pick = MS(1012),
		.before = { 0, MS(1005), MS(3), MS(7), 0, 0, MS(7) },
		.after = { 0, MS(1012), MS(5), MS(7), 0, 0, MS(7) },
	}, {
		.name = "woken and picked in the window after the task's",
		.ran = MS(1), .wake = MS(1022), .pick = MS(1026),
		.before = { 0, MS(1015), MS(4), MS(9), 0, 0, MS(9) },
		.after = { 0, MS(1026), 0, MS(5), 0, 0, US(8200) },
	}, {
		.name = "woken in the task's window, picked in the next",
		.ran = MS(1), .wake = MS(1018), .pick = MS(1023),
		.before = { 0, MS(1015), MS(4), MS(9), 0, 0, MS(9) },
		.after = { 0, MS(1023), 0, MS(5), 0, 0, US(8200) },
	}, {
		.name = "woken two windows on, picked a window after that",
		.ran = MS(1), .wake = MS(1045), .pick = MS(1061),
		.before = { 0, MS(1015), MS(4), MS(9), 0, 0, MS(9) },
		.after = { 0, MS(1061), 0, 0, 0, 0, US(8200) },
	}, {
		.name = "a task that only waited keeps its demand",
		.ran = 0, .wake = MS(1030), .pick = MS(1045),
		.before = { 0, MS(1015), 0, MS(6), 0, 0, MS(8) },
		.after = { 0, MS(1045), 0, 0, 0, 0, MS(8) },
	},
};

KUNIT_ARRAY_PARAM_DESC(walt_wake, walt_wake_cases, name);

/* Fold @t at @now, its rq in the window holding @now. */
static void walt_fold_at(struct walt_task_win *t, u64 now, u64 ran,
			 bool running)
{
	struct walt_ctx c = {
		.wallclock = now,
		.window_size = WINDOW,
		.nr_hist = NR_HIST,
		.freq_scale = SCHED_CAPACITY_SCALE,
		.cpu_scale = SCHED_CAPACITY_SCALE,
	};
	u64 window_start = MS(1000) + div_u64(now - MS(1000), WINDOW) * WINDOW;

	walt_task_fold(t, window_start, now, ran, 0, running, &c);
}

/* A task's windows as @s gives them, every hist[] slot its demand. */
static struct walt_task_win walt_task_of(const struct walt_state *s)
{
	struct walt_task_win t = {
		.mark_start = s->mark_start,
		.curr_window = s->curr,
		.prev_window = s->prev,
		.demand = s->demand,
	};
	unsigned int i;

	for (i = 0; i < WALT_HIST_MAX; i++)
		t.hist[i] = s->demand;
	return t;
}

static void walt_wake_check(struct kunit *test, const char *path,
			    const struct walt_state *want,
			    const struct walt_task_win *t)
{
	KUNIT_EXPECT_EQ_MSG(test, t->mark_start, want->mark_start, "%s", path);
	KUNIT_EXPECT_EQ_MSG(test, t->curr_window, want->curr, "%s", path);
	KUNIT_EXPECT_EQ_MSG(test, t->prev_window, want->prev, "%s", path);
	KUNIT_EXPECT_EQ_MSG(test, t->demand, want->demand, "%s", path);
}

static void walt_wake_skip_test(struct kunit *test)
{
	const struct walt_wake_case *tc = test->param_value;
	struct walt_task_win woken = walt_task_of(&tc->before);
	struct walt_task_win picked = woken;
	unsigned int i;

	walt_fold_at(&woken, tc->wake, tc->ran, false);
	walt_fold_at(&woken, tc->pick, 0, false);
	walt_fold_at(&picked, tc->pick, tc->ran, false);

	walt_wake_check(test, "wake + pick", &tc->after, &woken);
	walt_wake_check(test, "pick only", &tc->after, &picked);
	for (i = 0; i < WALT_HIST_MAX; i++)
		KUNIT_EXPECT_EQ_MSG(test, woken.hist[i], picked.hist[i],
				    "hist[%u]", i);
}

/*
 * A switch away from a task inside the window of its last fold need not
 * fold it (walt_switch()): its next event does, and puts what it ran into
 * that window. Folding at the switch (the slow path, taken whenever the
 * tracepoint has a probe or its event is on) and again at the next event
 * must leave the same windows as folding it all at the next event, and
 * both the windows worked out by hand: tracing observes, it does not
 * change the result. So must the CPU's sums, synced at the switch and at
 * the next event, or at the next event only: the CPU is busy throughout,
 * another task running between the two.
 */
struct walt_switch_case {
	const char *name;
	u64 ran;		/* since its mark, up to the switch */
	u64 put, next;		/* the switch away, the task's next event */
	struct walt_state before;	/* rq columns unused */
	struct walt_state after;
};

static const struct walt_switch_case walt_switch_cases[] = {
	{
		.name = "next event in the task's window",
		.ran = MS(2), .put = MS(1008), .next = MS(1012),
		.before = { 0, MS(1005), MS(3), MS(7), 0, 0, MS(7) },
		.after = { 0, MS(1012), MS(5), MS(7), 0, 0, MS(7) },
	}, {
		.name = "next event in the window after",
		.ran = MS(3), .put = MS(1018), .next = MS(1026),
		.before = { 0, MS(1005), MS(3), MS(7), 0, 0, MS(7) },
		.after = { 0, MS(1026), 0, MS(6), 0, 0, US(6800) },
	}, {
		.name = "next event two windows on",
		.ran = MS(4), .put = MS(1019), .next = MS(1045),
		.before = { 0, MS(1005), MS(3), MS(7), 0, 0, MS(7) },
		.after = { 0, MS(1045), 0, 0, 0, 0, MS(7) },
	}, {
		.name = "a task that ran all of it from the window's start",
		.ran = MS(10), .put = MS(1010), .next = MS(1015),
		.before = { 0, MS(1000), 0, MS(7), 0, 0, MS(7) },
		.after = { 0, MS(1015), MS(10), MS(7), 0, 0, MS(7) },
	},
};

KUNIT_ARRAY_PARAM_DESC(walt_switch, walt_switch_cases, name);

/* Sync @rq, busy since its busy_mark, to @now. */
static void walt_switch_sync(struct walt_rq_win *rq, u64 now)
{
	struct walt_ctx c = {
		.wallclock = now,
		.window_size = WINDOW,
		.nr_hist = NR_HIST,
		.freq_scale = SCHED_CAPACITY_SCALE,
		.cpu_scale = SCHED_CAPACITY_SCALE,
	};

	walt_rq_sync(rq, now, true, &c);
}

static void walt_switch_skip_test(struct kunit *test)
{
	const struct walt_switch_case *tc = test->param_value;
	struct walt_task_win slow = walt_task_of(&tc->before);
	struct walt_task_win lazy = slow;
	const struct walt_rq_win rq = { .window_start = MS(1000) };
	struct walt_rq_win rq_slow = {
		MS(1000), MS(4), MS(9), tc->before.mark_start
	};
	struct walt_rq_win rq_lazy = rq_slow;
	unsigned int i;

	/* The lazy switch's condition: the put in the window of the mark. */
	KUNIT_ASSERT_LT(test, tc->put, walt_lazy_end(&rq, WINDOW, true));

	walt_fold_at(&slow, tc->put, tc->ran, true);
	walt_fold_at(&slow, tc->next, 0, false);
	walt_fold_at(&lazy, tc->next, tc->ran, false);

	walt_switch_sync(&rq_slow, tc->put);
	walt_switch_sync(&rq_slow, tc->next);
	walt_switch_sync(&rq_lazy, tc->next);
	KUNIT_EXPECT_MEMEQ_MSG(test, &rq_slow, &rq_lazy, sizeof(rq_slow),
			       "the CPU's sums differ");

	walt_wake_check(test, "fold at the switch", &tc->after, &slow);
	walt_wake_check(test, "lazy switch", &tc->after, &lazy);
	for (i = 0; i < WALT_HIST_MAX; i++)
		KUNIT_EXPECT_EQ_MSG(test, slow.hist[i], lazy.hist[i],
				    "hist[%u]", i);
}

/* sched_walt_rollover: lazy charging, walt_switch_charges_nothing() */

struct walt_lazy_case {
	const char *name;
	bool put_busy;			/* the task put is not idle */
	u64 next_mark, now;		/* the rq's window: [1000, 1020) */
	u64 until;			/* walt_lazy_end() */
	bool lazy;
	/* Scales: the CPU's last sync's, @next's run (0: not known), now */
	unsigned long seen_scale, next_scale, scale;
};

#define FULL	SCHED_CAPACITY_SCALE

static const struct walt_lazy_case walt_lazy_cases[] = {
	{ "the picked mark and the time in the window", true, MS(1010),
	  MS(1012), MS(1020), true, FULL, FULL, FULL },
	{ "the picked mark and the time on the window start", true, MS(1000),
	  MS(1000), MS(1020), true, FULL, FULL, FULL },
	{ "a picked mark ahead of the time (clock skew)", true, MS(1013),
	  MS(1012), MS(1020), true, FULL, FULL, FULL },
	{ "idle put: its interval ends here", false, MS(1010), MS(1012), 0,
	  false, FULL, FULL, FULL },
	{ "the picked task's mark in an earlier window", true, MS(999),
	  MS(1012), MS(1020), false, FULL, FULL, FULL },
	{ "the time on the window end", true, MS(1010), MS(1020), MS(1020),
	  false, FULL, FULL, FULL },
	{ "the time windows later", true, MS(1010), MS(1065), MS(1020),
	  false, FULL, FULL, FULL },
	{ "a task never accounted", true, 0, MS(1012), MS(1020), false,
	  FULL, 0, FULL },
	{ "all at a lower scale", true, MS(1010), MS(1012), MS(1020), true,
	  FULL / 4, FULL / 4, FULL / 4 },
	{ "the scale changed since the CPU's last sync", true, MS(1010),
	  MS(1012), MS(1020), false, FULL, FULL, FULL / 4 },
	{ "the picked task ran at another scale", true, MS(1010), MS(1012),
	  MS(1020), false, FULL, FULL / 4, FULL },
	{ "the picked task's scale not known", true, MS(1010), MS(1012),
	  MS(1020), false, FULL, 0, FULL },
};

KUNIT_ARRAY_PARAM_DESC(walt_lazy, walt_lazy_cases, name);

static void walt_lazy_test(struct kunit *test)
{
	const struct walt_lazy_case *tc = test->param_value;
	const struct walt_seen seen = {
		.at = MS(1005),
		.scale = tc->seen_scale,
	};
	struct walt_task_win next = {
		.mark_start = tc->next_mark,
		.freq_scale = tc->next_scale,
	};
	struct walt_rq_win rq = { .window_start = MS(1000) };
	u64 until = walt_lazy_end(&rq, WINDOW, tc->put_busy);

	KUNIT_EXPECT_EQ_MSG(test, until, tc->until, "%s", tc->name);
	KUNIT_EXPECT_EQ_MSG(test, walt_switch_charges_nothing(&next,
							      rq.window_start,
							      until, tc->now,
							      tc->scale, &seen),
			    tc->lazy, "%s", tc->name);
}

/* sched_walt_rollover: lazy charging, walt_task_fold() */

struct walt_fold_case {
	const char *name;
	bool running;
	u64 ran;		/* since mark_start, the task's clock */
	u64 waited;		/* since mark_start, on a runqueue */
	u32 wait_before, wait_after;	/* curr_wait */
	u64 now;		/* before.window_start: the synced rq's */
	unsigned long freq_scale;	/* 0: 1024 */
	unsigned long ran_scale;	/* of what it ran; 0: not known */
	struct walt_state before;	/* demand: every hist[] slot */
	struct walt_state after;	/* rq columns unused */
};

static const struct walt_fold_case walt_fold_cases[] = {
	{
		.name = "a running task inside its window adds what it ran",
		.running = true, .ran = MS(7), .now = MS(1012),
		.before = { MS(1000), MS(1005), MS(3), MS(7), 0, 0, MS(10) },
		.after = { MS(1000), MS(1012), MS(10), MS(7), 0, 0, MS(10) },
	}, {
		.name = "what a task ran is capped by the time since its mark",
		.running = true, .ran = MS(9), .now = MS(1012),
		.before = { MS(1000), MS(1005), MS(3), MS(7), 0, 0, MS(10) },
		.after = { MS(1000), MS(1012), MS(10), MS(7), 0, 0, MS(10) },
	}, {
		.name = "a sleeping task's run completes its own window",
		.ran = MS(3), .now = MS(1026),
		.before = { MS(1020), MS(1015), MS(4), MS(9), 0, 0, MS(10) },
		.after = { MS(1020), MS(1026), 0, MS(7), 0, 0, US(9400) },
	}, {
		.name = "a sleeping task's run cannot overfill its window",
		.ran = MS(8), .now = MS(1030),
		.before = { MS(1020), MS(1015), MS(4), MS(9), 0, 0, MS(10) },
		.after = { MS(1020), MS(1030), 0, MS(9), 0, 0, US(9800) },
	}, {
		.name = "windows a sleeping task slept through are empty",
		.ran = MS(3), .now = MS(1065),
		.before = { MS(1060), MS(1015), MS(4), MS(9), 0, 0, MS(10) },
		.after = { MS(1060), MS(1065), 0, 0, 0, 0, US(9400) },
	}, {
		.name = "a running task across one boundary splits its run",
		.running = true, .ran = MS(9), .now = MS(1026),
		.before = { MS(1020), MS(1015), MS(4), MS(9), 0, 0, MS(10) },
		.after = { MS(1020), MS(1026), MS(6), MS(7), 0, 0, US(9400) },
	}, {
		.name = "a running task across three boundaries has a full prev",
		.running = true, .ran = MS(50), .now = MS(1065),
		.before = { MS(1060), MS(1015), MS(4), MS(9), 0, 0, MS(10) },
		.after = { MS(1060), MS(1065), MS(5), MS(20), 0, 0, MS(20) },
	}, {
		.name = "IRQ time the task did not run caps its new curr",
		.running = true, .ran = MS(4), .now = MS(1026),
		.before = { MS(1020), MS(1015), MS(4), MS(9), 0, 0, MS(10) },
		.after = { MS(1020), MS(1026), MS(4), MS(4), 0, 0, US(8800) },
	}, {
		.name = "half the frequency charges half the run",
		.running = true, .ran = MS(7), .now = MS(1012),
		.freq_scale = SCHED_CAPACITY_SCALE / 2,
		.before = { MS(1000), MS(1005), MS(3), MS(7), 0, 0, MS(10) },
		.after = { MS(1000), MS(1012), US(6500), MS(7), 0, 0, MS(10) },
	}, {
		.name = "a running task is charged at the scale of now",
		.running = true, .ran = MS(7), .now = MS(1012),
		.freq_scale = SCHED_CAPACITY_SCALE / 2,
		.ran_scale = SCHED_CAPACITY_SCALE,
		.before = { MS(1000), MS(1005), MS(3), MS(7), 0, 0, MS(10) },
		.after = { MS(1000), MS(1012), US(6500), MS(7), 0, 0, MS(10) },
	}, {
		.name = "put at full speed, folded at a quarter: full speed",
		.ran = MS(3), .now = MS(1026),
		.freq_scale = SCHED_CAPACITY_SCALE / 4,
		.ran_scale = SCHED_CAPACITY_SCALE,
		.before = { MS(1020), MS(1015), MS(4), MS(9), 0, 0, MS(10) },
		.after = { MS(1020), MS(1026), 0, MS(7), 0, 0, US(9400) },
	}, {
		.name = "put at a quarter, folded at full speed: a quarter",
		.ran = MS(4), .now = MS(1012),
		.ran_scale = SCHED_CAPACITY_SCALE / 4,
		.before = { MS(1000), MS(1005), MS(3), MS(7), 0, 0, MS(10) },
		.after = { MS(1000), MS(1012), MS(4), MS(7), 0, 0, MS(10) },
	}, {
		.name = "a task never accounted only starts its mark",
		.running = true, .ran = MS(5), .now = MS(1012),
		.before = { MS(1000), 0, 0, 0, 0, 0, MS(10) },
		.after = { MS(1000), MS(1012), 0, 0, 0, 0, MS(10) },
	}, {
		.name = "a first event before the window marks the window start",
		.running = true, .ran = MS(5), .now = MS(990),
		.before = { MS(1000), 0, 0, 0, 0, 0, MS(10) },
		.after = { MS(1000), MS(1000), 0, 0, 0, 0, MS(10) },
	}, {
		.name = "a clock behind the window is taken as its start",
		.running = true, .ran = MS(3), .now = MS(995),
		.before = { MS(1000), MS(1000), MS(3), MS(7), 0, 0, MS(10) },
		.after = { MS(1000), MS(1000), MS(3), MS(7), 0, 0, MS(10) },
	},
	/*
	 * Runnable wait (account_wait_time): in the task's curr_wait, never
	 * in its curr or prev, its CPU's share; a window's sample, which
	 * makes the demand, is run and wait together. Hand-computed: the
	 * demand after one sample S is max(S, (S + 4 * 10 ms) / 5).
	 */
	{
		.name = "a wait inside the window counts apart from the run",
		.ran = MS(3), .waited = MS(4), .now = MS(1012),
		.before = { MS(1000), MS(1005), MS(3), MS(7), 0, 0, MS(10) },
		.after = { MS(1000), MS(1012), MS(6), MS(7), 0, 0, MS(10) },
		.wait_after = MS(4),
	}, {
		.name = "a wait fills only what the run leaves of the window",
		.ran = MS(3), .waited = MS(6), .wait_before = MS(1),
		.now = MS(1012),
		.before = { MS(1000), MS(1005), MS(3), MS(7), 0, 0, MS(10) },
		.after = { MS(1000), MS(1012), MS(6), MS(7), 0, 0, MS(10) },
		.wait_after = MS(5),
	}, {
		.name = "a window's sample is its run and its wait",
		.ran = MS(3), .waited = MS(2), .wait_before = MS(2),
		.now = MS(1026),
		.before = { MS(1020), MS(1015), MS(4), MS(9), 0, 0, MS(10) },
		.after = { MS(1020), MS(1026), 0, MS(7), 0, 0, MS(11) },
	}, {
		.name = "a wait across the boundary opens the new window",
		.ran = MS(2), .waited = MS(9), .now = MS(1026),
		.before = { MS(1020), MS(1015), MS(4), MS(9), 0, 0, MS(10) },
		.after = { MS(1020), MS(1026), 0, MS(6), 0, 0, US(9800) },
		.wait_after = MS(6),
	}, {
		.name = "a task starved through whole windows waited them all",
		.waited = MS(50), .now = MS(1065),
		.before = { MS(1060), MS(1015), MS(4), MS(9), 0, 0, MS(10) },
		.after = { MS(1060), MS(1065), 0, 0, 0, 0, MS(20) },
		.wait_after = MS(5),
	}, {
		.name = "a running task's wait shares its window with its run",
		.running = true, .ran = MS(8), .waited = MS(3), .now = MS(1026),
		.before = { MS(1020), MS(1015), MS(4), MS(9), 0, 0, MS(10) },
		.after = { MS(1020), MS(1026), MS(6), MS(6), 0, 0, US(9800) },
	}, {
		.name = "a running task's new window has no room for a wait",
		.running = true, .ran = MS(9), .waited = MS(4), .now = MS(1026),
		.before = { MS(1020), MS(1015), MS(4), MS(9), 0, 0, MS(10) },
		.after = { MS(1020), MS(1026), MS(6), MS(7), 0, 0, US(9800) },
	},
};

KUNIT_ARRAY_PARAM_DESC(walt_fold, walt_fold_cases, name);

static void walt_fold_test(struct kunit *test)
{
	const struct walt_fold_case *tc = test->param_value;
	const struct walt_state *want = &tc->after;
	struct walt_task_win t = {
		.mark_start = tc->before.mark_start,
		.curr_window = tc->before.curr,
		.prev_window = tc->before.prev,
		.demand = tc->before.demand,
		.freq_scale = tc->ran_scale,
		.curr_wait = tc->wait_before,
	};
	struct walt_ctx c = {
		.wallclock = tc->now,
		.window_size = WINDOW,
		.nr_hist = NR_HIST,
		.freq_scale = tc->freq_scale ?: SCHED_CAPACITY_SCALE,
		.cpu_scale = SCHED_CAPACITY_SCALE,
	};
	unsigned int i;

	for (i = 0; i < WALT_HIST_MAX; i++)
		t.hist[i] = tc->before.demand;

	walt_task_fold(&t, tc->before.window_start, tc->now, tc->ran,
		       tc->waited, tc->running, &c);
	expect_u64(test, tc->name, "task wait", tc->wait_after, t.curr_wait);

	expect_u64(test, tc->name, "mark_start", want->mark_start,
		   t.mark_start);
	expect_u64(test, tc->name, "task curr", want->curr, t.curr_window);
	expect_u64(test, tc->name, "task prev", want->prev, t.prev_window);
	expect_u64(test, tc->name, "demand", want->demand, t.demand);
	expect_u64(test, tc->name, "scale carried", c.freq_scale,
		   t.freq_scale);
}

/*
 * sched_walt_rollover: lazy charging under a changing frequency,
 * walt_task_fold() with a task's own scale and walt_scale_catch_up().
 *
 * One CPU, reachable step by step: at 1001 ms a switch from idle to N
 * syncs the CPU (busy from 1001, scale A) and folds N; at 1003 a lazy
 * switch N -> P (P arrived by a migration at 1000, nothing unfolded); at
 * 1005 a lazy switch P -> N. Then the frequency scale becomes B, and at
 * @sync the tick finds it changed, N still running. P, not running, is
 * folded later at @p_fold, at scale C. Syncing and folding at every
 * switch (the slow path, as with tracing on) must leave the windows and
 * sums worked out by hand, and so must the lazy switches: the catch-up
 * charges what ran before 1005 at A, and P's 2 ms carry A.
 */
struct walt_scale_case {
	const char *name;
	unsigned long a, b, c;
	u64 sync, p_fold;
	u64 rq_curr, rq_prev;
	u32 n_curr, n_prev, n_demand;
	u32 p_curr, p_prev, p_demand;
};

static const struct walt_scale_case walt_scale_cases[] = {
	{
		.name = "full speed, then half, in the window: 4 + 7/2 ms",
		.a = FULL, .b = FULL / 2, .c = FULL / 4,
		.sync = MS(1012), .p_fold = MS(1015),
		.rq_curr = US(7500), .rq_prev = MS(15),
		.n_curr = US(5500), .n_prev = MS(14), .n_demand = MS(14),
		.p_curr = MS(2), .p_prev = MS(5), .p_demand = MS(5),
	}, {
		.name = "half speed, then full, across a boundary",
		.a = FULL / 2, .b = FULL, .c = FULL,
		.sync = MS(1026), .p_fold = MS(1030),
		.rq_curr = MS(6), .rq_prev = MS(17),
		.n_curr = MS(6), .n_prev = MS(16), .n_demand = MS(16),
		.p_curr = 0, .p_prev = MS(1), .p_demand = US(4200),
	}, {
		.name = "no change: nothing to catch up",
		.a = FULL, .b = FULL, .c = FULL,
		.sync = MS(1012), .p_fold = MS(1015),
		.rq_curr = MS(11), .rq_prev = MS(15),
		.n_curr = MS(9), .n_prev = MS(14), .n_demand = MS(14),
		.p_curr = MS(2), .p_prev = MS(5), .p_demand = MS(5),
	},
};

KUNIT_ARRAY_PARAM_DESC(walt_scale, walt_scale_cases, name);

static struct walt_ctx walt_scale_ctx(u64 now, unsigned long scale)
{
	return (struct walt_ctx) {
		.wallclock = now,
		.window_size = WINDOW,
		.nr_hist = NR_HIST,
		.freq_scale = scale,
		.cpu_scale = SCHED_CAPACITY_SCALE,
	};
}

/* Fold @t at @now on @rq (synced to @now), @ran since its exec_mark. */
static void walt_scale_fold(struct walt_task_win *t,
			    const struct walt_rq_win *rq, u64 now, u64 ran,
			    bool running, unsigned long scale)
{
	struct walt_ctx c = walt_scale_ctx(now, scale);

	walt_task_fold(t, rq->window_start, now, ran, 0, running, &c);
	t->exec_mark += ran;
}

static void walt_scale_sync(struct walt_rq_win *rq, u64 now,
			    unsigned long scale)
{
	struct walt_ctx c = walt_scale_ctx(now, scale);

	walt_rq_sync(rq, now, true, &c);
}

static struct walt_task_win walt_scale_task(u64 mark, u32 prev,
					    unsigned long scale)
{
	struct walt_task_win t = {
		.mark_start = mark,
		.prev_window = prev,
		.demand = prev,
		.freq_scale = scale,
	};
	unsigned int i;

	for (i = 0; i < WALT_HIST_MAX; i++)
		t.hist[i] = prev;
	return t;
}

/* The CPU's sums after @path: curr @curr, prev @prev. */
static void walt_expect_rq(struct kunit *test, const char *path,
			   const struct walt_rq_win *rq, u64 curr, u64 prev)
{
	KUNIT_EXPECT_EQ_MSG(test, rq->curr_runnable_sum, curr, "%s", path);
	KUNIT_EXPECT_EQ_MSG(test, rq->prev_runnable_sum, prev, "%s", path);
}

/* Task @who's windows and demand after @path. */
static void walt_expect_task(struct kunit *test, const char *path,
			     const char *who, const struct walt_task_win *t,
			     u32 curr, u32 prev, u32 demand)
{
	KUNIT_EXPECT_EQ_MSG(test, t->curr_window, curr, "%s: %s", path, who);
	KUNIT_EXPECT_EQ_MSG(test, t->prev_window, prev, "%s: %s", path, who);
	KUNIT_EXPECT_EQ_MSG(test, t->demand, demand, "%s: %s", path, who);
}

static void walt_scale_expect(struct kunit *test, const char *path,
			      const struct walt_scale_case *tc,
			      const struct walt_rq_win *rq,
			      const struct walt_task_win *n,
			      const struct walt_task_win *p)
{
	walt_expect_rq(test, path, rq, tc->rq_curr, tc->rq_prev);
	walt_expect_task(test, path, "N", n, tc->n_curr, tc->n_prev,
			 tc->n_demand);
	walt_expect_task(test, path, "P", p, tc->p_curr, tc->p_prev,
			 tc->p_demand);
}

static void walt_scale_test(struct kunit *test)
{
	const struct walt_scale_case *tc = test->param_value;
	const struct walt_rq_win rq0 = {
		.window_start = MS(1000),
		.prev_runnable_sum = MS(15),
		.busy_mark = MS(1001),
	};
	struct walt_task_win n0 = walt_scale_task(MS(1001), MS(14), tc->a);
	struct walt_task_win p0 = walt_scale_task(MS(1000), MS(5), tc->a);
	struct walt_rq_win rq = rq0;
	struct walt_task_win n = n0, p = p0;
	struct walt_seen seen;
	struct walt_ctx c;

	/* Every switch on the slow path. */
	walt_scale_sync(&rq, MS(1003), tc->a);
	walt_scale_fold(&n, &rq, MS(1003), MS(2), true, tc->a);
	walt_scale_fold(&p, &rq, MS(1003), 0, false, tc->a);
	walt_scale_sync(&rq, MS(1005), tc->a);
	walt_scale_fold(&p, &rq, MS(1005), MS(2), true, tc->a);
	walt_scale_fold(&n, &rq, MS(1005), 0, false, tc->a);
	walt_scale_sync(&rq, tc->sync, tc->b);
	walt_scale_fold(&n, &rq, tc->sync, tc->sync - MS(1005), true, tc->b);
	walt_scale_fold(&p, &rq, tc->p_fold, 0, false, tc->c);
	walt_scale_expect(test, "every switch slow", tc, &rq, &n, &p);

	/* Both switches lazy: the tick catches up. */
	rq = rq0;
	n = n0;
	p = p0;
	seen = (struct walt_seen) {
		.at = MS(1005), .exec = n.exec_mark + MS(2), .scale = tc->a,
		.picked = true,
	};
	c = walt_scale_ctx(tc->sync, tc->b);
	if (c.freq_scale != seen.scale)
		walt_scale_catch_up(&rq, &n, &seen, &c);
	walt_scale_sync(&rq, tc->sync, tc->b);
	walt_scale_fold(&n, &rq, tc->sync,
			seen.exec + tc->sync - MS(1005) - n.exec_mark, true,
			tc->b);
	walt_scale_fold(&p, &rq, tc->p_fold, MS(2), false, tc->c);
	walt_scale_expect(test, "lazy switches", tc, &rq, &n, &p);
}

/*
 * sched_walt_rollover: lazy idle, walt_idle_lazy_end(), walt_rq_idle_end()
 * and the catch-up of a task picked from idle.
 *
 * One CPU: N, picked at 1001 ms by a slow switch (CPU busy from 1001,
 * scale A), runs 3 ms and sleeps; at 1004 the switch to idle syncs the
 * CPU (lazy: N not folded). N wakes at @wake, when the scale is @at_wake,
 * and is picked from idle; then the scale becomes B and at @tick the tick
 * finds it changed, N running. Syncing and folding at every switch (the
 * slow path, as with tracing on) must leave the sums and windows worked
 * out by hand; where the switch from idle can be lazy (@lazy: in the
 * window of the CPU's last sync, at its scale), so must the lazy path,
 * whose catch-up folds N's 3 ms at A.
 */
struct walt_idle_case {
	const char *name;
	unsigned long a, at_wake, b;
	u64 wake, tick;
	bool lazy;
	u64 rq_curr, rq_prev;
	u32 n_curr, n_prev, n_demand;
};

static const struct walt_idle_case walt_idle_cases[] = {
	{
		.name = "idle inside the window, then half speed: 3 + 5/2 ms",
		.a = FULL, .at_wake = FULL, .b = FULL / 2,
		.wake = MS(1007), .tick = MS(1012), .lazy = true,
		.rq_curr = US(5500), .rq_prev = MS(15),
		.n_curr = US(5500), .n_prev = MS(14), .n_demand = MS(14),
	}, {
		.name = "idle inside the window, no change",
		.a = FULL, .at_wake = FULL, .b = FULL,
		.wake = MS(1007), .tick = MS(1012), .lazy = true,
		.rq_curr = MS(8), .rq_prev = MS(15),
		.n_curr = MS(8), .n_prev = MS(14), .n_demand = MS(14),
	}, {
		.name = "a window boundary inside idle: the slow path",
		.a = FULL, .at_wake = FULL, .b = FULL / 2,
		.wake = MS(1023), .tick = MS(1026), .lazy = false,
		.rq_curr = US(1500), .rq_prev = MS(3),
		.n_curr = US(1500), .n_prev = MS(3), .n_demand = US(11800),
	}, {
		.name = "the scale changed while idle: the slow path",
		.a = FULL, .at_wake = FULL / 2, .b = FULL / 2,
		.wake = MS(1007), .tick = MS(1012), .lazy = false,
		.rq_curr = US(5500), .rq_prev = MS(15),
		.n_curr = US(5500), .n_prev = MS(14), .n_demand = MS(14),
	},
};

KUNIT_ARRAY_PARAM_DESC(walt_idle, walt_idle_cases, name);

static void walt_idle_expect(struct kunit *test, const char *path,
			     const struct walt_idle_case *tc,
			     const struct walt_rq_win *rq,
			     const struct walt_task_win *n)
{
	walt_expect_rq(test, path, rq, tc->rq_curr, tc->rq_prev);
	walt_expect_task(test, path, "N", n, tc->n_curr, tc->n_prev,
			 tc->n_demand);
}

static void walt_idle_test(struct kunit *test)
{
	const struct walt_idle_case *tc = test->param_value;
	const struct walt_rq_win rq0 = {
		.window_start = MS(1000),
		.prev_runnable_sum = MS(15),
		.busy_mark = MS(1001),
	};
	struct walt_task_win n0 = walt_scale_task(MS(1001), MS(14), tc->a);
	struct walt_rq_win rq = rq0;
	struct walt_task_win n = n0;
	struct walt_ctx c = walt_scale_ctx(MS(1004), tc->a);
	struct walt_seen seen;
	u64 until;

	/* The switch to idle at 1004 is lazy: N's mark is in the window. */
	KUNIT_ASSERT_LT(test, MS(1004), walt_lazy_end(&rq, WINDOW, true));

	/* Every switch on the slow path. */
	walt_scale_sync(&rq, MS(1004), tc->a);
	walt_scale_fold(&n, &rq, MS(1004), MS(3), true, tc->a);
	c = walt_scale_ctx(tc->wake, tc->at_wake);
	walt_rq_sync(&rq, tc->wake, false, &c);
	walt_scale_fold(&n, &rq, tc->wake, 0, false, tc->at_wake);
	walt_scale_sync(&rq, tc->tick, tc->b);
	walt_scale_fold(&n, &rq, tc->tick, tc->tick - tc->wake, true, tc->b);
	walt_idle_expect(test, "every switch slow", tc, &rq, &n);

	/* The switch to idle syncs only; is the one from idle lazy? */
	rq = rq0;
	n = n0;
	walt_scale_sync(&rq, MS(1004), tc->a);
	seen = (struct walt_seen) { .at = MS(1004), .scale = tc->a };
	until = walt_idle_lazy_end(&rq, WINDOW);
	KUNIT_EXPECT_EQ(test, tc->lazy,
			walt_switch_charges_nothing(&n, rq.window_start, until,
						    tc->wake, tc->at_wake,
						    &seen));
	if (!tc->lazy)
		return;
	walt_rq_idle_end(&rq, tc->wake);
	seen = (struct walt_seen) {
		.at = tc->wake, .exec = n.exec_mark + MS(3), .scale = tc->a,
		.picked = true,
	};
	c = walt_scale_ctx(tc->tick, tc->b);
	if (c.freq_scale != seen.scale)
		walt_scale_catch_up(&rq, &n, &seen, &c);
	walt_scale_sync(&rq, tc->tick, tc->b);
	walt_scale_fold(&n, &rq, tc->tick,
			seen.exec + tc->tick - tc->wake - n.exec_mark, true,
			tc->b);
	walt_idle_expect(test, "lazy switches to and from idle", tc, &rq, &n);
}

/* sched_walt_rollover: lazy charging, walt_rq_sync() */

struct walt_sync_case {
	const char *name;
	bool busy;
	u64 busy_mark;
	u64 now;
	struct walt_rq_win after;	/* before: 1000 ms, curr 10, prev 15 */
};

static const struct walt_sync_case walt_sync_cases[] = {
	{
		.name = "a busy CPU inside the window charges the interval",
		.busy = true, .busy_mark = MS(1005), .now = MS(1012),
		.after = { MS(1000), MS(17), MS(15), MS(1012) },
	}, {
		.name = "an idle CPU charges nothing but moves the mark",
		.busy_mark = MS(1005), .now = MS(1012),
		.after = { MS(1000), MS(10), MS(15), MS(1012) },
	}, {
		.name = "a busy CPU across one boundary completes the window",
		.busy = true, .busy_mark = MS(1015), .now = MS(1026),
		.after = { MS(1020), MS(6), MS(15), MS(1026) },
	}, {
		.name = "a busy CPU across two boundaries has a full prev",
		.busy = true, .busy_mark = MS(1015), .now = MS(1045),
		.after = { MS(1040), MS(5), MS(20), MS(1045) },
	}, {
		.name = "an idle CPU across two boundaries empties both",
		.busy_mark = MS(1015), .now = MS(1045),
		.after = { MS(1040), 0, 0, MS(1045) },
	}, {
		.name = "a session's first sync charges nothing before it",
		.busy = true, .busy_mark = 0, .now = MS(1012),
		.after = { MS(1000), MS(10), MS(15), MS(1012) },
	}, {
		.name = "a first sync before the session's window waits for it",
		.busy = true, .busy_mark = 0, .now = MS(990),
		.after = { MS(1000), MS(10), MS(15), MS(1000) },
	}, {
		.name = "a clock behind the mark charges nothing",
		.busy = true, .busy_mark = MS(1012), .now = MS(1010),
		.after = { MS(1000), MS(10), MS(15), MS(1012) },
	}, {
		.name = "a clock behind the window charges nothing before it",
		.busy = true, .busy_mark = MS(985), .now = MS(990),
		.after = { MS(1000), MS(10), MS(15), MS(1000) },
	},
};

KUNIT_ARRAY_PARAM_DESC(walt_sync, walt_sync_cases, name);

static void walt_sync_test(struct kunit *test)
{
	const struct walt_sync_case *tc = test->param_value;
	struct walt_rq_win rq = { MS(1000), MS(10), MS(15), tc->busy_mark };
	struct walt_ctx c = {
		.wallclock = tc->now,
		.window_size = WINDOW,
		.nr_hist = NR_HIST,
		.freq_scale = SCHED_CAPACITY_SCALE,
		.cpu_scale = SCHED_CAPACITY_SCALE,
	};

	walt_rq_sync(&rq, tc->now, tc->busy, &c);

	expect_u64(test, tc->name, "window_start", tc->after.window_start,
		   rq.window_start);
	expect_u64(test, tc->name, "curr", tc->after.curr_runnable_sum,
		   rq.curr_runnable_sum);
	expect_u64(test, tc->name, "prev", tc->after.prev_runnable_sum,
		   rq.prev_runnable_sum);
	expect_u64(test, tc->name, "busy_mark", tc->after.busy_mark,
		   rq.busy_mark);
}

/* sched_walt_rollover: walt_rq_prev_at(), what walt_cpu_util() reads */

struct walt_prev_at_case {
	const char *name;
	bool busy;
	u64 busy_mark;
	u64 now;
	unsigned long freq_scale;	/* 0: full */
	struct walt_share rm;		/* shares still to take out */
	struct walt_share irq;		/* IRQ time still to add */
	u64 prev;		/* before: 1000 ms, curr 10, prev 15 */
};

static const struct walt_prev_at_case walt_prev_at_cases[] = {
	{
		.name = "inside the window: prev as it is",
		.busy = true, .busy_mark = MS(1005), .now = MS(1012),
		.prev = MS(15),
	}, {
		.name = "an idle CPU a window on: the window that ended",
		.busy_mark = MS(1005), .now = MS(1026),
		.prev = MS(10),
	}, {
		.name = "a busy CPU a window on: the window up to its end",
		.busy = true, .busy_mark = MS(1015), .now = MS(1026),
		.prev = MS(15),
	}, {
		.name = "an idle CPU two windows on: empty",
		.busy_mark = MS(1015), .now = MS(1045),
		.prev = 0,
	}, {
		.name = "a busy CPU two windows on, no tick: a full window",
		.busy = true, .busy_mark = MS(1015), .now = MS(1045),
		.prev = MS(20),
	}, {
		.name = "a busy CPU ten windows on, no tick: a full window",
		.busy = true, .busy_mark = MS(1015), .now = MS(1205),
		.prev = MS(20),
	}, {
		.name = "a busy CPU two windows on at half speed: half",
		.busy = true, .busy_mark = MS(1015), .now = MS(1045),
		.freq_scale = SCHED_CAPACITY_SCALE / 2,
		.prev = MS(10),
	}, {
		.name = "a task that woke elsewhere: its prev taken out",
		.busy = true, .busy_mark = MS(1005), .now = MS(1012),
		.rm = { MS(1000), MS(4), MS(9) },
		.prev = MS(6),
	}, {
		.name = "idle a window on, a task woke elsewhere: its curr out",
		.busy_mark = MS(1005), .now = MS(1026),
		.rm = { MS(1000), MS(4), MS(9) },
		.prev = MS(6),
	}, {
		.name = "a departure recorded a window ahead: that window's",
		.busy = true, .busy_mark = MS(1005), .now = MS(1026),
		.rm = { MS(1020), MS(3), MS(9) },
		.prev = MS(16),
	}, {
		.name = "idle a window on, with IRQ time: the window and it",
		.busy_mark = MS(1005), .now = MS(1026),
		.irq = { MS(1000), MS(1), 0 },
		.prev = MS(11),
	},
};

KUNIT_ARRAY_PARAM_DESC(walt_prev_at, walt_prev_at_cases, name);

static void walt_prev_at_test(struct kunit *test)
{
	const struct walt_prev_at_case *tc = test->param_value;
	const struct walt_rq_win before = {
		MS(1000), MS(10), MS(15), tc->busy_mark
	};
	struct walt_rq_win rq = before;
	struct walt_ctx c = {
		.wallclock = tc->now,
		.window_size = WINDOW,
		.nr_hist = NR_HIST,
		.freq_scale = tc->freq_scale ?: SCHED_CAPACITY_SCALE,
		.cpu_scale = SCHED_CAPACITY_SCALE,
	};

	expect_u64(test, tc->name, "prev",
		   tc->prev, walt_rq_prev_at(&rq, &tc->rm, &tc->irq, tc->now,
					     tc->busy, &c));
	KUNIT_EXPECT_MEMEQ_MSG(test, &rq, &before, sizeof(rq),
			       "%s: the sums changed", tc->name);
}

/*
 * sched_walt_rollover: walt_share_add_task() and walt_share_take(), the
 * shares of tasks that woke up on another CPU, taken out of their source
 * at its next sync. Each departure is a task folded in the window of its
 * mark; the rq is as its sync left it when the record is applied.
 */
struct walt_departure {
	u64 mark;
	u32 curr, prev;
};

struct walt_removed_case {
	const char *name;
	struct walt_departure dep[2];	/* mark 0: none */
	struct walt_rq_win rq, rq_after;	/* window_start, curr, prev */
	bool applied;
};

static const struct walt_removed_case walt_removed_cases[] = {
	{
		.name = "a departure in the rq's window: its curr and prev",
		.dep = { { MS(1005), MS(4), MS(9) } },
		.rq = WALT_RQ(1000, 10, 15), .rq_after = WALT_RQ(1000, 6, 6),
		.applied = true,
	}, {
		.name = "the rq a window on: the departure's curr from prev",
		.dep = { { MS(1005), MS(4), MS(9) } },
		.rq = WALT_RQ(1020, 3, 10), .rq_after = WALT_RQ(1020, 3, 6),
		.applied = true,
	}, {
		.name = "the rq two windows on: nothing left to take",
		.dep = { { MS(1005), MS(4), MS(9) } },
		.rq = WALT_RQ(1040, 3, 0), .rq_after = WALT_RQ(1040, 3, 0),
		.applied = true,
	}, {
		.name = "an rq behind the departure's window keeps it pending",
		.dep = { { MS(1005), MS(4), MS(9) } },
		.rq = WALT_RQ(980, 10, 15), .rq_after = WALT_RQ(980, 10, 15),
		.applied = false,
	}, {
		.name = "two departures in one window add up",
		.dep = { { MS(1005), MS(4), MS(9) }, { MS(1012), MS(2), MS(1) } },
		.rq = WALT_RQ(1000, 10, 15), .rq_after = WALT_RQ(1000, 4, 5),
		.applied = true,
	}, {
		.name = "departures in two windows meet in the later",
		.dep = { { MS(1015), MS(4), MS(9) }, { MS(1022), MS(2), MS(3) } },
		.rq = WALT_RQ(1020, 5, 12), .rq_after = WALT_RQ(1020, 3, 5),
		.applied = true,
	}, {
		.name = "the later departure recorded first",
		.dep = { { MS(1022), MS(2), MS(3) }, { MS(1015), MS(4), MS(9) } },
		.rq = WALT_RQ(1020, 5, 12), .rq_after = WALT_RQ(1020, 3, 5),
		.applied = true,
	}, {
		.name = "more than the sums hold stops them at 0",
		.dep = { { MS(1005), MS(12), MS(20) } },
		.rq = WALT_RQ(1000, 10, 15), .rq_after = WALT_RQ(1000, 0, 0),
		.applied = true,
	}, {
		.name = "nothing recorded: nothing to apply",
		.rq = WALT_RQ(1000, 10, 15), .rq_after = WALT_RQ(1000, 10, 15),
		.applied = false,
	},
};

KUNIT_ARRAY_PARAM_DESC(walt_removed, walt_removed_cases, name);

static void walt_removed_test(struct kunit *test)
{
	const struct walt_removed_case *tc = test->param_value;
	struct walt_share rm = { }, before;
	struct walt_rq_win rq = tc->rq;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tc->dep) && tc->dep[i].mark; i++) {
		struct walt_task_win t = {
			.mark_start = tc->dep[i].mark,
			.curr_window = tc->dep[i].curr,
			.prev_window = tc->dep[i].prev,
		};

		walt_share_add_task(&rm, &t, WINDOW);
	}
	before = rm;

	expect_u64(test, tc->name, "applied", tc->applied,
		   walt_share_take(&rq, &rm, WINDOW));
	expect_u64(test, tc->name, "window_start", tc->rq_after.window_start,
		   rq.window_start);
	expect_u64(test, tc->name, "curr", tc->rq_after.curr_runnable_sum,
		   rq.curr_runnable_sum);
	expect_u64(test, tc->name, "prev", tc->rq_after.prev_runnable_sum,
		   rq.prev_runnable_sum);
	/* Applied once: emptied. Not applied: kept whole for later. */
	if (tc->applied)
		KUNIT_EXPECT_TRUE_MSG(test, walt_share_empty(&rm),
				      "%s: not emptied", tc->name);
	else
		KUNIT_EXPECT_MEMEQ_MSG(test, &rm, &before, sizeof(rm),
				       "%s: the record changed", tc->name);
}

/*
 * sched_walt_rollover: walt_share_add_idle() and walt_share_give(), IRQ
 * time that interrupted idle, recorded without the rq lock and added to
 * the sums at the CPU's next sync. The record is added to an rq in the
 * window 1000 (curr 10, prev 15), or as given.
 */
struct walt_irq_case {
	const char *name;
	u64 mark, now, irqtime;
	bool io;			/* tasks wait on IO, io_is_busy set */
	unsigned long freq_scale;	/* 0: full */
	struct walt_share before, after;
	u64 mark_after;
	struct walt_rq_win rq, rq_after;	/* 0 window_start: 1000 */
	bool given;
};

static const struct walt_irq_case walt_irq_cases[] = {
	{
		.name = "an IRQ inside the window: its time in curr",
		.mark = MS(1005), .now = MS(1012), .irqtime = MS(1),
		.after = { MS(1000), MS(1), 0 }, .mark_after = MS(1012),
		.rq_after = WALT_RQ(1000, 11, 15), .given = true,
	}, {
		.name = "an IRQ in the record's window adds to its curr",
		.mark = MS(1005), .now = MS(1012), .irqtime = MS(1),
		.before = { MS(1000), MS(1), 0 },
		.after = { MS(1000), MS(2), 0 }, .mark_after = MS(1012),
		.rq_after = WALT_RQ(1000, 12, 15), .given = true,
	}, {
		.name = "an emptied record keeps its window",
		.mark = MS(1005), .now = MS(1012), .irqtime = MS(1),
		.before = { MS(1000), 0, 0 },
		.after = { MS(1000), MS(1), 0 }, .mark_after = MS(1012),
		.rq_after = WALT_RQ(1000, 11, 15), .given = true,
	}, {
		.name = "an IRQ from before the record's window is cut",
		.mark = MS(1015), .now = US(1020500), .irqtime = MS(1),
		.before = { MS(1020), 0, 0 },
		.after = { MS(1020), US(500), US(500) },
		.mark_after = US(1020500),
		.rq = WALT_RQ(1020, 0, 10),
		.rq_after = { MS(1020), US(500), US(10500) },
		.given = true,
	}, {
		.name = "an IRQ across a boundary is cut there",
		.mark = MS(1005), .now = US(1020500), .irqtime = MS(1),
		.after = { MS(1020), US(500), US(500) },
		.mark_after = US(1020500),
		.rq = WALT_RQ(1020, 0, 10),
		.rq_after = { MS(1020), US(500), US(10500) },
		.given = true,
	}, {
		.name = "IRQ time before idle's last event is not counted",
		.mark = US(1011500), .now = MS(1012), .irqtime = MS(1),
		.after = { MS(1000), US(500), 0 }, .mark_after = MS(1012),
		.rq_after = { MS(1000), US(10500), MS(15) }, .given = true,
	}, {
		.name = "tasks waiting on IO: all of idle's interval",
		.mark = MS(1005), .now = MS(1012), .irqtime = MS(1), .io = true,
		.after = { MS(1000), MS(7), 0 }, .mark_after = MS(1012),
		.rq_after = WALT_RQ(1000, 17, 15), .given = true,
	}, {
		.name = "half the frequency: half the time",
		.mark = MS(1005), .now = MS(1012), .irqtime = MS(1),
		.freq_scale = SCHED_CAPACITY_SCALE / 2,
		.after = { MS(1000), US(500), 0 }, .mark_after = MS(1012),
		.rq_after = { MS(1000), US(10500), MS(15) }, .given = true,
	}, {
		.name = "a second IRQ a window later rolls the first",
		.mark = MS(1012), .now = MS(1025), .irqtime = MS(1),
		.before = { MS(1000), MS(1), 0 },
		.after = { MS(1020), MS(1), MS(1) }, .mark_after = MS(1025),
		.rq = WALT_RQ(1020, 2, 10), .rq_after = WALT_RQ(1020, 3, 11),
		.given = true,
	}, {
		.name = "an rq two windows on has nothing left to add",
		.mark = MS(1005), .now = MS(1012), .irqtime = MS(1),
		.after = { MS(1000), MS(1), 0 }, .mark_after = MS(1012),
		.rq = WALT_RQ(1040, 2, 0), .rq_after = WALT_RQ(1040, 2, 0),
		.given = true,
	}, {
		.name = "an rq behind the record's window waits",
		.mark = MS(1005), .now = MS(1022), .irqtime = MS(1),
		.after = { MS(1020), MS(1), 0 }, .mark_after = MS(1022),
		.rq_after = WALT_RQ(1000, 10, 15), .given = false,
	}, {
		.name = "a first event only sets the mark",
		.mark = 0, .now = MS(1012), .irqtime = MS(1),
		.mark_after = MS(1012),
		.rq_after = WALT_RQ(1000, 10, 15), .given = false,
	}, {
		.name = "a clock behind the mark changes nothing",
		.mark = MS(1012), .now = MS(1010), .irqtime = MS(1),
		.mark_after = MS(1012),
		.rq_after = WALT_RQ(1000, 10, 15), .given = false,
	},
};

KUNIT_ARRAY_PARAM_DESC(walt_irq, walt_irq_cases, name);

static void walt_irq_test(struct kunit *test)
{
	const struct walt_irq_case *tc = test->param_value;
	struct walt_task_win idle = { .mark_start = tc->mark };
	struct walt_share sh = tc->before;
	const struct walt_rq_win rq0 = WALT_RQ(1000, 10, 15);
	struct walt_rq_win rq = tc->rq.window_start ? tc->rq : rq0;
	struct walt_ctx c = {
		.wallclock = tc->now,
		.irqtime = tc->irqtime,
		.window_size = WINDOW,
		.nr_hist = NR_HIST,
		.freq_scale = tc->freq_scale ?: SCHED_CAPACITY_SCALE,
		.cpu_scale = SCHED_CAPACITY_SCALE,
		.is_idle = true,
		.waiting_on_io = tc->io,
		.event = WALT_IRQ_UPDATE,
	};

	walt_share_add_idle(&sh, &idle, &c);
	expect_u64(test, tc->name, "mark", tc->mark_after, idle.mark_start);
	expect_u64(test, tc->name, "record window", tc->after.window_start,
		   sh.window_start);
	expect_u64(test, tc->name, "record curr", tc->after.curr, sh.curr);
	expect_u64(test, tc->name, "record prev", tc->after.prev, sh.prev);

	expect_u64(test, tc->name, "given", tc->given,
		   walt_share_give(&rq, &sh, WINDOW));
	expect_u64(test, tc->name, "rq curr", tc->rq_after.curr_runnable_sum,
		   rq.curr_runnable_sum);
	expect_u64(test, tc->name, "rq prev", tc->rq_after.prev_runnable_sum,
		   rq.prev_runnable_sum);
	if (tc->given)
		KUNIT_EXPECT_TRUE_MSG(test, walt_share_empty(&sh),
				      "%s: not emptied", tc->name);
}

struct walt_session_case {
	const char *name;
	u64 now, last, first;
};

/* A 20 ms window. */
static const struct walt_session_case walt_session_cases[] = {
	{
		.name = "no session before: the next boundary",
		.now = MS(1005), .last = 0, .first = MS(1020),
	}, {
		.name = "right on a boundary: the one after it",
		.now = MS(1000), .last = 0, .first = MS(1020),
	}, {
		.name = "a session long ago: the next boundary",
		.now = MS(1005), .last = MS(500), .first = MS(1020),
	}, {
		.name = "a session started a window before: the next boundary",
		.now = MS(1005), .last = MS(1000), .first = MS(1020),
	}, {
		.name = "a session that ended before its first boundary: one later",
		.now = MS(1005), .last = MS(1020), .first = MS(1040),
	},
};

KUNIT_ARRAY_PARAM_DESC(walt_session, walt_session_cases, name);

static void walt_session_test(struct kunit *test)
{
	const struct walt_session_case *tc = test->param_value;

	expect_u64(test, tc->name, "first boundary", tc->first,
		   walt_session_first(tc->now, tc->last, WINDOW));
}

static struct kunit_case walt_rollover_test_cases[] = {
	KUNIT_CASE_PARAM(walt_busy_test, walt_busy_gen_params),
	KUNIT_CASE_PARAM(walt_rq_roll_test, walt_rq_roll_gen_params),
	KUNIT_CASE_PARAM(walt_task_roll_test, walt_task_roll_gen_params),
	KUNIT_CASE_PARAM(walt_in_window_test, walt_in_window_gen_params),
	KUNIT_CASE(walt_in_window_agrees_test),
	KUNIT_CASE_PARAM(walt_wake_skip_test, walt_wake_gen_params),
	KUNIT_CASE_PARAM(walt_switch_skip_test, walt_switch_gen_params),
	KUNIT_CASE_PARAM(walt_lazy_test, walt_lazy_gen_params),
	KUNIT_CASE_PARAM(walt_fold_test, walt_fold_gen_params),
	KUNIT_CASE_PARAM(walt_scale_test, walt_scale_gen_params),
	KUNIT_CASE_PARAM(walt_idle_test, walt_idle_gen_params),
	KUNIT_CASE_PARAM(walt_sync_test, walt_sync_gen_params),
	KUNIT_CASE_PARAM(walt_prev_at_test, walt_prev_at_gen_params),
	KUNIT_CASE_PARAM(walt_removed_test, walt_removed_gen_params),
	KUNIT_CASE_PARAM(walt_irq_test, walt_irq_gen_params),
	KUNIT_CASE_PARAM(walt_session_test, walt_session_gen_params),
	{}
};

static struct kunit_suite walt_rollover_test_suite = {
	.name = "sched_walt_rollover",
	.test_cases = walt_rollover_test_cases,
};

/*
 * sched_walt_migration: walt_depart() then walt_arrive() at the task's own
 * mark_start, in the window both CPUs are in: the share alone moves.
 */

struct walt_sums {
	u64 curr;
	u64 prev;
};

struct walt_transfer_case {
	const char *name;
	u32 curr;	/* the task's windows */
	u32 prev;
	struct walt_sums src, dst;
	struct walt_sums src_after, dst_after;
	bool clamped;
};

static const struct walt_transfer_case walt_transfer_cases[] = {
	{
		.name = "a move takes exactly the task's curr and prev along",
		.curr = MS(4), .prev = MS(9),
		.src = { MS(10), MS(15) }, .dst = { MS(3), MS(7) },
		.src_after = { MS(6), MS(6) }, .dst_after = { MS(7), MS(16) },
		.clamped = false,
	}, {
		.name = "moving the only task empties the source",
		.curr = MS(10), .prev = MS(15),
		.src = { MS(10), MS(15) }, .dst = { MS(3), MS(7) },
		.src_after = { 0, 0 }, .dst_after = { MS(13), MS(22) },
		.clamped = false,
	}, {
		.name = "a task with no prev window moves only its curr",
		.curr = MS(4), .prev = 0,
		.src = { MS(10), MS(15) }, .dst = { MS(3), MS(7) },
		.src_after = { MS(6), MS(15) }, .dst_after = { MS(7), MS(7) },
		.clamped = false,
	}, {
		.name = "a task that ran nothing moves nothing",
		.curr = 0, .prev = 0,
		.src = { MS(10), MS(15) }, .dst = { MS(3), MS(7) },
		.src_after = { MS(10), MS(15) }, .dst_after = { MS(3), MS(7) },
		.clamped = false,
	}, {
		.name = "a curr above the source's sum stops the source at 0",
		.curr = MS(12), .prev = MS(9),
		.src = { MS(10), MS(15) }, .dst = { MS(3), MS(7) },
		.src_after = { 0, MS(6) }, .dst_after = { MS(15), MS(16) },
		.clamped = true,
	}, {
		.name = "a prev above the source's sum stops the source at 0",
		.curr = MS(4), .prev = MS(20),
		.src = { MS(10), MS(15) }, .dst = { MS(3), MS(7) },
		.src_after = { MS(6), 0 }, .dst_after = { MS(7), MS(27) },
		.clamped = true,
	},
};

KUNIT_ARRAY_PARAM_DESC(walt_transfer, walt_transfer_cases, name);

static void walt_transfer_test(struct kunit *test)
{
	const struct walt_transfer_case *tc = test->param_value;
	struct walt_task_win t = {
		.mark_start = MS(1005),
		.curr_window = tc->curr,
		.prev_window = tc->prev,
	};
	struct walt_rq_win src = { MS(1000), tc->src.curr, tc->src.prev };
	struct walt_rq_win dst = { MS(1000), tc->dst.curr, tc->dst.prev };
	struct walt_ctx c = {
		.event = WALT_TASK_MIGRATE,
		.wallclock = t.mark_start,
		.window_size = WINDOW,
		.nr_hist = NR_HIST,
		.freq_scale = SCHED_CAPACITY_SCALE,
		.cpu_scale = SCHED_CAPACITY_SCALE,
	};
	bool clamped;

	clamped = walt_depart(&t, &src);
	walt_arrive(&t, &dst, &c);

	expect_u64(test, tc->name, "clamped", tc->clamped, clamped);
	expect_u64(test, tc->name, "src curr", tc->src_after.curr,
		   src.curr_runnable_sum);
	expect_u64(test, tc->name, "src prev", tc->src_after.prev,
		   src.prev_runnable_sum);
	expect_u64(test, tc->name, "dst curr", tc->dst_after.curr,
		   dst.curr_runnable_sum);
	expect_u64(test, tc->name, "dst prev", tc->dst_after.prev,
		   dst.prev_runnable_sum);
	expect_u64(test, tc->name, "task curr", tc->curr, t.curr_window);
	expect_u64(test, tc->name, "task prev", tc->prev, t.prev_window);

	/* Unless the source was short, busy time is only moved, never made. */
	if (tc->clamped)
		return;
	expect_u64(test, tc->name, "curr total", tc->src.curr + tc->dst.curr,
		   src.curr_runnable_sum + dst.curr_runnable_sum);
	expect_u64(test, tc->name, "prev total", tc->src.prev + tc->dst.prev,
		   src.prev_runnable_sum + dst.prev_runnable_sum);
}

/*
 * walt_arrive(): the destination half of a migration. The task left its
 * source with mark_start and windows as given; the destination's clock
 * reads .now at the arrival. Busy time in ms, windows of 20 ms.
 */
struct walt_arrive_case {
	const char *name;
	u64 now;
	struct walt_rq_win dst, dst_after;
	struct walt_task_win t, t_after;
};

#define WALT_T(mark, curr, prev) \
	{ .mark_start = MS(mark), .curr_window = MS(curr), .prev_window = MS(prev) }

static const struct walt_arrive_case walt_arrive_cases[] = {
	{
		.name = "an arrival in the destination's window adds the share",
		.now = MS(1026),
		.dst = WALT_RQ(1020, 6, 15), .dst_after = WALT_RQ(1020, 10, 24),
		.t = WALT_T(1022, 4, 9), .t_after = WALT_T(1026, 4, 9),
	}, {
		.name = "a destination in a later window rolls the task to it",
		.now = MS(1026),
		.dst = WALT_RQ(1020, 6, 15), .dst_after = WALT_RQ(1020, 6, 19),
		.t = WALT_T(1015, 4, 9), .t_after = WALT_T(1026, 0, 4),
	}, {
		.name = "a destination two windows on leaves the task no prev",
		.now = MS(1045),
		.dst = WALT_RQ(1040, 6, 0), .dst_after = WALT_RQ(1040, 6, 0),
		.t = WALT_T(1015, 4, 9), .t_after = WALT_T(1045, 0, 0),
	}, {
		.name = "a destination not rolled yet rolls, then the task",
		.now = MS(1030),
		.dst = WALT_RQ(1000, 10, 5), .dst_after = WALT_RQ(1020, 0, 14),
		.t = WALT_T(1015, 4, 9), .t_after = WALT_T(1030, 0, 4),
	}, {
		.name = "a destination clock behind the task's mark changes no window",
		.now = MS(1012),
		.dst = WALT_RQ(1000, 10, 5), .dst_after = WALT_RQ(1000, 14, 14),
		.t = WALT_T(1015, 4, 9), .t_after = WALT_T(1015, 4, 9),
	}, {
		.name = "a destination clock behind the task's boundary rolls to it",
		.now = MS(1018),
		.dst = WALT_RQ(1000, 10, 5), .dst_after = WALT_RQ(1020, 1, 22),
		.t = WALT_T(1021, 1, 12), .t_after = WALT_T(1021, 1, 12),
	},
};

KUNIT_ARRAY_PARAM_DESC(walt_arrive, walt_arrive_cases, name);

static void walt_arrive_test(struct kunit *test)
{
	const struct walt_arrive_case *tc = test->param_value;
	struct walt_ctx c = {
		.event = WALT_TASK_MIGRATE,
		.wallclock = tc->now,
		.window_size = WINDOW,
		.nr_hist = NR_HIST,
		.freq_scale = SCHED_CAPACITY_SCALE,
		.cpu_scale = SCHED_CAPACITY_SCALE,
	};
	struct walt_rq_win dst = tc->dst;
	struct walt_task_win t = tc->t;

	walt_arrive(&t, &dst, &c);

	expect_u64(test, tc->name, "dst window_start",
		   tc->dst_after.window_start, dst.window_start);
	expect_u64(test, tc->name, "dst curr", tc->dst_after.curr_runnable_sum,
		   dst.curr_runnable_sum);
	expect_u64(test, tc->name, "dst prev", tc->dst_after.prev_runnable_sum,
		   dst.prev_runnable_sum);
	expect_u64(test, tc->name, "task mark_start", tc->t_after.mark_start,
		   t.mark_start);
	expect_u64(test, tc->name, "task curr", tc->t_after.curr_window,
		   t.curr_window);
	expect_u64(test, tc->name, "task prev", tc->t_after.prev_window,
		   t.prev_window);
	/* The task's windows are the destination's: same window. */
	KUNIT_EXPECT_GE_MSG(test, t.mark_start, dst.window_start, "%s",
			    tc->name);
	KUNIT_EXPECT_LT_MSG(test, t.mark_start, dst.window_start + WINDOW,
			    "%s", tc->name);
}

static struct kunit_case walt_migration_test_cases[] = {
	KUNIT_CASE_PARAM(walt_transfer_test, walt_transfer_gen_params),
	KUNIT_CASE_PARAM(walt_arrive_test, walt_arrive_gen_params),
	{}
};

static struct kunit_suite walt_migration_test_suite = {
	.name = "sched_walt_migration",
	.test_cases = walt_migration_test_cases,
};

/*
 * sched_walt_demand: walt_task_demand() and walt_push_history()
 *
 * History values are scaled ns; small numbers keep the sums readable.
 */

struct walt_demand_case {
	const char *name;
	unsigned int n;
	u32 hist[WALT_HIST_MAX];
	u32 demand;
};

static const struct walt_demand_case walt_demand_cases[] = {
	{
		.name = "the newest window wins when above the average",
		.n = 5, .hist = { 14, 6, 6, 6, 8 }, .demand = 14,
	}, {
		.name = "the average wins when above the newest window",
		.n = 5, .hist = { 4, 10, 12, 10, 14 }, .demand = 10,
	}, {
		.name = "the average is rounded down",
		.n = 5, .hist = { 2, 4, 4, 4, 5 }, .demand = 3,
	}, {
		.name = "N = 1 is the newest window alone",
		.n = 1, .hist = { 5, 20, 20, 20, 20 }, .demand = 5,
	}, {
		.name = "an all-zero history has no demand",
		.n = 5, .hist = { 0 }, .demand = 0,
	}, {
		.name = "windows older than N do not count",
		.n = 5, .hist = { 6, 6, 6, 6, 6, 40, 40, 40 }, .demand = 6,
	}, {
		.name = "a young task's unfilled slots count as empty windows",
		.n = 5, .hist = { 2, 18, 0, 0, 0 }, .demand = 4,
	}, {
		.name = "N = 0 is taken as N = 1",
		.n = 0, .hist = { 5, 20, 20, 20, 20 }, .demand = 5,
	}, {
		.name = "N above WALT_HIST_MAX is taken as WALT_HIST_MAX",
		.n = 12, .hist = { 8, 8, 8, 8, 8, 8, 8, 16 }, .demand = 9,
	}, {
		.name = "N full u32 windows do not overflow the sum",
		.n = 5, .hist = { U32_MAX, U32_MAX, U32_MAX, U32_MAX, U32_MAX },
		.demand = U32_MAX,
	},
};

KUNIT_ARRAY_PARAM_DESC(walt_demand, walt_demand_cases, name);

static void walt_demand_test(struct kunit *test)
{
	const struct walt_demand_case *tc = test->param_value;

	expect_u64(test, tc->name, "demand", tc->demand,
		   walt_task_demand(tc->hist, tc->n));
}

struct walt_push_case {
	const char *name;
	unsigned int n;
	u32 hist[WALT_HIST_MAX];
	u32 runtime;
	u32 hist_after[WALT_HIST_MAX];
	u32 demand;
};

static const struct walt_push_case walt_push_cases[] = {
	{
		.name = "a push puts the new window first and shifts the rest",
		.n = 5, .hist = { 10, 10, 10, 10, 10 }, .runtime = 20,
		.hist_after = { 20, 10, 10, 10, 10, 10 }, .demand = 20,
	}, {
		.name = "the oldest window falls off the end",
		.n = 8, .hist = { 1, 2, 3, 4, 5, 6, 7, 8 }, .runtime = 9,
		.hist_after = { 9, 1, 2, 3, 4, 5, 6, 7 }, .demand = 9,
	}, {
		.name = "a first push makes the new window the demand",
		.n = 5, .hist = { 0 }, .runtime = 15,
		.hist_after = { 15 }, .demand = 15,
	}, {
		.name = "a light window lowers the demand only to the average",
		.n = 5, .hist = { 10, 10, 10, 10, 10 }, .runtime = 2,
		.hist_after = { 2, 10, 10, 10, 10, 10 }, .demand = 8,
	},
};

KUNIT_ARRAY_PARAM_DESC(walt_push, walt_push_cases, name);

static void walt_push_test(struct kunit *test)
{
	const struct walt_push_case *tc = test->param_value;
	struct walt_task_win t = { .mark_start = MS(1005) };
	unsigned int i;

	memcpy(t.hist, tc->hist, sizeof(t.hist));
	walt_push_history(&t, tc->runtime, tc->n);

	for (i = 0; i < WALT_HIST_MAX; i++)
		KUNIT_EXPECT_EQ_MSG(test, t.hist[i], tc->hist_after[i],
				    "%s: hist[%u] expected %u, seen %u",
				    tc->name, i, tc->hist_after[i], t.hist[i]);
	expect_u64(test, tc->name, "demand", tc->demand, t.demand);
}

/*
 * sched_walt_demand: walt_placed_demand(), what placement reads, with
 * Android's sched_walt_init_task_load_pct for a task without a sample (a
 * sample is a window the task ran in: never 0, so hist[0] is 0 only before
 * the first one, and the demand with it).
 */
struct walt_placed_case {
	const char *name;
	u32 newest, demand;
	unsigned int init_pct;
	u32 window;
	u32 placed;		/* hand-computed */
};

static const struct walt_placed_case walt_placed_cases[] = {
	{ "a new task weighs 15% of a 20 ms window", 0, 0, 15, MS(20), MS(3) },
	{ "15% of a 10 ms window", 0, 0, 15, MS(10), US(1500) },
	{ "33% of a 7 ms window", 0, 0, 33, MS(7), US(2310) },
	{ "0% leaves a new task weightless", 0, 0, 0, MS(20), 0 },
	{ "100% makes it a whole window", 0, 0, 100, MS(20), MS(20) },
	{ "a task with a sample keeps its demand", MS(5), MS(6), 15, MS(20), MS(6) },
	{ "even a demand below the initial load", US(100), US(100), 15, MS(20), US(100) },
	{ "a 1 ns sample counts", 1, 1, 100, MS(20), 1 },
};

KUNIT_ARRAY_PARAM_DESC(walt_placed, walt_placed_cases, name);

static void walt_placed_test(struct kunit *test)
{
	const struct walt_placed_case *tc = test->param_value;

	expect_u64(test, tc->name, "placed demand", tc->placed,
		   walt_placed_demand(tc->newest, tc->demand, tc->init_pct,
				      tc->window));
}

static struct kunit_case walt_demand_test_cases[] = {
	KUNIT_CASE_PARAM(walt_demand_test, walt_demand_gen_params),
	KUNIT_CASE_PARAM(walt_push_test, walt_push_gen_params),
	KUNIT_CASE_PARAM(walt_placed_test, walt_placed_gen_params),
	{}
};

static struct kunit_suite walt_demand_test_suite = {
	.name = "sched_walt_demand",
	.test_cases = walt_demand_test_cases,
};

/*
 * sched_walt_pred: predicted demand from busy buckets (walt_busy_bucket(),
 * walt_pred_update(), walt_pred_rise()), 20 ms windows (a tenth: 2 ms),
 * N = 5 unless a row says otherwise. Every expected value is worked out by
 * hand from the Android kernels' rules as walt_window.h states them.
 */
struct walt_bucket_case {
	const char *name;
	u32 busy, window;
	unsigned int bucket;
};

static const struct walt_bucket_case walt_bucket_cases[] = {
	{ "nothing falls in tenth 1, merged with 0", 0, WINDOW, 1 },
	{ "just under a tenth: tenth 1", US(1999), WINDOW, 1 },
	{ "just under two tenths: tenth 1", US(3999), WINDOW, 1 },
	{ "two tenths: tenth 2", MS(4), WINDOW, 2 },
	{ "11 ms: tenth 5", MS(11), WINDOW, 5 },
	{ "just under a window: tenth 9", US(19999), WINDOW, 9 },
	{ "a whole window: tenth 9", MS(20), WINDOW, 9 },
	{ "8 ms of a 16 ms window: tenth 5", MS(8), MS(16), 5 },
	{ "no overflow at U32_MAX", U32_MAX, MS(5), 9 },
};

KUNIT_ARRAY_PARAM_DESC(walt_bucket, walt_bucket_cases, name);

static void walt_bucket_test(struct kunit *test)
{
	const struct walt_bucket_case *tc = test->param_value;

	expect_u64(test, tc->name, "bucket", tc->bucket,
		   walt_busy_bucket(tc->busy, tc->window));
}

struct walt_pred_case {
	const char *name;
	unsigned int n;
	u8 counts[WALT_NR_BUCKETS];
	u32 hist[WALT_HIST_MAX];	/* with the window just ended first */
	u32 busy;			/* that window's busy time */
	u32 pred;
	u8 counts_after[WALT_NR_BUCKETS];
};

static const struct walt_pred_case walt_pred_cases[] = {
	{
		.name = "no count anywhere: the window just seen",
		.n = NR_HIST, .hist = { MS(7) }, .busy = MS(7),
		.pred = MS(7), .counts_after = { [3] = 8 },
	}, {
		.name = "its own tenth has a count: the newest window there",
		.n = NR_HIST, .counts = { [3] = 8 },
		.hist = { US(7500), US(6200) }, .busy = US(7500),
		.pred = US(7500), .counts_after = { [3] = 16 },
	}, {
		.name = "a higher tenth has a count: the newest window there",
		.n = NR_HIST, .counts = { [6] = 10 },
		.hist = { MS(5), US(12500), MS(13) }, .busy = MS(5),
		.pred = US(12500), .counts_after = { [2] = 8, [6] = 8 },
	}, {
		.name = "no window of the history in that tenth: its middle",
		.n = NR_HIST, .counts = { [6] = 2 },
		.hist = { MS(5), MS(3), MS(3), MS(3), MS(3) }, .busy = MS(5),
		.pred = MS(13), .counts_after = { [2] = 8 },
	}, {
		.name = "windows older than N are not searched",
		.n = 2, .counts = { [6] = 4 },
		.hist = { MS(5), MS(3), US(12500) }, .busy = MS(5),
		.pred = MS(13), .counts_after = { [2] = 8, [6] = 2 },
	}, {
		.name = "a lower tenth's count does not lower it",
		.n = NR_HIST, .counts = { [1] = 30 },
		.hist = { MS(9), MS(3) }, .busy = MS(9),
		.pred = MS(9), .counts_after = { [1] = 28, [4] = 8 },
	}, {
		.name = "a count of 16 grows by 16",
		.n = NR_HIST, .counts = { [4] = 16 },
		.hist = { MS(9) }, .busy = MS(9),
		.pred = MS(9), .counts_after = { [4] = 32 },
	}, {
		.name = "a count stops at 255",
		.n = NR_HIST, .counts = { [4] = 250 },
		.hist = { MS(9) }, .busy = MS(9),
		.pred = MS(9), .counts_after = { [4] = 255 },
	}, {
		.name = "the other counts fall by 2, not below 0",
		.n = NR_HIST, .counts = { [1] = 1, [2] = 2, [3] = 3 },
		.hist = { MS(19) }, .busy = MS(19),
		.pred = MS(19), .counts_after = { [3] = 1, [9] = 8 },
	}, {
		.name = "below two tenths: tenth 1, from 0",
		.n = NR_HIST, .counts = { [1] = 8 },
		.hist = { MS(1), US(3500) }, .busy = MS(1),
		.pred = MS(1), .counts_after = { [1] = 16 },
	}, {
		.name = "a whole window is predicted whole, not as its tenth's middle",
		.n = NR_HIST, .counts = { [9] = 8 },
		.hist = { MS(20) }, .busy = MS(20),
		.pred = MS(20), .counts_after = { [9] = 16 },
	},
};

KUNIT_ARRAY_PARAM_DESC(walt_pred, walt_pred_cases, name);

static void expect_counts(struct kunit *test, const char *name,
			  const u8 *expected, const u8 *seen)
{
	unsigned int i;

	for (i = 0; i < WALT_NR_BUCKETS; i++)
		KUNIT_EXPECT_EQ_MSG(test, seen[i], expected[i],
				    "%s: count[%u] expected %u, seen %u",
				    name, i, expected[i], seen[i]);
}

static void walt_pred_test(struct kunit *test)
{
	const struct walt_pred_case *tc = test->param_value;
	struct walt_task_win t = { };

	memcpy(t.busy_buckets, tc->counts, sizeof(t.busy_buckets));
	memcpy(t.hist, tc->hist, sizeof(t.hist));
	walt_pred_update(&t, tc->busy, WINDOW, tc->n);
	expect_u64(test, tc->name, "prediction", tc->pred, t.pred_demand);
	expect_counts(test, tc->name, tc->counts_after, t.busy_buckets);
}

struct walt_rise_case {
	const char *name;
	u8 counts[WALT_NR_BUCKETS];
	u32 hist[WALT_HIST_MAX];
	u32 pred, curr;
	u32 pred_after;
};

static const struct walt_rise_case walt_rise_cases[] = {
	{
		.name = "still within the prediction: unchanged",
		.counts = { [1] = 8 }, .hist = { MS(11) },
		.pred = MS(11), .curr = MS(5), .pred_after = MS(11),
	}, {
		.name = "past it: the next tenth with a count, its newest window",
		.counts = { [1] = 38, [5] = 4 },
		.hist = { MS(3), MS(3), MS(11), MS(3), MS(3) },
		.pred = MS(3), .curr = MS(5), .pred_after = MS(11),
	}, {
		.name = "past it, no higher count: what it ran so far",
		.counts = { [1] = 22 }, .hist = { MS(3), MS(3) },
		.pred = MS(3), .curr = MS(5), .pred_after = MS(5),
	}, {
		.name = "past it, a count but no window there: the tenth's middle",
		.counts = { [2] = 8 }, .hist = { MS(3), MS(3) },
		.pred = MS(3), .curr = US(4500), .pred_after = MS(5),
	}, {
		.name = "never lower than what it ran",
		.counts = { [2] = 8 }, .hist = { US(4100), MS(3) },
		.pred = MS(3), .curr = US(5900), .pred_after = US(5900),
	},
};

KUNIT_ARRAY_PARAM_DESC(walt_rise, walt_rise_cases, name);

static void walt_rise_test(struct kunit *test)
{
	const struct walt_rise_case *tc = test->param_value;
	struct walt_task_win t = {
		.pred_demand = tc->pred, .curr_window = tc->curr,
	};

	memcpy(t.busy_buckets, tc->counts, sizeof(t.busy_buckets));
	memcpy(t.hist, tc->hist, sizeof(t.hist));
	walt_pred_rise(&t, WINDOW, NR_HIST);
	expect_u64(test, tc->name, "prediction", tc->pred_after,
		   t.pred_demand);
}

/*
 * The worked example of walt_window.h, window by window through
 * walt_record_windows(), then the rise inside the next window.
 */
static void walt_pred_example_test(struct kunit *test)
{
	static const u32 busy[] = { MS(3), MS(3), MS(11), MS(3), MS(3) };
	static const u8 counts[WALT_NR_BUCKETS] = { [1] = 38, [5] = 4 };
	struct walt_task_win t = { };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(busy); i++)
		walt_record_windows(&t, busy[i], 1, NR_HIST, WINDOW);
	expect_u64(test, "example", "prediction", MS(3), t.pred_demand);
	expect_counts(test, "example", counts, t.busy_buckets);

	t.curr_window = MS(5);
	walt_pred_rise(&t, WINDOW, NR_HIST);
	expect_u64(test, "example", "prediction at 5 ms", MS(11),
		   t.pred_demand);
}

/*
 * Windows that a task spent blocked are not samples: they neither count
 * nor change the prediction. Three windows busy throughout count once.
 */
static void walt_pred_skip_test(struct kunit *test)
{
	static const u8 counts[WALT_NR_BUCKETS] = { [9] = 8 };
	struct walt_task_win t = { };

	walt_record_windows(&t, MS(20), 3, NR_HIST, WINDOW);
	walt_record_windows(&t, 0, 4, NR_HIST, WINDOW);
	expect_u64(test, "skip", "prediction", MS(20), t.pred_demand);
	expect_counts(test, "skip", counts, t.busy_buckets);
}

static struct kunit_case walt_pred_test_cases[] = {
	KUNIT_CASE_PARAM(walt_bucket_test, walt_bucket_gen_params),
	KUNIT_CASE_PARAM(walt_pred_test, walt_pred_gen_params),
	KUNIT_CASE_PARAM(walt_rise_test, walt_rise_gen_params),
	KUNIT_CASE(walt_pred_example_test),
	KUNIT_CASE(walt_pred_skip_test),
	{}
};

static struct kunit_suite walt_pred_test_suite = {
	.name = "sched_walt_pred",
	.test_cases = walt_pred_test_cases,
};

kunit_test_suites(&walt_rollover_test_suite, &walt_migration_test_suite,
		  &walt_demand_test_suite, &walt_pred_test_suite);

MODULE_DESCRIPTION("KUnit tests for the WALT window arithmetic");
MODULE_LICENSE("GPL");
