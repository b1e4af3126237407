/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Window Assisted Load Tracking (WALT): window arithmetic
 *
 * Ported from the 2016 WALT RFC by Srivatsa Vaddagiri and Vikram Mulukutla.
 *
 * Nothing in here touches a runqueue, a task_struct or a clock: every
 * function works on the small structures it is handed, so the rules can be
 * unit tested on their own (walt_window_kunit.c).
 *
 * Wall-clock time is cut into windows of window_size ns (20 ms by default)
 * whose boundaries are the same on every CPU. For the window in progress
 * (curr) and the last completed one (prev) WALT keeps:
 *
 *   task:  curr_window,       prev_window        what this task ran
 *   rq:    curr_runnable_sum, prev_runnable_sum  what all its tasks ran
 *
 * An rq's sums add up its tasks' windows, so a migrating task can take its
 * share along (walt_depart(), walt_arrive()). prev_runnable_sum, one
 * complete window of CPU busy time, is what guides the CPU frequency.
 *
 * Busy time is charged lazily. In the model, each scheduler event accounts
 * the interval [mark_start, wallclock) of one task and then sets
 * mark_start = wallclock (walt_update_busy()). walt.c goes one step
 * further for tasks other than idle, so that a switch between two of them
 * costs nothing: see walt_rq_sync() and walt_task_fold() below. Whether an
 * interval was busy depends on what the task was doing:
 *
 *   event            task                       idle task
 *   PUT_PREV_TASK    busy: it ran               IRQ time only; all of it
 *   TASK_UPDATE      busy: it ran               if tasks wait on IO and
 *   IRQ_UPDATE       busy: it ran               io_is_busy is set
 *   PICK_NEXT_TASK   busy if account_wait_time  not busy: others ran
 *   TASK_MIGRATE     busy if account_wait_time  not busy
 *   TASK_WAKE        not busy: it slept         not busy
 *
 * Busy time is scaled to the highest frequency of the biggest CPU:
 *
 *   scaled = delta * freq_scale / 1024 * cpu_scale / 1024
 *
 * Rollover: once wallclock reaches window_start + window_size, n whole
 * windows have ended; window_start advances by n * window_size and
 *
 *   n == 1:  prev = curr, curr = 0
 *   n >= 2:  prev = 0,    curr = 0   (the last complete window was empty)
 *
 * A task rolls the same way against its rq's (already rolled) window_start.
 * A busy interval that crosses boundaries is cut there: the part up to the
 * first boundary completes the task's own window, each window passed whole
 * counts as a full window, and the rest starts the new curr.
 *
 * Demand: each completed window in which the task ran is pushed into hist[]
 * (hist[0] is the newest) and
 *
 *   demand = max(hist[0], (hist[0] + ... + hist[N-1]) / N)
 *
 * so that a task turning heavy is seen after one window, while a lighter
 * window only lowers the demand as fast as the average does. A window in
 * which the task ran nothing (it slept, or waited without account_wait_time)
 * is not a sample: WALT forgets blocked time, so a task waking from a long
 * sleep comes back with the demand it had.
 *
 * Runnable wait in demand. walt.c never sets account_wait_time, which
 * would make a task's wait busy time of its CPU too. Its own knob,
 * sched_walt_account_wait_time, counts the wait in the task's samples
 * only, as the Android kernels did (SCHED_ACCOUNT_WAIT_TIME 1,
 * SCHED_FREQ_ACCOUNT_WAIT_TIME 0): a task starved on a busy CPU then
 * reads as the task it would be on a CPU of its own, while the CPU's busy
 * time, and so its frequency, stays what ran there. The wait goes into
 * curr_wait beside curr_window (walt_task_fold()); a window's sample is
 * their sum, its share in the CPU's sums curr_window alone. A young task has fewer than N
 * samples; its unused slots are zero and simply dilute the average, while
 * the max() with hist[0] still lets its demand follow its last window.
 *
 * Worked example, 20 ms windows, full frequency and capacity:
 *
 *            1000 ms              1020 ms              1040 ms
 *     ... ------|--------------------|--------------------|------ ...
 *                          ^ 1015         ^ 1026
 *                       mark_start     wallclock
 *
 * A task has run 4 ms of [1000, 1020) so far, of which the rq's curr sum
 * (10 ms) holds its share; the rq's prev sum is 15 ms. The task is running
 * since 1015 and is switched out at 1026 (PUT_PREV_TASK):
 *
 *   1) the rq rolls one window: prev = 10, curr = 0, window_start = 1020;
 *   2) [1015, 1020) completes the task's window: its curr = 4 + 5 = 9,
 *      and the rq's prev = 10 + 5 = 15;
 *   3) the task rolls: 9 ms goes into hist[], prev = 9, curr = 0;
 *   4) [1020, 1026) starts the new window: task curr = 6, rq curr = 6.
 *
 * At half frequency each busy term halves: 2.5 ms in 2) and 3 ms in 4).
 * Switched out at 1065 instead, the rq rolls three windows (both sums 0,
 * window_start = 1060); the task pushes 9 ms, then 20 ms twice for
 * [1020, 1060); its prev is a full 20 ms window, which the rq's prev gets
 * too, and its curr is 5 ms.
 *
 * Corner cases, decided once here:
 *  - mark_start == 0 means the task was never accounted (fresh from fork):
 *    its first event only sets mark_start;
 *  - a wallclock before mark_start means the clock went backwards: nothing
 *    is changed and the caller is told (walt_update_busy() returns false);
 *  - a wallclock before the rq's window_start (read before the rq lock was
 *    taken, while another event rolled the rq) is taken as window_start, so
 *    mark_start never falls behind window_start and no task is rolled twice
 *    into the same window.
 *
 * Divisions of 64-bit values use div_u64(), so this builds on 32-bit too.
 */
