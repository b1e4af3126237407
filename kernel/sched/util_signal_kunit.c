// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the utilization-signal framework: registration, lookup
 * and selection by name, hook dispatch, which IRQ time reaches a provider,
 * switching while tasks run, PELT equivalence on live runqueues, a
 * provider's warm-up waited for without the lock of the selection, and one
 * read of each CPU per placement.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sched/signal.h>

#include <linux/mmu_context.h>

#include "sched.h"
#include "sched_util_kunit.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* A provider whose values are recognisable and whose hooks count calls. */
static atomic_t test_ticks, test_switches, test_irqs;

/* The IRQ time the test passes; real IRQ time that interrupts idle is not. */
#define TEST_IRQ_DELTA	123456789ULL

/*
 * The test provider's utilization of CPU n is test_util_base + n, 100 + n
 * unless a test must tell it from PELT's and moves it away.
 */
static unsigned long test_util_base;

static unsigned long test_cpu_util(int cpu)
{
	return READ_ONCE(test_util_base) + cpu;
}

static unsigned long test_task_util(struct task_struct *p)
{
	return 7;
}

static void test_tick(struct rq *rq)
{
	atomic_inc(&test_ticks);
}

static void test_switch(struct rq *rq, struct task_struct *prev,
			struct task_struct *next)
{
	atomic_inc(&test_switches);
}

static void test_irq(struct rq *rq, u64 delta)
{
	if (delta == TEST_IRQ_DELTA)
		atomic_inc(&test_irqs);
}

static struct sched_util_signal test_signal = {
	.name		= "kunit",
	.cpu_util	= test_cpu_util,
	.task_util	= test_task_util,
	.tick		= test_tick,
	.switch_task	= test_switch,
	.irq		= test_irq,
};

static void test_unregister(void *sig)
{
	sched_util_signal_unregister(sig);
}

/* A placement provider whose every read gives another value. */
static atomic_t test_without_reads;

static unsigned long test_cpu_util_without(int cpu, struct task_struct *p)
{
	return 1000 * (cpu + 1) + atomic_inc_return(&test_without_reads);
}

static struct sched_util_signal test_once_signal = {
	.name		= "kunit_once",
	.cpu_util	= test_cpu_util,
	.task_util	= test_task_util,
	.cpu_util_without = test_cpu_util_without,
};

static int util_signal_test_init(struct kunit *test)
{
	int ret;

	WRITE_ONCE(test_util_base, 100);
	atomic_set(&test_ticks, 0);
	atomic_set(&test_switches, 0);
	atomic_set(&test_irqs, 0);
	INIT_LIST_HEAD(&test_signal.list);
	test_signal.covers = SCHED_UTIL_COVERS_CFS;
	ret = sched_util_signal_register(&test_signal);
	if (ret)
		return ret;
	return kunit_add_action_or_reset(test, test_unregister, &test_signal);
}

static void util_signal_register_test(struct kunit *test)
{
	struct sched_util_signal nameless = {
		.cpu_util = test_cpu_util, .task_util = test_task_util,
	};
	struct sched_util_signal no_util = { .name = "no_util" };
	struct sched_util_signal too_long = {
		.name = "a_name_of_sixteen", .cpu_util = test_cpu_util,
		.task_util = test_task_util,
	};
	struct sched_util_signal dup = {
		.name = "pelt", .cpu_util = test_cpu_util,
		.task_util = test_task_util,
	};
	struct sched_util_signal bad_covers = {
		.name = "bad_covers", .cpu_util = test_cpu_util,
		.task_util = test_task_util, .covers = SCHED_UTIL_COVERS_CPU + 1,
	};

	KUNIT_EXPECT_EQ(test, sched_util_signal_register(&nameless), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_util_signal_register(&no_util), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_util_signal_register(&too_long), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_util_signal_register(&dup), -EEXIST);
	KUNIT_EXPECT_EQ(test, sched_util_signal_register(&bad_covers), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_util_signal_register(&test_signal), -EEXIST);
}

static void util_signal_select_test(struct kunit *test)
{
	static const char * const bad[] = {
		"", "\n", "pel", "pelt2", "PELT", " pelt", "kunit kunit", "walt?",
	};
	unsigned long via_signal, direct;
	unsigned int i;

	KUNIT_ASSERT_STREQ(test, sched_util_signal_selected(), "pelt");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test, sched_util_signal_select(bad[i]), -EINVAL,
				    "name \"%s\"", bad[i]);
		KUNIT_EXPECT_STREQ(test, sched_util_signal_selected(), "pelt");
	}

	/* A trailing newline, as echo writes it, is accepted. */
	KUNIT_ASSERT_EQ(test, sched_util_signal_select("kunit\n"), 0);
	KUNIT_EXPECT_STREQ(test, sched_util_signal_selected(), "kunit");
	KUNIT_EXPECT_EQ(test, sched_util_cpu_util(0), 100UL);
	KUNIT_EXPECT_EQ(test, sched_util_cpu_util(1), 101UL);
	KUNIT_EXPECT_EQ(test, sched_util_task_util(current), 7UL);

	KUNIT_EXPECT_EQ(test, sched_util_signal_select("nosuch"), -EINVAL);
	KUNIT_EXPECT_STREQ(test, sched_util_signal_selected(), "kunit");

	KUNIT_ASSERT_EQ(test, sched_util_signal_select("pelt"), 0);
	KUNIT_EXPECT_STREQ(test, sched_util_signal_selected(), "pelt");
	/* With IRQs off no tick can update current's PELT between reads. */
	local_irq_disable();
	via_signal = sched_util_task_util(current);
	direct = pelt_task_util_est(current);
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, via_signal, direct);
}

