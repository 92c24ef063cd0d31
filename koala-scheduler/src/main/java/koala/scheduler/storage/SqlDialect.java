package koala.scheduler.storage;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What the stores' SQL says differently on each database: a row written whether or not its key is
 * there yet, totals added to, and a sequence's next value. Everything else the stores say is the
 * standard's, and the same on both.
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
        String nextValue(String sequence) {
            return "SELECT NEXT VALUE FOR " + sequence;
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
        String nextValue(String sequence) {
            return "SELECT nextval('" + sequence + "')";
        }
    };

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

    /** One row, one column: the sequence's next value. */
    abstract String nextValue(String sequence);

    private static String marks(int n) {
        return String.join(",", java.util.Collections.nCopies(n, "?"));
    }
}