#ifndef _KERNEL_SCHED_WALT_WINDOW_H
#define _KERNEL_SCHED_WALT_WINDOW_H

#include <linux/types.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/sched/walt.h>

enum walt_event {
	WALT_PUT_PREV_TASK,
	WALT_PICK_NEXT_TASK,
	WALT_TASK_WAKE,
	WALT_TASK_MIGRATE,
	WALT_TASK_UPDATE,
	WALT_IRQ_UPDATE,
	WALT_NR_EVENTS
};

/* Everything walt_update_busy() needs to know about one event. */
struct walt_ctx {
	u64		wallclock;	/* when the event happened, ns */
	u64		irqtime;	/* IRQ time ending at wallclock, ns */
	u32		window_size;	/* ns */
	unsigned int	nr_hist;	/* N, clamped to 1..WALT_HIST_MAX */
	unsigned long	freq_scale;	/* 1024 (SCHED_CAPACITY_SCALE): fmax */
	unsigned long	cpu_scale;	/* 1024: the biggest CPU */
	bool		is_idle;	/* the task is the rq's idle task */
	bool		waiting_on_io;	/* io_is_busy knob && nr_iowait > 0 */
	bool		account_wait_time; /* runnable wait counts as busy */
	enum walt_event	event;
};

/*
 * Scale @delta ns to the time the same work takes at the highest frequency
 * of the biggest CPU, so that busy time adds up across CPUs and OPPs. Only
 * a multiply and a shift: no 64-bit division. Callers pass at most one
 * window, far from overflowing 64 bits.
 */
static inline u64 walt_scale_exec(u64 delta, unsigned long freq_scale,
				  unsigned long cpu_scale)
{
	delta = (delta * freq_scale) >> SCHED_CAPACITY_SHIFT;

	return (delta * cpu_scale) >> SCHED_CAPACITY_SHIFT;
}

/* Length of [@from, @to); 0 if it is empty, so a late @from never wraps. */
static inline u64 walt_span(u64 from, u64 to)
{
	return to > from ? to - from : 0;
}

static inline u64 walt_scaled_span(u64 from, u64 to,
				   const struct walt_ctx *c)
{
	return walt_scale_exec(walt_span(from, to), c->freq_scale,
			       c->cpu_scale);
}

/*
 * Move @rq to the window holding @wallclock; return how many windows ended.
 * After exactly one, the finished window becomes prev. After more, no
 * event has accounted anything in the last complete window yet, so prev
 * restarts from 0 (the event being handled adds what ran in it).
 * window_start moves in whole windows to stay aligned with the other CPUs.
 * A @wallclock behind window_start ends no window.
 */
static inline u64 walt_rq_rollover(struct walt_rq_win *rq, u64 wallclock,
				   u32 window)
{
	u64 nr;

	if (!window || wallclock < rq->window_start + window)
		return 0;

	nr = div_u64(wallclock - rq->window_start, window);
	rq->prev_runnable_sum = nr == 1 ? rq->curr_runnable_sum : 0;
	rq->curr_runnable_sum = 0;
	rq->window_start += nr * window;

	return nr;
}

/*
 * Number of whole windows between the end of the window holding
 * @mark_start and @window_start. A mark_start right on a boundary belongs
 * to the window starting there, hence the - 1.
 */
static inline u64 walt_windows_between(u64 mark_start, u64 window_start,
				       u32 window)
{
	if (mark_start >= window_start)
		return 0;

	return div_u64(window_start - mark_start - 1, window);
}

/* First boundary after @mark_start, given a @window_start not before it. */
static inline u64 walt_window_end(u64 mark_start, u64 window_start,
				  u32 window)
{
	if (mark_start >= window_start)
		return window_start + window;

	return window_start -
	       walt_windows_between(mark_start, window_start, window) * window;
}

/*
 * Demand of a task from its last @n completed windows, @hist[0] the newest:
 * the larger of the newest window and their average. @n is clamped to
 * 1..WALT_HIST_MAX; slots never filled are 0 and count as empty windows.
 */
static inline u32 walt_task_demand(const u32 *hist, unsigned int n)
{
	unsigned int i;
	u64 sum = 0;

	n = clamp_t(unsigned int, n, 1, WALT_HIST_MAX);
	for (i = 0; i < n; i++)
		sum += hist[i];

	return max_t(u32, hist[0], div_u64(sum, n));
}

/*
 * The demand placement reads for a task whose newest sample is @newest and
 * demand @demand: that demand once the task has completed a window in
 * which it ran (its first sample), before that @init_pct percent of a
 * window of @window ns (Android's sched_walt_init_task_load_pct): a new
 * task is neither weightless nor a whole CPU until WALT has seen it run.
 */
static inline u32 walt_placed_demand(u32 newest, u32 demand,
				     unsigned int init_pct, u32 window)
{
	if (newest || demand)
		return demand;
	return div_u64((u64)window * min(init_pct, 100U), 100);
}

