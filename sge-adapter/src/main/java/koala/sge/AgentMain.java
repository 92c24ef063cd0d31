package koala.sge;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import koala.common.grid.ConfigException;
import koala.common.grid.GridConfig;
import koala.common.grid.SiteConfig;
import koala.common.http.JsonHttpServer;
import koala.common.process.AgentProcess;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Entry point of a site agent process: {@code --config FILE --site NAME [--port N]}. The process
 * must have been started with the cell's environment ({@code SGE_ROOT}, {@code SGE_CELL}, ports)
 * and with libdrmaa loadable; {@code bin/koala agent} and the scheduler do that. Prints
 * {@code READY <url>} once it serves. Exits 2 on bad arguments or configuration, 75 when its
 * DRMAA session is wedged (the supervisor restarts it).
 */
public final class AgentMain {
    public static final int EXIT_WEDGED = 75;
    private static final Logger LOG = LogManager.getLogger(AgentMain.class);

    private AgentMain() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        Options options;
        SiteConfig site;
        try {
            options = Options.parse(List.of(args));
            site = GridConfig.load(options.config()).site(options.site());
            checkEnvironment(site);
        } catch (IllegalArgumentException | ConfigException e) {
            System.err.println("koala agent: " + e.getMessage());
            System.exit(2);
            return;
        }
        run(site, options.port());
    }

    static void run(SiteConfig site, int port) throws IOException, InterruptedException {
        SiteAgent agent = new SiteAgent(site, new SgeCommands(site.cell(), Duration.ofSeconds(20)),
                new DrmaaCell(InstantSource.system()), InstantSource.system(),
                Executors.newSingleThreadScheduledExecutor(daemon("probe")), Executors.newSingleThreadExecutor(daemon("reaper")),
                Duration.ofSeconds(2), Duration.ofSeconds(60), () -> Runtime.getRuntime().halt(EXIT_WEDGED));
        JsonHttpServer server = new JsonHttpServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 8);
        AgentApi.register(server, agent);
        server.start();
        agent.start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("agent for site {} stopping", site.name());
            server.close();
            agent.close();
            stopped.countDown();
        }));
        String url = "http://127.0.0.1:" + server.port();
        LOG.info("agent for site {} (cell {}, qmaster port {}) serving on {}", site.name(), site.cell().cell(),
                site.cell().qmasterPort(), url);
        System.out.println(AgentProcess.READY + url);
        System.out.flush();
        stopped.await();
    }

    /** DRMAA binds to the cell named by the environment; a mismatch would submit to the wrong cluster. */
    private static void checkEnvironment(SiteConfig site) {
        site.cell().variables().forEach((name, expected) -> {
            String actual = System.getenv(name);
            if (!expected.equals(actual)) {
                throw new IllegalArgumentException("environment " + name + "=" + actual + " but site " + site.name()
                        + " needs " + expected + " (start agents with bin/koala agent --site " + site.name() + ")");
            }
        });
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    record Options(Path config, String site, int port) {
        static Options parse(List<String> args) {
            Path config = null;
            String site = null;
            int port = 0;
            for (int i = 0; i < args.size(); i++) {
                String value = i + 1 < args.size() ? args.get(i + 1) : null;
                switch (args.get(i)) {
                    case "--config" -> config = Path.of(required("--config", value));
                    case "--site" -> site = required("--site", value);
                    case "--port" -> port = Integer.parseInt(required("--port", value));
                    default -> throw new IllegalArgumentException("unknown option " + args.get(i));
                }
                i++;
            }
            if (config == null || site == null) {
                throw new IllegalArgumentException("usage: AgentMain --config FILE --site NAME [--port N]");
            }
            return new Options(config, site, port);
        }

        private static String required(String option, String value) {
            if (value == null) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return value;
        }
    }
}
