// SPDX-License-Identifier: GPL-2.0
/*
 * SchedTune: boost (or deflate) the utilization schedutil sees.
 *
 * A boost B in [-100, 100] percent turns a utilization signal S, on the
 * capacity scale (SCHED_CAPACITY_SCALE = 1024), into S + M where the
 * margin M is "signal proportional compensation":
 *
 *   B > 0:  M = B * (1024 - S) / 100      (0 once S >= 1024)
 *   B < 0:  M = B * S / 100                (rounded towards zero)
 *   B = 0:  M = 0
 *
 * and S + M is kept within [0, capacity of the CPU]. A positive boost
 * moves S the given fraction of the way up to the maximum: +50 on a 20%
 * CPU gives 20% + 50% * 80% = 60%, +100 always gives the highest OPP. A
 * negative boost removes the given fraction of S: -50 on a 50% task gives
 * 25%, -100 gives 0 and therefore the lowest OPP.
 *
 * Boosts are set per cgroup (controller "schedtune", file
 * schedtune.boost, on cgroup v1 as Android's /dev/stune; the cpu
 * controller's cpu.boost on cgroup v2) and globally
 * (kernel.sched_cfs_boost, the root group's boost). A CPU's boost is the
 * maximum over the groups that have RUNNABLE tasks on it, 0 when there
 * are none: +30 wins over -20, and a CPU is deflated only when every
 * runnable task on it is negatively boosted.
 *
 * To keep enqueue/dequeue O(1) whatever the number of groups, each CPU
 * counts its runnable tasks per boost *value* (201 buckets), not per
 * group, with a bitmap of the non-empty buckets: the CPU's boost is the
 * highest set bit. Nothing runs on those paths while no group is boosted:
 * the counting and the margins (static key sched_tune_used) go on with the
 * first non-zero boost and off a second after the last one went; only the
 * dequeue hook's own key (sched_tune_uncount_on) stays on once set, so
 * that a task counted before is uncounted.
 */
#include <linux/bitmap.h>
#include <linux/cgroup.h>
#include <linux/ctype.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sysctl.h>
#include <linux/workqueue.h>
#include <kunit/visibility.h>

#include <linux/mmu_context.h>

#include "sched.h"

#define CREATE_TRACE_POINTS
#include <trace/events/sched_tune.h>

/**
 * sched_tune_margin() - the margin boost @boost adds to @util
 * @util: utilization on the SCHED_CAPACITY_SCALE scale
 * @boost: boost in percent, [-100, 100]
 *
 * Return: the (signed) margin M of the formula above.
 */
VISIBLE_IF_KUNIT long sched_tune_margin(unsigned long util, int boost)
{
	if (boost > 0) {
		if (util >= SCHED_CAPACITY_SCALE)
			return 0;
		return boost * (SCHED_CAPACITY_SCALE - util) / 100;
	}
	return -(long)(-boost * util / 100);
}
EXPORT_SYMBOL_IF_KUNIT(sched_tune_margin);

/**
 * sched_tune_boosted() - @util plus @margin, within [0, @capacity]
 * @util: utilization on the SCHED_CAPACITY_SCALE scale
 * @margin: a margin from sched_tune_margin()
 * @capacity: the capacity of the CPU the utilization is for
 */
VISIBLE_IF_KUNIT unsigned long sched_tune_boosted(unsigned long util,
						  long margin,
						  unsigned long capacity)
{
	if (margin < 0 && (unsigned long)-margin >= util)
		return 0;
	return min(util + margin, capacity);
}
EXPORT_SYMBOL_IF_KUNIT(sched_tune_boosted);

/*
 * On while any group is boosted, and for a second after the last boost
 * went (sched_tune_disable_work): counting at enqueue, the margins of
 * schedutil and placement.
 */
