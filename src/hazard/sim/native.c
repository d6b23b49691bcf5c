/*
 * The simulator's inner loops in C. The tests hold them, bit for bit, to a plain-Python reference of the
 * same algorithms (tests/sim_reference.py). One loop goes further than the reference (play_pair, the bulk
 * of hazard_play_lanes): it draws four words a lane at a time and reads a table rearranged for it, but it
 * draws the same words in the same order and takes their digits in the same order, so its logs and carry
 * are the same to the bit.
 *
 * Compiled into the package when it is installed (setup.py, with _module.c around it) and loaded with
 * ctypes by hazard/sim/native.py, whose foreign calls release the GIL, so the worker threads run these
 * loops on every core. Nothing here includes Python or NumPy headers: the kernels depend on neither. Each
 * lane draws its words from its own PCG64 (hazard_lane), the same words as NumPy's PCG64 seeded the same.
 *
 * Portable C11: no compiler builtin (a 128-bit integer where the compiler has one, else 64-bit halves).
 * Floating point: the session kernel must round the same on every build, so setup.py passes no fused
 * multiply-adds (-ffp-contract=off) and never fast math.
 */

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "kernels.h"


#if defined(__SIZEOF_INT128__) && !defined(HAZARD_NO_INT128)
__extension__ typedef unsigned __int128 hazard_u128;

static inline uint64_t next_word(hazard_lane *lane) {
    const hazard_u128 multiplier = ((hazard_u128)PCG_MULTIPLIER_HIGH << 64) | PCG_MULTIPLIER_LOW;
    hazard_u128 state = ((hazard_u128)lane->state_high << 64) | lane->state_low;
    state = state * multiplier + (((hazard_u128)lane->inc_high << 64) | lane->inc_low);
    lane->state_high = (uint64_t)(state >> 64);
    lane->state_low = (uint64_t)state;
    uint64_t x = lane->state_high ^ lane->state_low;
    unsigned rot = (unsigned)(lane->state_high >> 58);
    return (x >> rot) | (x << ((64u - rot) & 63u));
}
#else
/* Without a 128-bit integer type: the low 128 bits of the product from 64-bit halves, the same result. */
static inline uint64_t mul_high(uint64_t a, uint64_t b) {
    uint64_t a_lo = a & 0xFFFFFFFFULL, a_hi = a >> 32, b_lo = b & 0xFFFFFFFFULL, b_hi = b >> 32;
    uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
    uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFFULL) + lo_hi;
    return (hi_lo >> 32) + (cross >> 32) + hi_hi;
}

static inline uint64_t next_word(hazard_lane *lane) {
    uint64_t high = mul_high(lane->state_low, PCG_MULTIPLIER_LOW) + lane->state_high * PCG_MULTIPLIER_LOW +
                    lane->state_low * PCG_MULTIPLIER_HIGH;
    uint64_t low = lane->state_low * PCG_MULTIPLIER_LOW;
    uint64_t sum_low = low + lane->inc_low;
    high += lane->inc_high + (sum_low < low);
    lane->state_high = high;
    lane->state_low = sum_low;
    uint64_t x = high ^ sum_low;
    unsigned rot = (unsigned)(high >> 58);
    return (x >> rot) | (x << ((64u - rot) & 63u));
}
#endif

/* into[i] += the sum over w of from[w * n + i]: a block's tallies (`ways` copies of n counts) added into a
 * study's, for a study of rounds that holds its counts without NumPy. */
EXPORT void hazard_add(int64_t *restrict into, const int64_t *restrict from, int64_t n, int64_t ways) {
    for (int64_t w = 0; w < ways; w++) {
        for (int64_t i = 0; i < n; i++) {
            into[i] += from[w * n + i];
        }
    }
}

/* The next `n` words of a lane, for the tests and the plain-Python reference's checks. */
EXPORT void hazard_lane_words(hazard_lane *lane, uint64_t *out, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        out[i] = next_word(lane);
    }
}

#define PAIRS ((DIGITS_PER_WORD - 1) / 2)

/* The constants above, for the loader to compare with its own: a stale or mismatched build is refused. */
EXPORT void hazard_constants(uint64_t *out) {
    out[0] = DIGITS_PER_WORD;
    out[1] = WORD_LIMIT;
    out[2] = NEXT_MASK;
    out[3] = THROW_BIT;
    out[4] = CODE_SHIFT;
    out[5] = THROW_BUCKETS;
    out[6] = HAND_BUCKETS;
}

/* One throw of a lane: look up the entry, log `code << 32 | throws`, and move the log's end on only when
 * the round ended. No branch on the outcome: rounds end unpredictably, and a mispredicted branch costs
 * more than the unconditional store. */
