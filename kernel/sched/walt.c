// SPDX-License-Identifier: GPL-2.0
/*
 * Window-Assisted Load Tracking (WALT) as a utilization-signal provider.
 *
 * Based on the WALT RFC by Srivatsa Vaddagiri and Vikram Mulukutla (2016).
 * The window arithmetic is in walt_window.h; this file feeds it scheduler
 * events and exposes the result:
 *
 *   CPU utilization  = prev_runnable_sum * 1024 / window, capped at the
 *                      CPU's capacity: the busy time of the last complete
 *                      window, frequency and capacity invariant;
 *   task utilization = demand * 1024 / window, demand being the max of the
 *                      task's last window and the average of its last N.
 *
 * Locking: a CPU's struct walt_rq_win and the windows of the tasks whose
 * contribution it holds are protected by that CPU's rq->lock. A migration
 * takes the task's contribution out of the source's sums (migrate hook)
 * and adds it to the destination's under the destination rq->lock
 * (activate hook with ENQUEUE_MIGRATED); in between it is owned by the
 * migrating task alone (walt.in_transit). A queued task leaves under the
 * source rq->lock, which its migration holds; a waking task, which only
 * p->pi_lock protects, leaves a record (walt_pending) that the source
 * takes out of its sums at its next sync, under its rq->lock. The sums
 * are written inside a seqcount write section as well, for
 * walt_cpu_util(), which reads them without the lock.
 *
 * Charging: a CPU's busy time by the intervals in which a task (not idle)
 * runs there, a task's windows from its se.sum_exec_runtime, each at its
 * own slow-path events (walt_sync(), walt_fold()). A switch between two
 * tasks inside the current window charges nothing (walt_switch()).
 *
 * Clock: the scheduler's own, rq_clock() where the event happens under an
 * updated rq clock (switch, tick, most activations), sched_clock_cpu()
 * elsewhere; see walt_clock(). Window boundaries are multiples of the
 * window size on it, the same on every CPU as far as sched_clock is
 * (exactly, with a stable sched_clock: x86 with a constant TSC, arm and
 * arm64 with the architected timer).
 */
#include <linux/cpuhotplug.h>
#include <linux/ctype.h>
#include <linux/mmu_context.h>
#include <linux/sched/clock.h>
#include <linux/sysctl.h>
#include <kunit/visibility.h>

#include "sched.h"
#include "walt_window.h"

#define CREATE_TRACE_POINTS
#include <trace/events/walt.h>

#define WALT_WINDOW_MIN		(5 * NSEC_PER_MSEC)
#define WALT_WINDOW_MAX		NSEC_PER_SEC
#define WALT_WINDOW_DEFAULT	(20 * NSEC_PER_MSEC)

/*
 * Window size in ns: walt_ravg_window= at boot, sched_walt_ravg_window at
 * run time (walt_set_window(), with no tracking session running).
 */
static unsigned int walt_window __read_mostly = WALT_WINDOW_DEFAULT;
/* N, the number of windows averaged into a task's demand. */
static unsigned int walt_hist_size __read_mostly = 5;
/* Idle with tasks waiting on IO counts as busy. */
static unsigned int walt_io_is_busy __read_mostly;
/*
 * On while io_is_busy is set: switches to and from idle then account the
 * idle task (walt_update_idle()), whose time may be busy. Without it the
 * idle task's mark moves only at its ticks and IRQs (walt_irq()), which
 * is all the IRQ time of idle needs: an IRQ that interrupts idle began
 * after the switch to idle.
 */
static DEFINE_STATIC_KEY_FALSE(walt_idle_io_key);
/* A task's demand for placement before its first sample, % of a window. */
static unsigned int walt_init_task_load_pct __read_mostly = 15;
/*
 * Runnable wait counts in a task's demand (not in its CPU's busy time),
 * see walt_window.h. Read at each fold; the marks move whether it is set
 * or not, so a change applies from the next fold with nothing to reset.
 */
VISIBLE_IF_KUNIT unsigned int walt_account_wait_time __read_mostly;
EXPORT_SYMBOL_IF_KUNIT(walt_account_wait_time);

/*
 * Per-CPU window sums, written under the CPU's rq->lock inside a write
 * section of walt_rq_seq (walt_rq_write_begin()), so that walt_rq_read()
 * copies them whole without the lock. Read field by field, a read that
 * straddles a rollover can take the old window_start with the new, empty
 * curr sum and see a busy CPU as idle, and 32-bit CPUs tear the 64-bit
 * values.
 */
static DEFINE_PER_CPU(struct walt_rq_win, walt_rq);
static DEFINE_PER_CPU(seqcount_t, walt_rq_seq);
/* The window start the tick last reported to schedutil; under rq->lock. */
static DEFINE_PER_CPU(u64, walt_freq_window);
/*
 * arch_scale_cpu_capacity() as of the CPU's last slow-path event, under
 * rq->lock: it is a call on x86, and capacities change only when the
 * topology or a cpufreq policy is set up. A change is applied at the
 * CPU's next sync (walt_sync()), at most one tick late while it is busy.
 */
static DEFINE_PER_CPU(unsigned long, walt_cpu_scale) = SCHED_CAPACITY_SCALE;
/*
 * Until when a switch away from the CPU's current task may charge
 * nothing (walt_switch()): walt_lazy_end() as of the last fold of that
 * task. Written under rq->lock where the current task is folded (the
 * slow switch and the tick); read by the switch, on its own CPU.
 */
static DEFINE_PER_CPU(u64, walt_lazy_until);
/*
 * The frequency scale of the CPU's last sync and its lazy switches since
 * (walt_scale_catch_up()); under rq->lock, written by the syncs and the
 * lazy switches, on the CPU's own events but for a migration's sync.
 */
static DEFINE_PER_CPU(struct walt_seen, walt_seen);
/*
 * Shares of tasks that woke up on other CPUs, to take out of the CPU's
 * sums at its next sync (walt_take_removed()). @lock serializes the
 * wakers that add to @rm and the CPU's sync that empties it, which holds
 * the rq lock and, if it changes @rm, is inside the sums' write section:
 * a reader that copies the sums and @rm in one read section of each
 * (walt_rq_read()) sees a share either in both or in neither.
 */
struct walt_pending {
	raw_spinlock_t			lock;
	seqcount_raw_spinlock_t		seq;
	struct walt_share		rm;
};

static DEFINE_PER_CPU(struct walt_pending, walt_pending);
/*
 * IRQ time that interrupted the CPU's idle task, to add to its sums at its
 * next sync on the CPU itself (walt_give_irq()). Written only by the CPU
 * in its irq hook and emptied only by the CPU's own syncs, under the rq
 * lock: both with interrupts disabled, so they never overlap and share no
 * lock. Remote syncs leave it. @seq is for readers, as for walt_pending;
 * the idle task's windows are as local (walt_update_idle(), walt_irq()).
 */
struct walt_irq_time {
	seqcount_t		seq;
	struct walt_share	share;
};

static DEFINE_PER_CPU(struct walt_irq_time, walt_irq_time);
/*
 * The first window boundary of this tracking session; see walt_start(),
 * which writes it while no hook runs: the hooks that read it go on after
 * it and off, every CPU out of them, before the next start, so even a
 * 32-bit CPU reads it whole.
 */
static u64 walt_session_start;
/*
 * The tracking session: a new number, never 0, at each walt_start(), and
 * in each task's walt.session once its events of the session wrote its
 * windows. 32 bits, so that a reader without the task's rq lock
 * (walt_task_util()) reads it whole on any architecture.
 */
static unsigned int walt_session;
/*
 * The counting generation of the predicted sums: a new one, never 0, each
 * time the queue hooks go on (walt_pred_switch()), 0 while they are off
 * or going off, and at each tracking session's start (walt_start()). A
 * task whose walt.pred_gen holds it, not 0, is counted in its CPU's
 * walt_pred; at 0 nothing is counted, added or taken. walt_gen_last is
 * the last one handed out, under the framework's mutex.
 */
static unsigned int walt_gen;
static unsigned int walt_gen_last;

