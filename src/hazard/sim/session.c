/*
 * The session kernel in C: whole evenings at a table, settled as the table service settles them
 * (hazard/sim/session.py states the model; hazard.table's rules are the model's source). The tests hold
 * it, bit for bit, to the plain-Python reference (tests/sim_reference.py), and hold both to hazard.table
 * itself, bankroll by bankroll after every round (tests/sim/test_sim_table_sessions.py).
 *
 * Its own file beside native.c (the round kernels), compiled into the same library by setup.py. It draws
 * its words through native.c's hazard_lane_words (the one generator), a batch at a time, and turns each
 * accepted word into its 11 base-36 digits ahead of the rounds that use them, so that no division waits in
 * a round's chain of table look-ups. Floating point: every operation in the order the reference performs
 * it, built without fused multiply-adds (setup.py), so the results round the same on every build.
 */

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "kernels.h"

#define WORD_BATCH 32 /* words drawn at a time */
#define MAX_PLAYERS 64 /* SessionConfig's most players */
#define STATS 7

EXPORT void hazard_session_constants(uint64_t *out) {
    out[0] = DIGITS_PER_WORD;
    out[1] = WORD_LIMIT;
    out[2] = NEXT_MASK;
    out[3] = THROW_BIT;
    out[4] = CODE_SHIFT;
    out[5] = MAX_PLAYERS;
}

/* A block's rounds, played ahead of the money: the dice do not depend on who stakes what, so the rounds
 * are played a batch at a time into a log, without a branch on how a throw ends (as native.c's loops play
 * them), and the sessions read them one by one. Each accepted word of the block's stream gives 11 throws,
 * lowest base-36 digit first: the same throws, so the same rounds, in the same order, as one throw at a time.
 * A session that ends early leaves the rest of the log to the next session, which starts where it stopped.
 * `log` holds `code << 32 | throws of the dice in the round`, `used` the digits drawn when the round ended. */
#define ROUND_BATCH 512
typedef struct {
    hazard_lane *bits;
    const uint64_t *entries;
    uint64_t offset, counted, digits; /* the round under way: its state, its throws; digits drawn in all */
    int64_t n, i;
    uint64_t log[ROUND_BATCH + WORD_BATCH * DIGITS_PER_WORD];
    uint64_t used[ROUND_BATCH + WORD_BATCH * DIGITS_PER_WORD];
} rounds_t;

static void play_ahead(rounds_t *source) {
    const uint64_t *restrict entries = source->entries;
    uint64_t offset = source->offset, counted = source->counted, digits = source->digits;
    uint64_t end = 0;
    uint64_t *restrict log = source->log, *restrict used = source->used;
    while (end < ROUND_BATCH) { /* a batch of words ends at most WORD_BATCH * 11 rounds past the mark */
        uint64_t raw[WORD_BATCH];
        hazard_lane_words(source->bits, raw, WORD_BATCH);
        for (int w = 0; w < WORD_BATCH; w++) {
            if (raw[w] >= WORD_LIMIT) {
                continue;
            }
            uint64_t x = raw[w] % M11;
            uint32_t part[2] = {(uint32_t)(x % M6), (uint32_t)(x / M6)};
            for (int half = 0; half < 2; half++) {
                uint32_t v = part[half];
                for (int k = 0; k < 6 - half; k++) {
                    uint64_t entry = entries[offset + v % 36];
                    uint64_t code = entry >> CODE_SHIFT;
                    v /= 36;
                    offset = entry & NEXT_MASK; /* a throw that ends the round leads to the next's start */
                    counted += (entry >> THROW_BIT) & 1;
                    digits += 1;
                    log[end] = (code << 32) | counted;
                    used[end] = digits;
                    end += (uint64_t)(code != 0);
                    counted = code != 0 ? 0 : counted;
                }
            }
        }
    }
    source->offset = offset;
    source->counted = counted;
    source->digits = digits;
    source->n = (int64_t)end;
    source->i = 0;
}

/* The steps a player's run of stakes settled the same way comes to (hazard.core.staking's StakingPlan.steps):
 * 0 flat, 1 martingale (losses in a row), 2 paroli (wins in a row, back to none after `cap`). */
