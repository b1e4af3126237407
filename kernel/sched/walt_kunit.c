// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for WALT on live runqueues: migration accounting with real
 * kthreads and migrations, switches between two tasks, and WALT as
 * schedutil's input.
 *
 * Tolerances: QEMU TCG runs 2 vCPUs on a loaded host, so a kthread pinned
 * to a CPU does not get the whole CPU (the KUnit thread, kworkers and
 * timers share it), and tasks that migrate in bring their windows along.
 * The tests therefore require only "more than half a window" of a
 * spinning kthread, and compare its share with what the other tasks leave
 * on a CPU, which is far smaller.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/mmu_context.h>
#include <linux/sched/clock.h>

#include "sched.h"
#include "sched_util_kunit.h"
#include "walt_window.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

struct util_case {
	const char *name;
	u64 sum;
	u32 window;
	unsigned long util;	/* hand-computed */
};

static const struct util_case util_cases[] = {
	{ "an empty window is 0", 0, 20000000, 0 },
	{ "a full 20 ms window is 1024", 20000000, 20000000, 1024 },
	{ "half a window is 512", 10000000, 20000000, 512 },
	{ "5 ms of 20 ms is 256", 5000000, 20000000, 256 },
	{ "1 ns rounds down to 0", 1, 20000000, 0 },
	{ "a full 1 s window is 1024", 1000000000, 1000000000, 1024 },
	{ "a full 5 ms window is 1024", 5000000, 5000000, 1024 },
	{ "3 ms of 7 ms is 438", 3000000, 7000000, 438 },
};

static void util_case_desc(const struct util_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(walt_util, util_cases, util_case_desc);

static void walt_util_test(struct kunit *test)
{
	const struct util_case *c = test->param_value;

	KUNIT_EXPECT_EQ_MSG(test, walt_util(c->sum, c->window), c->util,
			    "sum=%llu window=%u", c->sum, c->window);
}

static void walt_select_pelt(void *unused)
{
	sched_util_signal_select("pelt");
}

static int walt_test_init(struct kunit *test)
{
	int ret = sched_util_signal_select("walt");

	if (ret)
		return ret;
	return kunit_add_action_or_reset(test, walt_select_pelt, NULL);
}

struct walt_snap {
	struct walt_rq_win src, dst;
	struct walt_task_win t;
	bool in_transit;
};

/*
 * @cpu's sums as its next sync would leave them, without rolling them: the
 * shares of tasks that woke up elsewhere taken out. Its rq lock is held.
 */
static struct walt_rq_win walt_rq_settled(int cpu)
{
	struct walt_rq_win rw = *walt_rq_of(cpu);
	struct walt_share rm;

	walt_removed_read(cpu, &rm);
	walt_share_take(&rw, &rm, walt_window_size());
	return rw;
}

static void walt_snapshot(struct task_struct *k, int src, int dst,
			  struct walt_snap *s)
{
	guard(irqsave)();
	guard(double_rq_lock)(cpu_rq(src), cpu_rq(dst));
	s->src = walt_rq_settled(src);
	s->dst = walt_rq_settled(dst);
	s->t = k->walt.win;
	s->in_transit = k->walt.in_transit;
}

static u64 walt_window_start_of(int cpu)
{
	guard(rq_lock_irqsave)(cpu_rq(cpu));
	return walt_rq_of(cpu)->window_start;
}

/*
 * Both CPUs and the task describe the same window, and the migration
 * started inside it: the task's prev window then ran entirely on @src.
 */
static bool walt_snap_same_window(const struct walt_snap *s, u64 moved_at)
{
	u64 ws = s->dst.window_start;

	return s->src.window_start == ws && s->t.mark_start >= ws &&
	       moved_at >= ws;
}

#define WALT_BOUNDARY_LOG	16

/*
 * A spinner that blocks while @state is SPIN_BLOCK, and its log of the
 * window boundaries it saw: for the window @win[i] (an index on the
 * window grid), its run time at its last look before the window's start
 * and at its first look after it. A look takes a few us while it runs; a
 * boundary at which it was not running is seen at its next run.
 */
struct walt_boundary_log {
	atomic_t state;
	unsigned long win[WALT_BOUNDARY_LOG];	/* word-sized: acquired */
	u64 before[WALT_BOUNDARY_LOG], after[WALT_BOUNDARY_LOG];
};

static int walt_boundary_fn(void *arg)
{
	struct walt_boundary_log *log = arg;
	u32 window = walt_window_size();
	u64 ran = task_sched_runtime(current);
	u64 last = div_u64(local_clock(), window);

	while (!kthread_should_stop()) {
		u64 from = div_u64(local_clock(), window);
		u64 now_ran = task_sched_runtime(current);
		u64 w = div_u64(local_clock(), window);

		/*
		 * A run read between two clock reads in one window is one of
		 * that window; across a boundary (a vCPU that its host held
		 * between the reads, as often as not for a window) it fits
		 * neither end of a window: wait for the next look.
		 */
		if (w == from) {
			if (w != last) {
				unsigned int i = (u32)w % WALT_BOUNDARY_LOG;

				log->before[i] = ran;
				log->after[i] = now_ran;
				/* Pairs with walt_boundary_ran(). */
				smp_store_release(&log->win[i],
						  (unsigned long)w);
				last = w;
			}
			ran = now_ran;
		}
		if (atomic_read(&log->state) == SPIN_BLOCK) {
			set_current_state(TASK_INTERRUPTIBLE);
			if (!kthread_should_stop() &&
			    atomic_read(&log->state) == SPIN_BLOCK)
				schedule();
			__set_current_state(TASK_RUNNING);
			continue;
		}
		cpu_relax();
		cond_resched();
	}
	return 0;
}

/* Start a boundary spinner on @cpu; returned with a reference held. */
static struct task_struct *walt_boundary_spinner(struct kunit *test, int cpu,
						 struct walt_boundary_log **log)
{
	struct task_struct *k;

	*log = kunit_kzalloc(test, sizeof(**log), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *log);
	atomic_set(&(*log)->state, SPIN_RUN);
	k = kthread_create(walt_boundary_fn, *log, "walt_spin");
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	get_task_struct(k);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(k, cpumask_of(cpu)), 0);
	wake_up_process(k);
	return k;
}

/*
 * What the spinner ran in window @w at least: from its first look in it
 * to its last, both logged at the boundaries; 0 if either is missing.
 */
static u64 walt_boundary_ran(const struct walt_boundary_log *log, u64 w)
{
	unsigned int i = (u32)w % WALT_BOUNDARY_LOG;
	unsigned int j = (u32)(w + 1) % WALT_BOUNDARY_LOG;

	/* Pairs with walt_boundary_fn(): its runs are logged before @w. */
	if (smp_load_acquire(&log->win[i]) != (unsigned long)w)
		return 0;
	/* Likewise at the window's end. */
	if (smp_load_acquire(&log->win[j]) != (unsigned long)(w + 1))
		return 0;
	return log->before[j] > log->after[i] ?
	       log->before[j] - log->after[i] : 0;
}

/*
 * @ran: what the spinner ran in its prev window (walt_boundary_ran()),
 * more than 5/8 of it; @irq: the IRQ time on src meanwhile.
 */