/*
 * Predicted demand of a CPU's RUNNABLE tasks, the sum of their
 * win.pred_demand (schedutil's pl), and how many they are. Under the
 * CPU's rq->lock, written inside the sums' write section (walt_rq_seq)
 * so that walt_cpu_util_pred() reads both fields whole without the lock.
 * Kept only while the queue hooks are on, i.e. while a schedutil policy
 * has pl set: every enqueue and dequeue pays for them.
 */
struct walt_pred {
	u64		sum;
	unsigned int	nr;
};

static DEFINE_PER_CPU(struct walt_pred, walt_pred);

#if IS_ENABLED(CONFIG_KUNIT)
/* Test access to the per-CPU sums and the window size. */
struct walt_rq_win *walt_rq_of(int cpu)
{
	return &per_cpu(walt_rq, cpu);
}
EXPORT_SYMBOL_IF_KUNIT(walt_rq_of);

u32 walt_window_size(void)
{
	return walt_window;
}
EXPORT_SYMBOL_IF_KUNIT(walt_window_size);
#endif

VISIBLE_IF_KUNIT struct sched_util_signal walt_signal;

/* Start changing @rq's sums; the rq lock is held. */
static struct walt_rq_win *walt_rq_write_begin(struct rq *rq)
{
	lockdep_assert_rq_held(rq);
	write_seqcount_begin(per_cpu_ptr(&walt_rq_seq, cpu_of(rq)));
	return per_cpu_ptr(&walt_rq, cpu_of(rq));
}

static void walt_rq_write_end(struct rq *rq)
{
	write_seqcount_end(per_cpu_ptr(&walt_rq_seq, cpu_of(rq)));
}

/*
 * @cpu's sums, read whole without its rq lock, for the tracepoints of a
 * migration, which report the source's sums from the destination: a
 * 32-bit CPU reads a u64 in two halves.
 */
static struct walt_rq_win walt_rq_sums(int cpu)
{
	seqcount_t *seq = per_cpu_ptr(&walt_rq_seq, cpu);
	struct walt_rq_win copy;
	unsigned int start;

	do {
		start = read_seqcount_begin(seq);
		copy = per_cpu(walt_rq, cpu);
	} while (read_seqcount_retry(seq, start));
	return copy;
}

/*
 * Event times. The scheduler has just read sched_clock into the rq clock
 * at most events, so reading it again would only cost: rq->clock is the
 * last sched_clock_cpu() of the CPU, made monotonic; ktime_get_ns() would
 * cost about 25 instructions more per event.
 * Where sched_clock stops across suspend no windows pass for the sleep,
 * where it runs on the sleep is idle time on every CPU, and it may be read
 * while suspending, unlike timekeeping.
 */
static u64 walt_clock(struct rq *rq)
{
	return rq_clock(rq);
}

/* For the events that come without an updated rq clock. */
static u64 walt_clock_of(int cpu)
{
	return sched_clock_cpu(cpu);
}

/* The window boundary at or before @now: the same on every CPU. */
static u64 walt_window_floor(u64 now)
{
	u64 windows = now;

	return now - do_div(windows, walt_window);
}

/*
 * Whether @p is @rq's idle task. Not is_idle_task(): idle injection
 * (play_idle_precise()) sets and clears PF_IDLE on a running kthread
 * without a context switch, while the lazy switch relies on the running
 * task's idleness changing only at a switch (walt_lazy_until). Injected
 * idle is then the kthread's run time, busy, as PELT counts it in the
 * kthread's own class.
 */
static bool walt_is_idle(struct rq *rq, struct task_struct *p)
{
	return p == rq->idle;
}

/*
 * Whether @event can close a busy interval (walt_is_busy()): waking,
 * picking and migrating never do, account_wait_time being always off.
 * Only these events need the scales, which are a call on x86.
 */
static __always_inline bool walt_event_may_be_busy(enum walt_event event)
{
	return event == WALT_PUT_PREV_TASK || event == WALT_TASK_UPDATE ||
	       event == WALT_IRQ_UPDATE;
}

/*
 * Inline, so that what the event does not need is never computed: the
 * IO wait state (only for idle) and the scales only for events that can
 * be busy, 0 otherwise and never used then. nr_hist is left to the
 * rollover.
 */
static __always_inline void walt_ctx_init(struct walt_ctx *c, struct rq *rq,
					  struct task_struct *p,
					  enum walt_event event,
					  u64 wallclock, u64 irqtime)
{
	int cpu = cpu_of(rq);
	bool is_idle = walt_is_idle(rq, p);

	*c = (struct walt_ctx) {
		.wallclock	= wallclock,
		.irqtime	= irqtime,
		.window_size	= walt_window,
		.is_idle	= is_idle,
		.waiting_on_io	= walt_event_may_be_busy(event) && is_idle &&
				  READ_ONCE(walt_io_is_busy) &&
				  atomic_read(&rq->nr_iowait),
		.event		= event,
	};
	if (walt_event_may_be_busy(event)) {
		c->freq_scale = arch_scale_freq_capacity(cpu);
		c->cpu_scale = per_cpu(walt_cpu_scale, cpu);
	}
}

#ifdef CONFIG_SCHED_UTIL_CHECKS
/*
 * @p's share must be in the sums of the CPU its events are accounted on:
 * a migration that bypassed the framework's hook leaves it behind, and
 * the source's sums then hold busy time that has moved. Set the home at
 * the task's first event and at each arrival.
 */
static void walt_check_home(struct rq *rq, struct task_struct *p)
{
	int home = p->walt.home_cpu - 1;

	if (walt_is_idle(rq, p) || p->walt.in_transit)
		return;
	if (home < 0) {
		p->walt.home_cpu = cpu_of(rq) + 1;
		return;
	}
	if (likely(home == cpu_of(rq)))
		return;
	/*
	 * The rq lock is held: printing to the console from here can wait on
	 * a console user that waits on this lock, and the report would then
	 * hang the CPU that writes it. Defer the console output.
	 */
	printk_deferred_enter();
	WARN_ONCE(1, "walt: %s/%d accounted on CPU %d, its window share in CPU %d's sums: a migration skipped the hook\n",
		  p->comm, p->pid, cpu_of(rq), home);
	printk_deferred_exit();
}

static void walt_set_home(struct rq *rq, struct task_struct *p)
{
	p->walt.home_cpu = cpu_of(rq) + 1;
}
#else
static inline void walt_check_home(struct rq *rq, struct task_struct *p) { }
static inline void walt_set_home(struct rq *rq, struct task_struct *p) { }
#endif

/*
 * Whether @p's state is a leftover of an earlier tracking session.
 * walt_start() does not walk the tasks: each keeps its state until its
 * first event of the session, which forgets it (walt_forget_stale()).
 */
static bool walt_is_stale(const struct task_struct *p)
{
	unsigned int session = READ_ONCE(p->walt.session);

	return session && session != READ_ONCE(walt_session);
}

/*
 * Reset a leftover as fork would, at its task's first event of the
 * session: a sleeping task's, or that of a task that release_task()
 * unhashed and that still runs its exit path. Its mark is before the
 * session's first boundary (walt_session_first()), so before the current
 * window, and the fast switch sends its task to the slow path
 * (walt_switch_charges_nothing()): only the slow paths need to look.
 */
static bool walt_forget_stale(struct task_struct *p)
{
	if (likely(!walt_is_stale(p)))
		return false;
	memset(&p->walt, 0, sizeof(p->walt));
	return true;
}

static bool walt_pred_counted(const struct task_struct *p)
{
	unsigned int gen = READ_ONCE(walt_gen);

	return gen && p->walt.pred_gen == gen;
}

/*
 * Change @cpu's predicted sum by @delta and its count by @nr, inside a
 * write section of its sums that the caller holds.
 */
static void __walt_pred_add(int cpu, s64 delta, int nr)
{
	struct walt_pred *wp = per_cpu_ptr(&walt_pred, cpu);

	wp->sum += delta;
	wp->nr += nr;
	if (IS_ENABLED(CONFIG_SCHED_UTIL_CHECKS) && !wp->nr && wp->sum) {
		printk_deferred_enter();	/* rq->lock: see walt_check_home() */
		WARN_ONCE(1, "walt: CPU %d predicts %llu ns with no task counted\n",
			  cpu, wp->sum);
		printk_deferred_exit();
	}
}