static inline int64_t steps_of(int64_t staking, int64_t cap, int64_t run) {
    if (staking == 1) {
        return run < 0 ? -run : 0;
    }
    if (staking == 2) {
        return run > 0 ? run % cap : 0;
    }
    return 0;
}

/* A setter's run after a stake settled (hazard.core.staking): won by him (`up`: the caster lost), a run of
 * wins goes on or one begins; lost (`down`), the same for losses; neither, as it was. Masks, no branches. */
static inline int64_t run_after(int64_t had, int64_t up, int64_t down) {
    const int64_t same = (up & (had > 0)) | (down & (had < 0));
    return (same | (1 - up - down)) * had + up - down;
}

/* Whether the dice pass after a round (hazard.core.passing, compiled into the rule's bits): no main was
 * set, or the counted losses in a row reached `after`; `*streak` counts them and a win clears it. */
static inline int64_t dice_pass(int64_t *streak, int64_t win, int64_t counted, int64_t no_main,
                                int64_t after) {
    *streak = (*streak + counted) & (win - 1);
    return no_main | (counted & (*streak >= after));
}

/* The seat that casts next, of `seated`: the caster's (`at`), or his left-hand neighbour's when the dice
 * pass. Where the ruined have just left, `at` is where the caster's seat was: his own, or, if he left, his
 * neighbour's already. */
static inline int64_t next_caster(int64_t at, int64_t passed, int64_t seated) {
    at += passed;
    return at >= seated ? at - seated : at;
}

/* What the sessions of a block share, in whole numbers: every sum of money scaled by `scale` (a power of
 * two, so that a bankroll of a half or a quarter grain is whole too) and counted in int64. */
typedef struct {
    int64_t rounds, staking, cap, after, players, scale;
    int one_setter;
    int64_t grain, most_won; /* the base stake, the most it can win the caster */
    const int64_t *restrict rule, *restrict net, *restrict bankrolls;
} whole_t;

#define EXACT_LIMIT 9007199254740992.0 /* 2^53: a double holds every whole number up to it */
#define MAX_SCALE 30                  /* a bankroll may be whole in 2^-30 grains */
#define MAX_CODES 65536               /* NEXT_MASK + 1: more outcome codes than a table could have */

/* Whether x is a whole number below 2^53 in size (where a double holds every whole number). */
static inline int is_whole(double x) {
    return x > -EXACT_LIMIT && x < EXACT_LIMIT && (double)(int64_t)x == x;
}

/* Whether a block's money can be counted in whole numbers without changing a bit of the result, and if so
 * its whole forms in `out` (with `nets` and `banks` to hold them). The double path (play_in_doubles) adds
 * and compares whole numbers of grains when every sum is one, below 2^53: each is then exact, in any
 * order. That holds when the grain, the most won and every net are whole, every bankroll is whole once
 * scaled by a power of two, and no sum can reach 2^53: not the money at the table (it only changes hands)
 * nor what a session's rounds can move (each round at most every setter's largest stake's net), nor the
 * take and the stakes summed over them. */
static int whole_of(const double *restrict net, int64_t codes, const int64_t *restrict rule,
                    const double *restrict settings, const double *restrict bankrolls, int64_t players,
                    int64_t *nets, int64_t *banks, whole_t *out) {
    const double grain = settings[2], most_won = settings[4];
    const int64_t staking = (int64_t)settings[1], cap = (int64_t)settings[3];
    if (codes < 1 || codes > MAX_CODES || !is_whole(grain) || grain < 1.0 || !is_whole(most_won) ||
        most_won < 0.0) {
        return 0;
    }
    double largest = grain > most_won ? grain : most_won, total = 0.0;
    double scale = 1.0; /* the least power of two that makes every bankroll whole, up to 2^MAX_SCALE */
    for (int64_t p = 0; p < players; p++) {
        if (!(bankrolls[p] >= 0.0 && bankrolls[p] < EXACT_LIMIT)) {
            return 0;
        }
        while (!is_whole(bankrolls[p] * scale)) {
            if (scale >= (double)((int64_t)1 << MAX_SCALE)) {
                return 0;
            }
            scale *= 2.0;
        }
        total += bankrolls[p];
    }
    for (int64_t c = 0; c < codes; c++) {
        if (!is_whole(net[c])) {
            return 0;
        }
        const double size = net[c] < 0.0 ? -net[c] : net[c];
        largest = size > largest ? size : largest;
        nets[c] = (int64_t)(net[c] * scale);
    }
    const double most_doubled = staking == 0 ? 1.0 : (double)((int64_t)1 << cap);
    const double moved = (double)settings[0] * (double)players * largest * most_doubled;
    if (!((total + moved) * scale < EXACT_LIMIT)) {
        return 0;
    }
    for (int64_t p = 0; p < players; p++) {
        banks[p] = (int64_t)(bankrolls[p] * scale);
    }
    const whole_t found = {(int64_t)settings[0], staking, cap, rule[0], players, (int64_t)scale,
                           settings[5] == 1.0, (int64_t)(grain * scale), (int64_t)(most_won * scale),
                           rule, nets, banks};
    *out = found;
    return 1;
}

