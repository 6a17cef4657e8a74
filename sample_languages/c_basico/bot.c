/*
 * "Básico (C)": a Tute Cabrero player in one file of plain C, speaking the raw
 * player protocol (docs/protocol.md). Only the C library, no build tool:
 *
 *     cc -O2 -o bot bot.c     (writes the program ./bot here)
 *     ./bot                   (what player.toml runs; the referee does it for you)
 *
 * How it talks: the referee writes one JSON object per line on our stdin.
 * Requests (`hello`, `play`, and `review` under the accuse policy) carry an
 * `id` and need exactly one reply line on stdout, with the same `id`.
 * Everything else is an event we may use or ignore. stdout is ONLY for
 * replies: debugging goes to stderr (fprintf(stderr, ...)), which the referee
 * saves to a log.
 *
 * The strategy lives in two functions, choose_card and choose_canto: change them.
 */
#define _POSIX_C_SOURCE 200809L /* for getline() */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "Básico (C)" /* the name the referee shows for us */

/* ================================================================ a small JSON reader
 * C has no JSON parser of its own, so here is a small one. json_parse() turns
 * one line into a tree of Json nodes: an object's or an array's members are
 * its `child` and that child's `next`, `next`, ... (an object's members also
 * have their `key`). Strings are decoded in place, inside the line itself, so
 * nothing is allocated: the nodes come from a fixed pool, reused for every
 * line. Enough for every message of the protocol; not a validator.
 */
typedef enum { J_NULL, J_FALSE, J_TRUE, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT } JsonType;

typedef struct Json {
    JsonType type;
    double number;      /* J_NUMBER */
    const char *string; /* J_STRING */
    const char *key;    /* a member of an object: its name */
    struct Json *child; /* J_ARRAY, J_OBJECT: the first member */
    struct Json *next;  /* the next member of the same array or object */
} Json;

#define POOL_SIZE 4096 /* nodes per line: a play request needs about 60 */
#define MAX_DEPTH 32   /* the protocol nests no deeper */
static Json pool[POOL_SIZE];
static int used;

static char *pos; /* where json_parse is reading */

static void skip_spaces(void) {
    while (*pos == ' ' || *pos == '\t' || *pos == '\r' || *pos == '\n') pos++;
}

/* Appends the code point cp to out as UTF-8; returns the new end. */
static char *put_utf8(char *out, unsigned long cp) {
    if (cp < 0x80) {
        *out++ = (char)cp;
    } else if (cp < 0x800) {
        *out++ = (char)(0xC0 | (cp >> 6));
        *out++ = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *out++ = (char)(0xE0 | (cp >> 12));
        *out++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *out++ = (char)(0x80 | (cp & 0x3F));
    } else {
        *out++ = (char)(0xF0 | (cp >> 18));
        *out++ = (char)(0x80 | ((cp >> 12) & 0x3F));
        *out++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *out++ = (char)(0x80 | (cp & 0x3F));
    }
    return out;
}

/* Reads 4 hex digits at pos (after \u); -1 when they are not. */
static long hex4(void) {
    long v = 0;
    for (int k = 0; k < 4; k++) {
        char c = *pos++;
        v <<= 4;
        if (c >= '0' && c <= '9') v |= c - '0';
        else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
        else return -1;
    }
    return v;
}

/* Reads a string at pos (at its opening quote), decoding it in place; NULL when malformed.
 * The decoded text is never longer than the escaped one, so it fits where it was. */
static const char *parse_string(void) {
    if (*pos != '"') return NULL;
    char *start = ++pos, *out = start;
    for (;;) {
        char c = *pos++;
        if (c == '\0') return NULL;
        if (c == '"') break;
        if (c != '\\') {
            *out++ = c;
            continue;
        }
        switch (*pos++) { /* an escape: \" \\ \/ \b \f \n \r \t \uXXXX */
        case '"': *out++ = '"'; break;
        case '\\': *out++ = '\\'; break;
        case '/': *out++ = '/'; break;
        case 'b': *out++ = '\b'; break;
        case 'f': *out++ = '\f'; break;
        case 'n': *out++ = '\n'; break;
        case 'r': *out++ = '\r'; break;
        case 't': *out++ = '\t'; break;
        case 'u': {
            long cp = hex4();
            if (cp < 0) return NULL;
            if (cp >= 0xD800 && cp < 0xDC00 && pos[0] == '\\' && pos[1] == 'u') { /* a surrogate pair */
                pos += 2;
                long low = hex4();
                if (low < 0xDC00 || low > 0xDFFF) return NULL;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            }
            out = put_utf8(out, (unsigned long)cp);
            break;
        }
        default: return NULL;
        }
    }
    *out = '\0'; /* safe: out is before the closing quote we just passed */
    return start;
}