static void util_signal_unregister_selected_test(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, sched_util_signal_select("kunit"), 0);
	sched_util_signal_unregister(&test_signal);
	KUNIT_EXPECT_STREQ(test, sched_util_signal_selected(), "pelt");
	KUNIT_EXPECT_STREQ(test, sched_util_signal_selected_for(SCHED_UTIL_PLACE), "pelt");
	KUNIT_EXPECT_EQ(test, sched_util_signal_select("kunit"), -EINVAL);
	/* The cleanup action unregisters again: that must be harmless. */
}

/* schedutil's utilization of a CPU and its bounds (sugov_cpu_util()). */
struct sugov_input {
	unsigned long util, min, max;
};

/* Kthreads that keep every CPU busy, so ticks and switches happen. */
struct spinners {
	struct task_struct **k;
	atomic_t state;
	int nr;
};

static void spinners_stop(void *arg)
{
	struct spinners *s = arg;

	while (s->nr--)
		sched_util_kunit_spinner_stop(s->k[s->nr]);
}

static struct spinners *spinners_start(struct kunit *test, int per_cpu)
{
	struct spinners *s;
	int cpu, i;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	s->k = kunit_kcalloc(test, num_online_cpus() * per_cpu, sizeof(*s->k),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s->k);
	for_each_online_cpu(cpu) {
		for (i = 0; i < per_cpu; i++) {
			struct task_struct *k;

			k = sched_util_kunit_spinner(&s->state, cpumask_of(cpu),
						     "util_spin");
			KUNIT_ASSERT_FALSE(test, IS_ERR(k));
			s->k[s->nr++] = k;
		}
	}
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, spinners_stop, s), 0);
	return s;
}

static void util_signal_hooks_test(struct kunit *test)
{
	int ticks, switches;

	spinners_start(test, 2);
	msleep(20);
	/* Nothing reaches a provider that is not tracking. */
	KUNIT_EXPECT_EQ(test, atomic_read(&test_ticks), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&test_switches), 0);

	KUNIT_ASSERT_EQ(test, sched_util_signal_select("kunit"), 0);
	msleep(100);
	KUNIT_ASSERT_EQ(test, sched_util_signal_select("pelt"), 0);
	ticks = atomic_read(&test_ticks);
	switches = atomic_read(&test_switches);
	/* 100 ms at HZ >= 100 on 2 busy CPUs: at least a few ticks each. */
	KUNIT_EXPECT_GE(test, ticks, 2);
	KUNIT_EXPECT_GE(test, switches, 2);

	/* Deselected: the hooks are off again. */
	msleep(50);
	KUNIT_EXPECT_EQ(test, atomic_read(&test_ticks), ticks);
	KUNIT_EXPECT_EQ(test, atomic_read(&test_switches), switches);
}

/*
 * IRQ time reaches a provider only when it interrupted the CPU's idle
 * task: any other task's run time, a kthread injecting idle with PF_IDLE
 * set included, already holds its IRQ time.
 */
static void util_signal_irq_idle_test(struct kunit *test)
{
	unsigned long flags;
	struct rq *rq;
	int task, injecting, idle;

	KUNIT_ASSERT_EQ(test, sched_util_signal_select("kunit"), 0);
	local_irq_save(flags);
	rq = this_rq();
	sched_util_hook_irq(rq, current, TEST_IRQ_DELTA);
	task = atomic_read(&test_irqs);
	/* As play_idle_precise() does to its kthread. */
	current->flags |= PF_IDLE;
	sched_util_hook_irq(rq, current, TEST_IRQ_DELTA);
	current->flags &= ~PF_IDLE;
	injecting = atomic_read(&test_irqs) - task;
	sched_util_hook_irq(rq, rq->idle, TEST_IRQ_DELTA);
	idle = atomic_read(&test_irqs) - task - injecting;
	local_irq_restore(flags);
	KUNIT_ASSERT_EQ(test, sched_util_signal_select("pelt"), 0);

	KUNIT_EXPECT_EQ(test, task, 0);
	KUNIT_EXPECT_EQ(test, injecting, 0);
	KUNIT_EXPECT_EQ(test, idle, 1);
}

