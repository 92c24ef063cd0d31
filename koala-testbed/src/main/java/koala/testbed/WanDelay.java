package koala.testbed;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import koala.common.time.Poll;

/**
 * Applies the plan's wide-area delay ({@link WanLinks}): writes the delay program out of this
 * module's resources, sets up each host's device, routes and rule, and keeps one delay process
 * running for all of them; undoes it all when the delay is 0; measures the round trips for
 * {@code testbed status}. The process outlives {@code bin/koala} (its own session, output to
 * {@value #LOG_NAME}); a second {@code up} with the same plan leaves it alone, another delay,
 * another set of hosts or a new program restarts it.
 */
final class WanDelay {
    /** Where the testbed keeps the program, its pid file and its log. */
    static final Path DIR = Path.of("/run/koala-testbed/wan");
    static final String LOG_NAME = "wan-delay.log";
    static final Path PYTHON = Path.of("/usr/bin/python3");
    private static final String RESOURCE = "wan-delay.py";

    private final Path script;
    private final Path pidFile;
    private final Path log;
    private final Poll poll;
    private final Progress progress;

    /** @param dir where the program, its pid file and its log are kept ({@link #DIR} for the testbed) */
    WanDelay(Path dir, Poll poll, Progress progress) {
        this.script = dir.resolve("wan-delay.py");
        this.pidFile = dir.resolve("wan-delay.pid");
        this.log = dir.resolve(LOG_NAME);
        this.poll = poll;
        this.progress = progress;
    }

    /**
     * Brings the links to what {@code plan} says; returns the changes.
     *
     * @param hostsRemade true when hosts were made or removed since the process started: it holds
     *                    the namespaces it opened, so it is started again
     */
    List<String> ensure(TestbedPlan plan, boolean hostsRemade) {
        WanLinks links = new WanLinks(plan);
        List<WanLinks.HostRoutes> hosts = links.hosts();
        if (plan.wanDelayMs() == 0 || hosts.isEmpty()) {
            return remove(plan);
        }
        return apply(hosts, TestbedPlan.GRID_NETWORK, plan.wanDelayMs(), hostsRemade);
    }

    /**
     * Sets up {@code hosts} (their {@value WanLinks#GRID_INTERFACE} on {@code network}) and runs the
     * process for them with {@code delayMs}, restarting it when it runs for something else.
     */
    List<String> apply(List<WanLinks.HostRoutes> hosts, String network, int delayMs, boolean hostsRemade) {
        List<String> changes = new ArrayList<>();
        boolean newProgram = writeProgram();
        int made = 0;
        for (WanLinks.HostRoutes h : hosts) {
            String out = Shell.root().check("ip", "netns", "exec", h.host(), "sh", "-ec",
                    WanLinks.setupScript(h, network)).out();
            made += out.lines().anyMatch(l -> l.equals("made")) ? 1 : 0;
            out.lines().filter(l -> l.startsWith("dropped ")).forEach(l -> changes.add(h.host() + ": " + l + " (no such cell now)"));
        }
        if (made > 0) {
            changes.add("made the wide-area device " + WanLinks.DEVICE + " and its routes on " + made + " hosts");
        }
        List<String> command = WanLinks.command(PYTHON, script, pidFile, delayMs, hosts);
        Optional<Long> running = pid();
        if (running.isPresent() && !hostsRemade && !newProgram && command.equals(commandLine(running.get()))) {
            return changes;
        }
        running.ifPresent(p -> stop(p, changes));
        long pid = start(command);
        changes.add("started the wide-area delay (" + delayMs + " ms each way between cells) for "
                + hosts.size() + " hosts, pid " + pid);
        progress.step("wide-area delay: " + delayMs + " ms each way between cells (" + hosts.size()
                + " hosts, pid " + pid + ")");
        return changes;
    }

    /** Stops the process and removes the devices, routes and rules from the plan's hosts that are there. */
    List<String> remove(TestbedPlan plan) {
        return remove(plan.hosts().stream().filter(h -> h.gridAddress() != null).map(HostPlan::name).toList());
    }

