/*
 * A Tute Cabrero player in plain C99, speaking the raw player protocol
 * (docs/protocol.md) over stdin/stdout. No dependencies: it is built as a
 * static binary with
 *
 *     gcc -static -O2 -o bot bot.c
 *
 * and run as ["./bot"] (see player.toml). It is one of the "runtime" bots that
 * exercise what a typical C player does inside the sandbox: line reads with
 * fgets into a malloc'd buffer, a clock_gettime per move, a debug line on
 * stderr per partido, flushed replies on stdout. It spawns nothing.
 *
 * Strategy: the cheapest legal card (fewest points, then weakest); it never
 * sings and never accuses. legal_cards() is a port of legalCards in
 * sample_players/node_basico/bot.js.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------ cards */
/* A card is "<rank>-<suit>", e.g. "1-oro", "12-basto". */
static const char *const SUITS[4] = {"oro", "copa", "espada", "basto"};
/* Ranks from weakest to strongest inside a suit: 2, 4, 5, 6, 7, 10, 11, 12, 3, 1. */
static const int ORDER[10] = {2, 4, 5, 6, 7, 10, 11, 12, 3, 1};

typedef struct {
    int rank; /* 1..12 */
    int suit; /* index into SUITS */
} Card;

#define MAX_CARDS 48

static int strength(Card c) {
    for (int i = 0; i < 10; i++)
        if (ORDER[i] == c.rank) return i;
    return -1;
}

static int points(Card c) {
    switch (c.rank) {
    case 1: return 11;
    case 3: return 10;
    case 12: return 4;
    case 11: return 3;
    case 10: return 2;
    default: return 0;
    }
}

static int suit_index(const char *s, size_t n) {
    for (int i = 0; i < 4; i++)
        if (strlen(SUITS[i]) == n && strncmp(SUITS[i], s, n) == 0) return i;
    return -1;
}

/* Parses the card name s[0..n) into *c; 0 on success. */
static int parse_card(const char *s, size_t n, Card *c) {
    char *end;
    char tmp[32];
    if (n == 0 || n >= sizeof tmp) return -1;
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    long r = strtol(tmp, &end, 10);
    if (end == tmp || *end != '-' || r < 1 || r > 12) return -1;
    int su = suit_index(end + 1, strlen(end + 1));
    if (su < 0) return -1;
    c->rank = (int)r;
    c->suit = su;
    return 0;
}

/* Whether `card` beats `winning`: stronger of the same suit, or a trump on a non-trump. */
static int beats(Card card, Card winning, int trump) {
    if (card.suit == winning.suit) return strength(card) > strength(winning);
    return card.suit == trump && winning.suit != trump;
}

static Card winning_card(const Card *table, int ntable, int trump) {
    Card w = table[0];
    for (int i = 1; i < ntable; i++)
        if (beats(table[i], w, trump)) w = table[i];
    return w;
}

/* The legal cards of `hand` (docs/rules.md, "A trick"); returns how many, written to `out`. */
static int legal_cards(const Card *hand, int nhand, const Card *table, int ntable, int trump, Card *out) {
    int n = 0;
    if (ntable == 0) {
        memcpy(out, hand, (size_t)nhand * sizeof *hand);
        return nhand;
    }
    int led = table[0].suit;
    Card w = winning_card(table, ntable, trump);
    /* 1. Follow suit, and beat the winning card if we can. */
    for (int i = 0; i < nhand; i++)
        if (hand[i].suit == led && beats(hand[i], w, trump)) out[n++] = hand[i];
    if (n > 0) return n;
    for (int i = 0; i < nhand; i++)
        if (hand[i].suit == led) out[n++] = hand[i];
    if (n > 0) return n;
    /* 2. Without the led suit: a trump that beats the winning card. */
    for (int i = 0; i < nhand; i++)
        if (hand[i].suit == trump && beats(hand[i], w, trump)) out[n++] = hand[i];
    if (n > 0) return n;
    /* 3. Otherwise any card. */
    memcpy(out, hand, (size_t)nhand * sizeof *hand);
    return nhand;
}

/* ------------------------------------------------------------ minimal JSON */
/* Just enough to walk the referee's objects: skip any value, find a top-level key. */

