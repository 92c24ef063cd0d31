package koala.scheduler.storage;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Moves a scheduler's state from one store to another ({@code koala store copy}: from the H2 file of
 * one head node to the PostgreSQL database that two schedulers will share): every row of every table,
 * as it is, in one unit of work on the target, and the job ids on from the last one given. The pilot
 * tag goes with the rest, so the pilots running now stay the copied jobs' own.
 *
 * <p>The source is read while no scheduler runs on it (H2's file is locked by a running one), and the
 * target must be empty of jobs: a copy never merges two schedulers' states.
 */
public final class StoreCopy {
    /** The tables, each with every column the stores read: the same names on both databases. */
    static final List<String> TABLES = List.of("meta", "jobs", "nodes", "node_spans", "transitions", "agents",
            "frameworks", "components", "allocation_roles", "answers", "usage_records", "worker_tallies", "usage_totals");

    private StoreCopy() {
    }

    /**
     * Copies {@code from} into {@code to}; returns how many rows of each table, in {@link #TABLES}' order.
     * {@code progress} hears each table as it is done.
     *
     * @throws koala.common.failure.Conflict a target that holds jobs already
     */
    public static Map<String, Integer> copy(SqlStore from, SqlStore to, Consumer<String> progress) {
        if (!to.jobs().isEmpty()) {
            throw new koala.common.failure.Conflict("the target store holds " + to.jobs().size() + " jobs already: a "
                    + "copy goes into a store no scheduler has used", "to");
        }
        long nextId = from.nextJobId();
        Map<String, Integer> copied = new LinkedHashMap<>();
        try {
            from.database().betweenUnits(source -> to.database().betweenUnits(target -> {
                try {
                    target.createStatement().execute("DELETE FROM meta"); // a target's own pilot tag, if it drew one
                    for (String table : TABLES) {
                        int rows = copyTable(source, target, table);
                        copied.put(table, rows);
                        progress.accept(table + ": " + rows + " rows");
                    }
                    setNextJobId(to.database().dialect(), target, nextId);
                    target.commit();
                } catch (SQLException | RuntimeException e) {
                    target.rollback();
                    throw e;
                }
                return null;
            }));
        } catch (SQLException e) {
            throw new StoreException("copying the store: " + e.getMessage(), e);
        }
        to.reread(); // what the copy wrote under the target store
        return copied;
    }

    private static int copyTable(Connection source, Connection target, String table) throws SQLException {
        try (Statement read = source.createStatement(); ResultSet rs = read.executeQuery("SELECT * FROM " + table)) {
            ResultSetMetaData meta = rs.getMetaData();
            List<String> columns = new ArrayList<>();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                columns.add(meta.getColumnName(i).toLowerCase(java.util.Locale.ROOT));
            }
            String insert = "INSERT INTO " + table + " (" + String.join(", ", columns) + ") VALUES ("
                    + String.join(",", java.util.Collections.nCopies(columns.size(), "?")) + ")";
            int rows = 0;
            try (PreparedStatement write = target.prepareStatement(insert)) {
                while (rs.next()) {
                    for (int i = 1; i <= columns.size(); i++) {
                        write.setObject(i, value(rs, i, meta.getColumnType(i)));
                    }
                    write.addBatch();
                    if (++rows % 1000 == 0) {
                        write.executeBatch();
                    }
                }
                write.executeBatch();
            }
            return rows;
        }
    }

    /** Text as text (H2's CLOBs included), times as timestamps, the rest as the driver reads it. */
    private static Object value(ResultSet rs, int i, int type) throws SQLException {
        return switch (type) {
            case java.sql.Types.CLOB, java.sql.Types.NCLOB, java.sql.Types.VARCHAR, java.sql.Types.LONGVARCHAR ->
                    rs.getString(i);
            case java.sql.Types.TIMESTAMP_WITH_TIMEZONE, java.sql.Types.TIMESTAMP -> rs.getTimestamp(i);
            default -> rs.getObject(i);
        };
    }

    /** The target's next job id is {@code next} + 1 at the least: none the source gave is given again. */
    private static void setNextJobId(SqlDialect dialect, Connection target, long next) throws SQLException {
        try (Statement s = target.createStatement()) {
            s.execute(dialect.restartAfter("job_ids", next));
        }
    }
}
