/*
 * Several blocks of rounds in one call (hazard_play_blocks), their lanes' table steps taken many lanes at a
 * time with vector gathers where the CPU has them (AVX2, AVX-512), or with many chains of scalar loads in
 * step (NEON, in simdneon.c), chosen at run time; the portable path (native.c's hazard_play_block, a block
 * at a time) is always built and is the only one elsewhere (MSVC, other CPUs, an x86 CPU without AVX2).
 * Every path gives the same counts for a seed, to the bit: each lane draws the same words and takes their
 * digits in the same order (lowest first), plays the same rounds and stops at the same quota; only which
 * of the four copies of the counts a round goes to differs, and the copies are added up. The tests hold
 * every path this CPU has to the portable one and to the reference, and the NEON path, under emulation,
 * to this CPU's (tests/sim/test_sim_arm.py).
 *
 * How a vector path plays: in batches of BATCH_WORDS words a lane, while every lane is more than a batch's
 * throws from its quota (a throw ends at most one round), (1) each lane's words are drawn (four lanes to
 * a vector on AVX2, in simd256.c; eight on AVX-512, in simd512.c; one at a time on NEON, by native.c's
 * hazard_lanes_split_words; the same words as native.c's generator) and split into their low six and high
 * five digits, (2) the digits of all lanes are taken out four, eight or sixteen lanes at a time (a
 * multiply-high division by 36: on AVX2 in 16 bits, each half split at 36^3 first), (3) all lanes step
 * through their digits together: one gather of the table a step for eight or sixteen lanes (four loads
 * for four on NEON), each round that ends leaving a key (its outcome's row and its throws' bucket) packed
 * into a list, and each hand of the dice that passes a key of its own (no round tested a step for the last
 * bucket of throws: the rare batch in which one may have reached it is played again, checked), (4) the
 * keys are counted. Then each lane is finished alone, as the portable path plays it. No compiler builtin
 * (the tests forbid them): the CPU is asked with <cpuid.h> (x86) or the auxiliary vector (Linux on
 * aarch64).
 */

#include <string.h>

#include "simd.h"

#if defined(HAZARD_ARM_SIMD) && defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1 << 1)
#endif
#endif

_Static_assert(COUNT_WIDTH % 2 == 0, "a table entry holds half an outcome's row");

/* The paths this CPU and its operating system can run, as bits (1 << PATH_...). */
#ifdef HAZARD_X86_SIMD
__attribute__((target("xsave"))) static uint64_t os_state(void) { return (uint64_t)_xgetbv(0); }
#endif

static int64_t cpu_paths(void) {
    int64_t paths = 1 << PATH_PORTABLE;
#ifdef HAZARD_X86_SIMD
    unsigned a, b, c, d;
    if (!__get_cpuid_count(1, 0, &a, &b, &c, &d)) {
        return paths;
    }
    if (!((c >> 27) & 1) || !((c >> 28) & 1)) { /* OSXSAVE and AVX: else no vector state is saved */
        return paths;
    }
    uint64_t state = os_state();
    if ((state & 6) != 6) { /* the OS saves the XMM and YMM registers */
        return paths;
    }
    if (!((c >> 23) & 1) || !__get_cpuid_count(7, 0, &a, &b, &c, &d)) { /* POPCNT, which both paths use */
        return paths;
    }
    if ((b >> 5) & 1) { /* AVX2 */
        paths |= 1 << PATH_AVX2;
    }
    /* AVX-512 F, DQ, BW, VL, and the OS saving the mask and upper ZMM registers */
    if ((state & 0xE6) == 0xE6 && ((b >> 16) & 1) && ((b >> 17) & 1) && ((b >> 30) & 1) && ((b >> 31) & 1)) {
        paths |= 1 << PATH_AVX512;
    }
#elif defined(HAZARD_ARM_SIMD) && defined(__linux__)
    if (getauxval(AT_HWCAP) & HWCAP_ASIMD) { /* the kernel says the CPU has Advanced SIMD (NEON) */
        paths |= 1 << PATH_NEON;
    }
#elif defined(HAZARD_ARM_SIMD)
    paths |= 1 << PATH_NEON; /* ARMv8-A has Advanced SIMD in every profile an OS runs on */
#endif
    return paths;
}

