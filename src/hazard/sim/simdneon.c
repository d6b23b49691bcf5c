/*
 * The NEON path's batch (aarch64; simd.c has the path and its design, and plays the group): sixteen lanes
 * in step, four vectors of four, as AVX2's batch plays sixteen in two vectors of eight, with the same
 * unchecked batch and checked replay and the same three kinds of hands' work, so that every round and hand
 * goes where AVX2 puts it and the counts are the same to the bit.
 *
 * NEON has no gather: a step's table entries are four scalar loads a vector. That is where the gain is
 * argued to be (it is not measured here: there is no ARM machine, and qemu's timing means nothing): the
 * portable path steps two lanes, so two chains of dependent table loads, each load waiting for the last;
 * here sixteen independent chains are in flight, which an out-of-order ARM core overlaps, and all the
 * rest of a step (the digits, the key, the compares, the masks, the packing of keys) is vector work, four
 * lanes an instruction. The words stay scalar (native.c's hazard_lanes_split_words): NEON has no 64x64
 * multiply, and aarch64's umulh makes the portable PCG64 step cheap. No compiler builtin (the tests forbid
 * them): masks are summed from {1, 2, 4, 8} and counted by a table.
 */

#include <string.h>

#include "simd.h"

#ifdef HAZARD_ARM_SIMD

/* Each mask of four lanes' keys packed to the front: the byte shuffle that takes those lanes' 32-bit
 * words, in order (the rest of the vector 0, past the keys kept), and how many they are. */
void hazard_neon_packer_of(packer *p) {
    for (int m = 0; m < 16; m++) {
        int n = 0;
        memset(p->lut[m], 0xFF, sizeof(p->lut[m])); /* an index past the table: vqtbl1q_u8 gives 0 */
        for (int lane = 0; lane < 4; lane++) {
            if ((m >> lane) & 1) {
                for (int byte = 0; byte < 4; byte++) {
                    p->lut[m][4 * n + byte] = (uint8_t)(4 * lane + byte);
                }
                n++;
            }
        }
        p->count[m] = (uint8_t)n;
    }
}

/* A vector of all-ones or zero lanes as a mask of four bits, lane 0 lowest (NEON has no movemask). */
static inline int mask_of(uint32x4_t all_or_none) {
    const uint32_t bits[4] = {1, 2, 4, 8};
    return (int)vaddvq_u32(vandq_u32(all_or_none, vld1q_u32(bits)));
}

/* x split at 36^3 for four 32-bit x below 36^6: x / 36^3 as x * ceil(2^47 / 36^3) >> 47 (as simd.c's
 * split3_avx2: exact below 36^6), the high halves of the 64-bit products taken and shifted by 15; x % 36^3
 * (below 2^16) into *rest. */
static inline uint32x4_t split3_neon(uint32x4_t x, uint32x4_t *rest) {
    const uint32x4_t magic = vdupq_n_u32(3016492806U);
    uint64x2_t low = vmull_u32(vget_low_u32(x), vget_low_u32(magic)), high = vmull_high_u32(x, magic);
    uint32x4_t q = vshrq_n_u32(vuzp2q_u32(vreinterpretq_u32_u64(low), vreinterpretq_u32_u64(high)), 15);
    *rest = vmlsq_n_u32(x, q, 46656);
    return q;
}

/* The digits of four x below 36^3, from the bottom: `count` - 1 of them by division, the last what is
 * left. x / 36 as x * ceil(2^21 / 36) >> 21, exact for every x below 2^16 (as digits_avx2), and in 32
 * bits: x * 58255 stays below 2^32 there. */
static inline void digits_neon(uint32x4_t x, int count, uint32_t *out, int stride) {
    for (int k = 0; k < count - 1; k++) {
        uint32x4_t q = vshrq_n_u32(vmulq_n_u32(x, 58255), 21);
        vst1q_u32(out + k * stride, vmlsq_n_u32(x, q, 36));
        x = q;
    }
    vst1q_u32(out + (count - 1) * stride, x);
}

