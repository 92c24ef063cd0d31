package koala.fluent.device;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import koala.common.http.ApiException;
import koala.common.http.JsonHttpClient;
import koala.fluent.wire.FluentMessages.AppDone;
import koala.fluent.wire.FluentMessages.DeviceHello;
import koala.fluent.wire.FluentMessages.DeviceWelcome;
import koala.fluent.wire.Secret;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * A DeviceManager's line to its master. Every call carries the instance's token; the answer to the
 * hello carries the master's key, the one secret the DeviceManager then takes commands with. A
 * master makes a new key at each start, so a DeviceManager must learn when its master changed:
 * a master that answers a report with 404 (it does not know the application) is not the one that
 * started it, and the DeviceManager says hello again — the new master gets its worker back, the
 * worker the new key. Until its first hello is answered, a DeviceManager has no key and lets no
 * one in.
 */
public final class MasterLink {
    private static final Logger LOG = LogManager.getLogger(MasterLink.class);
    private static final Duration CALL = Duration.ofSeconds(30);

    private final JsonHttpClient master;
    private volatile DeviceHello hello;
    private volatile Secret key;

    public MasterLink(URI master, Secret instanceToken) {
        this(master, instanceToken, null);
    }

    /**
     * @param known the master's key when the runner gave it to the instance's entities beforehand
     *              (its DeviceManager token): a command may then come before the answer to the hello
     */
    public MasterLink(URI master, Secret instanceToken, Secret known) {
        this.master = new JsonHttpClient(master, CALL, instanceToken.header());
        this.key = known;
    }

    /** Joins the master; throws {@link ApiException} when it refuses (4xx) or does not answer (5xx). */
    public void hello(DeviceHello hello) {
        DeviceWelcome welcome = master.post("/devices", hello, DeviceWelcome.class);
        if (welcome == null || welcome.key() == null || welcome.key().isBlank()) {
            throw new ApiException(502, "the master at " + master.base() + " answered the hello without its key");
        }
        this.hello = hello;
        this.key = new Secret(welcome.key());
    }

    /** The key of the master that last answered this DeviceManager's hello; null before that. */
    public Secret key() {
        return key;
    }

    /** Tells the master that {@code app} is done (or failed); a master that does not know it is greeted anew. */
    void done(String app, AppDone done) {
        try {
            master.post("/apps/" + app + "/done", done, Map.class);
        } catch (ApiException e) {
            DeviceHello again = hello;
            if (e.status() != 404 || again == null) {
                throw e;
            }
            LOG.warn("{}: the master does not know {} ({}): not the master that started it; saying hello again",
                    done.node(), app, e.getMessage());
            hello(again);
            throw e;
        }
    }
}
