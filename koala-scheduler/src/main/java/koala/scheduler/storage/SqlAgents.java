package koala.scheduler.storage;

import static koala.scheduler.storage.SqlDatabase.nullable;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The agents table: where each site's agent was, with its secret. */
final class SqlAgents implements AgentStore {
    private final SqlDatabase db;
    private final String saveAgent;

    SqlAgents(SqlDatabase db) {
        this.db = db;
        this.saveAgent = db.dialect().upsert("agents", List.of("site", "url", "pid", "secret", "host"),
                List.of("site"));
    }

    @Override
    public void saveAgent(AgentRecord a) {
        db.update(saveAgent, List.of(a.site(), a.url(), a.pid(), nullable(a.secret()), nullable(a.host())));
    }

    @Override
    public Map<String, AgentRecord> agents() {
        Map<String, AgentRecord> agents = new LinkedHashMap<>();
        db.query("SELECT * FROM agents", List.of(), rs -> new AgentRecord(rs.getString("site"), rs.getString("url"),
                rs.getLong("pid"), rs.getString("secret"), rs.getString("host"))).forEach(a -> agents.put(a.site(), a));
        return agents;
    }
}