static void util_signal_track_test(struct kunit *test)
{
	/* Tracking side by side turns the hooks on without selecting. */
	spinners_start(test, 1);
	KUNIT_ASSERT_EQ(test, sched_util_signal_track(&test_signal, true), 0);
	msleep(100);
	KUNIT_EXPECT_STREQ(test, sched_util_signal_selected(), "pelt");
	KUNIT_EXPECT_GE(test, atomic_read(&test_ticks), 2);

	/* Selecting and deselecting keeps the side-by-side reference. */
	KUNIT_ASSERT_EQ(test, sched_util_signal_select("kunit"), 0);
	KUNIT_ASSERT_EQ(test, sched_util_signal_select("pelt"), 0);
	atomic_set(&test_ticks, 0);
	msleep(100);
	KUNIT_EXPECT_GE(test, atomic_read(&test_ticks), 2);

	KUNIT_EXPECT_EQ(test, sched_util_signal_track(&test_signal, false), 0);
	atomic_set(&test_ticks, 0);
	msleep(50);
	KUNIT_EXPECT_EQ(test, atomic_read(&test_ticks), 0);
}

/*
 * A provider that keeps predicted sums: its ->pred_switch() records
 * whether the queue hooks were still on when it was told to stop.
 */
static int test_pred_stops, test_pred_stops_hooked;

static void test_queue(struct rq *rq, struct task_struct *p)
{
}

static void test_pred_switch(bool on)
{
	if (on)
		return;
	test_pred_stops++;
	test_pred_stops_hooked += static_key_enabled(&sched_util_dequeue_key) &&
				  static_key_enabled(&sched_util_enqueue_key);
}

static struct sched_util_signal test_pred_signal = {
	.name		= "kunit_pred",
	.cpu_util	= test_cpu_util,
	.task_util	= test_task_util,
	.enqueue	= test_queue,
	.dequeue	= test_queue,
	.pred_switch	= test_pred_switch,
};

static void test_pred_put(void *unused)
{
	sched_util_pred_put();
	sched_util_pred_flush();
}

/*
 * A provider that stops tracking while a reader wants its prediction
 * stops counting before its queue hooks go off, as when the last reader
 * goes: a task that slept with the dequeue hook off would stay counted,
 * and the migration hook, on until last, would fold it and change its
 * CPU's sum without that CPU's rq lock.
 */
static void util_signal_pred_stop_test(struct kunit *test)
{
	test_pred_stops = 0;
	test_pred_stops_hooked = 0;
	INIT_LIST_HEAD(&test_pred_signal.list);
	KUNIT_ASSERT_EQ(test, sched_util_signal_register(&test_pred_signal), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, test_unregister,
							&test_pred_signal), 0);
	sched_util_pred_get();
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, test_pred_put,
							NULL), 0);
	sched_util_pred_flush();

	KUNIT_ASSERT_EQ(test, sched_util_signal_select("kunit_pred"), 0);
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&sched_util_enqueue_key));
	KUNIT_ASSERT_EQ(test, sched_util_signal_select("pelt"), 0);
	KUNIT_EXPECT_EQ_MSG(test, test_pred_stops, 1,
			    "counting not stopped when tracking stopped");
	KUNIT_EXPECT_EQ_MSG(test, test_pred_stops_hooked, 1,
			    "counting stopped after the queue hooks went off");
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&sched_util_enqueue_key));
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&sched_util_dequeue_key));
}

static void util_signal_switch_running_test(struct kunit *test)
{
	int i;

	spinners_start(test, 2);
	for (i = 0; i < 50; i++) {
		KUNIT_ASSERT_EQ(test, sched_util_signal_select(i & 1 ? "pelt" : "kunit"), 0);
		usleep_range(500, 1000);
	}
	KUNIT_EXPECT_STREQ(test, sched_util_signal_selected(), "pelt");
	KUNIT_EXPECT_GT(test, atomic_read(&test_switches), 0);
}

/*
 * Periodic RT and DL kthreads on every CPU, 1/4 and 1/5 of every 20 ms, so
 * that PELT's RT and DL utilization and the DL bandwidth are not 0.
 */
