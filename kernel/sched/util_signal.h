/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hook dispatchers of the utilization-signal framework, for the scheduler
 * core only. See include/linux/sched/util_signal.h for the model and the
 * locking rule of each hook; each dispatcher asserts its rule.
 */
#ifndef _KERNEL_SCHED_UTIL_SIGNAL_H
#define _KERNEL_SCHED_UTIL_SIGNAL_H

#include <linux/jump_label.h>
#include <linux/lockdep.h>
#include <linux/sched/util_signal.h>
#include <linux/static_call_types.h>

#ifdef CONFIG_SCHED_UTIL_SIGNAL

typedef void (sched_util_activate_fn)(struct rq *rq, struct task_struct *p,
				      int flags);
typedef void (sched_util_switch_fn)(struct rq *rq, struct task_struct *prev,
				    struct task_struct *next);
typedef void (sched_util_tick_fn)(struct rq *rq);
typedef void (sched_util_migrate_fn)(struct task_struct *p, int new_cpu);
typedef void (sched_util_queue_fn)(struct rq *rq, struct task_struct *p);
typedef void (sched_util_irq_fn)(struct rq *rq, u64 delta);

DECLARE_STATIC_KEY_FALSE(sched_util_other_key);
DECLARE_STATIC_KEY_FALSE(sched_util_covers_cpu_key);
DECLARE_STATIC_KEY_FALSE(sched_util_place_other_key);
DECLARE_STATIC_KEY_FALSE(sched_util_place_covers_cpu_key);
DECLARE_STATIC_KEY_FALSE(sched_util_activate_key);
DECLARE_STATIC_KEY_FALSE(sched_util_switch_key);
DECLARE_STATIC_KEY_FALSE(sched_util_tick_key);
DECLARE_STATIC_KEY_FALSE(sched_util_migrate_key);
DECLARE_STATIC_KEY_FALSE(sched_util_enqueue_key);
DECLARE_STATIC_KEY_FALSE(sched_util_dequeue_key);
DECLARE_STATIC_KEY_FALSE(sched_util_irq_key);
DECLARE_STATIC_KEY_FALSE(sched_util_tracking_key);

DECLARE_STATIC_CALL(sched_util_activate, sched_util_activate_fn);
DECLARE_STATIC_CALL(sched_util_switch, sched_util_switch_fn);
DECLARE_STATIC_CALL(sched_util_tick, sched_util_tick_fn);
DECLARE_STATIC_CALL(sched_util_migrate, sched_util_migrate_fn);
DECLARE_STATIC_CALL(sched_util_enqueue, sched_util_queue_fn);
DECLARE_STATIC_CALL(sched_util_dequeue, sched_util_queue_fn);
DECLARE_STATIC_CALL(sched_util_irq, sched_util_irq_fn);

/*
 * Whether a signal other than PELT is selected for frequency. While PELT
 * is, schedutil calls it directly instead of through sched_util_cpu_util():
 * an out-of-line call and a static call less on its path.
 */
static __always_inline bool sched_util_other_selected(void)
{
	return static_branch_unlikely(&sched_util_other_key);
}

/* Whether the frequency signal covers the whole CPU (SCHED_UTIL_COVERS_CPU). */
static __always_inline bool sched_util_covers_cpu(void)
{
	return static_branch_unlikely(&sched_util_covers_cpu_key);
}

/* The same two for the signal that task placement reads. */
static __always_inline bool sched_util_place_other_selected(void)
{
	return static_branch_unlikely(&sched_util_place_other_key);
}

static __always_inline bool sched_util_place_covers_cpu(void)
{
	return static_branch_unlikely(&sched_util_place_covers_cpu_key);
}

/*
 * Returns the flags for enqueue_task(): a provider accounts at the rq clock
 * that enqueue_task() would update after the hook, so it is updated once,
 * here, and enqueue_task() is told (ENQUEUE_NOCLOCK).
 */
