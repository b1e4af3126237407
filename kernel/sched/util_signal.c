// SPDX-License-Identifier: GPL-2.0
/*
 * Utilization-signal framework: registry, selection and hook dispatch.
 *
 * The model and the hook locking rules are described in
 * include/linux/sched/util_signal.h and
 * Documentation/scheduler/sched-util-signal.rst.
 *
 * Selection swaps the target of two static calls (CPU and task
 * utilization); tracking patches the static calls and static keys of the
 * provider's event hooks. Both run in process context under
 * sched_util_mutex, never on a scheduler hot path.
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/mutex.h>
#include <linux/sched/clock.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <linux/sysctl.h>
#include <linux/workqueue.h>
#include <kunit/visibility.h>

#include <linux/mmu_context.h>

#include "sched.h"

/* PELT: the built-in provider and the default. */
static unsigned long pelt_cpu_util(int cpu)
{
	return cpu_util_cfs_boost(cpu);
}

static unsigned long pelt_task_util(struct task_struct *p)
{
	return pelt_task_util_est(p);
}

static struct sched_util_signal pelt_signal = {
	.name		= "pelt",
	.covers		= SCHED_UTIL_COVERS_CFS,
	.cpu_util	= pelt_cpu_util,
	.task_util	= pelt_task_util,
	.list		= LIST_HEAD_INIT(pelt_signal.list),
};

DEFINE_STATIC_CALL(sched_util_cpu_util, pelt_cpu_util);
DEFINE_STATIC_CALL(sched_util_task_util, pelt_task_util);

static struct sched_util_signal *sched_util_selected[SCHED_UTIL_ROLES] = {
	[SCHED_UTIL_FREQ]	= &pelt_signal,
	[SCHED_UTIL_PLACE]	= &pelt_signal,
};

/*
 * ->cpu_util_without() of a provider that does not give one: @p's share
 * stays in. PELT's is never called: placement calls cpu_util() directly
 * while PELT is selected for it.
 */
static unsigned long sched_util_share_kept(int cpu, struct task_struct *p)
{
	return READ_ONCE(sched_util_selected[SCHED_UTIL_PLACE])->cpu_util(cpu);
}

DEFINE_STATIC_CALL(sched_util_cpu_util_without, sched_util_share_kept);

/* On while a signal other than PELT is selected for frequency. */
DEFINE_STATIC_KEY_FALSE(sched_util_other_key);
/* On while the signal selected for frequency covers the whole CPU. */
DEFINE_STATIC_KEY_FALSE(sched_util_covers_cpu_key);
/* The same two for the signal selected for placement. */
DEFINE_STATIC_KEY_FALSE(sched_util_place_other_key);
DEFINE_STATIC_KEY_FALSE(sched_util_place_covers_cpu_key);
DEFINE_STATIC_KEY_FALSE(sched_util_activate_key);
DEFINE_STATIC_KEY_FALSE(sched_util_switch_key);
DEFINE_STATIC_KEY_FALSE(sched_util_tick_key);
DEFINE_STATIC_KEY_FALSE(sched_util_migrate_key);
DEFINE_STATIC_KEY_FALSE(sched_util_enqueue_key);
DEFINE_STATIC_KEY_FALSE(sched_util_dequeue_key);
DEFINE_STATIC_KEY_FALSE(sched_util_irq_key);
/*
 * On from before a tracking provider's first event hook goes on until its
 * last has gone off and returned: no hook of a tracking session sees a
 * task whose fork found it off. A provider that keeps per-task state
 * clears a child's copy of its parent's while it is on.
 */
DEFINE_STATIC_KEY_FALSE(sched_util_tracking_key);

DEFINE_STATIC_CALL_NULL(sched_util_activate, sched_util_activate_fn);
DEFINE_STATIC_CALL_NULL(sched_util_switch, sched_util_switch_fn);
DEFINE_STATIC_CALL_NULL(sched_util_tick, sched_util_tick_fn);
DEFINE_STATIC_CALL_NULL(sched_util_migrate, sched_util_migrate_fn);
DEFINE_STATIC_CALL_NULL(sched_util_enqueue, sched_util_queue_fn);
DEFINE_STATIC_CALL_NULL(sched_util_dequeue, sched_util_queue_fn);
DEFINE_STATIC_CALL_NULL(sched_util_irq, sched_util_irq_fn);

