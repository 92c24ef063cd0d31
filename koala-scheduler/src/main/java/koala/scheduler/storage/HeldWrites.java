package koala.scheduler.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A unit's writes held back until it reads or commits, then sent as batches: one round trip for each
 * statement's rows, where each statement sent alone costs a round trip to a database server (some
 * 0.1 ms on loopback, two dozen statements for every job that passes). A write joins the last batch
 * of the same statement unless a later batch writes the same table: the writes to one table keep
 * their order, and only writes to other tables, which cannot see one another, are sent out of it.
 */
final class HeldWrites {
    private static final Pattern TABLE = Pattern.compile("^\\s*(?:INSERT\\s+INTO|UPDATE|DELETE\\s+FROM|MERGE\\s+INTO)\\s+(\\w+)",
            Pattern.CASE_INSENSITIVE);
    /** A statement whose table is not known is kept in its place among every other. */
    private static final String ANY = "*";

    /** The rows of one statement, sent together. */
    static final class Batch {
        final String sql;
        final String table;
        final List<List<Object>> rows = new ArrayList<>();

        private Batch(String sql, String table) {
            this.sql = sql;
            this.table = table;
        }
    }

    private final List<Batch> batches = new ArrayList<>();

    void add(String sql, List<Object> params) {
        String table = table(sql);
        for (int i = batches.size() - 1; i >= 0; i--) {
            Batch b = batches.get(i);
            if (b.sql.equals(sql)) {
                b.rows.add(params);
                return;
            }
            if (b.table.equals(table) || b.table.equals(ANY) || table.equals(ANY)) {
                break;
            }
        }
        Batch b = new Batch(sql, table);
        b.rows.add(params);
        batches.add(b);
    }

    boolean isEmpty() {
        return batches.isEmpty();
    }

    /** The batches in the order they are to be sent; none held after. */
    List<Batch> take() {
        List<Batch> all = List.copyOf(batches);
        batches.clear();
        return all;
    }

    /**
     * The batches a read of {@code sql} must see sent first: every one up to the last that writes a table it
     * reads (those before it too, as they were to go first); all of them when its tables are not known.
     */
    List<Batch> takeFor(String sql) {
        java.util.Set<String> read = tablesRead(sql);
        int last = -1;
        for (int i = 0; i < batches.size(); i++) {
            if (read.contains(ANY) || read.contains(batches.get(i).table) || batches.get(i).table.equals(ANY)) {
                last = i;
            }
        }
        List<Batch> first = List.copyOf(batches.subList(0, last + 1));
        batches.subList(0, last + 1).clear();
        return first;
    }

    private static final Pattern FROM = Pattern.compile("\\b(?:FROM|JOIN)\\s+(\\w+)", Pattern.CASE_INSENSITIVE);

    /** The tables a query names after FROM or JOIN; {@link #ANY} when it names none (a sequence's next value). */
    static java.util.Set<String> tablesRead(String sql) {
        java.util.Set<String> tables = new java.util.HashSet<>();
        Matcher m = FROM.matcher(sql);
        while (m.find()) {
            tables.add(m.group(1).toLowerCase(Locale.ROOT));
        }
        if (tables.isEmpty()) {
            tables.add(ANY);
        }
        return tables;
    }

    void clear() {
        batches.clear();
    }

    static String table(String sql) {
        Matcher m = TABLE.matcher(sql);
        return m.find() ? m.group(1).toLowerCase(Locale.ROOT) : ANY;
    }
}
