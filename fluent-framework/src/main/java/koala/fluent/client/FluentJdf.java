package koala.fluent.client;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The JDF of an instance of the reference framework: a master (FrameworkManager), an
 * orchestrator node, and DeviceManager workers, each a JVM on the given class path. Orchestrators
 * are hosted by count on orchestrator nodes (the runner places them), so an orchestrator node
 * runs no process of its own beyond holding its node.
 *
 * @param provisioning ondemand, static or proactive
 * @param workers      the initial workers (0 for OnDemand, as in the paper)
 * @param settings     further provisioning attributes, e.g. {@code (tIdle = 10)(samplePeriod = 2)}
 * @param site         where the master goes, or null to let KOALA choose
 * @param logDir       where the master writes its metrics (a directory its node sees), or null;
 *                     the DeviceManagers' readers may read files under it
 * @param java         the Java on the nodes, or null for the one KOALA's node launcher runs on there
 * @param classpath    the framework's jars as the nodes see them, or empty for KOALA's own copy on
 *                     each site (the launcher fills in {@code ${KOALA_CLASSPATH}})
 * @param suspend      how often one word count may be suspended for an RL (the master's {@code --suspend}); 0: never
 */
public record FluentJdf(String name, String provisioning, int workers, int fMax, String settings, int slots,
                        String site, Path logDir, Path java, List<Path> classpath, int suspend) {

    public FluentJdf {
        if (suspend < 0) {
            throw new IllegalArgumentException("suspend: " + suspend + " is negative (0: word counts are never suspended)");
        }
    }

    /** An instance whose master never suspends word counts. */
    public FluentJdf(String name, String provisioning, int workers, int fMax, String settings, int slots, String site,
                     Path logDir, Path java, List<Path> classpath) {
        this(name, provisioning, workers, fMax, settings, slots, site, logDir, java, classpath, 0);
    }

    /** Small heaps and a quick JIT: a 2-core machine hosts a 20-worker instance. */
    static final List<String> JVM = List.of("-Xmx64m", "-Xss512k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-XX:CICompilerCount=1", "-Xshare:auto");

    /** Entities on KOALA's own runtime as each site's nodes see it: the launcher's Java and class path. */
    public static final String LAUNCHER_JAVA = "${KOALA_JAVA}";
    public static final String LAUNCHER_CLASSPATH = "${KOALA_CLASSPATH}";

    public String text() {
        return text(Integer.MAX_VALUE);
    }

    /**
     * The JDF with the initial workers split into worker components of at most {@code largestCluster}
     * each: a component must fit in one cluster, but the runner deploys the workers of all its
     * worker components as one grow, which KOALA may spread over the clusters.
     */
    public String text(int largestCluster) {
        List<String> master = withLogDir(suspend == 0 ? List.of("--slots", Integer.toString(slots))
                : List.of("--slots", Integer.toString(slots), "--suspend", Integer.toString(suspend)));
        return "+( &(jobType = framework)\n"
                + "    (name = " + name + ")\n"
                + "    (role = master)\n"
                + "    (count = 1)\n"
                + (site == null ? "" : "    (resourceManagerContact = " + site + ")\n")
                + "    (executable = " + javaCommand() + ")\n"
                + "    (arguments = " + arguments("koala.fluent.master.MasterMain", master) + ")\n"
                + "    (provisioning = " + provisioning + ")\n"
                + "    (fMax = " + fMax + ")\n"
                + (settings == null || settings.isBlank() ? "" : "    " + settings + "\n")
                + " )\n"
                + " ( &(role = orchestrator)\n"
                + "    (count = 1)\n"
                + "    (executable = /bin/sleep)\n"
                + "    (arguments = infinity)\n"
                + " )\n"
                + workerComponents(Math.max(1, largestCluster));
    }

    private String workerComponents(int largest) {
        StringBuilder text = new StringBuilder();
        int left = workers;
        do {
            int count = Math.min(left, largest);
            text.append(" ( &(role = worker)\n")
                    .append("    (count = ").append(count).append(")\n")
                    .append("    (executable = ").append(javaCommand()).append(")\n")
                    .append("    (arguments = ").append(arguments("koala.fluent.device.DeviceMain",
                            withLogDir(List.of("--slots", Integer.toString(slots))))).append(")\n")
                    .append(" )\n");
            left -= count;
        } while (left > 0);
        return text.toString();
    }

    /** The master writes its metrics there; a DeviceManager's reader may read files there. */
    private List<String> withLogDir(List<String> options) {
        List<String> all = new ArrayList<>(options);
        if (logDir != null) {
            all.addAll(List.of("--log-dir", logDir.toString()));
        }
        return all;
    }

    private String javaCommand() {
        return java == null ? "\"" + LAUNCHER_JAVA + "\"" : java.toString();
    }

    private String arguments(String main, List<String> args) {
        List<String> all = new ArrayList<>(JVM);
        all.add("-cp");
        all.add(classpath == null || classpath.isEmpty() ? LAUNCHER_CLASSPATH
                : classpath.stream().map(Path::toString).collect(Collectors.joining(":")));
        all.add(main);
        all.addAll(args);
        return all.stream().map(a -> "\"" + a + "\"").collect(Collectors.joining(" "));
    }
}