static const char *skip_ws(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    return p;
}

/* Skips a string starting at its opening quote; returns the char after the closing quote. */
static const char *skip_string(const char *p) {
    if (*p != '"') return NULL;
    for (p++; *p; p++) {
        if (*p == '\\') {
            if (!*++p) return NULL;
        } else if (*p == '"') {
            return p + 1;
        }
    }
    return NULL;
}

/* Skips any JSON value; returns the char after it, or NULL when malformed. */
static const char *skip_value(const char *p) {
    p = skip_ws(p);
    if (*p == '"') return skip_string(p);
    if (*p == '{' || *p == '[') {
        int depth = 0;
        while (*p) {
            if (*p == '"') {
                p = skip_string(p);
                if (!p) return NULL;
                continue;
            }
            if (*p == '{' || *p == '[') depth++;
            if (*p == '}' || *p == ']') {
                if (--depth == 0) return p + 1;
            }
            p++;
        }
        return NULL;
    }
    /* number, true, false, null */
    const char *start = p;
    while (*p && *p != ',' && *p != '}' && *p != ']' && *p != ' ' && *p != '\n' && *p != '\r' && *p != '\t')
        p++;
    return p == start ? NULL : p;
}

/* The value of top-level `key` in the object at `obj`, or NULL. */
static const char *find_key(const char *obj, const char *key) {
    size_t klen = strlen(key);
    const char *p = skip_ws(obj);
    if (*p != '{') return NULL;
    p = skip_ws(p + 1);
    while (*p == '"') {
        const char *kstart = p + 1;
        const char *kend = skip_string(p);
        if (!kend) return NULL;
        int match = (size_t)(kend - 1 - kstart) == klen && strncmp(kstart, key, klen) == 0;
        p = skip_ws(kend);
        if (*p != ':') return NULL;
        p = skip_ws(p + 1);
        if (match) return p;
        p = skip_value(p);
        if (!p) return NULL;
        p = skip_ws(p);
        if (*p == ',') p = skip_ws(p + 1);
    }
    return NULL;
}

/* Whether the string value at `v` equals `s` (no escapes expected). */
static int string_is(const char *v, const char *s) {
    size_t n = strlen(s);
    return v && v[0] == '"' && strncmp(v + 1, s, n) == 0 && v[1 + n] == '"';
}

/* Copies the raw token of the value at `v` (e.g. an id) into out; 0 on success. */
static int raw_token(const char *v, char *out, size_t size) {
    const char *end = v ? skip_value(v) : NULL;
    if (!end || (size_t)(end - v) >= size) return -1;
    memcpy(out, v, (size_t)(end - v));
    out[end - v] = '\0';
    return 0;
}

/* Reads an array of card strings at `v` into cards; returns the count, -1 if malformed. */
static int read_hand(const char *v, Card *cards) {
    int n = 0;
    if (!v || *v != '[') return -1;
    const char *p = skip_ws(v + 1);
    while (*p == '"') {
        const char *end = skip_string(p);
        if (!end || n >= MAX_CARDS || parse_card(p + 1, (size_t)(end - 1 - (p + 1)), &cards[n]) != 0)
            return -1;
        n++;
        p = skip_ws(end);
        if (*p == ',') p = skip_ws(p + 1);
    }
    return *p == ']' ? n : -1;
}

/* Reads the table, [{"seat":2,"card":"1-copa"}, ...], into cards; the count, -1 if malformed. */
static int read_table(const char *v, Card *cards) {
    int n = 0;
    if (!v || *v != '[') return -1;
    const char *p = skip_ws(v + 1);
    while (*p == '{') {
        const char *c = find_key(p, "card");
        const char *cend = c ? skip_string(c) : NULL;
        if (!cend || n >= MAX_CARDS || parse_card(c + 1, (size_t)(cend - 1 - (c + 1)), &cards[n]) != 0)
            return -1;
        n++;
        p = skip_value(p);
        if (!p) return -1;
        p = skip_ws(p);
        if (*p == ',') p = skip_ws(p + 1);
    }
    return *p == ']' ? n : -1;
}

