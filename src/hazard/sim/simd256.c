/*
 * The AVX2 path's words (simd.c has the path and its design): PCG64 four lanes to a vector, the same words
 * as native.c's generator, split into their low six and high five base-36 digits as
 * hazard_lanes_split_words splits them. AVX2 has no 64-bit multiply and no 64-bit conversion to double, so
 * the 128-bit step is built from 32-bit products and the split from multiply-shift estimates corrected in
 * integers. Compiled for AVX2 function by function (a target attribute), so the file builds with the
 * package's flags; called only where the CPU has AVX2 (simd.c asks it).
 */

#include "simd.h"

#ifdef HAZARD_X86_SIMD

/* The quotients' multipliers: floor(2^88 / 36^11) and floor(2^63 / 36^6), each below 2^32 (see split). */
#define M11_RECIPROCAL 2351322014ULL
#define M6_RECIPROCAL 4237158619ULL

/* The low 64 bits of a * b + c * d for four 64-bit a and c, b and d constants given as their 32-bit halves
 * (each in the low half of a 64-bit lane), from six 32-bit products. */
__attribute__((target(AVX2_TARGET))) static inline __m256i mullo2_avx2(__m256i a, __m256i b0, __m256i b1, __m256i c,
                                                                   __m256i d0, __m256i d1) {
    __m256i a1 = _mm256_srli_epi64(a, 32), c1 = _mm256_srli_epi64(c, 32);
    __m256i cross = _mm256_add_epi64(_mm256_add_epi64(_mm256_mul_epu32(a1, b0), _mm256_mul_epu32(a, b1)),
                                     _mm256_add_epi64(_mm256_mul_epu32(c1, d0), _mm256_mul_epu32(c, d1)));
    __m256i base = _mm256_add_epi64(_mm256_mul_epu32(a, b0), _mm256_mul_epu32(c, d0));
    return _mm256_add_epi64(base, _mm256_slli_epi64(cross, 32));
}

/* One step of four lanes' PCG64 (state = state * multiplier + increment, over 128 bits), the new state left
 * in *lo and *hi, and the word it gives (XSL RR of the new state, as native.c's next_word). */
__attribute__((target(AVX2_TARGET))) static inline __m256i step_avx2(__m256i *lo, __m256i *hi, __m256i inc_lo,
                                                                 __m256i inc_hi) {
    const __m256i ml0 = _mm256_set1_epi64x((long long)(PCG_MULTIPLIER_LOW & 0xFFFFFFFFULL));
    const __m256i ml1 = _mm256_set1_epi64x((long long)(PCG_MULTIPLIER_LOW >> 32));
    const __m256i mh0 = _mm256_set1_epi64x((long long)(PCG_MULTIPLIER_HIGH & 0xFFFFFFFFULL));
    const __m256i mh1 = _mm256_set1_epi64x((long long)(PCG_MULTIPLIER_HIGH >> 32));
    const __m256i low32 = _mm256_set1_epi64x(0xFFFFFFFFLL), sign = _mm256_set1_epi64x((long long)(1ULL << 63));
    const __m256i sixty_four = _mm256_set1_epi64x(64);
    __m256i a = *lo, a1 = _mm256_srli_epi64(a, 32);
    /* the low state times the multiplier's low half, all 128 bits (no sum overflows, as native.c's mul_high) */
    __m256i t0 = _mm256_mul_epu32(a, ml0), t1 = _mm256_mul_epu32(a1, ml0);
    __m256i t2 = _mm256_mul_epu32(a, ml1), t3 = _mm256_mul_epu32(a1, ml1);
    __m256i product = _mm256_add_epi64(t0, _mm256_slli_epi64(_mm256_add_epi64(t1, t2), 32));
    __m256i mid = _mm256_add_epi64(_mm256_add_epi64(_mm256_srli_epi64(t0, 32), _mm256_and_si256(t1, low32)), t2);
    __m256i high = _mm256_add_epi64(_mm256_add_epi64(t3, _mm256_srli_epi64(t1, 32)), _mm256_srli_epi64(mid, 32));
    high = _mm256_add_epi64(high, mullo2_avx2(*hi, ml0, ml1, a, mh0, mh1));
    __m256i new_lo = _mm256_add_epi64(product, inc_lo);
    /* the carry out of the low half: new_lo < product, unsigned (a compare gives -1 where true) */
    __m256i carry = _mm256_cmpgt_epi64(_mm256_xor_si256(product, sign), _mm256_xor_si256(new_lo, sign));
    __m256i new_hi = _mm256_sub_epi64(_mm256_add_epi64(high, inc_hi), carry);
    *lo = new_lo;
    *hi = new_hi;
    __m256i x = _mm256_xor_si256(new_hi, new_lo), rot = _mm256_srli_epi64(new_hi, 58);
    /* rotated right; by 0, the left shift by 64 gives 0, as it must */
    return _mm256_or_si256(_mm256_srlv_epi64(x, rot), _mm256_sllv_epi64(x, _mm256_sub_epi64(sixty_four, rot)));
}

