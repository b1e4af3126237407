// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin for scripts/profile.sh: counts the executions of every
 * translation block and, each time the guest executes the block at the
 * address mark=ADDR (a kernel function the guest calls on purpose, such
 * as the sync system call), writes every block's address, instruction
 * count and executions so far to out=PATH.N (N = 1, 2, ...). Two dumps
 * around a benchmark give the instructions it executed, per block; with
 * -icount (one TCG thread) the counters need no atomics.
 *
 * Written against QEMU's plugin API version 1 (QEMU 7.2, Debian 12), with
 * the few declarations it needs, so that building it needs neither QEMU's
 * sources nor glib: gcc -shared -fPIC -O2 -o qemu-profile.so qemu-profile.c
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct qemu_info_t qemu_info_t;
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu, void *data);
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags,
					  void *userdata);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* One translation of a block; a block translated again gets another. */
struct tb_count {
	uint64_t vaddr;
	uint64_t execs;
	uint32_t insns;
};

/* Chunks are never moved: the inline counters point into them. */
#define CHUNK 65536
static struct tb_count **chunks;
static size_t nr_chunks, nr_counts;
static uint64_t mark;
static const char *out = "qemu-profile";
static unsigned int dumps;

static struct tb_count *new_count(void)
{
	if (nr_counts == nr_chunks * CHUNK) {
		chunks = realloc(chunks, (nr_chunks + 1) * sizeof(*chunks));
		chunks[nr_chunks] = calloc(CHUNK, sizeof(**chunks));
		if (!chunks || !chunks[nr_chunks])
			abort();
		nr_chunks++;
	}
	nr_counts++;
	return &chunks[(nr_counts - 1) / CHUNK][(nr_counts - 1) % CHUNK];
}

static void dump(unsigned int vcpu, void *data)
{
	char path[4096];
	FILE *f;
	size_t i;

	snprintf(path, sizeof(path), "%s.%u", out, ++dumps);
	f = fopen(path, "w");
	if (!f)
		return;
	for (i = 0; i < nr_counts; i++) {
		struct tb_count *c = &chunks[i / CHUNK][i % CHUNK];

		if (c->execs)
			fprintf(f, "%" PRIx64 " %u %" PRIu64 "\n",
				c->vaddr, c->insns, c->execs);
	}
	fclose(f);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	struct tb_count *c = new_count();

	c->vaddr = qemu_plugin_tb_vaddr(tb);
	c->insns = qemu_plugin_tb_n_insns(tb);
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &c->execs, 1);
	if (c->vaddr == mark)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, dump,
						     QEMU_PLUGIN_CB_NO_REGS,
						     NULL);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "mark=", 5))
			mark = strtoull(argv[i] + 5, NULL, 16);
		else if (!strncmp(argv[i], "out=", 4))
			out = argv[i] + 4;
		else
			return -1;
	}
	if (!mark)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	return 0;
}