static void walt_pred_add(struct rq *rq, s64 delta, int nr)
{
	walt_rq_write_begin(rq);
	__walt_pred_add(cpu_of(rq), delta, nr);
	walt_rq_write_end(rq);
}

/*
 * How far the prediction of @p, just folded, moved from @old, as far as
 * its CPU's sum counts it: that sum must follow.
 */
static s64 walt_pred_moved(const struct task_struct *p, u32 old)
{
	if (!walt_pred_counted(p))
		return 0;
	return (s64)p->walt.win.pred_demand - old;
}

/* Scales of @rq's CPU for charging busy time; see walt_ctx_init(). */
static void walt_ctx_scales(struct walt_ctx *c, struct rq *rq, u64 now)
{
	int cpu = cpu_of(rq);

	*c = (struct walt_ctx) {
		.wallclock	= now,
		.window_size	= walt_window,
		.nr_hist	= READ_ONCE(walt_hist_size),
		.freq_scale	= arch_scale_freq_capacity(cpu),
		.cpu_scale	= per_cpu(walt_cpu_scale, cpu),
	};
}

/*
 * Take the shares of tasks that woke up elsewhere out of @rq's sums @wrq,
 * inside their write section. The unlocked look may miss a share being
 * added: the next sync takes it.
 */
static void walt_take_removed(struct rq *rq, struct walt_rq_win *wrq)
{
	struct walt_pending *pd = per_cpu_ptr(&walt_pending, cpu_of(rq));

	if (!READ_ONCE(pd->rm.curr) && !READ_ONCE(pd->rm.prev))
		return;
	raw_spin_lock(&pd->lock);
	write_seqcount_begin(&pd->seq);
	walt_share_take(wrq, &pd->rm, walt_window);
	write_seqcount_end(&pd->seq);
	raw_spin_unlock(&pd->lock);
}

/* Add the IRQ time of @rq's idle task to its sums @wrq, if @rq is ours. */
static void walt_give_irq(struct rq *rq, struct walt_rq_win *wrq)
{
	struct walt_irq_time *it;

	if (cpu_of(rq) != smp_processor_id())
		return;
	it = this_cpu_ptr(&walt_irq_time);
	if (walt_share_empty(&it->share))
		return;
	write_seqcount_begin(&it->seq);
	walt_share_give(wrq, &it->share, walt_window);
	write_seqcount_end(&it->seq);
}

/*
 * Bring @rq's sums to @now: roll its window and charge the CPU's busy time
 * since its last sync. @busy is whether a task (not idle) runs on the CPU:
 * it has since the last sync, as every switch to or from idle syncs. The
 * capacity cache (walt_cpu_scale) is refreshed here.
 */
static void walt_sync(struct rq *rq, u64 now, bool busy)
{
	struct walt_seen *seen = per_cpu_ptr(&walt_seen, cpu_of(rq));
	struct walt_rq_win *wrq = walt_rq_write_begin(rq);
	int cpu = cpu_of(rq);
	struct walt_ctx c;

	per_cpu(walt_cpu_scale, cpu) = arch_scale_cpu_capacity(cpu);
	walt_ctx_scales(&c, rq, now);
	if (busy && c.freq_scale != seen->scale) {
		struct task_struct *curr = rcu_dereference_protected(rq->curr,
					lockdep_is_held(__rq_lockp(rq)));
		u32 pred = curr->walt.win.pred_demand;

		walt_scale_catch_up(wrq, &curr->walt.win, seen, &c);
		__walt_pred_add(cpu, walt_pred_moved(curr, pred), 0);
	}
	walt_rq_sync(wrq, now, busy, &c);
	walt_take_removed(rq, wrq);
	walt_give_irq(rq, wrq);
	walt_rq_write_end(rq);
	*seen = (struct walt_seen) { .at = now, .scale = c.freq_scale };
}

/* Whether a task other than idle runs on @rq, whose lock is held. */
static bool walt_rq_busy(struct rq *rq)
{
	return !walt_is_idle(rq, rcu_dereference_protected(rq->curr,
					lockdep_is_held(__rq_lockp(rq))));
}

/*
 * @p becomes RUNNABLE on @rq: count its prediction there. A leftover of
 * an earlier session is forgotten first, as its first fold would, so that
 * no fold forgets a counted prediction.
 */
static void walt_enqueue(struct rq *rq, struct task_struct *p)
{
	unsigned int gen = READ_ONCE(walt_gen);

	if (!gen || p->walt.pred_gen == gen)
		return;
	walt_forget_stale(p);
	p->walt.pred_gen = gen;
	walt_pred_add(rq, p->walt.win.pred_demand, 1);
}

static void walt_dequeue(struct rq *rq, struct task_struct *p)
{
	if (!walt_pred_counted(p))
		return;
	p->walt.pred_gen = 0;
	walt_pred_add(rq, -(s64)p->walt.win.pred_demand, -1);
}

/*
 * What @p has run, its se.sum_exec_runtime, up to now if it is @running
 * (the tick reads it before task_tick() brings the sum up to date).
 */
static u64 walt_task_exec(struct rq *rq, struct task_struct *p, bool running)
{
	u64 exec = p->se.sum_exec_runtime;

	if (running)
		exec += walt_span(p->se.exec_start, rq_clock_task(rq));
	return exec;
}

/*
 * How long @p has waited on a runqueue so far, from the scheduler's own
 * count (sched_info, which CONFIG_SCHEDSTATS and CONFIG_TASK_DELAY_ACCT
 * build): the waits that ended, and the one in progress on @rq if @p is
 * queued there, not running and not a delayed dequeue. A lazy switch
 * leaves the mark where it was, so the wait is read at folds only, as the
 * run time is. A stamp alone does not say queued: 6.12 stamps a delayed
 * dequeue that is moved to another CPU, and a task blocked so keeps the
 * stamp (the waking migration of such a task, under p->pi_lock, must not
 * read a clock of an rq it does not hold).
 */
static u64 walt_task_waited(struct rq *rq, struct task_struct *p)
{
#ifdef CONFIG_SCHED_INFO
	u64 queued = p->sched_info.last_queued;

	if (!queued || !task_on_rq_queued(p) || p->se.sched_delayed)
		return p->sched_info.run_delay;
	return p->sched_info.run_delay + walt_span(queued, rq_clock(rq));
#else
	return 0;
#endif
}

/*
 * Report the windows that @p's history took since its last report: those
 * of this update, and those of a fold at a frequency change that came
 * before it (walt_scale_catch_up()). Under @p's rq lock.
 */
static __always_inline void walt_trace_history(struct task_struct *p,
					       int cpu, enum walt_event event)
{
	u32 samples = p->walt.win.untraced_samples;

	if (!samples)
		return;
	p->walt.win.untraced_samples = 0;
	trace_walt_update_history(p, cpu, event, samples, walt_window);
}

/*
 * Fold what @p (not idle) ran since its last fold on @rq into its
 * windows, rolled to @window_start, the window holding @now. @running: @p
 * has been on the CPU up to @now.
 */
static __always_inline void walt_fold_to(struct rq *rq,
					 struct task_struct *p,
					 enum walt_event event, u64 now,
					 u64 window_start, bool running)
{
	struct walt_rq_win *wrq = &per_cpu(walt_rq, cpu_of(rq));
	struct walt_task_win *t = &p->walt.win;
	u64 exec = walt_task_exec(rq, p, running);
	u64 waited = walt_task_waited(rq, p);
	u32 pred = t->pred_demand;
	struct walt_ctx c;
	s64 delta;

	walt_forget_stale(p);
	walt_check_home(rq, p);
	p->walt.session = walt_session;
	walt_ctx_scales(&c, rq, now);
	walt_task_fold(t, window_start, now, walt_span(t->exec_mark, exec),
		       READ_ONCE(walt_account_wait_time) ?
		       walt_span(t->wait_mark, waited) : 0, running, &c);
	t->exec_mark = exec;
	t->wait_mark = waited;
	delta = walt_pred_moved(p, pred);
	if (delta)
		walt_pred_add(rq, delta, 0);
	trace_walt_update_task_ravg_tp(p, cpu_of(rq), event, now, wrq);
	trace_walt_update_task_ravg(p, cpu_of(rq), event, now, wrq, 0,
				    walt_window);
	walt_trace_history(p, cpu_of(rq), event);
}