DEFINE_STATIC_KEY_FALSE(sched_tune_used);
EXPORT_SYMBOL_IF_KUNIT(sched_tune_used);
/*
 * The dequeue hook's own key. It goes on before sched_tune_used: the sites
 * of one static key are patched one after another, and with a single key
 * a task counted at an enqueue site already on could be dequeued through
 * a site still off, keep its count on that CPU while it slept, and have
 * its next dequeue take it from the bucket of another. It never goes off:
 * a task counted before sched_tune_used went off is uncounted at its next
 * dequeue, which a walk of every task could not guarantee for a thread
 * that exits after leaving the thread list.
 */
DEFINE_STATIC_KEY_FALSE(sched_tune_uncount_on);

/**
 * struct schedtune - a schedtune cgroup
 * @css: the cgroup state
 * @grp: its boost (the root's: kernel.sched_cfs_boost)
 * @prefer_idle: schedtune.prefer_idle, its own tasks only (not inherited)
 *
 * Written under stune_mutex; @prefer_idle is read locklessly at wake-up
 * placement.
 */
struct schedtune {
	struct cgroup_subsys_state	css;
	struct stune_group		grp;
	bool				prefer_idle;
};

static struct schedtune root_schedtune;

/*
 * Serializes boost writes and the switching of sched_tune_used; never
 * taken on the scheduler hot paths.
 */
static DEFINE_MUTEX(stune_mutex);
/* Groups of either controller with a boost other than 0, the root's too. */
static unsigned int stune_nr_boosted;

/*
 * On from the first write of 1 to a schedtune.prefer_idle, never off again:
 * until then wake-up placement does not look up a task's group for it.
 */
DEFINE_STATIC_KEY_FALSE(sched_tune_prefer_idle_on);

static inline struct schedtune *css_st(struct cgroup_subsys_state *css)
{
	return css ? container_of(css, struct schedtune, css) : NULL;
}

/* The boost state of @css, a group of either controller that has one. */
static struct stune_group *css_stune(struct cgroup_subsys_state *css)
{
#ifdef CONFIG_CGROUP_SCHED
	if (css->ss == &cpu_cgrp_subsys)
		return &css_tg(css)->stune;
#endif
	return &css_st(css)->grp;
}

/*
 * Whether the schedtune controller is bound to a cgroup v1 hierarchy: it
 * then decides every task's boost, and cpu.boost refuses writes.
 */
static bool sched_tune_on_v1(void)
{
	return !cgroup_subsys_on_dfl(schedtune_cgrp_subsys);
}

/*
 * @p's boost: the effective boost of its schedtune group while schedtune
 * is on a cgroup v1 hierarchy (Android's /dev/stune); else that of its
 * cpu cgroup (cpu.boost) while the cpu controller is on cgroup v2 and @p
 * is below its root; else the root schedtune group's, the global boost.
 * schedtune has no cgroup v2 files, so off v1 every task is in its root.
 */
static int sched_tune_task_group_boost(struct task_struct *p)
{
	struct cgroup_subsys_state *css;

	guard(rcu)();
	css = task_css(p, schedtune_cgrp_id);
#ifdef CONFIG_CGROUP_SCHED
	if (!sched_tune_on_v1() && cgroup_subsys_on_dfl(cpu_cgrp_subsys)) {
		struct cgroup_subsys_state *cpu = task_css(p, cpu_cgrp_id);

		if (cpu->parent)
			css = cpu;
	}
#endif
	return READ_ONCE(css_stune(css)->effective);
}

/* Whether @p's group has schedtune.prefer_idle set, and @p's boost. */
bool sched_tune_task_prefer_idle(struct task_struct *p, int *boost)
{
	*boost = sched_tune_task_group_boost(p);
	guard(rcu)();
	return READ_ONCE(css_st(task_css(p, schedtune_cgrp_id))->prefer_idle);
}

