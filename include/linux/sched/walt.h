/* SPDX-License-Identifier: GPL-2.0 */
/*
 * State of Window-Assisted Load Tracking (WALT): per task, embedded in
 * task_struct, and per CPU (also read by the tracepoints). The arithmetic
 * lives in kernel/sched/walt_window.h, the provider in kernel/sched/walt.c;
 * see Documentation/scheduler/sched-walt.rst.
 */
#ifndef _LINUX_SCHED_WALT_H
#define _LINUX_SCHED_WALT_H

#include <linux/types.h>

#define WALT_HIST_MAX	8
#define WALT_NR_BUCKETS	10

/*
 * Window state of one task; curr_window, curr_wait, prev_window and hist[]
 * are ns scaled to the highest frequency of the biggest CPU.
 */
struct walt_task_win {
	u64	mark_start;		/* end of accounted time, 0: never */
	u64	exec_mark;		/* se.sum_exec_runtime at mark_start */
	u64	wait_mark;		/* runnable wait so far at mark_start */
	u32	curr_window;		/* busy in the task's current window */
	/* Runnable wait in that window, for demand only: account_wait_time */
	u32	curr_wait;
	u32	prev_window;		/* busy in the window before it */
	u32	hist[WALT_HIST_MAX];	/* completed windows, [0] newest */
	u32	demand;			/* max(hist[0], average of N) */
	/* Frequency scale of what it ran since exec_mark, 0: not known */
	u32	freq_scale;
	/* Windows pushed into hist[] since the last walt_update_history */
	u32	untraced_samples;
	/* Predicted busy time of the window in progress, scaled ns */
	u32	pred_demand;
	/*
	 * How often, recently, a window's busy time fell in each tenth of a
	 * window (walt_pred_update()); the lowest two tenths share [1].
	 */
	u8	busy_buckets[WALT_NR_BUCKETS];
};

/*
 * Window sums of one CPU, scaled ns; under the CPU's rq->lock, and read
 * without it through a seqcount (kernel/sched/walt.c).
 */
struct walt_rq_win {
	u64	window_start;
	u64	curr_runnable_sum;
	u64	prev_runnable_sum;
	u64	busy_mark;		/* busy time charged up to here */
};

/**
 * struct walt_task - WALT state of a task
 * @win: the task's windows; under the rq lock of the CPU whose sums hold
 *	 the task's contribution, except at the migration of a waking task,
 *	 which folds them under p->pi_lock alone (walt_depart_waking()): such
 *	 a task is neither queued nor running, so nothing else writes them
 * @in_transit: the contribution left the source CPU's sums at a migration
 *		and is added to the destination's when the task is activated
 *		there; set under the source rq lock, or p->pi_lock for a
 *		waking task, cleared under the destination rq lock
 * @src_cpu: the CPU a task in transit left, for the tracepoint
 * @pred_gen: the counting generation in which the sums of the task's CPU
 *	      count @win.pred_demand (walt_pred), 0 if none; under that
 *	      CPU's rq lock
 * @session: the tracking session whose events last wrote @win, 0 if none
 *	     since fork; as @win, and read without a lock for placement
 * @home_cpu: with CONFIG_SCHED_UTIL_CHECKS, 1 + the CPU whose sums hold the
 *	      task's share, 0 until its first event
 */
struct walt_task {
	struct walt_task_win	win;
	bool			in_transit;
	int			src_cpu;
	unsigned int		pred_gen;
	unsigned int		session;
#ifdef CONFIG_SCHED_UTIL_CHECKS
	int			home_cpu;
#endif
};

#endif /* _LINUX_SCHED_WALT_H */