static void rt_dl_start(struct kunit *test)
{
	static const struct sched_attr fifo = {
		.size		= sizeof(struct sched_attr),
		.sched_policy	= SCHED_FIFO,
		.sched_priority	= 1,
	};
	static const struct sched_attr deadline = {
		.size		= sizeof(struct sched_attr),
		.sched_policy	= SCHED_DEADLINE,
		.sched_runtime	= 6 * NSEC_PER_MSEC,
		.sched_deadline	= 20 * NSEC_PER_MSEC,
		.sched_period	= 20 * NSEC_PER_MSEC,
	};
	struct sched_util_kunit_duty *d;
	struct spinners *s;
	int cpu;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	s->k = kunit_kcalloc(test, num_online_cpus() * 2, sizeof(*s->k),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s->k);
	/* Before the stop action: cleanup runs in reverse, loads stop first. */
	d = kunit_kcalloc(test, num_online_cpus() * 2, sizeof(*d), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, spinners_stop, s), 0);
	for_each_online_cpu(cpu) {
		struct sched_util_kunit_duty *rt = d++, *dl = d++;
		struct task_struct *k;

		rt->spin_ns = 5 * NSEC_PER_MSEC;
		rt->period_ns = 20 * NSEC_PER_MSEC;
		dl->spin_ns = 4 * NSEC_PER_MSEC;
		dl->period_ns = 20 * NSEC_PER_MSEC;
		k = sched_util_kunit_duty(rt, &fifo, cpu, "util_rt");
		KUNIT_ASSERT_FALSE(test, IS_ERR(k));
		s->k[s->nr++] = k;
		k = sched_util_kunit_duty(dl, &deadline, cpu, "util_dl");
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(k), "%ld", PTR_ERR(k));
		s->k[s->nr++] = k;
	}
}

/*
 * With PELT selected, schedutil's input is bit-identical to pristine
 * 6.12's: the framework's signal equals cpu_util_cfs_boost(), and
 * schedutil's utilization and bounds equal effective_cpu_util() of it.
 * Read under the rq lock, so PELT cannot update in between, on every CPU
 * while CFS, RT and DL kthreads run there. (No boost is set: SchedTune
 * adds nothing.)
 */
static void util_signal_pelt_equivalence_test(struct kunit *test)
{
	int cpu, round;

	KUNIT_ASSERT_STREQ(test, sched_util_signal_selected(), "pelt");
	spinners_start(test, 1);
	rt_dl_start(test);
	for (round = 0; round < 10; round++) {
		msleep(20);
		for_each_online_cpu(cpu) {
			unsigned long framework, pristine, rt, dl;
			struct sugov_input sugov, want;
			struct rq *rq = cpu_rq(cpu);
			struct rq_flags rf;

			rq_lock_irqsave(rq, &rf);
			framework = sched_util_cpu_util(cpu);
			pristine = cpu_util_cfs_boost(cpu);
			sugov.util = sugov_cpu_util(cpu, &sugov.min, &sugov.max);
			want.util = effective_cpu_util(cpu, pristine, &want.min,
						       &want.max);
			rt = cpu_util_rt(rq);
			dl = cpu_util_dl(rq);
			rq_unlock_irqrestore(rq, &rf);
			KUNIT_EXPECT_EQ_MSG(test, framework, pristine,
					    "cpu %d round %d", cpu, round);
			KUNIT_EXPECT_EQ_MSG(test, sugov.util, want.util,
					    "cpu %d round %d", cpu, round);
			KUNIT_EXPECT_EQ_MSG(test, sugov.min, want.min,
					    "cpu %d round %d", cpu, round);
			KUNIT_EXPECT_EQ_MSG(test, sugov.max, want.max,
					    "cpu %d round %d", cpu, round);
			/* The loads are there: the check is not 0 == 0. */
			if (round == 9) {
				KUNIT_EXPECT_GT_MSG(test, framework, 0UL, "cpu %d", cpu);
				KUNIT_EXPECT_GT_MSG(test, rt, 0UL, "cpu %d", cpu);
				KUNIT_EXPECT_GT_MSG(test, dl, 0UL, "cpu %d", cpu);
			}
		}
	}
}

/*
 * schedutil composes a signal by what it covers: a CFS signal gets the
 * RT, DL and IRQ utilization of effective_cpu_util(), a whole-CPU one
 * only its bounds. Read under CPU 1's rq lock while an RT kthread runs
 * there, so that the two compositions differ.
 */