static void walt_check_moved(struct kunit *test, const struct walt_snap *s,
			     u32 window, u64 ran, u64 irq)
{
	KUNIT_EXPECT_FALSE(test, s->in_transit);
	/*
	 * Its prev window holds what it ran there, less 1/64 for the
	 * clocks of two CPUs and the IRQ time: a fold of a running task
	 * takes all of the time since the boundary for the new window,
	 * IRQ time included, though its own clock leaves that out.
	 */
	KUNIT_EXPECT_GE_MSG(test, (u64)s->t.prev_window + window / 64 + irq, ran,
			    "task prev %u, it ran %llu of window %u (IRQ %llu)",
			    s->t.prev_window, ran, window, irq);
	/* Its share arrived at dst ... */
	KUNIT_EXPECT_GE_MSG(test, s->dst.prev_runnable_sum, (u64)s->t.prev_window,
			    "dst prev %llu task prev %u",
			    s->dst.prev_runnable_sum, s->t.prev_window);
	KUNIT_EXPECT_GE_MSG(test, s->dst.curr_runnable_sum, (u64)s->t.curr_window,
			    "dst curr %llu task curr %u",
			    s->dst.curr_runnable_sum, s->t.curr_window);
	/*
	 * ... and left src. What src keeps is what other tasks ran there
	 * (or brought along when they migrated in), which is not exactly
	 * known; but the spinner ran more than 5/8 of the window there, so
	 * the rest is below its share.
	 */
	KUNIT_EXPECT_LT_MSG(test, s->src.prev_runnable_sum, (u64)s->t.prev_window,
			    "src prev %llu task prev %u",
			    s->src.prev_runnable_sum, s->t.prev_window);
}

/*
 * Blocked in schedule(), not only about to: a task woken between
 * set_current_state() and schedule() is never dequeued, and one preempted
 * there is off its CPU but still queued. A delayed dequeue counts as
 * blocked, as it does for the hooks.
 */
static bool walt_blocked(struct task_struct *k)
{
	return !task_is_running(k) && !task_on_cpu(task_rq(k), k) &&
	       (!task_on_rq_queued(k) || READ_ONCE(k->se.sched_delayed));
}

static bool walt_queued(struct task_struct *k)
{
	return task_on_rq_queued(k);
}

/*
 * Wait up to 1 s for @done(@k). Sleep, not spin: on a kernel without
 * preemption a spinning waiter would keep @k off a shared CPU.
 */
static bool walt_wait(struct kunit *test, struct task_struct *k,
		      bool (*done)(struct task_struct *k))
{
	int i;

	for (i = 0; i < 5000; i++) {
		if (done(k))
			return true;
		usleep_range(100, 200);
	}
	return false;
}

/*
 * Spin on @from for 3 windows, migrate to @to by @how and snapshot; retry
 * when a window boundary fell between the migration and the snapshot, or
 * when the move itself took a quarter window or more: the spinner is off
 * its CPU from the moment it is preempted (or blocks) until it arrives,
 * and a vCPU that its host deschedules meanwhile leaves it there for
 * tens of ms (a whole window, seen in arm64 debug boots on a loaded
 * host), so that it did not spin through the previous window.
 */
enum walt_move { WALT_MOVE_RUNNING, WALT_MOVE_WAKEUP };

/* A spinner on @cpu, controlled through *@state; the caller stops it. */
static struct task_struct *walt_spinner(struct kunit *test, int cpu,
					atomic_t **state)
{
	struct task_struct *k;

	*state = kunit_kzalloc(test, sizeof(**state), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *state);
	k = sched_util_kunit_spinner(*state, cpumask_of(cpu), "walt_spin");
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	return k;
}

/* Block @k, which spins, and wait until it is off its CPU. */
static void walt_block(struct kunit *test, struct task_struct *k,
		       atomic_t *state)
{
	atomic_set(state, SPIN_BLOCK);
	KUNIT_ASSERT_TRUE(test, walt_wait(test, k, walt_blocked));
}

/* Wake @k, blocked, on @cpu: ttwu migrates it there. */
static void walt_wake_on(struct kunit *test, struct task_struct *k,
			 atomic_t *state, int cpu)
{
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(k, cpumask_of(cpu)), 0);
	atomic_set(state, SPIN_RUN);
	wake_up_process(k);
	KUNIT_ASSERT_TRUE(test, walt_wait(test, k, walt_queued));
}

static void walt_migration_case(struct kunit *test, enum walt_move how)
{
	u32 window = walt_window_size();
	struct walt_boundary_log *log;
	struct walt_snap s = { };
	struct task_struct *k;
	u64 took = 0, ran = 0, irq = 0;
	int attempt, from = 0, to = 1;
	bool done = false;

	k = walt_boundary_spinner(test, from, &log);

	/*
	 * A host, other tasks or this thread can take a window from the
	 * spinner: try again until it ran more than 5/8 of the one before
	 * the migration, which it spent all of on src. A host busy with other
	 * work deschedules a vCPU for tens of ms and spoils a try, and ten
	 * tries were not always enough there: forty.
	 */
	for (attempt = 0; attempt < 40 && !done; attempt++) {
		u64 moved_at;

		irq = sched_util_kunit_irq_time(from);
		msleep(3 * window / NSEC_PER_MSEC);
		moved_at = local_clock();
		if (how == WALT_MOVE_WAKEUP) {
			walt_block(test, k, &log->state);
			moved_at = local_clock();
			walt_wake_on(test, k, &log->state, to);
		} else {
			KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(k, cpumask_of(to)), 0);
		}
		took = local_clock() - moved_at;
		walt_snapshot(k, from, to, &s);
		irq = sched_util_kunit_irq_time(from) - irq;
		ran = walt_boundary_ran(log, div_u64(s.dst.window_start, window) - 1);
		done = walt_snap_same_window(&s, moved_at) && took < window / 4 &&
		       ran > div_u64(5ULL * window, 8);
		swap(from, to);
	}
	sched_util_kunit_spinner_stop(k);

	KUNIT_ASSERT_TRUE_MSG(test, done,
			      "no quick migration within one window after 5/8 of one spun in %d tries (last took %llu ns, ran %llu)",
			      attempt, took, ran);
	kunit_info(test, "a quick migration in try %d", attempt);
	walt_check_moved(test, &s, window, ran, irq);
}

static void walt_migration_running_test(struct kunit *test)
{
	walt_migration_case(test, WALT_MOVE_RUNNING);
}

static void walt_migration_wakeup_test(struct kunit *test)
{
	walt_migration_case(test, WALT_MOVE_WAKEUP);
}

#ifdef CONFIG_SCHED_DEBUG
/*
 * The scheduler's WARN_DOUBLE_CLOCK feature, set as a write to
 * /sys/kernel/debug/sched/features sets it (sched_feat_set()).
 */
static void walt_warn_double_clock(bool on)
{
	unsigned int bit = 1U << __SCHED_FEAT_WARN_DOUBLE_CLOCK;

	if (on)
		sysctl_sched_features |= bit;
	else
		sysctl_sched_features &= ~bit;
#ifdef CONFIG_JUMP_LABEL
	if (on)
		static_key_enable(&sched_feat_keys[__SCHED_FEAT_WARN_DOUBLE_CLOCK]);
	else
		static_key_disable(&sched_feat_keys[__SCHED_FEAT_WARN_DOUBLE_CLOCK]);
#endif
}

static void walt_warn_double_clock_off(void *unused)
{
	walt_warn_double_clock(false);
}

/*
 * An arrival after a migration is accounted under the clock update that
 * enqueues the task, never one of its own: with WARN_DOUBLE_CLOCK on, a
 * spinner whose affinity moves it between CPUs 0 and 1 (while queued or
 * running: move_queued_task() activates it with no ENQUEUE_NOCLOCK)
 * must not update an rq clock twice under one rq lock. The warning
 * taints the kernel; nothing before the test may have.
 */