/* The next round of the block's log: its outcome code, its throws of the dice in `throws`. */
static inline int64_t next_round(rounds_t *source, int64_t *throws) {
    if (source->i == source->n) {
        play_ahead(source);
    }
    const uint64_t logged = source->log[source->i];
    source->i += 1;
    *throws += (int64_t)(logged & 0xFFFFFFFFULL);
    return (int64_t)(logged >> 32);
}

/* One session in whole numbers: what play_in_doubles does, decision for decision, with every sum of money
 * exact. Held by seat, not by player (seat j's bankroll, run and player), so that no look-up waits on
 * another; and each setter's stake is laid and settled in one step, the round's outcome being known
 * first (the dice do not depend on the stakes, and each setter's cover depends only on his own bankroll
 * and on the stakes laid before his, not on how they settle). `staking` is a constant where it is
 * called, so that each progression gets a loop of its own (flat stakes keep no runs). The session's
 * bankrolls and row of stats come out in units, as play_in_doubles writes them. */
static inline void whole_session(const whole_t *restrict k, rounds_t *source, const int64_t staking,
                                 double grain_units, double unit, double *restrict out_bank,
                                 int64_t *restrict ruin, double *restrict row) {
    const int64_t grain = k->grain, most_won = k->most_won, cap = k->cap, after = k->after;
    const int one_setter = k->one_setter;
    const int64_t *restrict rule = k->rule;
    const int64_t *restrict net = k->net;
    int64_t held[MAX_PLAYERS], run[MAX_PLAYERS], who[MAX_PLAYERS]; /* by seat: bankroll, run, player */
    int64_t bank[MAX_PLAYERS]; /* by player, once he has left */
    int64_t seated = k->players, at = 0;
    for (int64_t p = 0; p < k->players; p++) {
        held[p] = k->bankrolls[p];
        run[p] = 0;
        who[p] = p;
        ruin[p] = -1;
    }
    int64_t streak = 0, kept = 0, played = 0, hands = 0, throws = 0;
    int64_t hand_rounds = 0, hand_squares = 0, take = 0, staked = 0;
    for (int64_t r = 0; r < k->rounds && seated >= 2; r++) {
        const int64_t code = next_round(source, &throws);
        const int64_t flags = rule[code];
        const int64_t win = flags & 1, counted = (flags >> 1) & 1, no_main = (flags >> 2) & 1;
        const int64_t settled = 1 - no_main;
        const int64_t pays = net[code];
        /* each setter in turn from the caster's left lays his progression's stake, or the largest
         * smaller one that both he and the caster can cover, or nothing; and it is settled */
        int64_t free = held[at], gain = 0, stakes = 0, ruined = 0;
        for (int64_t s = 1, j = at; s < seated; s++) {
            j = j + 1 == seated ? 0 : j + 1; /* no division: it would cost more than the round */
            int64_t times = 0;
            if (staking == 0) { /* flat: the base, or nothing */
                times = (most_won <= held[j]) & (grain <= free);
            } else {
                const int64_t steps = steps_of(staking, cap, run[j]);
                for (int64_t d = steps < cap ? steps : cap; d >= 0; d--) {
                    if (most_won << d <= held[j] && grain << d <= free) {
                        times = (int64_t)1 << d;
                        break;
                    }
                }
            }
            const int64_t won = pays * times;
            free -= grain * times;
            held[j] -= won;
            gain += won;
            stakes += grain * times;
            ruined |= (held[j] < grain) & (times != 0); /* only a setter of the round can be ruined by it */
            if (staking != 0) {
                run[j] = run_after(run[j], won < 0, won > 0);
            }
            if (one_setter && times > 0) {
                break;
            }
        }
        held[at] += gain;
        take -= gain;
        staked += stakes & -settled;
        played += settled;
        kept += settled;
        const int64_t passed = dice_pass(&streak, win, counted, no_main, after);
        hands += passed;
        hand_rounds += kept & -passed;
        hand_squares += (kept * kept) & -passed;
        const int64_t caster_left = held[at] < grain;
        ruined |= caster_left;
        const int64_t keep = (passed | caster_left) - 1; /* a new hand: no losses, no rounds kept */
        streak &= keep;
        kept &= keep;
        if (!ruined) {
            at = next_caster(at, passed, seated);
            continue;
        }
        /* the ruined leave; the dice go to the next player left after the caster when they pass or he
         * leaves */
        int64_t left = 0, next_at = -1;
        for (int64_t j = 0; j < seated; j++) {
            if (j == at) {
                next_at = left;
            }
            if (held[j] < grain) {
                ruin[who[j]] = r;
                bank[who[j]] = held[j];
                continue;
            }
            held[left] = held[j];
            run[left] = run[j];
            who[left] = who[j];
            left += 1;
        }
        if (left > 0) {
            at = next_caster(next_at, passed & (1 - caster_left), left);
        }
        seated = left;
    }
    for (int64_t j = 0; j < seated; j++) {
        bank[who[j]] = held[j];
    }
    /* each whole number below 2^53 is its double, and a power of two divides it exactly: the doubles
     * play_in_doubles would hold, turned into units as it turns them */
    const double scale = (double)k->scale;
    const double found[STATS] = {(double)played, (double)hands, (double)hand_rounds, (double)hand_squares,
                                 (double)take / scale / grain_units * unit,
                                 (double)staked / scale / grain_units * unit, (double)throws};
    for (int i = 0; i < STATS; i++) {
        row[i] = found[i];
    }
    for (int64_t p = 0; p < k->players; p++) {
        out_bank[p] = (double)bank[p] / scale / grain_units * unit;
    }
}

