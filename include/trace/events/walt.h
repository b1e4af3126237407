/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM walt

#if !defined(_TRACE_WALT_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_WALT_H

#include <linux/sched.h>
#include <linux/tracepoint.h>

/*
 * The trace events of the Android common kernels' WALT, for the tools
 * written for them (LISA among them): keep names and fields stable. Each is
 * emitted where the bare tracepoint of the same name with _tp fires (see
 * include/trace/events/sched.h); upstream has only the latter.
 */
TRACE_EVENT(walt_update_task_ravg,

	/*
	 * The sums by pointer: read only when the event is enabled, not at
	 * each of the scheduler events that pass here.
	 */
	TP_PROTO(struct task_struct *p, int cpu, int event, u64 wallclock,
		 const struct walt_rq_win *wrq),

	TP_ARGS(p, cpu, event, wallclock, wrq),

	TP_STRUCT__entry(
		__array(char,	comm,	TASK_COMM_LEN)
		__field(pid_t,	pid)
		__field(int,	cpu)
		__field(int,	event)
		__field(u64,	wallclock)
		__field(u64,	mark_start)
		__field(u64,	win_start)
		__field(u32,	curr_window)
		__field(u32,	prev_window)
		__field(u32,	demand)
		__field(u64,	cs)
		__field(u64,	ps)
	),

	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid		= p->pid;
		__entry->cpu		= cpu;
		__entry->event		= event;
		__entry->wallclock	= wallclock;
		__entry->mark_start	= p->walt.win.mark_start;
		__entry->win_start	= wrq->window_start;
		__entry->curr_window	= p->walt.win.curr_window;
		__entry->prev_window	= p->walt.win.prev_window;
		__entry->demand		= p->walt.win.demand;
		__entry->cs		= wrq->curr_runnable_sum;
		__entry->ps		= wrq->prev_runnable_sum;
	),

	TP_printk("wc %llu ws %llu event %d cpu %d task %d (%s) ms %llu demand %u curr_window %u prev_window %u cs %llu ps %llu",
		  __entry->wallclock, __entry->win_start, __entry->event,
		  __entry->cpu, __entry->pid, __entry->comm,
		  __entry->mark_start, __entry->demand, __entry->curr_window,
		  __entry->prev_window, __entry->cs, __entry->ps)
);

TRACE_EVENT(walt_migration_update_sum,

	TP_PROTO(struct task_struct *p, int src_cpu, u64 src_cs, u64 src_ps,
		 int dst_cpu, u64 dst_cs, u64 dst_ps),

	TP_ARGS(p, src_cpu, src_cs, src_ps, dst_cpu, dst_cs, dst_ps),

	TP_STRUCT__entry(
		__array(char,	comm,	TASK_COMM_LEN)
		__field(pid_t,	pid)
		__field(int,	src_cpu)
		__field(u64,	src_cs)
		__field(u64,	src_ps)
		__field(int,	dst_cpu)
		__field(u64,	dst_cs)
		__field(u64,	dst_ps)
	),

	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid		= p->pid;
		__entry->src_cpu	= src_cpu;
		__entry->src_cs		= src_cs;
		__entry->src_ps		= src_ps;
		__entry->dst_cpu	= dst_cpu;
		__entry->dst_cs		= dst_cs;
		__entry->dst_ps		= dst_ps;
	),

	TP_printk("task %d (%s) src_cpu %d src_cs %llu src_ps %llu dst_cpu %d dst_cs %llu dst_ps %llu",
		  __entry->pid, __entry->comm, __entry->src_cpu,
		  __entry->src_cs, __entry->src_ps, __entry->dst_cpu,
		  __entry->dst_cs, __entry->dst_ps)
);

#endif /* _TRACE_WALT_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
