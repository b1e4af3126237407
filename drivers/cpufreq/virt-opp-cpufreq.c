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
 * On arm64 the OPPs come from the device tree instead, as on a board: QEMU's
 * "virt" machine booted with a tree whose CPU nodes carry a real SoC's
 * operating-points-v2 tables, capacity-dmips-mhz and
 * dynamic-power-coefficient (scripts/soc-dtb.py builds one from the
 * HiKey and HiKey960 device trees). Each "opp-shared" table is one
 * policy, i.e. one cluster, and the Energy Model is registered from the
 * same OPPs with the kernel's own formula. There the frequency is not
 * constant: arch_topology derives each CPU's capacity and frequency
 * scale from the DT and the selected OPP, exactly as on the board, so
 * that EAS can run, and the OPP table's clock-latency-ns sets the
 * transition latency, hence schedutil's rate limit, as cpufreq-dt does.
 * The vCPU still runs at the same speed; benchmark loads that want work
 * to take longer at a lower OPP emulate it from scaling_cur_freq and
 * cpu_capacity.
 *
 * Never build this into a kernel that runs on real hardware: it changes
 * nothing but statistics. It registers only in an x86 guest or on QEMU's
 * arm64 "virt" machine.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpufeature.h>
#include <linux/cpufreq.h>
#include <linux/init.h>
#include <linux/of.h>
#include <linux/pm_opp.h>
#include <linux/sched/topology.h>

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

/* .init (and on arm64 .exit and .register_em) are set at registration. */
static struct cpufreq_driver virt_opp_driver = {
	.name		= "virt-opp",
	.verify		= cpufreq_generic_frequency_table_verify,
	.target_index	= virt_opp_target_index,
	.fast_switch	= virt_opp_fast_switch,
	.attr		= cpufreq_generic_attr,
};

#ifdef CONFIG_X86
/* kHz, as the Hi6220's cpufreq-dt table. */
static struct cpufreq_frequency_table virt_opp_table[] = {
	{ .frequency = 208000 },
	{ .frequency = 432000 },
	{ .frequency = 729000 },
	{ .frequency = 960000 },
	{ .frequency = 1200000 },
	{ .frequency = CPUFREQ_TABLE_END },
};

static int virt_opp_table_init(struct cpufreq_policy *policy)
{
	policy->freq_table = virt_opp_table;
	/* What the vCPU really delivers. */
	policy->cur = virt_opp_table[ARRAY_SIZE(virt_opp_table) - 2].frequency;
	/* schedutil updates from scheduler context, without a kthread. */
	policy->fast_switch_possible = true;
	return 0;
}

static int __init virt_opp_init(void)
{
	int ret;

	if (!boot_cpu_has(X86_FEATURE_HYPERVISOR)) {
		pr_info("not a virtual machine, not registering\n");
		return -ENODEV;
	}

	virt_opp_driver.init = virt_opp_table_init;
	ret = cpufreq_register_driver(&virt_opp_driver);
	if (ret)
		return ret;

	cpus_read_lock();
	if (!arch_scale_freq_invariant())
		freq_invariance_set_perf_ratio(SCHED_CAPACITY_SCALE, false);
	cpus_read_unlock();
	return 0;
}
#else /* CONFIG_ARM64 */
static int virt_opp_of_init(struct cpufreq_policy *policy)
{
	struct device *cpu_dev = get_cpu_device(policy->cpu);
	struct cpufreq_frequency_table *table;
	int ret;

	if (!cpu_dev)
		return -ENODEV;
	/* The CPUs that share an "opp-shared" table are one policy. */
	ret = dev_pm_opp_of_get_sharing_cpus(cpu_dev, policy->cpus);
	if (ret)
		return ret;
	ret = dev_pm_opp_of_cpumask_add_table(policy->cpus);
	if (ret)
		return ret;
	ret = dev_pm_opp_init_cpufreq_table(cpu_dev, &table);
	if (ret) {
		dev_pm_opp_of_cpumask_remove_table(policy->cpus);
		return ret;
	}
	policy->freq_table = table;
	/* Where a bootloader leaves a board: at the highest OPP. */
	policy->cur = table[dev_pm_opp_get_opp_count(cpu_dev) - 1].frequency;
	/*
	 * As cpufreq-dt: the board's clock-latency-ns, from which schedutil
	 * derives its rate limit (1.5 times the latency).
	 */
	policy->cpuinfo.transition_latency =
		dev_pm_opp_get_max_transition_latency(cpu_dev);
	if (!policy->cpuinfo.transition_latency)
		policy->cpuinfo.transition_latency =
			CPUFREQ_DEFAULT_TRANSITION_LATENCY_NS;
	policy->fast_switch_possible = true;
	return 0;
}

static void virt_opp_of_exit(struct cpufreq_policy *policy)
{
	dev_pm_opp_free_cpufreq_table(get_cpu_device(policy->cpu),
				      &policy->freq_table);
	dev_pm_opp_of_cpumask_remove_table(policy->related_cpus);
}

static int __init virt_opp_init(void)
{
	struct device_node *np;
	bool has_opps;

	if (!of_machine_is_compatible("linux,dummy-virt")) {
		pr_info("not QEMU's virt machine, not registering\n");
		return -ENODEV;
	}
	np = of_cpu_device_node_get(0);
	has_opps = of_property_present(np, "operating-points-v2");
	of_node_put(np);
	if (!has_opps) {
		pr_info("no OPP table in the device tree, not registering\n");
		return -ENODEV;
	}

	virt_opp_driver.init = virt_opp_of_init;
	virt_opp_driver.exit = virt_opp_of_exit;
	virt_opp_driver.register_em = cpufreq_register_em_with_opp;
	return cpufreq_register_driver(&virt_opp_driver);
}
#endif
device_initcall(virt_opp_init);
