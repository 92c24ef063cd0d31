package koala.scheduler.storage;

import static koala.scheduler.storage.H2Database.nullable;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The agents table: where each site's agent was, with its secret. */
final class H2Agents implements AgentStore {
    /** {@code secret} was added after the table was first made. */

    private final H2Database db;

    H2Agents(H2Database db) {
        this.db = db;
    }

    @Override
    public void saveAgent(AgentRecord a) {
        db.update("MERGE INTO agents (site, url, pid, secret) KEY(site) VALUES (?,?,?,?)", List.of(a.site(), a.url(),
                a.pid(), nullable(a.secret())));
    }

    @Override
    public Map<String, AgentRecord> agents() {
        Map<String, AgentRecord> agents = new LinkedHashMap<>();
        db.query("SELECT * FROM agents", List.of(), rs -> new AgentRecord(rs.getString("site"), rs.getString("url"),
                rs.getLong("pid"), rs.getString("secret"))).forEach(a -> agents.put(a.site(), a));
        return agents;
    }
}