static Json *parse_value(int depth);

/* The members of an array or object at pos (at its '[' or '{'), linked as node's children. */
static Json *parse_members(Json *node, char close, int depth) {
    Json **last = &node->child;
    pos++;
    skip_spaces();
    if (*pos == close) {
        pos++;
        return node;
    }
    for (;;) {
        const char *key = NULL;
        skip_spaces();
        if (close == '}') { /* an object's member: "key": value */
            key = parse_string();
            skip_spaces();
            if (!key || *pos != ':') return NULL;
            pos++;
        }
        Json *member = parse_value(depth + 1);
        if (!member) return NULL;
        member->key = key;
        *last = member;
        last = &member->next;
        skip_spaces();
        if (*pos == ',') {
            pos++;
        } else if (*pos == close) {
            pos++;
            return node;
        } else {
            return NULL;
        }
    }
}

static Json *parse_value(int depth) {
    if (depth > MAX_DEPTH || used == POOL_SIZE) return NULL;
    Json *node = &pool[used++];
    memset(node, 0, sizeof *node);
    skip_spaces();
    switch (*pos) {
    case '{': node->type = J_OBJECT; return parse_members(node, '}', depth);
    case '[': node->type = J_ARRAY; return parse_members(node, ']', depth);
    case '"': node->type = J_STRING; node->string = parse_string(); return node->string ? node : NULL;
    }
    if (strncmp(pos, "true", 4) == 0) { node->type = J_TRUE; pos += 4; return node; }
    if (strncmp(pos, "false", 5) == 0) { node->type = J_FALSE; pos += 5; return node; }
    if (strncmp(pos, "null", 4) == 0) { node->type = J_NULL; pos += 4; return node; }
    char *end;
    node->type = J_NUMBER;
    node->number = strtod(pos, &end);
    if (end == pos) return NULL;
    pos = end;
    return node;
}

/* Parses one line (changing it: strings are decoded in place); NULL when it is not JSON. */
static Json *json_parse(char *line) {
    used = 0;
    pos = line;
    Json *root = parse_value(0);
    if (!root) return NULL;
    skip_spaces();
    return *pos == '\0' ? root : NULL;
}

/* The member `key` of an object, or NULL. */
static Json *json_get(const Json *object, const char *key) {
    if (!object || object->type != J_OBJECT) return NULL;
    for (Json *m = object->child; m; m = m->next)
        if (strcmp(m->key, key) == 0) return m;
    return NULL;
}

/* The string member `key` of an object, or NULL when it is missing or not a string. */
static const char *json_string(const Json *object, const char *key) {
    Json *v = json_get(object, key);
    return v && v->type == J_STRING ? v->string : NULL;
}

/* ================================================================ cards
 * A card is a string "<rank>-<suit>", e.g. "1-oro", "12-basto".
 */
static const char *const SUITS[4] = {"oro", "copa", "espada", "basto"};
/* Ranks from weakest to strongest inside a suit: 2, 4, 5, 6, 7, 10, 11, 12, 3, 1. */
static const int ORDER[10] = {2, 4, 5, 6, 7, 10, 11, 12, 3, 1};

#define MAX_CARDS 48 /* more than any hand or baza holds */

static int rank(const char *card) { return atoi(card); }

static const char *suit(const char *card) {
    const char *dash = strchr(card, '-');
    return dash ? dash + 1 : "";
}

static int same_suit(const char *card, const char *s) { return s && strcmp(suit(card), s) == 0; }

/* 0 (the 2, weakest) .. 9 (the as, strongest). */
static int strength(const char *card) {
    for (int i = 0; i < 10; i++)
        if (ORDER[i] == rank(card)) return i;
    return -1;
}

/* Card points: as 11, tres 10, rey (12) 4, caballo (11) 3, sota (10) 2, the rest 0. */
static int points(const char *card) {
    switch (rank(card)) {
    case 1: return 11;
    case 3: return 10;
    case 12: return 4;
    case 11: return 3;
    case 10: return 2;
    default: return 0;
    }
}

/* Whether `card` beats `winning`: stronger of the same suit, or a trump on a non-trump. */
static int beats(const char *card, const char *winning, const char *trump) {
    if (strcmp(suit(card), suit(winning)) == 0) return strength(card) > strength(winning);
    return same_suit(card, trump) && !same_suit(winning, trump);
}

/* Copies the strings of a JSON array into cards[]; returns how many. For the table,
 * [{"seat":2,"card":"1-copa"}, ...], it takes each member's "card". */