/**
 * sched_tune_prefer_idle_consider() - one CPU for a prefer_idle task
 * @pick: the choice so far; @pick->cpu is -1 before the first CPU
 * @cpu: the CPU
 * @capacity: its arch_scale_cpu_capacity()
 * @idle: whether it is idle
 * @fits: util_fits_cpu_boosted() of the task on it
 *
 * The Android kernels' choice for a task of a prefer_idle group
 * (find_best_target()): an idle CPU, the one of the highest capacity for a
 * boosted task (whether or not it fits: no smaller one fits better), the
 * one of the lowest capacity that fits (util_fits_cpu_boosted() > 0) for one that
 * is not. Between CPUs of equal capacity the task's previous CPU wins
 * (cache-hot), else the first considered. Android broke that tie by idle
 * state depth; the Energy Model here has none.
 */
void sched_tune_prefer_idle_consider(struct stune_idle_pick *pick, int cpu,
				     unsigned long capacity, bool idle,
				     int fits)
{
	if (!idle || (!pick->boosted && fits <= 0))
		return;
	if (pick->cpu >= 0) {
		if (capacity == pick->capacity) {
			if (cpu != pick->prev_cpu)
				return;
		} else if (pick->boosted != (capacity > pick->capacity)) {
			return;
		}
	}
	pick->cpu = cpu;
	pick->capacity = capacity;
}
EXPORT_SYMBOL_IF_KUNIT(sched_tune_prefer_idle_consider);

/* The highest boost with RUNNABLE tasks: one find_last_bit() on 201 bits. */
static void stune_refresh(struct stune_cpu *sc)
{
	unsigned long top = find_last_bit(sc->busy, STUNE_BUCKETS);

	if (top >= STUNE_BUCKETS) {
		/* Idle: freq_boost keeps the last boost only if it deflates. */
		WRITE_ONCE(sc->boost, 0);
		if (sc->freq_boost > 0)
			WRITE_ONCE(sc->freq_boost, 0);
		return;
	}
	WRITE_ONCE(sc->boost, (int)top + STUNE_BOOST_MIN);
	WRITE_ONCE(sc->freq_boost, sc->boost);
}

/*
 * A bucket gaining its first task or losing its last one is what can move
 * the CPU's boost. Out of line: the enqueue and dequeue hooks then only
 * add or take one, and need no register of their own.
 */
/*
 * The Android event of a CPU's boost moving, from the out-of-line bucket
 * paths, the only ones where it can move. Only for the stune_cpu of a
 * runqueue: KUnit's own stune_cpu tables never enable the event.
 */
static void stune_trace_boost(struct stune_cpu *sc, int before)
{
	struct rq *rq = container_of(sc, struct rq, stune);

	if (trace_sched_tune_boostgroup_update_enabled() && sc->boost != before)
		trace_sched_tune_boostgroup_update(cpu_of(rq),
						   sc->boost > before ? 1 : -1,
						   sc->boost);
}

static noinline void stune_bucket_filled(struct stune_cpu *sc, unsigned int b)
{
	int before = sc->boost;

	__set_bit(b, sc->busy);
	stune_refresh(sc);
	stune_trace_boost(sc, before);
}

static noinline void stune_bucket_emptied(struct stune_cpu *sc, unsigned int b)
{
	int before;

	if (unlikely(!sc->tasks[b])) {
		/* Under the rq lock: the console may wait on it. */
		printk_deferred_enter();
		WARN_ONCE(1, "schedtune: no task of boost %d to uncount\n",
			  (int)b + STUNE_BOOST_MIN);
		printk_deferred_exit();
		return;
	}
	sc->tasks[b] = 0;
	__clear_bit(b, sc->busy);
	before = sc->boost;
	stune_refresh(sc);
	stune_trace_boost(sc, before);
}

/*
 * stune_count() and stune_uncount() keep @sc's counts, bitmap and boost
 * for one task of boost @boost becoming RUNNABLE or leaving. The caller
 * holds the lock that protects @sc (the CPU's rq->lock).
 */
VISIBLE_IF_KUNIT void stune_count(struct stune_cpu *sc, int boost)
{
	unsigned int b = boost - STUNE_BOOST_MIN;

	if (unlikely(!sc->tasks[b]++))
		stune_bucket_filled(sc, b);
}
EXPORT_SYMBOL_IF_KUNIT(stune_count);