/* Fold @p on @rq, synced to @now and holding its lock: see walt_fold_to(). */
static noinline void walt_fold(struct rq *rq, struct task_struct *p,
			       enum walt_event event, u64 now, bool running)
{
	walt_fold_to(rq, p, event, now,
		     per_cpu(walt_rq, cpu_of(rq)).window_start, running);
}

/*
 * Account @event of @rq's idle task at @wallclock: the IRQ time and IO
 * wait that idle time may count as busy (walt_idle_is_busy()). Tasks are
 * folded instead, see walt_fold(). The rq lock is held.
 */
static void walt_update_idle(struct rq *rq, enum walt_event event,
			     u64 wallclock, u64 irqtime)
{
	int cpu = cpu_of(rq);
	struct task_struct *idle = rq->idle;
	struct walt_rq_win *wrq;
	struct walt_ctx c;

	walt_ctx_init(&c, rq, idle, event, wallclock, irqtime);
	c.nr_hist = READ_ONCE(walt_hist_size);
	/*
	 * A clock that went backwards is no reason to stop the kernel and
	 * loses nothing: the next event with a sane clock accounts it.
	 */
	wrq = walt_rq_write_begin(rq);
	walt_update_busy(&idle->walt.win, wrq, &c);
	walt_rq_write_end(rq);
	trace_walt_update_task_ravg_tp(idle, cpu, event, wallclock, wrq);
	trace_walt_update_task_ravg(idle, cpu, event, wallclock, wrq, irqtime,
				    walt_window);
}

/* Arrival after a migration: roll the task here, add its share. */
static noinline void walt_activate_arrival(struct rq *rq,
					   struct task_struct *p, u64 now)
{
	struct walt_rq_win *wrq = &per_cpu(walt_rq, cpu_of(rq));
	struct walt_ctx c;

	if (walt_forget_stale(p)) {
		/* In transit in an earlier session: now a first event. */
		walt_fold(rq, p, WALT_TASK_WAKE, now, false);
		return;
	}
	walt_ctx_init(&c, rq, p, WALT_TASK_MIGRATE, now, 0);
	c.nr_hist = READ_ONCE(walt_hist_size);
	walt_arrive(&p->walt.win, walt_rq_write_begin(rq), &c);
	walt_rq_write_end(rq);
	/*
	 * The source folded all it ran: any scale is right for nothing, and
	 * this CPU's lets the pick here be lazy.
	 */
	p->walt.win.freq_scale = arch_scale_freq_capacity(cpu_of(rq));
	trace_walt_update_task_ravg_tp(p, cpu_of(rq), WALT_TASK_MIGRATE,
				       c.wallclock, wrq);
	trace_walt_update_task_ravg(p, cpu_of(rq), WALT_TASK_MIGRATE,
				    c.wallclock, wrq, 0, walt_window);
	walt_trace_history(p, cpu_of(rq), WALT_TASK_MIGRATE);
	p->walt.in_transit = false;
	walt_set_home(rq, p);

	if (trace_walt_migration_update_sum_tp_enabled()) {
		struct walt_rq_win src = walt_rq_sums(p->walt.src_cpu);

		trace_walt_migration_update_sum_tp(p, p->walt.src_cpu,
						   src.curr_runnable_sum,
						   src.prev_runnable_sum,
						   cpu_of(rq),
						   wrq->curr_runnable_sum,
						   wrq->prev_runnable_sum);
	}
	if (trace_walt_migration_update_sum_enabled()) {
		struct walt_rq_win src = walt_rq_sums(p->walt.src_cpu);

		trace_walt_migration_update_sum(p, p->walt.src_cpu,
						src.curr_runnable_sum,
						src.prev_runnable_sum);
		trace_walt_migration_update_sum(p, cpu_of(rq),
						wrq->curr_runnable_sum,
						wrq->prev_runnable_sum);
	}
}

/* The framework's dispatcher has updated the rq clock. */
static noinline void walt_activate_slow(struct rq *rq, struct task_struct *p,
					int flags)
{
	u64 now = walt_clock(rq);

	walt_sync(rq, now, walt_rq_busy(rq));

	if (flags & ENQUEUE_INITIAL) {
		/* Fresh from fork: do not inherit the parent's windows. */
		memset(&p->walt, 0, sizeof(p->walt));
		walt_set_home(rq, p);
		walt_fold(rq, p, WALT_TASK_WAKE, now, false);
	} else if (unlikely(p->walt.in_transit)) {
		walt_activate_arrival(rq, p, now);
	} else if (flags & ENQUEUE_WAKEUP) {
		walt_fold(rq, p, WALT_TASK_WAKE, now, false);
	}
}

/*
 * A probe on walt_update_task_ravg_tp, or the walt_update_task_ravg event,
 * follows every event: every switch and wake-up is then accounted, so
 * that the stream a trace consumer (LISA) reads is complete.
 */
static __always_inline bool walt_traced(void)
{
	return trace_walt_update_task_ravg_tp_enabled() ||
	       trace_walt_update_task_ravg_enabled();
}

/*
 * Only a fork and an arrival after a migration need WALT here. A plain
 * wake-up ends a sleep, which is never busy, and the pick that follows
 * folds the task anyway: the windows come out the same either way
 * (walt_window_kunit.c, walt_wake_skip_test). It is still accounted while
 * a probe is on the tracepoint or its event is enabled.
 */
static void walt_activate(struct rq *rq, struct task_struct *p, int flags)
{
	if (likely(!(flags & ENQUEUE_INITIAL) && !p->walt.in_transit &&
		   !walt_traced()))
		return;
	walt_activate_slow(rq, p, flags);
}

/* @curr, @rq's current task, has just been folded (or is idle). */
static void walt_set_lazy_until(struct rq *rq, struct task_struct *curr)
{
	per_cpu(walt_lazy_until, cpu_of(rq)) =
		walt_lazy_end(&per_cpu(walt_rq, cpu_of(rq)), walt_window,
			      !walt_is_idle(rq, curr));
}

/*
 * Whether switches account the idle task: while its time may be busy
 * (io_is_busy), and while traced, so that the event stream is complete.
 */
static __always_inline bool walt_idle_accounted(void)
{
	return static_branch_unlikely(&walt_idle_io_key) || walt_traced();
}

/* Every switch that walt_switch() does not finish itself. */
static noinline void walt_switch_slow(struct rq *rq, struct task_struct *prev,
				      struct task_struct *next, u64 now)
{
	assert_clock_updated(rq);
	SCHED_WARN_ON(rq != this_rq());
	walt_sync(rq, now, !walt_is_idle(rq, prev));
	if (!walt_is_idle(rq, prev))
		walt_fold(rq, prev, WALT_PUT_PREV_TASK, now, true);
	else if (walt_idle_accounted())
		walt_update_idle(rq, WALT_PUT_PREV_TASK, now, 0);
	if (!walt_is_idle(rq, next))
		walt_fold(rq, next, WALT_PICK_NEXT_TASK, now, false);
	else if (walt_idle_accounted())
		walt_update_idle(rq, WALT_PICK_NEXT_TASK, now, 0);
	walt_set_lazy_until(rq, next);
}

#ifdef CONFIG_SCHED_UTIL_CHECKS
/*
 * The fast switch does not look at @prev: the slow switch or tick that
 * last folded it set walt_lazy_until to the end of its window, or to 0 if
 * it was idle. Check that nothing moved the current task or its mark
 * behind that.
 */