/* Make @runtime the newest completed window; the oldest one falls off. */
static inline void walt_push_history(struct walt_task_win *t, u32 runtime,
				     unsigned int n)
{
	unsigned int i;

	for (i = WALT_HIST_MAX - 1; i > 0; i--)
		t->hist[i] = t->hist[i - 1];
	t->hist[0] = runtime;
	t->demand = walt_task_demand(t->hist, n);
	t->untraced_samples++;
}

/*
 * Predicted demand, the Android kernels' busy buckets: per tenth of a
 * window, a count of how often a recent window's busy time fell there.
 * The end of a window in which the task ran adds 8 to the count of its
 * tenth (16 once the count has reached 16: a load seen again and again is
 * trusted faster) and takes 2 from every other count, so a tenth hit once
 * is forgotten after four windows elsewhere. The prediction for the next
 * window is the lowest tenth at or above the one just seen that has a
 * count: a task that often ran longer than this time will likely run
 * longer again. Its value is the newest window of the history that fell
 * in that tenth, or the tenth's middle if none of the last N did, and
 * never less than the busy time seen. Busy times below two tenths share
 * one count ([1]): the lowest OPP serves all of them.
 *
 * Worked example, 20 ms windows, N = 5: a task ran 3, 3, 11 and 3 ms in
 * its last four windows (hist 3 11 3 3, counts [1] = 8 + 8 - 2 + 8 = 22,
 * [5] = 8 - 2 = 6). It now ends a window of 3 ms: from tenth 1 the lowest
 * tenth with a count is 1, and the newest window in [0, 4 ms) is this one:
 * the prediction is 3 ms. Mid-window, once it has run 5 ms, it has left
 * tenth 1: the next tenth with a count is 5, [10, 12 ms), and the newest
 * window there is 11 ms: the prediction rises to 11 ms.
 */

/* The tenth of a window that @busy ns fall in, the lowest two merged. */
static inline unsigned int walt_busy_bucket(u32 busy, u32 window)
{
	u64 b = div_u64((u64)busy * WALT_NR_BUCKETS, window);

	return clamp_t(u64, b, 1, WALT_NR_BUCKETS - 1);
}

/*
 * What @t is predicted to run in a window of @window ns, given that it
 * has run @busy, which falls in tenth @from; @n: the history's length N.
 */
static inline u32 walt_pred_busy(const struct walt_task_win *t,
				 unsigned int from, u32 busy, u32 window,
				 unsigned int n)
{
	unsigned int b = from, i;
	u32 lo, hi;

	while (b < WALT_NR_BUCKETS && !t->busy_buckets[b])
		b++;
	if (b >= WALT_NR_BUCKETS)
		return busy;
	lo = b < 2 ? 0 : div_u64((u64)window * b, WALT_NR_BUCKETS);
	hi = div_u64((u64)window * (b + 1), WALT_NR_BUCKETS);
	n = clamp_t(unsigned int, n, 1, WALT_HIST_MAX);
	for (i = 0; i < n; i++)
		if (t->hist[i] >= lo && t->hist[i] < hi)
			return max(busy, t->hist[i]);

	return max(busy, lo + (hi - lo) / 2);
}

/*
 * A window in which @t ran @busy has ended and is in its history: predict
 * the next one from the counts so far, then count this one.
 */
static inline void walt_pred_update(struct walt_task_win *t, u32 busy,
				    u32 window, unsigned int n)
{
	unsigned int b = walt_busy_bucket(busy, window), i;

	t->pred_demand = walt_pred_busy(t, b, busy, window, n);
	for (i = 0; i < WALT_NR_BUCKETS; i++) {
		u8 *count = &t->busy_buckets[i];

		if (i != b)
			*count -= min_t(u8, *count, 2);
		else
			*count = min_t(unsigned int, U8_MAX,
				       *count + (*count >= 16 ? 16 : 8));
	}
}

/*
 * Inside a window: once @t has run more than predicted, predict again
 * from what it has run so far. The prediction only rises here.
 */
static inline void walt_pred_rise(struct walt_task_win *t, u32 window,
				  unsigned int n)
{
	if (t->curr_window <= t->pred_demand)
		return;
	t->pred_demand = walt_pred_busy(t,
					walt_busy_bucket(t->curr_window, window),
					t->curr_window, window, n);
}

/*
 * Push @count windows of @runtime and predict from them. Empty windows are
 * not samples (the task was blocked or only waited), see the top of this
 * file. More than WALT_HIST_MAX identical pushes cannot change the history
 * any further; the counts take one push, as in the Android kernels.
 */
static inline void walt_record_windows(struct walt_task_win *t, u32 runtime,
				       u64 count, unsigned int n, u32 window)
{
	if (!runtime)
		return;

	count = min_t(u64, count, WALT_HIST_MAX);
	while (count--)
		walt_push_history(t, runtime, n);
	walt_pred_update(t, runtime, window, n);
}

/*
 * Move task @t to the window starting at @window_start, its rq's window
 * after walt_rq_rollover(). t->curr_window must already hold all the busy
 * time of the task's window, and t->curr_wait its runnable wait there: it
 * is now complete and their sum goes into the history. @skipped_runtime
 * is what the task ran in each window passed whole since: a full scaled
 * window if it was busy throughout, else 0; @skipped_wait what it waited
 * in each. prev becomes the last complete window's run time: the task's
 * own one if that was the previous window, else the last window skipped.
 * Returns the windows advanced.
 */