/*
 * sched_util_mutex protects the registry, the selection and the tracking
 * provider. Readers on hot paths never take it: they go through the
 * static calls above. Nothing sleeps for long under it: a selection
 * waiting for a provider's warm-up drops it (sched_util_select_names()).
 */
static DEFINE_MUTEX(sched_util_mutex);
static LIST_HEAD(sched_util_signals);
/* The provider whose event hooks are on, if any. */
static struct sched_util_signal *sched_util_tracking;
/*
 * How many reasons keep sched_util_tracking on (selected, side by side,
 * a selection waiting for its warm-up).
 */
static unsigned int sched_util_tracking_refs;
/* How many of them are selections waiting for its warm-up. */
static unsigned int sched_util_tracking_pins;
/* local_clock() when sched_util_tracking started. */
static u64 sched_util_tracking_since;
/*
 * Per role, how many selections have been made or begun: a selection
 * still waiting for a warm-up leaves a role that a later one has taken.
 */
static unsigned long sched_util_select_seq[SCHED_UTIL_ROLES];
/*
 * Readers of ->cpu_util_pred() (schedutil policies with pl set): the
 * queue hooks, which keep the tracking provider's predicted sums, are on
 * only while there are any (sched_util_queue_sync()). Counted without the
 * mutex, since a reader can go in a CPU hotplug callback.
 */
static atomic_t sched_util_pred_users = ATOMIC_INIT(0);
/* Whether the queue hooks of sched_util_tracking are on. */
static bool sched_util_queue_on;

/*
 * Boot parameter sched_util_signal=, as the sysctl takes it; applied after
 * late_initcall (sched_util_signal_boot_select()).
 */
static char sched_util_boot_name[2 * SCHED_UTIL_NAME_LEN];

static bool sched_util_has_hooks(const struct sched_util_signal *sig)
{
	return sig->activate || sig->switch_task || sig->tick || sig->migrate ||
	       sig->enqueue || sig->dequeue || sig->irq;
}

static struct sched_util_signal *sched_util_find(const char *name)
{
	struct sched_util_signal *sig;

	lockdep_assert_held(&sched_util_mutex);
	list_for_each_entry(sig, &sched_util_signals, list)
		if (sysfs_streq(sig->name, name))
			return sig;
	return NULL;
}

static void sched_util_hooks_on(struct sched_util_signal *sig)
{
	static_call_update(sched_util_activate, sig->activate);
	static_call_update(sched_util_switch, sig->switch_task);
	static_call_update(sched_util_tick, sig->tick);
	static_call_update(sched_util_migrate, sig->migrate);
	static_call_update(sched_util_irq, sig->irq);

	static_branch_enable(&sched_util_tracking_key);
	/*
	 * Migrations first and, in sched_util_hooks_off(), last: a provider
	 * must never account a task's events on a CPU it moved to unseen.
	 */
	if (sig->migrate)
		static_branch_enable(&sched_util_migrate_key);
	if (sig->activate)
		static_branch_enable(&sched_util_activate_key);
	if (sig->switch_task)
		static_branch_enable(&sched_util_switch_key);
	if (sig->tick)
		static_branch_enable(&sched_util_tick_key);
	if (sig->irq)
		static_branch_enable(&sched_util_irq_key);
}

/*
 * Turn the queue hooks of the tracking provider on while a reader wants
 * its prediction, off otherwise; the provider empties its sums and starts
 * counting before they go on, and stops before they go off
 * (->pred_switch()), so that no count outlives the hooks that keep it.
 * The dequeue hook goes on first and off last: a task counted at an
 * enqueue is uncounted at its dequeue.
 */
static void sched_util_queue_set(bool want)
{
	struct sched_util_signal *sig = sched_util_tracking;

	lockdep_assert_held(&sched_util_mutex);
	if (want == sched_util_queue_on)
		return;
	if (want) {
		sig->pred_switch(true);
		static_call_update(sched_util_enqueue, sig->enqueue);
		static_call_update(sched_util_dequeue, sig->dequeue);
		static_branch_enable(&sched_util_dequeue_key);
		static_branch_enable(&sched_util_enqueue_key);
	} else {
		if (sig)
			sig->pred_switch(false);
		static_branch_disable(&sched_util_enqueue_key);
		static_branch_disable(&sched_util_dequeue_key);
	}
	sched_util_queue_on = want;
}