/* Which paths this build and CPU offer, as bits (1 << path: 0 portable, 1 AVX2, 2 AVX-512, 3 NEON). */
EXPORT int64_t hazard_kernel_paths(void) { return cpu_paths(); }

#ifdef HAZARD_VECTOR_SIMD

static int64_t min_remaining(const int64_t *quotas, const int64_t *done, int lanes) {
    int64_t least = INT64_MAX;
    for (int lane = 0; lane < lanes; lane++) {
        int64_t left = quotas[lane] - done[lane];
        least = left < least ? left : least;
    }
    return least;
}

/* The keys a batch left, counted four copies in turn (as tally.c does, so that repeats do not wait). */
static void count_keys(const uint32_t *restrict keys, int64_t n, int64_t *restrict counts, int64_t copy) {
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        counts[keys[i]] += 1;
        counts[copy + keys[i + 1]] += 1;
        counts[2 * copy + keys[i + 2]] += 1;
        counts[3 * copy + keys[i + 3]] += 1;
    }
    for (; i < n; i++) {
        counts[(i & 3) * copy + keys[i]] += 1;
    }
}

/* A hand's key as the AVX2 and NEON batches leave it where every counted loss passes the dice (the rounds
 * kept, not yet put in a bucket): its bucket, its exact sums added where that is the last (rare), so that
 * the batch tests no hand a step for it. */
static inline uint32_t hand_bucket(uint32_t kept, int64_t *restrict hands) {
    if (kept >= HAND_BUCKETS - 1) {
        hands[HAND_BUCKETS] += (int64_t)kept;
        hands[HAND_BUCKETS + 1] += (int64_t)kept * (int64_t)kept;
        return HAND_BUCKETS - 1;
    }
    return kept;
}

/* The hands' keys of an AVX2 or NEON batch counted, four copies in turn (as count_keys). */
static void count_hand_keys(const uint32_t *restrict keys, int64_t n, int64_t *restrict hands) {
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        hands[hand_bucket(keys[i], hands)] += 1;
        hands[HAND_WIDTH + hand_bucket(keys[i + 1], hands)] += 1;
        hands[2 * HAND_WIDTH + hand_bucket(keys[i + 2], hands)] += 1;
        hands[3 * HAND_WIDTH + hand_bucket(keys[i + 3], hands)] += 1;
    }
    for (; i < n; i++) {
        hands[(i & 3) * HAND_WIDTH + hand_bucket(keys[i], hands)] += 1;
    }
}

/* The work space of a group of lanes: everything a vector path reads and writes, allocated once a call. */
static void vector_lanes_free(vector_lanes *v) {
    free(v->table);
    free(v->low);
    free(v->high);
    free(v->digits);
    free(v->keys);
    free(v->hand_keys);
    free(v->offset);
}

static int vector_lanes_of(vector_lanes *v, int lanes, const uint64_t *restrict entries, int64_t n_entries,
                           const int64_t *restrict rule, int64_t codes) {
    size_t keys = (size_t)BATCH_STEPS * (size_t)lanes + 16; /* a vector's store may run 16 past the last key */
    v->lanes = lanes;
    v->table = malloc(sizeof(uint32_t) * (size_t)(n_entries > 0 ? n_entries : 1));
    v->low = malloc(sizeof(uint32_t) * BATCH_WORDS * (size_t)lanes);
    v->high = malloc(sizeof(uint32_t) * BATCH_WORDS * (size_t)lanes);
    v->digits = malloc(sizeof(uint32_t) * BATCH_STEPS * (size_t)lanes);
    v->keys = malloc(sizeof(uint32_t) * keys);
    v->hand_keys = malloc(sizeof(uint32_t) * keys);
    v->offset = malloc(sizeof(uint32_t) * 5 * (size_t)lanes);
    if (!v->table || !v->low || !v->high || !v->digits || !v->keys || !v->hand_keys || !v->offset) {
        vector_lanes_free(v);
        return 0;
    }
    v->throws = v->offset + lanes;
    v->streak = v->offset + 2 * lanes;
    v->kept = v->offset + 3 * lanes;
    v->rounds = v->offset + 4 * lanes;
    for (int64_t j = 0; j < n_entries; j++) {
        uint64_t code = entries[j] >> CODE_SHIFT;
        uint64_t flags = code != 0 && (int64_t)code < codes ? (uint64_t)rule[code] & 7 : 0;
        v->table[j] = (uint32_t)((entries[j] & NEXT_MASK) | (((entries[j] >> THROW_BIT) & 1) << ENTRY_THROW) |
                                 (flags << ENTRY_WIN) | ((code * (COUNT_WIDTH / 2)) << ENTRY_ROW));
    }
    /* the streak is at most a lane's rounds: an `after` past 32 bits is never reached, as in 64. After 0 or
     * 1, every counted loss passes the dice, even one that also wins (as tally.c has it): after 0 here, so
     * that no streak is needed */
    v->after = rule[0] < 0 || rule[0] > (int64_t)UINT32_MAX ? UINT32_MAX : rule[0] <= 1 ? 0 : (uint32_t)rule[0];
    v->hands_on = hazard_rule_passes(rule, codes);
    v->every_loss = v->after == 0;
    return 1;
}

