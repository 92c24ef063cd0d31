package koala.fluent.master;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import koala.api.runner.RunnerClient;
import koala.api.runner.RunnerMessages.Status;
import koala.api.runner.TokenSource;
import koala.common.time.Poll;
import koala.fluent.device.Options;
import koala.fluent.wire.MasterEventKind;
import koala.fluent.wire.Secret;
import koala.http.ApiException;
import koala.http.JsonHttpServer;

/**
 * The framework's master process, started by the node launcher as the instance's master entity:
 * it serves clients and DeviceManagers on {@code KOALA_ENTITY_PORT} and talks to its runner
 * through {@code KOALA_RUNNER_URL}. Options: {@code --suspend K} (an RL without an idle worker suspends
 * word counts, each at most K times, and suspended word counts move to free slots elsewhere, and a
 * worker running only word counts yields them when the grid takes workers back; default 0, never),
 * {@code --slots N} (slots per worker, default 4),
 * {@code --grow-wait S} (how long a job waits for the workers grown for it, default 90),
 * {@code --log-dir DIR} (where metrics.csv, workers.csv, events.log and the journal go, under
 * {@code instance-ID/}; none by default). With a log directory the master journals its jobs,
 * applications and workers there ({@link FileJournal}) and a master started again takes over from
 * it; without one it starts empty.
 * Every caller must present the instance's token in force (the file {@code KOALA_RUNNER_TOKEN_FILE}
 * names, which the master's launcher keeps up to date when the runner replaces it); the master makes a
 * key of its own at each start and hands it to its DeviceManagers, which take commands only with it.
 */
public final class MasterMain {
    /** What the instance's DeviceManagers present to the master, given by the runner to its entities only. */
    public static final String DEVICE_TOKEN_VARIABLE = "KOALA_DEVICE_TOKEN";
    /** How long a new master waits for its predecessor's hold on the journal: a process killed lets go at once. */
    private static final Duration JOURNAL_LOCK_WAIT = Duration.ofSeconds(30);

    private MasterMain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = Options.parse(args, Set.of("--slots", "--grow-wait", "--log-dir", "--suspend"));
        int slots = Integer.parseInt(options.getOrDefault("--slots", "4"));
        Duration growWait = Duration.ofSeconds(Long.parseLong(options.getOrDefault("--grow-wait", "90")));
        Optional<Path> logDir = Optional.ofNullable(options.get("--log-dir"))
                .map(d -> Path.of(d, "instance-" + System.getenv().getOrDefault("KOALA_INSTANCE", "0")));
        int port = Integer.parseInt(System.getenv().getOrDefault("KOALA_ENTITY_PORT", "0"));
        RunnerClient client = RunnerClient.fromEnvironment();
        TokenSource tokens = TokenSource.fromEnvironment(System.getenv(), RunnerClient.TOKEN_FILE_VARIABLE,
                RunnerClient.TOKEN_VARIABLE).orElseThrow(() -> new IllegalStateException(RunnerClient.TOKEN_VARIABLE
                + " is set only for the entities of a framework instance"));
        java.util.function.Supplier<Secret> token = () -> new Secret(tokens.get());
        // the master's own, not the instance's: every client holds the instance's token, and a
        // DeviceManager must not take it as a command (its reader streams files to the URLs it is given)
        // with a runner, the instance's DeviceManager token, which its workers hold from their start: the
        // master's first command to a new worker may come before the worker has read the hello's answer
        String deviceToken = System.getenv(DEVICE_TOKEN_VARIABLE);
        Secret key = deviceToken != null ? new Secret(deviceToken) : Secret.random();
        Status first = firstStatus(client);
        InstantSource clock = InstantSource.system();
        // marked with what stays the same for the instance's life: its device token (its token is replaced)
        Optional<Path> replaced = logDir.flatMap(d -> InstanceDir.claim(d, deviceToken != null ? deviceToken
                : tokens.get(), System.getenv(RunnerClient.TOKEN_VARIABLE), clock.instant()));
        MetricsLog metrics = new MetricsLog(logDir);
        MasterEvents events = new MasterEvents(clock, metrics);
        Runner runner = Runner.of(client);
        // the journal in the instance's log directory, which every node sees: a master restarted on
        // another node takes over from it; without one the master starts empty each time
        Journal journal = logDir.<Journal>map(d -> FileJournal.open(d.resolve("journal"), JOURNAL_LOCK_WAIT,
                Poll.system())).orElseGet(Journal::memory);
        // its state on a loop of its own; its calls to the runner, to DeviceManagers and to the journal off it:
        // a grow waiting for its grant at the scheduler, a DeviceManager that hangs or a slow disk holds up
        // no client and no other DeviceManager
        FrameworkManager master = new FrameworkManager(clock, runner, Devices.http(key), events,
                new Provisioning(first, events, metrics, slots,
                        Integer.parseInt(options.getOrDefault("--suspend", "0"))), growWait, journal,
                MasterThreads.threaded());
        // on the node's own address only: nothing of the instance answers on a node's loopback
        JsonHttpServer server = new JsonHttpServer(new InetSocketAddress(java.net.InetAddress.getByName(
                System.getenv().getOrDefault("KOALA_ENTITY_HOST", "127.0.0.1")), port), 8);
        Secret devices = deviceToken == null ? null : new Secret(deviceToken);
        new MasterApi(master, token, key, devices == null ? token : () -> devices).routes(server);
        server.start();
        master.ticking(Duration.ofSeconds(1));
        events.add(MasterEventKind.STARTED, "master of instance " + first.instance() + " (" + first.name() + ", "
                + first.policy() + ") serving on port " + server.port() + ", " + slots + " slots per worker"
                + logDir.map(d -> ", metrics in " + d).orElse("") + replaced.map(d -> "; the directory was another "
                + "instance's under the same id (a scheduler on a new database), moved to " + d).orElse(""),
                Map.of("port", server.port()));
    }

    /** The runner answers before the master starts (it waited for this entity's hello); a few tries cover a slow start. */
    private static Status firstStatus(RunnerClient client) {
        Status[] status = new Status[1];
        String[] error = new String[1];
        Poll.system().until(() -> {
            try {
                status[0] = client.status();
                return true;
            } catch (ApiException e) {
                error[0] = e.getMessage();
                return false;
            }
        }, Duration.ofSeconds(30));
        if (status[0] == null) {
            throw new IllegalStateException("the runner did not answer: " + error[0]);
        }
        return status[0];
    }
}
