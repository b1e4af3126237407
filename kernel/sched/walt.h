/* SPDX-License-Identifier: GPL-2.0 */
/*
 * WALT interface for the rest of the scheduler; see kernel/sched/walt.c.
 */
#ifndef _KERNEL_SCHED_WALT_H
#define _KERNEL_SCHED_WALT_H

struct seq_file;

#ifdef CONFIG_SCHED_WALT
/*
 * A child starts as a copy of its parent, WALT state included: windows,
 * predicted-sum generation, and the CPU whose sums hold the share. Clear
 * it at fork while WALT tracks, so that no hook sees the parent's state as
 * the child's. A child forked while WALT does not track keeps the copy:
 * the sched_util_tracking_key guarantees that no hook of the session the
 * parent's state belongs to sees the child, and the next session's first
 * event of the child forgets it (walt_forget_stale()). Fork then does no
 * WALT work. (The activate hook's key goes off before the switch and queue
 * hooks: a child forked then would reach them with its parent's state.)
 */
static inline void walt_fork(struct task_struct *p)
{
	if (static_branch_unlikely(&sched_util_tracking_key))
		memset(&p->walt, 0, sizeof(p->walt));
}
#else
static inline void walt_fork(struct task_struct *p) { }
#endif

#if defined(CONFIG_SCHED_WALT) && defined(CONFIG_SCHED_DEBUG)
void walt_print_cpu(struct seq_file *m, int cpu);
#else
static inline void walt_print_cpu(struct seq_file *m, int cpu) { }
#endif

#if IS_ENABLED(CONFIG_KUNIT) && defined(CONFIG_SCHED_WALT)
struct walt_rq_win;
struct walt_share;
extern struct sched_util_signal walt_signal;
unsigned long walt_util(u64 sum, u32 window);
unsigned long walt_cpu_util(int cpu);
struct walt_rq_win *walt_rq_of(int cpu);
void walt_removed_read(int cpu, struct walt_share *rm);
u32 walt_window_size(void);
int walt_set_window(unsigned int window);
extern unsigned int walt_account_wait_time;
#endif

#endif /* _KERNEL_SCHED_WALT_H */