static void walt_double_clock_test(struct kunit *test)
{
	struct task_struct *k;
	atomic_t state;
	int i, ret;

	KUNIT_ASSERT_FALSE_MSG(test, test_taint(TAINT_WARN),
			       "a warning before the test");
	walt_warn_double_clock(true);
	ret = kunit_add_action_or_reset(test, walt_warn_double_clock_off, NULL);
	KUNIT_ASSERT_EQ(test, ret, 0);
	k = sched_util_kunit_spinner(&state, cpumask_of(0), "walt_clock");
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	for (i = 1; i <= 40; i++) {
		KUNIT_EXPECT_EQ(test, set_cpus_allowed_ptr(k, cpumask_of(i & 1)), 0);
		usleep_range(500, 1000);
	}
	sched_util_kunit_spinner_stop(k);
	KUNIT_EXPECT_FALSE_MSG(test, test_taint(TAINT_WARN),
			       "an rq clock was updated twice (WARN_DOUBLE_CLOCK)");
}
#endif

/*
 * A task asleep across a restart keeps its state of the earlier tracking
 * session (walt_start() does not walk the tasks), and so does one that
 * release_task() unhashed, which still runs its exit path and may be
 * preempted there or sleep (an allocation in proc_exit_connector()) and
 * be woken on another CPU: its first event of the new session is then a
 * wake-up migration. Made here with a real leftover: the spinner's own
 * state, saved while it is blocked and written back after the session
 * restarts (a no-op unless something touched it); it wakes on @to inside
 * the session's first window. The session is one of side-by-side tracking, restarted
 * with sched_util_signal_track(): a selection of WALT returns only after
 * its warm-up, two windows into the session.
 *
 * Only a task off its CPU is given the leftover: a task that runs while
 * walt_start() clears every CPU's walt_lazy_until is folded, and so
 * forgotten, before any switch away from it can be lazy. Writing a
 * leftover into a running task behind a nonzero walt_lazy_until is a
 * state no kernel reaches (it made walt_check_lazy() warn; sched-walt.rst).
 *
 * Forgotten, the leftover leaves nothing: no demand (the earlier session's
 * windows in its history), no prev window in the task or on either CPU
 * (the session's first window has an empty prev everywhere, and the task
 * slept through it).
 */
static void walt_untrack(void *unused)
{
	sched_util_signal_track(&walt_signal, false);
}

static void walt_stale_task_test(struct kunit *test)
{
	u32 window = walt_window_size();
	struct walt_task saved = { };
	struct walt_snap s = { };
	struct task_struct *k;
	u64 start = 0, now;
	atomic_t *state;
	int attempt, from = 0, to = 1;
	bool done = false;

	KUNIT_ASSERT_EQ(test, sched_util_signal_select("pelt"), 0);
	KUNIT_ASSERT_EQ(test, sched_util_signal_track(&walt_signal, true), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, walt_untrack,
							NULL), 0);
	k = walt_spinner(test, from, &state);

	for (attempt = 0; attempt < 10 && !done; attempt++) {
		msleep(3 * window / NSEC_PER_MSEC);
		walt_block(test, k, state);
		scoped_guard (task_rq_lock, k)
			saved = k->walt;
		sched_util_signal_track(&walt_signal, false);
		KUNIT_ASSERT_EQ(test,
				sched_util_signal_track(&walt_signal, true), 0);
		scoped_guard (task_rq_lock, k)
			k->walt = saved;
		/* The session's first window starts at its CPUs' window_start. */
		start = walt_window_start_of(to);
		now = local_clock();
		if (now < start)
			usleep_range(div_u64(start - now, NSEC_PER_USEC) + 100,
				     div_u64(start - now, NSEC_PER_USEC) + 200);
		walt_wake_on(test, k, state, to);
		walt_snapshot(k, from, to, &s);
		/*
		 * A leftover with a demand to forget: a host that stalls
		 * the spinner's vCPU in an IRQ can leave it none (see
		 * sched_util_kunit_irq_time()); the next attempt spins again.
		 */
		done = s.src.window_start == start && s.dst.window_start == start &&
		       saved.win.demand > window / 4;
		swap(from, to);
	}
	sched_util_kunit_spinner_stop(k);

	KUNIT_ASSERT_TRUE_MSG(test, done,
			      "no leftover with a demand woken in a session's first window in 10 tries (last demand %u)",
			      saved.win.demand);
	/* A real leftover: from before the session. */
	KUNIT_EXPECT_LT_MSG(test, saved.win.mark_start, start,
			    "leftover mark %llu session start %llu",
			    saved.win.mark_start, start);
	/* Forgotten at the migration, its first event. */
	KUNIT_EXPECT_FALSE(test, s.in_transit);
	KUNIT_EXPECT_GE_MSG(test, s.t.mark_start, start, "mark %llu session start %llu",
			    s.t.mark_start, start);
	KUNIT_EXPECT_EQ_MSG(test, s.t.demand, 0U, "leftover demand %u",
			    saved.win.demand);
	KUNIT_EXPECT_EQ_MSG(test, s.t.prev_window, 0U, "leftover prev %u curr %u",
			    saved.win.prev_window, saved.win.curr_window);
	KUNIT_EXPECT_EQ(test, s.src.prev_runnable_sum, 0ULL);
	KUNIT_EXPECT_EQ_MSG(test, s.dst.prev_runnable_sum, 0ULL,
			    "leftover prev %u curr %u", saved.win.prev_window,
			    saved.win.curr_window);
}

/*
 * walt_start() leaves the tasks alone: a task asleep across a restart
 * keeps its state of the earlier session, for which WALT reports no
 * demand, until its first event of the new one forgets it. The session
 * it then runs in is ended before its first boundary, so that the task's
 * mark is that boundary: the next session must start a window later, or
 * the mark would lie in its first window, where a switch could pick the
 * task without folding it, and so without forgetting it.
 *
 * That takes a wake-up, a block and a restart inside 10 ms, which a host
 * holding the vCPU can spoil (12.5 ms once in an arm64 debug boot): the
 * sessions are set up again until the restart comes before the boundary,
 * up to 10 times.
 */
static bool walt_restart_before_first(struct kunit *test, struct task_struct *k,
				      atomic_t *state, u64 *first,
				      struct walt_task *saved)
{
	int attempt;

	/* A session with 10 ms to go before its first boundary. */
	for (attempt = 0; attempt < 10; attempt++) {
		sched_util_signal_track(&walt_signal, false);
		KUNIT_ASSERT_EQ(test,
				sched_util_signal_track(&walt_signal, true), 0);
		*first = walt_window_start_of(1);
		if (*first > local_clock() + 10 * NSEC_PER_MSEC)
			break;
	}
	/* One run in the session: forgotten, then marked on its boundary. */
	walt_wake_on(test, k, state, 1);
	walt_block(test, k, state);
	scoped_guard (task_rq_lock, k)
		memcpy(saved, &k->walt, sizeof(*saved));
	sched_util_signal_track(&walt_signal, false);
	KUNIT_ASSERT_EQ(test, sched_util_signal_track(&walt_signal, true), 0);
	return local_clock() < *first;
}