/* The sessions of a block in whole numbers (whole_of said they can be), each progression in its own loop. */
static void play_in_whole(const whole_t *restrict k, rounds_t *source, int64_t sessions, double grain,
                          double unit, double *restrict out_bank, int64_t *restrict out_ruin,
                          double *restrict out_stats) {
    for (int64_t s = 0; s < sessions; s++) {
        double *bank = out_bank + s * k->players, *row = out_stats + s * STATS;
        int64_t *ruin = out_ruin + s * k->players;
        if (k->staking == 0) {
            whole_session(k, source, 0, grain, unit, bank, ruin, row);
        } else if (k->staking == 1) {
            whole_session(k, source, 1, grain, unit, bank, ruin, row);
        } else {
            whole_session(k, source, 2, grain, unit, bank, ruin, row);
        }
    }
}

/* The sessions of a block in doubles, as the model was first written: for money that whole_of finds is not
 * always a whole number of grains below 2^53 (a third of a grain, or bankrolls past 2^53), each sum rounded
 * in the reference's order. Returns the digits drawn by the last round played. */
static int64_t play_in_doubles(rounds_t *source, const double *restrict net, const int64_t *restrict rule,
                               const double *restrict settings, const double *restrict bankrolls,
                               int64_t players, int64_t sessions, double *restrict out_bank,
                               int64_t *restrict out_ruin, double *restrict out_stats) {
    const int64_t rounds = (int64_t)settings[0];
    const int64_t staking = (int64_t)settings[1];
    const double grain = settings[2];
    const int64_t cap = (int64_t)settings[3];
    const double most_won = settings[4];
    const int one_setter = settings[5] == 1.0;
    const double unit = settings[6];
    const int64_t after = rule[0];
    double doubled[31]; /* the base doubled k times, k up to the cap (hazard.core.staking's MAX_CAP) */
    for (int64_t k = 0; k <= cap; k++) {
        doubled[k] = (double)((int64_t)1 << k);
    }
    int64_t pos = 0;
    double bank[MAX_PLAYERS], times[MAX_PLAYERS];
    int64_t run[MAX_PLAYERS], seat[MAX_PLAYERS], setter[MAX_PLAYERS];
    for (int64_t s = 0; s < sessions; s++) {
        int64_t *ruin = out_ruin + s * players;
        int64_t seated = players, at = 0; /* seat[0..seated) the players left, in turn; seat[at] casts */
        for (int64_t p = 0; p < players; p++) {
            bank[p] = bankrolls[p];
            run[p] = 0;
            seat[p] = p;
            ruin[p] = -1;
        }
        int64_t streak = 0, kept = 0, played = 0, hands = 0, throws = 0;
        double hand_rounds = 0.0, hand_squares = 0.0, take = 0.0, staked = 0.0;
        for (int64_t r = 0; r < rounds && seated >= 2; r++) {
            const int64_t caster = seat[at];
            /* the stakes, laid before the round: each setter in turn from the caster's left lays his
             * progression's stake, or the largest smaller one (halving down to the base) that both he and
             * the caster can cover, or nothing */
            double free = bank[caster];
            int64_t laid = 0;
            int64_t j_at = at;
            for (int64_t k = 1; k < seated && !(one_setter && laid > 0); k++) {
                j_at = j_at + 1 == seated ? 0 : j_at + 1; /* no division: it would cost more than the round */
                int64_t p = seat[j_at];
                int64_t steps = steps_of(staking, cap, run[p]);
                for (int64_t j = steps < cap ? steps : cap; j >= 0; j--) {
                    double stake = grain * doubled[j];
                    if (most_won * doubled[j] <= bank[p] && stake <= free) {
                        setter[laid] = p;
                        times[laid] = doubled[j];
                        laid += 1;
                        free -= stake;
                        break;
                    }
                }
            }
            if (source->i == source->n) {
                play_ahead(source);
            }
            const uint64_t logged = source->log[source->i];
            pos = (int64_t)source->used[source->i];
            source->i += 1;
            const int64_t code = (int64_t)(logged >> 32);
            throws += (int64_t)(logged & 0xFFFFFFFFULL);
            /* masks, not branches, from here on: how a round ends is not to be predicted */
            const int64_t flags = rule[code];
            const int64_t win = flags & 1, counted = (flags >> 1) & 1, no_main = (flags >> 2) & 1;
            const int64_t settled = 1 - no_main; /* no main: nothing settles (its net is 0) */
            played += settled;
            kept += settled;
            const double pays = net[code];
            for (int64_t w = 0; w < laid; w++) {
                int64_t p = setter[w];
                double won = pays * times[w];
                bank[caster] += won;
                bank[p] -= won;
                take -= won;
                staked += grain * times[w] * (double)settled;
                run[p] = run_after(run[p], won < 0.0, won > 0.0);
            }
            const int64_t passed = dice_pass(&streak, win, counted, no_main, after);
            hands += passed;
            hand_rounds += (double)(kept * passed);
            hand_squares += (double)(kept * kept * passed);
            /* only the caster and the setters of the round can have been ruined by it */
            int64_t ruined = bank[caster] < grain;
            for (int64_t w = 0; w < laid; w++) {
                ruined |= bank[setter[w]] < grain;
            }
            const int64_t caster_left = bank[caster] < grain;
            const int64_t keep = (passed | caster_left) - 1; /* a new hand: no losses, no rounds kept */
            streak &= keep;
            kept &= keep;
            if (!ruined) {
                at = next_caster(at, passed, seated);
                continue;
            }
            /* the ruined leave; the dice go to the next player left after the caster when they pass or
             * he leaves */
            int64_t left = 0, next_at = -1;
            for (int64_t j = 0; j < seated; j++) {
                int64_t p = seat[j];
                if (j == at) {
                    next_at = left;
                }
                if (bank[p] < grain) {
                    ruin[p] = r;
                    continue;
                }
                seat[left++] = p;
            }
            if (left > 0) {
                at = next_caster(next_at, passed & (1 - caster_left), left);
            }
            seated = left;
        }
        for (int64_t p = 0; p < players; p++) {
            out_bank[s * players + p] = bank[p] / grain * unit;
        }
        double *row = out_stats + s * STATS;
        row[0] = (double)played;
        row[1] = (double)hands;
        row[2] = hand_rounds;
        row[3] = hand_squares;
        row[4] = take / grain * unit;
        row[5] = staked / grain * unit;
        row[6] = (double)throws;
    }
    return pos;
}