static void sched_util_queue_sync(void)
{
	struct sched_util_signal *sig = sched_util_tracking;

	sched_util_queue_set(sig && sig->enqueue &&
			     atomic_read(&sched_util_pred_users));
}

static void sched_util_queue_work_fn(struct work_struct *work)
{
	guard(mutex)(&sched_util_mutex);
	sched_util_queue_sync();
}

static DECLARE_WORK(sched_util_queue_work, sched_util_queue_work_fn);

/**
 * sched_util_pred_get() - start reading the signals' predictions
 *
 * Called by a reader of sched_util_cpu_util_pred() before its first read:
 * the tracking provider keeps its predicted sums from shortly after, until
 * the last reader calls sched_util_pred_put(); until then the prediction
 * reads 0. Any context that may schedule work: the hooks are switched
 * from a work item, since switching a static key takes the CPU hotplug
 * lock, which schedutil's tunables are changed and freed under or beside
 * (governor start, a policy's last CPU going offline).
 */
void sched_util_pred_get(void)
{
	if (atomic_inc_return(&sched_util_pred_users) == 1)
		schedule_work(&sched_util_queue_work);
}

/**
 * sched_util_pred_put() - stop reading the signals' predictions
 *
 * As sched_util_pred_get(): the hooks go off from a work item.
 */
void sched_util_pred_put(void)
{
	if (atomic_dec_and_test(&sched_util_pred_users))
		schedule_work(&sched_util_queue_work);
}

#if IS_ENABLED(CONFIG_KUNIT)
/* For the KUnit tests: wait until the queue hooks follow the readers. */
void sched_util_pred_flush(void)
{
	flush_work(&sched_util_queue_work);
}
EXPORT_SYMBOL_IF_KUNIT(sched_util_pred_flush);
#endif

static void sched_util_hooks_off(void)
{
	static_branch_disable(&sched_util_activate_key);
	static_branch_disable(&sched_util_switch_key);
	static_branch_disable(&sched_util_tick_key);
	/*
	 * The provider stops counting before the queue hooks go off: a task
	 * that slept unseen would stay counted while the migration hook,
	 * still on, folds it without its CPU's rq lock.
	 */
	sched_util_queue_set(false);
	static_branch_disable(&sched_util_irq_key);
	static_branch_disable(&sched_util_migrate_key);
	/*
	 * Every hook runs with IRQs or preemption disabled: once an RCU grace
	 * period has elapsed, no CPU is inside a hook any more.
	 */
	synchronize_rcu();
	static_branch_disable(&sched_util_tracking_key);
}

/* Take one tracking reference on @sig, starting it on the first. */
static int sched_util_get(struct sched_util_signal *sig)
{
	int ret;

	lockdep_assert_held(&sched_util_mutex);
	if (!sched_util_has_hooks(sig) && !sig->start)
		return 0;
	if (sched_util_tracking) {
		if (sched_util_tracking != sig)
			return -EBUSY;
		sched_util_tracking_refs++;
		return 0;
	}
	if (sig->start) {
		ret = sig->start();
		if (ret)
			return ret;
	}
	sched_util_hooks_on(sig);
	sched_util_tracking = sig;
	sched_util_tracking_refs = 1;
	sched_util_tracking_since = local_clock();
	sched_util_queue_sync();
	return 0;
}

/*
 * How long @sig, if tracking, has still to track before its warm-up ends,
 * in ns. Until then a selection keeps the old signal: a provider that
 * starts from empty sums (WALT) would read every CPU as idle, and
 * schedutil would drop the frequency to the lowest OPP for a window or two
 * after every switch.
 */
static u64 sched_util_warm_in(const struct sched_util_signal *sig)
{
	u64 ready = sched_util_tracking_since + sig->warmup_ns;
	u64 now = local_clock();

	lockdep_assert_held(&sched_util_mutex);
	return sched_util_tracking == sig && now < ready ? ready - now : 0;
}

