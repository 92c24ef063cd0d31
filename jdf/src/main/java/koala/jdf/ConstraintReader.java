package koala.jdf;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads one {@code constraints} value, word by word, pointing each problem at the word that is wrong:
 *
 * <pre>
 * affinity      TARGET GROUP [hard|soft]
 * anti-affinity TARGET GROUP [hard|soft]
 * cardinality   MIN..MAX TARGET GROUP [hard|soft]      MAX a whole number or *
 * </pre>
 *
 * TARGET is one or more tags joined by ',' ({@code role=worker}, {@code hbase,store}); GROUP is
 * {@code host}, {@code site}, {@code network} or a kind the grid declares ({@code rack}); hard is the
 * default. A hard lower bound (affinity, cardinality with MIN above 0) over a kind finer than the site
 * is refused: KOALA chooses a node's site, SGE its host, so KOALA could not keep it.
 */
final class ConstraintReader {
    private static final Pattern BOUNDS = Pattern.compile("(\\d{1,6})\\.\\.(\\d{1,6}|\\*)");
    private static final Pattern GROUP_NAME = Pattern.compile("[a-z][a-z0-9_-]*");
    private static final List<String> KINDS = List.of(ConstraintSpec.AFFINITY, ConstraintSpec.ANTI_AFFINITY,
            ConstraintSpec.CARDINALITY);
    private static final String FORMS = "write \"affinity TARGET GROUP\", \"anti-affinity TARGET GROUP\" or "
            + "\"cardinality MIN..MAX TARGET GROUP\", then hard (the default) or soft";

    private final Problems problems;
    /** The group kinds the grid declares, or null when no grid is known (any well-formed name is taken). */
    private final Set<String> declared;

    ConstraintReader(Problems problems, Set<String> declared) {
        this.problems = problems;
        this.declared = declared;
    }

    /** A word of the value and where it starts in it. */
    private record Word(String text, int offset) {
    }

    /** The constraint, or empty when it is wrong (and reported). */
    Optional<ConstraintSpec> read(Rsl.Literal literal) {
        List<Word> words = words(literal.text());
        if (words.isEmpty()) {
            return fail(literal, 0, "empty constraint; " + FORMS);
        }
        Word kind = words.get(0);
        String k = kind.text().toLowerCase(java.util.Locale.ROOT);
        if (!KINDS.contains(k)) {
            String hint = KINDS.stream().min(Comparator.comparingInt(n -> Attribute.distance(k, n)))
                    .filter(n -> Attribute.distance(k, n) <= 3).map(n -> "did you mean '" + n + "'? ").orElse("");
            return fail(literal, kind.offset(), "'" + kind.text() + "' is not a constraint; " + hint + FORMS);
        }
        int next = 1;
        int min = k.equals(ConstraintSpec.AFFINITY) ? 1 : 0;
        int max = k.equals(ConstraintSpec.ANTI_AFFINITY) ? 0 : Integer.MAX_VALUE;
        if (k.equals(ConstraintSpec.CARDINALITY)) {
            if (words.size() < 2) {
                return fail(literal, literal.text().length(), "cardinality: missing MIN..MAX, e.g. 0..2 or 1..*");
            }
            Word b = words.get(1);
            Matcher m = BOUNDS.matcher(b.text());
            if (!m.matches()) {
                return fail(literal, b.offset(), "cardinality: '" + b.text() + "' is not MIN..MAX (e.g. 0..2, 1..*)");
            }
            min = Integer.parseInt(m.group(1));
            max = m.group(2).equals("*") ? Integer.MAX_VALUE : Integer.parseInt(m.group(2));
            if (max < min) {
                return fail(literal, b.offset(), "cardinality: '" + b.text() + "': MAX is below MIN");
            }
            next = 2;
        }
        if (words.size() < next + 2) {
            int at = words.size() > next ? words.get(words.size() - 1).offset() : literal.text().length();
            return fail(literal, at, k + ": missing " + (words.size() > next ? "the group (host, site, network"
                    + declaredList() + ")" : "the target tags and the group") + ", as in \"" + example(k) + "\"");
        }
        Word target = words.get(next);
        Optional<List<String>> tags = target(literal, target);
        Word group = words.get(next + 1);
        Optional<String> g = group(literal, group);
        boolean hard = true;
        if (words.size() > next + 2) {
            Word h = words.get(next + 2);
            if (!h.text().equalsIgnoreCase("hard") && !h.text().equalsIgnoreCase("soft")) {
                return fail(literal, h.offset(), "'" + h.text() + "' is not hard or soft");
            }
            hard = h.text().equalsIgnoreCase("hard");
            if (words.size() > next + 3) {
                Word extra = words.get(next + 3);
                return fail(literal, extra.offset(), "unexpected '" + extra.text() + "' after the constraint; " + FORMS);
            }
        }
        if (tags.isEmpty() || g.isEmpty()) {
            return Optional.empty();
        }
        if (hard && min > 0 && !g.get().equals("site") && !g.get().equals("network")) {
            return fail(literal, group.offset(), "a hard " + (k.equals(ConstraintSpec.AFFINITY) ? "affinity"
                    : "cardinality with MIN above 0") + " over " + g.get() + " cannot be kept: KOALA chooses a "
                    + "node's site and SGE its host; write it over site or network, or make it soft");
        }
        return Optional.of(new ConstraintSpec(k, tags.get(), g.get(), min, max, hard, literal.text(),
                literal.at(kind.offset())));
    }