#endif

#ifdef HAZARD_X86_SIMD
/* --- AVX2: sixteen lanes, two vectors of eight -------------------------------------------------------- */

#define AVX2_LANES 16

/* x split at 36^3 for eight 32-bit x below 36^6: x / 36^3 as x * ceil(2^47 / 36^3) >> 47 (the error,
 * below x / 2^47, stays under 1 / 36^3 there), the even and odd lanes multiplied apart; x % 36^3 in 16
 * bits (it is below 2^16) into *rest. */
__attribute__((target(AVX2_TARGET))) static inline __m256i split3_avx2(__m256i x, __m256i *rest) {
    const __m256i magic = _mm256_set1_epi32((int)3016492806U), cube = _mm256_set1_epi32(46656);
    const __m256i low16 = _mm256_set1_epi32(0xFFFF);
    __m256i even = _mm256_srli_epi64(_mm256_mul_epu32(x, magic), 47);
    __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(x, 32), magic);
    __m256i q = _mm256_or_si256(even, _mm256_slli_epi64(_mm256_srli_epi64(odd, 47), 32));
    *rest = _mm256_and_si256(_mm256_sub_epi16(x, _mm256_mullo_epi16(q, cube)), low16);
    return q;
}

/* The digits of eight x below 36^3 (each in the low 16 bits of its lane), from the bottom: `count` - 1
 * of them by division, the last what is left. x / 36 in 16 bits, x * ceil(2^21 / 36) >> 21: exact for
 * every x below 2^16 (the error, below 0.025, stays under 1/36). */
__attribute__((target(AVX2_TARGET))) static inline void digits_avx2(__m256i x, int count, uint32_t *out,
                                                                int stride) {
    const __m256i magic = _mm256_set1_epi32(58255), base = _mm256_set1_epi32(36);
    for (int k = 0; k < count - 1; k++) {
        __m256i q = _mm256_srli_epi16(_mm256_mulhi_epu16(x, magic), 5);
        _mm256_storeu_si256((__m256i *)(out + k * stride), _mm256_sub_epi16(x, _mm256_mullo_epi16(q, base)));
        x = q;
    }
    _mm256_storeu_si256((__m256i *)(out + (count - 1) * stride), x);
}

static void packer_of(packer *p) {
    for (int m = 0; m < 256; m++) {
        int n = 0;
        for (int lane = 0; lane < 8; lane++) {
            p->lut[m][lane] = 0;
        }
        for (int lane = 0; lane < 8; lane++) {
            if ((m >> lane) & 1) {
                p->lut[m][n++] = (uint32_t)lane;
            }
        }
    }
}

/* A batch's digits: each lane's words taken apart, [step][lane], into v->digits. */
__attribute__((target(AVX2_TARGET))) static void batch_digits_avx2(vector_lanes *v) {
    const int n = AVX2_LANES;
    for (int w = 0; w < BATCH_WORDS; w++) {
        for (int g = 0; g < n; g += 8) {
            uint32_t *out = v->digits + (w * DIGITS_PER_WORD) * n + g;
            __m256i low_rest, high_rest; /* the word's digits three at a time: 36^3 fits 16 bits */
            __m256i low_top = split3_avx2(_mm256_loadu_si256((const __m256i *)(v->low + w * n + g)), &low_rest);
            __m256i high_top = split3_avx2(_mm256_loadu_si256((const __m256i *)(v->high + w * n + g)), &high_rest);
            digits_avx2(low_rest, 3, out, n);
            digits_avx2(low_top, 3, out + 3 * n, n);
            digits_avx2(high_rest, 3, out + 6 * n, n);
            digits_avx2(high_top, 2, out + 9 * n, n);
        }
    }
}

