// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual OPP cpufreq driver, for testing the scheduler in virtual machines.
 *
 * A virtual CPU has no frequency to change, so schedutil never runs in a
 * guest and its choices cannot be observed there. This driver gives each
 * CPU its own policy with a fixed OPP table (that of the HiSilicon Hi6220,
 * the HiKey board the SchedTune and WALT evaluations were made on) and
 * accepts every request, so that the governor's choices show up in
 * cpufreq statistics (time_in_state) and in the cpu_frequency trace event.
 *
 * A vCPU runs at the same speed whatever OPP is "selected": the
 * utilization the scheduler measures is therefore already the utilization
 * at the highest OPP, i.e. frequency invariant with a constant scale of
 * SCHED_CAPACITY_SCALE. The driver tells the scheduler so (x86 has no
 * APERF/MPERF in a TCG guest and would otherwise scale requests from the
 * current OPP, which on a vCPU never converges). schedutil then maps
 * utilization to OPPs as it does on frequency-invariant hardware.
 *
 * Never build this into a kernel that runs on real hardware: it changes
 * nothing but statistics.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpufeature.h>
#include <linux/cpufreq.h>
#include <linux/init.h>
#include <linux/sched/topology.h>

/* kHz, as the Hi6220's cpufreq-dt table. */
static struct cpufreq_frequency_table virt_opp_table[] = {
	{ .frequency = 208000 },
	{ .frequency = 432000 },
	{ .frequency = 729000 },
	{ .frequency = 960000 },
	{ .frequency = 1200000 },
	{ .frequency = CPUFREQ_TABLE_END },
};

static int virt_opp_cpu_init(struct cpufreq_policy *policy)
{
	policy->freq_table = virt_opp_table;
	/* What the vCPU really delivers. */
	policy->cur = virt_opp_table[ARRAY_SIZE(virt_opp_table) - 2].frequency;
	/* schedutil updates from scheduler context, without a kthread. */
	policy->fast_switch_possible = true;
	return 0;
}

static int virt_opp_target_index(struct cpufreq_policy *policy,
				 unsigned int index)
{
	return 0;
}

static unsigned int virt_opp_fast_switch(struct cpufreq_policy *policy,
					 unsigned int target_freq)
{
	return target_freq;
}

static struct cpufreq_driver virt_opp_driver = {
	.name		= "virt-opp",
	.init		= virt_opp_cpu_init,
	.verify		= cpufreq_generic_frequency_table_verify,
	.target_index	= virt_opp_target_index,
	.fast_switch	= virt_opp_fast_switch,
	.attr		= cpufreq_generic_attr,
};

static int __init virt_opp_init(void)
{
	int ret;

	if (!boot_cpu_has(X86_FEATURE_HYPERVISOR)) {
		pr_info("not a virtual machine, not registering\n");
		return -ENODEV;
	}

	ret = cpufreq_register_driver(&virt_opp_driver);
	if (ret)
		return ret;

	cpus_read_lock();
	if (!arch_scale_freq_invariant())
		freq_invariance_set_perf_ratio(SCHED_CAPACITY_SCALE, false);
	cpus_read_unlock();
	return 0;
}
device_initcall(virt_opp_init);