static inline u64 walt_task_rollover(struct walt_task_win *t,
				     u64 window_start, u32 window,
				     u32 skipped_runtime, u32 skipped_wait,
				     unsigned int nr_hist)
{
	u64 skipped;

	if (!window || t->mark_start >= window_start)
		return 0;

	skipped = walt_windows_between(t->mark_start, window_start, window);
	walt_record_windows(t, t->curr_window + t->curr_wait, 1, nr_hist,
			    window);
	walt_record_windows(t, skipped_runtime + skipped_wait, skipped,
			    nr_hist, window);

	t->prev_window = skipped ? skipped_runtime : t->curr_window;
	t->curr_window = 0;
	t->curr_wait = 0;

	return skipped + 1;
}

/*
 * Idle time is CPU busy time only while tasks wait on IO (and io_is_busy
 * is set) or for the IRQ handled on top of it. Only the events that close
 * an interval in which idle ran can be busy: at PICK_NEXT_TASK idle was
 * not running, and it never wakes or migrates.
 */
static inline bool walt_idle_is_busy(const struct walt_ctx *c)
{
	switch (c->event) {
	case WALT_PUT_PREV_TASK:
	case WALT_TASK_UPDATE:
	case WALT_IRQ_UPDATE:
		return c->waiting_on_io || c->irqtime;
	default:
		return false;
	}
}

/* Was the task busy since mark_start? See the table at the top. */
static inline bool walt_is_busy(const struct walt_ctx *c)
{
	if (c->is_idle)
		return walt_idle_is_busy(c);

	switch (c->event) {
	case WALT_TASK_WAKE:
		return false;
	case WALT_PICK_NEXT_TASK:
	case WALT_TASK_MIGRATE:
		return c->account_wait_time;
	default:
		return true;
	}
}

/*
 * Start of the busy part of [@mark_start, @now). For idle not waiting on
 * IO that is the IRQ that just ended, cut at mark_start: IRQ time before
 * the idle task's last event (e.g. a tick inside this same IRQ) has been
 * dealt with by that event and must not be counted twice.
 */
static inline u64 walt_busy_start(u64 mark_start, u64 now,
				  const struct walt_ctx *c)
{
	if (!c->is_idle || c->waiting_on_io)
		return mark_start;

	return max(mark_start, now - min(c->irqtime, now));
}

/*
 * Charge busy [@from, @now) to @rq. Time before the previous window
 * belongs to windows the rq has already forgotten.
 */
static inline void walt_rq_account(struct walt_rq_win *rq, u64 from,
				   u64 now, const struct walt_ctx *c)
{
	u64 ws = rq->window_start;
	u64 prev_start = ws - min_t(u64, ws, c->window_size);

	rq->prev_runnable_sum += walt_scaled_span(max(from, prev_start), ws, c);
	rq->curr_runnable_sum += walt_scaled_span(max(from, ws), now, c);
}

/*
 * Charge [mark_start, @now) to task @t, busy or not, and roll it to
 * @window_start. Its own window is completed first, so that the history
 * records that window whole; the part from @window_start on, if busy,
 * opens the new curr. Each term is scaled once and the same term goes to
 * the rq, which keeps the rq sums exactly the sums of its tasks' windows.
 */
static inline void walt_task_account(struct walt_task_win *t,
				     u64 window_start, u64 now, bool busy,
				     const struct walt_ctx *c)
{
	u32 window = c->window_size;
	u64 end = walt_window_end(t->mark_start, window_start, window);
	u32 full = 0;

	if (busy) {
		t->curr_window += walt_scaled_span(t->mark_start,
						   min(now, end), c);
		full = walt_scale_exec(window, c->freq_scale, c->cpu_scale);
	}

	if (!walt_task_rollover(t, window_start, window, full, 0, c->nr_hist))
		return;

	if (busy)
		t->curr_window = walt_scaled_span(window_start, now, c);
}

/*
 * Charge [t->mark_start, @now) of task @t (not idle: it has no demand) and
 * of @rq, both already rolled to the window holding @now.
 */
static inline void walt_account(struct walt_task_win *t,
				struct walt_rq_win *rq, u64 now,
				const struct walt_ctx *c)
{
	u64 from = walt_busy_start(t->mark_start, now, c);
	bool busy = walt_is_busy(c);

	if (!c->is_idle)
		walt_task_account(t, rq->window_start, now, busy, c);
	if (busy)
		walt_rq_account(rq, from, now, c);
}

/*
 * Whether [t->mark_start, @wallclock) lies in @rq's current window, so
 * that accounting it rolls nothing. Not for a task never accounted
 * (mark_start 0) nor a clock gone backwards.
 */
static inline bool walt_in_window(const struct walt_task_win *t,
				  const struct walt_rq_win *rq, u64 wallclock,
				  u32 window)
{
	return t->mark_start && t->mark_start >= rq->window_start &&
	       wallclock >= t->mark_start &&
	       wallclock < rq->window_start + window;
}

/*
 * The general case of walt_update_busy(), for a sane wallclock: roll @rq
 * and @t to the window holding the wallclock, charge the busy part, move
 * mark_start on.
 */