/* One batch of every lane stepped through its digits, the keys left in v->keys and v->hand_keys (their
 * numbers returned through nk and nh). `with_hands` (0, HANDS_STREAK or HANDS_EVERY_LOSS) and `checked`
 * are constant at each call, so that a ruleset whose dice never pass is compiled without the hands' work,
 * and one whose every counted loss passes them without the streak's. Checked, a round that reaches the
 * last bucket of throws is put there and its exact sums added (long_rounds); unchecked, none may (a key
 * is the throws plus the entry's step, with no min and no test a step), and the batch returns whether
 * some round may have (the throws' most, kept across the steps), for the caller to play it again checked. */
__attribute__((target(AVX2_TARGET))) static inline int batch_avx2(vector_lanes *v, const packer *p, int with_hands,
                                                              int checked, int64_t *nk, int64_t *nh) {
    const int n = AVX2_LANES;
    const __m256i next = _mm256_set1_epi32((int)ENTRY_NEXT), one = _mm256_set1_epi32(1);
    const __m256i last = _mm256_set1_epi32(THROW_BUCKETS - 1);
    const __m256i below = _mm256_set1_epi32(THROW_BUCKETS - 2); /* > this: in the last bucket */
    const __m256i win_bit = _mm256_set1_epi32(1 << ENTRY_WIN), main_bit = _mm256_set1_epi32(1 << ENTRY_NO_MAIN);
    const __m256i loss_bit = _mm256_set1_epi32(1 << ENTRY_LOSS), zero = _mm256_setzero_si256();
    const __m256i step_mask = _mm256_set1_epi32((int)ENTRY_STEP);
    /* streak >= after as a signed streak > after - 1: a streak is below a lane's quota, below 2^31 - 1 */
    const __m256i before = _mm256_set1_epi32((int)(v->after < INT32_MAX ? v->after : INT32_MAX) - 1);
    __m256i o[2], t[2], streak[2], kept[2], rounds[2], most; /* one for both: the registers are few */
    for (int g = 0; g < 2; g++) {
        o[g] = _mm256_loadu_si256((const __m256i *)(v->offset + 8 * g));
        t[g] = _mm256_loadu_si256((const __m256i *)(v->throws + 8 * g));
        streak[g] = _mm256_loadu_si256((const __m256i *)(v->streak + 8 * g));
        kept[g] = _mm256_loadu_si256((const __m256i *)(v->kept + 8 * g));
        rounds[g] = zero;
    }
    /* a round reaches the last bucket only from 62 throws, which it had at the end of a step or at the start */
    most = _mm256_max_epu32(t[0], t[1]);
    const int *table = (const int *)v->table;
    const uint32_t *digits = v->digits; /* held here: the keys' stores would have it read again each step */
    uint32_t *keys = v->keys, *hand_keys = v->hand_keys;
    int64_t k = 0, h = 0;
    for (int s = 0; s < BATCH_STEPS; s++) {
#pragma GCC unroll 2 /* both vectors' steps in one body, each vector's state in registers */
        for (int g = 0; g < 2; g++) {
            __m256i d = _mm256_loadu_si256((const __m256i *)(digits + s * n + 8 * g));
            __m256i e = _mm256_i32gather_epi32(table, _mm256_add_epi32(o[g], d), 4);
            o[g] = _mm256_and_si256(e, next);
            __m256i shifted = _mm256_srli_epi32(e, ENTRY_THROW); /* the rule bits, the row, the throw */
            __m256i step = _mm256_and_si256(shifted, step_mask);
            __m256i end = _mm256_cmpgt_epi32(shifted, one); /* a row (the rule bits come only with one) */
            int m = _mm256_movemask_ps(_mm256_castsi256_ps(end));
            __m256i key;
            if (checked) {
                __m256i row = _mm256_andnot_si256(one, step);
                t[g] = _mm256_add_epi32(t[g], _mm256_and_si256(step, one));
                key = _mm256_add_epi32(row, _mm256_min_epu32(t[g], last));
                int longer = m & _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(t[g], below)));
                if (longer) { /* rare: a round of 63 throws or more */
                    uint32_t tl[8], rl[8];
                    _mm256_storeu_si256((__m256i *)tl, t[g]);
                    _mm256_storeu_si256((__m256i *)rl, row);
                    long_rounds(longer, tl, rl, v->counts, 8);
                }
                t[g] = _mm256_andnot_si256(end, t[g]);
            } else { /* the key is the throws so far plus the step; where the round goes on, the throws */
                key = _mm256_add_epi32(t[g], step);
                t[g] = _mm256_andnot_si256(end, key);
                most = _mm256_max_epu32(most, t[g]);
            }
            __m256i order = _mm256_loadu_si256((const __m256i *)p->lut[m]);
            _mm256_storeu_si256((__m256i *)(keys + k), _mm256_permutevar8x32_epi32(key, order));
            k += _mm_popcnt_u32((unsigned)m);
            rounds[g] = _mm256_sub_epi32(rounds[g], end);
            if (with_hands) { /* the entry's rule bits are 0 where the round goes on */
                __m256i win = _mm256_cmpeq_epi32(_mm256_and_si256(e, win_bit), win_bit);
                __m256i no_main = _mm256_cmpeq_epi32(_mm256_and_si256(e, main_bit), main_bit);
                __m256i loss = _mm256_cmpeq_epi32(_mm256_and_si256(e, loss_bit), loss_bit);
                kept[g] = _mm256_sub_epi32(kept[g], _mm256_andnot_si256(no_main, end));
                __m256i passed = _mm256_or_si256(no_main, loss);
                if (with_hands == HANDS_STREAK) { /* else every counted loss passes, and the streak stays 0 */
                    streak[g] = _mm256_andnot_si256(win, _mm256_sub_epi32(streak[g], loss));
                    __m256i reached = _mm256_cmpgt_epi32(streak[g], before);
                    passed = _mm256_or_si256(no_main, _mm256_and_si256(loss, reached));
                }
                int pm = _mm256_movemask_ps(_mm256_castsi256_ps(passed));
                /* where every counted loss passes, the rounds kept as they are (count_hand_keys buckets
                 * them); with a streak, bucketed here (unbucketed was 8-15% slower there, by A/B) */
                __m256i hand = with_hands == HANDS_STREAK ? _mm256_min_epu32(kept[g], last) : kept[g];
                order = _mm256_loadu_si256((const __m256i *)p->lut[pm]);
                _mm256_storeu_si256((__m256i *)(hand_keys + h), _mm256_permutevar8x32_epi32(hand, order));
                h += _mm_popcnt_u32((unsigned)pm);
                int long_hand = 0;
                if (with_hands == HANDS_STREAK) {
                    long_hand = pm & _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(kept[g], below)));
                }
                if (long_hand) { /* rare: a hand of 63 rounds or more */
                    uint32_t kl[8];
                    _mm256_storeu_si256((__m256i *)kl, kept[g]);
                    long_hands(long_hand, kl, v->hands, 8);
                }
                if (with_hands == HANDS_STREAK) {
                    streak[g] = _mm256_andnot_si256(passed, streak[g]);
                }
                kept[g] = _mm256_andnot_si256(passed, kept[g]);
            }
        }
    }
    for (int g = 0; g < 2; g++) {
        _mm256_storeu_si256((__m256i *)(v->offset + 8 * g), o[g]);
        _mm256_storeu_si256((__m256i *)(v->throws + 8 * g), t[g]);
        _mm256_storeu_si256((__m256i *)(v->streak + 8 * g), streak[g]);
        _mm256_storeu_si256((__m256i *)(v->kept + 8 * g), kept[g]);
        _mm256_storeu_si256((__m256i *)(v->rounds + 8 * g), rounds[g]);
    }
    *nk = k;
    *nh = h;
    __m256i reached = _mm256_cmpgt_epi32(most, _mm256_set1_epi32(THROW_BUCKETS - 3));
    return !checked && _mm256_movemask_ps(_mm256_castsi256_ps(reached)) != 0;
}

