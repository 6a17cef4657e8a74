// "Básico (Java)": a Tute Cabrero player in one file of plain Java 17, speaking
// the raw player protocol (docs/protocol.md). No libraries, no build tool:
//
//     javac Bot.java          (writes Bot.class and Bot$Json.class here)
//     java -cp . Bot          (what player.toml runs; the referee does it for you)
//
// How it talks: the referee writes one JSON object per line on our stdin.
// Requests (`hello`, `play`, and `review` under the accuse policy) carry an `id`
// and need exactly one reply line on stdout, with the same `id`. Everything else
// is an event we may use or ignore. stdout is ONLY for replies: debugging goes
// to stderr (System.err), which the referee saves to a log.
//
// The strategy lives in two methods, chooseCard and chooseCanto: change them.

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

public final class Bot {
    static final String NAME = "Básico (Java)"; // the name the referee shows for us

    // ================================================================ cards
    // A card is a string "<rank>-<suit>", e.g. "1-oro", "12-basto".
    static final String[] SUITS = {"oro", "copa", "espada", "basto"};
    // Ranks from weakest to strongest inside a suit: 2, 4, 5, 6, 7, 10, 11, 12, 3, 1.
    static final int[] ORDER = {2, 4, 5, 6, 7, 10, 11, 12, 3, 1};

    static int rank(String card) {
        return Integer.parseInt(card.substring(0, card.indexOf('-')));
    }

    static String suit(String card) {
        return card.substring(card.indexOf('-') + 1);
    }

    /** 0 (the 2, weakest) .. 9 (the as, strongest). */
    static int strength(String card) {
        int r = rank(card);
        for (int i = 0; i < ORDER.length; i++) {
            if (ORDER[i] == r) {
                return i;
            }
        }
        return -1;
    }

    /** Card points: as 11, tres 10, rey (12) 4, caballo (11) 3, sota (10) 2, the rest 0. */
    static int points(String card) {
        switch (rank(card)) {
            case 1: return 11;
            case 3: return 10;
            case 12: return 4;
            case 11: return 3;
            case 10: return 2;
            default: return 0;
        }
    }

    /** Whether {@code card} beats {@code winning}: stronger of the same suit, or a trump on a non-trump. */
    static boolean beats(String card, String winning, String trump) {
        if (suit(card).equals(suit(winning))) {
            return strength(card) > strength(winning);
        }
        return suit(card).equals(trump) && !suit(winning).equals(trump);
    }

    /** The card taking the baza so far; {@code table} holds its cards in playing order. */
    static String winningCard(List<String> table, String trump) {
        String winning = table.get(0);
        for (String card : table) {
            if (beats(card, winning, trump)) {
                winning = card;
            }
        }
        return winning;
    }

    // ================================================================ what we remember
    static String trump = null;              // the trump suit of this mano (from mano_start)
    static Set<String> sung = new HashSet<>(); // cantos sung by anybody in this mano (from sang)

    // ================================================================ the strategy
    /**
     * The card to play, always one of {@code legal}: the request's list of the cards the
     * rules allow now (protocol revision 1.3). The referee has already applied "follow suit
     * and beat, else trump and beat", so any card of it is safe and any other is a renuncio.
     *
     * Like sample_players/a_mas: leading, our strongest card that is not a trump (trumps are
     * kept to win bazas later); following, the cheapest card that wins the baza, else the
     * cheapest card of all.
     */
    static String chooseCard(List<String> legal, List<String> table, String trump) {
        if (table.isEmpty()) { // we lead
            List<String> plain = new ArrayList<>(); // the cards that are not trumps
            for (String c : legal) {
                if (!suit(c).equals(trump)) {
                    plain.add(c);
                }
            }
            return strongest(plain.isEmpty() ? legal : plain);
        }
        String winning = winningCard(table, trump);
        List<String> winners = new ArrayList<>();
        for (String c : legal) {
            if (beats(c, winning, trump)) {
                winners.add(c);
            }
        }
        return cheapest(winners.isEmpty() ? legal : winners);
    }

    /** The strongest card (when two are as strong, the first). */
    static String strongest(List<String> cards) {
        String best = cards.get(0);
        for (String c : cards) {
            if (strength(c) > strength(best)) {
                best = c;
            }
        }
        return best;
    }

    /** The cheapest card: fewest points first, then weakest. */
    static String cheapest(List<String> cards) {
        String best = cards.get(0);
        for (String c : cards) {
            if (points(c) < points(best) || (points(c) == points(best) && strength(c) < strength(best))) {
                best = c;
            }
        }
        return best;
    }

