/* A stand-alone driver for the kernels (no Python), built for another CPU (aarch64 under qemu-user, by
 * tests/sim/test_sim_arm.py) to replay the calls native.py makes and give back every output to compare
 * with the x86 build's, to the bit.
 *
 * stdin: calls, each an op word then its fields, each field a word count n then n 8-byte words, in the order
 * of the C function's arguments (scalars as one word; sizes the C functions take are the fields' counts):
 *   op 1, hazard_play_blocks: lanes, quotas, chunk, entries, start, low, high, rule, counts, hands, path
 *   op 2, hazard_play_session_blocks: seed (high, low), kind, first block, per block, entries, start, net,
 *         rule, settings, bankrolls, out_bank, out_ruin, out_stats
 * stdout: first hazard_kernel_paths's bits (one word), then per call its outputs as fields: the lanes, counts
 * and hands (op 1) or out_bank, out_ruin and out_stats (op 2), and the call's result. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/hazard/sim/kernels.h"

int64_t hazard_kernel_paths(void);
int64_t hazard_play_blocks(hazard_lane *lanes, int64_t blocks, const int64_t *quotas, int64_t chunk,
                           const uint64_t *entries, int64_t n_entries, int64_t start, const uint64_t *low,
                           const uint64_t *high, const int64_t *rule, int64_t codes, int64_t *counts,
                           int64_t *hands, int64_t path);
int64_t hazard_play_session_blocks(uint64_t seed_high, uint64_t seed_low, uint64_t kind, uint64_t first_block,
                                   int64_t per_block, const uint64_t *entries, int64_t start, const double *net,
                                   const int64_t *rule, const double *settings, const double *bankrolls,
                                   int64_t players, int64_t sessions, double *out_bank, int64_t *out_ruin,
                                   double *out_stats, int64_t codes);

#define MAX_FIELDS 16

typedef struct {
    uint64_t n;
    uint64_t *words;
} field;

static uint64_t read_word(void) {
    uint64_t word;
    if (fread(&word, sizeof word, 1, stdin) != 1) {
        fprintf(stderr, "arm_driver: input ends inside a call\n");
        exit(2);
    }
    return word;
}

static field read_field(void) {
    field f = {read_word(), NULL};
    f.words = calloc(f.n ? f.n : 1, sizeof(uint64_t));
    if (f.words == NULL || fread(f.words, sizeof(uint64_t), f.n, stdin) != f.n) {
        fprintf(stderr, "arm_driver: a field of %llu words cannot be read\n", (unsigned long long)f.n);
        exit(2);
    }
    return f;
}

static void write_field(const void *words, uint64_t n) {
    fwrite(&n, sizeof n, 1, stdout);
    fwrite(words, sizeof(uint64_t), n, stdout);
}

/* A field's words as another 8-byte type (doubles, signed counts): copied, so no pointer is type-punned. */
static void *as(field f, size_t size) {
    void *out = malloc(f.n ? f.n * size : 1);
    if (out == NULL) {
        exit(2);
    }
    memcpy(out, f.words, f.n * size);
    return out;
}

static int64_t play_blocks(field *f) {
    hazard_lane *lanes = as(f[0], sizeof(uint64_t)); /* four words a lane */
    int64_t *quotas = as(f[1], sizeof(int64_t)), *rule = as(f[7], sizeof(int64_t));
    int64_t *counts = as(f[8], sizeof(int64_t)), *hands = as(f[9], sizeof(int64_t));
    int64_t blocks = (int64_t)(f[0].n / 4 / 2);
    int64_t result = hazard_play_blocks(lanes, blocks, quotas, (int64_t)f[2].words[0], f[3].words, (int64_t)f[3].n,
                                        (int64_t)f[4].words[0], f[5].words, f[6].words, rule, (int64_t)f[7].n,
                                        counts, hands, (int64_t)f[10].words[0]);
    write_field(lanes, f[0].n);
    write_field(counts, f[8].n);
    write_field(hands, f[9].n);
    free(lanes), free(quotas), free(rule), free(counts), free(hands);
    return result;
}

static int64_t play_session_blocks(field *f) {
    double *net = as(f[7], sizeof(double)), *settings = as(f[9], sizeof(double));
    double *bankrolls = as(f[10], sizeof(double)), *bank = as(f[11], sizeof(double));
    double *stats = as(f[13], sizeof(double));
    int64_t *rule = as(f[8], sizeof(int64_t)), *ruin = as(f[12], sizeof(int64_t));
    int64_t players = (int64_t)f[10].n;
    int64_t result = hazard_play_session_blocks(
        f[0].words[0], f[1].words[0], f[2].words[0], f[3].words[0], (int64_t)f[4].words[0], f[5].words,
        (int64_t)f[6].words[0], net, rule, settings, bankrolls, players, (int64_t)f[11].n / players, bank, ruin,
        stats, (int64_t)f[7].n);
    write_field(bank, f[11].n);
    write_field(ruin, f[12].n);
    write_field(stats, f[13].n);
    free(net), free(settings), free(bankrolls), free(bank), free(stats), free(rule), free(ruin);
    return result;
}

int main(void) {
    uint64_t paths = (uint64_t)hazard_kernel_paths(), op;
    write_field(&paths, 1);
    while (fread(&op, sizeof op, 1, stdin) == 1) {
        int fields = op == 1 ? 11 : op == 2 ? 14 : 0;
        if (fields == 0) {
            fprintf(stderr, "arm_driver: no op %llu\n", (unsigned long long)op);
            return 2;
        }
        field f[MAX_FIELDS];
        for (int i = 0; i < fields; i++) {
            f[i] = read_field();
        }
        uint64_t result = (uint64_t)(op == 1 ? play_blocks(f) : play_session_blocks(f));
        write_field(&result, 1);
        for (int i = 0; i < fields; i++) {
            free(f[i].words);
        }
    }
    return 0;
}
