/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Load for the live KUnit suites of the utilization signals: a kthread
 * that spins (with cond_resched(), so a kernel without preemption still
 * runs everything else) until asked to block or to stop, and a periodic
 * one of any scheduling class.
 */
#ifndef _KERNEL_SCHED_SCHED_UTIL_KUNIT_H
#define _KERNEL_SCHED_SCHED_UTIL_KUNIT_H

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/cputime.h>
#include <uapi/linux/sched/types.h>

enum { SPIN_STARTING, SPIN_RUN, SPIN_BLOCK };

/* @arg: an atomic_t the test sets to SPIN_RUN or SPIN_BLOCK */
static inline int sched_util_kunit_spin(void *arg)
{
	atomic_t *state = arg;

	atomic_cmpxchg(state, SPIN_STARTING, SPIN_RUN);
	while (!kthread_should_stop()) {
		if (atomic_read(state) == SPIN_BLOCK) {
			set_current_state(TASK_INTERRUPTIBLE);
			if (!kthread_should_stop() &&
			    atomic_read(state) == SPIN_BLOCK)
				schedule();
			__set_current_state(TASK_RUNNING);
			continue;
		}
		cpu_relax();
		cond_resched();
	}
	return 0;
}

/*
 * Start a spinner on the CPUs of @mask (NULL: don't restrict) and wait
 * until it runs. Returns the task with a reference held, or an ERR_PTR.
 */
static inline struct task_struct *
sched_util_kunit_spinner(atomic_t *state, const struct cpumask *mask,
			 const char *name)
{
	struct task_struct *k;

	atomic_set(state, SPIN_STARTING);
	k = kthread_create(sched_util_kunit_spin, state, "%s", name);
	if (IS_ERR(k))
		return k;
	get_task_struct(k);
	if (mask)
		set_cpus_allowed_ptr(k, mask);
	wake_up_process(k);
	while (atomic_read(state) == SPIN_STARTING)
		usleep_range(100, 200);
	return k;
}

static inline void sched_util_kunit_spinner_stop(struct task_struct *k)
{
	kthread_stop(k);
	put_task_struct(k);
}

/*
 * IRQ time of @cpu so far. A signal on rq_clock() holds it, a task's own
 * clock does not. Normally that is a few us per window; but a vCPU that
 * its host deschedules inside an IRQ handler turns the whole stall into
 * IRQ time (up to 6.5 ms in one 20 ms window in arm64 debug boots of
 * repeated boots on a loaded host), so tolerances that compare the two
 * add what was measured.
 */
static inline u64 sched_util_kunit_irq_time(int cpu)
{
#ifdef CONFIG_IRQ_TIME_ACCOUNTING
	return irq_time_read(cpu);
#else
	return 0;
#endif
}

#define SCHED_UTIL_KUNIT_LOG	64

/**
 * struct sched_util_kunit_duty - a periodic load
 * @spin_ns: run time of each period, on the task's own clock, so that
 *	     the time it is preempted or interrupted does not count
 * @period_ns: the period; each spin starts just after a multiple of it on
 *	       local_clock(), so that with @period_ns the WALT window every
 *	       window holds one whole spin (a sleep can end a tick late)
 * @n: spins so far
 * @spin: [start, end) of the last spins on local_clock(), which the
 *	  spin's preemptions and interrupts are part of
 * @ran: what the task ran of each of those spins, on its own clock
 */
struct sched_util_kunit_duty {
	u64 spin_ns;
	u32 period_ns;
	unsigned int n;
	u64 spin[SCHED_UTIL_KUNIT_LOG][2];
	u64 ran[SCHED_UTIL_KUNIT_LOG];
};

static inline int sched_util_kunit_duty_fn(void *arg)
{
	struct sched_util_kunit_duty *d = arg;

	while (!kthread_should_stop()) {
		unsigned int i = d->n % SCHED_UTIL_KUNIT_LOG;
		u64 *log = d->spin[i];
		u64 begin = task_sched_runtime(current);
		u64 end = begin + d->spin_ns;
		u64 now, next;

		log[0] = local_clock();
		while (task_sched_runtime(current) < end &&
		       !kthread_should_stop()) {
			cpu_relax();
			cond_resched();
		}
		log[1] = local_clock();
		d->ran[i] = task_sched_runtime(current) - begin;
		d->n++;
		now = local_clock();
		next = (div_u64(now, d->period_ns) + 1) * d->period_ns +
		       NSEC_PER_MSEC;
		usleep_range(div_u64(next - now, NSEC_PER_USEC),
			     div_u64(next - now, NSEC_PER_USEC) + 100);
	}
	return 0;
}

/*
 * Start @d on @cpu with the policy and clamps of @attr (NULL: SCHED_NORMAL)
 * and return it with a reference held, or an ERR_PTR. A SCHED_DEADLINE
 * task must be allowed on its whole root domain when it gets its policy;
 * it is bound to @cpu afterwards, as a one-CPU exclusive cpuset would
 * bind it.
 */
static inline struct task_struct *
sched_util_kunit_duty(struct sched_util_kunit_duty *d,
		      const struct sched_attr *attr, int cpu, const char *name)
{
	struct task_struct *k;
	int ret;

	k = kthread_create(sched_util_kunit_duty_fn, d, "%s", name);
	if (IS_ERR(k))
		return k;
	get_task_struct(k);
	ret = attr ? sched_setattr_nocheck(k, attr) : 0;
	if (!ret)
		ret = set_cpus_allowed_ptr(k, cpumask_of(cpu));
	if (ret) {
		kthread_stop(k);
		put_task_struct(k);
		return ERR_PTR(ret);
	}
	wake_up_process(k);
	return k;
}

#endif /* _KERNEL_SCHED_SCHED_UTIL_KUNIT_H */
