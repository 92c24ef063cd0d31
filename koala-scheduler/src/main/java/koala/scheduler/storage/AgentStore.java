package koala.scheduler.storage;

import java.util.Map;

/** Where each site's agent was, so that a restarted scheduler re-attaches to it. */
public interface AgentStore {
    /**
     * Where a site's agent was, so that a restarted scheduler re-attaches to it.
     *
     * @param secret the secret the agent was given (base64url); null in a record from before agents had one
     * @param host   the host it runs on, whose loopback {@code url} names and where {@code pid} is a process:
     *               a scheduler on another host (one that took over the lead) starts its own instead; null in a
     *               record from before schedulers could run on several hosts (the one host there was)
     */
    record AgentRecord(String site, String url, long pid, String secret, String host) {
        public AgentRecord(String site, String url, long pid, String secret) {
            this(site, url, pid, secret, null);
        }

        /** Whether it runs on {@code here}, as far as the record tells. */
        public boolean on(String here) {
            return host == null || host.equals(here);
        }

        @Override
        public String toString() {
            return "AgentRecord[site=" + site + ", url=" + url + ", pid=" + pid + ", host=" + host + "]"; // never the secret
        }
    }

    void saveAgent(AgentRecord agent);

    Map<String, AgentRecord> agents();
}
