/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM sched

#if !defined(_TRACE_SCHED_TUNE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SCHED_TUNE_H

#include <linux/sched.h>
#include <linux/tracepoint.h>

/*
 * The trace events of the Android common kernels' SchedTune, for the tools
 * written for them (LISA among them): the names, fields, types and formats
 * of android-4.14's include/trace/events/sched.h, in its trace system
 * "sched", where those tools enable them. sched_tune_config,
 * sched_boost_cpu and sched_boost_task are emitted where the bare
 * tracepoint of the same name with _tp fires (see
 * include/trace/events/sched.h); upstream has only the latter.
 * sched_tune_tasks_update and sched_tune_boostgroup_update follow a CPU's
 * counts, which here are per boost value: idx is the bucket, boost + 100.
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

/* A task counted on or uncounted from @cpu: @tasks left in its bucket. */
TRACE_EVENT(sched_tune_tasks_update,

	TP_PROTO(struct task_struct *tsk, int cpu, int tasks, int idx,
		 int boost, int max_boost),

	TP_ARGS(tsk, cpu, tasks, idx, boost, max_boost),

	TP_STRUCT__entry(
		__array(char,	comm,	TASK_COMM_LEN)
		__field(pid_t,	pid)
		__field(int,	cpu)
		__field(int,	tasks)
		__field(int,	idx)
		__field(int,	boost)
		__field(int,	max_boost)
	),

	TP_fast_assign(
		memcpy(__entry->comm, tsk->comm, TASK_COMM_LEN);
		__entry->pid		= tsk->pid;
		__entry->cpu		= cpu;
		__entry->tasks		= tasks;
		__entry->idx		= idx;
		__entry->boost		= boost;
		__entry->max_boost	= max_boost;
	),

	TP_printk("pid=%d comm=%s cpu=%d tasks=%d idx=%d boost=%d max_boost=%d",
		  __entry->pid, __entry->comm, __entry->cpu, __entry->tasks,
		  __entry->idx, __entry->boost, __entry->max_boost)
);

/* A CPU's boost went up (variation 1) or down (-1) to @max_boost. */
TRACE_EVENT(sched_tune_boostgroup_update,

	TP_PROTO(int cpu, int variation, int max_boost),

	TP_ARGS(cpu, variation, max_boost),

	TP_STRUCT__entry(
		__field(int,	cpu)
		__field(int,	variation)
		__field(int,	max_boost)
	),

	TP_fast_assign(
		__entry->cpu		= cpu;
		__entry->variation	= variation;
		__entry->max_boost	= max_boost;
	),

	TP_printk("cpu=%d variation=%d max_boost=%d",
		  __entry->cpu, __entry->variation, __entry->max_boost)
);

#endif /* _TRACE_SCHED_TUNE_H */

/* This part must be outside protection */
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE sched_tune
#include <trace/define_trace.h>
