/*
 * What the vector paths' files share (simd.c: the choice of path, a group of lanes and the AVX2 path's
 * batch; simd256.c: the AVX2 path's words; simd512.c: the AVX-512 path; simdneon.c: the NEON path's
 * batch): the paths' numbers, the constants, a group of lanes' work space, the rare sums of long rounds
 * and hands, and the lanes' states as the vector words unpack them, draw a rejected word again and pack
 * them back. Only x86-64 (AVX2, AVX-512) and aarch64 (NEON) builds by GCC or Clang have vector paths.
 */

#ifndef HAZARD_SIMD_H
#define HAZARD_SIMD_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

#define PATH_PORTABLE 0
#define PATH_AVX2 1
#define PATH_AVX512 2
#define PATH_NEON 3

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(HAZARD_NO_SIMD)
#define HAZARD_X86_SIMD 1
#include <cpuid.h>
#include <immintrin.h>
#endif

#if (defined(__GNUC__) || defined(__clang__)) && defined(__aarch64__) && !defined(HAZARD_NO_SIMD)
#define HAZARD_ARM_SIMD 1
#include <arm_neon.h>
#endif

#if defined(HAZARD_X86_SIMD) || defined(HAZARD_ARM_SIMD)
#define HAZARD_VECTOR_SIMD 1 /* some vector path is built */
#endif

#define BATCH_WORDS 16
#define BATCH_STEPS (BATCH_WORDS * DIGITS_PER_WORD)
#define MAX_LANES 64 /* AVX-512: four vectors of sixteen lanes, so that four chains of gathers overlap */
/* A lane's table entry, as the gathers read it, is 32 bits: the next offset (13), the throw counted (1),
 * half the outcome's row of the counts (14: its code times COUNT_WIDTH / 2, 0 where the round goes on),
 * and the passing rule's win, counted loss and no main (3). So the entry shifted right by ENTRY_THROW is
 * the throw plus the row (COUNT_WIDTH is even) under the rule bits: masked by ENTRY_STEP, what a step adds
 * to the throws, and a key is the throws plus that, one add. A table or a ruleset too large for it is
 * played the portable way. */
#define ENTRY_NEXT 0x1FFFU
#define ENTRY_THROW 13
#define ENTRY_ROW 14
#define ENTRY_WIN 28
#define ENTRY_LOSS 29
#define ENTRY_NO_MAIN 30
#define ENTRY_STEP 0x7FFFU /* the throw and the row, from the entry shifted right by ENTRY_THROW */
#define MAX_ENTRIES (ENTRY_NEXT + 1)
#define MAX_CODES ((2 << (ENTRY_WIN - ENTRY_ROW)) / COUNT_WIDTH) /* 496: the last code's half row fits 14 bits */
#define AVX2_TARGET "avx2,popcnt"
#define HANDS_STREAK 1     /* a batch's hands' work: a streak of losses kept and compared */
#define HANDS_EVERY_LOSS 2 /* a batch's hands' work where every counted loss passes (v->every_loss) */

#ifdef HAZARD_VECTOR_SIMD
/* The lanes of a vector path and what they share (the table's entries laid out as above). */
typedef struct {
    int lanes;
    uint32_t *table;
    uint32_t *low, *high; /* the batch's words, [word][lane] */
    uint32_t *digits;     /* the batch's digits, [step][lane] */
    uint32_t *keys, *hand_keys;
    uint32_t *offset, *throws, *streak, *kept, *rounds; /* each lane's, between batches */
    int64_t *counts, *hands;                            /* the first copy of each */
    uint32_t after;
    int hands_on, every_loss; /* whether the dice ever pass; whether every counted loss passes them */
} vector_lanes;

#ifdef HAZARD_X86_SIMD
/* The lanes of each mask of eight, in order: an AVX2 vector packed by a permutation. */
typedef struct {
    uint32_t lut[256][8];
} packer;
#else
/* The lanes of each mask of four, in order: a NEON vector packed by a byte shuffle (vqtbl1q_u8), and how
 * many they are (NEON has no popcount of a mask). */
typedef struct {
    uint8_t lut[16][16];
    uint8_t count[16];
} packer;
#endif

/* The rare long round (throws in the last bucket) or long hand: its exact sums, lane by lane. */
static inline void long_rounds(int mask, const uint32_t *throws, const uint32_t *rows, int64_t *counts, int width) {
    for (int lane = 0; lane < width; lane++) {
        if ((mask >> lane) & 1) {
            uint64_t t = throws[lane];
            counts[rows[lane] + THROW_BUCKETS] += (int64_t)t;
            counts[rows[lane] + THROW_BUCKETS + 1] += (int64_t)(t * t);
        }
    }
}

