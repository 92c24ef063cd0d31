package koala.scheduler.storage;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What the stores' SQL says differently on each database: a row written whether or not its key is
 * there yet, a row saved again and again ({@link #resave}), totals added to, a sequence's next
 * values and its restart. Everything else the stores say is the standard's, and the same on both.
 */
enum SqlDialect {
    H2 {
        @Override
        String upsert(String table, List<String> columns, List<String> key) {
            return "MERGE INTO " + table + " (" + String.join(", ", columns) + ") KEY(" + String.join(", ", key)
                    + ") VALUES (" + marks(columns.size()) + ")";
        }

        @Override
        String addTo(String table, List<String> key, List<String> sums) {
            return "MERGE INTO " + table + " t USING (SELECT " + key.stream().map(k -> "CAST(? AS VARCHAR) " + k)
                    .collect(Collectors.joining(", ")) + ", " + sums.stream().map(s -> "CAST(? AS DOUBLE PRECISION) " + s)
                    .collect(Collectors.joining(", ")) + ") k ON " + key.stream().map(k -> "t." + k + " = k." + k)
                    .collect(Collectors.joining(" AND ")) + " WHEN MATCHED THEN UPDATE SET " + sums.stream()
                    .map(s -> s + " = t." + s + " + k." + s).collect(Collectors.joining(", "))
                    + " WHEN NOT MATCHED THEN INSERT (" + String.join(", ", key) + ", " + String.join(", ", sums)
                    + ") VALUES (" + java.util.stream.Stream.concat(key.stream(), sums.stream()).map(c -> "k." + c)
                    .collect(Collectors.joining(", ")) + ")";
        }

        @Override
        String restartAfter(String sequence, long last) {
            return "ALTER SEQUENCE " + sequence + " RESTART WITH " + (last + 1);
        }

        /** One at a time: H2 in the process draws from a cache of its sequence's values without a round trip. */
        @Override
        String nextValues(String sequence) {
            return "SELECT NEXT VALUE FOR " + sequence;
        }

        /**
         * The changing columns updated in place, and the row inserted only when there was none to update: a
         * column written once (a CLOB, which H2 copies anew whenever it is written) is not written again.
         */
        @Override
        Resave resave(String table, List<String> columns, List<String> changing, String once) {
            String key = columns.get(0);
            String update = "UPDATE " + table + " SET " + changing.stream().map(c -> c + " = ?")
                    .collect(Collectors.joining(", ")) + ", " + once + " = CASE WHEN ? THEN COALESCE(" + once
                    + ", ?) END WHERE " + key + " = ?";
            String insert = "INSERT INTO " + table + " (" + String.join(", ", columns) + ") VALUES ("
                    + marks(columns.size()) + ")";
            int[] changed = changing.stream().mapToInt(columns::indexOf).toArray();
            int onceAt = columns.indexOf(once);
            return (db, values) -> db.inTransaction(() -> {
                List<Object> params = new java.util.ArrayList<>(changed.length + 3);
                for (int i : changed) {
                    params.add(values.get(i));
                }
                Object onceValue = values.get(onceAt);
                params.add(!(onceValue instanceof SqlDatabase.Null));
                params.add(onceValue);
                params.add(values.get(0));
                if (db.updated(update, params) == 0) {
                    db.update(insert, values);
                }
            });
        }
    },

    POSTGRESQL {
        @Override
        String upsert(String table, List<String> columns, List<String> key) {
            List<String> rest = columns.stream().filter(c -> !key.contains(c)).toList();
            return "INSERT INTO " + table + " (" + String.join(", ", columns) + ") VALUES (" + marks(columns.size())
                    + ") ON CONFLICT (" + String.join(", ", key) + ") DO " + (rest.isEmpty() ? "NOTHING"
                    : "UPDATE SET " + rest.stream().map(c -> c + " = EXCLUDED." + c).collect(Collectors.joining(", ")));
        }

        @Override
        String addTo(String table, List<String> key, List<String> sums) {
            List<String> columns = new java.util.ArrayList<>(key);
            columns.addAll(sums);
            return "INSERT INTO " + table + " AS t (" + String.join(", ", columns) + ") VALUES (" + marks(columns.size())
                    + ") ON CONFLICT (" + String.join(", ", key) + ") DO UPDATE SET " + sums.stream()
                    .map(s -> s + " = t." + s + " + EXCLUDED." + s).collect(Collectors.joining(", "));
        }

        @Override
        String restartAfter(String sequence, long last) {
            return "SELECT setval('" + sequence + "', " + last + ")";
        }

        /** {@value #DRAWN} at a time, each draw a round trip to the server. */
        @Override
        String nextValues(String sequence) {
            return "SELECT nextval('" + sequence + "') FROM generate_series(1, " + DRAWN + ")";
        }

        /**
         * One upsert whose count nobody needs, so that it waits in the unit's batch of writes ({@link HeldWrites}):
         * every column is sent each time, and those not changing are kept as first written.
         */
        @Override
        Resave resave(String table, List<String> columns, List<String> changing, String once) {
            String sql = "INSERT INTO " + table + " AS t (" + String.join(", ", columns) + ") VALUES ("
                    + marks(columns.size()) + ") ON CONFLICT (" + columns.get(0) + ") DO UPDATE SET "
                    + changing.stream().map(c -> c + " = EXCLUDED." + c).collect(Collectors.joining(", ")) + ", "
                    + once + " = CASE WHEN EXCLUDED." + once + " IS NOT NULL THEN COALESCE(t." + once + ", EXCLUDED."
                    + once + ") END";
            return (db, values) -> db.update(sql, values);
        }
    };

    /** How many job ids a draw from a database server takes ({@link #nextValues}). */
    static final int DRAWN = 64;

    /** Saves one row: its values in the order of the columns it was made for. */
    @FunctionalInterface
    interface Resave {
        void save(SqlDatabase db, List<Object> values);
    }

    /**
     * Writes the row of {@code columns} (one parameter each, in that order): a new row, or in place
     * of the one with the same {@code key} columns.
     */
    abstract String upsert(String table, List<String> columns, List<String> key);

    /**
     * Adds to the row of {@code key} (text columns) each of {@code sums} (numbers), or writes it with
     * them when it is not there yet: parameters are the key's, then the sums', in that order.
     */
    abstract String addTo(String table, List<String> key, List<String> sums);

    /** Sets the sequence so that its next value is {@code last} + 1. */
    abstract String restartAfter(String sequence, long last);

    /**
     * One column, a row for each of the sequence's next values, as many as a draw takes on this database:
     * values drawn and not used (a crash, a take-over) are skipped, never given twice.
     */
    abstract String nextValues(String sequence);

    /**
     * How a row saved again and again is written: {@code columns}, the first its key; the first save writes
     * them all, a later one writes anew only {@code changing}, and {@code once} (a time something first
     * happened) keeps its first value while saves give it one, and is null when a save gives it none.
     */
    abstract Resave resave(String table, List<String> columns, List<String> changing, String once);

    private static String marks(int n) {
        return String.join(",", java.util.Collections.nCopies(n, "?"));
    }
}
