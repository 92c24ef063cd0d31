package koala.fluent.master;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import koala.common.http.JsonHttpClient;
import koala.fluent.wire.FluentMessages.Deploy;
import koala.fluent.wire.Secret;

/** The master's calls to DeviceManagers, by URL. */
public interface Devices {
    /** Starts a component; returns once the DeviceManager has it in place (a mapper can take lines). */
    void deploy(String url, Deploy component);

    /** Ends whatever {@code app} still runs there. */
    void stop(String url, String app);

    /** Suspends {@code app}'s components there (its reader stops at a record boundary; all keep their state). */
    default void suspend(String url, String app) {
        throw new UnsupportedOperationException("these DeviceManagers do not suspend");
    }

    /** Resumes {@code app}'s components there from where they were suspended. */
    default void resume(String url, String app) {
        throw new UnsupportedOperationException("these DeviceManagers do not resume");
    }

    /** Over HTTP, one client (and its connections) per DeviceManager, every call signed with the master's key. */
    static Devices http(Secret key) {
        Map<String, JsonHttpClient> clients = new ConcurrentHashMap<>();
        Duration timeout = Duration.ofSeconds(20);
        return new Devices() {
            @Override
            public void deploy(String url, Deploy component) {
                client(url).post("/components", component, Map.class);
            }

            @Override
            public void stop(String url, String app) {
                client(url).post("/apps/" + app + "/stop", Map.of(), Map.class);
            }

            @Override
            public void suspend(String url, String app) {
                client(url).post("/apps/" + app + "/suspend", Map.of(), Map.class);
            }

            @Override
            public void resume(String url, String app) {
                client(url).post("/apps/" + app + "/resume", Map.of(), Map.class);
            }

            private JsonHttpClient client(String url) {
                return clients.computeIfAbsent(url, u -> new JsonHttpClient(URI.create(u), timeout, key.header()));
            }
        };
    }
}
