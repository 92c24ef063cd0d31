package koala.scheduler.storage;

import static koala.scheduler.storage.SqlDatabase.nullable;
import static koala.scheduler.storage.SqlDatabase.ts;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.AbstractMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import koala.scheduler.accounting.UsageTotals;
import koala.scheduler.accounting.WorkerTally;

/**
 * The usage_records table (ended jobs' records until the accounting file has them), the worker_tallies
 * table, and usage_totals (what each owner's records of each kind add up to; a database from before it
 * gets it empty, and counts from its first record on).
 */
final class SqlAccounting implements AccountingStore {

    private final SqlDatabase db;
    private final String saveRecord;
    private final String saveTally;
    private final String addUsage;

    SqlAccounting(SqlDatabase db) {
        this.db = db;
        this.saveRecord = db.dialect().upsert("usage_records", List.of("job", "record", "written_at"), List.of("job"));
        this.saveTally = db.dialect().upsert("worker_tallies", List.of("job", "busy_seconds", "cpu_seconds",
                "reported_seconds"), List.of("job"));
        this.addUsage = db.dialect().addTo("usage_totals", List.of("owner", "kind"), List.of("records", "node_seconds",
                "core_seconds", "memory_gb_seconds", "gpu_seconds"));
    }

    /**
     * A usage record (some 600 characters of JSON), written twice for every job, was a CLOB: H2 keeps
     * a CLOB longer than 256 characters apart from its row and cleans up its old copies on a thread
     * of its own, which the loop asked for after nearly every commit. A database from before keeps
     * its records, as VARCHARs now. H2's alone: PostgreSQL's schema had them as text from its first version.
     */
    static void recordsInline(Connection db) throws SQLException {
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT DATA_TYPE FROM "
                + "INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = 'PUBLIC' AND TABLE_NAME = 'USAGE_RECORDS' AND "
                + "COLUMN_NAME = 'RECORD'")) {
            if (rs.next() && "CHARACTER LARGE OBJECT".equals(rs.getString(1))) {
                s.execute("ALTER TABLE usage_records ALTER COLUMN record SET DATA TYPE VARCHAR");
            }
        }
    }

    @Override
    public void saveUsageRecord(long job, String record) {
        db.update(saveRecord, List.of(job, nullable(record), nullable(null)));
    }

    @Override
    public void usageRecordWritten(long job, Instant at) {
        db.update("UPDATE usage_records SET written_at = ? WHERE job = ?", List.of(ts(at), job));
    }

    @Override
    public Map<Long, String> unwrittenUsageRecords() {
        Map<Long, String> records = new LinkedHashMap<>();
        db.query("SELECT job, record FROM usage_records WHERE written_at IS NULL ORDER BY job", List.of(),
                rs -> new AbstractMap.SimpleEntry<>(rs.getLong(1), rs.getString(2)))
                .forEach(e -> records.put(e.getKey(), e.getValue()));
        return records;
    }

    @Override
    public void saveWorkerTally(long job, WorkerTally t) {
        db.update(saveTally, List.of(job, t.busySeconds(), nullable(t.cpuSeconds()), t.reportedSeconds()));
    }

    @Override
    public Optional<WorkerTally> workerTally(long job) {
        return db.query("SELECT busy_seconds, cpu_seconds, reported_seconds FROM worker_tallies WHERE job = ?",
                List.of(job), rs -> new WorkerTally(rs.getDouble(1), rs.getObject(2, Double.class), rs.getDouble(3)))
                .stream().findFirst();
    }

    @Override
    public void addUsage(UsageTotals.Key owner, UsageTotals a) {
        db.update(addUsage, List.of(owner.owner(), owner.kind(), a.records(), a.nodeSeconds(), a.coreSeconds(),
                a.memoryGbSeconds(), a.gpuSeconds()));
    }

    @Override
    public Map<UsageTotals.Key, UsageTotals> usageTotals() {
        Map<UsageTotals.Key, UsageTotals> totals = new LinkedHashMap<>();
        db.query("SELECT owner, kind, records, node_seconds, core_seconds, memory_gb_seconds, gpu_seconds FROM "
                + "usage_totals ORDER BY owner, kind", List.of(), rs -> new AbstractMap.SimpleEntry<>(
                        new UsageTotals.Key(rs.getString(1), rs.getString(2)), new UsageTotals(rs.getLong(3),
                                rs.getDouble(4), rs.getDouble(5), rs.getDouble(6), rs.getDouble(7))))
                .forEach(e -> totals.put(e.getKey(), e.getValue()));
        return totals;
    }

    /**
     * Forgets the worker tallies of the jobs that ended before the one parameter, and their usage
     * records the accounting file has: a record it does not have yet stays until it has it.
     */
    void forget(List<Object> before) {
        db.update("DELETE FROM worker_tallies WHERE job IN " + SqlJobs.ENDED_BEFORE, before);
        db.update("DELETE FROM usage_records WHERE written_at IS NOT NULL AND job IN " + SqlJobs.ENDED_BEFORE, before);
    }
}
