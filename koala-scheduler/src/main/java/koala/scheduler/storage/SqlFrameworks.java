package koala.scheduler.storage;

import static koala.scheduler.storage.SqlDatabase.instant;
import static koala.scheduler.storage.SqlDatabase.nullable;
import static koala.scheduler.storage.SqlDatabase.ts;

import java.util.List;
import java.util.Map;
import koala.common.json.Json;
import koala.fjm.FrameworkRecord;
import koala.fjm.FrameworkStore;

/** The frameworks table: the FrameworkJobManager's records. */
final class SqlFrameworks implements FrameworkStore {
    /** {@code runner_state} was added after the table was first made. */

    private final SqlDatabase db;
    private final String saveFramework;

    SqlFrameworks(SqlDatabase db) {
        this.db = db;
        this.saveFramework = db.dialect().upsert("frameworks", List.of("id", "name", "jdf_file", "jdf", "policy",
                "parameters", "runner", "master_node", "master_address", "registered_at", "runner_state", "runner_host", "runner_generation"), List.of("id"));
    }

    @Override
    public void saveFramework(FrameworkRecord f) {
        db.update(saveFramework, List.of(f.id(),
                f.name(), nullable(f.jdfFile()), nullable(f.jdf()), f.policy(), Json.write(f.parameters()),
                nullable(f.runner()), nullable(f.masterNode()), nullable(f.masterAddress()), ts(f.registeredAt()),
                nullable(f.runnerState()), nullable(f.runnerHost()), f.runnerGeneration()));
    }

    @Override
    public List<FrameworkRecord> frameworks() {
        return db.query("SELECT * FROM frameworks ORDER BY id", List.of(), rs -> new FrameworkRecord(rs.getLong("id"),
                rs.getString("name"), rs.getString("jdf_file"), rs.getString("jdf"), rs.getString("policy"),
                parameters(rs.getString("parameters")), rs.getString("runner"), rs.getString("master_node"),
                rs.getString("master_address"), instant(rs.getTimestamp("registered_at")), rs.getString("runner_state"),
                rs.getString("runner_host"), rs.getLong("runner_generation")));
    }

    private static Map<String, String> parameters(String json) {
        try {
            return Json.mapper().readValue(json, new com.fasterxml.jackson.core.type.TypeReference<Map<String, String>>() { });
        } catch (java.io.IOException e) {
            throw new StoreException("unreadable framework parameters: " + e.getMessage(), e);
        }
    }

    /** Forgets the instances whose allocations ended before the one parameter. */
    void forget(List<Object> before) {
        db.update("DELETE FROM frameworks WHERE id IN " + SqlJobs.ENDED_BEFORE, before);
    }
}