static inline void step(const uint64_t *restrict entries, uint64_t *offset, uint64_t *throws, uint64_t *end,
                        uint64_t digit, uint64_t *restrict log) {
    uint64_t entry = entries[*offset + digit];
    uint64_t code = entry >> CODE_SHIFT;
    *offset = entry & NEXT_MASK;
    *throws += (entry >> THROW_BIT) & 1;
    log[*end] = (code << 32) | *throws;
    *end += (uint64_t)(code != 0);
    *throws = code == 0 ? *throws : 0;
}

/* The next accepted word of a lane, reduced mod 36^11: 11 uniform base-36 digits. */
static inline uint64_t word(hazard_lane *bits) {
    uint64_t w = next_word(bits);
    while (w >= WORD_LIMIT) {
        w = next_word(bits);
    }
    return w % M11;
}

/* Play one lane a throw at a time until it has logged `target` rounds (with `align`, stop as well at the
 * end of the word being used); return the rounds logged. carry[0..3] is [state offset, throws in the
 * round, word being used, digits left in it]. */
static int64_t play_one(hazard_lane *bits, int64_t target, const uint64_t *restrict entries,
                        uint64_t *restrict carry, uint64_t *restrict log, int align) {
    uint64_t offset = carry[0], throws = carry[1], x = carry[2], left = carry[3];
    uint64_t end = 0;
    uint64_t goal = (uint64_t)target;
    while (end < goal) {
        if (left == 0) {
            if (align) {
                break;
            }
            x = word(bits);
            left = DIGITS_PER_WORD;
        }
        uint64_t digit = x % 36;
        x /= 36;
        left -= 1;
        step(entries, &offset, &throws, &end, digit, log);
    }
    carry[0] = offset;
    carry[1] = throws;
    carry[2] = x;
    carry[3] = left;
    return (int64_t)end;
}

/* A lane played alone from where `carry` (as play_one's) and `hand` (as hazard_tally_with's) leave it
 * until it has logged `quota` more rounds, `chunk` rounds at a time into `log` (chunk + 1 entries), each
 * chunk tallied: how the SIMD paths finish a lane once it is too near its quota to play in step. */
void hazard_play_lane_rest(hazard_lane *bits, int64_t quota, int64_t chunk, const uint64_t *restrict entries,
                           uint64_t *restrict carry, int64_t *restrict hand, const int64_t *restrict rule,
                           int64_t codes, int passes, int64_t *restrict counts, int64_t *restrict hands,
                           uint64_t *restrict log) {
    int64_t done = 0;
    while (done < quota) {
        int64_t target = quota - done < chunk ? quota - done : chunk;
        int64_t logged = play_one(bits, target, entries, carry, log, 0);
        hazard_tally_with(log, logged, rule, codes, passes, counts, hands, hand);
        done += logged;
    }
}

/* The table as the lanes' fast loop (play_pair) reads it. Entry j of the engine's table becomes two equal
 * entries, 2j and 2j + 1, each in two parts read from the same index, so that the two loads overlap:
 * - `add`: what the throw adds to the log, `code << 32 | counted`: the log value is the throws of the
 *   round so far plus this;
 * - `link`: twice the next state's offset, plus one where the round ends. As an index it lands on one of
 *   the two equal copies of the next entry, so it serves as the next offset as it is, with no shift or
 *   mask; the same bit moves the log on, and clears the throws.
 * The digits are doubled to match (the table of pairs that hazard_play_lanes hands to play_pair). */
typedef struct {
    uint64_t *add;
    uint32_t *link;
} fast_table;

static int fast_table_of(const uint64_t *restrict entries, int64_t n, fast_table *out) {
    size_t size = (size_t)(n > 0 ? 2 * n : 1);
    out->add = malloc(sizeof(uint64_t) * size);
    out->link = malloc(sizeof(uint32_t) * size);
    if (out->add == NULL || out->link == NULL) {
        free(out->add);
        free(out->link);
        return 0;
    }
    for (int64_t j = 0; j < n; j++) {
        uint64_t code = entries[j] >> CODE_SHIFT;
        uint64_t add = (code << 32) | ((entries[j] >> THROW_BIT) & 1);
        uint32_t link = (uint32_t)(((entries[j] & NEXT_MASK) << 1) | (uint64_t)(code != 0));
        out->add[2 * j] = out->add[2 * j + 1] = add;
        out->link[2 * j] = out->link[2 * j + 1] = link;
    }
    return 1;
}

