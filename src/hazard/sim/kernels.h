/*
 * What the simulator's C files share (native.c, tally.c, session.c, seed.c, simd.c, simd256.c, simd512.c,
 * simdneon.c, compiled into one library by setup.py): the mark of an exported function, a lane's generator
 * state, the constants of the stream and the tables (each written here once), and the functions one file
 * calls in another. Portable C11, as each of them.
 */

#ifndef HAZARD_KERNELS_H
#define HAZARD_KERNELS_H

#include <stdint.h>

#if defined(_WIN32)
#define EXPORT __declspec(dllexport)
#elif defined(__GNUC__)
#define EXPORT __attribute__((visibility("default")))
#else
#define EXPORT
#endif

/* A lane's generator: PCG64 (the 128-bit PCG with the XSL RR output), the generator NumPy calls PCG64,
 * so that a lane seeded as NumPy seeds it (hazard/sim/stream.py) draws NumPy's words to the bit. The state
 * and the increment are each two 64-bit halves, high first. */
typedef struct {
    uint64_t state_high, state_low, inc_high, inc_low;
} hazard_lane;

/* PCG64's multiplier, high and low halves. */
#define PCG_MULTIPLIER_HIGH 2549297995355413924ULL
#define PCG_MULTIPLIER_LOW 4865540595714422341ULL

/* The constants of hazard.sim.stream and hazard.sim.tables, which native.py checks against Python's when
 * it loads the library (hazard_constants, hazard_session_constants): a word's base-36 digits, and how an
 * entry of the rounds' table packs the next state, the throw bit and the outcome code. */
#define DIGITS_PER_WORD 11
#define M11 131621703842267136ULL          /* 36**11 */
#define M6 2176782336ULL                   /* 36**6 < 2**32: a word's low six digits, and its high five, fit 32 bits */
#define WORD_LIMIT 18427038537917399040ULL /* 140 * 36**11: a word at or over it is drawn again */
#define NEXT_MASK 0xFFFFULL
#define THROW_BIT 16
#define CODE_SHIFT 17
#define THROW_BUCKETS 64
#define HAND_BUCKETS 64
#define COUNT_WIDTH (THROW_BUCKETS + 2) /* a copy of the counts: an outcome's row, by throws' bucket */
#define HAND_WIDTH (HAND_BUCKETS + 2)   /* a copy of the hands' counts, by length's bucket */

/* native.c: a lane's next n words (the one generator, which session.c draws through too). */
void hazard_lane_words(hazard_lane *lane, uint64_t *out, int64_t n);

/* seed.c: the generator of lane `lane` of block `block` of stream `kind`, seeded as NumPy seeds PCG64
 * from SeedSequence(seed, spawn_key=(kind, block, lane)), the seed in two 64-bit halves (as session.c
 * seeds each block of a call). */
void hazard_seed_lane(uint64_t seed_high, uint64_t seed_low, uint64_t kind, uint64_t block, uint64_t lane,
                      hazard_lane *out);

/* tally.c: whether the dice ever pass under a rule, and a lane's log added to the counts (hazard_tally,
 * with `passes` given), as native.c's play_block calls them for each chunk of a block. */
int hazard_rule_passes(const int64_t *restrict rule, int64_t codes);
void hazard_tally_with(const uint64_t *restrict log, int64_t n, const int64_t *restrict rule, int64_t codes,
                       int passes, int64_t *restrict counts, int64_t *restrict hands, int64_t *restrict carry);

/* native.c, for simd.c: a lane's next words split into their low six and high five base-36 digits, a
 * lane played alone to its quota, and a block played as the portable path plays it. */
void hazard_lanes_split_words(hazard_lane *bits, int lanes, uint32_t *restrict low, uint32_t *restrict high,
                              int64_t n);
void hazard_play_lane_rest(hazard_lane *bits, int64_t quota, int64_t chunk, const uint64_t *restrict entries,
                           uint64_t *restrict carry, int64_t *restrict hand, const int64_t *restrict rule,
                           int64_t codes, int passes, int64_t *restrict counts, int64_t *restrict hands,
                           uint64_t *restrict log);
int64_t hazard_play_block(hazard_lane *bits0, hazard_lane *bits1, int64_t quota0, int64_t quota1,
                          int64_t chunk, const uint64_t *restrict entries, int64_t n_entries, int64_t start,
                          const uint64_t *restrict low, const uint64_t *restrict high,
                          const int64_t *restrict rule, int64_t codes, int64_t *restrict counts,
                          int64_t *restrict hands);

#endif