static void util_signal_covers_test(struct kunit *test)
{
	unsigned long cap = arch_scale_cpu_capacity(1);
	unsigned long sig = test_cpu_util(1), rt;
	struct sugov_input cfs, cfs_want, whole, whole_want;
	struct rq *rq = cpu_rq(1);
	struct rq_flags rf;

	rt_dl_start(test);
	msleep(100);

	KUNIT_ASSERT_EQ(test, sched_util_signal_select("kunit"), 0);
	rq_lock_irqsave(rq, &rf);
	cfs.util = sugov_cpu_util(1, &cfs.min, &cfs.max);
	cfs_want.util = effective_cpu_util(1, sched_tune_cpu_util(1, sig),
					   &cfs_want.min, &cfs_want.max);
	rq_unlock_irqrestore(rq, &rf);

	KUNIT_ASSERT_EQ(test, sched_util_signal_select("pelt"), 0);
	test_signal.covers = SCHED_UTIL_COVERS_CPU;
	KUNIT_ASSERT_EQ(test, sched_util_signal_select("kunit"), 0);
	rq_lock_irqsave(rq, &rf);
	whole.util = sugov_cpu_util(1, &whole.min, &whole.max);
	whole_want.util = min(sched_tune_cpu_util(1, sig), cap);
	effective_cpu_util(1, 0, &whole_want.min, &whole_want.max);
	rt = cpu_util_rt(rq);
	rq_unlock_irqrestore(rq, &rf);
	KUNIT_ASSERT_EQ(test, sched_util_signal_select("pelt"), 0);

	KUNIT_EXPECT_EQ(test, cfs.util, cfs_want.util);
	KUNIT_EXPECT_EQ(test, cfs.min, cfs_want.min);
	KUNIT_EXPECT_EQ(test, cfs.max, cfs_want.max);
	KUNIT_EXPECT_EQ(test, whole.util, whole_want.util);
	KUNIT_EXPECT_EQ(test, whole.min, whole_want.min);
	KUNIT_EXPECT_EQ(test, whole.max, whole_want.max);
	KUNIT_EXPECT_GT_MSG(test, rt, 0UL, "no RT utilization to tell them apart");
	KUNIT_EXPECT_GT(test, cfs.util, whole.util);
}

static void util_signal_select_pelt(void *unused)
{
	sched_util_signal_select("pelt");
}

/* A provider that tracks (a tick hook) and takes @warmup_ns to warm up. */
static struct sched_util_signal test_slow_signal = {
	.name		= "kunit_slow",
	.cpu_util	= test_cpu_util,
	.task_util	= test_task_util,
	.tick		= test_tick,
};

/* A selection made by another thread, which a signal can interrupt. */
struct test_selection {
	const char *name;
	struct completion done;
	int ret;
};

static int test_select_thread(void *arg)
{
	struct test_selection *sel = arg;

	allow_signal(SIGINT);
	sel->ret = sched_util_signal_select(sel->name);
	complete(&sel->done);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/*
 * Start selecting @sel->name from a thread, return once the provider's
 * hooks are on (its ticks counted: the selection waits for its warm-up).
 */
static struct task_struct *test_selection_start(struct kunit *test,
						struct test_selection *sel)
{
	struct task_struct *k;
	int i;

	atomic_set(&test_ticks, 0);
	init_completion(&sel->done);
	k = kthread_run(test_select_thread, sel, "kunit_select");
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	for (i = 0; i < 1000 && !atomic_read(&test_ticks); i++)
		usleep_range(1000, 2000);
	KUNIT_ASSERT_GT_MSG(test, atomic_read(&test_ticks), 0,
			    "the provider's hooks were not on after %d polls", i);
	return k;
}

static void test_slow_register(struct kunit *test, u64 warmup_ns)
{
	INIT_LIST_HEAD(&test_slow_signal.list);
	test_slow_signal.warmup_ns = warmup_ns;
	KUNIT_ASSERT_EQ(test, sched_util_signal_register(&test_slow_signal), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, test_unregister,
							&test_slow_signal), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, util_signal_select_pelt,
							NULL), 0);
}

/*
 * A selection waits for the provider's warm-up without the lock of the
 * selection: another selection made meanwhile completes and, made later,
 * wins. If this thread's selection returned only after the waiting one (a
 * host that stalled the guest for the whole warm-up), the case tries
 * again.
 */
static void util_signal_warm_up_unlocked_test(struct kunit *test)
{
	struct test_selection *sel;
	struct task_struct *k;
	int try, ret;
	bool during;

	sel = kunit_kzalloc(test, sizeof(*sel), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sel);
	sel->name = "kunit_slow";
	test_slow_register(test, 500 * NSEC_PER_MSEC);
	for (try = 1; try <= 5; try++) {
		k = test_selection_start(test, sel);
		ret = sched_util_signal_select("pelt");
		during = !completion_done(&sel->done);
		wait_for_completion(&sel->done);
		kthread_stop(k);
		KUNIT_ASSERT_EQ(test, ret, 0);
		KUNIT_ASSERT_EQ(test, sel->ret, 0);
		if (during)
			break;
		KUNIT_ASSERT_EQ(test, sched_util_signal_select("pelt"), 0);
	}
	KUNIT_ASSERT_TRUE_MSG(test, during,
			      "a selection made during another's warm-up returned after it, %d times",
			      try - 1);
	KUNIT_EXPECT_STREQ(test, sched_util_signal_selected(), "pelt");
}

/*
 * A signal interrupts a selection waiting for a warm-up: it fails with
 * -EINTR, the old signal stays selected and the provider stops tracking.
 */