static void sched_util_put(struct sched_util_signal *sig)
{
	lockdep_assert_held(&sched_util_mutex);
	if (sched_util_tracking != sig || --sched_util_tracking_refs)
		return;
	sched_util_hooks_off();
	sched_util_tracking = NULL;
	if (sig->stop)
		sig->stop();
}

/* Make @sig, tracking if it has hooks and warmed up, the signal of @role. */
static int __sched_util_select(struct sched_util_signal *sig,
			       enum sched_util_role role)
{
	struct sched_util_signal *old = sched_util_selected[role];
	bool freq = role == SCHED_UTIL_FREQ;
	struct static_key_false *other = freq ? &sched_util_other_key :
						&sched_util_place_other_key;
	struct static_key_false *covers = freq ? &sched_util_covers_cpu_key :
						 &sched_util_place_covers_cpu_key;
	int ret;

	lockdep_assert_held(&sched_util_mutex);
	if (sig == old)
		return 0;
	ret = sched_util_get(sig);
	if (ret)
		return ret;
	/*
	 * schedutil and EAS read the coverage and the signal separately, so
	 * one of their reads may compose the signal of one provider with the
	 * coverage of the other. In this order that read errs high (a
	 * whole-CPU signal composed as CFS gets RT, DL and IRQ added again),
	 * never low (a CFS signal composed as the whole CPU lacks them).
	 */
	if (old->covers == SCHED_UTIL_COVERS_CPU)
		static_branch_disable(covers);
	/* Direct calls of PELT end before, and start after, the switch. */
	if (sig == &pelt_signal)
		static_branch_disable(other);
	/* Before the calls: sched_util_share_kept() reads it with them. */
	WRITE_ONCE(sched_util_selected[role], sig);
	if (freq) {
		static_call_update(sched_util_cpu_util, sig->cpu_util);
	} else {
		static_call_update(sched_util_task_util, sig->task_util);
		static_call_update(sched_util_cpu_util_without,
				   sig->cpu_util_without ?: sched_util_share_kept);
	}
	if (sig != &pelt_signal)
		static_branch_enable(other);
	if (sig->covers == SCHED_UTIL_COVERS_CPU)
		static_branch_enable(covers);
	sched_util_put(old);
	return 0;
}

/*
 * Select the provider named @names[r] for each role r (NULL: leave it as
 * it is), every one or, on error, none. If a provider has yet to warm up,
 * this waits until it has without holding sched_util_mutex, so that other
 * knobs and selections go on meanwhile; the provider is kept tracking by a
 * pin, a reference that does not select it. A selection begun meanwhile
 * for a role takes it: this one then leaves that role as it finds it.
 *
 * Return: 0, -EINVAL for an unknown name, -EBUSY while another provider's
 * hooks are on, the provider's start() error, -EINTR if a signal
 * interrupted the wait, or -ENODEV if the provider was unregistered
 * meanwhile; on error the selection is unchanged.
 */
static int sched_util_select_names(const char * const names[SCHED_UTIL_ROLES])
{
	struct sched_util_signal *want[SCHED_UTIL_ROLES] = { }, *pin = NULL;
	unsigned long seq[SCHED_UTIL_ROLES];
	unsigned int ms;
	int r, ret = 0;
	u64 wait;

	mutex_lock(&sched_util_mutex);
	for (r = 0; r < SCHED_UTIL_ROLES; r++) {
		if (!names[r])
			continue;
		want[r] = sched_util_find(names[r]);
		if (!want[r]) {
			ret = -EINVAL;
			goto unlock;
		}
	}
	/* Only one provider tracks at a time, so at most one is pinned. */
	for (r = 0; r < SCHED_UTIL_ROLES; r++) {
		if (!want[r] || want[r] == sched_util_selected[r] || want[r] == pin)
			continue;
		ret = sched_util_get(want[r]);
		if (ret)
			goto unpin;
		if (sched_util_tracking == want[r]) {
			pin = want[r];
			sched_util_tracking_pins++;
		}
	}
	for (r = 0; r < SCHED_UTIL_ROLES; r++)
		seq[r] = want[r] ? ++sched_util_select_seq[r] : 0;

	while (pin && (wait = sched_util_warm_in(pin))) {
		ms = DIV_ROUND_UP_ULL(wait, NSEC_PER_MSEC);
		mutex_unlock(&sched_util_mutex);
		ms = msleep_interruptible(ms);
		mutex_lock(&sched_util_mutex);
		if (ms) {
			ret = -EINTR;
			goto unpin;
		}
		if (list_empty(&pin->list)) {
			ret = -ENODEV;
			goto unpin;
		}
	}
	/* Pinned and warm: a switch only takes another reference. */
	for (r = 0; r < SCHED_UTIL_ROLES; r++)
		if (want[r] && seq[r] == sched_util_select_seq[r])
			WARN_ON_ONCE(__sched_util_select(want[r], r));
unpin:
	if (pin) {
		sched_util_tracking_pins--;
		sched_util_put(pin);
	}
unlock:
	mutex_unlock(&sched_util_mutex);
	return ret;
}