static __always_inline int sched_util_hook_activate(struct rq *rq,
						    struct task_struct *p,
						    int flags)
{
	if (static_branch_unlikely(&sched_util_activate_key)) {
		lockdep_assert_rq_held(rq);
		if (!(flags & ENQUEUE_NOCLOCK)) {
			update_rq_clock(rq);
			flags |= ENQUEUE_NOCLOCK;
		}
		static_call(sched_util_activate)(rq, p, flags);
	}
	return flags;
}

static __always_inline void sched_util_hook_switch(struct rq *rq,
						   struct task_struct *prev,
						   struct task_struct *next)
{
	if (static_branch_unlikely(&sched_util_switch_key)) {
		lockdep_assert_rq_held(rq);
		static_call(sched_util_switch)(rq, prev, next);
	}
}

static __always_inline void sched_util_hook_tick(struct rq *rq)
{
	if (static_branch_unlikely(&sched_util_tick_key)) {
		lockdep_assert_rq_held(rq);
		static_call(sched_util_tick)(rq);
	}
}

static __always_inline void sched_util_hook_migrate(struct task_struct *p,
						    int new_cpu)
{
	if (static_branch_unlikely(&sched_util_migrate_key)) {
		lockdep_assert(p->on_rq ?
			       lockdep_is_held(__rq_lockp(task_rq(p))) :
			       lockdep_is_held(&p->pi_lock));
		static_call(sched_util_migrate)(p, new_cpu);
	}
}

/*
 * enqueue_task(), before the class enqueues @p: a task in delayed dequeue
 * is still asleep here and becomes RUNNABLE only in the class's
 * ENQUEUE_DELAYED requeue, after which sched_util_hook_requeued() runs.
 */
static __always_inline void sched_util_hook_enqueue(struct rq *rq,
						    struct task_struct *p)
{
	if (static_branch_unlikely(&sched_util_enqueue_key) &&
	    !p->se.sched_delayed) {
		lockdep_assert_rq_held(rq);
		static_call(sched_util_enqueue)(rq, p);
	}
}

static __always_inline void sched_util_hook_requeued(struct rq *rq,
						     struct task_struct *p,
						     bool requeued)
{
	if (static_branch_unlikely(&sched_util_enqueue_key) && requeued) {
		lockdep_assert_rq_held(rq);
		static_call(sched_util_enqueue)(rq, p);
	}
}

/*
 * dequeue_task(), before the class dequeues @p: a task already in delayed
 * dequeue stopped being RUNNABLE when it was put there.
 */
static __always_inline void sched_util_hook_dequeue(struct rq *rq,
						    struct task_struct *p)
{
	if (static_branch_unlikely(&sched_util_dequeue_key) &&
	    !p->se.sched_delayed) {
		lockdep_assert_rq_held(rq);
		static_call(sched_util_dequeue)(rq, p);
	}
}

/*
 * @delta ns of IRQ time just ended on @rq's CPU while @curr ran. Only time
 * that interrupted @rq's idle task is passed on: a signal charges the run
 * time of any other task, PF_IDLE kthreads injecting idle included, with
 * its IRQ time in it.
 */
static __always_inline void sched_util_hook_irq(struct rq *rq,
						struct task_struct *curr,
						u64 delta)
{
	if (static_branch_unlikely(&sched_util_irq_key) && curr == rq->idle) {
		lockdep_assert_irqs_disabled();
		static_call(sched_util_irq)(rq, delta);
	}
}

#else /* !CONFIG_SCHED_UTIL_SIGNAL */

static inline bool sched_util_other_selected(void) { return false; }
static inline bool sched_util_covers_cpu(void) { return false; }
static inline bool sched_util_place_other_selected(void) { return false; }
static inline bool sched_util_place_covers_cpu(void) { return false; }
static inline unsigned long sched_util_task_util(struct task_struct *p)
{
	return 0;
}

static inline unsigned long sched_util_cpu_util_without(int cpu,
							struct task_struct *p)
{
	return 0;
}

static inline u64 sched_util_place_begin(void)
{
	return 0;
}