static void util_signal_warm_up_interrupted_test(struct kunit *test)
{
	struct test_selection *sel;
	struct task_struct *k;
	int ticks;

	sel = kunit_kzalloc(test, sizeof(*sel), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sel);
	sel->name = "kunit_slow";
	/* Longer than the case's timeout: only the signal ends the wait. */
	test_slow_register(test, 3600ULL * NSEC_PER_SEC);
	k = test_selection_start(test, sel);
	KUNIT_EXPECT_FALSE(test, completion_done(&sel->done));
	send_sig(SIGINT, k, 1);
	KUNIT_EXPECT_NE_MSG(test, wait_for_completion_timeout(&sel->done, 10 * HZ), 0UL,
			    "the selection did not end 10 s after the signal");
	kthread_stop(k);
	KUNIT_EXPECT_EQ(test, sel->ret, -EINTR);
	KUNIT_EXPECT_STREQ(test, sched_util_signal_selected(), "pelt");
	/* Hooks off: no tick reaches the provider any more. */
	ticks = atomic_read(&test_ticks);
	msleep(50);
	KUNIT_EXPECT_EQ(test, atomic_read(&test_ticks), ticks);
}

/*
 * With PELT selected, what task placement reads is bit-identical to 6.12:
 * task_util_placement() is task_util_est(), cpu_util_placement() is
 * cpu_util(), for every spinner and every CPU, with the task added, taken
 * out and with PELT's runnable boost, and the overutilized check reads
 * cpu_util_cfs(). Read with both runqueues locked, so that PELT cannot
 * update in between.
 */
static void util_signal_placement_pelt_test(struct kunit *test)
{
	struct sched_placement_inputs in;
	struct spinners *s;
	int cpu, round, i;

	KUNIT_ASSERT_STREQ(test, sched_util_signal_selected(), "pelt");
	s = spinners_start(test, 1);
	for (round = 0; round < 5; round++) {
		msleep(20);
		for (i = 0; i < s->nr; i++) {
			for_each_online_cpu(cpu) {
				struct rq *a = task_rq(s->k[i]), *b = cpu_rq(cpu);
				unsigned long flags;

				local_irq_save(flags);
				double_rq_lock(a, b);
				sched_placement_inputs(s->k[i], cpu, &in);
				double_rq_unlock(a, b);
				local_irq_restore(flags);
				KUNIT_EXPECT_EQ_MSG(test, in.task_util, in.pelt_task_util,
						    "task %d round %d", i, round);
				/* No boost is set: SchedTune adds nothing. */
				KUNIT_EXPECT_EQ_MSG(test, in.task_fit, in.pelt_task_util,
						    "task %d round %d", i, round);
				KUNIT_EXPECT_EQ_MSG(test, in.cpu_with, in.pelt_cpu_with,
						    "task %d cpu %d round %d", i, cpu, round);
				KUNIT_EXPECT_EQ_MSG(test, in.cpu_without,
						    in.pelt_cpu_without,
						    "task %d cpu %d round %d", i, cpu, round);
				KUNIT_EXPECT_EQ_MSG(test, in.cpu_with_boost,
						    in.pelt_cpu_with_boost,
						    "task %d cpu %d round %d", i, cpu, round);
				KUNIT_EXPECT_EQ_MSG(test, in.cpu_overutil,
						    in.pelt_cpu_overutil,
						    "cpu %d round %d", cpu, round);
			}
			/* The spinners have utilization: not 0 == 0. */
			if (round == 4)
				KUNIT_EXPECT_GT_MSG(test, in.task_util, 0UL, "task %d", i);
		}
	}
}

/*
 * The frequency and the placement signal are selected separately: with
 * the test provider for one role, the other stays PELT's, and placement
 * falls back to the placement provider's ->cpu_util() for a CPU without a
 * task (the test provider has no ->cpu_util_without()). The overutilized
 * check follows placement, not frequency. A role out of range is refused
 * and changes nothing.
 */