VISIBLE_IF_KUNIT void stune_uncount(struct stune_cpu *sc, int boost)
{
	unsigned int b = boost - STUNE_BOOST_MIN;

	if (likely(sc->tasks[b] > 1))
		sc->tasks[b]--;
	else
		stune_bucket_emptied(sc, b);
}
EXPORT_SYMBOL_IF_KUNIT(stune_uncount);

/* The Android event of a count or an uncount of @p (boost @boost) on @rq. */
static void stune_trace_count(struct rq *rq, struct task_struct *p, int boost)
{
	unsigned int b = boost - STUNE_BOOST_MIN;

	trace_sched_tune_tasks_update(p, cpu_of(rq), rq->stune.tasks[b], b,
				      boost, rq->stune.boost);
}

static void stune_cpu_inc(struct rq *rq, struct task_struct *p, int boost)
{
	lockdep_assert_rq_held(rq);
	p->stune_boost = boost;
	p->stune_active = 1;
	stune_count(&rq->stune, boost);
	if (trace_sched_tune_tasks_update_enabled())
		stune_trace_count(rq, p, boost);
}

static void stune_cpu_dec(struct rq *rq, struct task_struct *p)
{
	lockdep_assert_rq_held(rq);
	p->stune_active = 0;
	stune_uncount(&rq->stune, p->stune_boost);
	if (trace_sched_tune_tasks_update_enabled())
		stune_trace_count(rq, p, p->stune_boost);
}

/*
 * Called by enqueue_task() before the class enqueues @p, so that the
 * frequency update of that enqueue sees @p's boost, and after it for a
 * task the class requeued from delayed dequeue: one of the two counts it.
 */
void sched_tune_enqueue(struct rq *rq, struct task_struct *p)
{
	if (p->se.sched_delayed || p->stune_active)
		return;
	stune_cpu_inc(rq, p, sched_tune_task_group_boost(p));
}

/* Called by dequeue_task() before the class dequeues @p. */
void sched_tune_dequeue(struct rq *rq, struct task_struct *p)
{
	if (p->se.sched_delayed || !p->stune_active)
		return;
	stune_cpu_dec(rq, p);
}

/*
 * Re-evaluate a task's bucket after its group or its group's boost
 * changed, or count it for the first time once sched_tune_used is on.
 */
static void sched_tune_recount(struct task_struct *p)
{
	CLASS(task_rq_lock, guard)(p);
	int boost = sched_tune_task_group_boost(p);

	if (p->stune_active && p->stune_boost != boost)
		stune_cpu_dec(guard.rq, p);
	if (!p->stune_active && task_on_rq_queued(p) && !p->se.sched_delayed)
		stune_cpu_inc(guard.rq, p, boost);
}

/**
 * sched_tune_cpu_boost() - the boost of @cpu: max over its RUNNABLE groups
 * @cpu: the CPU
 */
int sched_tune_cpu_boost(int cpu)
{
	if (!static_branch_unlikely(&sched_tune_used))
		return 0;
	return READ_ONCE(cpu_rq(cpu)->stune.boost);
}
EXPORT_SYMBOL_IF_KUNIT(sched_tune_cpu_boost);

#ifdef CONFIG_SCHED_DEBUG
/* For print_cpu(): @m is NULL when printing to the console (sysrq). */
void sched_tune_print_cpu(struct seq_file *m, int cpu)
{
	if (m)
		seq_printf(m, "  .%-30s: %d\n", "schedtune_boost",
			   sched_tune_cpu_boost(cpu));
	else
		pr_info("  .%-30s: %d\n", "schedtune_boost",
			sched_tune_cpu_boost(cpu));
}
#endif

#ifdef CONFIG_SCHED_UTIL_CHECKS
/*
 * Whether a task throttled by its class may be queued on @rq: a DL task
 * out of runtime until its replenishment, a CFS or RT group over its
 * quota (RT runqueues are throttled only with RT_GROUP_SCHED). Such a
 * task has left rq->nr_running but not the runqueue, so it stays
 * counted, as uclamp keeps its clamp: it is still RUNNABLE and runs
 * again once replenished. A DL task is possible while DL bandwidth other
 * than the fair server's is assigned to @rq.
 */
