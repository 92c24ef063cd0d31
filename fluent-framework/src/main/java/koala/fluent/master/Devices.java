package koala.fluent.master;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import koala.fluent.wire.FluentMessages.Deploy;
import koala.fluent.wire.FluentMessages.Handover;
import koala.fluent.wire.FluentMessages.Repoint;
import koala.fluent.wire.FluentMessages.Takeover;
import koala.fluent.wire.Secret;
import koala.http.JsonHttpClient;

/**
 * The master's calls to DeviceManagers, by URL; over HTTP each is signed with the master's key and
 * given up after a time-out (an {@link koala.http.ApiException}).
 */
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

    /**
     * The state of {@code components} of {@code app} there (by name: "reader", "mapper 3", "counter"),
     * handed over while it is suspended; they stay there, frozen, until {@link #release}d, and a second
     * ask hands over the same. Its other components there are left as they are.
     */
    default Handover handover(String url, String app, java.util.List<String> components) {
        throw new UnsupportedOperationException("these DeviceManagers do not hand over components");
    }

    /** Hosts the components of suspended {@code app} that {@code takeover} carries, suspended as they were. */
    default void takeover(String url, Takeover takeover) {
        throw new UnsupportedOperationException("these DeviceManagers do not take components over");
    }

    /** Points {@code app}'s reader and mappers there at the components' new addresses. */
    default void repoint(String url, String app, Repoint to) {
        throw new UnsupportedOperationException("these DeviceManagers do not repoint components");
    }

    /** Drops the components of {@code app} handed over from there. */
    default void release(String url, String app) {
        throw new UnsupportedOperationException("these DeviceManagers do not release components");
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

            @Override
            public Handover handover(String url, String app, java.util.List<String> components) {
                return client(url).post("/apps/" + app + "/handover",
                        new koala.fluent.wire.FluentMessages.HandoverRequest(components), Handover.class);
            }

            @Override
            public void takeover(String url, Takeover takeover) {
                client(url).post("/apps/" + takeover.app() + "/takeover", takeover, Map.class);
            }

            @Override
            public void repoint(String url, String app, Repoint to) {
                client(url).post("/apps/" + app + "/repoint", to, Map.class);
            }

            @Override
            public void release(String url, String app) {
                client(url).post("/apps/" + app + "/release", Map.of(), Map.class);
            }

            private JsonHttpClient client(String url) {
                return clients.computeIfAbsent(url, u -> new JsonHttpClient(URI.create(u), timeout, key.header()));
            }
        };
    }
}
