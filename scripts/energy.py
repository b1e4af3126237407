# SPDX-License-Identifier: GPL-2.0
"""Energy of a run on the virtual SoC, from the kernel's own Energy Model.

A vCPU draws nothing, so the energy of a run is modelled as the kernel's
EAS would see it: per CPU, the time it was busy at each OPP (from the
sched_switch and cpu_frequency trace events) times that OPP's power in the
Energy Model (debugfs energy_model/cpuN/ps:*/power, uW, registered by the
virtual OPP driver from the board's device tree: P = C * V^2 * f). Idle
CPUs draw IDLE_POWER_UW = 0: the EM has no idle power, the virt machine no
idle states; the figures are therefore busy (dynamic) energy only.

    parse_ftrace(lines)   -> [Event]   (sched_switch, cpu_frequency, marks,
                                        sched_boost_cpu)
    mark_time(events, text) -> s       (a trace_marker line's time)
    busy_energy(events, em, policies, f0, t0, t1) -> {cpu: uJ}
    cluster_energy(events, em, policies, f0, t0, t1, share) -> {policy: uJ}
    average_frequency(events, policy, f0, t0, t1) -> kHz
    time_at(events, policy, f0, khz, t0, t1) -> s

scripts/energy_test.py checks them on a hand-computed trace.
"""
import re
from collections import namedtuple

IDLE_POWER_UW = 0

# time (s), cpu of the event, kind, and per kind:
#   switch: next_pid;  freq: cpu_id, kHz;  mark: text;  boost: util, margin
Event = namedtuple('Event', 'time cpu kind a b')

_LINE = re.compile(r'\[(\d+)\]\s+\S+\s+(\d+\.\d+): (\w+): (.*)$')


def parse_ftrace(lines):
    events = []
    for line in lines:
        m = _LINE.search(line)
        if not m:
            continue
        cpu, t, name, rest = int(m.group(1)), float(m.group(2)), m.group(3), m.group(4)
        if name == 'sched_switch':
            pid = int(re.search(r'next_pid=(\d+)', rest).group(1))
            prev = int(re.search(r'prev_pid=(\d+)', rest).group(1))
            events.append(Event(t, cpu, 'switch', pid, prev))
        elif name == 'cpu_frequency':
            f = re.search(r'state=(\d+) cpu_id=(\d+)', rest)
            events.append(Event(t, cpu, 'freq', int(f.group(2)), int(f.group(1))))
        elif name == 'tracing_mark_write':
            events.append(Event(t, cpu, 'mark', rest.strip(), None))
        elif name == 'sched_boost_cpu':
            u = re.search(r'util=(\d+)', rest)
            mg = re.search(r'margin=(-?\d+)', rest)
            events.append(Event(t, cpu, 'boost', int(u.group(1)), int(mg.group(1))))
    return events


def mark_time(events, text):
    for e in events:
        if e.kind == 'mark' and e.a.endswith(text):
            return e.time
    raise ValueError('no mark %r in the trace' % text)


def _spans(events, policies, f0, t0, t1):
    """(seconds, {cpu: busy}, {policy: kHz}) over [t0, t1], in order.

    A CPU is busy from a sched_switch to a task other than the idle task
    (pid 0) until the next switch to idle; before its first switch it is
    in the state that switch leaves (prev_pid). The policy is its first
    CPU, whose cpu_frequency events stand for all its CPUs.
    """
    policy_of = {c: p for p, cpus in policies.items() for c in cpus}
    freq = dict(f0)
    busy = {}
    for e in events:
        if e.kind == 'switch' and e.cpu not in busy:
            busy[e.cpu] = e.b != 0
    last = t0
    for e in sorted(events, key=lambda e: e.time):
        if e.time >= t1:
            break
        if e.time > t0:
            yield e.time - last, busy, freq
            last = e.time
        if e.kind == 'switch':
            busy[e.cpu] = e.a != 0
        elif e.kind == 'freq':
            freq[policy_of[e.a]] = e.b
    if t1 > last:
        yield t1 - last, busy, freq


def busy_energy(events, em, policies, f0, t0, t1):
    """Energy in uJ per CPU over [t0, t1]: each busy CPU at its OPP's
    power in the EM.

    em: {policy: {kHz: uW}}; policies: {policy: [cpus]}; f0: {policy: kHz}
    when the trace starts.
    """
    energy = {c: 0.0 for cpus in policies.values() for c in cpus}
    for d, busy, freq in _spans(events, policies, f0, t0, t1):
        for p, cpus in policies.items():
            for c in cpus:
                energy[c] += d * (em[p][freq[p]] if busy.get(c) else IDLE_POWER_UW)
    return energy


def cluster_energy(events, em, policies, f0, t0, t1, share):
    """Energy in uJ per policy (cluster) over [t0, t1]: while any of its
    CPUs is busy, the cluster draws @share of one CPU's EM power at the
    cluster's OPP (its caches and interconnect, powered as long as a CPU
    runs); nothing while all its CPUs are idle (cluster sleep).
    """
    energy = {p: 0.0 for p in policies}
    for d, busy, freq in _spans(events, policies, f0, t0, t1):
        for p, cpus in policies.items():
            if any(busy.get(c) for c in cpus):
                energy[p] += d * share * em[p][freq[p]]
    return energy


def _frequency_spans(events, policy, f0, t0, t1):
    """(seconds, kHz) of a policy's frequencies over [t0, t1], in order."""
    f, last = f0, t0
    for e in sorted(events, key=lambda e: e.time):
        if e.time >= t1:
            break
        if e.kind == 'freq' and e.a == policy:
            if e.time > t0:
                yield e.time - last, f
                last = e.time
            f = e.b
    yield t1 - last, f


def average_frequency(events, policy, f0, t0, t1):
    """Time-weighted frequency (kHz) of a policy over [t0, t1]."""
    spans = list(_frequency_spans(events, policy, f0, t0, t1))
    return sum(d * f for d, f in spans) / (t1 - t0)


def time_at(events, policy, f0, khz, t0, t1):
    """Time (s) a policy spent at khz over [t0, t1]."""
    return sum(d for d, f in _frequency_spans(events, policy, f0, t0, t1) if f == khz)