/* The AVX2 batches, one for each kind of hands' work (simd.h's BATCH_REPLAYED). */
#define BATCH_AVX2(name, with_hands)                                                                       \
    BATCH_REPLAYED(name, __attribute__((target(AVX2_TARGET))), AVX2_LANES, batch_digits_avx2, batch_avx2,   \
                   with_hands)
BATCH_AVX2(batch_avx2_hands, HANDS_STREAK)
BATCH_AVX2(batch_avx2_every_loss, HANDS_EVERY_LOSS)
BATCH_AVX2(batch_avx2_counts, 0)

/* A batch on the AVX2 path, of its kind of hands' work. */
static void avx2_batch(vector_lanes *v, const packer *p, int with_hands, int64_t *nk, int64_t *nh) {
    if (with_hands == HANDS_EVERY_LOSS) {
        batch_avx2_every_loss(v, p, nk, nh);
    } else if (with_hands == HANDS_STREAK) {
        batch_avx2_hands(v, p, nk, nh);
    } else {
        batch_avx2_counts(v, p, nk, nh);
    }
}
#endif

#ifdef HAZARD_VECTOR_SIMD
/* --- a group of lanes, on a vector path ---------------------------------------------------------------- */

/* A group's packer, its words for a batch and its batch, on `path` (one this build has). */
static void group_packer(packer *p) {
#ifdef HAZARD_X86_SIMD
    packer_of(p);
#else
    hazard_neon_packer_of(p);
#endif
}