static bool stune_may_hold_throttled(struct rq *rq)
{
	return IS_ENABLED(CONFIG_CFS_BANDWIDTH) ||
	       IS_ENABLED(CONFIG_RT_GROUP_SCHED) ||
	       rq->dl.this_bw > rq->fair_server.dl_bw;
}

/*
 * Called as @rq's CPU switches to its idle task. With nothing RUNNABLE
 * there, no task may be counted: a count left behind by a path that
 * skipped sched_tune_dequeue() would hold the CPU's boost for a task that
 * is gone. The check cannot tell such a count from a throttled task's
 * (a DL task out of runtime, an RT runqueue over its runtime, a CFS group
 * over its quota: queued and counted, though not in nr_running), so it
 * stands down while one may be queued.
 */
void sched_tune_check_idle(struct rq *rq)
{
	struct stune_cpu *sc = &rq->stune;
	unsigned long b;

	lockdep_assert_rq_held(rq);
	if (!static_branch_unlikely(&sched_tune_used) || rq->nr_running ||
	    stune_may_hold_throttled(rq))
		return;
	b = find_first_bit(sc->busy, STUNE_BUCKETS);
	if (likely(b >= STUNE_BUCKETS))
		return;
	/* Under the rq lock: the console may wait on it. */
	printk_deferred_enter();
	WARN_ONCE(1, "schedtune: CPU %d idle with %u task(s) of boost %d counted\n",
		  cpu_of(rq), sc->tasks[b], (int)b + STUNE_BOOST_MIN);
	printk_deferred_exit();
}
#endif

/**
 * sched_tune_cpu_util() - @util of @cpu with the CPU's boost applied
 * @cpu: the CPU
 * @util: the utilization of @cpu as schedutil sums it: every class and the
 *	  IRQ time
 *
 * The margin applies to the whole CPU, whichever class ran: a boosted
 * group's CPU is faster for all of its work. uclamp's max, applied after
 * (sugov_effective_cpu_perf()), still caps the boosted value. Once
 * SchedTune is in use, every call is traced, unboosted CPUs with a zero
 * margin, so that a trace shows the utilization schedutil saw at each
 * update.
 */
unsigned long sched_tune_cpu_util(int cpu, unsigned long util)
{
	int boost;
	long margin;

	if (!static_branch_unlikely(&sched_tune_used))
		return util;
	boost = READ_ONCE(cpu_rq(cpu)->stune.freq_boost);
	margin = boost ? sched_tune_margin(util, boost) : 0;
	trace_sched_boost_cpu_tp(cpu, util, margin);
	trace_sched_boost_cpu(cpu, util, margin);
	if (!boost)
		return util;
	return sched_tune_boosted(util, margin, arch_scale_cpu_capacity(cpu));
}
EXPORT_SYMBOL_IF_KUNIT(sched_tune_cpu_util);

/**
 * sched_tune_task_boosted() - a task's utilization @util at boost @boost
 * @util: task utilization, 0 to SCHED_CAPACITY_SCALE
 * @boost: the boost of the task's group, [-100, 100]
 *
 * The margin formula above, kept within [0, SCHED_CAPACITY_SCALE]: what
 * task placement compares with CPU capacities.
 */
VISIBLE_IF_KUNIT unsigned long sched_tune_task_boosted(unsigned long util,
						       int boost)
{
	return sched_tune_boosted(util, sched_tune_margin(util, boost),
				  SCHED_CAPACITY_SCALE);
}
EXPORT_SYMBOL_IF_KUNIT(sched_tune_task_boosted);

/*
 * @p's utilization @util for task placement (kernel/sched/fair.c): with the
 * margin of its group's effective boost, whether or not @p is RUNNABLE (a
 * waking task is placed before it is counted). Every call is traced, margin
 * 0 for an unboosted task, as sched_tune_cpu_util() traces every CPU.
 */
