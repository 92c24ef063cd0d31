package koala.testbed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import koala.common.time.Poll;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wide-area delay on scratch hosts of its own, never the testbed's: namespaces {@code wantest-*}
 * on a bridge {@code wantest0} (no address on the machine, so no route of the machine changes), in
 * 10.77.0.0/16. "Cluster" a is 10.77.1.0/24 (two hosts), b is 10.77.2.0/24 (one host). Needs root.
 */
class WanDelayIT {
    private static final String NET = "10.77.0.0/16";
    private static final String BRIDGE = "wantest0";
    private static final String A1 = "10.77.1.11";
    private static final String A2 = "10.77.1.12";
    private static final String B1 = "10.77.2.11";
    private static final List<WanLinks.HostRoutes> HOSTS = List.of(
            new WanLinks.HostRoutes("wantest-a1", "a", A1, List.of("10.77.2.0/24")),
            new WanLinks.HostRoutes("wantest-a2", "a", A2, List.of("10.77.2.0/24")),
            new WanLinks.HostRoutes("wantest-b1", "b", B1, List.of("10.77.1.0/24")));
    private static final Shell ROOT = Shell.root();

    @TempDir
    static Path dir;
    private static WanDelay wan;

    @BeforeAll
    static void scratchHosts() {
        assumeTrue("root".equals(System.getProperty("user.name")) && Files.exists(Path.of("/dev/net/tun")),
                "needs root and /dev/net/tun");
        removeScratch();
        ROOT.check("ip", "link", "add", BRIDGE, "type", "bridge", "forward_delay", "0");
        ROOT.check("ip", "link", "set", BRIDGE, "up");
        for (WanLinks.HostRoutes h : HOSTS) {
            String outer = "wt" + h.host().substring(h.host().length() - 2);
            ROOT.check("ip", "netns", "add", h.host());
            ROOT.check("ip", "link", "add", outer, "type", "veth", "peer", "name", outer + "p");
            ROOT.check("ip", "link", "set", outer, "master", BRIDGE);
            ROOT.check("ip", "link", "set", outer, "up");
            ROOT.check("ip", "link", "set", outer + "p", "netns", h.host());
            Shell in = ROOT.on(List.of("ip", "netns", "exec", h.host()));
            in.check("ip", "link", "set", outer + "p", "name", "eth0");
            in.check("ip", "addr", "add", h.address() + "/16", "dev", "eth0");
            in.check("ip", "link", "set", "eth0", "up");
            in.check("ip", "link", "set", "lo", "up");
        }
        wan = new WanDelay(dir, new Poll(InstantSource.system(), Duration.ofMillis(50)),
                new Progress(new PrintStream(System.out), InstantSource.system()));
    }

    @AfterAll
    static void removeAll() {
        if (wan != null) {
            wan.stop();
        }
        removeScratch();
    }

    private static void removeScratch() {
        for (WanLinks.HostRoutes h : HOSTS) {
            if (Files.exists(Path.of("/run/netns", h.host()))) {
                for (String pid : ROOT.run("ip", "netns", "pids", h.host()).out().split("\\s+")) {
                    if (!pid.isBlank()) {
                        ProcessHandle.of(Long.parseLong(pid.trim())).ifPresent(ProcessHandle::destroyForcibly);
                    }
                }
                ROOT.run("ip", "netns", "del", h.host());
            }
        }
        ROOT.run("ip", "link", "del", BRIDGE);
    }

    @Test
    void packetsBetweenClustersWaitTheDelayEachWayAndInsideAClusterNone() {
        for (int delay : List.of(0, 1, 5, 20)) {
            List<String> changes = wan.apply(HOSTS, NET, delay, false);
            assertThat(changes).anyMatch(c -> c.startsWith("started the wide-area delay (" + delay + " ms"));
            Map<String, RttProbe.Measured> fromA1 = WanDelay.measure("wantest-a1", List.of(A2, B1));
            Map<String, RttProbe.Measured> fromB1 = WanDelay.measure("wantest-b1", List.of(A1));
            System.out.printf("delay %2d ms: inside %s, a1 -> b1 %s, b1 -> a1 %s%n", delay, fromA1.get(A2),
                    fromA1.get(B1), fromB1.get(A1));
            // the least of 5 round trips: at least the delay each way; at most what a loaded machine adds
            // to it (a delay applied twice would show at 20 ms: 80 ms and more)
            assertThat(fromA1.get(A2).minMs()).isLessThan(5.0);
            for (RttProbe.Measured between : List.of(fromA1.get(B1), fromB1.get(A1))) {
                assertThat(between.minMs()).isBetween(2.0 * delay, 3.0 * delay + 10);
            }
        }
    }