static inline void walt_update_rolling(struct walt_task_win *t,
				       struct walt_rq_win *rq,
				       const struct walt_ctx *c)
{
	u64 now;

	walt_rq_rollover(rq, c->wallclock, c->window_size);
	now = max(c->wallclock, rq->window_start);

	/* A task never accounted before (fresh from fork) starts here. */
	if (t->mark_start)
		walt_account(t, rq, now, c);
	t->mark_start = now;
}

/*
 * The common case of walt_update_busy(), for an interval that
 * walt_in_window(): nothing rolls, and the busy span, if any, goes to the
 * task's curr (not for idle) and the rq's curr alike. Same result as
 * walt_update_rolling(), in fewer steps (walt_window_kunit.c checks both
 * agree).
 */
static inline void walt_update_in_window(struct walt_task_win *t,
					 struct walt_rq_win *rq,
					 const struct walt_ctx *c)
{
	if (walt_is_busy(c)) {
		u64 from = walt_busy_start(t->mark_start, c->wallclock, c);
		u64 busy = walt_scaled_span(from, c->wallclock, c);

		if (!c->is_idle)
			t->curr_window += busy;
		rq->curr_runnable_sum += busy;
	}
	t->mark_start = c->wallclock;
}

/*
 * Account [t->mark_start, c->wallclock) for task @t (the idle task if
 * c->is_idle) on @rq: roll @rq and @t to the window holding the
 * wallclock, add the busy part to the task's windows (not for idle, which
 * has no demand) and to the rq's sums, and move mark_start on.
 *
 * Returns false, having changed nothing, if the wallclock is before
 * mark_start (the clock went backwards) or the window size is 0; the
 * interval is then accounted by the next event with a sane clock.
 */
static inline bool walt_update_busy(struct walt_task_win *t,
				    struct walt_rq_win *rq,
				    const struct walt_ctx *c)
{
	if (c->wallclock < t->mark_start || !c->window_size)
		return false;

	if (walt_in_window(t, rq, c->wallclock, c->window_size))
		walt_update_in_window(t, rq, c);
	else
		walt_update_rolling(t, rq, c);
	return true;
}

/*
 * Lazy charging, as walt.c does it. A switch between two tasks inside the
 * current window charges nothing: the CPU stays busy whichever task runs,
 * and what each task runs adds up in its se.sum_exec_runtime. So a CPU's
 * busy time is charged by non-idle intervals, [busy_mark, now) at the
 * CPU's own slow-path events (a switch to or from idle, the tick, a
 * migration, a rollover), and a task's windows are folded from the time
 * it ran since its last fold, at its own slow-path events.
 *
 * Each charge is scaled at the frequency scale read at the event that
 * ends it, as walt_update_busy() does and as charging at every switch
 * would: a lazy switch is where that differs. So a switch is lazy only
 * while the CPU's scale is the one of its last sync (struct walt_seen),
 * which all run time on the CPU not charged yet carries; a task's own
 * unfolded run time carries it too (walt_task_win.freq_scale), and a task
 * not running is folded at that scale, however the frequency changed
 * before its fold. A sync that finds the scale changed first charges the
 * CPU and folds its running task up to the CPU's last lazy switch, at the
 * old scale (walt_scale_catch_up()): both are then what syncing and
 * folding at every switch would have left.
 */

/**
 * struct walt_seen - the frequency scale of a CPU's charges not made yet
 * @scale: the frequency scale read at the CPU's last sync
 * @at: the CPU's last lazy switch since that sync, which found @scale
 *	unchanged, or the sync itself
 * @exec: se.sum_exec_runtime of the task picked at @at when it was picked
 * @picked: @at is a lazy switch, which picked a task without folding it:
 *	    what that task ran before, up to @exec, is not folded yet
 */
struct walt_seen {
	u64		at;
	u64		exec;
	unsigned long	scale;
	bool		picked;
};

/*
 * Roll @rq to the window holding @now and, if a task ran on the CPU since
 * busy_mark (@busy), charge [busy_mark, @now) as busy; the CPU is then
 * accounted up to @now. A busy_mark of 0 (a session's first event) has
 * nothing before it to charge. A @now before window_start (a session
 * starts at the next boundary; a task arriving from a CPU whose clock is
 * ahead rolls this one early) charges nothing, and the CPU is accounted
 * up to window_start: what runs before a session is not counted, and no
 * time is charged before it has passed.
 */
static inline void walt_rq_sync(struct walt_rq_win *rq, u64 now, bool busy,
				const struct walt_ctx *c)
{
	walt_rq_rollover(rq, now, c->window_size);
	if (busy && rq->busy_mark && now >= rq->window_start)
		walt_rq_account(rq, rq->busy_mark, now, c);
	rq->busy_mark = max3(rq->busy_mark, now, rq->window_start);
}

/*
 * The first window boundary of a tracking session started at @now, when
 * the last one started at @last (0: none): the next boundary, and at
 * least one window after @last. A mark of an earlier session is then
 * before it, so before the current window of any CPU, and no switch can
 * pick a leftover without folding it, which forgets it (walt.c,
 * walt_forget_stale()): marks are never before their session's first
 * boundary and never after the session's end, before @now. Without the
 * second bound a session that ended before its first boundary would leave
 * marks right on the next session's.
 */
static inline u64 walt_session_first(u64 now, u64 last, u32 window)
{
	return max((div_u64(now, window) + 1) * window, last + window);
}