/* The sessions of a block, their throws drawn from `bits` as they are needed; return the throws drawn.
 *
 * Money is counted in grains: the base stake is `grain` of them, and `grain` is a multiple of every odds'
 * denominator, so every stake (the base doubled) and every sum a stake pays (`net` is in grains per base
 * stake) is a whole number of grains, exact in a double below 2^53: the kernel decides each cover and each
 * ruin as the table's exact fractions do. out_bank, and the take and the stakes in out_stats, are turned
 * back into units at the end.
 *
 * Where every sum is a whole number below 2^53 (whole_of), the block is played in int64 (play_in_whole),
 * with the same result to the bit, faster; else in doubles, as here.
 *
 * out_bank and out_ruin are (sessions, players), out_stats (sessions, 7); bankrolls are in grains;
 * settings is [rounds, staking, grain, progression cap, most won (grains per base stake), arrangement,
 * base stake (units)] (arrangement 1: one setter's sum; else every setter against the caster); net and
 * rule have `codes` items. Returns -1 for more than MAX_PLAYERS players. */
EXPORT int64_t hazard_play_sessions(hazard_lane *bits, const uint64_t *restrict entries, int64_t start,
                                    const double *restrict net, const int64_t *restrict rule,
                                    const double *restrict settings, const double *restrict bankrolls,
                                    int64_t players, int64_t sessions, double *restrict out_bank,
                                    int64_t *restrict out_ruin, double *restrict out_stats, int64_t codes) {
    const int64_t cap = (int64_t)settings[3];
    if (players < 1 || players > MAX_PLAYERS || cap < 0 || cap > 30) {
        return -1;
    }
    rounds_t *source = malloc(sizeof(rounds_t));
    int64_t *whole_nets = malloc((size_t)(codes > 0 && codes <= MAX_CODES ? codes : 1) * sizeof(int64_t));
    if (source == NULL || whole_nets == NULL) {
        free(source);
        free(whole_nets);
        return -2; /* out of memory: native.py raises MemoryError */
    }
    source->bits = bits;
    source->entries = entries;
    source->offset = (uint64_t)start;
    source->counted = source->digits = 0;
    source->n = source->i = 0;
    int64_t used = 0, whole_banks[MAX_PLAYERS];
    whole_t whole;
    if (whole_of(net, codes, rule, settings, bankrolls, players, whole_nets, whole_banks, &whole)) {
        play_in_whole(&whole, source, sessions, settings[2], settings[6], out_bank, out_ruin, out_stats);
        used = source->i > 0 ? (int64_t)source->used[source->i - 1] : 0;
    } else {
        used = play_in_doubles(source, net, rule, settings, bankrolls, players, sessions, out_bank, out_ruin,
                               out_stats);
    }
    free(whole_nets);
    free(source);
    return used;
}

