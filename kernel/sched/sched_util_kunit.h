/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Load for the live KUnit suites of the utilization signals: a kthread
 * that spins (with cond_resched(), so a kernel without preemption still
 * runs everything else) until asked to block or to stop.
 */
#ifndef _KERNEL_SCHED_SCHED_UTIL_KUNIT_H
#define _KERNEL_SCHED_SCHED_UTIL_KUNIT_H

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sched.h>

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

#endif /* _KERNEL_SCHED_SCHED_UTIL_KUNIT_H */
