/*
 * A lane's seed words: NumPy's SeedSequence(entropy).generate_state(4, uint64), the hashing that
 * hazard.sim.stream.seed_words writes out in Python, here in C so that a block's lanes are seeded in
 * microseconds, without the GIL (hazard.sim.rounds seeds two lanes a block). Compiled into the same library
 * as native.c (setup.py); the tests hold it to the Python, and so to NumPy. Portable C11, as native.c.
 */

#include <stdint.h>

#if defined(_WIN32)
#define EXPORT __declspec(dllexport)
#elif defined(__GNUC__)
#define EXPORT __attribute__((visibility("default")))
#else
#define EXPORT
#endif

/* NumPy's SeedSequence (numpy/random/bit_generator.pyx): its hash constants and pool size. */
#define INIT_A 0x43B0D7E5u
#define MULT_A 0x931E8875u
#define INIT_B 0x8B51F9DDu
#define MULT_B 0x58F38DEDu
#define MIX_LEFT 0xCA01F9DDu
#define MIX_RIGHT 0x4973F715u
#define XSHIFT 16
#define POOL 4

static uint32_t hashmix(uint32_t value, uint32_t *hash_const) {
    value ^= *hash_const;
    *hash_const *= MULT_A;
    value *= *hash_const;
    return value ^ (value >> XSHIFT);
}

static uint32_t mix(uint32_t x, uint32_t y) {
    uint32_t result = MIX_LEFT * x - MIX_RIGHT * y;
    return result ^ (result >> XSHIFT);
}

/* out[0..3]: the four 64-bit words of SeedSequence's state from `n` 32-bit words of entropy (each held in a
 * 64-bit item, below 2^32), as hazard.sim.stream.seed_entropy lays them out. */
EXPORT void hazard_seed_words(const uint64_t *restrict entropy, int64_t n, uint64_t *restrict out) {
    uint32_t hash_const = INIT_A;
    uint32_t pool[POOL];
    for (int64_t i = 0; i < POOL; i++) {
        pool[i] = hashmix(i < n ? (uint32_t)entropy[i] : 0u, &hash_const);
    }
    for (int source = 0; source < POOL; source++) {
        for (int target = 0; target < POOL; target++) {
            if (source != target) {
                pool[target] = mix(pool[target], hashmix(pool[source], &hash_const));
            }
        }
    }
    for (int64_t source = POOL; source < n; source++) {
        for (int target = 0; target < POOL; target++) {
            pool[target] = mix(pool[target], hashmix((uint32_t)entropy[source], &hash_const));
        }
    }
    hash_const = INIT_B;
    uint32_t state[2 * POOL];
    for (int i = 0; i < 2 * POOL; i++) {
        uint32_t value = pool[i % POOL] ^ hash_const;
        hash_const *= MULT_B;
        value *= hash_const;
        state[i] = value ^ (value >> XSHIFT);
    }
    for (int i = 0; i < POOL; i++) {
        out[i] = (uint64_t)state[2 * i] | (uint64_t)state[2 * i + 1] << 32;
    }
}