static void walt_check_lazy(struct rq *rq, struct task_struct *prev)
{
	u64 until = per_cpu(walt_lazy_until, cpu_of(rq));

	if (likely(!walt_is_idle(rq, prev) &&
		   prev->walt.win.mark_start >= until - walt_window))
		return;
	printk_deferred_enter();	/* rq->lock: see walt_check_home() */
	WARN_ONCE(1, "walt: lazy switch from %s/%d, mark %llu, lazy until %llu: a fold skipped walt_lazy_until\n",
		  prev->comm, prev->pid, prev->walt.win.mark_start, until);
	printk_deferred_exit();
}
#else
static inline void walt_check_lazy(struct rq *rq, struct task_struct *prev) { }
#endif

/*
 * A lazy switch to idle: the CPU was busy up to @now and is synced, the
 * task put is not folded (walt_window.h, lazy idle).
 */
static void walt_switch_to_idle(struct rq *rq, struct task_struct *prev,
				u64 now)
{
	walt_check_lazy(rq, prev);
	walt_check_home(rq, prev);
	walt_sync(rq, now, true);
	__this_cpu_write(walt_lazy_until, 0);
}

/*
 * A lazy switch from idle: the CPU is busy from @now on, and a switch
 * away from the task picked can be lazy until @until.
 */
static void walt_switch_from_idle(struct rq *rq, u64 now, u64 until)
{
	walt_rq_idle_end(walt_rq_write_begin(rq), now);
	walt_rq_write_end(rq);
	__this_cpu_write(walt_lazy_until, until);
}

/*
 * A switch that walt_switch() cannot finish inline: to or from idle, which
 * may still be lazy, or the slow path.
 */
static noinline void walt_switch_other(struct rq *rq,
				       struct task_struct *prev,
				       struct task_struct *next, u64 now)
{
	struct walt_rq_win *wrq = this_cpu_ptr(&walt_rq);
	struct walt_seen *seen = this_cpu_ptr(&walt_seen);
	unsigned long scale = arch_scale_freq_capacity(cpu_of(rq));
	u64 until;

	if (walt_traced() || static_branch_unlikely(&walt_idle_io_key))
		goto slow;
	if (walt_is_idle(rq, next)) {
		if (now >= __this_cpu_read(walt_lazy_until) ||
		    scale != seen->scale)
			goto slow;
		walt_switch_to_idle(rq, prev, now);
		return;
	}
	if (!walt_is_idle(rq, prev))
		goto slow;
	until = walt_idle_lazy_end(wrq, walt_window);
	if (!walt_switch_charges_nothing(&next->walt.win, wrq->window_start,
					 until, now, scale, seen))
		goto slow;
	walt_switch_from_idle(rq, now, until);
	seen->at = now;
	seen->exec = next->se.sum_exec_runtime;
	seen->picked = true;
	walt_check_home(rq, next);
	return;
slow:
	walt_switch_slow(rq, prev, next, now);
}

/*
 * __schedule() updated the rq clock before picking @next, on this CPU.
 *
 * A switch between two tasks (neither idle) inside the window in which
 * @prev was last folded, to a task whose mark is in the current window,
 * charges nothing: the CPU is busy before and after, and what @prev ran
 * is in its sum_exec_runtime, folded into its windows at its next event
 * in a later window, at the frequency scale it ran at: the scale of the
 * CPU's last sync, unchanged. The switch only notes when it happened and
 * what @next had run then, in case the scale changes before the next
 * sync (walt_scale_catch_up()). walt_switch_charges_nothing() has the
 * condition. A switch to idle on that condition only syncs the CPU; one
 * from idle inside the window of the CPU's last sync, at its scale, to a
 * task that a lazy switch could pick, only moves the CPU's busy_mark
 * (walt_window.h, lazy idle). Anything else (a window to roll, a mark
 * from an earlier window, a changed frequency scale, io_is_busy, a probe
 * on the tracepoint) takes the slow path, which syncs the CPU and folds
 * both tasks.
 */
static void walt_switch(struct rq *rq, struct task_struct *prev,
			struct task_struct *next)
{
	/*
	 * rq_clock() without its CONFIG_SCHED_DEBUG check, whose WARN call
	 * alone makes every switch save and restore five more registers; the
	 * slow path checks. __schedule() has just updated the clock.
	 */
	u64 now = rq->clock;
	struct walt_seen *seen = this_cpu_ptr(&walt_seen);

	lockdep_assert_rq_held(rq);
	/* walt_lazy_until is 0 while idle runs: a switch from idle fails. */
	if (unlikely(walt_is_idle(rq, next) ||
		     !walt_switch_charges_nothing(&next->walt.win,
				__this_cpu_read(walt_rq.window_start),
				__this_cpu_read(walt_lazy_until), now,
				arch_scale_freq_capacity(cpu_of(rq)), seen) ||
		     walt_traced())) {
		walt_switch_other(rq, prev, next, now);
		return;
	}
	seen->at = now;
	seen->exec = next->se.sum_exec_runtime;
	seen->picked = true;
	walt_check_lazy(rq, prev);
	walt_check_home(rq, prev);
	walt_check_home(rq, next);
}

/*
 * Charge the CPU and fold the running task, at least once per tick. At
 * the first tick of a window, hand schedutil the window that just
 * completed. A busy CPU updates it soon anyway, but an idle one whose tick
 * runs may not for many ms, and would keep the OPP of its last busy window
 * that long. Whichever event rolled the window, the first tick in it
 * reports it, at most one tick after the boundary.
 */
static void walt_tick(struct rq *rq)
{
	struct task_struct *curr = rcu_dereference_protected(rq->curr,
					lockdep_is_held(__rq_lockp(rq)));
	struct walt_rq_win *wrq = &per_cpu(walt_rq, cpu_of(rq));
	u64 *reported = &per_cpu(walt_freq_window, cpu_of(rq));
	u64 now = walt_clock(rq);

	walt_sync(rq, now, !walt_is_idle(rq, curr));
	if (walt_is_idle(rq, curr))
		walt_update_idle(rq, WALT_TASK_UPDATE, now, 0);
	else
		walt_fold(rq, curr, WALT_TASK_UPDATE, now, true);
	walt_set_lazy_until(rq, curr);
	if (*reported != wrq->window_start &&
	    sched_util_signal_is_selected(&walt_signal)) {
		*reported = wrq->window_start;
		cpufreq_update_util(rq, 0);
	}
}

/*
 * @p wakes up on another CPU: only p->pi_lock is held, and @p, neither
 * queued nor running, is the waker's alone; its windows change with no rq
 * lock. Fold it in the window holding now, on the grid that all CPUs
 * share (@src's sums may lag it, idle), and record its share for @src to
 * take out at its next sync, as PELT's remove_entity_load_avg() does.
 * Its run time carries its own frequency scale, the one of its last
 * switch on @src, so that the fold needs nothing of @src's state but the
 * capacity.
 */
static void walt_depart_waking(struct rq *src, struct task_struct *p)
{
	struct walt_pending *pd = per_cpu_ptr(&walt_pending, cpu_of(src));
	u64 now = walt_clock_of(cpu_of(src));

	walt_fold_to(src, p, WALT_TASK_MIGRATE, now,
		     max(walt_window_floor(now), READ_ONCE(walt_session_start)),
		     false);
	raw_spin_lock(&pd->lock);
	write_seqcount_begin(&pd->seq);
	walt_share_add_task(&pd->rm, &p->walt.win, walt_window);
	write_seqcount_end(&pd->seq);
	raw_spin_unlock(&pd->lock);
}

/*
 * Take @p's share out of the source CPU's sums: at once for a queued task,
 * whose migration holds the source rq->lock and has dequeued it (the
 * clock is updated); at the source's next sync for a waking one, which
 * comes with only p->pi_lock (walt_depart_waking()). @p is not running
 * either way.
 *
 * The share may exceed what the sums hold by a little: the CPU's busy
 * time and the task's run time are charged at different moments, and the
 * task's clock leaves out IRQ time but not the other way round. The sums
 * stop at 0 then; a migration that skipped this hook is caught by
 * walt_check_home() instead.
 */