static int read_cards(const Json *array, const char **cards) {
    int n = 0;
    if (!array || array->type != J_ARRAY) return 0;
    for (Json *m = array->child; m && n < MAX_CARDS; m = m->next) {
        const char *card = m->type == J_OBJECT ? json_string(m, "card") : m->string;
        if (card) cards[n++] = card;
    }
    return n;
}

static int holds(const char **hand, int n, const char *card) {
    for (int i = 0; i < n; i++)
        if (strcmp(hand[i], card) == 0) return 1;
    return 0;
}

/* ================================================================ what we remember */
static char trump[16] = "";  /* the trump suit of this mano (from mano_start) */
static char sung[8][24];     /* cantos sung by anybody in this mano (from sang) */
static int nsung = 0;

static int was_sung(const char *canto) {
    for (int i = 0; i < nsung; i++)
        if (strcmp(sung[i], canto) == 0) return 1;
    return 0;
}

/* ================================================================ the strategy */
/* The strongest card (when two are as strong, the first). */
static const char *strongest(const char **cards, int n) {
    const char *best = cards[0];
    for (int i = 1; i < n; i++)
        if (strength(cards[i]) > strength(best)) best = cards[i];
    return best;
}

/* The cheapest card: fewest points first, then weakest. */
static const char *cheapest(const char **cards, int n) {
    const char *best = cards[0];
    for (int i = 1; i < n; i++) {
        int fewer = points(cards[i]) - points(best);
        if (fewer < 0 || (fewer == 0 && strength(cards[i]) < strength(best))) best = cards[i];
    }
    return best;
}

/*
 * The card to play, always one of legal[0..nlegal): the request's list of the cards
 * the rules allow now (protocol revision 1.3). The referee has already applied "follow
 * suit and beat, else trump and beat", so any card of it is safe and any other is a
 * renuncio.
 *
 * Like sample_players/a_mas: leading, our strongest card that is not a trump (trumps
 * are kept to win bazas later); following, the cheapest card that wins the baza, else
 * the cheapest card of all.
 */
static const char *choose_card(const char **legal, int nlegal, const char **table, int ntable,
                               const char *trump_suit) {
    const char *candidates[MAX_CARDS];
    int n = 0;
    if (ntable == 0) { /* we lead */
        for (int i = 0; i < nlegal; i++)
            if (!same_suit(legal[i], trump_suit)) candidates[n++] = legal[i];
        return n > 0 ? strongest(candidates, n) : strongest(legal, nlegal);
    }
    const char *winning = table[0]; /* the card taking the baza so far */
    for (int i = 1; i < ntable; i++)
        if (beats(table[i], winning, trump_suit)) winning = table[i];
    for (int i = 0; i < nlegal; i++)
        if (beats(legal[i], winning, trump_suit)) candidates[n++] = legal[i];
    return n > 0 ? cheapest(candidates, n) : cheapest(legal, nlegal);
}

/*
 * The canto to sing now (written into out), or 0 for none. Only asked when the request
 * says "may_sing": true (we won the last baza and lead this one). The referee checks
 * every canto: one we cannot sing is a false canto (a fault), so we sing only what we
 * surely hold.
 */
static int choose_canto(const char **hand, int nhand, char *out, size_t size) {
    char a[24], b[24];
    for (int r = 11; r <= 12; r++) { /* tute: the four caballos or the four reyes */
        int all = 1;
        for (int s = 0; s < 4; s++) {
            snprintf(a, sizeof a, "%d-%s", r, SUITS[s]);
            all = all && holds(hand, nhand, a);
        }
        if (all) return snprintf(out, size, "tute") > 0; /* the mano ends: all the others lose it */
    }
    for (int s = 0; s < 4; s++) { /* rey and caballo of one suit */
        snprintf(a, sizeof a, "12-%s", SUITS[s]);
        snprintf(b, sizeof b, "11-%s", SUITS[s]);
        if (!holds(hand, nhand, a) || !holds(hand, nhand, b)) continue;
        if (strcmp(SUITS[s], trump) == 0) { /* of trump: the cuarenta, +40 */
            if (!was_sung("cuarenta")) return snprintf(out, size, "cuarenta") > 0;
        } else { /* another suit: a veinte, +20 */
            snprintf(a, sizeof a, "veinte-%s", SUITS[s]);
            if (!was_sung(a)) return snprintf(out, size, "%s", a) > 0;
        }
    }
    return 0;
}

/* ================================================================ the protocol */
/* Every reply goes through here: one line, then fflush. A reply left in stdout's
 * buffer never reaches the referee, and the move times out. */