/* One throw of a lane in the fast loop: the same log value and state as step(), from the fast table;
 * `digit2` is twice the digit. */
#define FAST_STEP(o, t, p, digit2)                                                                          \
    do {                                                                                                    \
        uint64_t i_ = (o) + (digit2);                                                                       \
        uint64_t value_ = (t) + add[i_];                                                                    \
        uint64_t link_ = link[i_];                                                                          \
        *(p) = value_;                                                                                      \
        (o) = link_;                                                                                        \
        (p) += link_ & 1;                                                                                   \
        (t) = (link_ & 1) ? 0 : value_;                                                                     \
    } while (0)

/* Two throws of a lane from q, a pair of base-36 digits (q < 36 * 36): twice each digit, low then high,
 * from the table of pairs (low in the low half, high in the high). */
#define FAST_PAIR(o, t, p, q)                                                                               \
    do {                                                                                                    \
        uint32_t d_ = pairs[q];                                                                             \
        FAST_STEP(o, t, p, d_ & 0xFFFF);                                                                    \
        FAST_STEP(o, t, p, d_ >> 16);                                                                       \
    } while (0)

/* The pair q < 36^2 of digits at the bottom of a 32-bit v, and v moved on past them: 32-bit arithmetic
 * (v / 1296 by a multiply and a shift, exact for every 32-bit v). */
#define SPLIT(v, q)                                                                                         \
    do {                                                                                                    \
        uint32_t next_ = (uint32_t)(((uint64_t)(v) * 3393554407ULL) >> 42);                                 \
        (q) = (v) - next_ * (36 * 36);                                                                      \
        (v) = next_;                                                                                        \
    } while (0)

/* The next pair of digits of each lane, from the bottom of v0 and v1, played in step. */
#define BOTH_PAIRS(v0, v1)                                                                                  \
    do {                                                                                                    \
        uint32_t q0_, q1_;                                                                                  \
        SPLIT(v0, q0_);                                                                                     \
        SPLIT(v1, q1_);                                                                                     \
        FAST_PAIR(o0, t0, p0, q0_);                                                                         \
        FAST_PAIR(o1, t1, p1, q1_);                                                                         \
    } while (0)

/* The words a lane draws at a time in the fast loop: drawn ahead, so that the calls into the bit
 * generator (which must save every live register) come once per WORDS words, not once a word. */
#define WORDS 4

/* The next n accepted words of each of `lanes` lanes, each split as play_pair splits it: lane l's word i
 * has its low six base-36 digits (w % 36^6) at low[i * lanes + l] and its high five (w / 36^6) at
 * high[i * lanes + l], for the SIMD paths (simd.c) to take the digits of many lanes at once. Four lanes
 * at a time, so that their generators' chains of multiplies overlap. */
void hazard_lanes_split_words(hazard_lane *bits, int lanes, uint32_t *restrict low, uint32_t *restrict high,
                              int64_t n) {
    int l = 0;
    for (; l + 4 <= lanes; l += 4) {
        for (int64_t i = 0; i < n; i++) {
            for (int k = 0; k < 4; k++) {
                uint64_t w = word(&bits[l + k]);
                low[i * lanes + l + k] = (uint32_t)(w % M6);
                high[i * lanes + l + k] = (uint32_t)(w / M6);
            }
        }
    }
    for (; l < lanes; l++) {
        for (int64_t i = 0; i < n; i++) {
            uint64_t w = word(&bits[l]);
            low[i * lanes + l] = (uint32_t)(w % M6);
            high[i * lanes + l] = (uint32_t)(w / M6);
        }
    }
}

/* Both lanes in step, WORDS words of each at a time, while each can use them all without reaching its
 * target (a word ends at most 11 rounds, so each lane stops before `stop`): the same words are drawn in
 * the same order as one at a time and all of them are used, and each word's 11 digits are taken in the
 * same order (lowest first), so the logs and the carry are exactly those of the plain loop. */