static void walt_migrate(struct task_struct *p, int new_cpu)
{
	struct rq *src = task_rq(p);
	u64 now;

	if (walt_is_idle(src, p))
		return;
	walt_forget_stale(p);
	if (p->walt.in_transit)
		return;
	if (!p->on_rq) {
		walt_depart_waking(src, p);
	} else {
		lockdep_assert_rq_held(src);
		now = walt_clock(src);
		walt_sync(src, now, walt_rq_busy(src));
		walt_fold(src, p, WALT_TASK_MIGRATE, now, false);
		walt_depart(&p->walt.win, walt_rq_write_begin(src));
		walt_rq_write_end(src);
	}
	p->walt.in_transit = true;
	p->walt.src_cpu = cpu_of(src);
}

/*
 * An IRQ ended that interrupted @rq's idle task, on this CPU: record its
 * time for the CPU's next sync (walt_irq_time), without the rq lock. Time
 * before the session's first boundary is not counted.
 */
static void walt_irq(struct rq *rq, u64 delta)
{
	struct walt_irq_time *it = this_cpu_ptr(&walt_irq_time);
	struct task_struct *idle = rq->idle;
	u64 now = walt_clock_of(cpu_of(rq));
	struct walt_ctx c;

	if (now < READ_ONCE(walt_session_start))
		return;
	walt_ctx_init(&c, rq, idle, WALT_IRQ_UPDATE, now, delta);
	write_seqcount_begin(&it->seq);
	walt_share_add_idle(&it->share, &idle->walt.win, &c);
	write_seqcount_end(&it->seq);
	trace_walt_update_task_ravg_tp(idle, cpu_of(rq), WALT_IRQ_UPDATE, now,
				       per_cpu_ptr(&walt_rq, cpu_of(rq)));
	trace_walt_update_task_ravg(idle, cpu_of(rq), WALT_IRQ_UPDATE, now,
				    per_cpu_ptr(&walt_rq, cpu_of(rq)), delta,
				    walt_window);
}

/* Copy the shares still to be taken out of @cpu's sums, without locks. */
VISIBLE_IF_KUNIT void walt_removed_read(int cpu, struct walt_share *rm)
{
	struct walt_pending *pd = per_cpu_ptr(&walt_pending, cpu);
	unsigned int start;

	do {
		start = read_seqcount_begin(&pd->seq);
		*rm = pd->rm;
	} while (read_seqcount_retry(&pd->seq, start));
}
EXPORT_SYMBOL_IF_KUNIT(walt_removed_read);

/* Copy @cpu's IRQ time of idle still to be added, without locks. */
static void walt_irq_time_read(int cpu, struct walt_share *irq)
{
	struct walt_irq_time *it = per_cpu_ptr(&walt_irq_time, cpu);
	unsigned int start;

	do {
		start = read_seqcount_begin(&it->seq);
		*irq = it->share;
	} while (read_seqcount_retry(&it->seq, start));
}

/*
 * Copy @cpu's sums, consistent with each other, the shares still to be
 * taken out of them and the IRQ time still to be added, without its rq
 * lock. Returns whether a task (not
 * idle) was running there: the switches to and from idle sync the sums
 * (walt_switch_slow()), so the CPU has been busy since the copy's
 * busy_mark if it was, give or take the instant between the switch of
 * rq->curr and that sync.
 */
static bool walt_rq_read(int cpu, struct walt_rq_win *copy,
			 struct walt_share *rm, struct walt_share *irq)
{
	seqcount_t *seq = per_cpu_ptr(&walt_rq_seq, cpu);
	struct rq *rq = cpu_rq(cpu);
	unsigned int start;
	bool busy;

	guard(rcu)();
	do {
		start = read_seqcount_begin(seq);
		*copy = per_cpu(walt_rq, cpu);
		busy = !walt_is_idle(rq, rcu_dereference(rq->curr));
		walt_removed_read(cpu, rm);
		walt_irq_time_read(cpu, irq);
	} while (read_seqcount_retry(seq, start));
	return busy;
}

/* Forget what tasks that woke up elsewhere left on @cpu. */
static void walt_pending_reset(int cpu)
{
	struct walt_pending *pd = per_cpu_ptr(&walt_pending, cpu);

	unsigned long flags;

	raw_spin_lock_irqsave(&pd->lock, flags);
	write_seqcount_begin(&pd->seq);
	pd->rm = (struct walt_share) { };
	write_seqcount_end(&pd->seq);
	raw_spin_unlock_irqrestore(&pd->lock, flags);
}

/*
 * Utilization of one complete window of @sum busy ns, capacity scale. The
 * window fits 32 bits: a 64/32 division, which 32-bit arm does without
 * the 64/64 routine, on every read of a CPU's utilization.
 */
VISIBLE_IF_KUNIT unsigned long walt_util(u64 sum, u32 window)
{
	return div_u64(sum << SCHED_CAPACITY_SHIFT, window);
}
EXPORT_SYMBOL_IF_KUNIT(walt_util);

/*
 * The busy time of the last complete window as of now. The sums roll only
 * at events, and an idle CPU with its tick stopped has none: read them as
 * a sync now would leave them, or an idle CPU would keep its last busy
 * window and hold up the frequency of a policy it shares. A CPU running a
 * task has been busy since its last sync, which may be windows ago if its
 * tick is late or stopped: that time is added. The shares of tasks that
 * woke up elsewhere since are taken out, as that sync would.
 */
static unsigned long walt_cpu_util_at(int cpu, u64 now)
{
	struct walt_share rm, irq;
	struct walt_rq_win wrq;
	struct walt_ctx c;
	bool busy;

	busy = walt_rq_read(cpu, &wrq, &rm, &irq);
	walt_ctx_scales(&c, cpu_rq(cpu), now);
	return min(walt_util(walt_rq_prev_at(&wrq, &rm, &irq, c.wallclock,
					     busy, &c),
			     walt_window),
		   arch_scale_cpu_capacity(cpu));
}

VISIBLE_IF_KUNIT unsigned long walt_cpu_util(int cpu)
{
	return walt_cpu_util_at(cpu, local_clock());
}
EXPORT_SYMBOL_IF_KUNIT(walt_cpu_util);

/* @cpu's walt_pred sum, read whole without its rq lock. */
static u64 walt_pred_read(int cpu)
{
	seqcount_t *seq = per_cpu_ptr(&walt_rq_seq, cpu);
	unsigned int start;
	u64 sum;

	do {
		start = read_seqcount_begin(seq);
		sum = per_cpu(walt_pred, cpu).sum;
	} while (read_seqcount_retry(seq, start));
	return sum;
}

/*
 * What @cpu's RUNNABLE tasks are predicted to run in the window in
 * progress, for schedutil's pl: capped at the CPU's capacity, as its busy
 * time is.
 */
static unsigned long walt_cpu_util_pred(int cpu)
{
	return min(walt_util(walt_pred_read(cpu), walt_window),
		   arch_scale_cpu_capacity(cpu));
}

/*
 * @cpu's utilization without the share of @p, a waking task whose last
 * CPU it is, for EAS to weigh @p elsewhere: walt_cpu_util() less @p's busy
 * time in the window it reads; without @p (NULL), walt_cpu_util(). Waking,
 * @p is not running and nothing writes its windows: they are read as its
 * last fold left them, rolled to now's window (run time after a lazy
 * switch is in neither the task's windows nor, until the CPU's next sync,
 * the CPU's sums).
 */
static unsigned long walt_cpu_util_without(int cpu, struct task_struct *p)
{
	u64 now = local_clock();
	unsigned long util = walt_cpu_util_at(cpu, now);
	struct walt_share share = { };

	if (!p || task_cpu(p) != cpu || p->walt.in_transit ||
	    walt_is_stale(p) || !p->walt.session)
		return util;
	/* The share of the window the same clock read gave the CPU's. */
	walt_share_add_task(&share, &p->walt.win, walt_window);
	walt_share_roll(&share, walt_window_floor(now), walt_window);
	return util - min(util, walt_util(share.prev, walt_window));
}