/*
 * Until when a switch away from a CPU's current task can charge nothing:
 * the end of @rq's window, once that task (@busy, not idle) has been
 * folded in it, since walt_task_fold() moves a mark into its rq's window
 * at least. 0 for idle: a switch away from idle ends an idle interval,
 * which the CPU must be synced for. A rollover of @rq happens at or after
 * the value, so it never needs a reset.
 */
static inline u64 walt_lazy_end(const struct walt_rq_win *rq, u32 window,
				bool busy)
{
	return busy ? rq->window_start + window : 0;
}

/*
 * Whether a switch at @now to @next (not idle) can charge nothing: @now
 * is before @lazy_end, walt_lazy_end() as of the last fold of the task
 * being put, so that task's mark and @now are in one window, and @next's
 * mark is in the CPU's current window, which starts at @window_start.
 * That keeps each task's run time not folded yet in the window of its
 * mark, which walt_task_fold() relies on: a task put or picked in a
 * later window is folded first. window_start is at least one window
 * while WALT tracks (walt_start()), so a mark of 0, a task never
 * accounted, fails too. And the CPU's frequency scale, @freq_scale, is
 * still @seen's, the one of the CPU's last sync, and @next's unfolded
 * run time carries it as well: the task put then carries the scale it
 * ran at, and so does the task picked when it runs.
 */
/*
 * Lazy idle. A switch to idle syncs the CPU, which was busy up to then,
 * but does not fold the task put: on the conditions of a lazy switch
 * (walt_switch_charges_nothing()), its run time not folded yet is in its
 * own window and carries the CPU's scale, as for a task put by a lazy
 * switch. A switch from idle inside the window of the CPU's last sync
 * (walt_idle_lazy_end()), the CPU's scale unchanged since, to a task
 * that a lazy switch could pick, charges nothing either: the CPU was idle
 * since its last sync, so only its busy_mark moves (walt_rq_idle_end()),
 * as a sync of an idle CPU would move it, and the task picked is folded at
 * its next event, as after a lazy switch. The IRQ time of the idle CPU
 * and the shares of tasks that woke elsewhere wait for the next sync,
 * which takes them in whatever window it is (walt_share_give(),
 * walt_share_take()).
 */

/* Until when a switch away from idle can charge nothing, see above. */
static inline u64 walt_idle_lazy_end(const struct walt_rq_win *rq, u32 window)
{
	return rq->window_start + window;
}

/*
 * A lazy switch from idle at @now, inside @rq's window: the CPU, idle
 * since its busy_mark, is busy from @now, as walt_rq_sync() of an idle
 * CPU would leave it, with nothing to roll.
 */
static inline void walt_rq_idle_end(struct walt_rq_win *rq, u64 now)
{
	rq->busy_mark = max3(rq->busy_mark, now, rq->window_start);
}

static inline bool walt_switch_charges_nothing(const struct walt_task_win *next,
					       u64 window_start, u64 lazy_end,
					       u64 now, unsigned long freq_scale,
					       const struct walt_seen *seen)
{
	return now < lazy_end && next->mark_start >= window_start &&
	       freq_scale == seen->scale && next->freq_scale == freq_scale;
}

/*
 * Charge task @t the @ran ns it ran since mark_start and the @waited ns it
 * waited on a runqueue (0 unless account_wait_time, see the top of this
 * file), roll it to @window_start (its rq's, synced to @now) and move the
 * mark to @now.
 *
 * A task not @running ran them in its own window, the one holding
 * mark_start: a pick or a put in a later window folds the task first
 * (walt_switch()). They complete that window, up to its end, and the
 * windows since were empty. A @running task with its mark before the
 * current window has run since before that window's first boundary: it
 * ran all of [boundary, @now), each window passed whole was busy
 * throughout, and the rest of @ran completes its own window, as in
 * walt_task_account(). @ran counts the task's own clock, which leaves out
 * IRQ time; it caps what is charged.
 *
 * A running task's run is charged at the scale of now, @c's; that of a
 * task not running at its own, t->freq_scale, the scale of the switch
 * that put it (or @c's if not known). Both then carry @c's scale.
 *
 * The wait fills what its run leaves of the task's own window, at the
 * same scale; the rest, if the task rolls, is the latest wait: in the new
 * window as far as a running task's run leaves room there, and, for a
 * task not running whose wait reaches back beyond that window's start, in
 * each window passed whole too (a task starved throughout). A wait that
 * does not fit is not counted.
 */
static inline void walt_task_fold(struct walt_task_win *t, u64 window_start,
				  u64 now, u64 ran, u64 waited, bool running,
				  const struct walt_ctx *c)
{
	unsigned long ran_scale = c->freq_scale;
	u32 window = c->window_size;
	u64 end, own = ran, own_wait, ran_new = 0;
	u32 full = 0, full_wait = 0;

	/* No earlier than its rq's window, as in walt_update_rolling(). */
	now = max3(now, t->mark_start, window_start);
	if (!t->mark_start) {
		/* Never accounted (fresh from fork): it starts here. */
		t->mark_start = now;
		t->freq_scale = c->freq_scale;
		return;
	}
	end = min(walt_window_end(t->mark_start, window_start, window), now);
	if (running) {
		own -= min(own, now - end);
		ran_new = min(ran, now - window_start);
		full = walt_scale_exec(window, c->freq_scale, c->cpu_scale);
	} else if (t->freq_scale) {
		ran_scale = t->freq_scale;
	}
	own = min(own, end - t->mark_start);
	own_wait = min(waited, end - t->mark_start - own);
	waited -= own_wait;
	t->curr_window += walt_scale_exec(own, ran_scale, c->cpu_scale);
	t->curr_wait += walt_scale_exec(own_wait, ran_scale, c->cpu_scale);
	if (!running && waited > now - window_start)
		full_wait = walt_scale_exec(window, c->freq_scale, c->cpu_scale);
	if (walt_task_rollover(t, window_start, window, full, full_wait,
			       c->nr_hist)) {
		t->curr_window = walt_scale_exec(ran_new, c->freq_scale,
						 c->cpu_scale);
		t->curr_wait = walt_scale_exec(min(waited, now - window_start -
						   ran_new),
					       c->freq_scale, c->cpu_scale);
	}
	walt_pred_rise(t, window, c->nr_hist);
	t->mark_start = now;
	t->freq_scale = c->freq_scale;
}

