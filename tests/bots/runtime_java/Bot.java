// A Tute Cabrero player in plain Java 17, speaking the raw player protocol
// (docs/protocol.md) over stdin/stdout. No libraries. Build and run, in this
// folder (player.toml gives the JVM flags and why the sandbox needs them):
//
//     javac -d . Bot.java
//     java -Xmx128m -XX:+UseSerialGC -XX:MaxMetaspaceSize=64m -cp . Bot
//
// It is one of the "runtime" bots that exercise what a typical player of its
// language does inside the sandbox. Strategy: the cheapest legal card (fewest
// points, then weakest); it never sings and never accuses. legalCards() is a
// port of legalCards in sample_players/node_basico/bot.js.

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public final class Bot {
    // ------------------------------------------------------------ cards
    // A card is "<rank>-<suit>", e.g. "1-oro", "12-basto".
    // Ranks from weakest to strongest inside a suit: 2, 4, 5, 6, 7, 10, 11, 12, 3, 1.
    private static final int[] ORDER = {2, 4, 5, 6, 7, 10, 11, 12, 3, 1};

    static int rank(String card) {
        return Integer.parseInt(card.substring(0, card.indexOf('-')));
    }

    static String suit(String card) {
        return card.substring(card.indexOf('-') + 1);
    }

    static int strength(String card) {
        int r = rank(card);
        for (int i = 0; i < ORDER.length; i++) {
            if (ORDER[i] == r) {
                return i;
            }
        }
        return -1;
    }

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

    /** The card winning a trick so far; {@code table} holds the cards in playing order. */
    static String winningCard(List<String> table, String trump) {
        String winning = table.get(0);
        for (String card : table.subList(1, table.size())) {
            if (beats(card, winning, trump)) {
                winning = card;
            }
        }
        return winning;
    }

    /** The cards of {@code hand} we may play (docs/rules.md, "A trick"). */
    static List<String> legalCards(List<String> hand, List<String> table, String trump) {
        if (table.isEmpty()) {
            return hand; // leading: anything goes
        }
        String led = suit(table.get(0));
        String winning = winningCard(table, trump);
        List<String> follow = new ArrayList<>();
        for (String c : hand) {
            if (suit(c).equals(led)) {
                follow.add(c);
            }
        }
        if (!follow.isEmpty()) {
            // 1. Follow suit, and beat the winning card if we can.
            List<String> higher = new ArrayList<>();
            for (String c : follow) {
                if (beats(c, winning, trump)) {
                    higher.add(c);
                }
            }
            return higher.isEmpty() ? follow : higher;
        }
        // 2. Without the led suit: a trump that beats the winning card, if we have one.
        List<String> trumps = new ArrayList<>();
        for (String c : hand) {
            if (suit(c).equals(trump) && beats(c, winning, trump)) {
                trumps.add(c);
            }
        }
        if (!trumps.isEmpty()) {
            return trumps;
        }
        // 3. Otherwise any card.
        return hand;
    }

    /** The cheapest legal card: fewest points, then weakest. */
    static String choose(List<String> hand, List<String> table, String trump) {
        String best = null;
        for (String c : legalCards(hand, table, trump)) {
            if (best == null || points(c) < points(best)
                    || (points(c) == points(best) && strength(c) < strength(best))) {
                best = c;
            }
        }
        return best;
    }

    // ------------------------------------------------------------ a small JSON reader
    /** Parses one JSON value: Map, List, String, Long/Double, Boolean or null. */
    static final class Json {
        private final String s;
        private int i;

        private Json(String s) {
            this.s = s;
        }

        static Object parse(String text) {
            Json j = new Json(text);
            Object v = j.value();
            j.ws();
            if (j.i != j.s.length()) {
                throw new IllegalArgumentException("trailing text at " + j.i);
            }
            return v;
        }

        private void ws() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        private Object value() {
            ws();
            if (i >= s.length()) {
                throw new IllegalArgumentException("unexpected end");
            }
            char c = s.charAt(i);
            if (c == '{') {
                Map<String, Object> m = new LinkedHashMap<>();
                i++;
                ws();
                if (s.charAt(i) == '}') {
                    i++;
                    return m;
                }
                while (true) {
                    ws();
                    String k = string();
                    ws();
                    expect(':');
                    m.put(k, value());
                    ws();
                    if (s.charAt(i) == ',') {
                        i++;
                    } else {
                        expect('}');
                        return m;
                    }
                }
            }
            if (c == '[') {
                List<Object> l = new ArrayList<>();
                i++;
                ws();
                if (s.charAt(i) == ']') {
                    i++;
                    return l;
                }
                while (true) {
                    l.add(value());
                    ws();
                    if (s.charAt(i) == ',') {
                        i++;
                    } else {
                        expect(']');
                        return l;
                    }
                }
            }
            if (c == '"') {
                return string();
            }
            if (s.startsWith("true", i)) {
                i += 4;
                return Boolean.TRUE;
            }
            if (s.startsWith("false", i)) {
                i += 5;
                return Boolean.FALSE;
            }
            if (s.startsWith("null", i)) {
                i += 4;
                return null;
            }
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
                i++;
            }
            String num = s.substring(start, i);
            if (num.isEmpty()) {
                throw new IllegalArgumentException("bad value at " + start);
            }
            if (num.contains(".") || num.contains("e") || num.contains("E")) {
                return Double.parseDouble(num);
            }
            return Long.parseLong(num);
        }

        private void expect(char c) {
            if (i >= s.length() || s.charAt(i) != c) {
                throw new IllegalArgumentException("expected '" + c + "' at " + i);
            }
            i++;
        }

        private String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') {
                    return b.toString();
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                char e = s.charAt(i++);
                switch (e) {
                    case 'n': b.append('\n'); break;
                    case 't': b.append('\t'); break;
                    case 'r': b.append('\r'); break;
                    case 'b': b.append('\b'); break;
                    case 'f': b.append('\f'); break;
                    case 'u':
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                        break;
                    default: b.append(e); // \" \\ \/
                }
            }
        }
    }

    // ------------------------------------------------------------ the protocol
    private static final PrintStream OUT =
            new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);

    private static String trump = null; // suit of trump in this mano (from mano_start)

    private static void reply(String line) {
        OUT.print(line + "\n");
        OUT.flush();
    }

    /** The id of a request, as JSON: the referee's ids are integers. */
    private static String id(Map<?, ?> msg) {
        Object id = msg.get("id");
        if (id instanceof String) {
            return "\"" + ((String) id).replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        }
        return String.valueOf(id);
    }

    @SuppressWarnings("unchecked")
    private static void onMessage(Map<String, Object> msg) {
        Object type = msg.get("type");
        if ("hello".equals(type)) {
            System.err.println("hello: limits " + msg.get("limits"));
            reply("{\"type\":\"ready\",\"id\":" + id(msg) + ",\"name\":\"Runtime Java\"}");
        } else if ("play".equals(type)) {
            List<String> hand = new ArrayList<>();
            for (Object c : (List<Object>) msg.get("hand")) {
                hand.add((String) c);
            }
            List<String> table = new ArrayList<>();
            for (Object t : (List<Object>) msg.get("table")) {
                table.add((String) ((Map<String, Object>) t).get("card"));
            }
            String card = choose(hand, table, trump);
            reply("{\"type\":\"play\",\"id\":" + id(msg) + ",\"card\":\"" + card + "\"}");
        } else if ("review".equals(type)) { // only under the accuse policy: never accuse
            reply("{\"type\":\"review\",\"id\":" + id(msg) + ",\"accuse\":null}");
        } else if ("mano_start".equals(type)) {
            trump = (String) msg.get("trump");
        } else if ("partido_start".equals(type)) {
            System.err.println("partido " + msg.get("partido") + ", seat " + msg.get("seat"));
        } else if ("bye".equals(type)) {
            System.exit(0);
        }
        // every other event is ignored
    }

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) { // end of input: the referee is gone
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
}
