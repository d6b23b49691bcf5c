/*
 * The C anchor: the best plain loop we can write for the work `hazard simulate` does for a study of
 * rounds, so that the benchmark (bench/bench_simulate.py) can measure hazard's ratio to it in the same
 * run, on the same machine. Stand-alone: no part of hazard, built by the benchmark (and by its test) with
 * the system's C compiler, e.g.
 *
 *     cc -O3 -march=native -pthread bench/anchor.c -o anchor      (this CPU's instructions)
 *     cc -O3 -pthread bench/anchor.c -o anchor                    (portable)
 *
 * The same work as hazard's kernel (src/hazard/sim/native.c, docs/simulation.md):
 * - throws from 64-bit words of PCG64 (XSL RR, the generator hazard's lanes use; or xoshiro256** with
 *   --generator xoshiro): a word below 140 * 36^11 gives the 11 exact base-36 digits of w mod 36^11, a
 *   word at or above it is discarded; digit d is the throw (d / 6 + 1, d % 6 + 1);
 * - rounds played by a table of (state, throw) entries built from the main/nick/out table: craps (main 7,
 *   nicks 7 and 11, outs 2, 3 and 12; the dice pass on a seven-out) or Hazard on a main from 5 to 9 by the
 *   `wikipedia` ruleset's table (the dice pass after three lost rounds in a row);
 * - tallied as hazard tallies them: rounds by outcome (nick, out, each chance won or lost) and by throws
 *   (63 or more together, with their exact sums), and hands: how many rounds each caster kept the dice.
 * What it leaves out of hazard's work: the Python around the kernel (argument parsing, the exact analysis
 * of the ruleset, compiling its table, the report), and hazard's guarantee that a seed gives the same
 * counts whatever the workers (here each thread has its own streams, seeded by splitmix64).
 *
 * Each thread plays LANES independent lanes in step, one throw of each lane per step, so that the lanes'
 * table look-ups (each a chain of dependent loads) overlap; a word's digits two at a time (a table of the
 * 36^2 pairs: one division for two throws); no branch on a round's outcome: a throw appends its round's
 * outcome and throws to the lane's log, which moves on only where the round ended; then a pass over each
 * log counts its rounds, with four rotating copies of the counts, so that repeated outcomes do not wait on
 * each other's stores. (Measured here: the pairs gain about 6%; two, three or eight lanes are no faster
 * than four; a first version that counted as it played, with no log, was 2.5 times slower.)
 *
 * Usage: anchor [--game craps|hazard] [--main M] [--rounds N] [--seed S] [--threads T]
 *               [--generator pcg64|xoshiro]
 * Prints one JSON object: the counts, and CPU and wall seconds (of the whole process, and of the play).
 */

#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef LANES
#define LANES 4
#endif

#define DIGITS 11
#define M6 2176782336ULL                   /* 36^6 < 2^32 */
#define M11 131621703842267136ULL          /* 36^11 */
#define WORD_LIMIT 18427038537917399040ULL /* 140 * 36^11 */
#define BUCKETS 64                         /* throws (or rounds kept) 1..63, the last bucket "63 or more" */
#define CODES 17                           /* 0 (round goes on), nick, out, chance 4..10 won, 4..10 lost */
#define COPIES 4

__extension__ typedef unsigned __int128 u128; /* GCC and Clang have it; the anchor needs no other compiler */

typedef struct {
    uint64_t a, b, c, d; /* PCG64: state high, low, increment high, low; xoshiro256**: the four words */
} generator;

static inline uint64_t pcg64(generator *g) {
    const u128 mul = ((u128)2549297995355413924ULL << 64) | 4865540595714422341ULL;
    u128 s = ((u128)g->a << 64) | g->b;
    s = s * mul + (((u128)g->c << 64) | g->d);
    g->a = (uint64_t)(s >> 64);
    g->b = (uint64_t)s;
    uint64_t x = g->a ^ g->b;
    unsigned rot = (unsigned)(g->a >> 58);
    return (x >> rot) | (x << ((64u - rot) & 63u));
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t xoshiro(generator *g) {
    uint64_t result = rotl(g->b * 5, 7) * 9, t = g->b << 17;
    g->c ^= g->a;
    g->d ^= g->b;
    g->b ^= g->c;
    g->a ^= g->d;
    g->c ^= t;
    g->d = rotl(g->d, 45);
    return result;
}

static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The rounds' table, from the main/nick/out table: a state is 0 (the opening throw) or 1 + c - 4 (waiting
 * for chance c); an outcome's code is 1 a nick, 2 an out, 3 + c - 4 chance c won, 10 + c - 4 chance c lost
 * (0: the round goes on). As the loop reads it, entry j = state * 36 + digit is two equal entries, 2j and
 * 2j + 1, in two parts:
 * - add: code << 32 | 1, what the throw adds to the round's log value (outcome, and throws so far);
 * - link: twice the next state's first entry, plus one where the round ends. As an index it lands on one
 *   of the two copies of the next entry, so it serves as the next offset as it is; the same bit moves the
 *   log on and clears the throws.
 * rule[code]: bit 0 a win, bit 1 a loss that counts towards passing the dice. */
