/*
 * The AVX-512 path of hazard_play_blocks (simd.c, which has the design): thirty-two lanes, two vectors of
 * sixteen, their words drawn eight lanes at a time (PCG64 in vectors, the same words as native.c's
 * generator) and their table steps taken sixteen lanes to a gather. Compiled for AVX-512 function by
 * function (target attributes), so the file builds with the package's flags; called only where the CPU
 * has AVX-512 (simd.c asks it).
 */

#include <string.h>

#include "simd.h"

#ifdef HAZARD_X86_SIMD
/* --- AVX-512: thirty-two lanes, two vectors of sixteen ------------------------------------------------ */

#define AVX512_VECTORS 4 /* the most vectors of lanes in step: four chains of gathers overlap */
#define AVX512_TARGET "avx512f,avx512bw,avx512dq,avx512vl,popcnt"

__attribute__((target(AVX512_TARGET))) static inline __m512i div36_avx512(__m512i x) {
    const __m512i magic = _mm512_set1_epi32(954437177);
    __m512i even = _mm512_srli_epi64(_mm512_mul_epu32(x, magic), 35);
    __m512i odd = _mm512_mul_epu32(_mm512_srli_epi64(x, 32), magic);
    odd = _mm512_slli_epi64(_mm512_srli_epi64(odd, 35), 32);
    return _mm512_or_si512(even, odd);
}

__attribute__((target(AVX512_TARGET))) static inline void digits_avx512(__m512i x, int count, uint32_t *out,
                                                                       int stride) {
    for (int k = 0; k < count - 1; k++) {
        __m512i q = div36_avx512(x);
        __m512i q36 = _mm512_add_epi32(_mm512_slli_epi32(q, 5), _mm512_slli_epi32(q, 2));
        _mm512_storeu_si512((void *)(out + k * stride), _mm512_sub_epi32(x, q36));
        x = q;
    }
    _mm512_storeu_si512((void *)(out + (count - 1) * stride), x);
}

/* The high 64 bits of a * b for eight 64-bit a and a constant b, from four 32-bit products (no sum
 * overflows: the middle one is at most 2^64 - 1). */
__attribute__((target(AVX512_TARGET))) static inline __m512i mulhi_avx512(__m512i a, uint64_t b) {
    const __m512i b0 = _mm512_set1_epi64((long long)(b & 0xFFFFFFFFULL));
    const __m512i b1 = _mm512_set1_epi64((long long)(b >> 32)), low32 = _mm512_set1_epi64(0xFFFFFFFFLL);
    __m512i a1 = _mm512_srli_epi64(a, 32);
    __m512i t0 = _mm512_mul_epu32(a, b0), t1 = _mm512_mul_epu32(a1, b0);
    __m512i t2 = _mm512_mul_epu32(a, b1), t3 = _mm512_mul_epu32(a1, b1);
    __m512i mid = _mm512_add_epi64(_mm512_add_epi64(_mm512_srli_epi64(t0, 32), _mm512_and_si512(t1, low32)), t2);
    return _mm512_add_epi64(_mm512_add_epi64(t3, _mm512_srli_epi64(t1, 32)), _mm512_srli_epi64(mid, 32));
}

/* x mod m and x / m for eight 64-bit x whose quotient is small (below 2^32): the quotient estimated in
 * double precision, off by at most one, then corrected in integers, so exact. */
__attribute__((target(AVX512_TARGET))) static inline __m512i divmod_avx512(__m512i x, uint64_t m, __m512i *quotient) {
    const __m512i mv = _mm512_set1_epi64((long long)m), zero = _mm512_setzero_si512();
    const __m512i one = _mm512_set1_epi64(1);
    __m512d estimate = _mm512_mul_pd(_mm512_cvtepu64_pd(x), _mm512_set1_pd(1.0 / (double)m));
    __m512i q = _mm512_cvttpd_epu64(estimate);
    __m512i r = _mm512_sub_epi64(x, _mm512_mullo_epi64(q, mv));
    __mmask8 under = _mm512_cmplt_epi64_mask(r, zero);
    r = _mm512_mask_add_epi64(r, under, r, mv);
    q = _mm512_mask_sub_epi64(q, under, q, one);
    __mmask8 over = _mm512_cmpge_epi64_mask(r, mv);
    r = _mm512_mask_sub_epi64(r, over, r, mv);
    *quotient = _mm512_mask_add_epi64(q, over, q, one);
    return r;
}

