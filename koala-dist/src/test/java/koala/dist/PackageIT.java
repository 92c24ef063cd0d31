package koala.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import koala.common.time.Poll;
import koala.grid.KoalaHome;
import koala.testbed.Progress;
import koala.testbed.Testbed;
import org.junit.jupiter.api.Test;

/**
 * The Debian package as an admin installs and runs it, on the testbed: {@code dpkg -i} of the
 * package this build made, the scheduler started from the installed files as the systemd unit's
 * {@code ExecStart} starts it, a job submitted with the installed {@code /usr/bin/koala submit
 * --wait} and FINISHED, the scheduler stopped as {@code systemctl stop} stops it, the Python package
 * imported by an ordinary user with Debian's {@code python3}, and the package removed and purged,
 * leaving nothing of it.
 *
 * <p><b>What it needs</b>, and fails naming when missing:
 * <ul>
 * <li>root (dpkg, and the unit runs the scheduler as root);</li>
 * <li>the testbed up: {@code bin/koala testbed up} (or any integration test) wrote
 *     {@code /etc/koala/grid.properties} and started the cells and the {@code koala} account;</li>
 * <li>the package of this build: the system property {@code koala.dist.deb}, which koala-dist's
 *     pom sets to the .deb it made in the same run;</li>
 * <li>the package's dependencies installed (a Java 17 runtime, {@code libdrmaa1.0-java}): {@code
 *     dpkg -i} does not fetch them, and the testbed has them; and Dask ({@code python3-distributed},
 *     which the package suggests), for {@code koala.dask}: installed with the tests' other programs
 *     ({@link Testbed#installPrograms()}) when missing;</li>
 * <li>no package named {@code koala} installed: this test purges the one it installs.</li>
 * </ul>
 * Run it with {@code bin/koala package --it} ({@code mvn -Pdist verify -pl koala-dist -am} with
 * only this test selected). Its two tests take about three minutes (182 s on the loaded 2-core
 * machine).
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
    /** Where Debian's python3 finds the packages of Debian's packages, and so KOALA's Python package. */
    private static final Path DIST_PACKAGES = Path.of("/usr/lib/python3/dist-packages");
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
            pythonPackageImports(deb);

            Run version = run(List.of(KOALA.toString(), "--version"), SYSTEMD_ENV, 60);
            assertThat(version.status()).isZero();
            assertThat(version.output()).startsWith("koala " + projectVersion() + ", ").contains("commit");
            if (Files.isExecutable(Path.of("/usr/bin/systemd-analyze"))) {
                Run verify = run(List.of("systemd-analyze", "verify", UNIT.toString()), Map.of(), 60);
                assertThat(verify.status()).as("systemd-analyze verify: " + verify.output()).isZero();
            }

            Path config = config(work);
            scheduler = startScheduler(config, work, "scheduler.log");

            Path jdf = Files.writeString(work.resolve("hostname.jdf"),
                    "&(resourceManagerContact = fs0)(count = 1)(executable = /bin/hostname)\n");
            Map<String, String> user = userEnvironment(config);
            // root owns no job: an admin submits for the testbed's account, as the other tests do
            Run submit = run(List.of(KOALA.toString(), "submit", "--wait", "--json", "--as", "koala", jdf.toString()),
                    user, 300);
            assertThat(submit.status()).as("koala submit --wait: " + submit.output()).isZero();
            JsonNode job = json.readTree(submit.output().substring(submit.output().indexOf('{')));
            assertThat(job.get("state").asText()).isEqualTo("FINISHED");
            Run status = run(List.of(KOALA.toString(), "status", "--json", job.get("id").asText()), user, 60);
            assertThat(status.status()).as("koala status: " + status.output()).isZero();
            assertThat(json.readTree(status.output()).get("state").asText()).isEqualTo("FINISHED");

            stopScheduler(scheduler);
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
        assertThat(DIST_PACKAGES.resolve("koala")).as("the Python package removed, bytecode and all").doesNotExist();
        try (Stream<Path> left = Files.list(DIST_PACKAGES)) {
            assertThat(left.map(p -> p.getFileName().toString())).as("its metadata removed")
                    .noneMatch(n -> n.startsWith("koala_grid-"));
        }
    }

    /**
     * The Python package as a Dask user on the head node finds it: an ordinary user's {@code
     * /usr/bin/python3} in isolated mode (no {@code PYTHONPATH}, no user site, not the working
     * directory: the system's module path alone) imports {@code koala.dask} and {@code koala.runner}
     * from {@code /usr/lib/python3/dist-packages}, and the distribution {@code koala-grid} has the
     * package's version (PEP 440: {@code VERSION}, or {@code VERSION.devBUILDTIME} for a snapshot); the
     * postinst compiled its bytecode, which that user could not write.
     */
    private static void pythonPackageImports(Path deb) throws Exception {
        String expected = debVersion(deb).replaceFirst("~(\\d+).*$", ".dev$1");
        Run imported = run(List.of("runuser", "-u", Testbed.AGENT_USER, "--", "/usr/bin/python3", "-I", "-c",
                "import importlib.metadata as m, koala.dask, koala.runner; "
                        + "print(koala.dask.__file__, koala.runner.__file__, m.version('koala-grid'))"), SYSTEMD_ENV, 120);
        assertThat(imported.status()).as("import koala.dask, koala.runner as " + Testbed.AGENT_USER + ": "
                + imported.output()).isZero();
        String printed = imported.output().lines().reduce((first, second) -> second).orElse(""); // after any warning
        assertThat(printed).as(imported.output()).isEqualTo(DIST_PACKAGES.resolve("koala/dask.py") + " "
                + DIST_PACKAGES.resolve("koala/runner.py") + " " + expected);
        try (Stream<Path> compiled = Files.list(DIST_PACKAGES.resolve("koala/__pycache__"))) {
            assertThat(compiled.map(p -> p.getFileName().toString())).as("the bytecode the postinst compiled")
                    .anyMatch(n -> n.startsWith("dask.cpython-")).anyMatch(n -> n.startsWith("runner.cpython-"));
        }
    }

    /**
     * An upgrade as an admin makes one: {@code dpkg -i} of a newer package over an older one while
     * the scheduler runs, then the scheduler started again on the new files (what the postinst's
     * {@code systemctl try-restart} does; these machines do not run systemd). The database, a job
     * that runs through the upgrade and a framework instance carry on. The older package is this
     * build's, repacked under a lower version ({@code VERSION~0.older}, which dpkg orders first): it
     * is dpkg's upgrade — conffile kept, files replaced under a running scheduler, state directories
     * untouched — and the restart on the installed files that this test checks; schema changes
     * between versions are {@code H2Store}'s (every open adds what is missing) and its tests'.
     *
     * <p>The job cannot end before the restart: it waits for a file in its owner's home (the
     * nodes see homes) that this test writes only once the new scheduler is up.
     */
    @Test
    void anUpgradeKeepsTheDatabaseARunningJobAndAnInstance() throws Exception {
        Path deb = requirements();
        byte[] testbedConfig = Files.readAllBytes(CONFFILE);
        Set<PosixFilePermission> testbedConfigMode = Files.getPosixFilePermissions(CONFFILE);
        Path work = Files.createTempDirectory(MARK + "-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Path go = Path.of("/home/koala", "." + MARK + ".go");
        Process scheduler = null;
        Map<String, String> user = null;
        String instance = null;
        try {
            Path older = olderPackage(deb, work);
            String olderVersion = debVersion(older);
            String newerVersion = debVersion(deb);
            assertThat(run(List.of("dpkg", "--compare-versions", olderVersion, "lt", newerVersion), Map.of(), 60)
                    .status()).as(olderVersion + " before " + newerVersion).isZero();
            Run install = run(List.of("dpkg", "-i", "--force-confdef", "--force-confold", older.toString()), Map.of(), 600);
            assertThat(install.status()).as("dpkg -i (older): " + install.output()).isZero();
            assertThat(installedVersion()).isEqualTo(olderVersion);

            Path config = config(work);
            user = userEnvironment(config);
            scheduler = startScheduler(config, work, "scheduler-older.log");

            Run deploy = run(List.of(KOALA.toString(), "fluent", "deploy", "--as", "koala", "--name", "upgrade",
                    "--provisioning", "static", "--workers", "1", "--fmax", "1"), user, 420);
            assertThat(deploy.status()).as("koala fluent deploy: " + deploy.output()).isZero();
            Matcher id = Pattern.compile("framework instance (\\d+):").matcher(deploy.output());
            assertThat(id.find()).as("the instance's id in: " + deploy.output()).isTrue();
            instance = id.group(1);
            JsonNode before = framework(instance, user);
            assertThat(before.get("state").asText()).isEqualTo("RUNNING");
            System.out.println("before the upgrade: instance " + instance + " " + before.get("nodesPerRole")
                    + ", master " + before.get("master"));

            Files.deleteIfExists(go);
            Path jdf = Files.writeString(work.resolve("through.jdf"), "&(resourceManagerContact = fs1)(count = 1)"
                    + "(executable = /bin/sh)(arguments = \"-c\" \"while [ ! -e " + go + " ]; do sleep 1; done\")\n");
            Run submit = run(List.of(KOALA.toString(), "submit", "--json", "--as", "koala", jdf.toString()), user, 120);
            assertThat(submit.status()).as("koala submit: " + submit.output()).isZero();
            String job = json.readTree(submit.output().substring(submit.output().indexOf('{'))).get("id").asText();
            Map<String, String> asUser = user;
            await("job " + job + " RUNNING").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> jobState(job, asUser), "RUNNING"::equals);

            Run upgrade = run(List.of("dpkg", "-i", "--force-confdef", "--force-confold", deb.toString()), Map.of(), 600);
            assertThat(upgrade.status()).as("dpkg -i (newer): " + upgrade.output()).isZero();
            assertThat(upgrade.output()).contains("Unpacking koala (" + newerVersion + ") over (" + olderVersion + ")");
            assertThat(installedVersion()).isEqualTo(newerVersion);
            assertThat(Files.readAllBytes(CONFFILE)).as("the testbed's grid.properties, kept over the upgrade")
                    .isEqualTo(testbedConfig);
            assertThat(jobState(job, user)).as("the job, while the old scheduler still runs").isEqualTo("RUNNING");

            stopScheduler(scheduler);
            scheduler = startScheduler(config, work, "scheduler-newer.log");
            Run version = run(List.of(KOALA.toString(), "--version"), SYSTEMD_ENV, 60);
            assertThat(version.output()).startsWith("koala " + projectVersion() + ", ");

            assertThat(jobState(job, user)).as("the job, to the new scheduler").isEqualTo("RUNNING");
            JsonNode after = framework(instance, user);
            assertThat(after.get("state").asText()).isEqualTo("RUNNING");
            assertThat(after.get("master")).as("the instance's master, carried on").isEqualTo(before.get("master"));
            String instanceId = instance;
            await("instance " + instance + " with its worker again").atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> framework(instanceId, asUser).get("nodesPerRole"), before.get("nodesPerRole")::equals);

            Files.writeString(go, "");
            await("job " + job + " FINISHED").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> jobState(job, asUser), "FINISHED"::equals);
            Run cancel = run(List.of(KOALA.toString(), "cancel", instance), user, 60);
            assertThat(cancel.status()).as("koala cancel: " + cancel.output()).isZero();
            await("instance " + instance + " ended").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> framework(instanceId, asUser).get("state").asText(), s -> !s.equals("RUNNING"));
            instance = null;
            await("no node of KOALA's left in the cells").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(2))
                    .until(() -> koalaNodes(asUser), n -> n == 0);
            stopScheduler(scheduler);
        } finally {
            Files.deleteIfExists(go);
            if (instance != null && scheduler != null && scheduler.isAlive()) {
                run(List.of(KOALA.toString(), "cancel", instance), user, 60); // its pilots leave the cells
            }
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
    }

    /** {@code deb} repacked as an older version: {@code VERSION~0.older}, which dpkg orders before {@code VERSION}. */
    private static Path olderPackage(Path deb, Path work) throws Exception {
        Path tree = work.resolve("older");
        Run unpack = run(List.of("dpkg-deb", "-R", deb.toString(), tree.toString()), Map.of(), 300);
        assertThat(unpack.status()).as("dpkg-deb -R: " + unpack.output()).isZero();
        Path control = tree.resolve("DEBIAN/control");
        String version = debVersion(deb);
        String older = version.replaceFirst("~.*$", "") + "~0.older";
        Files.writeString(control, Files.readString(control).replace("Version: " + version + "\n", "Version: " + older + "\n"));
        Path out = work.resolve("koala_" + older + "_all.deb");
        Run build = run(List.of("dpkg-deb", "--root-owner-group", "-b", tree.toString(), out.toString()), Map.of(), 300);
        assertThat(build.status()).as("dpkg-deb -b: " + build.output()).isZero();
        deleteTree(tree);
        return out;
    }

    private static String debVersion(Path deb) throws Exception {
        Run field = run(List.of("dpkg-deb", "-f", deb.toString(), "Version"), Map.of(), 60);
        assertThat(field.status()).as("dpkg-deb -f: " + field.output()).isZero();
        return field.output().trim();
    }

    private static String installedVersion() throws Exception {
        return run(List.of("dpkg-query", "-W", "-f=${Version}", "koala"), Map.of(), 60).output().trim();
    }

    private String jobState(String job, Map<String, String> user) throws Exception {
        Run status = run(List.of(KOALA.toString(), "status", "--json", job), user, 60);
        assertThat(status.status()).as("koala status: " + status.output()).isZero();
        return json.readTree(status.output()).get("state").asText();
    }

    private JsonNode framework(String instance, Map<String, String> user) throws Exception {
        Run status = run(List.of(KOALA.toString(), "framework", "--json", instance), user, 60);
        assertThat(status.status()).as("koala framework: " + status.output()).isZero();
        return json.readTree(status.output());
    }

    /** The nodes KOALA holds or is claiming, over every site. */
    private int koalaNodes(Map<String, String> user) throws Exception {
        Run sites = run(List.of(KOALA.toString(), "sites", "--json"), user, 60);
        assertThat(sites.status()).as("koala sites: " + sites.output()).isZero();
        int n = 0;
        for (JsonNode site : json.readTree(sites.output())) {
            n += site.get("koala").asInt() + site.get("claiming").asInt();
        }
        return n;
    }

    /**
     * The scheduler as the unit's {@code ExecStart} starts it, in the unit's environment but with this
     * test's KOALA_HOME and configuration, once it says READY.
     */
    private static Process startScheduler(Path config, Path work, String logName) throws Exception {
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
                .redirectError(work.resolve(logName).toFile());
        start.environment().clear();
        start.environment().putAll(env);
        Process scheduler = start.start();
        String ready = awaitReady(scheduler, work.resolve(logName));
        System.out.println("installed scheduler: " + ready);
        awaitSitesUp(userEnvironment(config));
        return scheduler;
    }

    /** Every site's agent up with nodes to offer: else the cells are not running (bin/koala testbed up). */
    private static void awaitSitesUp(Map<String, String> user) {
        ObjectMapper json = new ObjectMapper();
        StringBuilder last = new StringBuilder();
        try {
            await("every site's agent up").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1)).until(() -> {
                Run sites = run(List.of(KOALA.toString(), "sites", "--json"), user, 60);
                last.setLength(0);
                last.append(sites.output());
                if (sites.status() != 0) {
                    return false;
                }
                JsonNode all = json.readTree(sites.output());
                boolean up = all.size() > 0;
                for (JsonNode site : all) {
                    up &= site.get("agent").asText().equals("UP") && site.get("total").asInt() > 0;
                }
                return up;
            });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("the installed scheduler's sites are not all up within 2 minutes: are the cells "
                    + "running (bin/koala testbed status; bin/koala testbed up)? koala sites --json said:\n" + last, e);
        }
    }

    /** systemctl stop with KillMode=process: TERM to the scheduler alone, TimeoutStopSec=30. */
    private static void stopScheduler(Process scheduler) throws InterruptedException {
        scheduler.destroy();
        assertThat(scheduler.waitFor(30, TimeUnit.SECONDS)).as("the scheduler gone within 30 s of its TERM").isTrue();
        assertThat(scheduler.exitValue()).as("a clean stop (SuccessExitStatus=143)").isIn(0, 143);
    }

    /** A user's environment for the installed {@code koala}: this test's scheduler. */
    private static Map<String, String> userEnvironment(Path config) {
        Map<String, String> user = new LinkedHashMap<>(SYSTEMD_ENV);
        user.put("KOALA_HOME", HOME.toString());
        user.put("KOALA_CONFIG", config.toString());
        return user;
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
        new Testbed(KoalaHome.dir(), Progress.quiet(), Poll.system()).installPrograms(); // Dask, for koala.dask
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

    private static int freePort() {
        return koala.common.net.FreePort.any();
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