/* A batch's digits: each lane's words taken apart, [step][lane], into v->digits. */
static void batch_digits_neon(vector_lanes *v) {
    const int n = NEON_LANES;
    for (int w = 0; w < BATCH_WORDS; w++) {
        for (int g = 0; g < n; g += 4) {
            uint32_t *out = v->digits + (w * DIGITS_PER_WORD) * n + g;
            uint32x4_t low_rest, high_rest; /* the word's digits three at a time */
            uint32x4_t low_top = split3_neon(vld1q_u32(v->low + w * n + g), &low_rest);
            uint32x4_t high_top = split3_neon(vld1q_u32(v->high + w * n + g), &high_rest);
            digits_neon(low_rest, 3, out, n);
            digits_neon(low_top, 3, out + 3 * n, n);
            digits_neon(high_rest, 3, out + 6 * n, n);
            digits_neon(high_top, 2, out + 9 * n, n);
        }
    }
}

/* The table's entries at four lanes' offsets: four scalar loads, independent of the other vectors'. */
static inline uint32x4_t entries_at(const uint32_t *table, uint32x4_t at) {
    uint32x4_t e = vdupq_n_u32(table[vgetq_lane_u32(at, 0)]);
    e = vsetq_lane_u32(table[vgetq_lane_u32(at, 1)], e, 1);
    e = vsetq_lane_u32(table[vgetq_lane_u32(at, 2)], e, 2);
    return vsetq_lane_u32(table[vgetq_lane_u32(at, 3)], e, 3);
}

/* Four lanes' values where `mask` is set stored packed at out (four words stored: out must have room),
 * returning how many. */
static inline int64_t pack_neon(const packer *p, int mask, uint32x4_t values, uint32_t *out) {
    uint8x16_t packed = vqtbl1q_u8(vreinterpretq_u8_u32(values), vld1q_u8(p->lut[mask]));
    vst1q_u32(out, vreinterpretq_u32_u8(packed));
    return p->count[mask];
}

/* One batch of every lane stepped through its digits, as simd.c's batch_avx2 steps them (its comment says
 * what `with_hands` and `checked` decide), four vectors in turn a step. */