static void util_signal_roles_test(struct kunit *test)
{
	struct sched_placement_inputs in;
	unsigned long base;
	struct rq_flags rf;
	struct rq *rq;

	/* On CPU 1, whose rq lock then keeps PELT still for the reads. */
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(1)), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, util_signal_select_pelt,
							NULL), 0);
	KUNIT_ASSERT_EQ(test, sched_util_signal_select_for("kunit", SCHED_UTIL_FREQ), 0);
	KUNIT_EXPECT_STREQ(test, sched_util_signal_selected_for(SCHED_UTIL_FREQ), "kunit");
	KUNIT_EXPECT_STREQ(test, sched_util_signal_selected_for(SCHED_UTIL_PLACE), "pelt");
	KUNIT_EXPECT_EQ(test, sched_util_cpu_util(1), 101UL);
	rq = cpu_rq(1);
	rq_lock_irqsave(rq, &rf);
	sched_placement_inputs(current, 1, &in);
	rq_unlock_irqrestore(rq, &rf);
	KUNIT_EXPECT_EQ(test, in.task_util, in.pelt_task_util);
	KUNIT_EXPECT_EQ(test, in.cpu_without, in.pelt_cpu_without);
	KUNIT_EXPECT_EQ(test, in.cpu_overutil, in.pelt_cpu_overutil);

	KUNIT_ASSERT_EQ(test, sched_util_signal_select_for("pelt", SCHED_UTIL_FREQ), 0);
	KUNIT_ASSERT_EQ(test, sched_util_signal_select_for("kunit", SCHED_UTIL_PLACE), 0);
	KUNIT_EXPECT_STREQ(test, sched_util_signal_selected(), "pelt");
	KUNIT_EXPECT_STREQ(test, sched_util_signal_selected_for(SCHED_UTIL_PLACE), "kunit");
	KUNIT_EXPECT_EQ(test, sched_util_task_util(current), 7UL);
	/*
	 * The provider's value of CPU 0 half the scale away from PELT's,
	 * which does not move that far between two reads, so that the
	 * overutilized check's input cannot be PELT's by chance.
	 */
	sched_placement_inputs(current, 0, &in);
	base = in.pelt_cpu_overutil < SCHED_CAPACITY_SCALE / 2 ? 900 : 100;
	WRITE_ONCE(test_util_base, base);
	sched_placement_inputs(current, 0, &in);
	KUNIT_EXPECT_EQ(test, in.task_util, 7UL);
	KUNIT_EXPECT_EQ(test, in.cpu_without, base);
	KUNIT_EXPECT_EQ(test, in.cpu_with, base + 7);
	KUNIT_EXPECT_EQ(test, in.cpu_overutil, base);
	KUNIT_EXPECT_NE_MSG(test, in.pelt_cpu_overutil, base,
			    "PELT reads the test provider's value: the test cannot tell them apart");

	KUNIT_EXPECT_EQ(test, sched_util_signal_select_for("pelt", SCHED_UTIL_ROLES + 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sched_util_signal_select_for("nosuch", SCHED_UTIL_PLACE),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, sched_util_signal_selected_for(SCHED_UTIL_PLACE), "kunit");

	KUNIT_ASSERT_EQ(test, sched_util_signal_select("pelt"), 0);
	KUNIT_EXPECT_STREQ(test, sched_util_signal_selected_for(SCHED_UTIL_FREQ), "pelt");
	KUNIT_EXPECT_STREQ(test, sched_util_signal_selected_for(SCHED_UTIL_PLACE), "pelt");
}

/*
 * Inside a placement, each CPU's utilization without the waking task is
 * read from the provider once: the placement's later reads of a CPU give
 * its first read's value, another CPU is read on its own, and the next
 * placement, or a read outside one (0), reads again. The provider gives
 * another value at each call, so a second call shows.
 */
static void util_signal_place_once_test(struct kunit *test)
{
	unsigned long first0, first1, again0, again1, next0, outside;
	unsigned long flags;
	u64 place, next;

	atomic_set(&test_without_reads, 0);
	INIT_LIST_HEAD(&test_once_signal.list);
	KUNIT_ASSERT_EQ(test, sched_util_signal_register(&test_once_signal), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, test_unregister,
							&test_once_signal), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, util_signal_select_pelt,
							NULL), 0);
	KUNIT_ASSERT_EQ(test, sched_util_signal_select_for("kunit_once",
							   SCHED_UTIL_PLACE), 0);

	local_irq_save(flags);
	place = sched_util_place_begin();
	first0 = sched_util_cpu_util_without_once(0, current, place);
	first1 = sched_util_cpu_util_without_once(1, current, place);
	again0 = sched_util_cpu_util_without_once(0, current, place);
	again1 = sched_util_cpu_util_without_once(1, current, place);
	next = sched_util_place_begin();
	next0 = sched_util_cpu_util_without_once(0, current, next);
	outside = sched_util_cpu_util_without_once(0, current, 0);
	local_irq_restore(flags);

	KUNIT_EXPECT_EQ(test, first0, 1001UL);
	KUNIT_EXPECT_EQ(test, first1, 2002UL);
	KUNIT_EXPECT_EQ(test, again0, first0);
	KUNIT_EXPECT_EQ(test, again1, first1);
	KUNIT_EXPECT_NE(test, next, place);
	KUNIT_EXPECT_NE(test, next, 0ULL);
	KUNIT_EXPECT_EQ(test, next0, 1003UL);
	KUNIT_EXPECT_EQ(test, outside, 1004UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&test_without_reads), 4);
}

/*
 * schedutil's hispeed and pl floors (sugov_raise_util()), worked out by
 * hand. A big CPU (capacity 1024) with a 2 GHz reference frequency unless
 * a row says otherwise; at 1 GHz its capacity is 512, so hispeed_load 90
 * makes it loaded from utilization 460.8 on. hispeed_freq 1.5 GHz is
 * utilization 1024 * 1.5 / 2 * 4 / 5 = 614 (614.4), which headroom's
 * x1.25 turns into 1.5 GHz again.
 */