static void walt_restart_sleeper_test(struct kunit *test)
{
	u32 window = walt_window_size();
	struct walt_task saved;
	struct task_struct *k;
	atomic_t *state;
	u64 first = 0;
	int attempt;

	k = walt_spinner(test, 1, &state);
	msleep(3 * window / NSEC_PER_MSEC);
	walt_block(test, k, state);
	scoped_guard (task_rq_lock, k)
		saved = k->walt;
	KUNIT_ASSERT_GT(test, saved.win.demand, 0U);

	KUNIT_ASSERT_EQ(test, sched_util_signal_select("pelt"), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, walt_untrack,
							NULL), 0);
	KUNIT_ASSERT_EQ(test, sched_util_signal_track(&walt_signal, true), 0);
	scoped_guard (task_rq_lock, k)
		KUNIT_EXPECT_MEMEQ_MSG(test, &k->walt, &saved, sizeof(saved),
				       "a task asleep was touched");
	/* A leftover weighs as a new task: the initial load, 15% by default. */
	KUNIT_EXPECT_EQ_MSG(test, walt_signal.task_util(k),
			    walt_util(walt_placed_demand(0, 0, 15, window), window),
			    "leftover demand %u", saved.win.demand);

	for (attempt = 0; attempt < 10; attempt++)
		if (walt_restart_before_first(test, k, state, &first, &saved))
			break;
	KUNIT_ASSERT_LT_MSG(test, attempt, 10,
			    "every session reached its first boundary");
	KUNIT_EXPECT_EQ(test, saved.win.demand, 0U);
	KUNIT_EXPECT_EQ(test, saved.win.mark_start, first);
	KUNIT_EXPECT_EQ(test, walt_window_start_of(1), first + window);
	walt_wake_on(test, k, state, 1);
	walt_block(test, k, state);
	scoped_guard (task_rq_lock, k)
		KUNIT_EXPECT_GE_MSG(test, k->walt.win.mark_start, first + window,
				    "the mark of the session before was kept");
	sched_util_kunit_spinner_stop(k);
}

#define WALT_INPUT_READS	8

/*
 * With walt selected, schedutil's input is WALT's CPU utilization, on
 * every CPU. CPU 1 runs a spinner, so that one of the values compared is
 * large: WALT's value of CPU 1 holds at least what the spinner ran in the
 * window it reports, as the spinner's own log of the window's boundaries
 * bounds that from below, less 1/64 (the clocks of two CPUs). Not more:
 * a task that ran on CPU 1 and left took its share of CPU 1's windows
 * along (walt_depart()). And not always most of the window: such tasks,
 * or IRQ time that a stalled host inflates, can take a window from the
 * spinner (in one of 40 debug boots CPU 1 read 236, where the suite then
 * expected more than half a window without asking what the spinner had
 * run). Up to WALT_INPUT_READS windows are read, until the spinner has
 * run more than half of one.
 */
static void walt_schedutil_input_test(struct kunit *test)
{
	u32 window = walt_window_size();
	struct walt_boundary_log *log;
	struct rq *rq1 = cpu_rq(1);
	unsigned long best = 0;
	struct task_struct *k;
	int cpu, i;

	/* Off the spinner's CPU, where this thread's run time would compete. */
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(0)), 0);
	k = walt_boundary_spinner(test, 1, &log);
	msleep(3 * window / NSEC_PER_MSEC);

	for_each_online_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);
		unsigned long walt, sig, again;
		struct rq_flags rf;
		int tries = 0;

		/*
		 * The rq lock stops the sums, not the clock: an idle CPU's
		 * value is read rolled to now and changes at a window
		 * boundary. Compare only reads that no boundary separates.
		 */
		do {
			rq_lock_irqsave(rq, &rf);
			walt = walt_cpu_util(cpu);
			sig = sched_util_cpu_util(cpu);
			again = walt_cpu_util(cpu);
			rq_unlock_irqrestore(rq, &rf);
		} while (walt != again && ++tries < 10);
		KUNIT_EXPECT_EQ_MSG(test, walt, again, "cpu %d: never stable", cpu);
		KUNIT_EXPECT_EQ_MSG(test, sig, walt, "cpu %d", cpu);
	}

	for (i = 0; i < WALT_INPUT_READS && best <= SCHED_CAPACITY_SCALE / 2;
	     i++) {
		unsigned long walt, ran;
		u64 w = 0, start, now;

		if (i)
			msleep(window / NSEC_PER_MSEC);
		/* The window walt_cpu_util() reports: the last complete one. */
		scoped_guard (rq_lock_irqsave, rq1) {
			start = walt_rq_of(1)->window_start;
			now = local_clock();
			walt = walt_cpu_util(1);
			if (walt == walt_cpu_util(1) && now >= start &&
			    div_u64(now, window) == div_u64(local_clock(), window))
				w = div_u64(now, window) - 1;
		}
		if (!w)
			continue;
		/* The spinner logs the window's end at its next look. */
		usleep_range(2000, 2100);
		ran = walt_util(walt_boundary_ran(log, w), window);
		best = max(best, ran);
		KUNIT_EXPECT_GE_MSG(test, walt + SCHED_CAPACITY_SCALE / 64, ran,
				    "read %d: CPU 1 %lu, the spinner ran %lu of the window",
				    i, walt, ran);
	}
	KUNIT_EXPECT_GT_MSG(test, best, SCHED_CAPACITY_SCALE / 2,
			    "the spinner ran at most %lu of each of %d windows",
			    best, i);
	sched_util_kunit_spinner_stop(k);
}

/*
 * A switch from PELT to WALT keeps schedutil's input continuous: on a CPU
 * that a spinner keeps busy, WALT's value is a full window as soon as the
 * selection returns. Without the warm-up, WALT's sums are those of a
 * fresh start, and a busy CPU reads as idle for a window or two.
 */
static void walt_select_continuous_test(struct kunit *test)
{
	u32 window = walt_window_size();
	unsigned long full, util;
	struct task_struct *k;
	atomic_t *state;

	state = kunit_kzalloc(test, sizeof(*state), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, state);
	KUNIT_ASSERT_EQ(test, sched_util_signal_select("pelt"), 0);
	k = sched_util_kunit_spinner(state, cpumask_of(1), "walt_spin");
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	/* PELT's value of the CPU is then near full too. */
	msleep(200);

	KUNIT_EXPECT_EQ(test, sched_util_signal_select("walt"), 0);
	util = sched_util_cpu_util(1);
	sched_util_kunit_spinner_stop(k);

	full = walt_util(walt_scale_exec(window, arch_scale_freq_capacity(1),
					 arch_scale_cpu_capacity(1)), window);
	KUNIT_EXPECT_GE_MSG(test, util, full - full / 8,
			    "right after the switch, full %lu", full);
}

/*
 * A CPU that runs a task throughout reads as busy at every moment,
 * rollovers included. CPU 0 reads CPU 1's value in a loop for 10 windows
 * while a spinner keeps CPU 1 busy, once the spinner has filled a window:
 * no read may fall below 7/8 of a full window. Read field by field, a
 * read straddling a rollover could take the old window_start with the
 * new, empty curr sum and see ~0, a 32-bit CPU could tear window_start,
 * and a CPU whose tick came more than a window late read as idle.
 */
