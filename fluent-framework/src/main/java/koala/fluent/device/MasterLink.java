package koala.fluent.device;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;
import koala.fluent.wire.FluentMessages.AppDone;
import koala.fluent.wire.FluentMessages.DeviceHello;
import koala.fluent.wire.FluentMessages.DeviceWelcome;
import koala.fluent.wire.Secret;
import koala.http.ApiException;
import koala.http.JsonHttpClient;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * A DeviceManager's line to its master. Every call carries the instance's token; the answer to the
 * hello carries the master's key, the one secret the DeviceManager then takes commands with.
 *
 * <p>A master may die and be started again, on its node or another: the line outlives it. A report
 * that an application is done is queued until a master takes it (answers it), so one that finished
 * while the master was away is reported to the next. Every few seconds the DeviceManager says hello
 * again ({@link #beat}) with the applications it runs or has not reported yet; when its master does
 * not answer it asks the runner where the master is now ({@code locate}) and moves there. A master
 * that answers a report with 404 does not know the application (it started without a journal): the
 * DeviceManager says hello again and drops the report, as it does one the master says has ended (409).
 * Until its first hello is answered, a DeviceManager has no key and lets no one in.
 */
public final class MasterLink {
    private static final Logger LOG = LogManager.getLogger(MasterLink.class);
    private static final Duration CALL = Duration.ofSeconds(30);

    /** A report the master has not taken yet. */
    private record Report(String app, AppDone done) {
    }

    private final Secret instanceToken;
    private final Supplier<Optional<String>> locate;
    private final Queue<Report> outbox = new ConcurrentLinkedQueue<>();
    private volatile JsonHttpClient master;
    private volatile DeviceHello hello;
    private volatile Secret key;

    public MasterLink(URI master, Secret instanceToken) {
        this(master, instanceToken, null, Optional::empty);
    }

    /**
     * @param known  the master's key when the runner gave it to the instance's entities beforehand
     *               (its DeviceManager token): a command may then come before the answer to the hello
     * @param locate the master's {@code host:port} as the runner knows it now (empty when it does not
     *               know one, e.g. while the master restarts)
     */
    public MasterLink(URI master, Secret instanceToken, Secret known, Supplier<Optional<String>> locate) {
        this.instanceToken = instanceToken;
        this.master = client(master);
        this.key = known;
        this.locate = locate;
    }

    /** Joins the master; throws {@link ApiException} when it refuses (4xx) or does not answer (5xx). */
    public void hello(DeviceHello hello) {
        DeviceWelcome welcome = master.post("/devices", hello, DeviceWelcome.class);
        if (welcome == null || welcome.key() == null || welcome.key().isBlank()) {
            throw new ApiException(502, "the master at " + master.base() + " answered the hello without its key");
        }
        this.hello = new DeviceHello(hello.node(), hello.url(), hello.slots());
        this.key = new Secret(welcome.key());
    }

    /** The key of the master that last answered this DeviceManager's hello; null before that. */
    public Secret key() {
        return key;
    }

    /** Where the master is, as this DeviceManager last found it. */
    public URI master() {
        return master.base();
    }

    /** Tells the master that {@code app} is done (or failed), now or, if it is away, once a master answers. */
    void done(String app, AppDone done) {
        outbox.add(new Report(app, done));
        deliver();
    }

    /**
     * Says hello again with {@code running} and every report not delivered yet, then delivers them;
     * a master that does not answer is looked for through the runner. False when no master answered.
     * A master that says this worker has left (410) is final: the caller stops.
     */
    boolean beat(List<String> running) {
        DeviceHello first = hello;
        if (first == null) {
            return false;
        }
        List<String> live = new ArrayList<>(running);
        outbox.forEach(r -> live.add(r.app()));
        try {
            hello(new DeviceHello(first.node(), first.url(), first.slots(), live));
        } catch (ApiException e) {
            if (e.refused()) {
                throw e;
            }
            relocate(e.getMessage());
            return false;
        }
        deliver();
        return true;
    }

    /** The applications whose end the master has not taken yet. */
    List<String> undelivered() {
        return outbox.stream().map(Report::app).toList();
    }

    /** Delivers the queued reports, oldest first; stops at the first a master does not answer. */
    private synchronized void deliver() {
        for (Report r = outbox.peek(); r != null; r = outbox.peek()) {
            try {
                master.post("/apps/" + r.app() + "/done", r.done(), Map.class);
                LOG.info("{}: reported {} to the master at {}", r.done().node(), r.app(), master.base());
            } catch (ApiException e) {
                if (!e.refused()) {
                    LOG.warn("{}: the master at {} did not take the end of {} ({}); kept until a master does",
                            r.done().node(), master.base(), r.app(), e.getMessage());
                    return;
                }
                LOG.warn("{}: the master refused the end of {} ({}); dropped", r.done().node(), r.app(),
                        e.getMessage());
                if (e.status() == 404 && hello != null) {
                    rehello();
                }
            }
            outbox.poll();
        }
    }

    private void rehello() {
        try {
            hello(hello);
        } catch (ApiException e) {
            LOG.warn("could not say hello again: {}", e.getMessage());
        }
    }

    /** Asks the runner where the master is; moves there when it is somewhere else. */
    void relocate(String why) {
        Optional<String> now;
        try {
            now = locate.get();
        } catch (RuntimeException e) {
            LOG.warn("the master does not answer ({}) and the runner does not say where it is: {}", why, e.getMessage());
            return;
        }
        if (now.isEmpty()) {
            return;
        }
        URI address = URI.create("http://" + now.get());
        if (!address.equals(master.base())) {
            LOG.warn("the master moved from {} to {} ({})", master.base(), address, why);
            master = client(address);
        }
    }

    private JsonHttpClient client(URI address) {
        return new JsonHttpClient(address, CALL, instanceToken.header());
    }
}