static void reply(const char *line) {
    fputs(line, stdout);
    fputc('\n', stdout);
    fflush(stdout);
}

/* A `play` request: one card (and maybe a canto beside it), or tute alone. */
static void on_play(const Json *msg, long id) {
    const char *hand[MAX_CARDS], *legal[MAX_CARDS], *table[MAX_CARDS];
    int nhand = read_cards(json_get(msg, "hand"), hand);
    int nlegal = read_cards(json_get(msg, "legal"), legal);
    int ntable = read_cards(json_get(msg, "table"), table);
    char line[256], canto[24];
    /* The playoff of --variant hasta-un-ganador is Tute de a dos (its requests say
     * "game":"tute-dos" and carry their own trump): an empty `legal` there asks for a
     * canto or the cambio, and we pass by answering with neither card nor sing. */
    const char *trump_suit = json_string(msg, "trump") ? json_string(msg, "trump") : trump;
    if (nlegal == 0) {
        snprintf(line, sizeof line, "{\"type\":\"play\",\"id\":%ld}", id);
        reply(line);
        return;
    }
    const char *card = choose_card(legal, nlegal, table, ntable, trump_suit);
    Json *may_sing = json_get(msg, "may_sing"); /* Cabrero: true or false (the playoff's: a list) */
    if (may_sing && may_sing->type == J_TRUE && choose_canto(hand, nhand, canto, sizeof canto)) {
        if (strcmp(canto, "tute") == 0) /* tute is sung WITHOUT a card (a card beside it is a fault) */
            snprintf(line, sizeof line, "{\"type\":\"play\",\"id\":%ld,\"sing\":\"tute\"}", id);
        else
            snprintf(line, sizeof line, "{\"type\":\"play\",\"id\":%ld,\"card\":\"%s\",\"sing\":\"%s\"}", id,
                     card, canto);
    } else {
        snprintf(line, sizeof line, "{\"type\":\"play\",\"id\":%ld,\"card\":\"%s\"}", id, card);
    }
    reply(line);
}

static void on_message(const Json *msg) {
    const char *type = json_string(msg, "type");
    Json *id_node = json_get(msg, "id");
    long id = id_node && id_node->type == J_NUMBER ? (long)id_node->number : -1; /* requests' ids */
    char line[256];
    if (!type) return;
    if (strcmp(type, "hello") == 0) { /* once per process: answer within limits.init_ms */
        const char *game = json_string(msg, "game"); /* no `game`: Tute Cabrero */
        if (game && strcmp(game, "tute-cabrero") != 0) {
            fprintf(stderr, "this bot plays Tute Cabrero only, not %s\n", game);
            exit(1);
        }
        fprintf(stderr, "hello: I am %s\n", json_string(msg, "name") ? json_string(msg, "name") : "?");
        snprintf(line, sizeof line, "{\"type\":\"ready\",\"id\":%ld,\"name\":\"%s\"}", id, NAME);
        reply(line);
    } else if (strcmp(type, "play") == 0) { /* answer within limits.move_ms */
        on_play(msg, id);
    } else if (strcmp(type, "review") == 0) { /* only under --renuncio accuse: we never accuse */
        snprintf(line, sizeof line, "{\"type\":\"review\",\"id\":%ld,\"accuse\":null}", id);
        reply(line);
    } else if (strcmp(type, "mano_start") == 0) { /* a new mano: new trump, no cantos sung yet */
        const char *t = json_string(msg, "trump");
        snprintf(trump, sizeof trump, "%s", t ? t : "");
        nsung = 0;
    } else if (strcmp(type, "sang") == 0) {
        const char *canto = json_string(msg, "canto");
        if (canto && nsung < 8) snprintf(sung[nsung++], sizeof sung[0], "%s", canto);
    } else if (strcmp(type, "bye") == 0) {
        exit(0);
    }
    /* every other event (partido_start, played, trick_end, mano_end, ...) is not needed here */
}

int main(void) {
    char *line = NULL;
    size_t capacity = 0;
    /* stdout to a pipe is fully buffered by default: make it line buffered (reply() also
     * flushes each line, so either alone would do). */
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (getline(&line, &capacity, stdin) != -1) { /* -1: end of input, the referee is gone */
        Json *msg = json_parse(line);
        if (msg) {
            on_message(msg);
        } else if (strspn(line, " \t\r\n") != strlen(line)) {
            fprintf(stderr, "not JSON, ignored: %s", line); /* `line` was changed while parsed */
        }
    }
    free(line);
    return 0;
}