/* Four accepted words (below WORD_LIMIT) split as native.c splits them: r = w mod 36^11, then r % 36^6 into
 * *low and r / 36^6 into *high (each below 2^32, in the low half of its 64-bit lane). Each quotient is
 * estimated by a 32-bit multiply and a shift from the top 32 bits of its dividend, which never overestimates
 * and underestimates by at most one (the bits dropped and the multiplier's rounding are each far below one
 * divisor), so one correction makes it exact. */
__attribute__((target(AVX2_TARGET))) static inline void split_avx2(__m256i w, __m256i *low, __m256i *high) {
    const __m256i c11 = _mm256_set1_epi64x((long long)M11_RECIPROCAL), c6 = _mm256_set1_epi64x((long long)M6_RECIPROCAL);
    const __m256i m11_0 = _mm256_set1_epi64x((long long)(M11 & 0xFFFFFFFFULL)), m11_1 = _mm256_set1_epi64x((long long)(M11 >> 32));
    const __m256i m11 = _mm256_set1_epi64x((long long)M11), m6 = _mm256_set1_epi64x((long long)M6);
    const __m256i m11_less = _mm256_set1_epi64x((long long)(M11 - 1)), m6_less = _mm256_set1_epi64x((long long)(M6 - 1));
    /* w / 36^11 < 140 from w's top 32 bits: floor(w_top * c11 / 2^56) */
    __m256i q = _mm256_srli_epi64(_mm256_mul_epu32(_mm256_srli_epi64(w, 32), c11), 56);
    __m256i qm = _mm256_add_epi64(_mm256_mul_epu32(q, m11_0), _mm256_slli_epi64(_mm256_mul_epu32(q, m11_1), 32));
    __m256i r = _mm256_sub_epi64(w, qm); /* below 2 * 36^11 < 2^58: a signed compare serves */
    r = _mm256_sub_epi64(r, _mm256_and_si256(_mm256_cmpgt_epi64(r, m11_less), m11));
    /* r / 36^6 < 2^26 from r's top 32 bits (r < 2^57): floor((r >> 25) * c6 / 2^38) */
    __m256i q6 = _mm256_srli_epi64(_mm256_mul_epu32(_mm256_srli_epi64(r, 25), c6), 38);
    __m256i r6 = _mm256_sub_epi64(r, _mm256_mul_epu32(q6, m6)); /* below 2 * 36^6, which passes 2^32 */
    __m256i over = _mm256_cmpgt_epi64(r6, m6_less);
    *low = _mm256_sub_epi64(r6, _mm256_and_si256(over, m6));
    *high = _mm256_sub_epi64(q6, over);
}

/* Two vectors of four 64-bit lanes' low halves as one vector of eight 32-bit lanes, in order. */
__attribute__((target(AVX2_TARGET))) static inline __m256i narrow_avx2(__m256i a, __m256i b) {
    const __m256i order = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    return _mm256_permutevar8x32_epi32(_mm256_blend_epi32(a, _mm256_slli_epi64(b, 32), 0xAA), order);
}

