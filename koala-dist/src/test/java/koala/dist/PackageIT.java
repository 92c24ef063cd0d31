package koala.dist;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Debian package as an admin installs and runs it, on the testbed: {@code dpkg -i} of the
 * package this build made, the scheduler started from the installed files as the systemd unit's
 * {@code ExecStart} starts it, a job submitted with the installed {@code /usr/bin/koala submit
 * --wait} and FINISHED, the scheduler stopped as {@code systemctl stop} stops it, and the package
 * removed and purged.
 *
 * <p><b>What it needs</b>, and fails naming when missing:
 * <ul>
 * <li>root (dpkg, and the unit runs the scheduler as root);</li>
 * <li>the testbed up: {@code bin/koala testbed up} (or any integration test) wrote
 *     {@code /etc/koala/grid.properties} and started the cells and the {@code koala} account;</li>
 * <li>the package of this build: the system property {@code koala.dist.deb}, which koala-dist's
 *     pom sets to the .deb it made in the same run;</li>
 * <li>the package's dependencies installed (a Java 17 runtime, {@code libdrmaa1.0-java}): {@code
 *     dpkg -i} does not fetch them, and the testbed has them;</li>
 * <li>no package named {@code koala} installed: this test purges the one it installs.</li>
 * </ul>
 * Run it with {@code bin/koala package --it} ({@code mvn -Pdist verify -pl koala-dist -am} with
 * only this test selected). It takes about two minutes.
 *
 * <p><b>What it changes, and puts back.</b> The testbed's {@code /etc/koala/grid.properties} is
 * not the package's: dpkg, told {@code --force-confdef --force-confold} (without them it stops at
 * a prompt), keeps it and writes the package's template beside it as {@code .dpkg-dist}; the test
 * checks that. A purge deletes a conffile even when dpkg kept the admin's version, so the test keeps
 * a hard link to it under another name during the purge and renames it back (atomically) after.
 * The scheduler it starts has a {@code KOALA_HOME} of its own ({@code /var/lib/koala-package-it-PID},
 * not the unit's {@code /var/lib/koala}, which is the testbed's schedulers' own: their database), its
 * own socket and port, the testbed's sites otherwise; those directories are deleted at the end, and
 * the site agents it started (found by the configuration file they were given) are ended. The
 * remote site's agent ends by itself a minute after its scheduler is gone.
 */
class PackageIT {
    private static final String MARK = "koala-package-it-" + ProcessHandle.current().pid();
    private static final Path CONFFILE = Path.of("/etc/koala/grid.properties");
    private static final Path UNIT = Path.of("/lib/systemd/system/koala-scheduler.service");
    private static final Path KOALA = Path.of("/usr/bin/koala");
    /** The scheduler's KOALA_HOME for this test, in place of the unit's /var/lib/koala (the testbed's). */
    private static final Path HOME = Path.of("/var/lib", MARK);
    /** What {@code RuntimeDirectory=koala} is to the unit: the directory of the users' socket. */
    private static final Path RUN = Path.of("/run", MARK);
    /** The environment systemd gives a system service before the unit's own {@code Environment=}. */
    private static final Map<String, String> SYSTEMD_ENV = Map.of("PATH",
            "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");

    private final ObjectMapper json = new ObjectMapper();

    @Test
    void theInstalledPackageRunsTheSchedulerAndAJobFinishes() throws Exception {
        Path deb = requirements();
        byte[] testbedConfig = Files.readAllBytes(CONFFILE);
        Set<PosixFilePermission> testbedConfigMode = Files.getPosixFilePermissions(CONFFILE);
        Path work = Files.createTempDirectory(MARK + "-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Process scheduler = null;
        try {
            Run install = run(List.of("dpkg", "-i", "--force-confdef", "--force-confold", deb.toString()), Map.of(), 600);
            assertThat(install.status()).as("dpkg -i: " + install.output()).isZero();
            assertThat(dpkgStatus()).isEqualTo("install ok installed");
            assertThat(Files.readAllBytes(CONFFILE)).as("the testbed's grid.properties, kept by dpkg")
                    .isEqualTo(testbedConfig);
            assertThat(Files.readString(Path.of(CONFFILE + ".dpkg-dist"))).as("the package's template beside it")
                    .contains("#grid.sites");
            assertThat(install.output()).contains("Keeping old config file as default");
            try (Stream<Path> lib = Files.list(Path.of("/usr/share/koala/lib"))) {
                assertThat(lib.map(p -> p.getFileName().toString()))
                        .as("the daemons' class path, without the measurements' libraries")
                        .contains("koala-cli-" + projectVersion() + ".jar", "h2-2.3.232.jar")
                        .noneMatch(n -> n.matches("(xchart|pdfbox|fontbox|jmh-core|commons-math3|simulator|experiments)-.*"));
            }

            Run version = run(List.of(KOALA.toString(), "--version"), SYSTEMD_ENV, 60);
            assertThat(version.status()).isZero();
            assertThat(version.output()).startsWith("koala " + projectVersion() + ", ").contains("commit");
            if (Files.isExecutable(Path.of("/usr/bin/systemd-analyze"))) {
                Run verify = run(List.of("systemd-analyze", "verify", UNIT.toString()), Map.of(), 60);
                assertThat(verify.status()).as("systemd-analyze verify: " + verify.output()).isZero();
            }

            Path config = config(work);
            Map<String, String> env = new LinkedHashMap<>(SYSTEMD_ENV);
            env.putAll(unitEnvironment());
            assertThat(env).as("the unit's environment").containsEntry("KOALA_HOME", "/var/lib/koala");
            env.put("KOALA_HOME", HOME.toString());
            env.put("KOALA_CONFIG", config.toString());
            // what StateDirectory= and RuntimeDirectory= make before ExecStart
            Files.createDirectories(HOME, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Files.createDirectories(RUN, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));

            List<String> execStart = unitExecStart();
            assertThat(execStart).containsExactly(KOALA.toString(), "scheduler");
            ProcessBuilder start = new ProcessBuilder(execStart).directory(Path.of("/").toFile())
                    .redirectError(work.resolve("scheduler.log").toFile());
            start.environment().clear();
            start.environment().putAll(env);
            scheduler = start.start();
            String ready = awaitReady(scheduler, work.resolve("scheduler.log"));
            System.out.println("installed scheduler: " + ready);

            Path jdf = Files.writeString(work.resolve("hostname.jdf"),
                    "&(resourceManagerContact = fs0)(count = 1)(executable = /bin/hostname)\n");
            Map<String, String> user = new LinkedHashMap<>(SYSTEMD_ENV);
            user.put("KOALA_HOME", HOME.toString());
            user.put("KOALA_CONFIG", config.toString());
            // root owns no job: an admin submits for the testbed's account, as the other tests do
            Run submit = run(List.of(KOALA.toString(), "submit", "--wait", "--json", "--as", "koala", jdf.toString()),
                    user, 300);
            assertThat(submit.status()).as("koala submit --wait: " + submit.output()).isZero();
            JsonNode job = json.readTree(submit.output().substring(submit.output().indexOf('{')));
            assertThat(job.get("state").asText()).isEqualTo("FINISHED");
            Run status = run(List.of(KOALA.toString(), "status", "--json", job.get("id").asText()), user, 60);
            assertThat(status.status()).as("koala status: " + status.output()).isZero();
            assertThat(json.readTree(status.output()).get("state").asText()).isEqualTo("FINISHED");

            // systemctl stop with KillMode=process: TERM to the scheduler alone, TimeoutStopSec=30
            scheduler.destroy();
            assertThat(scheduler.waitFor(30, TimeUnit.SECONDS)).as("the scheduler gone within 30 s of its TERM").isTrue();
            assertThat(scheduler.exitValue()).as("a clean stop (SuccessExitStatus=143)").isIn(0, 143);
        } finally {
            if (scheduler != null && scheduler.isAlive()) {
                scheduler.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
            try {
                endProcessesNaming(List.of(work.toString(), MARK));
                removePackage(testbedConfig, testbedConfigMode);
            } finally {
                for (Path dir : List.of(HOME, HOME.resolveSibling(HOME.getFileName() + "-shared"), RUN, work)) {
                    deleteTree(dir);
                }
            }
        }
        assertThat(dpkgStatus()).as("the package purged").isEmpty();
        assertThat(Files.readAllBytes(CONFFILE)).as("the testbed's grid.properties, as it was").isEqualTo(testbedConfig);
    }

    /** What this test needs, each checked with the reason; the package to install. */
    private static Path requirements() throws Exception {
        assertThat(System.getProperty("user.name")).as("PackageIT installs a package: run it as root").isEqualTo("root");
        String deb = System.getProperty("koala.dist.deb");
        assertThat(deb).as("the system property koala.dist.deb (koala-dist's pom sets it: run mvn -Pdist verify)")
                .isNotBlank();
        assertThat(Path.of(deb)).as("the package this build made").isRegularFile();
        assertThat(CONFFILE).as("the testbed's grid configuration: bin/koala testbed up first").isRegularFile();
        assertThat(Files.readString(CONFFILE)).as(CONFFILE + " is the testbed's").contains("grid.sites");
        assertThat(dpkgStatus()).as("a package named koala is installed already: this test would purge it; "
                + "remove it first (dpkg -r koala)").isEmpty();
        return Path.of(deb);
    }

    /** The testbed's configuration with this scheduler's own socket, port and remote directory, and quick rounds. */
    private static Path config(Path work) throws IOException {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("scheduler.socket", RUN.resolve("scheduler.sock").toString());
        settings.put("scheduler.port", Integer.toString(freePort()));
        settings.put("site.fs2.ssh.dir", "." + MARK);
        settings.put("site.fs2.ssh.agentIdleExit", "60");
        settings.put("scheduler.placementInterval", "1");
        settings.put("scheduler.kisInterval", "1");
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(CONFFILE)) {
            if (!settings.containsKey(line.split("=", 2)[0].trim())) {
                lines.add(line);
            }
        }
        settings.forEach((k, v) -> lines.add(k + " = " + v));
        // readable by the sites' agent account, which loads it too
        Path file = Files.write(work.resolve("grid.properties"), lines);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        return file;
    }

    /** The installed unit's {@code ExecStart=}, split into words (it has no quoting). */
    private static List<String> unitExecStart() throws IOException {
        return Files.readAllLines(UNIT).stream().filter(l -> l.startsWith("ExecStart="))
                .map(l -> List.of(l.substring("ExecStart=".length()).trim().split("\\s+"))).findFirst()
                .orElseThrow(() -> new AssertionError(UNIT + " has no ExecStart="));
    }

    /** The installed unit's {@code Environment=} assignments. */
    private static Map<String, String> unitEnvironment() throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
        for (String line : Files.readAllLines(UNIT)) {
            if (line.startsWith("Environment=")) {
                for (String assignment : line.substring("Environment=".length()).trim().split("\\s+")) {
                    String[] kv = assignment.split("=", 2);
                    env.put(kv[0], kv.length > 1 ? kv[1] : "");
                }
            }
        }
        return env;
    }

    /** The scheduler's READY line, within three minutes; else its log in the failure. */
    private static String awaitReady(Process scheduler, Path log) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(scheduler.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> {
            try {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    if (line.startsWith("READY ")) {
                        return line;
                    }
                }
                return null;
            } catch (IOException e) {
                return null;
            }
        });
        String line;
        try {
            line = ready.get(180, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            line = null;
        }
        assertThat(line).as("READY from the installed scheduler; its log:\n" + tail(log)).isNotNull();
        return line;
    }

    /**
     * {@code dpkg -r}, then {@code --purge}, keeping the testbed's configuration: dpkg deletes a
     * conffile on purge even when it kept the admin's version at install. A hard link under a name
     * dpkg does not touch keeps it through the purge; renamed back, it is there again at once.
     */
    private static void removePackage(byte[] testbedConfig, Set<PosixFilePermission> mode) throws Exception {
        if (dpkgStatus().isEmpty()) {
            return;
        }
        Run remove = run(List.of("dpkg", "-r", "koala"), Map.of(), 300);
        System.out.println("dpkg -r koala: " + remove.output());
        Path keep = CONFFILE.resolveSibling("." + MARK);
        Files.deleteIfExists(keep);
        if (Files.exists(CONFFILE, LinkOption.NOFOLLOW_LINKS)) {
            Files.createLink(keep, CONFFILE);
        }
        Run purge = run(List.of("dpkg", "--purge", "koala"), Map.of(), 300);
        System.out.println("dpkg --purge koala: " + purge.output());
        if (Files.exists(keep)) {
            Files.move(keep, CONFFILE, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        if (!Files.exists(CONFFILE) || !Arrays.equals(Files.readAllBytes(CONFFILE), testbedConfig)) {
            Files.createDirectories(CONFFILE.getParent());
            Path staged = CONFFILE.resolveSibling("." + MARK + ".new");
            Files.write(staged, testbedConfig);
            Files.setPosixFilePermissions(staged, mode);
            Files.move(staged, CONFFILE, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        Files.deleteIfExists(Path.of(CONFFILE + ".dpkg-dist"));
        assertThat(remove.status()).as("dpkg -r koala: " + remove.output()).isZero();
        assertThat(purge.status()).as("dpkg --purge koala: " + purge.output()).isZero();
        assertThat(KOALA).as("/usr/bin/koala removed").doesNotExist();
    }

    /**
     * Ends the processes this test's scheduler started — its site agents, given this test's
     * configuration file, and anything else naming this test's directories — TERM, then KILL.
     */
    private static void endProcessesNaming(List<String> marks) throws InterruptedException {
        long self = ProcessHandle.current().pid();
        List<ProcessHandle> ours = ProcessHandle.allProcesses()
                .filter(p -> p.pid() != self)
                .filter(p -> p.info().commandLine().map(line -> marks.stream().anyMatch(line::contains)).orElse(false))
                .toList();
        ours.forEach(ProcessHandle::destroy);
        for (ProcessHandle p : ours) {
            try {
                p.onExit().get(10, TimeUnit.SECONDS);
            } catch (Exception stillThere) {
                p.destroyForcibly();
            }
        }
    }

    /** {@code dpkg-query}'s status of the package koala, empty when dpkg knows none. */
    private static String dpkgStatus() throws Exception {
        Run query = run(List.of("dpkg-query", "-W", "-f=${Status}", "koala"), Map.of(), 60);
        return query.status() == 0 ? query.output().trim() : "";
    }

    private static String projectVersion() {
        return System.getProperty("koala.dist.projectVersion");
    }

    record Run(int status, String output) {
    }

    /** A command with standard input closed (dpkg must not wait at a prompt); {@code env} added to ours, or ours replaced. */
    private static Run run(List<String> command, Map<String, String> env, int seconds) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        if (env.containsKey("PATH")) {
            pb.environment().clear();
        }
        pb.environment().putAll(env);
        Process p = pb.start();
        CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "";
            }
        });
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(command + " did not end within " + seconds + " s");
        }
        return new Run(p.exitValue(), output.get(10, TimeUnit.SECONDS));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