static void walt_read_rollover_test(struct kunit *test)
{
	u32 window = walt_window_size();
	unsigned long full, low = ULONG_MAX;
	struct task_struct *k;
	unsigned int reads = 0;
	atomic_t *state;
	u64 end;

	state = kunit_kzalloc(test, sizeof(*state), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, state);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(0)), 0);
	k = sched_util_kunit_spinner(state, cpumask_of(1), "walt_spin");
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	msleep(3 * window / NSEC_PER_MSEC);

	end = local_clock() + 10ULL * window;
	while (local_clock() < end) {
		low = min(low, walt_cpu_util(1));
		reads++;
		cond_resched();
	}
	sched_util_kunit_spinner_stop(k);

	full = walt_util(walt_scale_exec(window, arch_scale_freq_capacity(1),
					 arch_scale_cpu_capacity(1)), window);
	KUNIT_EXPECT_GE_MSG(test, low, full - full / 8,
			    "the lowest of %u reads, full %lu", reads, full);
}

/*
 * Snapshot @cpu's sums and the windows of its @n tasks @k under its rq
 * lock, retrying for up to ~20 ms until every task has been accounted in
 * the CPU's current window, so that their prev is the CPU's prev. Returns
 * whether that happened.
 */
static bool walt_snap_cpu_window(int cpu, struct task_struct **k, int n,
				 struct walt_task_win *tw,
				 struct walt_rq_win *rw)
{
	int attempt, i;

	for (attempt = 0; attempt < 10; attempt++) {
		struct rq *rq = cpu_rq(cpu);
		struct rq_flags rf;
		bool same = true;

		if (attempt)
			usleep_range(1000, 2000);
		rq_lock_irqsave(rq, &rf);
		*rw = walt_rq_settled(cpu);
		for (i = 0; i < n; i++)
			tw[i] = k[i]->walt.win;
		rq_unlock_irqrestore(rq, &rf);
		for (i = 0; i < n; i++)
			same &= tw[i].mark_start >= rw->window_start;
		if (same)
			return true;
	}
	return false;
}

/*
 * Two kthreads bound to one CPU hand it to each other every 200 us, far
 * more often than the tick, so nearly all their switches take
 * walt_switch()'s fast path, which charges nothing: their time reaches
 * their windows only through the folds of their run time, and the CPU's
 * sums only through the ticks' charges.
 */
#define WALT_PP_SLICE_NS	(200 * NSEC_PER_USEC)

struct walt_pp {
	struct completion go[2];
	bool stop;
};

struct walt_pp_thread {
	struct walt_pp *pp;
	int me;
};

