/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SchedTune interface for the scheduler core; see kernel/sched/tune.c and
 * Documentation/scheduler/sched-tune.rst.
 */
#ifndef _KERNEL_SCHED_TUNE_H
#define _KERNEL_SCHED_TUNE_H

#include <linux/bitmap.h>
#include <linux/jump_label.h>

struct cgroup_subsys_state;
struct kernfs_open_file;
struct rq;
struct seq_file;
struct task_struct;

#ifdef CONFIG_SCHED_TUNE

#define STUNE_BOOST_MIN		-100
#define STUNE_BOOST_MAX		100
#define STUNE_BUCKETS		(STUNE_BOOST_MAX - STUNE_BOOST_MIN + 1)

/**
 * struct stune_cpu - RUNNABLE tasks of one CPU per boost value
 * @tasks: number of RUNNABLE tasks of each boost, index boost + 100
 * @busy: the non-empty entries of @tasks
 * @boost: the highest boost with RUNNABLE tasks, 0 when there are none
 * @freq_boost: the boost schedutil applies: @boost while there are RUNNABLE
 *		tasks; once there are none, the last such @boost if it was
 *		negative, else 0. Like uclamp, which retains only the max
 *		clamp of an idle rq: a deflating boost keeps the blocked
 *		utilization of the tasks that just slept from asking for
 *		their undeflated OPP while the CPU idles, but an inflating
 *		one kept by an idle CPU would hold up the OPP of every CPU in
 *		its policy.
 *
 * Protected by the CPU's rq->lock; @boost and @freq_boost are also read
 * locklessly by schedutil and debug output. Embedded in struct rq, like
 * uclamp's buckets, so that the enqueue and dequeue hooks reach it from
 * the rq they are given rather than through a per-CPU offset (three
 * instructions per hook on x86_64). It is struct rq's last member, so
 * that it moves none of the others: with SchedTune built in, every field
 * the scheduler's hot paths touch is where it is without it. The cost
 * left is memory, sizeof(struct stune_cpu) per CPU. kernel/sched/sched.h
 * includes this header before struct rq for it.
 */
struct stune_cpu {
	unsigned int	tasks[STUNE_BUCKETS];
	DECLARE_BITMAP(busy, STUNE_BUCKETS);
	int		boost;
	int		freq_boost;
};

/**
 * struct stune_group - the boost of a group of either controller
 * @boost: the value written to schedtune.boost or cpu.boost (the root
 *	   schedtune group's: kernel.sched_cfs_boost)
 * @effective: the boost its tasks get; see sched_tune_effective()
 *
 * Embedded in struct schedtune and, for cgroup v2's cpu.boost, in struct
 * task_group. Written under stune_mutex (kernel/sched/tune.c); @boost is
 * read locklessly by its file, @effective at enqueue and placement.
 */
struct stune_group {
	int	boost;
	int	effective;
};

DECLARE_STATIC_KEY_FALSE(sched_tune_used);
DECLARE_STATIC_KEY_FALSE(sched_tune_uncount_on);
DECLARE_STATIC_KEY_FALSE(sched_tune_prefer_idle_on);

/**
 * struct stune_idle_pick - an idle CPU for a task of a prefer_idle group
 * @boosted: the task's boost is above 0: the highest capacity wins
 * @prev_cpu: the task's previous CPU, which wins ties
 * @cpu: the CPU chosen so far, -1 for none
 * @capacity: its capacity
 */
struct stune_idle_pick {
	bool		boosted;
	int		prev_cpu;
	int		cpu;
	unsigned long	capacity;
};

bool sched_tune_task_prefer_idle(struct task_struct *p, int *boost);
void sched_tune_prefer_idle_consider(struct stune_idle_pick *pick, int cpu,
				     unsigned long capacity, bool idle,
				     int fits);

/*
 * Whether @p's group has schedtune.prefer_idle set (and then @p's boost in
 * *@boost): false, without a look-up, until any group first sets it.
 */
static __always_inline bool sched_tune_prefer_idle(struct task_struct *p,
						   int *boost)
{
	return static_branch_unlikely(&sched_tune_prefer_idle_on) &&
	       sched_tune_task_prefer_idle(p, boost);
}