    /** Stops the process and removes the devices, routes and rules from those of {@code hosts} that are there. */
    List<String> remove(List<String> hosts) {
        List<String> changes = new ArrayList<>();
        pid().ifPresent(p -> stop(p, changes));
        int removed = 0;
        for (String h : hosts) {
            if (Files.exists(Path.of("/run/netns", h))) {
                String out = Shell.root().check("ip", "netns", "exec", h, "sh", "-ec", WanLinks.removeScript()).out();
                removed += out.lines().anyMatch(l -> l.equals("removed")) ? 1 : 0;
            }
        }
        if (removed > 0) {
            changes.add("removed the wide-area device and its routes from " + removed + " hosts");
        }
        return changes;
    }

    /** Stops the process (when the hosts go, their devices, routes and rules go with them). */
    List<String> stop() {
        List<String> changes = new ArrayList<>();
        pid().ifPresent(p -> stop(p, changes));
        return changes;
    }

    /** The running delay process, from its pid file, if the process there is the delay program. */
    Optional<Long> pid() {
        try {
            if (!Files.exists(pidFile)) {
                return Optional.empty();
            }
            long pid = Long.parseLong(Files.readString(pidFile).strip());
            List<String> command = commandLine(pid);
            return command.size() > 1 && command.get(1).equals(script.toString()) ? Optional.of(pid) : Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The delay, its process and the round trips of the plan's probes. */
    WanStatus status(TestbedPlan plan) {
        Map<String, List<WanLinks.Probe>> byHost = new LinkedHashMap<>();
        new WanLinks(plan).probes().forEach(p -> byHost.computeIfAbsent(p.fromHost(), k -> new ArrayList<>()).add(p));
        List<WanStatus.RoundTrip> trips = new ArrayList<>();
        byHost.forEach((host, probes) -> {
            Map<String, RttProbe.Measured> measured = measure(host, probes.stream().map(WanLinks.Probe::toAddress).toList());
            for (WanLinks.Probe p : probes) {
                RttProbe.Measured m = measured.getOrDefault(p.toAddress(), new RttProbe.Measured(null, null, "not measured"));
                trips.add(new WanStatus.RoundTrip(p.label(), p.fromHost(), p.toHost(), m.medianMs(), m.minMs(), m.error()));
            }
        });
        return new WanStatus(plan.wanDelayMs(), pid().orElse(null), trips);
    }

    static Map<String, RttProbe.Measured> measure(String host, List<String> addresses) {
        if (!Files.exists(Path.of("/run/netns", host))) {
            Map<String, RttProbe.Measured> none = new LinkedHashMap<>();
            addresses.forEach(a -> none.put(a, new RttProbe.Measured(null, null, "host " + host + " is absent")));
            return none;
        }
        Shell.Result r = Shell.root().run(RttProbe.command(host, addresses).toArray(String[]::new));
        return RttProbe.parse(r.out());
    }

    /** Writes the program out of the resources; true when it changed (a running copy is then an older one). */
    private boolean writeProgram() {
        try (InputStream in = WanDelay.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new TestbedException("the delay program " + RESOURCE + " is missing from koala-testbed's jar");
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Files.createDirectories(script.getParent());
            return Testbed.writeIfChanged(script, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private long start(List<String> command) {
        List<String> full = new ArrayList<>(List.of("setsid"));
        full.addAll(command);
        try {
            Files.deleteIfExists(pidFile);
            Process process = new ProcessBuilder(full).directory(Path.of("/").toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectErrorStream(true).start();
            boolean ready = poll.until(() -> pid().isPresent() || !process.isAlive() && process.exitValue() != 0,
                    Duration.ofSeconds(20));
            if (pid().isEmpty()) {
                process.destroyForcibly();
                throw new TestbedException("the wide-area delay program " + (ready ? "ended" : "did not start within 20 s")
                        + "; its log " + log + " ends: " + tail(log));
            }
            return pid().orElseThrow();
        } catch (IOException e) {
            throw new TestbedException("cannot start the wide-area delay program: " + e.getMessage());
        }
    }

    private void stop(long pid, List<String> changes) {
        ProcessHandle.of(pid).ifPresent(p -> {
            p.destroy();
            if (!poll.until(() -> !p.isAlive(), Duration.ofSeconds(5))) {
                p.destroyForcibly();
                poll.until(() -> !p.isAlive(), Duration.ofSeconds(5));
            }
        });
        try {
            Files.deleteIfExists(pidFile);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        changes.add("stopped the wide-area delay, pid " + pid);
    }

    private static List<String> commandLine(long pid) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            String text = new String(raw, StandardCharsets.UTF_8);
            return text.isEmpty() ? List.of() : List.of(text.split("\0"));
        } catch (IOException e) {
            return List.of();
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }
}