static void play_pair(hazard_lane *bits0, hazard_lane *bits1, const fast_table *table, uint64_t *restrict c0,
                      uint64_t *restrict c1, uint64_t *restrict *at0, uint64_t *restrict *at1,
                      const uint64_t *stop0, const uint64_t *stop1, const uint32_t *restrict pairs) {
    const uint64_t *restrict add = table->add;
    const uint32_t *restrict link = table->link;
    uint64_t o0 = 2 * c0[0], t0 = c0[1], o1 = 2 * c1[0], t1 = c1[1];
    uint64_t *p0 = *at0, *p1 = *at1;
    uint64_t w0[WORDS], w1[WORDS];
    while (p0 < stop0 && p1 < stop1) {
        for (int b = 0; b < WORDS; b++) {
            w0[b] = word(bits0);
        }
        for (int b = 0; b < WORDS; b++) {
            w1[b] = word(bits1);
        }
        for (int b = 0; b < WORDS; b++) {
            uint32_t l0 = (uint32_t)(w0[b] % M6), h0 = (uint32_t)(w0[b] / M6);
            uint32_t l1 = (uint32_t)(w1[b] % M6), h1 = (uint32_t)(w1[b] / M6);
            for (int k = 0; k < 2; k++) { /* digits 0 to 3 */
                BOTH_PAIRS(l0, l1);
            }
            FAST_PAIR(o0, t0, p0, l0); /* l0 < 36^2 now: digits 4 and 5 */
            FAST_PAIR(o1, t1, p1, l1);
            for (int k = 0; k < 2; k++) { /* digits 6 to 9 */
                BOTH_PAIRS(h0, h1);
            }
            FAST_STEP(o0, t0, p0, 2 * (uint64_t)h0); /* the last digit, h0 < 36 */
            FAST_STEP(o1, t1, p1, 2 * (uint64_t)h1);
        }
    }
    c0[0] = o0 >> 1;
    c0[1] = t0;
    c1[0] = o1 >> 1;
    c1[1] = t1;
    *at0 = p0;
    *at1 = p1;
}

/* The fast loop's tables, made once for every chunk of a block (hazard_play_block) or once a call
 * (hazard_play_lanes): the fast table and the pairs of digits, each twice (see fast_table). `ready` is 0
 * where the fast table could not be allocated: the plain loop then does all the work. */
typedef struct {
    fast_table table;
    uint32_t pairs[36 * 36];
    int ready;
} fast_loop;

static void fast_loop_of(const uint64_t *restrict entries, int64_t n_entries, const uint64_t *restrict low,
                         const uint64_t *restrict high, fast_loop *out) {
    out->ready = fast_table_of(entries, n_entries, &out->table);
    for (int q = 0; q < 36 * 36; q++) {
        out->pairs[q] = (uint32_t)(2 * low[q]) | (uint32_t)(2 * high[q]) << 16;
    }
}

static void fast_loop_free(fast_loop *loop) {
    if (loop->ready) {
        free(loop->table.add);
        free(loop->table.link);
    }
}

/* play_lanes: the two lanes of a block, in step while both are far from their targets (their
 * table look-ups then overlap): four words of each at a time (play_pair) while they can, then a word of
 * each at a time; each finishing alone. carry is (2, 4); the rounds logged go to logged[0..1]. */
static void play_lanes_with(hazard_lane *bits0, hazard_lane *bits1, int64_t target0, int64_t target1,
                            const uint64_t *restrict entries, const fast_loop *fast, uint64_t *restrict carry,
                            uint64_t *restrict log0, uint64_t *restrict log1, const uint64_t *restrict low,
                            const uint64_t *restrict high, int64_t *restrict logged) {
    int64_t e0 = 0, e1 = 0;
    uint64_t *c0 = carry, *c1 = carry + 4;
    if (c0[3] != 0) { /* finish the words left part-used by the last call, one lane at a time */
        e0 = play_one(bits0, target0, entries, c0, log0, 1);
    }
    if (c1[3] != 0) {
        e1 = play_one(bits1, target1, entries, c1, log1, 1);
    }
    if (c0[3] == 0 && c1[3] == 0) {
        const int64_t batch = (int64_t)DIGITS_PER_WORD * WORDS;
        if (target0 - e0 > batch && target1 - e1 > batch && fast->ready) {
            uint64_t *p0 = log0 + e0, *p1 = log1 + e1;
            play_pair(bits0, bits1, &fast->table, c0, c1, &p0, &p1, log0 + (target0 - batch),
                      log1 + (target1 - batch), fast->pairs);
            e0 = p0 - log0;
            e1 = p1 - log1;
        }
        uint64_t o0 = c0[0], t0 = c0[1], o1 = c1[0], t1 = c1[1];
        uint64_t u0 = (uint64_t)e0, u1 = (uint64_t)e1;
        /* A word ends at most 11 rounds, so neither lane can pass its target within the word. */
        uint64_t stop0 = (uint64_t)(target0 - DIGITS_PER_WORD > 0 ? target0 - DIGITS_PER_WORD : 0);
        uint64_t stop1 = (uint64_t)(target1 - DIGITS_PER_WORD > 0 ? target1 - DIGITS_PER_WORD : 0);
        while (u0 < stop0 && u1 < stop1) {
            uint64_t x0 = word(bits0);
            uint64_t x1 = word(bits1);
            for (int k = 0; k < PAIRS; k++) {
                uint64_t q0 = x0 % (36 * 36);
                uint64_t q1 = x1 % (36 * 36);
                x0 /= 36 * 36;
                x1 /= 36 * 36;
                step(entries, &o0, &t0, &u0, low[q0], log0);
                step(entries, &o1, &t1, &u1, low[q1], log1);
                step(entries, &o0, &t0, &u0, high[q0], log0);
                step(entries, &o1, &t1, &u1, high[q1], log1);
            }
            step(entries, &o0, &t0, &u0, x0, log0);
            step(entries, &o1, &t1, &u1, x1, log1);
        }
        c0[0] = o0;
        c0[1] = t0;
        c1[0] = o1;
        c1[1] = t1;
        e0 = (int64_t)u0;
        e1 = (int64_t)u1;
    }
    e0 += play_one(bits0, target0 - e0, entries, c0, log0 + e0, 0);
    e1 += play_one(bits1, target1 - e1, entries, c1, log1 + e1, 0);
    logged[0] = e0;
    logged[1] = e1;
}