/* ------------------------------------------------------------ state and decisions */
static int trump = -1;          /* suit of trump in this mano (from mano_start) */
static long moves = 0;          /* moves answered in this partido */
static double think_ns = 0;     /* time spent choosing them */
static char partido_id[64] = "?";

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Cheapest legal card: fewest points, then weakest. */
static Card choose(const Card *hand, int nhand, const Card *table, int ntable) {
    Card legal[MAX_CARDS];
    int n = legal_cards(hand, nhand, table, ntable, trump, legal);
    Card best = legal[0];
    for (int i = 1; i < n; i++) {
        int dp = points(legal[i]) - points(best);
        if (dp < 0 || (dp == 0 && strength(legal[i]) < strength(best))) best = legal[i];
    }
    return best;
}

static void on_play(const char *msg, const char *id) {
    Card *hand = malloc(MAX_CARDS * sizeof *hand);
    Card *table = malloc(MAX_CARDS * sizeof *table);
    if (!hand || !table) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    double t0 = now_ns();
    int nhand = read_hand(find_key(msg, "hand"), hand);
    int ntable = read_table(find_key(msg, "table"), table);
    if (nhand <= 0 || ntable < 0) {
        fprintf(stderr, "cannot read play request: %s\n", msg);
        exit(1);
    }
    Card c = choose(hand, nhand, table, ntable);
    think_ns += now_ns() - t0;
    moves++;
    printf("{\"type\":\"play\",\"id\":%s,\"card\":\"%d-%s\"}\n", id, c.rank, SUITS[c.suit]);
    fflush(stdout);
    free(hand);
    free(table);
}

static void on_message(const char *msg) {
    const char *type = find_key(msg, "type");
    char id[64];
    if (!type) {
        fprintf(stderr, "no type, ignored: %s\n", msg);
        return;
    }
    if (string_is(type, "hello")) {
        if (raw_token(find_key(msg, "id"), id, sizeof id) != 0) exit(1);
        printf("{\"type\":\"ready\",\"id\":%s,\"name\":\"Runtime C (static)\"}\n", id);
        fflush(stdout);
    } else if (string_is(type, "play")) {
        if (raw_token(find_key(msg, "id"), id, sizeof id) != 0) exit(1);
        on_play(msg, id);
    } else if (string_is(type, "review")) { /* only under the accuse policy: never accuse */
        if (raw_token(find_key(msg, "id"), id, sizeof id) != 0) exit(1);
        printf("{\"type\":\"review\",\"id\":%s,\"accuse\":null}\n", id);
        fflush(stdout);
    } else if (string_is(type, "mano_start")) {
        const char *t = find_key(msg, "trump");
        const char *end = t ? skip_string(t) : NULL;
        trump = end ? suit_index(t + 1, (size_t)(end - 1 - (t + 1))) : -1;
    } else if (string_is(type, "partido_start")) {
        if (raw_token(find_key(msg, "partido"), partido_id, sizeof partido_id) != 0)
            strcpy(partido_id, "?");
        moves = 0;
        think_ns = 0;
    } else if (string_is(type, "partido_end")) {
        fprintf(stderr, "partido %s: %ld moves, %.3f ms thinking\n", partido_id, moves, think_ns / 1e6);
        fflush(stderr);
    } else if (string_is(type, "bye")) {
        exit(0);
    }
    /* every other event is ignored */
}

int main(void) {
    size_t cap = 4096, len = 0;
    char *line = malloc(cap);
    if (!line) return 1;
    for (;;) {
        /* Read one whole line, growing the buffer as needed. */
        len = 0;
        line[0] = '\0';
        for (;;) {
            if (!fgets(line + len, (int)(cap - len), stdin)) {
                if (len == 0) { /* end of input: the referee is gone */
                    free(line);
                    return 0;
                }
                break;
            }
            len += strlen(line + len);
            if (len > 0 && line[len - 1] == '\n') break;
            if (cap - len < 2) {
                char *bigger = realloc(line, cap * 2);
                if (!bigger) return 1;
                line = bigger;
                cap *= 2;
            }
        }
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
        if (len > 0) on_message(line);
    }
}
