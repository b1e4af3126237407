#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Give QEMU's arm64 "virt" machine the CPUs of a real SoC.

    scripts/soc-dtb.py BOARD KERNEL_SRC QEMU_DTB OUT_DTB

BOARD is hikey (Hi6220: 8 x Cortex-A53, one OPP table) or hikey960
(Hi3660: 4 x A53 + 4 x A73, an OPP table per cluster). The board's own
device tree is compiled from the kernel tree (cpp + dtc, as kbuild does),
and what the scheduler and cpufreq read from it is copied, at run time,
onto the tree QEMU generated for the same machine options
(-machine virt,dumpdtb=QEMU_DTB): the cluster map (cpu-map), each CPU's
capacity-dmips-mhz, dynamic-power-coefficient and operating-points-v2
table, and the OPP tables themselves (opp-hz, opp-microvolt,
clock-latency-ns, opp-shared). Everything else (memory, GIC, timer, UART,
PSCI) stays QEMU's. The i-th CPU node of the board becomes QEMU's cpu@i.

hi6220.dtsi has no capacity-dmips-mhz: all its CPUs are equal, and
arch_topology registers the cpufreq notifier that sets the frequency
reference (capacity_freq_ref) only when every CPU has one. The HiKey
therefore gets 1024 on every CPU, which changes no capacity (all stay
1024) and makes its utilization frequency invariant, as the HiKey's
Android kernels made it through their own cpufreq scale.
"""
import os
import subprocess
import sys
import tempfile

BOARDS = {
    'hikey': 'hisilicon/hi6220-hikey.dts',
    'hikey960': 'hisilicon/hi3660-hikey960.dts',
}
DEFAULT_DMIPS = 1024


def run(*cmd, check=True):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if check and r.returncode:
        sys.exit('soc-dtb.py: %s failed: %s' % (' '.join(cmd), r.stderr.strip()))
    return r


def get(dtb, node, prop, kind='u'):
    """A property's cells (or string), or None if it is absent."""
    r = run('fdtget', '-t', kind, dtb, node, prop, check=False)
    if r.returncode:
        return None
    return r.stdout.split() if kind == 'u' else r.stdout.strip()


def subnodes(dtb, node):
    return run('fdtget', '-l', dtb, node).stdout.split()


def put(dtb, node, prop, *values, kind='u'):
    run('fdtput', '-t', kind, dtb, node, prop, *[str(v) for v in values])


def compile_board(src, board, out):
    dts = os.path.join(src, 'arch/arm64/boot/dts', BOARDS[board])
    cpp = run('cpp', '-nostdinc', '-I', os.path.join(src, 'include'),
              '-I', os.path.join(src, 'arch/arm64/boot/dts'),
              '-I', os.path.join(src, 'scripts/dtc/include-prefixes'),
              '-undef', '-D__DTS__', '-x', 'assembler-with-cpp', dts)
    # dtc's warnings (unit names, unused labels) are the board's, not ours.
    r = subprocess.run(['dtc', '-q', '-I', 'dts', '-O', 'dtb', '-o', out, '-'],
                       input=cpp.stdout, capture_output=True, text=True)
    if r.returncode:
        sys.exit('soc-dtb.py: dtc failed on %s: %s' % (dts, r.stderr.strip()))


def board_cpus(dtb):
    """The board's CPU nodes in order, with what is copied from each."""
    cpus = []
    for name in subnodes(dtb, '/cpus'):
        if not name.startswith('cpu@'):
            continue
        node = '/cpus/' + name
        if get(dtb, node, 'device_type', 's') != 'cpu':
            continue
        dmips = get(dtb, node, 'capacity-dmips-mhz')
        coeff = get(dtb, node, 'dynamic-power-coefficient')
        opp = get(dtb, node, 'operating-points-v2')
        if not opp:
            sys.exit('soc-dtb.py: %s has no OPP table' % node)
        # hi3660.dtsi gives the coefficient on the first CPU of each
        # cluster only, the one the EM is registered for: copied as is.
        cpus.append({'phandle': int(get(dtb, node, 'phandle')[0]),
                     'dmips': int(dmips[0]) if dmips else DEFAULT_DMIPS,
                     'coeff': int(coeff[0]) if coeff else None,
                     'opp': int(opp[0])})
    return cpus