/*
 * A task's demand for placement (walt_placed_demand()): a task without a
 * sample yet, new or forked while WALT was off, weighs
 * sched_walt_init_task_load_pct of a window. A leftover of an earlier
 * session counts as new, as it will once forgotten. Read without the
 * task's rq lock (the current task at exec, whose windows a remote sync
 * may catch up): only 32-bit fields, each whole, at worst from two folds.
 */
static unsigned long walt_task_util(struct task_struct *p)
{
	unsigned int pct = READ_ONCE(walt_init_task_load_pct);
	u32 demand;

	if (walt_is_stale(p))
		demand = walt_placed_demand(0, 0, pct, walt_window);
	else
		demand = walt_placed_demand(READ_ONCE(p->walt.win.hist[0]),
					    READ_ONCE(p->walt.win.demand), pct,
					    walt_window);
	return min_t(unsigned long, walt_util(demand, walt_window),
		     SCHED_CAPACITY_SCALE);
}

/*
 * Start from a clean slate: every CPU's window starts at the same
 * boundary with empty sums, so the sums are the sums of the tasks'
 * windows from the first event on. Hooks are still off. The tasks are not
 * walked (a phone has thousands, and each would take its rq lock): each
 * forgets its earlier session at its first event of this one, before
 * anything reads or charges its windows (walt_forget_stale()). Events
 * before the first boundary are accounted from it on.
 */
static int walt_start(void)
{
	u64 start = walt_session_first(local_clock(), walt_session_start,
				       walt_window);
	int cpu;

	for_each_possible_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);

		guard(rq_lock_irqsave)(rq);
		*walt_rq_write_begin(rq) = (struct walt_rq_win) {
			.window_start = start,
		};
		per_cpu(walt_pred, cpu) = (struct walt_pred) { };
		walt_rq_write_end(rq);
		per_cpu(walt_cpu_scale, cpu) = arch_scale_cpu_capacity(cpu);
		per_cpu(walt_lazy_until, cpu) = 0;
		per_cpu(walt_seen, cpu) = (struct walt_seen) { };
		walt_pending_reset(cpu);
		/* Hooks off: this CPU's irq hook and syncs do not run. */
		per_cpu(walt_irq_time, cpu).share = (struct walt_share) { };
		memset(&rq->idle->walt, 0, sizeof(rq->idle->walt));
		/*
		 * The switches do not move the idle task's mark without
		 * io_is_busy: the IRQ time of idle counts from the session's
		 * first boundary (walt_irq()).
		 */
		rq->idle->walt.win.mark_start = start;
	}
	WRITE_ONCE(walt_session_start, start);
	WRITE_ONCE(walt_session, walt_session + 1 ?: 1);
	/* Nothing counted until the queue hooks go on (walt_pred_switch()). */
	WRITE_ONCE(walt_gen, 0);
	return 0;
}

/*
 * The queue hooks are about to go on (@on) or off. The generation goes to
 * 0 first: from then on no fold adds to a sum and no hook counts or
 * uncounts, whatever runs while the hooks switch. Then every CPU's sums
 * are emptied under its rq lock, which a fold that found its task counted
 * just before holds while it adds. On, a new generation then counts each
 * task from its next enqueue.
 */
static void walt_pred_switch(bool on)
{
	int cpu;

	WRITE_ONCE(walt_gen, 0);
	for_each_possible_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);

		guard(rq_lock_irqsave)(rq);
		walt_rq_write_begin(rq);
		per_cpu(walt_pred, cpu) = (struct walt_pred) { };
		walt_rq_write_end(rq);
	}
	if (!on)
		return;
	walt_gen_last = walt_gen_last + 1 ?: 1;
	WRITE_ONCE(walt_gen, walt_gen_last);
}

VISIBLE_IF_KUNIT struct sched_util_signal walt_signal = {
	.name		= "walt",
	/*
	 * A CPU's busy intervals are those of any task, on rq_clock(), and
	 * walt_irq() adds the IRQ time of idle: every class's run time and
	 * all IRQ time. schedutil adds none of it again.
	 */
	.covers		= SCHED_UTIL_COVERS_CPU,
	.cpu_util	= walt_cpu_util,
	.cpu_util_pred	= walt_cpu_util_pred,
	.task_util	= walt_task_util,
	.cpu_util_without = walt_cpu_util_without,
	.start		= walt_start,
	.activate	= walt_activate,
	.switch_task	= walt_switch,
	.tick		= walt_tick,
	.migrate	= walt_migrate,
	.enqueue	= walt_enqueue,
	.dequeue	= walt_dequeue,
	.irq		= walt_irq,
	.pred_switch	= walt_pred_switch,
};
EXPORT_SYMBOL_IF_KUNIT(walt_signal);

/*
 * A CPU coming online keeps the shared window grid: it takes the current
 * boundary, never one of its own.
 */
static int walt_cpu_online(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	u64 start;

	guard(rq_lock_irqsave)(rq);
	per_cpu(walt_cpu_scale, cpu) = arch_scale_cpu_capacity(cpu);
	start = walt_window_floor(local_clock());
	if (per_cpu(walt_rq, cpu).window_start < start) {
		*walt_rq_write_begin(rq) = (struct walt_rq_win) {
			.window_start = start,
		};
		walt_rq_write_end(rq);
		per_cpu(walt_seen, cpu) = (struct walt_seen) { };
		walt_pending_reset(cpu);
		/* On @cpu itself, interrupts off: see walt_irq_time. */
		this_cpu_ptr(&walt_irq_time)->share = (struct walt_share) { };
	}
	return 0;
}

/* Knobs */

/*
 * The unsigned value *@val of a knob: read as proc_douintvec() shows it;
 * written as exactly one canonical decimal in [@min, @max] (digits only:
 * no sign, blank, base prefix or leading zero; one optional newline, as
 * echo writes it). proc_douintvec_minmax() takes "0x1" as 1 and stops at
 * the first value of "1 2" without an error, and a knob must refuse both
 * and change nothing. *@val is written only on success.
 */
static int walt_uint_rw(int write, void *buffer, size_t *lenp, loff_t *ppos,
			unsigned int *val, unsigned int min, unsigned int max)
{
	struct ctl_table tmp = { .data = val, .maxlen = sizeof(*val) };
	size_t len = *lenp, i;
	unsigned int v;
	char buf[12];

	if (!write)
		return proc_douintvec(&tmp, write, buffer, lenp, ppos);
	if (*ppos || !len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, buffer, len);
	buf[len] = '\0';
	if (buf[len - 1] == '\n')
		buf[--len] = '\0';
	if (!len || (buf[0] == '0' && len > 1))
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (!isdigit(buf[i]))
			return -EINVAL;
	if (kstrtouint(buf, 10, &v) || v < min || v > max)
		return -EINVAL;
	*val = v;
	*ppos += *lenp;
	return 0;
}

static bool walt_selected_for(enum sched_util_role role)
{
	return !strcmp(sched_util_signal_selected_for(role), "walt");
}

/*
 * 1 selects WALT, 0 PELT, for the role in table->data:
 * sched_use_walt_metrics both, and the Android kernels' names
 * sched_use_walt_cpu_util frequency (schedutil), sched_use_walt_task_util
 * placement. sched_use_walt_metrics reads 1 only while WALT has both.
 * Views of the framework's selection, with no state of their own.
 */
static int walt_use_sysctl(const struct ctl_table *table, int write,
			   void *buffer, size_t *lenp, loff_t *ppos)
{
	enum sched_util_role role = *(enum sched_util_role *)table->data;
	unsigned int use;
	int ret;

	if (role == SCHED_UTIL_ROLES)
		use = walt_selected_for(SCHED_UTIL_FREQ) &&
		      walt_selected_for(SCHED_UTIL_PLACE);
	else
		use = walt_selected_for(role);
	ret = walt_uint_rw(write, buffer, lenp, ppos, &use, 0, 1);
	if (ret || !write)
		return ret;
	return sched_util_signal_select_for(use ? "walt" : "pelt", role);
}

static enum sched_util_role walt_role_both = SCHED_UTIL_ROLES;
static enum sched_util_role walt_role_freq = SCHED_UTIL_FREQ;
static enum sched_util_role walt_role_place = SCHED_UTIL_PLACE;
static const unsigned int walt_pct_max = 100;