/**
 * sched_util_signal_select_for() - make @name the signal of @role
 * @name: a registered provider's name; a trailing newline is ignored
 * @role: SCHED_UTIL_FREQ (what schedutil consumes), SCHED_UTIL_PLACE (what
 *	  task placement reads) or SCHED_UTIL_ROLES for both
 *
 * If the provider has yet to warm up, this waits, without holding the
 * lock of the selection, until it has; the roles keep their signal
 * meanwhile.
 *
 * Return: 0, -EINVAL for an unknown role, or an error of
 * sched_util_select_names(); on error the selection is unchanged.
 */
int sched_util_signal_select_for(const char *name, enum sched_util_role role)
{
	const char *names[SCHED_UTIL_ROLES] = { };
	int r;

	if (role > SCHED_UTIL_ROLES)
		return -EINVAL;
	for (r = 0; r < SCHED_UTIL_ROLES; r++)
		if (role == r || role == SCHED_UTIL_ROLES)
			names[r] = name;
	return sched_util_select_names(names);
}
EXPORT_SYMBOL_IF_KUNIT(sched_util_signal_select_for);

/**
 * sched_util_signal_select() - make @name the signal of both roles
 * @name: a registered provider's name; a trailing newline is ignored
 *
 * Return: as sched_util_signal_select_for().
 */
int sched_util_signal_select(const char *name)
{
	return sched_util_signal_select_for(name, SCHED_UTIL_ROLES);
}
EXPORT_SYMBOL_IF_KUNIT(sched_util_signal_select);

/**
 * sched_util_signal_track() - keep @sig tracking while it is not selected
 * @sig: a registered provider
 * @on: take (true) or drop (false) the side-by-side reference
 *
 * Return: 0, or -EBUSY when another provider's hooks are on.
 */
