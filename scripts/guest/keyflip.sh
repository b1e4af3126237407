# SPDX-License-Identifier: GPL-2.0
#
# Sourced by scripts/guest/init for guest_mode=keyflip (scripts/flake.sh
# --keyflip): does a guest crash while the kernel patches its own code?
# Turns all sched trace events on and off keyflip_n= times (default 200)
# while hackbench keeps both CPUs in the scheduler. Each turn patches the
# static keys and static calls of the tracepoints in __schedule(),
# try_to_wake_up(), the migration and the tick's update_curr(), on a
# pristine 6.12 kernel as on the patched one; the series plays no part.
n=200
for arg in $(cat /proc/cmdline); do
	case "$arg" in keyflip_n=*) n=${arg#keyflip_n=} ;; esac
done
ev=/sys/kernel/tracing/events/sched/enable
echo 64 > /sys/kernel/tracing/buffer_size_kb
( while :; do hackbench -p -g 2 -l 50 >/dev/null 2>&1; done ) &
load=$!
i=0
while [ $i -lt "$n" ]; do
	echo 1 > $ev && echo 0 > $ev || break
	i=$((i + 1))
	echo "keyflip: $i"
done
kill $load
echo "GUEST RESULT: keyflip $i of $n"