static void group_words(int64_t path, hazard_lane *bits, vector_lanes *v) {
#ifdef HAZARD_X86_SIMD
    if (path == PATH_AVX512) {
        hazard_avx512_words(bits, v->lanes, v->low, v->high, BATCH_WORDS);
    } else {
        hazard_avx2_words(bits, v->lanes, v->low, v->high, BATCH_WORDS);
    }
#else
    (void)path; /* NEON has no 64-bit multiply: native.c's generator, four lanes in step, is as good */
    hazard_lanes_split_words(bits, v->lanes, v->low, v->high, BATCH_WORDS);
#endif
}

static void group_batch(int64_t path, vector_lanes *v, const packer *p, int64_t *nk, int64_t *nh) {
    int with_hands = !v->hands_on ? 0 : v->every_loss ? HANDS_EVERY_LOSS : HANDS_STREAK;
#ifdef HAZARD_X86_SIMD
    if (path == PATH_AVX512) {
        hazard_avx512_batch(v, with_hands, nk, nh);
    } else {
        avx2_batch(v, p, with_hands, nk, nh);
    }
#else
    (void)path;
    hazard_neon_batch(v, p, with_hands, nk, nh);
#endif
}

/* `lanes` lanes (16 on AVX2 and NEON, or 32 or 64 on AVX-512), batches in step while every lane is
 * more than a batch from its quota, then each finished alone (hazard_play_lane_rest). */
static int64_t play_group(int64_t path, hazard_lane *bits, int lanes, const int64_t *restrict quotas,
                          int64_t chunk, const uint64_t *restrict entries, int64_t n_entries, int64_t start,
                          const int64_t *restrict rule, int64_t codes, int64_t *restrict counts,
                          int64_t *restrict hands) {
    vector_lanes v;
    packer *p = malloc(sizeof(packer));
    int64_t longest = 0;
    for (int lane = 0; lane < lanes; lane++) {
        longest = quotas[lane] > longest ? quotas[lane] : longest;
    }
    uint64_t *log = malloc(sizeof(uint64_t) * (size_t)((chunk < longest ? chunk : longest) + 1));
    if (p == NULL || log == NULL || !vector_lanes_of(&v, lanes, entries, n_entries, rule, codes)) {
        free(p);
        free(log);
        return -2;
    }
    group_packer(p);
    v.counts = counts;
    v.hands = hands;
    int64_t done[MAX_LANES];
    for (int lane = 0; lane < lanes; lane++) {
        v.offset[lane] = (uint32_t)start;
        v.throws[lane] = v.streak[lane] = v.kept[lane] = 0;
        done[lane] = 0;
    }
    const int64_t copy = codes * COUNT_WIDTH;
    while (min_remaining(quotas, done, lanes) > BATCH_STEPS) {
        group_words(path, bits, &v);
        int64_t nk, nh;
        group_batch(path, &v, p, &nk, &nh);
        count_keys(v.keys, nk, counts, copy);
        if (path == PATH_AVX512 || !v.every_loss) { /* the hands' keys already bucketed (else AVX2, NEON) */
            count_keys(v.hand_keys, nh, hands, HAND_WIDTH);
        } else {
            count_hand_keys(v.hand_keys, nh, hands);
        }
        for (int lane = 0; lane < lanes; lane++) {
            done[lane] += v.rounds[lane];
        }
    }
    for (int lane = 0; lane < lanes; lane++) {
        uint64_t carry[4] = {v.offset[lane], v.throws[lane], 0, 0};
        int64_t hand[2] = {v.streak[lane], v.kept[lane]};
        hazard_play_lane_rest(&bits[lane], quotas[lane] - done[lane], chunk, entries, carry, hand, rule, codes,
                              v.hands_on, counts, hands, log);
    }
    vector_lanes_free(&v);
    free(p);
    free(log);
    return 0;
}