    private Optional<List<String>> target(Rsl.Literal literal, Word target) {
        List<String> tags = new ArrayList<>();
        int offset = target.offset();
        for (String tag : target.text().split(",", -1)) {
            if (tag.isEmpty()) {
                fail(literal, offset, "an empty tag in target '" + target.text() + "'; join tags with ',' as in "
                        + "role=worker,hbase");
                return Optional.empty();
            }
            tags.add(tag);
            offset += tag.length() + 1;
        }
        return Optional.of(tags);
    }

    private Optional<String> group(Rsl.Literal literal, Word group) {
        String g = group.text();
        boolean nearMiss = ConstraintSpec.BUILT_IN_GROUPS.stream().anyMatch(b -> Attribute.distance(g, b) == 1);
        boolean known = ConstraintSpec.BUILT_IN_GROUPS.contains(g) || (declared == null
                ? GROUP_NAME.matcher(g).matches() && !nearMiss : declared.contains(g));
        if (known) {
            return Optional.of(g);
        }
        List<String> all = new ArrayList<>(ConstraintSpec.BUILT_IN_GROUPS);
        if (declared != null) {
            all.addAll(declared.stream().sorted().toList());
        }
        String hint = all.stream().min(Comparator.comparingInt(n -> Attribute.distance(g, n)))
                .filter(n -> Attribute.distance(g, n) <= 2).map(n -> "; did you mean '" + n + "'?").orElse("");
        fail(literal, group.offset(), "'" + g + "' is not a kind of node group (host, site, network"
                + declaredList() + ")" + hint);
        return Optional.empty();
    }

    private String declaredList() {
        if (declared == null) {
            return ", or one the grid declares";
        }
        return declared.isEmpty() ? "; the grid declares no others" : ", or of this grid: "
                + String.join(", ", declared.stream().sorted().toList());
    }

    private static String example(String kind) {
        return switch (kind) {
            case ConstraintSpec.AFFINITY -> "affinity role=master site";
            case ConstraintSpec.ANTI_AFFINITY -> "anti-affinity role=orchestrator site";
            default -> "cardinality 0..2 role=worker host";
        };
    }

    private Optional<ConstraintSpec> fail(Rsl.Literal literal, int offset, String message) {
        problems.add(literal.at(offset), "constraints: " + message);
        return Optional.empty();
    }

    private static List<Word> words(String text) {
        List<Word> words = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < text.length() && !Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            if (i > start) {
                words.add(new Word(text.substring(start, i), start));
            }
        }
        return words;
    }
}