int sched_util_signal_track(struct sched_util_signal *sig, bool on)
{
	int ret = 0;

	mutex_lock(&sched_util_mutex);
	if (on)
		ret = sched_util_get(sig);
	else
		sched_util_put(sig);
	mutex_unlock(&sched_util_mutex);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(sched_util_signal_track);

/*
 * sched_util_signal_restart() under sched_util_mutex, up to the new session
 * of @sig: the names of the roles it had go to @had, for the selection
 * that gives them back once @sig has warmed up.
 */
static int sched_util_restart_locked(struct sched_util_signal *sig,
				     void (*change)(void *arg), void *arg,
				     const char *had[SCHED_UTIL_ROLES])
{
	unsigned int refs;
	int ret, r;

	guard(mutex)(&sched_util_mutex);
	if (sched_util_tracking != sig) {
		change(arg);
		return 0;
	}
	for (r = 0; r < SCHED_UTIL_ROLES; r++) {
		if (sched_util_selected[r] != sig)
			continue;
		had[r] = sig->name;
		WARN_ON_ONCE(__sched_util_select(&pelt_signal, r));
	}
	/* Side by side references and pins are left, if any. */
	refs = sched_util_tracking == sig ? sched_util_tracking_refs : 0;
	if (refs) {
		sched_util_tracking_refs = 1;
		sched_util_put(sig);
	}
	change(arg);
	if (refs) {
		ret = sched_util_get(sig);
		if (ret)
			return ret;
		sched_util_tracking_refs = refs;
	}
	return 0;
}

/**
 * sched_util_signal_restart() - restart @sig around a change of its setup
 * @sig: a registered provider
 * @change: called while @sig is not tracking (may sleep)
 * @arg: passed to @change
 *
 * For a change that @sig's tracked state cannot follow (WALT's window
 * size). If @sig is tracking, the roles it is selected for pass to PELT,
 * its tracking stops, @change runs, its tracking starts again with the
 * references it had, and it gets its roles back once warmed up: schedutil
 * and placement read PELT meanwhile, never the empty state of a restart.
 * The wait is sched_util_signal_select_for()'s.
 *
 * Return: 0, or the provider's start() error (its roles then stay
 * PELT's), or an error of sched_util_select_names().
 */
int sched_util_signal_restart(struct sched_util_signal *sig,
			      void (*change)(void *arg), void *arg)
{
	const char *had[SCHED_UTIL_ROLES] = { };
	int ret;

	ret = sched_util_restart_locked(sig, change, arg, had);
	return ret ?: sched_util_select_names(had);
}
EXPORT_SYMBOL_IF_KUNIT(sched_util_signal_restart);

/* The name of the signal of @role (SCHED_UTIL_FREQ or SCHED_UTIL_PLACE). */
const char *sched_util_signal_selected_for(enum sched_util_role role)
{
	return READ_ONCE(sched_util_selected[role])->name;
}
EXPORT_SYMBOL_IF_KUNIT(sched_util_signal_selected_for);

/* The name of the signal schedutil consumes. */
const char *sched_util_signal_selected(void)
{
	return sched_util_signal_selected_for(SCHED_UTIL_FREQ);
}
EXPORT_SYMBOL_IF_KUNIT(sched_util_signal_selected);

/* Whether @sig feeds schedutil now; any context, a hint that may be stale. */
bool sched_util_signal_is_selected(const struct sched_util_signal *sig)
{
	return READ_ONCE(sched_util_selected[SCHED_UTIL_FREQ]) == sig;
}

/**
 * sched_util_signal_register() - make a provider selectable by name
 * @sig: the provider; ->name, ->cpu_util and ->task_util are required
 *
 * Return: 0, -EINVAL for an incomplete provider or an unknown ->covers,
 * -EEXIST for a taken name.
 */
int sched_util_signal_register(struct sched_util_signal *sig)
{
	int ret = 0;

	if (!sig->name || !sig->name[0] ||
	    strlen(sig->name) >= SCHED_UTIL_NAME_LEN ||
	    !sig->cpu_util || !sig->task_util ||
	    (!!(sig->enqueue || sig->dequeue) != !!sig->pred_switch) ||
	    (sig->covers != SCHED_UTIL_COVERS_CFS &&
	     sig->covers != SCHED_UTIL_COVERS_CPU))
		return -EINVAL;

	mutex_lock(&sched_util_mutex);
	if (sched_util_find(sig->name))
		ret = -EEXIST;
	else
		list_add_tail(&sig->list, &sched_util_signals);
	mutex_unlock(&sched_util_mutex);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(sched_util_signal_register);

/**
 * sched_util_signal_unregister() - remove a provider
 * @sig: a registered provider other than PELT
 *
 * If @sig is selected, PELT is selected first; if it is tracking side by
 * side, that reference is dropped. A selection of @sig still waiting for
 * its warm-up fails with -ENODEV, and this waits for it.
 */
void sched_util_signal_unregister(struct sched_util_signal *sig)
{
	if (WARN_ON_ONCE(sig == &pelt_signal))
		return;

	mutex_lock(&sched_util_mutex);
	list_del_init(&sig->list);
	while (sched_util_tracking == sig && sched_util_tracking_pins) {
		mutex_unlock(&sched_util_mutex);
		msleep(20);
		mutex_lock(&sched_util_mutex);
	}
	if (sched_util_selected[SCHED_UTIL_FREQ] == sig)
		WARN_ON_ONCE(__sched_util_select(&pelt_signal, SCHED_UTIL_FREQ));
	if (sched_util_selected[SCHED_UTIL_PLACE] == sig)
		WARN_ON_ONCE(__sched_util_select(&pelt_signal, SCHED_UTIL_PLACE));
	while (sched_util_tracking == sig)
		sched_util_put(sig);
	mutex_unlock(&sched_util_mutex);
}
EXPORT_SYMBOL_IF_KUNIT(sched_util_signal_unregister);

unsigned long sched_util_cpu_util(int cpu)
{
	return static_call(sched_util_cpu_util)(cpu);
}
EXPORT_SYMBOL_IF_KUNIT(sched_util_cpu_util);

/*
 * The prediction of the signal selected for frequency, 0 if it has none.
 * Read once: a selection switching under a reader gives either signal's.
 */
unsigned long sched_util_cpu_util_pred(int cpu)
{
	struct sched_util_signal *sig;

	sig = READ_ONCE(sched_util_selected[SCHED_UTIL_FREQ]);
	return sig->cpu_util_pred ? sig->cpu_util_pred(cpu) : 0;
}

unsigned long sched_util_task_util(struct task_struct *p)
{
	return static_call(sched_util_task_util)(p);
}
EXPORT_SYMBOL_IF_KUNIT(sched_util_task_util);

unsigned long sched_util_cpu_util_without(int cpu, struct task_struct *p)
{
	return static_call(sched_util_cpu_util_without)(cpu, p);
}
EXPORT_SYMBOL_IF_KUNIT(sched_util_cpu_util_without);

/*
 * An energy-aware placement (find_energy_efficient_cpu()) reads each
 * candidate CPU's utilization without the waking task up to five times:
 * for its performance domain's busy time, for its spare capacity, and for
 * the domain's highest utilization with the task on no CPU, on its
 * previous CPU and on the best other one. PELT's is a field; another
 * signal's may take a clock read and roll the CPU's sums to it (WALT).
 * Inside a placement a CPU is read once, so the placement also compares
 * the CPUs on one snapshot. The domains are walked one at a time: one of
 * up to SCHED_UTIL_PLACE_SLOTS CPUs is read once per CPU, a larger one
 * shares slots and some of its CPUs are read again. The waking task's own
 * utilization is read each time: nothing writes a waking task's signal,
 * and a read of it costs no clock read.
 *
 * Per waking CPU, written only there with IRQs off (the waking task's
 * pi_lock is held across the placement): @place numbers the placements
 * (never 0), each slot holds the first read of a CPU in one of them.
 */
#define SCHED_UTIL_PLACE_SLOTS	16

struct sched_util_place_read {
	u64		place;
	int		cpu;
	unsigned long	util;
};

struct sched_util_place {
	u64				place;
	struct sched_util_place_read	read[SCHED_UTIL_PLACE_SLOTS];
};

static DEFINE_PER_CPU(struct sched_util_place, sched_util_place);

/**
 * sched_util_place_begin() - start a placement's reads on this CPU
 *
 * IRQs must stay off from here to the placement's last read.
 *
 * Return: the placement's number for sched_util_cpu_util_without_once().
 */
u64 sched_util_place_begin(void)
{
	lockdep_assert_irqs_disabled();
	return ++this_cpu_ptr(&sched_util_place)->place;
}
EXPORT_SYMBOL_IF_KUNIT(sched_util_place_begin);

/**
 * sched_util_cpu_util_without_once() - a CPU's utilization without a
 *					waking task, once per placement
 * @cpu: the CPU
 * @p: the placement's waking task
 * @place: sched_util_place_begin()'s number on this CPU, or 0 for a read
 *	   outside a placement
 *
 * Return: sched_util_cpu_util_without(@cpu, @p) as the placement's first
 * read of @cpu gave it.
 */
unsigned long sched_util_cpu_util_without_once(int cpu, struct task_struct *p,
					       u64 place)
{
	struct sched_util_place_read *r;

	if (!place)
		return sched_util_cpu_util_without(cpu, p);
	lockdep_assert_irqs_disabled();
	r = &this_cpu_ptr(&sched_util_place)->read[cpu % SCHED_UTIL_PLACE_SLOTS];
	if (r->place != place || r->cpu != cpu) {
		r->util = sched_util_cpu_util_without(cpu, p);
		r->cpu = cpu;
		r->place = place;
	}
	return r->util;
}
EXPORT_SYMBOL_IF_KUNIT(sched_util_cpu_util_without_once);

/*
 * Select what @str names: "NAME" for both roles, "FREQUENCY/PLACEMENT"
 * for each, both or, on error, neither. Overwrites the slash.
 */
static int sched_util_signal_select_str(char *str)
{
	const char *names[SCHED_UTIL_ROLES] = {
		[SCHED_UTIL_FREQ] = str, [SCHED_UTIL_PLACE] = str,
	};
	char *place = strchr(str, '/');

	if (place) {
		*place++ = '\0';
		names[SCHED_UTIL_PLACE] = place;
	}
	return sched_util_select_names(names);
}

/*
 * kernel.sched_util_signal: reads the name of the signal of both roles, or
 * "FREQUENCY/PLACEMENT" while the roles differ (as the Android knobs of a
 * provider can leave them, e.g. "walt/pelt"); takes either form, so that
 * what it reads can be written back.
 */
static int sched_util_signal_sysctl(const struct ctl_table *table, int write,
				    void *buffer, size_t *lenp, loff_t *ppos)
{
	char name[2 * SCHED_UTIL_NAME_LEN] = "";
	struct ctl_table tmp = {
		.data	= name,
		.maxlen	= sizeof(name),
	};
	const char *freq, *place;
	int ret;

	if (!write) {
		freq = sched_util_signal_selected_for(SCHED_UTIL_FREQ);
		place = sched_util_signal_selected_for(SCHED_UTIL_PLACE);
		if (freq == place)
			strscpy(name, freq, sizeof(name));
		else
			snprintf(name, sizeof(name), "%s/%s", freq, place);
		return proc_dostring(&tmp, write, buffer, lenp, ppos);
	}
	/*
	 * proc_dostring() silently truncates, and stops at a newline or a
	 * NUL: refuse what does not fit, and either before the last byte.
	 */
	if (*ppos || !*lenp || *lenp >= sizeof(name) ||
	    memchr(buffer, '\n', *lenp - 1) || memchr(buffer, '\0', *lenp))
		return -EINVAL;
	ret = proc_dostring(&tmp, write, buffer, lenp, ppos);
	if (ret)
		return ret;
	return sched_util_signal_select_str(name);
}

static struct ctl_table sched_util_sysctls[] = {
	{
		.procname	= "sched_util_signal",
		.maxlen		= 2 * SCHED_UTIL_NAME_LEN,
		.mode		= 0644,
		.proc_handler	= sched_util_signal_sysctl,
	},
};

static int __init sched_util_signal_setup(char *str)
{
	if (strscpy(sched_util_boot_name, str,
		    sizeof(sched_util_boot_name)) < 0) {
		pr_warn("sched_util_signal=%s: no such signal, using pelt\n", str);
		sched_util_boot_name[0] = '\0';
	}
	return 1;
}
__setup("sched_util_signal=", sched_util_signal_setup);

static int __init sched_util_signal_init(void)
{
	mutex_lock(&sched_util_mutex);
	list_add(&pelt_signal.list, &sched_util_signals);
	mutex_unlock(&sched_util_mutex);
	register_sysctl_init("kernel", sched_util_sysctls);
	return 0;
}
core_initcall(sched_util_signal_init);

static void sched_util_boot_select_fn(struct work_struct *work)
{
	char name[sizeof(sched_util_boot_name)];
	int ret;

	strscpy(name, sched_util_boot_name, sizeof(name));
	ret = sched_util_signal_select_str(name);
	if (ret)
		pr_warn("sched_util_signal=%s: %s, using %s\n",
			sched_util_boot_name,
			ret == -EINVAL ? "no such signal" : "cannot start",
			sched_util_signal_selected());
}

static DECLARE_WORK(sched_util_boot_work, sched_util_boot_select_fn);

/*
 * Providers register before late_initcall: apply the boot choice then,
 * from a work item, so that boot does not wait for the provider's warm-up;
 * the roles stay PELT's until it has.
 */
static int __init sched_util_signal_boot_select(void)
{
	if (sched_util_boot_name[0])
		schedule_work(&sched_util_boot_work);
	return 0;
}
late_initcall(sched_util_signal_boot_select);
