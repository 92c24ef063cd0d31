package koala.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The testbed's hosts as Linux namespaces: each host has a network namespace ({@code ip netns},
 * its own loopback and addresses on the testbed's bridges), and a UTS and a mount namespace kept
 * in files under {@value #NS_DIR} so that commands can be run on it later with {@code nsenter}.
 * In its mount namespace a host sees the machine's files as a compute node sees a cluster's: the
 * SGE installation, home directories and its site's shared directory, but its own {@code /tmp}
 * and {@code /etc/hosts}, and neither KOALA's private state nor the other sites' directories.
 */
final class Hosts {
    static final Path NS_DIR = Path.of("/run/koala-testbed/ns");
    static final Path VIEWS = Path.of("/run/koala-testbed/views");

    private final Shell root = Shell.root();

    /** What a host's mount namespace hides (empty mounts over them) and binds (source onto target). */
    record View(Path hostsFile, List<Path> hidden, List<Path[]> binds) {
    }

    /** The command prefix that runs a command on {@code host}. */
    static List<String> enter(String host) {
        return List.of("nsenter", "--net=/run/netns/" + host, "--mount=" + NS_DIR.resolve(host + ".mnt"),
                "--uts=" + NS_DIR.resolve(host + ".uts"), "--");
    }

    static Shell shell(String host) {
        return Shell.root().on(enter(host));
    }

    /** True when the host's namespaces are all there and can be entered. */
    boolean exists(String host) {
        return Files.exists(Path.of("/run/netns", host)) && Files.exists(NS_DIR.resolve(host + ".mnt"))
                && shell(host).run("true").ok();
    }

    /** The bridges of the testbed, made when missing; {@code address} in CIDR form, or null for none. */
    void bridge(String name, String address) {
        if (!root.run("ip", "link", "show", name).ok()) {
            root.check("ip", "link", "add", name, "type", "bridge", "forward_delay", "0");
            if (address != null) {
                root.check("ip", "addr", "add", address, "dev", name);
            }
        }
        root.check("ip", "link", "set", name, "up");
    }

    void removeBridge(String name) {
        if (root.run("ip", "link", "show", name).ok()) {
            root.check("ip", "link", "del", name);
        }
    }

    /**
     * Makes the host: its network namespace with one interface per bridge ({@code eth0} on the first),
     * then its name and file-system view. A half-made host from an earlier try is removed first.
     *
     * @param links each a bridge and the host's address on it in CIDR form
     */
    void create(HostPlan host, List<String[]> links, View view) {
        remove(host.name());
        ensureNsDir();
        root.check("ip", "netns", "add", host.name());
        Shell net = root.on(List.of("ip", "netns", "exec", host.name()));
        for (int i = 0; i < links.size(); i++) {
            String bridge = links.get(i)[0];
            String outer = host.link(bridge);
            String inner = outer + "p";
            root.run("ip", "link", "del", outer); // a leftover of a host removed by hand
            root.check("ip", "link", "add", outer, "type", "veth", "peer", "name", inner);
            root.check("ip", "link", "set", outer, "master", bridge);
            root.check("ip", "link", "set", outer, "up");
            root.check("ip", "link", "set", inner, "netns", host.name());
            net.check("ip", "link", "set", inner, "name", "eth" + i);
            net.check("ip", "link", "set", "eth" + i, "address", macOf(links.get(i)[1]));
            net.check("ip", "addr", "add", links.get(i)[1], "dev", "eth" + i);
            net.check("ip", "link", "set", "eth" + i, "up");
        }
        net.check("ip", "link", "set", "lo", "up");
        touch(NS_DIR.resolve(host.name() + ".mnt"));
        touch(NS_DIR.resolve(host.name() + ".uts"));
        root.check("unshare", "--mount=" + NS_DIR.resolve(host.name() + ".mnt"),
                "--uts=" + NS_DIR.resolve(host.name() + ".uts"), "--propagation", "private",
                "sh", "-ec", setup(host.name(), view));
    }

    /**
     * The hardware address of the interface with {@code address} (CIDR form): its four bytes after 02:4b (a
     * locally administered one). A host made again has the one it had, so a neighbour's cache of it stays
     * right: with a new, random one, the KOALA host sent to the old for some 8 s after an up that made a
     * cell's hosts anew (its entry stale until probed), and a test's first SSH to the head node timed out.
     */
    static String macOf(String address) {
        String[] bytes = address.replaceFirst("/.*$", "").split("\\.");
        StringBuilder mac = new StringBuilder("02:4b");
        for (String b : bytes) {
            mac.append(String.format(":%02x", Integer.parseInt(b)));
        }
        return mac.toString();
    }

    /** The shell script that gives a new mount and UTS namespace the host's name and view. */
    static String setup(String name, View view) {
        List<String> lines = new ArrayList<>();
        lines.add("hostname " + name);
        lines.add("mount --bind " + view.hostsFile() + " /etc/hosts");
        lines.add("mount -t tmpfs -o size=512m,mode=1777 tmpfs /tmp");
        for (Path[] bind : view.binds()) {
            lines.add("mount --bind " + bind[0] + " " + bind[1]);
        }
        for (Path hidden : view.hidden()) {
            lines.add("if [ -d " + hidden + " ]; then mount -t tmpfs -o size=1m,mode=755 tmpfs " + hidden + "; fi");
        }
        return String.join("\n", lines);
    }

    /**
     * Removes the host: its processes, its network namespace (its interfaces go with it) and the
     * files that keep its other namespaces.
     */
    void remove(String host) {
        if (Files.exists(Path.of("/run/netns", host))) {
            for (String pid : root.run("ip", "netns", "pids", host).out().split("\\s+")) {
                if (!pid.isBlank()) {
                    ProcessHandle.of(Long.parseLong(pid.trim())).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
            root.run("ip", "netns", "del", host);
        }
        for (String kind : List.of(".mnt", ".uts")) {
            Path file = NS_DIR.resolve(host + kind);
            if (Files.exists(file)) {
                root.run("umount", file.toString());
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    throw new TestbedException("cannot remove " + file + ": " + e.getMessage());
                }
            }
        }
    }

    /** Process ids of the processes in the host's network namespace. */
    List<Long> pids(String host) {
        if (!Files.exists(Path.of("/run/netns", host))) {
            return List.of();
        }
        List<Long> pids = new ArrayList<>();
        for (String pid : root.run("ip", "netns", "pids", host).out().split("\\s+")) {
            if (!pid.isBlank()) {
                pids.add(Long.parseLong(pid.trim()));
            }
        }
        return pids;
    }

    /** Names of the hosts whose namespaces are kept here (those of an earlier plan too). */
    List<String> existing() {
        try (var files = Files.list(NS_DIR)) {
            return files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".mnt"))
                    .map(f -> f.substring(0, f.length() - 4)).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** The namespace files live on a private mount: persistent namespaces cannot be bound on a shared one. */
    private void ensureNsDir() {
        try {
            Files.createDirectories(NS_DIR);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        boolean mounted = root.run("findmnt", "-n", NS_DIR.toString()).ok();
        if (!mounted) {
            root.check("mount", "--bind", NS_DIR.toString(), NS_DIR.toString());
        }
        root.check("mount", "--make-private", NS_DIR.toString());
    }

    private static void touch(Path file) {
        try {
            if (!Files.exists(file)) {
                Files.createFile(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Optional<Long> rss(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Optional.of(Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024);
                }
            }
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }
}