/* hazard_lanes_split_words's work (the same words, split the same) for lanes a multiple of eight, eight
 * lanes' PCG64 stepped at once: the 128-bit multiply from 64-bit halves, the output's rotation, then the
 * word mod 36^11 and its split at 36^6. A word at or over the limit (about one in a thousand) is drawn
 * again by native.c's generator, for that lane alone. */
__attribute__((target(AVX512_TARGET))) void hazard_avx512_words(hazard_lane *bits, int lanes, uint32_t *low,
                                                               uint32_t *high, int n) {
    uint64_t sh[MAX_LANES], sl[MAX_LANES], ih[MAX_LANES], il[MAX_LANES];
    lanes_unpack(bits, lanes, sh, sl, ih, il);
    const __m512i ml = _mm512_set1_epi64((long long)PCG_MULTIPLIER_LOW), mh = _mm512_set1_epi64((long long)PCG_MULTIPLIER_HIGH);
    const __m512i limit = _mm512_set1_epi64((long long)WORD_LIMIT), one = _mm512_set1_epi64(1);
    for (int i = 0; i < n; i++) {
        for (int g = 0; g < lanes; g += 8) {
            __m512i lo = _mm512_loadu_si512((const void *)(sl + g)), hi = _mm512_loadu_si512((const void *)(sh + g));
            __m512i product = _mm512_mullo_epi64(lo, ml);
            __m512i new_lo = _mm512_add_epi64(product, _mm512_loadu_si512((const void *)(il + g)));
            __m512i new_hi = _mm512_add_epi64(mulhi_avx512(lo, PCG_MULTIPLIER_LOW), _mm512_mullo_epi64(hi, ml));
            new_hi = _mm512_add_epi64(new_hi, _mm512_mullo_epi64(lo, mh));
            new_hi = _mm512_add_epi64(new_hi, _mm512_loadu_si512((const void *)(ih + g)));
            new_hi = _mm512_mask_add_epi64(new_hi, _mm512_cmplt_epu64_mask(new_lo, product), new_hi, one);
            _mm512_storeu_si512((void *)(sl + g), new_lo);
            _mm512_storeu_si512((void *)(sh + g), new_hi);
            __m512i w = _mm512_rorv_epi64(_mm512_xor_si512(new_hi, new_lo), _mm512_srli_epi64(new_hi, 58));
            __mmask8 rejected = _mm512_cmpge_epu64_mask(w, limit);
            if (rejected) { /* rare: that lane's next words, one at a time, until one is accepted */
                uint64_t words[8];
                _mm512_storeu_si512((void *)words, w);
                lanes_draw_again(rejected, words, sh + g, sl + g, ih + g, il + g);
                w = _mm512_loadu_si512((const void *)words);
            }
            __m512i ignored, h;
            __m512i r = divmod_avx512(w, M11, &ignored);
            __m512i l = divmod_avx512(r, M6, &h);
            _mm256_storeu_si256((__m256i *)(low + i * lanes + g), _mm512_cvtepi64_epi32(l));
            _mm256_storeu_si256((__m256i *)(high + i * lanes + g), _mm512_cvtepi64_epi32(h));
        }
    }
    lanes_pack(bits, lanes, sh, sl);
}

/* One batch of `vectors` vectors of sixteen lanes; `vectors`, `with_hands` and `checked` are constant at
 * each call. Checked or not, as simd.c's AVX2 batch: unchecked, it returns whether a round may have
 * reached the last bucket of throws, for the batch to be played again checked. */
