/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Utilization-signal framework: pluggable CPU-utilization tracking.
 *
 * A utilization signal ("provider") tells schedutil how busy a CPU is and
 * task placement how big a task is. PELT is the built-in provider and the
 * default; others (WALT) register at boot. One provider is *selected* for
 * each of two roles, the same one unless told otherwise: for frequency,
 * its ->cpu_util() feeds schedutil; for placement, its ->task_util() and
 * ->cpu_util_without() are what EAS, capacity fitness, misfit detection
 * and the overutilized check read (load balancing's load stays PELT's;
 * the list is in
 * Documentation/scheduler/sched-util-signal.rst). A provider can also be
 * *tracking* without being selected (for side-by-side comparison);
 * tracking is what turns its event hooks on.
 *
 * Data flow into schedutil (kernel/sched/cpufreq_schedutil.c), for a
 * signal that covers the fair class (PELT):
 *
 *   sched_util_cpu_util()          the selected signal, capacity scale
 *     -> effective_cpu_util()      + RT/DL/IRQ, uclamp min/max hints
 *     -> sched_tune_cpu_util()     SchedTune margin (if CONFIG_SCHED_TUNE),
 *                                  on the whole CPU's sum
 *     -> sugov_effective_cpu_perf() headroom
 *
 * and for one that covers the whole CPU (WALT), to which nothing it holds
 * is added again:
 *
 *   sched_util_cpu_util()          every class's and the IRQ time
 *     -> effective_cpu_util()      only for its DL/uclamp min/max hints
 *     -> sched_tune_cpu_util()     SchedTune margin, on the same quantity
 *     -> sugov_effective_cpu_perf() headroom
 *
 * Event hooks are dispatched with static calls behind one static key per
 * hook: a hook that no tracking provider implements is a patched-out branch,
 * and a kernel running PELT executes no provider code on any hot path.
 * Only one provider with event hooks can be tracking at a time.
 *
 * Locking context of each hook, asserted by the dispatchers in
 * kernel/sched/util_signal.h:
 *
 *   activate(rq, p, flags)   rq->lock held, IRQs off, rq clock updated;
 *                            @p becomes RUNNABLE on @rq (activate_task()):
 *                            a fork (ENQUEUE_INITIAL), a wake-up
 *                            (ENQUEUE_WAKEUP) and/or an arrival after a
 *                            migration (ENQUEUE_MIGRATED).
 *   switch_task(rq, prev, next)
 *                            rq->lock held, IRQs off; @prev is put and
 *                            @next picked, prev != next (__schedule()).
 *   tick(rq)                 rq->lock held, IRQs off (sched_tick()).
 *   migrate(p, new_cpu)      @p leaves task_cpu(@p) for @new_cpu
 *                            (set_task_cpu()). If @p->on_rq, the source
 *                            rq->lock is held (the destination's may be
 *                            too: the provider must not take it); if not,
 *                            @p is waking, only @p->pi_lock is held and
 *                            no rq->lock at all, so the provider may take
 *                            the source rq->lock. Every migration path
 *                            (wake-up, load balance, affinity, hotplug,
 *                            RT/DL push/pull, NUMA swap, sched_ext) passes
 *                            here and then through activate() with
 *                            ENQUEUE_MIGRATED on the destination.
 *   enqueue(rq, p)           rq->lock held, IRQs off; @p becomes RUNNABLE
 *                            on @rq (enqueue_task(), before the class
 *                            enqueues it, so that the frequency update of
 *                            that enqueue sees it; after the class for a
 *                            task it requeues from delayed dequeue).
 *   dequeue(rq, p)           rq->lock held, IRQs off; @p stops being
 *                            RUNNABLE on @rq (dequeue_task(), before the
 *                            class dequeues it; a task that the fair class
 *                            keeps queued in delayed dequeue has stopped).
 *                            The pair also brackets a change of a queued
 *                            task's attributes (DEQUEUE_SAVE); a provider
 *                            counts a task once, whatever the order of the
 *                            hooks' switching on. The pair is on only
 *                            while a reader wants ->cpu_util_pred()
 *                            (sched_util_pred_get(), switched from a
 *                            work item): it keeps the predicted sums,
 *                            which nothing else reads.
 *   irq(rq, delta)           IRQs off, on the CPU of @rq, rq->lock NOT
 *                            held: @delta ns of hard or soft IRQ time
 *                            interrupted @rq->idle, not a kthread
 *                            injecting idle (CONFIG_IRQ_TIME_ACCOUNTING).
 *
 * CPU hotplug and suspend/resume are not hooks: a provider that needs them
 * registers cpuhp states and syscore_ops of its own.
 */
#ifndef _LINUX_SCHED_UTIL_SIGNAL_H
#define _LINUX_SCHED_UTIL_SIGNAL_H

#include <linux/list.h>
#include <linux/types.h>

struct rq;
struct task_struct;

#define SCHED_UTIL_NAME_LEN	16

/**
 * enum sched_util_role - what a selected signal is consumed for
 * @SCHED_UTIL_FREQ: schedutil's CPU utilization (->cpu_util())
 * @SCHED_UTIL_PLACE: task placement (->task_util(), ->cpu_util_without())
 * @SCHED_UTIL_ROLES: the number of roles; to the select call, both
 */
enum sched_util_role {
	SCHED_UTIL_FREQ,
	SCHED_UTIL_PLACE,
	SCHED_UTIL_ROLES,
};