unsigned long sched_tune_task_boosted_util(struct task_struct *p,
					   unsigned long util)
{
	int boost = sched_tune_task_group_boost(p);
	long margin = boost ? sched_tune_margin(util, boost) : 0;

	trace_sched_boost_task_tp(p, util, margin);
	trace_sched_boost_task(p, util, margin);
	return boost ? sched_tune_task_boosted(util, boost) : util;
}

/*
 * Turn the enqueue/dequeue accounting on and count the tasks that are
 * already runnable. A task enqueued after the key is on counts itself;
 * one enqueued before is found by the walk: either way exactly once.
 */
static void sched_tune_enable(void)
{
	struct task_struct *g, *p;

	lockdep_assert_held(&stune_mutex);
	if (static_key_enabled(&sched_tune_used))
		return;
	static_branch_enable(&sched_tune_uncount_on);
	static_branch_enable(&sched_tune_used);

	guard(rcu)();
	for_each_process_thread(g, p)
		sched_tune_recount(p);
}

static void sched_tune_recount_css(struct cgroup_subsys_state *css)
{
	struct css_task_iter it;
	struct task_struct *p;

	css_task_iter_start(css, 0, &it);
	while ((p = css_task_iter_next(&it)))
		sched_tune_recount(p);
	css_task_iter_end(&it);
}

/*
 * The effective boost of a group: its own boost for the root and the
 * top-level groups; below that, the smaller of its own boost and its
 * parent's effective boost. A delegated subtree can deflate its tasks
 * further but never boost them beyond what its parent grants, while
 * top-level groups are independent of the root (global) boost, which is a
 * default for the root's own tasks, not a ceiling: Android's flat
 * /dev/stune layout relies on that.
 */
static int sched_tune_effective(struct cgroup_subsys_state *css)
{
	struct cgroup_subsys_state *parent = css->parent;
	int boost = css_stune(css)->boost;

	if (!parent || !parent->parent)
		return boost;
	return min(boost, css_stune(parent)->effective);
}

static void sched_tune_update_effective(struct cgroup_subsys_state *top)
{
	struct cgroup_subsys_state *css;

	lockdep_assert_held(&stune_mutex);
	rcu_read_lock();
	css_for_each_descendant_pre(css, top) {
		struct stune_group *grp = css_stune(css);
		int effective = sched_tune_effective(css);

		if (css != top && effective == grp->effective) {
			css = css_rightmost_descendant(css);
			continue;
		}
		WRITE_ONCE(grp->effective, effective);
		if (static_branch_unlikely(&sched_tune_used))
			sched_tune_recount_css(css);
	}
	rcu_read_unlock();
}

/*
 * No group is boosted any more: every task's boost is 0, and so is every
 * CPU's. Stop counting and applying margins, a second later so that a
 * boost set again soon (a touch boost) does not patch the kernel's text
 * twice. Tasks still counted are uncounted at their next dequeue; a boost
 * set again counts every task anew (sched_tune_enable()).
 */
static void sched_tune_disable_fn(struct work_struct *work)
{
	guard(mutex)(&stune_mutex);
	if (!stune_nr_boosted)
		static_branch_disable(&sched_tune_used);
}

static DECLARE_DELAYED_WORK(sched_tune_disable_work, sched_tune_disable_fn);

/* A group's boost goes from @old to @new, or the group goes (@new 0). */
static void stune_boost_changed(int old, int new)
{
	lockdep_assert_held(&stune_mutex);
	if (!old == !new)
		return;
	if (new)
		stune_nr_boosted++;
	else if (!--stune_nr_boosted)
		schedule_delayed_work(&sched_tune_disable_work, HZ);
}