    /**
     * The canto to sing now, or null. Only asked when the request says {@code may_sing}: true
     * (we won the last baza and lead this one). The referee checks every canto: one we cannot
     * sing is a false canto (a fault), so we sing only what we surely hold.
     */
    static String chooseCanto(List<String> hand) {
        for (int r : new int[] {12, 11}) { // tute: the four reyes or the four caballos
            boolean all = true;
            for (String s : SUITS) {
                all &= hand.contains(r + "-" + s);
            }
            if (all) {
                return "tute"; // the mano ends at once: every other player loses it
            }
        }
        if (pair(hand, trump) && !sung.contains("cuarenta")) {
            return "cuarenta"; // rey and caballo of trump: +40
        }
        for (String s : SUITS) { // another suit's pair: +20 (the trump pair is never a veinte)
            if (!s.equals(trump) && pair(hand, s) && !sung.contains("veinte-" + s)) {
                return "veinte-" + s;
            }
        }
        return null;
    }

    static boolean pair(List<String> hand, String suit) {
        return hand.contains("12-" + suit) && hand.contains("11-" + suit);
    }

    // ================================================================ the protocol
    // Our own stdout, in UTF-8 whatever the machine's locale (the referee runs us with an empty
    // environment), with no automatic flushing: reply() flushes every line itself. A reply left
    // in a buffer never reaches the referee, and the move times out.
    static final PrintStream OUT =
            new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);

    /** Writes one reply line and flushes it. */
    static void reply(String json) {
        OUT.print(json + "\n");
        OUT.flush();
    }

    /** A Java string as a JSON string literal. */
    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }

    @SuppressWarnings("unchecked")
    static List<String> strings(Object list) { // a JSON array of strings
        List<String> out = new ArrayList<>();
        for (Object o : (List<Object>) list) {
            out.add((String) o);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    static List<String> tableCards(Object table) { // [{"seat":2,"card":"1-copa"}, ...] -> the cards
        List<String> out = new ArrayList<>();
        for (Object o : (List<Object>) table) {
            out.add((String) ((Map<String, Object>) o).get("card"));
        }
        return out;
    }

    /** A `play` request: one card (and maybe a canto beside it), or tute alone. */
    static void onPlay(Map<String, Object> msg, long id) {
        List<String> legal = strings(msg.get("legal"));
        // The playoff of --variant hasta-un-ganador is Tute de a dos (its requests say
        // "game":"tute-dos" and carry their own trump): an empty `legal` there asks for a
        // canto or the cambio, and we pass by answering with neither card nor sing.
        String suitOfTrump = msg.get("trump") instanceof String ? (String) msg.get("trump") : trump;
        if (legal.isEmpty()) {
            reply("{\"type\":\"play\",\"id\":" + id + "}");
            return;
        }
        String card = chooseCard(legal, tableCards(msg.get("table")), suitOfTrump);
        // Tute Cabrero's may_sing is true or false (the playoff's is a list: we never sing there).
        if (Boolean.TRUE.equals(msg.get("may_sing"))) {
            String canto = chooseCanto(strings(msg.get("hand")));
            if ("tute".equals(canto)) { // tute is sung WITHOUT a card (a card beside it is a fault)
                reply("{\"type\":\"play\",\"id\":" + id + ",\"sing\":\"tute\"}");
                return;
            }
            if (canto != null) {
                reply("{\"type\":\"play\",\"id\":" + id + ",\"card\":" + quote(card)
                        + ",\"sing\":" + quote(canto) + "}");
                return;
            }
        }
        reply("{\"type\":\"play\",\"id\":" + id + ",\"card\":" + quote(card) + "}");
    }

    static void onMessage(Map<String, Object> msg) {
        Object type = msg.get("type");
        long id = msg.get("id") instanceof Long ? (Long) msg.get("id") : -1; // requests' ids are integers
        if ("hello".equals(type)) { // once per process: answer within limits.init_ms
            Object game = msg.get("game"); // no `game`: Tute Cabrero
            if (game != null && !"tute-cabrero".equals(game)) {
                System.err.println("this bot plays Tute Cabrero only, not " + game);
                System.exit(1);
            }
            System.err.println("hello: I am " + msg.get("name") + ", limits " + msg.get("limits"));
            reply("{\"type\":\"ready\",\"id\":" + id + ",\"name\":" + quote(NAME) + "}");
        } else if ("play".equals(type)) { // answer within limits.move_ms
            try {
                onPlay(msg, id);
            } catch (RuntimeException e) {
                // A bug in our strategy: log it and still answer with a legal card, since a
                // missing reply would be a timeout (and a disqualification).
                e.printStackTrace();
                reply("{\"type\":\"play\",\"id\":" + id + ",\"card\":" + quote(strings(msg.get("legal")).get(0)) + "}");
            }
        } else if ("review".equals(type)) { // only under --renuncio accuse: we never accuse
            reply("{\"type\":\"review\",\"id\":" + id + ",\"accuse\":null}");
        } else if ("mano_start".equals(type)) { // a new mano: new trump, no cantos sung yet
            trump = (String) msg.get("trump");
            sung.clear();
        } else if ("sang".equals(type)) {
            sung.add((String) msg.get("canto"));
        } else if ("bye".equals(type)) {
            System.exit(0);
        }
        // every other event (partido_start, played, trick_end, mano_end, ...) is not needed here
    }

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) { // null: end of input, the referee is gone
            if (line.isBlank()) {
                continue;
            }
            Object msg;
            try {
                msg = Json.parse(line);
            } catch (RuntimeException e) {
                System.err.println("not JSON, ignored: " + line);
                continue;
            }
            if (msg instanceof Map) {
                onMessage((Map<String, Object>) msg);
            }
        }
        System.exit(0);
    }

    // ================================================================ a small JSON reader
    /**
     * Java has no JSON parser of its own, so here is a small one. It reads one JSON value into
     * plain Java objects: an object becomes a Map (String to value), an array a List, a string
     * a String, an integer a Long, another number a Double, true/false a Boolean, null null.
     * Enough for every message of the protocol; not a validator.
     */
    static final class Json {
        private final String s;
        private int i; // the position we are reading

        private Json(String s) {
            this.s = s;
        }

        static Object parse(String text) {
            Json j = new Json(text);
            Object v = j.value();
            j.spaces();
            if (j.i != j.s.length()) {
                throw new IllegalArgumentException("text after the value at " + j.i);
            }
            return v;
        }

        private void spaces() {
            while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) {
                i++;
            }
        }

        private char peek() {
            if (i >= s.length()) {
                throw new IllegalArgumentException("unexpected end of line");
            }
            return s.charAt(i);
        }

        private void expect(char c) {
            if (peek() != c) {
                throw new IllegalArgumentException("expected '" + c + "' at " + i);
            }
            i++;
        }

        private Object value() {
            spaces();
            char c = peek();
            if (c == '{') {
                return object();
            }
            if (c == '[') {
                return array();
            }
            if (c == '"') {
                return string();
            }
            for (String word : new String[] {"true", "false", "null"}) {
                if (s.startsWith(word, i)) {
                    i += word.length();
                    return word.equals("null") ? null : Boolean.valueOf(word);
                }
            }
            return number();
        }

        private Map<String, Object> object() {
            Map<String, Object> m = new LinkedHashMap<>();
            expect('{');
            spaces();
            if (peek() == '}') {
                i++;
                return m;
            }
            while (true) {
                spaces();
                String key = string();
                spaces();
                expect(':');
                m.put(key, value());
                spaces();
                if (peek() == ',') {
                    i++;
                } else {
                    expect('}');
                    return m;
                }
            }
        }

        private List<Object> array() {
            List<Object> l = new ArrayList<>();
            expect('[');
            spaces();
            if (peek() == ']') {
                i++;
                return l;
            }
            while (true) {
                l.add(value());
                spaces();
                if (peek() == ',') {
                    i++;
                } else {
                    expect(']');
                    return l;
                }
            }
        }

        private String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (true) {
                char c = peek();
                i++;
                if (c == '"') {
                    return b.toString();
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                char e = peek(); // an escape: \" \\ \/ \b \f \n \r \t \\uXXXX
                i++;
                switch (e) {
                    case 'b': b.append('\b'); break;
                    case 'f': b.append('\f'); break;
                    case 'n': b.append('\n'); break;
                    case 'r': b.append('\r'); break;
                    case 't': b.append('\t'); break;
                    case 'u':
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                        break;
                    default: b.append(e);
                }
            }
        }

        private Object number() {
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
                i++;
            }
            String num = s.substring(start, i);
            if (num.isEmpty()) {
                throw new IllegalArgumentException("no JSON value at " + start);
            }
            if (num.contains(".") || num.contains("e") || num.contains("E")) {
                return Double.parseDouble(num);
            }
            return Long.parseLong(num);
        }
    }
}