/* `sessions` sessions in blocks of `per_block`, from block `first_block` of stream `kind`, each block from
 * its own lane (seeded here, as hazard.sim.stream seeds it): the same sessions as one call of
 * hazard_play_sessions a block, in one call, so that a study's many short blocks do not each cost a
 * foreign call, its checks and its arrays. Returns 0, or what hazard_play_sessions refused with. */
EXPORT int64_t hazard_play_session_blocks(uint64_t seed_high, uint64_t seed_low, uint64_t kind,
                                          uint64_t first_block, int64_t per_block, const uint64_t *entries,
                                          int64_t start, const double *net, const int64_t *rule,
                                          const double *settings, const double *bankrolls, int64_t players,
                                          int64_t sessions, double *out_bank, int64_t *out_ruin,
                                          double *out_stats, int64_t codes) {
    for (int64_t done = 0, b = 0; done < sessions; b++) {
        const int64_t n = sessions - done < per_block ? sessions - done : per_block;
        hazard_lane lane;
        hazard_seed_lane(seed_high, seed_low, kind, first_block + (uint64_t)b, 0, &lane);
        const int64_t used =
            hazard_play_sessions(&lane, entries, start, net, rule, settings, bankrolls, players, n,
                                 out_bank + done * players, out_ruin + done * players, out_stats + done * STATS,
                                 codes);
        if (used < 0) {
            return used;
        }
        done += n;
    }
    return 0;
}