static int sched_tune_set_boost(struct cgroup_subsys_state *css, int boost)
{
	if (boost < STUNE_BOOST_MIN || boost > STUNE_BOOST_MAX)
		return -EINVAL;

	guard(mutex)(&stune_mutex);
	if (boost)
		sched_tune_enable();
	stune_boost_changed(css_stune(css)->boost, boost);
	WRITE_ONCE(css_stune(css)->boost, boost);
	sched_tune_update_effective(css);
	trace_sched_tune_config_tp(boost);
	trace_sched_tune_config(boost);
	return 0;
}

/* The root group's boost: kernel.sched_cfs_boost. */
VISIBLE_IF_KUNIT int sched_tune_set_global_boost(int boost)
{
	return sched_tune_set_boost(&root_schedtune.css, boost);
}
EXPORT_SYMBOL_IF_KUNIT(sched_tune_set_global_boost);

/**
 * sched_tune_parse_boost() - parse what a user wrote to a boost knob
 * @buf: the text, NUL-terminated; one trailing newline is allowed
 * @boost: where to store the value
 *
 * Accept exactly a decimal integer in [-100, 100] written the canonical
 * way: an optional '-', no '+', no leading zeros, no "-0", no spaces, no
 * hex. Anything else is a mistake the user wants to hear about rather
 * than a value guessed for them.
 *
 * Return: 0 or -EINVAL.
 */