static int walt_pp_fn(void *arg)
{
	struct walt_pp_thread *t = arg;
	struct walt_pp *pp = t->pp;

	while (!READ_ONCE(pp->stop)) {
		u64 end;

		wait_for_completion(&pp->go[t->me]);
		end = local_clock() + WALT_PP_SLICE_NS;
		while (local_clock() < end && !READ_ONCE(pp->stop))
			cpu_relax();
		complete(&pp->go[!t->me]);
	}
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/*
 * Per window, the busy time charged to the two tasks is part of the CPU's
 * sum (what other tasks ran there is small next to it) and the CPU's sum
 * is at most one window: folding a task's run into the wrong window, or
 * charging the CPU twice or not at all, breaks one or the other.
 * Compared in the same scale: the CPU's own frequency and capacity.
 */
static void walt_switch_accounting_test(struct kunit *test)
{
	u32 window = walt_window_size();
	struct walt_pp_thread *t;
	struct task_struct *k[2];
	struct walt_task_win tw[2];
	struct walt_rq_win rw;
	struct walt_pp *pp;
	u64 full, tasks, irq;
	int cpu = 1, i;
	bool same;

	pp = kunit_kzalloc(test, sizeof(*pp), GFP_KERNEL);
	t = kunit_kcalloc(test, 2, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pp);
	KUNIT_ASSERT_NOT_NULL(test, t);
	for (i = 0; i < 2; i++) {
		init_completion(&pp->go[i]);
		t[i] = (struct walt_pp_thread) { .pp = pp, .me = i };
		k[i] = kthread_create(walt_pp_fn, &t[i], "walt_pp%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(k[i]));
		get_task_struct(k[i]);
		kthread_bind(k[i], cpu);
		wake_up_process(k[i]);
	}
	complete(&pp->go[0]);

	irq = sched_util_kunit_irq_time(cpu);
	msleep(3 * window / NSEC_PER_MSEC);
	same = walt_snap_cpu_window(cpu, k, 2, tw, &rw);
	irq = sched_util_kunit_irq_time(cpu) - irq;

	WRITE_ONCE(pp->stop, true);
	complete(&pp->go[0]);
	complete(&pp->go[1]);
	for (i = 0; i < 2; i++) {
		kthread_stop(k[i]);
		put_task_struct(k[i]);
	}

	KUNIT_ASSERT_TRUE_MSG(test, same, "the tasks never shared the CPU's window");
	full = walt_scale_exec(window, arch_scale_freq_capacity(cpu),
			       arch_scale_cpu_capacity(cpu));
	tasks = (u64)tw[0].prev_window + tw[1].prev_window;
	KUNIT_EXPECT_LE_MSG(test, rw.prev_runnable_sum, full,
			    "cpu prev %llu, one window %llu",
			    rw.prev_runnable_sum, full);
	KUNIT_EXPECT_GT_MSG(test, rw.prev_runnable_sum, full >> 1,
			    "cpu prev %llu, one window %llu",
			    rw.prev_runnable_sum, full);
	KUNIT_EXPECT_LE_MSG(test, tasks, rw.prev_runnable_sum,
			    "tasks %u + %u, cpu prev %llu", tw[0].prev_window,
			    tw[1].prev_window, rw.prev_runnable_sum);
	/* The CPU's sum also holds the IRQ time that interrupted them. */
	KUNIT_EXPECT_GE_MSG(test, tasks + irq, rw.prev_runnable_sum -
			    (rw.prev_runnable_sum >> 2),
			    "tasks %u + %u, cpu prev %llu, irq %llu",
			    tw[0].prev_window, tw[1].prev_window,
			    rw.prev_runnable_sum, irq);
}

/*
 * A task that runs 4 ms and sleeps 6 ms, alone on its CPU but for short
 * kernel work: WALT charges the CPU's time as busy exactly while a task
 * runs there, from its switches to and from idle, and the task its own run
 * time. The task logs when it spun; what of that falls in the CPU's last
 * complete window is the truth both sums are held to. Charging idle time
 * as busy, or missing a switch, is off by a window or by a whole spin.
 * Tolerance: the log misses the task's way into and out of each sleep
 * (timer set-up, switches: on TCG arm64 up to 1.5 ms per window) and
 * holds what preempted it mid-spin (kworkers, timers): the task's window
 * from 2 ms below its log to 5 ms above, the CPU's from 1 ms below to
 * 5 ms above. Counting idle as busy still fails: spins 10 ms apart log
 * at most 8 ms of a 20 ms window. The log also holds the IRQ time that
 * interrupted the spins, and the CPU's sum the IRQ time that interrupted
 * idle: both allow for the CPU's IRQ time during the test
 * (sched_util_kunit_irq_time()). No QEMU guest scales busy time (no
 * frequency invariance, symmetric CPUs); where a CPU does, the log cannot
 * be compared.
 */
#define WALT_DUTY_LOG	64

struct walt_duty {
	bool stop;
	unsigned int n;
	u64 spin[WALT_DUTY_LOG][2];	/* [start, end) of the last spins */
};

static int walt_duty_fn(void *arg)
{
	struct walt_duty *d = arg;

	while (!READ_ONCE(d->stop)) {
		u64 *spin = d->spin[d->n++ % WALT_DUTY_LOG];

		spin[0] = local_clock();
		do {
			cpu_relax();
			spin[1] = local_clock();
		} while (spin[1] < spin[0] + 4 * NSEC_PER_MSEC);
		usleep_range(6000, 6100);
	}
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/* What of the logged spins lies in [@from, @to). */
static u64 walt_duty_spun(const struct walt_duty *d, u64 from, u64 to)
{
	unsigned int i;
	u64 sum = 0;

	for (i = 0; i < min(d->n, WALT_DUTY_LOG); i++) {
		u64 start = max(d->spin[i][0], from);
		u64 end = min(d->spin[i][1], to);

		sum += end > start ? end - start : 0;
	}
	return sum;
}

static void walt_duty_test(struct kunit *test)
{
	u32 window = walt_window_size();
	struct walt_task_win tw;
	struct walt_rq_win rw;
	struct task_struct *k;
	struct walt_duty *d;
	int cpu = 1;
	u64 spun, irq;
	int tries;
	bool same;

	d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d);
	k = kthread_create(walt_duty_fn, d, "walt_duty");
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	get_task_struct(k);
	kthread_bind(k, cpu);
	irq = sched_util_kunit_irq_time(cpu);
	wake_up_process(k);

	msleep(4 * window / NSEC_PER_MSEC);
	/*
	 * Without high-resolution timers (arm, HZ=100) the 6 ms sleep lasts
	 * 10 to 20 ms, and a window can hold only the tail of one spin (1.3
	 * ms once): snapshot again a window later, up to 5 times, until the
	 * window holds a tenth of a window of spins. So too when the
	 * snapshot found the task not yet accounted in the CPU's window: a
	 * task that sleeps as long as a window may run late in each, after
	 * all ten of walt_snap_cpu_window()'s tries. The
	 * log's finished entries are stable while the task runs; the one it
	 * is writing has an end before its start and counts for nothing.
	 */
	for (tries = 0; ; tries++) {
		same = walt_snap_cpu_window(cpu, &k, 1, &tw, &rw);
		if (tries == 5 ||
		    (same && walt_duty_spun(d, rw.window_start - window,
					    rw.window_start) > window / 10))
			break;
		msleep(window / NSEC_PER_MSEC);
	}
	irq = sched_util_kunit_irq_time(cpu) - irq;
	WRITE_ONCE(d->stop, true);
	kthread_stop(k);
	put_task_struct(k);

	KUNIT_ASSERT_TRUE_MSG(test, same, "the task never reached the CPU's window");
	/* The log is in ns at whatever frequency ran: compare unscaled. */
	if (arch_scale_freq_capacity(cpu) != SCHED_CAPACITY_SCALE ||
	    arch_scale_cpu_capacity(cpu) != SCHED_CAPACITY_SCALE)
		kunit_skip(test, "CPU %d scales busy time (frequency or capacity)",
			   cpu);
	spun = walt_duty_spun(d, rw.window_start - window, rw.window_start);
	KUNIT_EXPECT_GT_MSG(test, spun, (u64)(window / 10), "spun %llu", spun);
	KUNIT_EXPECT_GE_MSG(test, (u64)tw.prev_window + 2 * NSEC_PER_MSEC + irq,
			    spun, "task prev %u, spun %llu, irq %llu",
			    tw.prev_window, spun, irq);
	KUNIT_EXPECT_LE_MSG(test, (u64)tw.prev_window, spun + 5 * NSEC_PER_MSEC,
			    "task prev %u, spun %llu", tw.prev_window, spun);
	KUNIT_EXPECT_GE_MSG(test, rw.prev_runnable_sum + NSEC_PER_MSEC, spun,
			    "cpu prev %llu, spun %llu", rw.prev_runnable_sum,
			    spun);
	KUNIT_EXPECT_LE_MSG(test, rw.prev_runnable_sum,
			    spun + 5 * NSEC_PER_MSEC + irq,
			    "cpu prev %llu, spun %llu, irq %llu",
			    rw.prev_runnable_sum, spun, irq);
}

#ifdef CONFIG_CPU_FREQ
/*
 * Windows by number (sched_clock / window size, WALT's grid), in a ring
 * of WALT_RING entries: a case looks at no more windows than that.
 */
#define WALT_RING	64

/* What the cpufreq hook of @cpu saw; callers hold @cpu's rq->lock. */
struct walt_freq_probe {
	struct update_util_data hook;
	int cpu;
	u64 first, last;		/* window at the first and last call */
	u64 seen[WALT_RING];		/* windows it was called in */
};

static void walt_freq_probe_hook(struct update_util_data *data, u64 time,
				 unsigned int flags)
{
	struct walt_freq_probe *p = container_of(data, struct walt_freq_probe,
						 hook);
	u64 w = div_u64(walt_rq_of(p->cpu)->window_start, walt_window_size());

	if (!p->first)
		p->first = w;
	p->last = w;
	p->seen[(u32)w % WALT_RING] = w;
}

/*
 * A SCHED_FIFO spinner that logs the windows in which its CPU ticked: the
 * tick brings its run time up to date (task_tick_rt()), and nothing else
 * does while it spins alone. A change seen within 1 ms of the previous
 * read, in the same window, is a tick in that window. Running is not
 * enough: under single-threaded TCG on a loaded host the vCPU can run
 * for windows while QEMU's timer thread, which raises the tick, does not
 * (four whole windows without a tick in a debug run).
 */
struct walt_tick_log {
	u64 win[WALT_RING];	/* windows in which a tick was seen */
};

static int walt_tick_fn(void *arg)
{
	struct walt_tick_log *l = arg;
	u32 window = walt_window_size();
	u64 prev = local_clock();
	u64 runtime = READ_ONCE(current->se.sum_exec_runtime);

	while (!kthread_should_stop()) {
		u64 now = local_clock();
		u64 rt = READ_ONCE(current->se.sum_exec_runtime);
		u64 w = div_u64(now, window);

		if (rt != runtime && now - prev < NSEC_PER_MSEC &&
		    div_u64(prev, window) == w)
			l->win[(u32)w % WALT_RING] = w;
		runtime = rt;
		prev = now;
		cpu_relax();
		cond_resched();
	}
	return 0;
}

/*
 * One measurement of walt_window_freq_update_test() on @cpu for 20
 * windows: expects every window the spinner ticked in to have been
 * reported, returns how many such windows there were.
 */
static unsigned int walt_freq_update_run(struct kunit *test, int cpu, u32 window)
{
	struct walt_freq_probe *probe;
	struct walt_tick_log *log;
	unsigned int checked = 0;
	struct task_struct *k;
	u64 w;

	log = kunit_kzalloc(test, sizeof(*log), GFP_KERNEL);
	probe = kunit_kzalloc(test, sizeof(*probe), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, log);
	KUNIT_ASSERT_NOT_NULL(test, probe);
	probe->cpu = cpu;
	k = kthread_create(walt_tick_fn, log, "walt_fifo");
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	get_task_struct(k);
	kthread_bind(k, cpu);
	sched_set_fifo_low(k);
	wake_up_process(k);

	cpufreq_add_update_util_hook(cpu, &probe->hook, walt_freq_probe_hook);
	msleep(div_u64(20ULL * window, NSEC_PER_MSEC));
	cpufreq_remove_update_util_hook(cpu);
	synchronize_rcu();
	kthread_stop(k);
	put_task_struct(k);

	KUNIT_ASSERT_GT(test, probe->first, 0ULL);
	/* The first window's call may precede the hook; start after it. */
	for (w = probe->first + 1; w <= probe->last &&
	     w < probe->first + WALT_RING; w++) {
		unsigned int i = (u32)w % WALT_RING;

		if (log->win[i] != w)
			continue;
		checked++;
		KUNIT_EXPECT_EQ_MSG(test, probe->seen[i], w,
				    "window %llu ticked but was not reported",
				    w - probe->first);
	}
	return checked;
}

/*
 * schedutil hears of every completed window on a CPU whose tick runs, even
 * with no CFS activity to trigger a PELT update: the CPU runs only a
 * SCHED_FIFO spinner, whose ticks call no cpufreq update of their own. A
 * probe in place of a governor records the windows it is called in; every
 * window from the first call to the last in which the CPU ticked (as the
 * spinner saw it) must be among them, and there must be five such
 * windows. Without WALT's update only wake-ups and load balancing (every
 * 32 ms or so on a busy CPU) call it, and windows go missing. A host busy
 * with other work can keep the spinner's vCPU off for most of the 20
 * windows of a measurement: then it is made again, up to five times.
 */
static void walt_window_freq_update_test(struct kunit *test)
{
	u32 window = walt_window_size();
	unsigned int checked = 0;
	int cpu = 1, try;

	if (!cpu_online(cpu) || tick_nohz_full_cpu(cpu))
		kunit_skip(test, "CPU %d offline or without a tick", cpu);
	if (window < TICK_NSEC)
		kunit_skip(test, "a %u ns window can pass without a tick", window);
	/* No governor in the KUnit VMs; one that owns the hook would WARN. */
	if (rcu_access_pointer(per_cpu(cpufreq_update_util_data, cpu)))
		kunit_skip(test, "a cpufreq governor owns CPU %d's hook", cpu);
	for (try = 1; try <= 5 && checked < 5; try++)
		checked = walt_freq_update_run(test, cpu, window);
	KUNIT_EXPECT_GE_MSG(test, checked, 5U,
			    "the spinner ticked in fewer than five windows of 20, %d times",
			    try - 1);
}
#endif

/*
 * With WALT selected, task placement reads WALT. A spinner ran three
 * windows on CPU 1 and blocked: placement's utilization of it is its WALT
 * demand, not PELT's task_util_est() (which has not ramped up in 60 ms:
 * the two differ, or the test could not tell them apart). EAS's CPU
 * utilization of CPU 1 without it is WALT's less its share of the last
 * window, computed here from its windows; of CPU 0, WALT's; with it, that
 * plus its demand. The overutilized check reads WALT's utilization of
 * each CPU. Reads that a window boundary or a change of the sums
 * separates are retried.
 */
static void walt_placement_test(struct kunit *test)
{
	u32 window = walt_window_size();
	struct sched_placement_inputs in0, in1;
	unsigned long demand = 0, cpu0 = 0, cpu1 = 0, share = 0;
	struct task_struct *k;
	atomic_t *state;
	int tries;

	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(0)), 0);
	k = walt_spinner(test, 1, &state);
	msleep(3 * window / NSEC_PER_MSEC);
	walt_block(test, k, state);
	for (tries = 0; tries < 10; tries++) {
		u64 now = local_clock(), w = div_u64(now, window);
		u64 mark = div_u64(k->walt.win.mark_start, window);
		u64 share_ns = 0;

		if (mark == w)
			share_ns = k->walt.win.prev_window;
		else if (mark + 1 == w)
			share_ns = k->walt.win.curr_window;
		share = walt_util(share_ns, window);
		demand = walt_signal.task_util(k);
		cpu0 = walt_cpu_util(0);
		cpu1 = walt_cpu_util(1);
		sched_placement_inputs(k, 0, &in0);
		sched_placement_inputs(k, 1, &in1);
		if (w == div_u64(local_clock(), window) &&
		    cpu0 == walt_cpu_util(0) && cpu1 == walt_cpu_util(1))
			break;
	}
	sched_util_kunit_spinner_stop(k);
	KUNIT_ASSERT_LT_MSG(test, tries, 10, "never a stable read");
	KUNIT_EXPECT_NE_MSG(test, demand, in1.pelt_task_util,
			    "WALT and PELT agree: the test cannot tell them apart");
	KUNIT_EXPECT_GT_MSG(test, share, 0UL, "the spinner has no share on CPU 1");
	KUNIT_EXPECT_EQ(test, in1.task_util, demand);
	KUNIT_EXPECT_EQ(test, in0.cpu_without, cpu0);
	KUNIT_EXPECT_EQ(test, in0.cpu_overutil, cpu0);
	KUNIT_EXPECT_EQ(test, in1.cpu_overutil, cpu1);
	KUNIT_EXPECT_EQ(test, in0.cpu_with,
			min(cpu0 + demand, arch_scale_cpu_capacity(0)));
	KUNIT_EXPECT_EQ(test, in1.cpu_without, cpu1 - min(cpu1, share));
	KUNIT_EXPECT_EQ(test, in1.cpu_with,
			min(in1.cpu_without + demand, arch_scale_cpu_capacity(1)));
	/* PELT's runnable boost does not apply to WALT. */
	KUNIT_EXPECT_EQ(test, in1.cpu_with_boost, in1.cpu_with);
}