static inline unsigned long
sched_util_cpu_util_without_once(int cpu, struct task_struct *p, u64 place)
{
	return 0;
}

static inline int sched_util_hook_activate(struct rq *rq,
					   struct task_struct *p, int flags)
{
	return flags;
}

static inline void sched_util_hook_switch(struct rq *rq,
					  struct task_struct *prev,
					  struct task_struct *next) { }
static inline void sched_util_hook_tick(struct rq *rq) { }
static inline void sched_util_hook_migrate(struct task_struct *p,
					   int new_cpu) { }
static inline void sched_util_hook_enqueue(struct rq *rq,
					   struct task_struct *p) { }
static inline void sched_util_hook_requeued(struct rq *rq,
					    struct task_struct *p,
					    bool requeued) { }
static inline void sched_util_hook_dequeue(struct rq *rq,
					   struct task_struct *p) { }
static inline void sched_util_hook_irq(struct rq *rq,
				       struct task_struct *curr, u64 delta) { }

#endif /* CONFIG_SCHED_UTIL_SIGNAL */

/* What schedutil's hispeed and pl floors work on (sugov_raise_util()). */
struct sugov_raise_in {
	unsigned long	util;		/* the CPU's, before the floors */
	unsigned long	pred;		/* its tasks' prediction; 0: pl off */
	unsigned long	cap;		/* arch_scale_cpu_capacity() */
	unsigned int	cur_freq;	/* kHz, the policy's current */
	unsigned int	ref_freq;	/* kHz, at which it has @cap */
	unsigned int	hispeed_load;	/* percent of the current capacity */
	unsigned int	hispeed_freq;	/* kHz; 0: off */
};

#if IS_ENABLED(CONFIG_KUNIT)
void sched_util_pred_flush(void);
#endif

#if IS_ENABLED(CONFIG_KUNIT) && defined(CONFIG_CPU_FREQ_GOV_SCHEDUTIL)
unsigned long sugov_cpu_util(int cpu, unsigned long *min, unsigned long *max);
unsigned long sugov_raise_util(const struct sugov_raise_in *in);
#endif

#if IS_ENABLED(CONFIG_KUNIT) && defined(CONFIG_SMP)
/*
 * What task placement reads for a task and a CPU (kernel/sched/fair.c,
 * "Placement" in sched-util-signal.rst), beside 6.12's expressions.
 */
struct sched_placement_inputs {
	unsigned long task_util;	/* task_util_placement() */
	unsigned long task_fit;		/* task_util_fit(), boosted */
	unsigned long cpu_with;		/* cpu_util_placement(cpu, p, cpu, 0) */
	unsigned long cpu_without;	/* cpu_util_placement(cpu, p, -1, 0) */
	unsigned long cpu_with_boost;	/* cpu_util_placement(cpu, p, cpu, 1) */
	unsigned long cpu_overutil;	/* cpu_util_overutil(cpu) */
	unsigned long pelt_task_util;	/* task_util_est() */
	unsigned long pelt_cpu_with;	/* cpu_util(cpu, p, cpu, 0) */
	unsigned long pelt_cpu_without;	/* cpu_util(cpu, p, -1, 0) */
	unsigned long pelt_cpu_with_boost; /* cpu_util(cpu, p, cpu, 1) */
	unsigned long pelt_cpu_overutil; /* cpu_util_cfs(cpu) */
};

void sched_placement_inputs(struct task_struct *p, int cpu,
			    struct sched_placement_inputs *in);
int util_fits_capacity(unsigned long util, unsigned long uclamp_min,
		       unsigned long uclamp_max, unsigned long capacity,
		       unsigned long capacity_orig,
		       unsigned long capacity_actual);
int util_fits_capacity_boosted(unsigned long util, long margin,
			       unsigned long uclamp_min,
			       unsigned long uclamp_max,
			       unsigned long capacity,
			       unsigned long capacity_orig,
			       unsigned long capacity_actual);
#endif

#endif /* _KERNEL_SCHED_UTIL_SIGNAL_H */
