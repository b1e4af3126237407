/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM sched_tune

#if !defined(_TRACE_SCHED_TUNE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SCHED_TUNE_H

#include <linux/sched.h>
#include <linux/tracepoint.h>

/*
 * The trace events of the Android common kernels' SchedTune, for the tools
 * written for them (LISA among them): keep names and fields stable. Each is
 * emitted where the bare tracepoint of the same name with _tp fires (see
 * include/trace/events/sched.h); upstream has only the latter.
 */
TRACE_EVENT(sched_tune_config,

	TP_PROTO(int boost),

	TP_ARGS(boost),

	TP_STRUCT__entry(
		__field(int,	boost)
	),

	TP_fast_assign(
		__entry->boost	= boost;
	),

	TP_printk("boost=%d", __entry->boost)
);

TRACE_EVENT(sched_boost_cpu,

	TP_PROTO(int cpu, unsigned long util, long margin),

	TP_ARGS(cpu, util, margin),

	TP_STRUCT__entry(
		__field(int,		cpu)
		__field(unsigned long,	util)
		__field(long,		margin)
	),

	TP_fast_assign(
		__entry->cpu	= cpu;
		__entry->util	= util;
		__entry->margin	= margin;
	),

	TP_printk("cpu=%d util=%lu margin=%ld",
		  __entry->cpu, __entry->util, __entry->margin)
);

/* Android's field order and format: comm, pid, util, margin. */
TRACE_EVENT(sched_boost_task,

	TP_PROTO(struct task_struct *tsk, unsigned long util, long margin),

	TP_ARGS(tsk, util, margin),

	TP_STRUCT__entry(
		__array(char,		comm,	TASK_COMM_LEN)
		__field(pid_t,		pid)
		__field(unsigned long,	util)
		__field(long,		margin)
	),

	TP_fast_assign(
		memcpy(__entry->comm, tsk->comm, TASK_COMM_LEN);
		__entry->pid	= tsk->pid;
		__entry->util	= util;
		__entry->margin	= margin;
	),

	TP_printk("comm=%s pid=%d util=%lu margin=%ld",
		  __entry->comm, __entry->pid, __entry->util, __entry->margin)
);

#endif /* _TRACE_SCHED_TUNE_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