#define STATES 8

typedef struct {
    uint64_t add[2 * STATES * 36];
    uint32_t link[2 * STATES * 36];
    uint64_t rule[CODES];
    uint64_t after; /* counted losses in a row that pass the dice */
} table;

static void set(table *t, int state, int d, int next, int code) {
    int j = state * 36 + d;
    t->add[2 * j] = t->add[2 * j + 1] = (uint64_t)code << 32 | 1;
    t->link[2 * j] = t->link[2 * j + 1] = (uint32_t)(2 * next * 36) | (uint32_t)(code != 0);
}

/* Hazard on `main` with these nicks and outs (each list ended by 0); `outs_count`: whether an out counts
 * as a loss towards passing the dice (a chance lost to the main always does). Craps is main 7 with nicks
 * 7, 11 and outs 2, 3, 12, whose outs do not count. */
static void build(table *t, int main, const int *nicks, const int *outs, uint64_t after, int outs_count) {
    memset(t, 0, sizeof *t);
    t->after = after;
    t->rule[1] = 1;
    t->rule[2] = outs_count ? 2 : 0;
    for (int c = 4; c <= 10; c++) {
        t->rule[3 + c - 4] = 1;
        t->rule[10 + c - 4] = 2;
    }
    for (int d = 0; d < 36; d++) {
        int total = d / 6 + d % 6 + 2, nick = 0, out = 0;
        for (const int *n = nicks; *n; n++) {
            nick |= total == *n;
        }
        for (const int *o = outs; *o; o++) {
            out |= total == *o;
        }
        set(t, 0, d, nick || out ? 0 : 1 + total - 4, nick ? 1 : out ? 2 : 0);
        for (int c = 4; c <= 10; c++) {
            int s = 1 + c - 4;
            set(t, s, d, total == c || total == main ? 0 : s, total == c ? 3 + c - 4 : total == main ? 10 + c - 4 : 0);
        }
    }
}

#define LOG 4096 /* rounds a lane logs before they are counted */

typedef struct {
    const table *t;
    int use_xoshiro;
    uint64_t seed, rounds;
    int64_t counts[COPIES][CODES * BUCKETS];
    int64_t hands[COPIES][BUCKETS];
    int64_t extra[2 * CODES + 2]; /* throws (and squares) of rounds of 63 throws or more, by outcome; hands
                                     of 63 rounds or more, and their rounds */
    uint64_t throws, played;
} work;

/* One lane: its generator, its round in progress (offset, throws so far), its hand in progress (counted
 * losses in a row, rounds kept), and its log. */
typedef struct {
    generator g;
    uint64_t o, t, streak, kept, left;
    uint64_t *p, log[LOG];
} lane;

/* A lane's log into the counts: rounds by outcome and throws, and hands by the passing rule. Masks, not
 * branches; four rotating copies of the counts, so that repeated outcomes do not wait on each other. */
