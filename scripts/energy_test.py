#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""scripts/energy.py on a hand-computed trace (run by scripts/test.sh)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import energy  # noqa: E402

# Two policies: CPUs 0-1 (policy 0) and CPU 2 (policy 2). Between the
# marks at 10.0 and 11.0 s:
#   CPU 0: busy (its first switch leaves pid 7) 10.0-10.2 at 500 MHz,
#          idle 10.2-10.6, busy 10.6-11.0: 500 MHz to 10.8, then 1000 MHz.
#   CPU 1: idle until 10.4, busy 10.4-10.5 at 500 MHz, idle after.
#   CPU 2: busy all second (no switch at all in the window, a switch
#          before it), at 800 MHz; its 1200 MHz event comes after 11.0.
# EM: policy 0: 500 MHz 100 uW, 1000 MHz 400 uW; policy 2: 800 MHz
# 1000 uW, 1200 MHz 3000 uW.
#   CPU 0: 0.2 * 100 + 0.2 * 100 + 0.2 * 400 = 120 uJ
#   CPU 1: 0.1 * 100 = 10 uJ
#   CPU 2: 1.0 * 1000 = 1000 uJ
TRACE = """\
# tracer: nop
          socload-7       [002] d..2.     9.500000: sched_switch: prev_comm=sh prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=9 next_prio=120
              sh-5        [000] .....    10.000000: tracing_mark_write: sched_util: ramp_start
          socload-7       [000] d..2.    10.200000: sched_switch: prev_comm=socload prev_pid=7 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0        [001] d..2.    10.400000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=kworker next_pid=30 next_prio=120
          kworker-30      [001] d..2.    10.500000: sched_switch: prev_comm=kworker prev_pid=30 prev_prio=120 prev_state=I ==> next_comm=swapper/1 next_pid=0 next_prio=120
          <idle>-0        [000] d..2.    10.600000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=socload next_pid=7 next_prio=120
          socload-7       [000] d..2.    10.800000: cpu_frequency: state=1000000 cpu_id=0
              sh-5        [000] .....    11.000000: tracing_mark_write: sched_util: ramp_end
          <idle>-0        [002] d..2.    11.100000: cpu_frequency: state=1200000 cpu_id=2
"""
EM = {0: {500000: 100, 1000000: 400}, 2: {800000: 1000, 1200000: 3000}}
POLICIES = {0: [0, 1], 2: [2]}
F0 = {0: 500000, 2: 800000}


class BusyEnergy(unittest.TestCase):
    def setUp(self):
        self.events = energy.parse_ftrace(TRACE.splitlines())
        self.t0 = energy.mark_time(self.events, 'ramp_start')
        self.t1 = energy.mark_time(self.events, 'ramp_end')

    def test_parse(self):
        kinds = [e.kind for e in self.events]
        self.assertEqual(kinds.count('switch'), 5)
        self.assertEqual(kinds.count('freq'), 2)
        self.assertEqual((self.t0, self.t1), (10.0, 11.0))

    def test_energy(self):
        e = energy.busy_energy(self.events, EM, POLICIES, F0, self.t0, self.t1)
        self.assertAlmostEqual(e[0], 120.0)
        self.assertAlmostEqual(e[1], 10.0)
        self.assertAlmostEqual(e[2], 1000.0)

    def test_cluster_energy(self):
        # Policy 0 powered while CPU 0 or 1 is busy: 10.0-10.2, 10.4-10.5
        # and 10.6-10.8 at 500 MHz (100 uW), 10.8-11.0 at 1000 MHz (400
        # uW): 130 uJ at a share of 1; policy 2 all second at 1000 uW.
        e = energy.cluster_energy(self.events, EM, POLICIES, F0, self.t0, self.t1, 0.5)
        self.assertAlmostEqual(e[0], 65.0)
        self.assertAlmostEqual(e[2], 500.0)

    def test_average_frequency(self):
        f = energy.average_frequency(self.events, 0, F0[0], self.t0, self.t1)
        self.assertAlmostEqual(f, 0.8 * 500000 + 0.2 * 1000000)
        f = energy.average_frequency(self.events, 2, F0[2], self.t0, self.t1)
        self.assertAlmostEqual(f, 800000)

    def test_time_at(self):
        t = energy.time_at(self.events, 0, F0[0], 500000, self.t0, self.t1)
        self.assertAlmostEqual(t, 0.8)
        t = energy.time_at(self.events, 0, F0[0], 1000000, self.t0, self.t1)
        self.assertAlmostEqual(t, 0.2)
        t = energy.time_at(self.events, 2, F0[2], 1200000, self.t0, self.t1)
        self.assertAlmostEqual(t, 0.0)


if __name__ == '__main__':
    unittest.main()
