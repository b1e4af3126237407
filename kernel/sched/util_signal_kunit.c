// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the utilization-signal framework: registration, lookup
 * and selection by name, hook dispatch, which IRQ time reaches a provider,
 * switching while tasks run, and PELT equivalence on live runqueues.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/delay.h>
#include <linux/kthread.h>

#include <linux/mmu_context.h>

#include "sched.h"
#include "sched_util_kunit.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* A provider whose values are recognisable and whose hooks count calls. */
static atomic_t test_ticks, test_switches, test_irqs;

/* The IRQ time the test passes; real IRQ time that interrupts idle is not. */
#define TEST_IRQ_DELTA	123456789ULL

static unsigned long test_cpu_util(int cpu)
{
	return 100 + cpu;
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

static int util_signal_test_init(struct kunit *test)
{
	int ret;

	atomic_set(&test_ticks, 0);
	atomic_set(&test_switches, 0);
	atomic_set(&test_irqs, 0);
	INIT_LIST_HEAD(&test_signal.list);
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

	KUNIT_EXPECT_EQ(test, sched_util_signal_register(&nameless), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_util_signal_register(&no_util), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_util_signal_register(&too_long), -EINVAL);
	KUNIT_EXPECT_EQ(test, sched_util_signal_register(&dup), -EEXIST);
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
	KUNIT_EXPECT_EQ(test, sched_util_signal_select("kunit"), -EINVAL);
	/* The cleanup action unregisters again: that must be harmless. */
}

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

static void spinners_start(struct kunit *test, int per_cpu)
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
 * With PELT selected, schedutil's input is bit-identical to pristine
 * 6.12's cpu_util_cfs_boost(): read both under the rq lock, so PELT
 * cannot update in between, on every CPU while loaded kthreads run.
 */
static void util_signal_pelt_equivalence_test(struct kunit *test)
{
	int cpu, round;

	KUNIT_ASSERT_STREQ(test, sched_util_signal_selected(), "pelt");
	spinners_start(test, 1);
	for (round = 0; round < 10; round++) {
		msleep(20);
		for_each_online_cpu(cpu) {
			unsigned long framework, pristine;
			struct rq *rq = cpu_rq(cpu);
			struct rq_flags rf;

			rq_lock_irqsave(rq, &rf);
			framework = sched_util_cpu_util(cpu);
			pristine = cpu_util_cfs_boost(cpu);
			rq_unlock_irqrestore(rq, &rf);
			KUNIT_EXPECT_EQ_MSG(test, framework, pristine,
					    "cpu %d round %d", cpu, round);
			/* The spinners load every CPU: the check is not 0 == 0. */
			if (round == 9)
				KUNIT_EXPECT_GT_MSG(test, framework, 0UL, "cpu %d", cpu);
		}
	}
}

static struct kunit_case util_signal_cases[] = {
	KUNIT_CASE(util_signal_register_test),
	KUNIT_CASE(util_signal_select_test),
	KUNIT_CASE(util_signal_unregister_selected_test),
	KUNIT_CASE(util_signal_hooks_test),
	KUNIT_CASE(util_signal_irq_idle_test),
	KUNIT_CASE(util_signal_track_test),
	KUNIT_CASE(util_signal_switch_running_test),
	KUNIT_CASE(util_signal_pelt_equivalence_test),
	{}
};

static struct kunit_suite util_signal_suite = {
	.name = "sched_util_signal",
	.init = util_signal_test_init,
	.test_cases = util_signal_cases,
};

kunit_test_suite(util_signal_suite);

MODULE_DESCRIPTION("KUnit tests for the utilization-signal framework");
MODULE_LICENSE("GPL");