__attribute__((target(AVX512_TARGET))) static inline int batch_avx512(vector_lanes *v, int vectors, int with_hands,
                                                                     int checked, int64_t *nk, int64_t *nh) {
    const int n = 16 * vectors;
    for (int w = 0; w < BATCH_WORDS; w++) {
        for (int g = 0; g < n; g += 16) {
            uint32_t *out = v->digits + (w * DIGITS_PER_WORD) * n + g;
            digits_avx512(_mm512_loadu_si512((const void *)(v->low + w * n + g)), 6, out, n);
            digits_avx512(_mm512_loadu_si512((const void *)(v->high + w * n + g)), 5, out + 6 * n, n);
        }
    }
    const __m512i next = _mm512_set1_epi32((int)ENTRY_NEXT), one = _mm512_set1_epi32(1);
    const __m512i last = _mm512_set1_epi32(THROW_BUCKETS - 1);
    const __m512i win_bit = _mm512_set1_epi32(1 << ENTRY_WIN), main_bit = _mm512_set1_epi32(1 << ENTRY_NO_MAIN);
    const __m512i loss_bit = _mm512_set1_epi32(1 << ENTRY_LOSS);
    const __m512i after = _mm512_set1_epi32((int)v->after), zero = _mm512_setzero_si512();
    const __m512i step_mask = _mm512_set1_epi32((int)ENTRY_STEP);
    __m512i o[AVX512_VECTORS], t[AVX512_VECTORS], streak[AVX512_VECTORS], kept[AVX512_VECTORS], rounds[AVX512_VECTORS];
    for (int g = 0; g < vectors; g++) {
        o[g] = _mm512_loadu_si512((const void *)(v->offset + 16 * g));
        t[g] = _mm512_loadu_si512((const void *)(v->throws + 16 * g));
        streak[g] = _mm512_loadu_si512((const void *)(v->streak + 16 * g));
        kept[g] = _mm512_loadu_si512((const void *)(v->kept + 16 * g));
        rounds[g] = zero;
    }
    __m512i most = t[0]; /* as the AVX2 batch: the throws at the start and at the end of each step */
    for (int g = 1; g < vectors; g++) {
        most = _mm512_max_epu32(most, t[g]);
    }
    const void *table = v->table;
    uint32_t *keys = v->keys, *hand_keys = v->hand_keys;
    int64_t k = 0, h = 0;
    for (int s = 0; s < BATCH_STEPS; s++) {
#pragma GCC unroll 4 /* every vector's steps in one body, each vector's state in registers */
        for (int g = 0; g < vectors; g++) {
            __m512i d = _mm512_loadu_si512((const void *)(v->digits + s * n + 16 * g));
            __m512i e = _mm512_i32gather_epi32(_mm512_add_epi32(o[g], d), table, 4);
            o[g] = _mm512_and_si512(e, next);
            __m512i shifted = _mm512_srli_epi32(e, ENTRY_THROW); /* as simd.c's AVX2 batch */
            __m512i step = _mm512_and_si512(shifted, step_mask);
            __mmask16 end = _mm512_cmpgt_epi32_mask(shifted, one);
            __m512i key;
            if (checked) {
                __m512i row = _mm512_andnot_si512(one, step);
                t[g] = _mm512_add_epi32(t[g], _mm512_and_si512(step, one));
                key = _mm512_add_epi32(row, _mm512_min_epu32(t[g], last));
                __mmask16 longer = _mm512_mask_cmpge_epu32_mask(end, t[g], last);
                if (longer) { /* rare: a round of 63 throws or more */
                    uint32_t tl[16], rl[16];
                    _mm512_storeu_si512((void *)tl, t[g]);
                    _mm512_storeu_si512((void *)rl, row);
                    long_rounds(longer, tl, rl, v->counts, 16);
                }
                t[g] = _mm512_maskz_mov_epi32((__mmask16)~end, t[g]);
            } else {
                key = _mm512_add_epi32(t[g], step);
                t[g] = _mm512_maskz_mov_epi32((__mmask16)~end, key);
                most = _mm512_max_epu32(most, t[g]);
            }
            _mm512_storeu_si512((void *)(keys + k), _mm512_maskz_compress_epi32(end, key));
            k += _mm_popcnt_u32(end);
            rounds[g] = _mm512_mask_add_epi32(rounds[g], end, rounds[g], one);
            if (with_hands) { /* the entry's rule bits are 0 where the round goes on */
                __mmask16 win = _mm512_test_epi32_mask(e, win_bit);
                __mmask16 no_main = _mm512_test_epi32_mask(e, main_bit);
                __mmask16 loss = _mm512_test_epi32_mask(e, loss_bit);
                kept[g] = _mm512_mask_add_epi32(kept[g], end & (__mmask16)~no_main, kept[g], one);
                __mmask16 passed = no_main | loss;
                if (with_hands == HANDS_STREAK) { /* else every counted loss passes, and the streak stays 0 */
                    streak[g] = _mm512_mask_add_epi32(streak[g], loss, streak[g], one);
                    streak[g] = _mm512_maskz_mov_epi32((__mmask16)~win, streak[g]);
                    passed = no_main | _mm512_mask_cmpge_epu32_mask(loss, streak[g], after);
                }
                __m512i hand = _mm512_min_epu32(kept[g], last);
                _mm512_storeu_si512((void *)(hand_keys + h), _mm512_maskz_compress_epi32(passed, hand));
                h += _mm_popcnt_u32(passed);
                __mmask16 long_hand = _mm512_mask_cmpge_epu32_mask(passed, kept[g], last);
                if (long_hand) { /* rare: a hand of 63 rounds or more */
                    uint32_t kl[16];
                    _mm512_storeu_si512((void *)kl, kept[g]);
                    long_hands(long_hand, kl, v->hands, 16);
                }
                if (with_hands == HANDS_STREAK) {
                    streak[g] = _mm512_maskz_mov_epi32((__mmask16)~passed, streak[g]);
                }
                kept[g] = _mm512_maskz_mov_epi32((__mmask16)~passed, kept[g]);
            }
        }
    }
    for (int g = 0; g < vectors; g++) {
        _mm512_storeu_si512((void *)(v->offset + 16 * g), o[g]);
        _mm512_storeu_si512((void *)(v->throws + 16 * g), t[g]);
        _mm512_storeu_si512((void *)(v->streak + 16 * g), streak[g]);
        _mm512_storeu_si512((void *)(v->kept + 16 * g), kept[g]);
        _mm512_storeu_si512((void *)(v->rounds + 16 * g), rounds[g]);
    }
    *nk = k;
    *nh = h;
    return !checked && _mm512_cmpgt_epu32_mask(most, _mm512_set1_epi32(THROW_BUCKETS - 3)) != 0;
}