static inline __attribute__((always_inline)) void tally_by(work *restrict w, lane *restrict l,
                                                           const uint64_t after) {
    const uint64_t *restrict rule = w->t->rule;
    int64_t *restrict counts = &w->counts[0][0];
    int64_t *restrict hands = &w->hands[0][0];
    uint64_t streak = l->streak, kept = l->kept, throws = 0;
    uint64_t n = (uint64_t)(l->p - l->log);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t v = l->log[i], code = v >> 32, thrown = v & 0xFFFFFFFFULL, copy = i & (COPIES - 1);
        throws += thrown;
        counts[copy * CODES * BUCKETS + code * BUCKETS + (thrown < BUCKETS - 1 ? thrown : BUCKETS - 1)] += 1;
        if (__builtin_expect(thrown >= BUCKETS - 1, 0)) {
            w->extra[code] += (int64_t)thrown;
            w->extra[CODES + code] += (int64_t)(thrown * thrown);
        }
        uint64_t win = rule[code] & 1, loss = rule[code] >> 1, passed = loss;
        kept += 1;
        if (after > 1) { /* one counted loss passes the dice under craps' rule: no streak to keep */
            streak = (streak + loss) & (win - 1);
            passed = loss & (uint64_t)(streak >= after);
        }
        hands[copy * BUCKETS + (kept < BUCKETS - 1 ? kept : BUCKETS - 1)] += (int64_t)passed;
        if (__builtin_expect(passed & (kept >= BUCKETS - 1), 0)) { /* & : passed is unpredictable */
            w->extra[2 * CODES] += 1;
            w->extra[2 * CODES + 1] += (int64_t)kept;
        }
        streak &= passed - 1;
        kept &= passed - 1;
    }
    l->streak = streak;
    l->kept = kept;
    l->left -= n;
    w->throws += throws;
    w->played += n;
    l->p = l->log;
}

static void tally(work *restrict w, lane *restrict l) {
    if (w->t->after <= 1) {
        tally_by(w, l, 1);
    } else {
        tally_by(w, l, w->t->after);
    }
}

/* The next accepted word of a lane, reduced mod 36^11. */
static inline __attribute__((always_inline)) uint64_t word(generator *g, int use_xoshiro) {
    uint64_t x;
    do {
        x = use_xoshiro ? xoshiro(g) : pcg64(g);
    } while (x >= WORD_LIMIT);
    return x % M11;
}

/* One throw of lane k, `d2` twice its digit: the log value, the next offset, and the log moved on only
 * where the round ended. */
#define STEP(k, d2)                                                                                          \
    do {                                                                                                     \
        uint64_t i_ = o[k] + (d2);                                                                           \
        uint64_t v_ = t[k] + add[i_];                                                                        \
        uint64_t link_ = link[i_];                                                                           \
        *p[k] = v_;                                                                                          \
        o[k] = link_;                                                                                        \
        p[k] += link_ & 1;                                                                                   \
        t[k] = (link_ & 1) ? 0 : v_;                                                                         \
    } while (0)

static inline __attribute__((always_inline)) void play(work *w, const int use_xoshiro) {
    const uint64_t *restrict add = w->t->add;
    const uint32_t *restrict link = w->t->link;
    uint32_t pairs[36 * 36]; /* a pair q < 36^2 of digits: twice the low digit, and twice the high << 16 */
    for (uint32_t q = 0; q < 36 * 36; q++) {
        pairs[q] = 2 * (q % 36) | (2 * (q / 36)) << 16;
    }
    lane *l = calloc(LANES, sizeof(lane));
    if (l == NULL) {
        abort();
    }
    uint64_t seed = w->seed;
    for (int k = 0; k < LANES; k++) {
        l[k].g.a = splitmix(&seed);
        l[k].g.b = splitmix(&seed);
        l[k].g.c = splitmix(&seed);
        l[k].g.d = splitmix(&seed) | 1; /* PCG's increment is odd; xoshiro's state is not all zero */
        l[k].left = w->rounds / LANES + ((uint64_t)k < w->rounds % LANES);
        l[k].p = l[k].log;
    }
    for (;;) { /* all lanes in step, a word of each at a time, while each can use a whole word */
        uint64_t o[LANES], t[LANES], *p[LANES], *stop[LANES];
        for (int k = 0; k < LANES; k++) { /* a word ends at most 11 rounds */
            uint64_t room = l[k].left < LOG ? l[k].left : LOG;
            o[k] = l[k].o;
            t[k] = l[k].t;
            p[k] = l[k].log;
            stop[k] = l[k].log + (room > DIGITS ? room - DIGITS : 0);
        }
        int words = 0;
        for (;;) {
            int go = 1;
            for (int k = 0; k < LANES; k++) {
                go &= p[k] < stop[k];
            }
            if (!go) {
                break;
            }
            words += 1;
            uint32_t low[LANES], high[LANES];
            for (int k = 0; k < LANES; k++) {
                uint64_t x = word(&l[k].g, use_xoshiro);
                low[k] = (uint32_t)(x % M6);
                high[k] = (uint32_t)(x / M6);
            }
            for (int i = 0; i < 5; i++) { /* digits 0-5 from the low half, 6-9 from the high, lowest first */
                for (int k = 0; k < LANES; k++) {
                    uint32_t *v = i < 3 ? &low[k] : &high[k];
                    uint32_t q = pairs[*v % (36 * 36)];
                    *v /= 36 * 36;
                    STEP(k, q & 0xFFFF);
                    STEP(k, q >> 16);
                }
            }
            for (int k = 0; k < LANES; k++) { /* digit 10: high < 36 now */
                STEP(k, 2 * (uint64_t)high[k]);
            }
        }
        for (int k = 0; k < LANES; k++) {
            l[k].o = o[k];
            l[k].t = t[k];
            l[k].p = p[k];
            tally(w, &l[k]);
        }
        if (words == 0) {
            break;
        }
    }
    for (int k = 0; k < LANES; k++) { /* each lane alone to its last round, a throw at a time */
        uint64_t o[1] = {l[k].o}, t[1] = {l[k].t}, *p[1] = {l[k].log}, x = 0;
        int digits = 0;
        while (l[k].left > 0) {
            if (digits == 0) {
                x = word(&l[k].g, use_xoshiro);
                digits = DIGITS;
            }
            STEP(0, 2 * (x % 36));
            x /= 36;
            digits -= 1;
            if ((uint64_t)(p[0] - l[k].log) == (l[k].left < LOG ? l[k].left : LOG)) {
                l[k].p = p[0];
                tally(w, &l[k]);
                p[0] = l[k].log;
            }
        }
    }
    free(l);
}

