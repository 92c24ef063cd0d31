package koala.scheduler.storage;

import static koala.scheduler.storage.SqlDatabase.instant;
import static koala.scheduler.storage.SqlDatabase.nullable;
import static koala.scheduler.storage.SqlDatabase.ts;

import java.util.List;
import koala.common.json.Json;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.claiming.NodeSpan;
import koala.scheduler.claiming.NodeState;

/** The nodes table (a job's nodes, one pilot each) and the node_spans table (each pilot's hold of its node). */
final class SqlNodes implements NodeStore {
    /** {@code daemon} and {@code gpus} were added to nodes after the table was first made. */

    private final SqlDatabase db;
    private final String saveNode;
    private final String saveSpan;

    SqlNodes(SqlDatabase db) {
        this.db = db;
        this.saveNode = db.dialect().upsert("nodes", List.of("id", "job", "component", "node_rank", "site", "state",
                "pilot", "host", "exit_status", "token", "submitted_at", "attempt", "daemon", "gpus"), List.of("id"));
        this.saveSpan = db.dialect().upsert("node_spans", List.of("node", "attempt", "job", "component", "site",
                "arrived_at", "started_at", "ended_at", "ended_as", "cpu_seconds"), List.of("node", "attempt"));
    }

    @Override
    public void saveNode(NodeClaim n) {
        db.update(saveNode, List.of(n.id(), n.job(),
                n.component(), n.rank(), n.site(), n.state().name(), nullable(n.pilot()), nullable(n.host()),
                nullable(n.exitStatus()), n.token(), nullable(ts(n.submittedAt())), n.attempt(),
                nullable(n.daemon() == null ? null : Json.write(n.daemon())), nullable(devices(n.gpus()))));
    }

    @Override
    public List<NodeClaim> nodes(long job) {
        return db.query("SELECT * FROM nodes WHERE job = ? ORDER BY component, node_rank", List.of(job), SqlNodes::node);
    }

    /** The nodes of the jobs {@code jobs} (a subquery of ids) names, by job. */
    java.util.Map<Long, List<NodeClaim>> nodesOf(String jobs, List<Object> params) {
        return SqlDatabase.byJob(db.query("SELECT * FROM nodes WHERE job IN " + jobs
                + " ORDER BY job, component, node_rank", params, SqlNodes::node), NodeClaim::job, n -> n);
    }

    private static NodeClaim node(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new NodeClaim(rs.getString("id"), rs.getLong("job"), rs.getInt("component"),
                rs.getInt("node_rank"), rs.getString("site"), NodeState.valueOf(rs.getString("state")),
                rs.getString("pilot"), rs.getString("host"), (Integer) rs.getObject("exit_status"),
                rs.getString("token"), instant(rs.getTimestamp("submitted_at")), rs.getInt("attempt"),
                words(rs.getString("daemon")), devices(rs.getString("gpus")));
    }

    /** GPU devices as a column holds them: "0,1"; "" for none given, null for not given yet. */
    static String devices(List<Integer> gpus) {
        return gpus == null ? null : gpus.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(","));
    }

    static List<Integer> devices(String column) {
        if (column == null) {
            return null;
        }
        return column.isEmpty() ? List.of() : java.util.Arrays.stream(column.split(",")).map(Integer::valueOf).toList();
    }

    /** A JSON array of strings as written by {@link #saveNode}; null for none. */
    private static List<String> words(String json) {
        if (json == null) {
            return null;
        }
        try {
            return Json.mapper().readValue(json, new com.fasterxml.jackson.core.type.TypeReference<List<String>>() { });
        } catch (java.io.IOException e) {
            throw new IllegalStateException("nodes.daemon is not a JSON array of strings: " + json, e);
        }
    }

    @Override
    public void saveSpan(NodeSpan n) {
        db.update(saveSpan, List.of(n.node(), n.attempt(),
                n.job(), n.component(), n.site(), ts(n.arrivedAt()), nullable(ts(n.startedAt())),
                nullable(ts(n.endedAt())), nullable(n.endedAs()), nullable(n.cpuSeconds())));
    }

    @Override
    public List<NodeSpan> spans(long job) {
        return db.query("SELECT * FROM node_spans WHERE job = ? ORDER BY node, attempt", List.of(job), SqlNodes::span);
    }

    /** The spans of the jobs {@code jobs} (a subquery of ids) names, by job. */
    java.util.Map<Long, List<NodeSpan>> spansOf(String jobs, List<Object> params) {
        return SqlDatabase.byJob(db.query("SELECT * FROM node_spans WHERE job IN " + jobs
                + " ORDER BY job, node, attempt", params, SqlNodes::span), NodeSpan::job, n -> n);
    }

    private static NodeSpan span(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new NodeSpan(rs.getString("node"), rs.getInt("attempt"), rs.getLong("job"), rs.getInt("component"),
                rs.getString("site"), instant(rs.getTimestamp("arrived_at")),
                instant(rs.getTimestamp("started_at")), instant(rs.getTimestamp("ended_at")),
                rs.getString("ended_as"), rs.getObject("cpu_seconds", Double.class));
    }

    /** Forgets the nodes and spans of the jobs that ended before the one parameter. */
    void forget(List<Object> before) {
        db.update("DELETE FROM nodes WHERE job IN " + SqlJobs.ENDED_BEFORE, before);
        db.update("DELETE FROM node_spans WHERE job IN " + SqlJobs.ENDED_BEFORE, before);
    }
}