    @Test
    void aSecondApplyChangesNothingAndStacksNothing() {
        wan.apply(HOSTS, NET, 5, false);
        long pid = wan.pid().orElseThrow();
        assertThat(wan.apply(HOSTS, NET, 5, false)).isEmpty();
        assertThat(wan.pid()).contains(pid);
        Shell a1 = ROOT.on(List.of("ip", "netns", "exec", "wantest-a1"));
        assertThat(a1.check("ip", "rule", "show").out().lines().filter(l -> l.contains("fwmark 0x4b"))).hasSize(1);
        assertThat(a1.check("ip", "-o", "route", "show", "dev", WanLinks.DEVICE).out().lines())
                .singleElement().asString().startsWith("10.77.2.0/24 scope link src 10.77.1.11");
        assertThat(a1.check("ip", "route", "show", "table", Integer.toString(WanLinks.TABLE)).out().strip())
                .isEqualTo("10.77.0.0/16 dev eth0 scope link");
    }

    @Test
    void aBulkTransferPassesInOrder() {
        wan.apply(HOSTS, NET, 5, false);
        String server = """
                import socket, hashlib
                s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                s.bind(("0.0.0.0", 7000)); s.listen(1); s.settimeout(60); c, _ = s.accept(); c.settimeout(60)
                h, n = hashlib.sha256(), 0
                while True:
                    d = c.recv(1 << 20)
                    if not d: break
                    h.update(d); n += len(d)
                print(n, h.hexdigest(), flush=True)
                """;
        String client = """
                import socket, hashlib, time, sys
                data = bytes(range(256)) * 4096
                h = hashlib.sha256()
                for _ in range(50): h.update(data)
                for i in range(50):
                    try: c = socket.create_connection((sys.argv[1], 7000), timeout=5); break
                    except OSError: time.sleep(0.1)
                t = time.perf_counter()
                for _ in range(50): c.sendall(data)
                c.shutdown(socket.SHUT_WR); c.recv(1); c.close()
                print(len(data) * 50, h.hexdigest(), "%.3f" % (time.perf_counter() - t))
                """;
        try {
            Process receiver = new ProcessBuilder("ip", "netns", "exec", "wantest-b1", "/usr/bin/python3", "-c", server)
                    .redirectErrorStream(true).start();
            String[] sent = ROOT.check("ip", "netns", "exec", "wantest-a1", "/usr/bin/python3", "-c", client, B1)
                    .out().strip().split(" ");
            String[] got = new String(receiver.getInputStream().readAllBytes()).strip().split(" ");
            double seconds = Double.parseDouble(sent[2]);
            System.out.printf("50 MiB from a1 to b1 at 5 ms each way: %.2f s, %.1f MB/s%n", seconds, 50 / seconds);
            assertThat(got).containsExactly(sent[0], sent[1]);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void whenTheProcessDiesTrafficBetweenClustersStopsAndApplyStartsItAgain() {
        wan.apply(HOSTS, NET, 5, false);
        ProcessHandle.of(wan.pid().orElseThrow()).orElseThrow().destroyForcibly();
        new Poll(InstantSource.system(), Duration.ofMillis(50)).until(() -> wan.pid().isEmpty(), Duration.ofSeconds(5));
        assertThat(WanDelay.measure("wantest-a1", List.of(B1)).get(B1).error()).isEqualTo("TimeoutError");
        assertThat(wan.apply(HOSTS, NET, 5, false)).singleElement().asString().startsWith("started the wide-area delay");
        assertThat(WanDelay.measure("wantest-a1", List.of(B1)).get(B1).minMs()).isBetween(10.0, 13.0);
    }

    @Test
    void removingTakesTheProcessDevicesRoutesAndRulesAway() {
        wan.apply(HOSTS, NET, 5, false);
        List<String> changes = wan.remove(HOSTS.stream().map(WanLinks.HostRoutes::host).toList());
        assertThat(changes).hasSize(2).last().isEqualTo("removed the wide-area device and its routes from 3 hosts");
        assertThat(wan.pid()).isEmpty();
        Shell a1 = ROOT.on(List.of("ip", "netns", "exec", "wantest-a1"));
        assertThat(a1.run("ip", "link", "show", WanLinks.DEVICE).ok()).isFalse();
        assertThat(a1.check("ip", "rule", "show").out()).doesNotContain("fwmark");
        assertThat(WanDelay.measure("wantest-a1", List.of(B1)).get(B1).minMs()).isLessThan(1.0);
        assertThat(wan.remove(HOSTS.stream().map(WanLinks.HostRoutes::host).toList())).isEmpty();
    }
}