/**
 * enum sched_util_coverage - what a signal's CPU utilization holds
 * @SCHED_UTIL_COVERS_CFS: the fair class's run time only, as PELT's
 *	cpu_util_cfs_boost(); schedutil adds the RT, DL and IRQ
 *	utilization to it (effective_cpu_util()).
 * @SCHED_UTIL_COVERS_CPU: the whole CPU's busy time: the run time of
 *	every class, IRQ time that interrupted a task (busy time measured
 *	on rq_clock(), not rq_clock_task()) and IRQ time that interrupted
 *	idle (the ->irq hook); schedutil adds none of it again.
 */
enum sched_util_coverage {
	SCHED_UTIL_COVERS_CFS,
	SCHED_UTIL_COVERS_CPU,
};

/**
 * struct sched_util_signal - a CPU-utilization signal provider
 * @name:	name used by the sched_util_signal sysctl and boot parameter
 * @covers:	what @cpu_util holds; SCHED_UTIL_COVERS_CFS if not set
 * @cpu_util:	utilization of @cpu for frequency selection, on the
 *		capacity scale of @cpu; any context, no lock required
 * @task_util:	utilization of @p, 0 to SCHED_CAPACITY_SCALE, for task
 *		placement; any context
 * @cpu_util_pred: what the RUNNABLE tasks of @cpu are predicted to need in
 *		the coming window, on the scale of @cpu_util, for schedutil's
 *		pl tunable; any context. Optional: without it pl changes
 *		nothing.
 * @cpu_util_without: @cpu_util less @p's share of it, for task placement
 *		(EAS weighs @p on each candidate CPU); called for a task
 *		that is waking and not running, under @p->pi_lock. @p NULL:
 *		@cpu_util itself, for the overutilized check, from any
 *		context. Optional: without it @p's share stays in
 *		(@cpu_util).
 * @start:	begin tracking (may sleep); called before the hooks are on
 * @stop:	end tracking (may sleep); called after the hooks are off and
 *		every CPU has left them
 * @warmup_ns:	how long the provider tracks after @start before @cpu_util
 *		describes the CPUs; selecting it waits until then, so that
 *		schedutil never reads the empty state of a fresh start
 * @activate:	event hook: @p becomes RUNNABLE on @rq (optional)
 * @switch_task: event hook: context switch from @prev to @next (optional)
 * @tick:	event hook: scheduler tick on @rq (optional)
 * @migrate:	event hook: @p leaves its CPU for @new_cpu (optional)
 * @enqueue:	event hook: @p becomes RUNNABLE on @rq (optional)
 * @dequeue:	event hook: @p stops being RUNNABLE on @rq (optional)
 * @irq:	event hook: @delta ns of IRQ time interrupted idle (optional)
 * @pred_switch: before @enqueue and @dequeue go on (@on): empty the
 *		predicted sums and count from each task's next enqueue; before
 *		they go off: stop counting, adding and taking (may sleep).
 *		Required with them, not allowed without.
 * @list:	registry link, owned by the framework
 *
 * The locking context of each event hook is given at the top of this file.
 */
struct sched_util_signal {
	const char *name;
	enum sched_util_coverage covers;
	unsigned long (*cpu_util)(int cpu);
	unsigned long (*task_util)(struct task_struct *p);
	unsigned long (*cpu_util_pred)(int cpu);
	unsigned long (*cpu_util_without)(int cpu, struct task_struct *p);
	int (*start)(void);
	void (*stop)(void);
	u64 warmup_ns;

	void (*activate)(struct rq *rq, struct task_struct *p, int flags);
	void (*switch_task)(struct rq *rq, struct task_struct *prev,
			    struct task_struct *next);
	void (*tick)(struct rq *rq);
	void (*migrate)(struct task_struct *p, int new_cpu);
	void (*enqueue)(struct rq *rq, struct task_struct *p);
	void (*dequeue)(struct rq *rq, struct task_struct *p);
	void (*irq)(struct rq *rq, u64 delta);
	void (*pred_switch)(bool on);

	struct list_head list;
};

#ifdef CONFIG_SCHED_UTIL_SIGNAL
int sched_util_signal_register(struct sched_util_signal *sig);
void sched_util_signal_unregister(struct sched_util_signal *sig);
int sched_util_signal_select(const char *name);
int sched_util_signal_select_for(const char *name, enum sched_util_role role);
int sched_util_signal_track(struct sched_util_signal *sig, bool on);
int sched_util_signal_restart(struct sched_util_signal *sig,
			      void (*change)(void *arg), void *arg);
const char *sched_util_signal_selected(void);
const char *sched_util_signal_selected_for(enum sched_util_role role);
bool sched_util_signal_is_selected(const struct sched_util_signal *sig);
unsigned long sched_util_cpu_util(int cpu);
unsigned long sched_util_cpu_util_pred(int cpu);
void sched_util_pred_get(void);
void sched_util_pred_put(void);
unsigned long sched_util_task_util(struct task_struct *p);
unsigned long sched_util_cpu_util_without(int cpu, struct task_struct *p);
u64 sched_util_place_begin(void);
unsigned long sched_util_cpu_util_without_once(int cpu, struct task_struct *p,
					       u64 place);
#else
static inline void sched_util_pred_get(void) { }
static inline void sched_util_pred_put(void) { }
#endif

#endif /* _LINUX_SCHED_UTIL_SIGNAL_H */