void sched_tune_enqueue(struct rq *rq, struct task_struct *p);
void sched_tune_dequeue(struct rq *rq, struct task_struct *p);
int sched_tune_cpu_boost(int cpu);
unsigned long sched_tune_cpu_util(int cpu, unsigned long util);
#ifdef CONFIG_SCHED_DEBUG
void sched_tune_print_cpu(struct seq_file *m, int cpu);
#else
static inline void sched_tune_print_cpu(struct seq_file *m, int cpu) { }
#endif
#ifdef CONFIG_SCHED_UTIL_CHECKS
void sched_tune_check_idle(struct rq *rq);
#else
static inline void sched_tune_check_idle(struct rq *rq) { }
#endif

/*
 * enqueue_task()/dequeue_task() hooks: a NOP until a boost is first set;
 * see sched_tune_uncount_on for why dequeue has its own key.
 */
static __always_inline void sched_tune_rq_inc(struct rq *rq,
					      struct task_struct *p)
{
	if (static_branch_unlikely(&sched_tune_used))
		sched_tune_enqueue(rq, p);
}

/*
 * After the class enqueue: a task in delayed dequeue becomes RUNNABLE only
 * in the class's ENQUEUE_DELAYED requeue, and is counted then.
 */
static __always_inline void sched_tune_rq_inc_requeued(struct rq *rq,
						       struct task_struct *p,
						       bool requeued)
{
	if (static_branch_unlikely(&sched_tune_used) && requeued)
		sched_tune_enqueue(rq, p);
}

static __always_inline void sched_tune_rq_dec(struct rq *rq,
					      struct task_struct *p)
{
	if (static_branch_unlikely(&sched_tune_uncount_on))
		sched_tune_dequeue(rq, p);
}

static inline void sched_tune_fork(struct task_struct *p)
{
	p->stune_active = 0;
}

unsigned long sched_tune_task_boosted_util(struct task_struct *p,
					   unsigned long util);

/* cpu.boost of the cpu controller (kernel/sched/core.c) */
void sched_tune_group_online(struct cgroup_subsys_state *css);
void sched_tune_group_offline(struct cgroup_subsys_state *css);
int sched_tune_boost_show(struct seq_file *sf, void *v);
ssize_t sched_tune_boost_write(struct kernfs_open_file *of, char *buf,
			       size_t nbytes, loff_t off);

/*
 * Task placement's utilization @util of @p with the margin of @p's group
 * boost (traced as sched_boost_task): a NOP until a boost is first set.
 */
static __always_inline unsigned long sched_tune_task_util(struct task_struct *p,
							  unsigned long util)
{
	if (static_branch_unlikely(&sched_tune_used))
		return sched_tune_task_boosted_util(p, util);
	return util;
}

#if IS_ENABLED(CONFIG_KUNIT)
long sched_tune_margin(unsigned long util, int boost);
unsigned long sched_tune_boosted(unsigned long util, long margin,
				 unsigned long capacity);
unsigned long sched_tune_task_boosted(unsigned long util, int boost);
void stune_count(struct stune_cpu *sc, int boost);
void stune_uncount(struct stune_cpu *sc, int boost);
int sched_tune_set_global_boost(int boost);
int sched_tune_parse_boost(const char *buf, int *boost);
#endif

#else /* !CONFIG_SCHED_TUNE */

static inline void sched_tune_rq_inc(struct rq *rq, struct task_struct *p) { }
static inline void sched_tune_rq_inc_requeued(struct rq *rq,
					      struct task_struct *p,
					      bool requeued) { }
static inline void sched_tune_rq_dec(struct rq *rq, struct task_struct *p) { }
static inline void sched_tune_fork(struct task_struct *p) { }
static inline int sched_tune_cpu_boost(int cpu) { return 0; }
static inline void sched_tune_print_cpu(struct seq_file *m, int cpu) { }
static inline void sched_tune_check_idle(struct rq *rq) { }
static inline void sched_tune_group_online(struct cgroup_subsys_state *css) { }
static inline void sched_tune_group_offline(struct cgroup_subsys_state *css) { }
static inline unsigned long sched_tune_cpu_util(int cpu, unsigned long util)
{
	return util;
}

static inline unsigned long sched_tune_task_util(struct task_struct *p,
						 unsigned long util)
{
	return util;
}

static inline bool sched_tune_prefer_idle(struct task_struct *p, int *boost)
{
	return false;
}

#endif /* CONFIG_SCHED_TUNE */
#endif /* _KERNEL_SCHED_TUNE_H */