VISIBLE_IF_KUNIT int sched_tune_parse_boost(const char *buf, int *boost)
{
	size_t len = strlen(buf);
	const char *digits = buf;
	int val = 0;

	if (len && buf[len - 1] == '\n')
		len--;
	if (len && *digits == '-')
		digits++;
	len -= digits - buf;
	if (!len || len > 3 || (digits[0] == '0' && (len > 1 || digits != buf)))
		return -EINVAL;
	while (len--) {
		if (!isdigit(*digits))
			return -EINVAL;
		val = val * 10 + (*digits++ - '0');
	}
	if (buf[0] == '-')
		val = -val;
	if (val < STUNE_BOOST_MIN || val > STUNE_BOOST_MAX)
		return -EINVAL;
	*boost = val;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(sched_tune_parse_boost);

/*
 * schedtune.prefer_idle: 0 or 1, written the canonical way (as a boost
 * knob takes it, sched_tune_parse_boost()); anything else is refused.
 */
static int sched_tune_prefer_idle_show(struct seq_file *sf, void *v)
{
	seq_printf(sf, "%d\n", READ_ONCE(css_st(seq_css(sf))->prefer_idle));
	return 0;
}

static ssize_t sched_tune_prefer_idle_write(struct kernfs_open_file *of,
					    char *buf, size_t nbytes,
					    loff_t off)
{
	struct schedtune *st = css_st(of_css(of));
	int val;

	if (sched_tune_parse_boost(buf, &val) || (val != 0 && val != 1))
		return -EINVAL;
	guard(mutex)(&stune_mutex);
	if (val)
		static_branch_enable(&sched_tune_prefer_idle_on);
	WRITE_ONCE(st->prefer_idle, val);
	return nbytes;
}

/* kernel.sched_cfs_boost: the root group's boost. */
static int sched_tune_boost_sysctl(const struct ctl_table *table, int write,
				   void *buffer, size_t *lenp, loff_t *ppos)
{
	char buf[8];
	int boost, ret;

	if (!write) {
		struct ctl_table tmp = {
			.data	= &boost,
			.maxlen	= sizeof(boost),
		};

		boost = READ_ONCE(root_schedtune.grp.boost);
		return proc_dointvec(&tmp, write, buffer, lenp, ppos);
	}
	/* One complete value per write(): no partial or appended writes. */
	if (*ppos || *lenp >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, buffer, *lenp);
	buf[*lenp] = '\0';
	ret = sched_tune_parse_boost(buf, &boost);
	if (!ret)
		ret = sched_tune_set_global_boost(boost);
	if (!ret)
		*ppos += *lenp;
	return ret;
}

static struct ctl_table sched_tune_sysctls[] = {
	{
		.procname	= "sched_cfs_boost",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= sched_tune_boost_sysctl,
	},
};

static int __init sched_tune_sysctl_init(void)
{
	register_sysctl_init("kernel", sched_tune_sysctls);
	return 0;
}
late_initcall(sched_tune_sysctl_init);

/* cgroup interface */

static struct cgroup_subsys_state *
sched_tune_css_alloc(struct cgroup_subsys_state *parent_css)
{
	struct schedtune *st;

	if (!parent_css)
		return &root_schedtune.css;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return ERR_PTR(-ENOMEM);
	return &st->css;
}

/*
 * A new group of either controller: its boost is 0, but its effective
 * boost is its parent's if that is negative.
 */
void sched_tune_group_online(struct cgroup_subsys_state *css)
{
	guard(mutex)(&stune_mutex);
	WRITE_ONCE(css_stune(css)->effective, sched_tune_effective(css));
}

static int sched_tune_css_online(struct cgroup_subsys_state *css)
{
	sched_tune_group_online(css);
	return 0;
}

/* A group of either controller goes, its tasks gone: so does its boost. */
void sched_tune_group_offline(struct cgroup_subsys_state *css)
{
	guard(mutex)(&stune_mutex);
	stune_boost_changed(css_stune(css)->boost, 0);
}

static void sched_tune_css_free(struct cgroup_subsys_state *css)
{
	struct schedtune *st = css_st(css);

	if (st != &root_schedtune)
		kfree(st);
}

/*
 * Tasks are switched to their new css before ->attach(): recount from
 * the current css. Nothing is reserved in ->can_attach(), so a cancelled
 * migration needs no ->cancel_attach().
 */
static void sched_tune_attach(struct cgroup_taskset *tset)
{
	struct cgroup_subsys_state *css;
	struct task_struct *p;

	if (!static_branch_unlikely(&sched_tune_used))
		return;
	cgroup_taskset_for_each(p, css, tset)
		sched_tune_recount(p);
}

/*
 * schedtune moved between cgroup v1 and the default hierarchy: every
 * task's boost may now come from the other controller
 * (sched_tune_task_group_boost()). Count each again.
 */
static void sched_tune_bind(struct cgroup_subsys_state *root_css)
{
	struct task_struct *g, *p;

	guard(mutex)(&stune_mutex);
	if (!static_branch_unlikely(&sched_tune_used))
		return;
	guard(rcu)();
	for_each_process_thread(g, p)
		sched_tune_recount(p);
}

/* schedtune.boost, and cpu.boost on cgroup v2. */
int sched_tune_boost_show(struct seq_file *sf, void *v)
{
	seq_printf(sf, "%d\n", READ_ONCE(css_stune(seq_css(sf))->boost));
	return 0;
}

ssize_t sched_tune_boost_write(struct kernfs_open_file *of, char *buf,
			       size_t nbytes, loff_t off)
{
	struct cgroup_subsys_state *css = of_css(of);
	int boost, ret;

	/* A cpu.boost that no task would get is a mistake to report. */
	if (css->ss != &schedtune_cgrp_subsys && sched_tune_on_v1())
		return -EBUSY;
	ret = sched_tune_parse_boost(buf, &boost);
	if (!ret)
		ret = sched_tune_set_boost(css, boost);
	return ret ?: nbytes;
}

static struct cftype sched_tune_legacy_files[] = {
	{
		.name		= "boost",
		.seq_show	= sched_tune_boost_show,
		.write		= sched_tune_boost_write,
	},
	{
		.name		= "prefer_idle",
		.seq_show	= sched_tune_prefer_idle_show,
		.write		= sched_tune_prefer_idle_write,
	},
	{ }	/* terminate */
};

struct cgroup_subsys schedtune_cgrp_subsys = {
	.css_alloc	= sched_tune_css_alloc,
	.css_online	= sched_tune_css_online,
	.css_offline	= sched_tune_group_offline,
	.css_free	= sched_tune_css_free,
	.attach		= sched_tune_attach,
	.bind		= sched_tune_bind,
	.legacy_cftypes	= sched_tune_legacy_files,
	.early_init	= true,
};