/*
 * A sync of @rq found its frequency scale changed from @seen's, and
 * @curr, the task running since @seen->at, has run @exec in all so far.
 * Charge what ran up to @seen->at at the old scale, as a sync and a fold
 * at that lazy switch would have: the CPU's busy time since its last
 * sync, and @curr's run before the switch that picked it. The caller's
 * sync and fold then charge the rest at the new scale in @c. Nothing is
 * left to do if no lazy switch came after the last sync. @curr is not
 * idle, and @rq is busy since @seen->at at least. A lazy switch from
 * idle moves busy_mark to @seen->at, leaving nothing of the CPU's to
 * charge, but the task it picked may have run before it.
 */
static inline void walt_scale_catch_up(struct walt_rq_win *rq,
				       struct walt_task_win *curr,
				       const struct walt_seen *seen,
				       const struct walt_ctx *c)
{
	struct walt_ctx old = *c;

	old.wallclock = seen->at;
	old.freq_scale = seen->scale;
	if (seen->at > rq->busy_mark)
		walt_rq_sync(rq, seen->at, true, &old);
	if (!seen->picked || curr->mark_start >= seen->at)
		return;
	walt_task_fold(curr, rq->window_start, seen->at,
		       walt_span(curr->exec_mark, seen->exec), 0, false, &old);
	curr->exec_mark = seen->exec;
}

/* Subtract @contrib from *@sum, stopping at 0; true if it had to stop. */
static inline bool walt_sub_clamped(u64 *sum, u64 contrib)
{
	if (*sum < contrib) {
		*sum = 0;
		return true;
	}
	*sum -= contrib;

	return false;
}

/*
 * First half of a migration: take task @t's share of the windows out of
 * @src, both rolled to the same window_start. A sum that holds less stops
 * at 0 and true is returned: a CPU's busy time and its tasks' run times
 * are charged at different moments, so the two may differ a little, and a
 * migration that skipped the hooks is caught elsewhere (walt_check_home()).
 */
static inline bool walt_depart(const struct walt_task_win *t,
			       struct walt_rq_win *src)
{
	bool clamped;

	clamped = walt_sub_clamped(&src->curr_runnable_sum, t->curr_window);
	clamped |= walt_sub_clamped(&src->prev_runnable_sum, t->prev_window);

	return clamped;
}

/**
 * struct walt_share - busy time per window that a CPU's sums do not show yet
 * @window_start: the window of @curr (0: none yet)
 * @curr: for the CPU's curr_runnable_sum in that window
 * @prev: for its prev_runnable_sum; both 0: nothing pending
 *
 * A task that wakes up on another CPU leaves its source without the
 * source's rq lock (walt.c, walt_migrate()): its share is recorded in the
 * window of its mark and taken out of the source's sums at the source's
 * next sync (walt_share_take()), as PELT takes the load of such a task
 * out of its old cfs_rq at the next update. IRQ time that interrupts an
 * idle CPU is recorded the same way, without the rq lock, and added to
 * the sums at the CPU's next sync (walt_share_add_idle(),
 * walt_share_give()). A record rolls as the sums do (walt_share_roll()),
 * so it can wait for that sync any number of windows.
 */
struct walt_share {
	u64	window_start;
	u64	curr;
	u64	prev;
};

/*
 * Move @sh to the window starting at @window_start, if that is later: it
 * rolls as the sums it is for roll (walt_rq_rollover()). Both are on the
 * window grid.
 */
static inline void walt_share_roll(struct walt_share *sh, u64 window_start,
				   u32 window)
{
	u64 nr;

	if (window_start <= sh->window_start)
		return;
	nr = div_u64(window_start - sh->window_start, window);
	sh->prev = nr == 1 ? sh->curr : 0;
	sh->curr = 0;
	sh->window_start = window_start;
}

static inline bool walt_share_empty(const struct walt_share *sh)
{
	return !sh->curr && !sh->prev;
}

/* Add @add to @sh; records of different windows meet in the later one. */
static inline void walt_share_merge(struct walt_share *sh,
				    struct walt_share add, u32 window)
{
	walt_share_roll(&add, sh->window_start, window);
	walt_share_roll(sh, add.window_start, window);
	sh->curr += add.curr;
	sh->prev += add.prev;
}

/*
 * Record in @rm that task @t, folded on its source CPU, left it: its share
 * is in the window of its mark. Shares recorded in different windows (the
 * wakers' clocks differ a little) meet in the later one.
 */