static inline int batch_neon(vector_lanes *v, const packer *p, int with_hands, int checked, int64_t *nk,
                             int64_t *nh) {
    const int n = NEON_LANES;
    const uint32x4_t next = vdupq_n_u32(ENTRY_NEXT), one = vdupq_n_u32(1);
    const uint32x4_t last = vdupq_n_u32(THROW_BUCKETS - 1);
    const uint32x4_t below = vdupq_n_u32(THROW_BUCKETS - 2); /* > this: in the last bucket */
    const uint32x4_t win_bit = vdupq_n_u32(1U << ENTRY_WIN), main_bit = vdupq_n_u32(1U << ENTRY_NO_MAIN);
    const uint32x4_t loss_bit = vdupq_n_u32(1U << ENTRY_LOSS), zero = vdupq_n_u32(0);
    const uint32x4_t step_mask = vdupq_n_u32(ENTRY_STEP);
    /* streak >= after as a signed streak > after - 1, as AVX2 has it */
    const int32x4_t before = vdupq_n_s32((int32_t)(v->after < INT32_MAX ? v->after : INT32_MAX) - 1);
    /* a round reaches the last bucket only from 62 throws, which it had at a step's end or at the start */
    uint32x4_t o[4], t[4], streak[4], kept[4], rounds[4], most = zero;
    for (int g = 0; g < 4; g++) {
        o[g] = vld1q_u32(v->offset + 4 * g);
        t[g] = vld1q_u32(v->throws + 4 * g);
        streak[g] = vld1q_u32(v->streak + 4 * g);
        kept[g] = vld1q_u32(v->kept + 4 * g);
        rounds[g] = zero;
        most = vmaxq_u32(most, t[g]);
    }
    const uint32_t *table = v->table, *digits = v->digits;
    uint32_t *keys = v->keys, *hand_keys = v->hand_keys;
    int64_t k = 0, h = 0;
    for (int s = 0; s < BATCH_STEPS; s++) {
#pragma GCC unroll 4 /* the four vectors' steps in one body, their loads in flight together */
        for (int g = 0; g < 4; g++) {
            uint32x4_t e = entries_at(table, vaddq_u32(o[g], vld1q_u32(digits + s * n + 4 * g)));
            o[g] = vandq_u32(e, next);
            uint32x4_t shifted = vshrq_n_u32(e, ENTRY_THROW); /* the rule bits, the row, the throw */
            uint32x4_t step = vandq_u32(shifted, step_mask);
            uint32x4_t end = vcgtq_u32(shifted, one); /* a row (the rule bits come only with one) */
            int m = mask_of(end);
            uint32x4_t key;
            if (checked) {
                uint32x4_t row = vbicq_u32(step, one);
                t[g] = vaddq_u32(t[g], vandq_u32(step, one));
                key = vaddq_u32(row, vminq_u32(t[g], last));
                int longer = m & mask_of(vcgtq_u32(t[g], below));
                if (longer) { /* rare: a round of 63 throws or more */
                    uint32_t tl[4], rl[4];
                    vst1q_u32(tl, t[g]);
                    vst1q_u32(rl, row);
                    long_rounds(longer, tl, rl, v->counts, 4);
                }
                t[g] = vbicq_u32(t[g], end);
            } else { /* the key is the throws so far plus the step; where the round goes on, the throws */
                key = vaddq_u32(t[g], step);
                t[g] = vbicq_u32(key, end);
                most = vmaxq_u32(most, t[g]);
            }
            k += pack_neon(p, m, key, keys + k);
            rounds[g] = vsubq_u32(rounds[g], end);
            if (with_hands) { /* the entry's rule bits are 0 where the round goes on */
                uint32x4_t win = vtstq_u32(e, win_bit), no_main = vtstq_u32(e, main_bit);
                uint32x4_t loss = vtstq_u32(e, loss_bit);
                kept[g] = vsubq_u32(kept[g], vbicq_u32(end, no_main));
                uint32x4_t passed = vorrq_u32(no_main, loss);
                if (with_hands == HANDS_STREAK) { /* else every counted loss passes, and the streak stays 0 */
                    streak[g] = vbicq_u32(vsubq_u32(streak[g], loss), win);
                    uint32x4_t reached = vcgtq_s32(vreinterpretq_s32_u32(streak[g]), before);
                    passed = vorrq_u32(no_main, vandq_u32(loss, reached));
                }
                int pm = mask_of(passed);
                /* where every counted loss passes, the rounds kept as they are (count_hand_keys buckets
                 * them); with a streak, bucketed here, as AVX2 does */
                uint32x4_t hand = with_hands == HANDS_STREAK ? vminq_u32(kept[g], last) : kept[g];
                h += pack_neon(p, pm, hand, hand_keys + h);
                int long_hand = with_hands == HANDS_STREAK ? pm & mask_of(vcgtq_u32(kept[g], below)) : 0;
                if (long_hand) { /* rare: a hand of 63 rounds or more */
                    uint32_t kl[4];
                    vst1q_u32(kl, kept[g]);
                    long_hands(long_hand, kl, v->hands, 4);
                }
                if (with_hands == HANDS_STREAK) {
                    streak[g] = vbicq_u32(streak[g], passed);
                }
                kept[g] = vbicq_u32(kept[g], passed);
            }
        }
    }
    for (int g = 0; g < 4; g++) {
        vst1q_u32(v->offset + 4 * g, o[g]);
        vst1q_u32(v->throws + 4 * g, t[g]);
        vst1q_u32(v->streak + 4 * g, streak[g]);
        vst1q_u32(v->kept + 4 * g, kept[g]);
        vst1q_u32(v->rounds + 4 * g, rounds[g]);
    }
    *nk = k;
    *nh = h;
    return !checked && vmaxvq_u32(most) > THROW_BUCKETS - 3;
}

/* The NEON batches, one for each kind of hands' work (simd.h's BATCH_REPLAYED, as AVX2's). */
#define BATCH_NEON(name, with_hands) \
    BATCH_REPLAYED(name, , NEON_LANES, batch_digits_neon, batch_neon, with_hands)
BATCH_NEON(batch_neon_hands, HANDS_STREAK)
BATCH_NEON(batch_neon_every_loss, HANDS_EVERY_LOSS)
BATCH_NEON(batch_neon_counts, 0)

/* A batch of NEON_LANES lanes (simd.c's play_group has drawn their words), of its kind of hands' work. */
void hazard_neon_batch(vector_lanes *v, const packer *p, int with_hands, int64_t *nk, int64_t *nh) {
    if (with_hands == HANDS_EVERY_LOSS) {
        batch_neon_every_loss(v, p, nk, nh);
    } else if (with_hands == HANDS_STREAK) {
        batch_neon_hands(v, p, nk, nh);
    } else {
        batch_neon_counts(v, p, nk, nh);
    }
}
#else
typedef int hazard_no_neon; /* ISO C wants something in a file */
#endif