struct sugov_raise_case {
	const char *name;
	struct sugov_raise_in in;
	unsigned long util;
};

#define RAISE_BIG(u, p, cur, load, hs)					\
	{ .util = (u), .pred = (p), .cap = 1024, .cur_freq = (cur),	\
	  .ref_freq = 2000000, .hispeed_load = (load), .hispeed_freq = (hs) }

/* A HiKey960 little CPU at 533 MHz, hispeed_freq 999 MHz. */
#define RAISE_LITTLE(u)							\
	{ .util = (u), .cap = 462, .cur_freq = 533000, .ref_freq = 1844000, \
	  .hispeed_load = 90, .hispeed_freq = 999000 }

static const struct sugov_raise_case sugov_raise_cases[] = {
	{ "both off: unchanged", RAISE_BIG(900, 0, 500000, 90, 0), 900 },
	{ "loaded: raised to hispeed_freq's utilization",
	  RAISE_BIG(470, 0, 1000000, 90, 1500000), 614 },
	{ "just below hispeed_load: unchanged",
	  RAISE_BIG(460, 0, 1000000, 90, 1500000), 460 },
	{ "exactly hispeed_load is loaded",
	  RAISE_BIG(256, 0, 1000000, 50, 1500000), 614 },
	{ "one below it is not", RAISE_BIG(255, 0, 1000000, 50, 1500000), 255 },
	{ "loaded above hispeed's utilization: unchanged",
	  RAISE_BIG(950, 0, 2000000, 90, 1500000), 950 },
	{ "hispeed_freq above the reference is the reference",
	  RAISE_BIG(470, 0, 1000000, 90, 3000000), 819 },
	{ "hispeed_load 0: always loaded", RAISE_BIG(0, 0, 1000000, 0, 1500000), 614 },
	{ "pl: the prediction above the utilization wins",
	  RAISE_BIG(300, 700, 1000000, 90, 0), 700 },
	{ "pl: a prediction below it changes nothing",
	  RAISE_BIG(300, 100, 1000000, 90, 0), 300 },
	{ "both: the prediction above hispeed's utilization wins",
	  RAISE_BIG(470, 700, 1000000, 90, 1500000), 700 },
	{ "both: hispeed above the prediction wins",
	  RAISE_BIG(470, 500, 1000000, 90, 1500000), 614 },
	{ "the prediction does not make a CPU loaded",
	  RAISE_BIG(300, 500, 1000000, 90, 1500000), 500 },
	/* 462 * 533 / 1844 * 0.9 = 120.2; 462 * 999 / 1844 * 0.8 = 200.2 */
	{ "a HiKey960 little CPU at 533 MHz, hispeed 999 MHz", RAISE_LITTLE(130), 200 },
	{ "the same CPU below hispeed_load", RAISE_LITTLE(120), 120 },
};

KUNIT_ARRAY_PARAM_DESC(sugov_raise, sugov_raise_cases, name);

static void sugov_raise_test(struct kunit *test)
{
	const struct sugov_raise_case *tc = test->param_value;

	KUNIT_EXPECT_EQ_MSG(test, sugov_raise_util(&tc->in), tc->util,
			    "%s", tc->name);
}

static struct kunit_case sugov_raise_cases_list[] = {
	KUNIT_CASE_PARAM(sugov_raise_test, sugov_raise_gen_params),
	{}
};

static struct kunit_suite sugov_raise_suite = {
	.name = "sched_util_schedutil_floors",
	.test_cases = sugov_raise_cases_list,
};

static struct kunit_case util_signal_cases[] = {
	KUNIT_CASE(util_signal_register_test),
	KUNIT_CASE(util_signal_select_test),
	KUNIT_CASE(util_signal_unregister_selected_test),
	KUNIT_CASE(util_signal_hooks_test),
	KUNIT_CASE(util_signal_irq_idle_test),
	KUNIT_CASE(util_signal_track_test),
	KUNIT_CASE(util_signal_pred_stop_test),
	KUNIT_CASE(util_signal_switch_running_test),
	KUNIT_CASE_SLOW(util_signal_pelt_equivalence_test),
	KUNIT_CASE_SLOW(util_signal_covers_test),
	KUNIT_CASE(util_signal_warm_up_unlocked_test),
	KUNIT_CASE(util_signal_warm_up_interrupted_test),
	KUNIT_CASE_SLOW(util_signal_placement_pelt_test),
	KUNIT_CASE(util_signal_roles_test),
	KUNIT_CASE(util_signal_place_once_test),
	{}
};

static struct kunit_suite util_signal_suite = {
	.name = "sched_util_signal",
	.init = util_signal_test_init,
	.test_cases = util_signal_cases,
};

kunit_test_suites(&util_signal_suite, &sugov_raise_suite);

MODULE_DESCRIPTION("KUnit tests for the utilization-signal framework");
MODULE_LICENSE("GPL");