static DEFINE_MUTEX(walt_track_mutex);
static unsigned int walt_track;

static int walt_track_sysctl(const struct ctl_table *table, int write,
			     void *buffer, size_t *lenp, loff_t *ppos)
{
	unsigned int track;
	int ret;

	guard(mutex)(&walt_track_mutex);
	track = walt_track;
	ret = walt_uint_rw(write, buffer, lenp, ppos, &track, 0, 1);
	if (ret || !write)
		return ret;
	if (track == walt_track)
		return 0;
	ret = sched_util_signal_track(&walt_signal, track);
	if (!ret)
		walt_track = track;
	return ret;
}

/* A knob of table->data in [*extra1, *extra2]. */
static int walt_uint_sysctl(const struct ctl_table *table, int write,
			    void *buffer, size_t *lenp, loff_t *ppos)
{
	unsigned int val = READ_ONCE(*(unsigned int *)table->data);
	int ret;

	ret = walt_uint_rw(write, buffer, lenp, ppos, &val,
			   *(unsigned int *)table->extra1,
			   *(unsigned int *)table->extra2);
	if (ret || !write)
		return ret;
	WRITE_ONCE(*(unsigned int *)table->data, val);
	return 0;
}

static const unsigned int walt_hist_max = WALT_HIST_MAX;

/* Called by sched_util_signal_restart(), WALT not tracking. */
static void walt_change_window(void *arg)
{
	unsigned int window = *(unsigned int *)arg;

	WRITE_ONCE(walt_window, window);
	walt_signal.warmup_ns = 2ULL * window;
}

/*
 * Make the window @window ns: WALT_WINDOW_MIN to WALT_WINDOW_MAX and a
 * whole number of ticks, as in the Android kernels, so that each window
 * ends with the same number of ticks in it and the tick that reports it
 * (walt_tick()) comes as soon after the boundary as it can. A tracking
 * session restarts on the new grid; selected, WALT returns to its roles
 * after its warm-up, PELT serving them meanwhile.
 */
VISIBLE_IF_KUNIT int walt_set_window(unsigned int window)
{
	if (window < WALT_WINDOW_MIN || window > WALT_WINDOW_MAX ||
	    window % TICK_NSEC)
		return -EINVAL;
	guard(mutex)(&walt_track_mutex);
	if (window == walt_window)
		return 0;
	return sched_util_signal_restart(&walt_signal, walt_change_window,
					 &window);
}
EXPORT_SYMBOL_IF_KUNIT(walt_set_window);

static int walt_window_sysctl(const struct ctl_table *table, int write,
			      void *buffer, size_t *lenp, loff_t *ppos)
{
	unsigned int window = READ_ONCE(walt_window);
	int ret;

	ret = walt_uint_rw(write, buffer, lenp, ppos, &window, 0, UINT_MAX);
	if (ret || !write)
		return ret;
	return walt_set_window(window);
}

/*
 * io_is_busy: while it is set the switches account the idle task. Turned
 * on in this order, no busy time is counted from an idle task's mark that
 * a switch did not move: the switches first, then every idle task's mark
 * to now at least (a CPU idle since then loses that part of its IO wait),
 * then the value that makes idle time busy. Off in the reverse order.
 */
static int walt_io_is_busy_sysctl(const struct ctl_table *table, int write,
				  void *buffer, size_t *lenp, loff_t *ppos)
{
	unsigned int val = READ_ONCE(walt_io_is_busy);
	int ret, cpu;

	ret = walt_uint_rw(write, buffer, lenp, ppos, &val, 0, 1);
	if (ret || !write)
		return ret;
	guard(mutex)(&walt_track_mutex);
	if (val == walt_io_is_busy)
		return 0;
	if (!val) {
		WRITE_ONCE(walt_io_is_busy, 0);
		static_branch_disable(&walt_idle_io_key);
		return 0;
	}
	static_branch_enable(&walt_idle_io_key);
	for_each_possible_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);
		struct walt_task_win *idle = &rq->idle->walt.win;

		guard(rq_lock_irqsave)(rq);
		update_rq_clock(rq);
		idle->mark_start = max(idle->mark_start, walt_clock(rq));
	}
	WRITE_ONCE(walt_io_is_busy, 1);
	return 0;
}

static struct ctl_table walt_sysctls[] = {
	{
		.procname	= "sched_use_walt_metrics",
		.data		= &walt_role_both,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= walt_use_sysctl,
	},
	{
		.procname	= "sched_use_walt_cpu_util",
		.data		= &walt_role_freq,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= walt_use_sysctl,
	},
	{
		.procname	= "sched_use_walt_task_util",
		.data		= &walt_role_place,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= walt_use_sysctl,
	},
	{
		.procname	= "sched_walt_init_task_load_pct",
		.data		= &walt_init_task_load_pct,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= walt_uint_sysctl,
		.extra1		= SYSCTL_ZERO,
		.extra2		= (void *)&walt_pct_max,
	},
	{
		.procname	= "sched_walt_track",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= walt_track_sysctl,
	},
	{
		.procname	= "sched_walt_io_is_busy",
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= walt_io_is_busy_sysctl,
	},
#ifdef CONFIG_SCHED_INFO
	{
		.procname	= "sched_walt_account_wait_time",
		.data		= &walt_account_wait_time,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= walt_uint_sysctl,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
#endif
	{
		.procname	= "sched_walt_hist_size",
		.data		= &walt_hist_size,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= walt_uint_sysctl,
		.extra1		= SYSCTL_ONE,
		.extra2		= (void *)&walt_hist_max,
	},
	{
		.procname	= "sched_walt_ravg_window",
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= walt_window_sysctl,
	},
};

static int __init walt_window_setup(char *str)
{
	unsigned int window;

	if (kstrtouint(str, 10, &window) || window < WALT_WINDOW_MIN ||
	    window > WALT_WINDOW_MAX) {
		pr_warn("walt_ravg_window=%s: want %lu to %lu ns, using %u\n",
			str, WALT_WINDOW_MIN, WALT_WINDOW_MAX, walt_window);
		return 1;
	}
	walt_window = window;
	return 1;
}
__setup("walt_ravg_window=", walt_window_setup);

static int __init walt_init(void)
{
	int cpu, ret;

	for_each_possible_cpu(cpu) {
		struct walt_pending *pd = per_cpu_ptr(&walt_pending, cpu);

		seqcount_init(per_cpu_ptr(&walt_rq_seq, cpu));
		seqcount_init(&per_cpu(walt_irq_time, cpu).seq);
		raw_spin_lock_init(&pd->lock);
		seqcount_raw_spinlock_init(&pd->seq, &pd->lock);
	}

	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "sched/walt:online",
					walt_cpu_online, NULL);
	if (ret < 0)
		return ret;
	register_sysctl_init("kernel", walt_sysctls);
	/*
	 * A session's first window starts at the next boundary, at most a
	 * window after walt_start(), and the value read is that of a
	 * complete window.
	 */
	walt_signal.warmup_ns = 2ULL * walt_window;
	return sched_util_signal_register(&walt_signal);
}
subsys_initcall(walt_init);

#ifdef CONFIG_SCHED_DEBUG
/* For print_cpu(): @m is NULL when printing to the console (sysrq). */
static void walt_print_field(struct seq_file *m, const char *name, u64 val)
{
	if (m)
		seq_printf(m, "  .%-30s: %llu\n", name, val);
	else
		pr_info("  .%-30s: %llu\n", name, val);
}

void walt_print_cpu(struct seq_file *m, int cpu)
{
	struct walt_share rm, irq;
	struct walt_rq_win wrq;

	walt_rq_read(cpu, &wrq, &rm, &irq);
	walt_print_field(m, "walt_window_start", wrq.window_start);
	walt_print_field(m, "walt_curr_runnable_sum", wrq.curr_runnable_sum);
	walt_print_field(m, "walt_prev_runnable_sum", wrq.prev_runnable_sum);
	walt_print_field(m, "walt_pred_demands_sum", walt_pred_read(cpu));
}
#endif
