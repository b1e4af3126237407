/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM sched

#if !defined(_TRACE_WALT_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_WALT_H

#include <linux/sched.h>
#include <linux/tracepoint.h>

/*
 * The trace events of the Android common kernels' WALT, for the tools
 * written for them (LISA among them): the names, fields, types and formats
 * of android-4.14's include/trace/events/sched.h, in its trace system
 * "sched", where those tools enable them. Each is emitted where the bare
 * tracepoint of the same name with _tp fires (see
 * include/trace/events/sched.h); upstream has only the latter. What this
 * WALT does not track reads 0: the new-task sums (nt_cs, nt_ps) and the
 * count of active windows; mark_start is the mark after the update (the
 * Android kernels traced the one before it), so delta_m is 0 but for a
 * clock behind the mark. sched-walt.rst, section 5.3, lists them.
 */
TRACE_EVENT(walt_update_task_ravg,

	/*
	 * The sums by pointer: read only when the event is enabled, not at
	 * each of the scheduler events that pass here.
	 */
	TP_PROTO(struct task_struct *p, int cpu, int evt, u64 wallclock,
		 const struct walt_rq_win *wrq, u64 irqtime, u32 window),

	TP_ARGS(p, cpu, evt, wallclock, wrq, irqtime, window),

	TP_STRUCT__entry(
		__array(char,		comm,	TASK_COMM_LEN)
		__field(pid_t,		pid)
		__field(pid_t,		cur_pid)
		__field(u64,		wallclock)
		__field(u64,		mark_start)
		__field(u64,		delta_m)
		__field(u64,		win_start)
		__field(u64,		delta)
		__field(u64,		irqtime)
		__field(int,		evt)
		__field(unsigned int,	demand)
		__field(unsigned int,	sum)
		__field(int,		cpu)
		__field(u64,		cs)
		__field(u64,		ps)
		__field(unsigned long,	util)
		__field(u32,		curr_window)
		__field(u32,		prev_window)
		__field(u64,		nt_cs)
		__field(u64,		nt_ps)
		__field(u32,		active_windows)
	),

	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid		= p->pid;
		__entry->cur_pid	= rcu_dereference_raw(cpu_rq(cpu)->curr)->pid;
		__entry->wallclock	= wallclock;
		__entry->mark_start	= p->walt.win.mark_start;
		__entry->delta_m	= wallclock - p->walt.win.mark_start;
		__entry->win_start	= wrq->window_start;
		__entry->delta		= wallclock - wrq->window_start;
		__entry->irqtime	= irqtime;
		__entry->evt		= evt;
		__entry->demand		= p->walt.win.demand;
		__entry->sum		= p->walt.win.curr_window;
		__entry->cpu		= cpu;
		__entry->cs		= wrq->curr_runnable_sum;
		__entry->ps		= wrq->prev_runnable_sum;
		__entry->util		= div64_u64(wrq->prev_runnable_sum <<
						    SCHED_CAPACITY_SHIFT, window);
		__entry->curr_window	= p->walt.win.curr_window;
		__entry->prev_window	= p->walt.win.prev_window;
		__entry->nt_cs		= 0;
		__entry->nt_ps		= 0;
		__entry->active_windows	= 0;
	),

	TP_printk("wc %llu ws %llu delta %llu event %d cpu %d cur_pid %d task %d (%s) ms %llu delta %llu demand %u sum %u irqtime %llu cs %llu ps %llu util %lu cur_window %u prev_window %u active_wins %u",
		  __entry->wallclock, __entry->win_start, __entry->delta,
		  __entry->evt, __entry->cpu, __entry->cur_pid,
		  __entry->pid, __entry->comm, __entry->mark_start,
		  __entry->delta_m, __entry->demand,
		  __entry->sum, __entry->irqtime,
		  __entry->cs, __entry->ps, __entry->util,
		  __entry->curr_window, __entry->prev_window,
		  __entry->active_windows)
);

/*
 * The windows that an update of @p pushed into its history: @samples of
 * them, the newest of @runtime. android-4.14 traced each call of its
 * update_history(), the task's own window and the windows it ran through
 * whole apart; here one update records both, in one event, and of the
 * windows run through whole at most WALT_HIST_MAX count, as only those
 * reach hist[]. @hist holds the newest 5 of them, android-4.14's
 * RAVG_HIST_SIZE_MAX, as its format does (sched_walt_hist_size averages up
 * to WALT_HIST_MAX).
 */
#define WALT_TRACE_HIST	5
static_assert(WALT_HIST_MAX >= WALT_TRACE_HIST);

TRACE_EVENT(walt_update_history,

	TP_PROTO(struct task_struct *p, int cpu, int evt, int samples,
		 u32 window),

	TP_ARGS(p, cpu, evt, samples, window),

	TP_STRUCT__entry(
		__array(char,		comm,	TASK_COMM_LEN)
		__field(pid_t,		pid)
		__field(unsigned int,	runtime)
		__field(int,		samples)
		__field(int,		evt)
		__field(u64,		demand)
		__field(u64,		walt_avg)
		__field(unsigned int,	pelt_avg)
		__array(u32,		hist,	WALT_TRACE_HIST)
		__field(int,		cpu)
	),

	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid		= p->pid;
		__entry->runtime	= p->walt.win.hist[0];
		__entry->samples	= samples;
		__entry->evt		= evt;
		__entry->demand		= p->walt.win.demand;
		__entry->walt_avg	= div_u64(__entry->demand <<
						  SCHED_CAPACITY_SHIFT, window);
		__entry->pelt_avg	= READ_ONCE(p->se.avg.util_avg);
		memcpy(__entry->hist, p->walt.win.hist,
		       WALT_TRACE_HIST * sizeof(u32));
		__entry->cpu		= cpu;
	),

	TP_printk("%d (%s): runtime %u samples %d event %d demand %llu walt %llu pelt %u (hist: %u %u %u %u %u) cpu %d",
		  __entry->pid, __entry->comm,
		  __entry->runtime, __entry->samples, __entry->evt,
		  __entry->demand, __entry->walt_avg, __entry->pelt_avg,
		  __entry->hist[0], __entry->hist[1],
		  __entry->hist[2], __entry->hist[3],
		  __entry->hist[4], __entry->cpu)
);

/* One event for each CPU of a migration: the source, then the destination. */
TRACE_EVENT(walt_migration_update_sum,

	TP_PROTO(struct task_struct *p, int cpu, u64 cs, u64 ps),

	TP_ARGS(p, cpu, cs, ps),

	TP_STRUCT__entry(
		__field(int,	cpu)
		__field(int,	pid)
		__field(u64,	cs)
		__field(u64,	ps)
		__field(s64,	nt_cs)
		__field(s64,	nt_ps)
	),

	TP_fast_assign(
		__entry->cpu	= cpu;
		__entry->pid	= p->pid;
		__entry->cs	= cs;
		__entry->ps	= ps;
		__entry->nt_cs	= 0;
		__entry->nt_ps	= 0;
	),

	TP_printk("cpu %d: cs %llu ps %llu nt_cs %lld nt_ps %lld pid %d",
		  __entry->cpu, __entry->cs, __entry->ps,
		  __entry->nt_cs, __entry->nt_ps, __entry->pid)
);

#endif /* _TRACE_WALT_H */

/* This part must be outside protection */
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE walt
#include <trace/define_trace.h>