def board_clusters(dtb):
    """[[cpu phandle, ...] per cluster] from the board's cpu-map."""
    clusters = []
    for cl in subnodes(dtb, '/cpus/cpu-map'):
        path = '/cpus/cpu-map/' + cl
        clusters.append([int(get(dtb, path + '/' + core, 'cpu')[0])
                         for core in subnodes(dtb, path)])
    return clusters


def board_opp_tables(dtb):
    """{phandle: (node name, shared, [(hz, uV, latency ns), ...])}"""
    tables = {}
    for name in subnodes(dtb, '/'):
        node = '/' + name
        if get(dtb, node, 'compatible', 's') != 'operating-points-v2':
            continue
        opps = []
        for opp in subnodes(dtb, node):
            hz = get(dtb, node + '/' + opp, 'opp-hz')
            uv = get(dtb, node + '/' + opp, 'opp-microvolt')
            lat = get(dtb, node + '/' + opp, 'clock-latency-ns') or ['0']
            opps.append(((int(hz[0]) << 32) | int(hz[1]), int(uv[0]), int(lat[0])))
        shared = run('fdtget', dtb, node, 'opp-shared', check=False).returncode == 0
        tables[int(get(dtb, node, 'phandle')[0])] = (name, shared, sorted(opps))
    return tables


def max_phandle(dtb):
    dts = run('dtc', '-q', '-I', 'dtb', '-O', 'dts', dtb).stdout
    return max(int(line.split('<')[1].split('>')[0], 16)
               for line in dts.splitlines() if line.strip().startswith('phandle ='))


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in BOARDS:
        sys.exit(__doc__)
    board, src, qemu_dtb, out = sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        bdtb = os.path.join(tmp, board + '.dtb')
        compile_board(src, board, bdtb)
        cpus = board_cpus(bdtb)
        clusters = board_clusters(bdtb)
        tables = board_opp_tables(bdtb)

    qcpus = [n for n in subnodes(qemu_dtb, '/cpus') if n.startswith('cpu@')]
    if len(qcpus) != len(cpus):
        sys.exit('soc-dtb.py: QEMU made %d CPUs, the %s has %d' % (len(qcpus), board, len(cpus)))
    run('cp', qemu_dtb, out)
    # The board's CPU phandle -> QEMU's phandle of the CPU in its place.
    qphandle = {c['phandle']: int(get(out, '/cpus/' + q, 'phandle')[0])
                for c, q in zip(cpus, qcpus)}

    run('fdtput', '-r', out, '/cpus/cpu-map')
    for i, cluster in enumerate(clusters):
        for j, cpu in enumerate(cluster):
            node = '/cpus/cpu-map/cluster%d/core%d' % (i, j)
            run('fdtput', '-c', '-p', out, node)
            put(out, node, 'cpu', qphandle[cpu])

    next_phandle = max_phandle(out) + 1
    new_phandle = {}
    for ph, (name, shared, opps) in sorted(tables.items()):
        node = '/' + name
        run('fdtput', '-c', out, node)
        put(out, node, 'compatible', 'operating-points-v2', kind='s')
        if shared:
            # A boolean: present or not (fdtput writes one NUL byte).
            put(out, node, 'opp-shared', '', kind='s')
        put(out, node, 'phandle', next_phandle)
        for hz, uv, lat in opps:
            opp = '%s/opp-%d' % (node, hz)
            run('fdtput', '-c', out, opp)
            put(out, opp, 'opp-hz', hz >> 32, hz & 0xffffffff)
            put(out, opp, 'opp-microvolt', uv)
            put(out, opp, 'clock-latency-ns', lat)
        new_phandle[ph] = next_phandle
        next_phandle += 1

    for c, q in zip(cpus, qcpus):
        node = '/cpus/' + q
        put(out, node, 'capacity-dmips-mhz', c['dmips'])
        if c['coeff'] is not None:
            put(out, node, 'dynamic-power-coefficient', c['coeff'])
        put(out, node, 'operating-points-v2', new_phandle[c['opp']])


if __name__ == '__main__':
    main()