static inline void walt_share_add_task(struct walt_share *rm,
				       const struct walt_task_win *t,
				       u32 window)
{
	u64 windows = t->mark_start;
	struct walt_share share = {
		.window_start = t->mark_start - do_div(windows, window),
		.curr = t->curr_window,
		.prev = t->prev_window,
	};

	walt_share_merge(rm, share, window);
}

/*
 * Take @rm out of @rq's sums and empty it, @rq synced to @rm's window or
 * a later one; a sum that holds less stops at 0, as in walt_depart(). The
 * emptied record keeps @rq's window. Returns false, changing nothing,
 * while @rq is still before @rm's window (its clock behind that of a
 * waker) or nothing is pending.
 */
static inline bool walt_share_take(struct walt_rq_win *rq,
				   struct walt_share *rm, u32 window)
{
	if (walt_share_empty(rm) || rq->window_start < rm->window_start)
		return false;
	walt_share_roll(rm, rq->window_start, window);
	walt_sub_clamped(&rq->curr_runnable_sum, rm->curr);
	walt_sub_clamped(&rq->prev_runnable_sum, rm->prev);
	rm->curr = 0;
	rm->prev = 0;
	return true;
}

/*
 * Charge the busy part of the idle task's interval [@idle->mark_start,
 * @c->wallclock), which an IRQ ends (@c->irqtime of it, all of it while
 * tasks wait on IO and io_is_busy is set), to @sh instead of the CPU's
 * sums: what walt_update_busy() adds to them, per window of the grid,
 * without rolling them. Then move the mark. A first event (mark 0) only
 * sets the mark; a clock gone backwards changes nothing. The common case,
 * an IRQ inside @sh's window, needs no division.
 */
static inline void walt_share_add_idle(struct walt_share *sh,
				       struct walt_task_win *idle,
				       const struct walt_ctx *c)
{
	u64 now = c->wallclock, windows = now, from;
	struct walt_rq_win part;

	if (!c->window_size || now < idle->mark_start)
		return;
	if (idle->mark_start && walt_is_busy(c)) {
		from = walt_busy_start(idle->mark_start, now, c);
		if (sh->window_start && from >= sh->window_start &&
		    now < sh->window_start + c->window_size) {
			sh->curr += walt_scaled_span(from, now, c);
			idle->mark_start = now;
			return;
		}
		part = (struct walt_rq_win) {
			.window_start = now - do_div(windows, c->window_size),
		};
		walt_rq_account(&part, from, now, c);
		walt_share_merge(sh, (struct walt_share) {
					.window_start = part.window_start,
					.curr = part.curr_runnable_sum,
					.prev = part.prev_runnable_sum,
				 }, c->window_size);
	}
	idle->mark_start = now;
}

/*
 * Add @sh to @rq's sums and empty it, @rq synced to @sh's window or a
 * later one; the emptied record keeps @rq's window. Returns false,
 * changing nothing, while @rq is before @sh's window or nothing is
 * pending.
 */
static inline bool walt_share_give(struct walt_rq_win *rq,
				   struct walt_share *sh, u32 window)
{
	if (walt_share_empty(sh) || rq->window_start < sh->window_start)
		return false;
	walt_share_roll(sh, rq->window_start, window);
	rq->curr_runnable_sum += sh->curr;
	rq->prev_runnable_sum += sh->prev;
	sh->curr = 0;
	sh->prev = 0;
	return true;
}

/*
 * @rq's prev_runnable_sum as a sync at @now would leave it, @rq itself
 * unchanged: the busy time of the last window complete at @now, less the
 * shares of tasks that left it (@rm) and with the IRQ time of idle (@irq),
 * both not applied yet. The sums
 * of a CPU without events for a while lag @now: an idle CPU with its tick
 * stopped, or a busy one whose tick is late or stopped (nohz_full). @busy
 * and @c are as for walt_rq_sync().
 */
static inline u64 walt_rq_prev_at(const struct walt_rq_win *rq,
				  const struct walt_share *rm,
				  const struct walt_share *irq, u64 now,
				  bool busy, const struct walt_ctx *c)
{
	struct walt_rq_win synced = *rq;
	struct walt_share removed = *rm, irq_time = *irq;

	walt_rq_sync(&synced, now, busy, c);
	walt_share_take(&synced, &removed, c->window_size);
	walt_share_give(&synced, &irq_time, c->window_size);
	return synced.prev_runnable_sum;
}

/*
 * Second half of a migration: task @t arrives on @dst, whose clock reads
 * @c->wallclock, with the share that left its source's sums. Roll both to
 * the window holding the arrival time, then add the share. An arrival
 * never precedes the departure: a destination clock behind the task's
 * mark_start (the source's clock at departure, ahead by cross-CPU skew
 * of sched_clock) is taken as mark_start. Otherwise the update would be
 * refused as a clock gone backwards and the task's windows, one ahead of
 * @dst's after a boundary, would put its curr into @dst's prev.
 */
static inline void walt_arrive(struct walt_task_win *t,
			       struct walt_rq_win *dst,
			       const struct walt_ctx *c)
{
	struct walt_ctx at = *c;

	at.wallclock = max(c->wallclock, t->mark_start);
	walt_update_busy(t, dst, &at);
	dst->curr_runnable_sum += t->curr_window;
	dst->prev_runnable_sum += t->prev_window;
}

#endif /* _KERNEL_SCHED_WALT_WINDOW_H */