/* Whether every lane's quota is below 2^31: a vector path counts a lane's throws, rounds and hand in
 * 32 bits (a block's lane plays 2^17 rounds). */
static int fits_32_bits(const int64_t *quotas, int lanes) {
    for (int lane = 0; lane < lanes; lane++) {
        if (quotas[lane] >= ((int64_t)1 << 31)) {
            return 0;
        }
    }
    return 1;
}
#endif

/* hazard_play_blocks: `blocks` blocks, block b's lanes lanes[2b] and lanes[2b + 1] with quotas
 * quotas[2b], quotas[2b + 1], all played from `start` and tallied into the one counts and hands (as
 * hazard_play_block has them: the blocks' counts added up). `path` is a path of hazard_kernel_paths, or -1
 * for the best; a path the CPU lacks returns -3, memory short -2, else 0. A vector path plays its lanes
 * in groups: AVX-512 32 blocks (four vectors of 16 lanes) at a time, then 16 (two vectors), then as AVX2
 * does, 8 (two vectors of 8); NEON 8 (four vectors of 4); blocks left over are played as the portable path
 * plays them. */
EXPORT int64_t hazard_play_blocks(hazard_lane *lanes, int64_t blocks, const int64_t *restrict quotas,
                                  int64_t chunk, const uint64_t *restrict entries, int64_t n_entries,
                                  int64_t start, const uint64_t *restrict low, const uint64_t *restrict high,
                                  const int64_t *restrict rule, int64_t codes, int64_t *restrict counts,
                                  int64_t *restrict hands, int64_t path) {
    int64_t paths = cpu_paths();
    if (path < 0) { /* the best: the highest this CPU has (a build has AVX2 and AVX-512, or NEON) */
        path = PATH_NEON;
        while (path > PATH_PORTABLE && !((paths >> path) & 1)) {
            path--;
        }
    }
    if (path > PATH_NEON || !((paths >> path) & 1)) {
        return -3;
    }
    int64_t b = 0;
#ifdef HAZARD_VECTOR_SIMD
    /* the widest groups first, then narrower ones for the blocks left over, then the portable path */
    static const struct {
        int64_t path, blocks;
#ifdef HAZARD_X86_SIMD
    } groups[] = {{PATH_AVX512, 32}, {PATH_AVX512, 16}, {PATH_AVX2, 8}};
#else
    } groups[] = {{PATH_NEON, 8}};
#endif
    int fit = codes <= MAX_CODES && n_entries <= MAX_ENTRIES;
    for (int n = 0; n < (int)(sizeof groups / sizeof groups[0]) && fit && path != PATH_PORTABLE; n++) {
        int64_t group = groups[n].blocks, on = groups[n].path;
        if (on > path || !((paths >> on) & 1)) {
            continue;
        }
        for (; b + group <= blocks && fits_32_bits(quotas + 2 * b, 2 * (int)group); b += group) {
            int64_t result = play_group(on, lanes + 2 * b, 2 * (int)group, quotas + 2 * b, chunk, entries,
                                        n_entries, start, rule, codes, counts, hands);
            if (result != 0) {
                return result;
            }
        }
    }
#endif
    for (; b < blocks; b++) {
        int64_t result = hazard_play_block(&lanes[2 * b], &lanes[2 * b + 1], quotas[2 * b], quotas[2 * b + 1],
                                           chunk, entries, n_entries, start, low, high, rule, codes, counts,
                                           hands);
        if (result != 0) {
            return result;
        }
    }
    return 0;
}
