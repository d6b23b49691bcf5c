/*
 * The tally of a study of rounds: a lane's log (each round `code << 32 | throws`, as native.c's play loops
 * write it) added to the counts by outcome and throws, and to the hands by the dice-passing rule. Compiled
 * into the same library as native.c (setup.py), which calls hazard_tally_with for each chunk of a block;
 * hazard_tally is the same for the tests and the reference's checks. The tests hold it, bit for bit, to the
 * plain-Python reference (tests/sim_reference.py). Portable C11, as native.c.
 */

#include <stdint.h>

#include "kernels.h"

static inline uint64_t min_u64(uint64_t a, uint64_t b) { return b < a ? b : a; }

/* One round of a log into one copy of the counts: its outcome's row, its bucket by throws. */
static inline void count_round(int64_t *restrict counts, uint64_t value) {
    uint64_t throws = value & 0xFFFFFFFFULL;
    int64_t *restrict row = counts + (value >> 32) * COUNT_WIDTH;
    row[min_u64(throws, THROW_BUCKETS - 1)] += 1;
    if (throws >= THROW_BUCKETS - 1) { /* rare: exact sums for the long rounds the last bucket lumps together */
        row[THROW_BUCKETS] += (int64_t)throws;
        row[THROW_BUCKETS + 1] += (int64_t)(throws * throws);
    }
}

/* One round of a log into one copy of the hands: masks, not branches (a win clears the streak, a counted
 * loss adds to it, no main passes at once); `streaks` is 0 where one counted loss passes the dice, and the
 * streak is then not needed (only cleared, as the reference clears it). */
static inline void hand_round(int64_t *restrict hands, uint64_t flags, uint64_t after, int streaks,
                              uint64_t *streak, uint64_t *kept) {
    uint64_t win = flags & 1;
    uint64_t counted = (flags >> 1) & 1;
    uint64_t no_main = (flags >> 2) & 1;
    uint64_t passed;
    *kept += 1 - no_main;
    if (!streaks) {
        passed = no_main | counted;
    } else {
        *streak = (*streak + counted) & (win - 1);
        passed = no_main | (counted & (uint64_t)(*streak >= after));
    }
    hands[min_u64(*kept, HAND_BUCKETS - 1)] += (int64_t)passed;
    if (*kept >= HAND_BUCKETS - 1) {
        hands[HAND_BUCKETS] += (int64_t)(*kept * passed);
        hands[HAND_BUCKETS + 1] += (int64_t)(*kept * *kept * passed);
    }
    uint64_t keep = passed - 1;
    *streak &= keep;
    *kept &= keep;
}

/* Rounds i of a log into copy i & 3 of the counts (and of the hands, `with_hands`), so that repeated
 * outcomes do not wait on each other (the four copies are added up afterwards): four rounds a step, each
 * into its own copy, so that no copy's place is computed. Called with constant `with_hands` and `streaks`,
 * so that each use is compiled without the tests of the others. */
static inline void tally_span(const uint64_t *restrict log, int64_t n, const int64_t *restrict rule,
                              uint64_t copy, int64_t *restrict counts, int64_t *restrict hands, uint64_t after,
                              int with_hands, int streaks, uint64_t *streak, uint64_t *kept) {
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        for (int c = 0; c < 4; c++) {
            uint64_t value = log[i + c];
            count_round(counts + (uint64_t)c * copy, value);
            if (with_hands) {
                hand_round(hands + c * HAND_WIDTH, (uint64_t)rule[value >> 32], after, streaks, streak, kept);
            }
        }
    }
    for (; i < n; i++) {
        uint64_t value = log[i], c = (uint64_t)i & 3;
        count_round(counts + c * copy, value);
        if (with_hands) {
            hand_round(hands + c * HAND_WIDTH, (uint64_t)rule[value >> 32], after, streaks, streak, kept);
        }
    }
}

/* Whether the dice ever pass under `rule` (else the hands are not tallied). */
int hazard_rule_passes(const int64_t *restrict rule, int64_t codes) {
    int passes = rule[0] > 0;
    for (int64_t code = 1; code < codes; code++) {
        passes |= (rule[code] & 4) != 0;
    }
    return passes;
}

/* tally: add the first n rounds of a lane's log to the counts. counts is (4, codes,
 * THROW_BUCKETS + 2) and hands (4, HAND_BUCKETS + 2), both C-contiguous; rule has `codes` entries
 * (CompiledRules.passing_rule, compiled from hazard.core.passing: bit 0 a win, 1 a counted loss, 2 no main);
 * carry holds the losing streak and the rounds of the hand in progress. The reference reads the log
 * twice, once for the counts and once for the hands; here both are taken in one pass (the two touch
 * different arrays, so the results are the same), which saves a third of the time. `passes` is
 * hazard_rule_passes(rule, codes). */
void hazard_tally_with(const uint64_t *restrict log, int64_t n, const int64_t *restrict rule, int64_t codes,
                      int passes, int64_t *restrict counts, int64_t *restrict hands, int64_t *restrict carry) {
    const uint64_t copy = (uint64_t)codes * COUNT_WIDTH;
    uint64_t after = (uint64_t)rule[0];
    uint64_t streak = (uint64_t)carry[0];
    uint64_t kept = (uint64_t)carry[1];
    if (!passes) { /* the dice never pass: the hands (and their carry) are left as they are */
        tally_span(log, n, rule, copy, counts, hands, after, 0, 0, &streak, &kept);
        return;
    }
    if (after <= 1) {
        tally_span(log, n, rule, copy, counts, hands, after, 1, 0, &streak, &kept);
    } else {
        tally_span(log, n, rule, copy, counts, hands, after, 1, 1, &streak, &kept);
    }
    carry[0] = (int64_t)streak;
    carry[1] = (int64_t)kept;
}

EXPORT void hazard_tally(const uint64_t *restrict log, int64_t n, const int64_t *restrict rule, int64_t codes,
                         int64_t *restrict counts, int64_t *restrict hands, int64_t *restrict carry) {
    hazard_tally_with(log, n, rule, codes, hazard_rule_passes(rule, codes), counts, hands, carry);
}