/* The lanes of a block played in step (play_lanes_with, which has the details), `entries` of n_entries. */
EXPORT void hazard_play_lanes(hazard_lane *bits0, hazard_lane *bits1, int64_t target0, int64_t target1,
                              const uint64_t *restrict entries, int64_t n_entries, uint64_t *restrict carry,
                              uint64_t *restrict log0, uint64_t *restrict log1, const uint64_t *restrict low,
                              const uint64_t *restrict high, int64_t *restrict logged) {
    fast_loop fast;
    fast_loop_of(entries, n_entries, low, high, &fast);
    play_lanes_with(bits0, bits1, target0, target1, entries, &fast, carry, log0, log1, low, high, logged);
    fast_loop_free(&fast);
}

/* play_block: a block's two lanes played from their first throw until each has logged its quota of
 * rounds, and tallied as they go: `chunk` rounds a lane at a time are logged (play_lanes_with) and then
 * counted (hazard_tally_with) while the log is still in the cache, all in one call, with the fast loop's tables
 * made once. The counts are those of hazard_play_lanes and hazard_tally called chunk by chunk, as the
 * reference does: a lane keeps its word and its round from one chunk to the next. Each lane starts at
 * `start` (an entry's offset) with its hand carry at zero; counts and hands are as hazard_tally has them.
 * Returns 0, or -2 where the logs cannot be allocated. */
EXPORT int64_t hazard_play_block(hazard_lane *bits0, hazard_lane *bits1, int64_t quota0, int64_t quota1,
                                 int64_t chunk, const uint64_t *restrict entries, int64_t n_entries,
                                 int64_t start, const uint64_t *restrict low, const uint64_t *restrict high,
                                 const int64_t *restrict rule, int64_t codes, int64_t *restrict counts,
                                 int64_t *restrict hands) {
    int64_t longest = quota0 > quota1 ? quota0 : quota1;
    size_t size = (size_t)(chunk < longest ? chunk : longest) + 1;
    uint64_t *log0 = malloc(sizeof(uint64_t) * size);
    uint64_t *log1 = malloc(sizeof(uint64_t) * size);
    if (log0 == NULL || log1 == NULL) {
        free(log0);
        free(log1);
        return -2;
    }
    fast_loop fast;
    fast_loop_of(entries, n_entries, low, high, &fast);
    int passes = hazard_rule_passes(rule, codes);
    uint64_t carry[8] = {(uint64_t)start, 0, 0, 0, (uint64_t)start, 0, 0, 0};
    int64_t hand0[2] = {0, 0}, hand1[2] = {0, 0};
    int64_t done0 = 0, done1 = 0, logged[2];
    while (done0 < quota0 || done1 < quota1) {
        int64_t target0 = quota0 - done0 < chunk ? quota0 - done0 : chunk;
        int64_t target1 = quota1 - done1 < chunk ? quota1 - done1 : chunk;
        play_lanes_with(bits0, bits1, target0, target1, entries, &fast, carry, log0, log1, low, high, logged);
        hazard_tally_with(log0, logged[0], rule, codes, passes, counts, hands, hand0);
        hazard_tally_with(log1, logged[1], rule, codes, passes, counts, hands, hand1);
        done0 += logged[0];
        done1 += logged[1];
    }
    fast_loop_free(&fast);
    free(log0);
    free(log1);
    return 0;
}

/* The session kernel (hazard_play_sessions) is in session.c, compiled into the same library. */