/* hazard_lanes_split_words's work (the same words, split the same) for lanes a multiple of eight, four
 * lanes' PCG64 to a vector, eight lanes (two vectors, so that their chains of multiplies overlap) at a time
 * through all their words, their states held in registers (4% faster than stored and loaded a word). A word
 * at or over the limit (about one in a thousand) is drawn again by native.c's generator, for that lane
 * alone, as hazard_avx512_words does. */
__attribute__((target(AVX2_TARGET))) void hazard_avx2_words(hazard_lane *bits, int lanes, uint32_t *low,
                                                            uint32_t *high, int n) {
    uint64_t sh[MAX_LANES], sl[MAX_LANES], ih[MAX_LANES], il[MAX_LANES];
    lanes_unpack(bits, lanes, sh, sl, ih, il);
    const __m256i limit_less = _mm256_set1_epi64x((long long)((WORD_LIMIT - 1) ^ (1ULL << 63)));
    const __m256i sign = _mm256_set1_epi64x((long long)(1ULL << 63));
    for (int g = 0; g < lanes; g += 8) {
        __m256i lo[2], hi[2], il_v[2], ih_v[2];
        for (int v = 0; v < 2; v++) {
            lo[v] = _mm256_loadu_si256((const __m256i *)(sl + g + 4 * v));
            hi[v] = _mm256_loadu_si256((const __m256i *)(sh + g + 4 * v));
            il_v[v] = _mm256_loadu_si256((const __m256i *)(il + g + 4 * v));
            ih_v[v] = _mm256_loadu_si256((const __m256i *)(ih + g + 4 * v));
        }
        for (int i = 0; i < n; i++) {
            __m256i w[2];
            int rejected = 0;
            for (int v = 0; v < 2; v++) {
                w[v] = step_avx2(&lo[v], &hi[v], il_v[v], ih_v[v]);
                __m256i over = _mm256_cmpgt_epi64(_mm256_xor_si256(w[v], sign), limit_less);
                rejected |= _mm256_movemask_pd(_mm256_castsi256_pd(over)) << (4 * v);
            }
            if (rejected) { /* rare: that lane's next words, one at a time, until one is accepted */
                uint64_t words[8];
                _mm256_storeu_si256((__m256i *)words, w[0]);
                _mm256_storeu_si256((__m256i *)(words + 4), w[1]);
                for (int v = 0; v < 2; v++) {
                    _mm256_storeu_si256((__m256i *)(sl + g + 4 * v), lo[v]);
                    _mm256_storeu_si256((__m256i *)(sh + g + 4 * v), hi[v]);
                }
                lanes_draw_again(rejected, words, sh + g, sl + g, ih + g, il + g);
                for (int v = 0; v < 2; v++) {
                    lo[v] = _mm256_loadu_si256((const __m256i *)(sl + g + 4 * v));
                    hi[v] = _mm256_loadu_si256((const __m256i *)(sh + g + 4 * v));
                }
                w[0] = _mm256_loadu_si256((const __m256i *)words);
                w[1] = _mm256_loadu_si256((const __m256i *)(words + 4));
            }
            __m256i l0, h0, l1, h1;
            split_avx2(w[0], &l0, &h0);
            split_avx2(w[1], &l1, &h1);
            _mm256_storeu_si256((__m256i *)(low + i * lanes + g), narrow_avx2(l0, l1));
            _mm256_storeu_si256((__m256i *)(high + i * lanes + g), narrow_avx2(h0, h1));
        }
        for (int v = 0; v < 2; v++) {
            _mm256_storeu_si256((__m256i *)(sl + g + 4 * v), lo[v]);
            _mm256_storeu_si256((__m256i *)(sh + g + 4 * v), hi[v]);
        }
    }
    lanes_pack(bits, lanes, sh, sl);
}
#else
typedef int hazard_no_avx2; /* ISO C wants something in a file */
#endif