static void walt_window_restore(void *old)
{
	walt_set_window((unsigned long)old);
}

/*
 * The window changes at run time, on the tick grid: a size that is not a
 * whole number of ticks is refused and changes nothing; a good one
 * restarts the session on its own grid, and WALT, selected for both roles,
 * is selected for them again once the call returns.
 */
static void walt_set_window_test(struct kunit *test)
{
	u32 old = walt_window_size();
	u32 w = roundup(8 * NSEC_PER_MSEC, TICK_NSEC);
	u64 start;
	int ret;

	if (w == old)
		w += TICK_NSEC;
	KUNIT_ASSERT_EQ_MSG(test, old % TICK_NSEC, 0,
			    "the boot window %u ns is not a whole number of ticks", old);
	KUNIT_EXPECT_EQ(test, walt_set_window(w + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, walt_set_window(0), -EINVAL);
	KUNIT_EXPECT_EQ(test, walt_window_size(), old);

	KUNIT_ASSERT_EQ(test, walt_set_window(w), 0);
	ret = kunit_add_action_or_reset(test, walt_window_restore,
					(void *)(unsigned long)old);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, walt_window_size(), w);
	KUNIT_EXPECT_STREQ(test, sched_util_signal_selected_for(SCHED_UTIL_FREQ), "walt");
	KUNIT_EXPECT_STREQ(test, sched_util_signal_selected_for(SCHED_UTIL_PLACE), "walt");
	/* A tick or a switch rolled CPU 0 during the warm-up. */
	start = walt_window_start_of(0);
	KUNIT_EXPECT_EQ_MSG(test, do_div(start, w), 0,
			    "CPU 0's window start is off the %u ns grid", w);
}

static void walt_pred_put(void *unused)
{
	sched_util_pred_put();
}

/* Wait up to @ms for @cpu's predicted sum to be 0 (@zero) or not. */
static unsigned long walt_wait_pred(int cpu, bool zero, unsigned int ms)
{
	unsigned long pred;

	for (;;) {
		pred = walt_signal.cpu_util_pred(cpu);
		if (!pred == zero || !ms--)
			return pred;
		usleep_range(1000, 2000);
	}
}

static void walt_pred_spinner_stop(void *k)
{
	sched_util_kunit_spinner_stop(k);
}

/*
 * The predicted sums are kept only while a reader wants them (schedutil
 * with pl set): a spinner on CPU 1 with a prediction of its own counts
 * there only from its first enqueue after sched_util_pred_get(), and the
 * sums are empty again once the last reader has gone. Kept always, the
 * first check fails; never, the second.
 */