static __attribute__((noinline)) void play_pcg(work *w) { play(w, 0); }
static __attribute__((noinline)) void play_xoshiro(work *w) { play(w, 1); }

static void *run(void *arg) {
    work *w = arg;
    if (w->use_xoshiro) {
        play_xoshiro(w);
    } else {
        play_pcg(w);
    }
    return NULL;
}

static double seconds(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void usage(void) {
    fprintf(stderr, "usage: anchor [--game craps|hazard] [--main 5..9] [--rounds N] [--seed S] [--threads T] "
                    "[--generator pcg64|xoshiro]\n");
    exit(2);
}

int main(int argc, char **argv) {
    double cpu0 = seconds(CLOCK_PROCESS_CPUTIME_ID), wall0 = seconds(CLOCK_MONOTONIC);
    const char *game = "craps", *gen = "pcg64";
    int main_ = 7, threads = 1;
    uint64_t rounds = 1000000, seed = 0;
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc) {
            usage();
        }
        const char *value = argv[++i];
        if (!strcmp(argv[i - 1], "--game")) {
            game = value;
        } else if (!strcmp(argv[i - 1], "--main")) {
            main_ = atoi(value);
        } else if (!strcmp(argv[i - 1], "--rounds")) {
            rounds = strtoull(value, NULL, 10);
        } else if (!strcmp(argv[i - 1], "--seed")) {
            seed = strtoull(value, NULL, 10);
        } else if (!strcmp(argv[i - 1], "--threads")) {
            threads = atoi(value);
        } else if (!strcmp(argv[i - 1], "--generator")) {
            gen = value;
        } else {
            usage();
        }
    }
    int craps = !strcmp(game, "craps");
    if ((!craps && strcmp(game, "hazard")) || main_ < 5 || main_ > 9 || (craps && main_ != 7) || threads < 1 ||
        (strcmp(gen, "pcg64") && strcmp(gen, "xoshiro"))) {
        usage();
    }
    /* The `wikipedia` ruleset's Main/Nicks/Outs table (craps: its main 7). */
    static const int nicks[10][3] = {[5] = {5}, [6] = {6, 12}, [7] = {7, 11}, [8] = {8, 12}, [9] = {9}};
    static const int outs[10][5] = {
        [5] = {2, 3, 11, 12}, [6] = {2, 3, 11}, [7] = {2, 3, 12}, [8] = {2, 3, 11}, [9] = {2, 3, 11, 12}};
    static table t;
    build(&t, main_, nicks[main_], outs[main_], craps ? 1u : 3u, !craps);
    work *works = calloc((size_t)threads, sizeof(work));
    pthread_t *ids = calloc((size_t)threads, sizeof(pthread_t));
    if (works == NULL || ids == NULL) {
        return 1;
    }
    uint64_t stream = seed * 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < threads; i++) {
        works[i].t = &t;
        works[i].use_xoshiro = !strcmp(gen, "xoshiro");
        works[i].seed = splitmix(&stream) ^ (uint64_t)i;
        works[i].rounds = rounds / (uint64_t)threads + ((uint64_t)i < rounds % (uint64_t)threads);
    }
    double cpu1 = seconds(CLOCK_PROCESS_CPUTIME_ID), wall1 = seconds(CLOCK_MONOTONIC);
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&ids[i], NULL, run, &works[i])) {
            return 1;
        }
    }
    for (int i = 0; i < threads; i++) {
        pthread_join(ids[i], NULL);
    }
    double cpu2 = seconds(CLOCK_PROCESS_CPUTIME_ID), wall2 = seconds(CLOCK_MONOTONIC);
    int64_t counts[CODES][BUCKETS] = {{0}}, long_sum[CODES] = {0}, long_squares[CODES] = {0};
    int64_t hands[BUCKETS] = {0}, long_hands = 0, long_kept = 0;
    uint64_t throws = 0, played = 0;
    for (int i = 0; i < threads; i++) {
        work *w = &works[i];
        for (int c = 0; c < COPIES; c++) {
            for (int j = 0; j < CODES * BUCKETS; j++) {
                counts[j / BUCKETS][j % BUCKETS] += w->counts[c][j];
            }
            for (int j = 0; j < BUCKETS; j++) {
                hands[j] += w->hands[c][j];
            }
        }
        for (int c = 0; c < CODES; c++) {
            long_sum[c] += w->extra[c];
            long_squares[c] += w->extra[CODES + c];
        }
        long_hands += w->extra[2 * CODES];
        long_kept += w->extra[2 * CODES + 1];
        throws += w->throws;
        played += w->played;
    }
    /* The throws of a round: its bucket for rounds under 63 throws, the exact sums beyond. */
    int64_t by_code[CODES] = {0};
    double throw_sum = 0, throw_squares = 0;
    for (int c = 1; c < CODES; c++) {
        for (int b = 1; b < BUCKETS; b++) {
            by_code[c] += counts[c][b];
            if (b < BUCKETS - 1) {
                throw_sum += (double)(b * counts[c][b]);
                throw_squares += (double)b * b * (double)counts[c][b];
            }
        }
        throw_sum += (double)long_sum[c];
        throw_squares += (double)long_squares[c];
    }
    int64_t wins = by_code[1], hand_count = long_hands, kept_sum = long_kept;
    for (int c = 3; c < 10; c++) {
        wins += by_code[c];
    }
    for (int b = 1; b < BUCKETS - 1; b++) {
        hand_count += hands[b];
        kept_sum += b * hands[b];
    }
    printf("{\"game\": \"%s\", \"main\": %d, \"generator\": \"%s\", \"threads\": %d, \"lanes\": %d,\n", game, main_,
           gen, threads, LANES);
    printf(" \"seed\": %llu, \"rounds\": %llu, \"throws\": %llu, \"wins\": %lld, \"nicks\": %lld, \"outs\": %lld,\n",
           (unsigned long long)seed, (unsigned long long)played, (unsigned long long)throws, (long long)wins,
           (long long)by_code[1], (long long)by_code[2]);
    printf(" \"chance_won\": [");
    for (int c = 4; c <= 10; c++) {
        printf("%lld%s", (long long)by_code[3 + c - 4], c < 10 ? ", " : "], \"chance_lost\": [");
    }
    for (int c = 4; c <= 10; c++) {
        printf("%lld%s", (long long)by_code[10 + c - 4], c < 10 ? ", " : "],\n");
    }
    printf(" \"throw_sum\": %.0f, \"throw_squares\": %.0f, \"hands\": %lld, \"rounds_kept_sum\": %lld,\n", throw_sum,
           throw_squares, (long long)hand_count, (long long)kept_sum);
    double cpu3 = seconds(CLOCK_PROCESS_CPUTIME_ID), wall3 = seconds(CLOCK_MONOTONIC);
    printf(" \"play_cpu_seconds\": %.6f, \"play_wall_seconds\": %.6f,\n", cpu2 - cpu1, wall2 - wall1);
    printf(" \"process_cpu_seconds\": %.6f, \"process_wall_seconds\": %.6f,\n", cpu3 - cpu0, wall3 - wall0);
    printf(" \"throws_per_cpu_second\": %.1f, \"throws_per_wall_second\": %.1f}\n", (double)throws / (cpu2 - cpu1),
           (double)throws / (wall2 - wall1));
    free(works);
    free(ids);
    return 0;
}
