// SPDX-License-Identifier: GPL-2.0-only
/// Moving a queued task between two locked runqueues is spelled
/// move_queued_task_locked(): deactivate_task(), set_task_cpu() and
/// activate_task() in a row, with no runqueue lock dropped in between,
/// are an open-coded copy of it.
///
/// Paths that drop the source lock before taking the destination's
/// (move_queued_task(), sched_ext's remote move) or that split the move
/// across two lock sections (fair.c's detach_task()/attach_task()) are
/// different sequences and are not reported.
//
// Confidence: High
// Options: --no-includes --include-headers

virtual report
virtual org

@r depends on report || org@
expression src, dst, p, cpu, f1, f2;
position pos;
identifier fn != move_queued_task_locked;
@@

fn(...) {
<...
deactivate_task@pos(src, p, f1);
... when != raw_spin_rq_unlock(...)
    when != rq_unlock(...)
    when != __task_rq_unlock(...)
    when != double_unlock_balance(...)
    when != raw_spin_unlock(...)
set_task_cpu(p, cpu);
... when != raw_spin_rq_unlock(...)
    when != rq_unlock(...)
    when != raw_spin_unlock(...)
    when != raw_spin_rq_lock(...)
    when != rq_lock(...)
activate_task(dst, p, f2);
...>
}

@script:python depends on report@
pos << r.pos;
@@
coccilib.report.print_report(pos[0],
	"open-coded migration: use move_queued_task_locked()")

@script:python depends on org@
pos << r.pos;
@@
coccilib.org.print_todo(pos[0],
	"open-coded migration: use move_queued_task_locked()")