static void walt_pred_reader_test(struct kunit *test)
{
	u32 window = walt_window_size();
	struct task_struct *k;
	atomic_t *running;

	running = kunit_kzalloc(test, sizeof(*running), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, running);
	k = sched_util_kunit_spinner(running, cpumask_of(1), "walt_pred");
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, walt_pred_spinner_stop,
							k), 0);
	msleep(4 * window / NSEC_PER_MSEC);
	KUNIT_EXPECT_GT(test, READ_ONCE(k->walt.win.pred_demand), 0U);
	KUNIT_EXPECT_EQ_MSG(test, walt_signal.cpu_util_pred(1), 0UL,
			    "sums kept with no reader");

	sched_util_pred_get();
	sched_util_pred_flush();
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, walt_pred_put,
							NULL), 0);
	/* Dequeued and enqueued again: counted from now on. */
	walt_block(test, k, running);
	walt_wake_on(test, k, running, 1);
	KUNIT_EXPECT_GT_MSG(test, walt_wait_pred(1, false, 1000), 0UL,
			    "a RUNNABLE task with a prediction not counted");

	kunit_release_action(test, walt_pred_put, NULL);
	KUNIT_EXPECT_EQ_MSG(test, walt_wait_pred(1, true, 1000), 0UL,
			    "sums still kept 1 s after the last reader went");
}

#ifdef CONFIG_SCHED_INFO
static void walt_wait_time_off(void *unused)
{
	WRITE_ONCE(walt_account_wait_time, 0);
}

/*
 * Read @a's and @b's windows, both rolled into CPU 1's current window,
 * under CPU 1's rq lock; false if either is not rolled there yet.
 */
static bool walt_read_pair(struct task_struct *a, struct task_struct *b,
			   struct walt_task_win *wa, struct walt_task_win *wb)
{
	u64 ws;

	guard(rq_lock_irqsave)(cpu_rq(1));
	ws = walt_rq_of(1)->window_start;
	*wa = a->walt.win;
	*wb = b->walt.win;
	return wa->mark_start >= ws && wb->mark_start >= ws;
}

/*
 * A window later, a read of @a's and @b's windows that walt_read_pair()
 * takes, both with run time in their last window; up to 10 windows.
 */
static bool walt_read_pair_settled(struct task_struct *a, struct task_struct *b,
				   struct walt_task_win *wa, struct walt_task_win *wb)
{
	u32 window = walt_window_size();
	int tries;

	for (tries = 0; tries < 10; tries++) {
		msleep(window / NSEC_PER_MSEC);
		if (walt_read_pair(a, b, wa, wb) && wa->prev_window &&
		    wb->prev_window)
			return true;
	}
	return false;
}

/*
 * Runnable wait counts in a task's demand, not in its CPU's busy time
 * (sched_walt_account_wait_time). Two spinners share CPU 1, so each
 * waits while the other runs, about half of every window. Off, a task's
 * newest sample is what it ran in that window, its prev_window, exactly.
 * On, the sample adds the wait: each task's is more than nothing, and the
 * two add up to at least half a window (a task waits while the other
 * runs, so they add up to about a window; half leaves room for IRQs and
 * for the folds, which count a wait only in the room its task's run
 * leaves in the window: one arm64 boot read 239 of 1024 for one task),
 * while the two prev_windows, CPU 1's busy time in that window, still add
 * up to a window (a quarter of slack: a running task's fold charges it
 * from the boundary on). Counted as busy time too, the wait would make
 * them add up to two windows. Reads that find a task waiting more than a
 * window (its fold then pushes an empty window) are retried.
 */
static void walt_wait_time_test(struct kunit *test)
{
	u32 window = walt_window_size(), full = walt_util(window, window);
	struct task_struct *a, *b;
	struct walt_task_win wa, wb;
	atomic_t *sa, *sb;
	int i;

	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(0)), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, walt_wait_time_off,
							NULL), 0);
	a = walt_spinner(test, 1, &sa);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, walt_pred_spinner_stop,
							a), 0);
	b = walt_spinner(test, 1, &sb);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, walt_pred_spinner_stop,
							b), 0);
	msleep(3 * window / NSEC_PER_MSEC);
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_TRUE_MSG(test, walt_read_pair_settled(a, b, &wa, &wb),
				      "off: no read in 10 windows");
		KUNIT_EXPECT_EQ_MSG(test, wa.hist[0], wa.prev_window,
				    "off: a sample is not the run time");
		KUNIT_EXPECT_EQ_MSG(test, wb.hist[0], wb.prev_window,
				    "off: a sample is not the run time");
	}

	WRITE_ONCE(walt_account_wait_time, 1);
	msleep(3 * window / NSEC_PER_MSEC);
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_TRUE_MSG(test, walt_read_pair_settled(a, b, &wa, &wb),
				      "on: no read in 10 windows");
		KUNIT_EXPECT_GT_MSG(test, wa.hist[0], wa.prev_window,
				    "on: no wait in a sample");
		KUNIT_EXPECT_GT_MSG(test, wb.hist[0], wb.prev_window,
				    "on: no wait in a sample");
		KUNIT_EXPECT_GE_MSG(test, walt_util(wa.hist[0] - wa.prev_window +
						    wb.hist[0] - wb.prev_window,
						    window), full / 2,
				    "on: %u + %u ns waited of a %u ns window",
				    wa.hist[0] - wa.prev_window,
				    wb.hist[0] - wb.prev_window, window);
		KUNIT_EXPECT_LE_MSG(test, walt_util(wa.prev_window +
						    wb.prev_window, window),
				    full + full / 4,
				    "on: CPU 1 busy %u + %u ns in a %u ns window",
				    wa.prev_window, wb.prev_window, window);
	}
}
#endif

static struct kunit_case walt_live_cases[] = {
	KUNIT_CASE_PARAM(walt_util_test, walt_util_gen_params),
	KUNIT_CASE_SLOW(walt_migration_running_test),
	KUNIT_CASE_SLOW(walt_migration_wakeup_test),
#ifdef CONFIG_SCHED_DEBUG
	KUNIT_CASE(walt_double_clock_test),
#endif
	KUNIT_CASE_SLOW(walt_stale_task_test),
	KUNIT_CASE_SLOW(walt_restart_sleeper_test),
	KUNIT_CASE(walt_schedutil_input_test),
	KUNIT_CASE_SLOW(walt_read_rollover_test),
	KUNIT_CASE_SLOW(walt_select_continuous_test),
	KUNIT_CASE_SLOW(walt_switch_accounting_test),
	KUNIT_CASE_SLOW(walt_duty_test),
	KUNIT_CASE(walt_set_window_test),
#ifdef CONFIG_CPU_FREQ
	KUNIT_CASE_SLOW(walt_window_freq_update_test),
	KUNIT_CASE_SLOW(walt_placement_test),
	KUNIT_CASE_SLOW(walt_pred_reader_test),
#ifdef CONFIG_SCHED_INFO
	KUNIT_CASE_SLOW(walt_wait_time_test),
#endif
#endif
	{}
};

static struct kunit_suite walt_live_suite = {
	.name = "sched_walt_live",
	.init = walt_test_init,
	.test_cases = walt_live_cases,
};

kunit_test_suite(walt_live_suite);

MODULE_DESCRIPTION("KUnit tests for WALT on live runqueues");
MODULE_LICENSE("GPL");
