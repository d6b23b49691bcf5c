/*
 * A lane's generator seeded in C: PCG64 seeded as NumPy seeds it from a SeedSequence, so that a block, of
 * sessions or of rounds, is not kept waiting on Python's arithmetic (hazard.sim.stream.lane_generator is
 * the same in Python; the tests hold the two together, and both to NumPy). Its own file beside session.c
 * and native.c, compiled into the same library by setup.py. Portable C11, as they are.
 */

#include <stdint.h>

#include "kernels.h"

/* A whole number's 32-bit words, lowest first (0 is one word), as SeedSequence reads its entropy: `high`
 * and `low` its two 64-bit halves (a seed is below 2^128; a spawn key below 2^64, high 0). */
static int words32(uint64_t high, uint64_t low, uint32_t *out) {
    int n = 0;
    do {
        out[n++] = (uint32_t)low;
        low = (low >> 32) | (high << 32);
        high >>= 32;
    } while (low != 0 || high != 0);
    return n;
}

#define SEED_INIT_A 0x43B0D7E5U
#define SEED_MULT_A 0x931E8875U
#define SEED_INIT_B 0x8B51F9DDU
#define SEED_MULT_B 0x58F38DEDU
#define SEED_MIX_LEFT 0xCA01F9DDU
#define SEED_MIX_RIGHT 0x4973F715U
#define SEED_POOL 4

static inline uint32_t hashmix(uint32_t value, uint32_t *hash_const) {
    value ^= *hash_const;
    *hash_const *= SEED_MULT_A;
    value *= *hash_const;
    return value ^ (value >> 16);
}

static inline uint32_t mix(uint32_t x, uint32_t y) {
    uint32_t result = SEED_MIX_LEFT * x - SEED_MIX_RIGHT * y;
    return result ^ (result >> 16);
}

/* The generator of lane `lane` of block `block` of stream `kind` from the seed (high and low halves): PCG64
 * seeded as NumPy seeds it from SeedSequence(seed, spawn_key=(kind, block, lane)), as
 * hazard.sim.stream.lane_generator computes it in Python (the tests hold the two together). Here so that a
 * block, of sessions or of rounds, is not kept waiting on Python's arithmetic: 30 microseconds a lane
 * there, a fraction of one here. */
EXPORT void hazard_seed_lane(uint64_t seed_high, uint64_t seed_low, uint64_t kind, uint64_t block,
                                uint64_t lane, hazard_lane *out) {
    uint32_t entropy[4 + 3 * 2];
    int n = words32(seed_high, seed_low, entropy);
    while (n < SEED_POOL) { /* a spawn key follows: the seed's words are padded to the pool */
        entropy[n++] = 0;
    }
    const uint64_t keys[3] = {kind, block, lane};
    for (int k = 0; k < 3; k++) {
        n += words32(0, keys[k], entropy + n);
    }
    uint32_t hash_const = SEED_INIT_A, pool[SEED_POOL];
    for (int i = 0; i < SEED_POOL; i++) {
        pool[i] = hashmix(entropy[i], &hash_const);
    }
    for (int source = 0; source < SEED_POOL; source++) {
        for (int target = 0; target < SEED_POOL; target++) {
            if (source != target) {
                pool[target] = mix(pool[target], hashmix(pool[source], &hash_const));
            }
        }
    }
    for (int source = SEED_POOL; source < n; source++) {
        for (int target = 0; target < SEED_POOL; target++) {
            pool[target] = mix(pool[target], hashmix(entropy[source], &hash_const));
        }
    }
    hash_const = SEED_INIT_B;
    uint32_t state[8];
    for (int i = 0; i < 8; i++) {
        uint32_t value = pool[i % SEED_POOL] ^ hash_const;
        hash_const *= SEED_MULT_B;
        value *= hash_const;
        state[i] = value ^ (value >> 16);
    }
    uint64_t words[4];
    for (int i = 0; i < 4; i++) {
        words[i] = (uint64_t)state[2 * i] | ((uint64_t)state[2 * i + 1] << 32);
    }
    /* PCG's seeding: the increment from the sequence, the state a step from 0, the start added, a step */
    out->inc_high = (words[2] << 1) | (words[3] >> 63);
    out->inc_low = (words[3] << 1) | 1;
    out->state_low = out->inc_low + words[1];
    out->state_high = out->inc_high + words[0] + (out->state_low < out->inc_low);
    uint64_t step;
    hazard_lane_words(out, &step, 1);
}
