package koala.scheduler.kis;

import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import koala.api.site.AgentHealth;
import koala.api.site.CellSnapshot;
import koala.api.site.SiteAgentClient;
import koala.http.ApiException;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The KOALA Information Service: polls every site agent for its health and its cell's snapshot,
 * on its own thread, so that a slow site never holds up scheduling. The snapshot shows local
 * users' jobs as well as KOALA's, which is how KOALA respects load it did not put there.
 */
public final class InformationService implements SiteInfos, AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(InformationService.class);
    /**
     * How long a site's largest size is kept after it was last seen that large. A host that is gone for
     * good stops counting after it; one registering again after a restart is back well within it.
     */
    static final Duration FULLEST_KEPT = Duration.ofMinutes(10);

    private final Map<String, SiteAgentClient> agents;
    private final Map<String, SiteInfo> latest = new ConcurrentHashMap<>();
    /** Each site's largest snapshot, up, seen within {@link #FULLEST_KEPT} of the last one as large. */
    private final Map<String, SiteInfo> fullest = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<Void>> underWay = new ConcurrentHashMap<>();
    private final InstantSource clock;
    private final ScheduledExecutorService timer;
    private final List<String> sites;
    private final Function<String, Optional<String>> unreachable;
    /** One thread a site: a site whose agent is slow to answer (up to its time-out) holds up no other site. */
    private final ExecutorService polls;

    public InformationService(Map<String, SiteAgentClient> agents, InstantSource clock, ScheduledExecutorService timer) {
        this(List.copyOf(agents.keySet()), agents, site -> Optional.empty(), clock, timer);
    }

    /**
     * @param unreachable why a site cannot be reached at all right now (a remote site whose SSH link is
     *                    down), so that it is shown down with that reason rather than a refused connection
     */
    public InformationService(List<String> sites, Map<String, SiteAgentClient> agents,
                              Function<String, Optional<String>> unreachable, InstantSource clock,
                              ScheduledExecutorService timer) {
        this.sites = List.copyOf(sites);
        this.agents = agents; // live: a restarted agent is polled at its new address
        this.unreachable = unreachable;
        this.clock = clock;
        this.timer = timer;
        this.polls = Executors.newFixedThreadPool(Math.max(1, this.sites.size()), r -> {
            Thread t = new Thread(r, "kis-poll");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Polls each site every {@code every} from the end of its last poll. A site whose agent is slow to answer
     * (up to its time-out) holds up no other site's polls.
     */
    public void start(Duration every) {
        sites.forEach(site -> timer.execute(() -> pollAndAgain(site, every)));
    }

    private void pollAndAgain(String site, Duration every) {
        pollUnlessUnderWay(site).whenComplete((done, failed) -> {
            try {
                timer.schedule(() -> pollAndAgain(site, every), every.toMillis(), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                // the service was closed: no more polls
            }
        });
    }

    /**
     * The site as last polled; a site that cannot be reached at all now (its SSH link is down) is shown so at
     * once, whatever its last poll said: a poll under way through a link that just dropped may take until its
     * time-out to fail.
     */
    @Override
    public Optional<SiteInfo> site(String name) {
        Optional<String> cut = unreachable.apply(name);
        if (cut.isPresent()) {
            return Optional.of(new SiteInfo(name, null, null, cut.get(), clock.instant()));
        }
        return Optional.ofNullable(latest.get(name));
    }

    @Override
    public Optional<SiteInfo> fullest(String name) {
        return Optional.ofNullable(fullest.get(name));
    }

    /** Polls every site now, all at once, and returns once each has answered or failed. */
    public void pollAll() {
        CompletableFuture.allOf(sites.stream().map(this::pollUnlessUnderWay).toArray(CompletableFuture[]::new)).join();
    }

    /** The poll of {@code site} under way, or a new one. */
    private CompletableFuture<Void> pollUnlessUnderWay(String site) {
        return underWay.compute(site, (s, running) -> running != null && !running.isDone() ? running
                : CompletableFuture.runAsync(() -> record(poll(s, agents.get(s))), polls));
    }

    private void record(SiteInfo info) {
        latest.put(info.site(), info);
        if (info.up()) {
            fullest.merge(info.site(), info, InformationService::larger);
        }
    }

    /** {@code now} unless {@code kept} is larger and was seen that large within {@link #FULLEST_KEPT}. */
    static SiteInfo larger(SiteInfo kept, SiteInfo now) {
        boolean smaller = now.snapshot().slotsTotal() < kept.snapshot().slotsTotal();
        return smaller && !now.seenAt().isAfter(kept.seenAt().plus(FULLEST_KEPT)) ? kept : now;
    }

    private SiteInfo poll(String site, SiteAgentClient agent) {
        Optional<String> cut = unreachable.apply(site);
        if (cut.isPresent() || agent == null) {
            return new SiteInfo(site, null, null, cut.orElse("no agent yet"), clock.instant());
        }
        try {
            AgentHealth health = agent.health();
            CellSnapshot snapshot = health.up() ? agent.snapshot() : null;
            SiteInfo before = latest.get(site);
            if (before != null && before.up() != health.up()) {
                LOG.info("site {} is {}{}", site, health.status(), health.up() ? "" : ": " + health.reason());
            }
            return new SiteInfo(site, health, snapshot, null, clock.instant());
        } catch (ApiException e) {
            return new SiteInfo(site, null, null, "agent unreachable: " + e.getMessage(), clock.instant());
        } catch (RuntimeException e) {
            // an answer that cannot be read: the site is down for it, and the periodic poll carries on
            LOG.warn("site {}: its agent's answer could not be read", site, e);
            return new SiteInfo(site, null, null, "agent's answer unreadable: " + e.getMessage(), clock.instant());
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        polls.shutdownNow();
    }
}
