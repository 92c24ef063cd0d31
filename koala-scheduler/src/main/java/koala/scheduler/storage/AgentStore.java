package koala.scheduler.storage;

import java.util.Map;

/** Where each site's agent was, so that a restarted scheduler re-attaches to it. */
public interface AgentStore {
    /**
     * Where a site's agent was, so that a restarted scheduler re-attaches to it.
     *
     * @param secret the secret the agent was given (base64url); null in a record from before agents had one
     */
    record AgentRecord(String site, String url, long pid, String secret) {
        @Override
        public String toString() {
            return "AgentRecord[site=" + site + ", url=" + url + ", pid=" + pid + "]"; // never the secret, in a log
        }
    }

    void saveAgent(AgentRecord agent);

    Map<String, AgentRecord> agents();
}
