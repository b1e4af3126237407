/* SPDX-License-Identifier: GPL-2.0 */
/*
 * WALT interface for the rest of the scheduler; see kernel/sched/walt.c.
 */
#ifndef _KERNEL_SCHED_WALT_H
#define _KERNEL_SCHED_WALT_H

struct seq_file;

#ifdef CONFIG_SCHED_WALT
/*
 * A child starts as a copy of its parent, WALT windows included. Clear them
 * at fork while WALT tracks (its activate hook is on), so that no path
 * before the child's first activation sees its parent's share. A child
 * forked while WALT does not track keeps the copy: marks of a session
 * before the next one, a leftover that its first event of that session
 * forgets (walt_forget_stale()). Fork then does no WALT work.
 */
static inline void walt_fork(struct task_struct *p)
{
	if (static_branch_unlikely(&sched_util_activate_key))
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
#endif

#endif /* _KERNEL_SCHED_WALT_H */