/* One batch of every lane (as simd.c's AVX2 batch, sixteen lanes to a vector, packed by vpcompressd): of
 * four vectors (64 lanes) or two (32), compiled for each of the hands' works (0, HANDS_STREAK,
 * HANDS_EVERY_LOSS, as the AVX2 batch). */
#define BATCH_AVX512(name, vectors, with_hands)                                                            \
    __attribute__((target(AVX512_TARGET))) static void name(vector_lanes *v, int64_t *nk, int64_t *nh) {     \
        uint32_t saved[4 * MAX_LANES]; /* offset, throws, streak, kept */                                  \
        int64_t sums[2] = {v->hands[HAND_BUCKETS], v->hands[HAND_BUCKETS + 1]}; /* the long hands' */     \
        memcpy(saved, v->offset, sizeof(uint32_t) * 4 * (size_t)v->lanes);                                \
        if (batch_avx512(v, vectors, with_hands, 0, nk, nh)) {                                             \
            memcpy(v->offset, saved, sizeof(uint32_t) * 4 * (size_t)v->lanes);                            \
            v->hands[HAND_BUCKETS] = sums[0];                                                              \
            v->hands[HAND_BUCKETS + 1] = sums[1];                                                          \
            batch_avx512(v, vectors, with_hands, 1, nk, nh);                                               \
        }                                                                                                  \
    }
BATCH_AVX512(batch4_counts, AVX512_VECTORS, 0)
BATCH_AVX512(batch4_hands, AVX512_VECTORS, HANDS_STREAK)
BATCH_AVX512(batch4_every_loss, AVX512_VECTORS, HANDS_EVERY_LOSS)
BATCH_AVX512(batch2_counts, 2, 0)
BATCH_AVX512(batch2_hands, 2, HANDS_STREAK)
BATCH_AVX512(batch2_every_loss, 2, HANDS_EVERY_LOSS)

__attribute__((target(AVX512_TARGET))) void hazard_avx512_batch(vector_lanes *v, int with_hands, int64_t *nk,
                                                                int64_t *nh) {
    static void (*const batches[2][3])(vector_lanes *, int64_t *, int64_t *) = {
        {batch2_counts, batch2_hands, batch2_every_loss}, {batch4_counts, batch4_hands, batch4_every_loss}};
    batches[v->lanes == 16 * AVX512_VECTORS][with_hands](v, nk, nh);
}
#else
typedef int hazard_no_avx512; /* ISO C wants something in a file */
#endif