/* The long hands of a step (kept in the last bucket, the dice passed): their exact sums. */
static inline void long_hands(int mask, const uint32_t *kept, int64_t *hands, int width) {
    for (int lane = 0; lane < width; lane++) {
        if ((mask >> lane) & 1) {
            uint64_t k = kept[lane];
            hands[HAND_BUCKETS] += (int64_t)k;
            hands[HAND_BUCKETS + 1] += (int64_t)(k * k);
        }
    }
}

/* The lanes' PCG64 states and increments unpacked into an array of each half, as the vector words
 * (simd256.c, simd512.c) load them, and the states packed back after. */
static inline void lanes_unpack(const hazard_lane *bits, int lanes, uint64_t *sh, uint64_t *sl, uint64_t *ih,
                                uint64_t *il) {
    for (int lane = 0; lane < lanes; lane++) {
        sh[lane] = bits[lane].state_high;
        sl[lane] = bits[lane].state_low;
        ih[lane] = bits[lane].inc_high;
        il[lane] = bits[lane].inc_low;
    }
}

static inline void lanes_pack(hazard_lane *bits, int lanes, const uint64_t *sh, const uint64_t *sl) {
    for (int lane = 0; lane < lanes; lane++) {
        bits[lane].state_high = sh[lane];
        bits[lane].state_low = sl[lane];
    }
}

/* The rare word at or over the limit, for each of eight lanes set in `rejected`: that lane's next words
 * drawn by native.c's generator, one at a time, until one is accepted (into words), its state (the halves
 * from lanes_unpack, at the eight lanes' first) moved on as far. */
static inline void lanes_draw_again(int rejected, uint64_t *words, uint64_t *sh, uint64_t *sl, const uint64_t *ih,
                                    const uint64_t *il) {
    for (int k = 0; k < 8; k++) {
        if ((rejected >> k) & 1) {
            hazard_lane one_lane = {sh[k], sl[k], ih[k], il[k]};
            while (words[k] >= WORD_LIMIT) {
                hazard_lane_words(&one_lane, &words[k], 1);
            }
            sh[k] = one_lane.state_high;
            sl[k] = one_lane.state_low;
        }
    }
}

#endif

#ifdef HAZARD_X86_SIMD
/* simd256.c: the AVX2 path's words; simd512.c: the AVX-512 path's words and batch (simd.c's play_group
 * calls them). */
void hazard_avx2_words(hazard_lane *bits, int lanes, uint32_t *low, uint32_t *high, int n);
void hazard_avx512_words(hazard_lane *bits, int lanes, uint32_t *low, uint32_t *high, int n);
void hazard_avx512_batch(vector_lanes *v, int with_hands, int64_t *nk, int64_t *nh);
#endif

#ifdef HAZARD_ARM_SIMD
/* simdneon.c: the NEON path's packer and batch (simd.c's play_group calls them; its words are native.c's
 * hazard_lanes_split_words). */
#define NEON_LANES 16
void hazard_neon_packer_of(packer *p);
void hazard_neon_batch(vector_lanes *v, const packer *p, int with_hands, int64_t *nk, int64_t *nh);
#endif

#ifdef HAZARD_VECTOR_SIMD
/* A batch played unchecked, and again checked from the same lanes (their state and the long hands' sums
 * as they were) where a round may have reached the last bucket: rare (craps: none in 7,505 batches;
 * wikipedia: 2 in 10,681), and 4-8% faster on AVX2 than every step checked, by A/B. One macro for the AVX2
 * and NEON batches, so that what is saved and restored stays the same on both: `attributes` the path's
 * target (or nothing), `lanes` its lanes, `digits` and `batch` its functions, `with_hands` a constant. */
#define BATCH_REPLAYED(name, attributes, lanes, digits, batch, with_hands)                               \
    attributes static void name(vector_lanes *v, const packer *p, int64_t *nk, int64_t *nh) {           \
        uint32_t saved[4 * (lanes)]; /* offset, throws, streak, kept */                                   \
        int64_t sums[2] = {v->hands[HAND_BUCKETS], v->hands[HAND_BUCKETS + 1]}; /* the long hands' */     \
        memcpy(saved, v->offset, sizeof(saved));                                                           \
        digits(v);                                                                                         \
        if (batch(v, p, with_hands, 0, nk, nh)) {                                                          \
            memcpy(v->offset, saved, sizeof(saved));                                                       \
            v->hands[HAND_BUCKETS] = sums[0];                                                              \
            v->hands[HAND_BUCKETS + 1] = sums[1];                                                          \
            batch(v, p, with_hands, 1, nk, nh);                                                            \
        }                                                                                                  \
    }
#endif

#endif
