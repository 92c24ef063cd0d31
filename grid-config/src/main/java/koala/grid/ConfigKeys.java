package koala.grid;

import static koala.grid.ValueType.CHECKED_WHERE_READ;
import static koala.grid.ValueType.GPU_DEVICES;
import static koala.grid.ValueType.LISTEN_PORT;
import static koala.grid.ValueType.HOSTS;
import static koala.grid.ValueType.LIST;
import static koala.grid.ValueType.LOG_LEVEL;
import static koala.grid.ValueType.PATH;
import static koala.grid.ValueType.PORT;
import static koala.grid.ValueType.POSITIVE;
import static koala.grid.ValueType.POSITIVE_SECONDS;
import static koala.grid.ValueType.RATE;
import static koala.grid.ValueType.SECONDS;
import static koala.grid.ValueType.SIZE;
import static koala.grid.ValueType.TEXT;
import static koala.grid.ValueType.WHOLE;
import static koala.grid.ValueType.YES_NO;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Every key the grid configuration may hold: one catalogue, from which unknown keys are told apart
 * (a typo such as {@code site.fs0.sge.cel} gets "did you mean site.fs0.sge.cell?"), values are
 * checked ({@code koala config check}) and a reload decides what a running scheduler takes at once.
 * The admin guide's "Configuration reference" tables document the same keys with the same defaults;
 * a test holds the two together.
 *
 * <p>Patterns name a site {@code S} (a bandwidth's two sites {@code A} and {@code B}), a file
 * {@code F}, a logger {@code L} and a host {@code H}. A site in a key is matched against the listed sites first, so a
 * site's name may hold dots; a key that fits a pattern only with a site not in {@code grid.sites}
 * is "a site defined but not listed" (then the site is taken to be one segment of the key).
 *
 * <p>The nearest known key is the one at the least edit distance (Levenshtein, case ignored) from the
 * unknown one, over every pattern filled in with the listed sites and with the unknown key's own
 * segments; it is suggested when at most one edit in six characters (1 to 3) separates them, ties
 * going to the key listed first.
 */
public final class ConfigKeys {
    private ConfigKeys() {
    }

    private static final List<ConfigKey> ALL = List.of(
            key("grid.sites", LIST, "—", false, "the sites, comma-separated"),
            key("grid.host", TEXT, "empty: loopback (a grid on one machine)", false,
                    "the KOALA host's name or address as the grid's hosts reach it"),
            key("site.S.manager", TEXT, "sge", false, "the site's resource manager: sge or slurm"),
            key("site.S.slurm.conf", PATH, "/etc/slurm/slurm.conf", false,
                    "a Slurm site's slurm.conf (SLURM_CONF of the Slurm commands the agent runs)"),
            key("site.S.slurm.bin", PATH, "/usr/bin", false, "directory of a Slurm site's commands (sbatch, squeue, ...)"),
            key("site.S.sge.root", PATH, "/var/lib/gridengine", false, "the cell's SGE_ROOT"),
            key("site.S.sge.cell", TEXT, "— (required on an SGE site)", false, "the cell's SGE_CELL"),
            key("site.S.sge.qmasterPort", PORT, "6444", false, "the cell's qmaster port"),
            key("site.S.sge.execdPort", PORT, "6445", false, "the cell's execd port"),
            key("site.S.sge.bin", PATH, "/usr/bin", false, "directory of the SGE commands"),
            key("site.S.agent.user", TEXT, "koala", false, "account the agent and its pilots run as"),
            key("site.S.agent.port", PORT, "0", false, "agent HTTP port"),
            key("site.S.node.nativeSpec", TEXT, "empty", false, "DRMAA native specification for one node"),
            key("site.S.node.count", POSITIVE, "1", false, "expected number of nodes"),
            key("site.S.node.cores", POSITIVE, "1", false, "cores of one node"),
            key("site.S.node.slots", POSITIVE, "1", false,
                    "SGE slots of one node: the ranks an MPI job runs on it (the host's slots when node.nativeSpec "
                            + "claims a whole host)"),
            key("site.S.groups.K.G", HOSTS, "none", true,
                    "the hosts of group G of kind K (a rack...), for placement constraints"),
            key("site.S.gpuDevices.H", GPU_DEVICES, "0…N-1 for the host's gpu=N", false,
                    "the device indices of host H's GPUs, as many as SGE's gpu consumable counts there"),
            key("site.S.drmaa.jar", PATH, "/usr/share/java/drmaa.jar", false, "the site's DRMAA Java binding"),
            key("site.S.drmaa.library", PATH, "/usr/lib/gridengine-drmaa/lib/libdrmaa.so.1.0", false,
                    "the DRMAA native library"),
            key("site.S.drmaa.preload", PATH, "Debian's jemalloc", false, "library preloaded into the agent's JVM"),
            key("site.S.shared", PATH, "empty: the nodes see this machine's files", false,
                    "a directory the site's compute nodes see"),
            key("site.S.ssh.host", TEXT, "— (local site)", false, "a remote site's head node"),
            key("site.S.ssh.port", PORT, "22", false, "its SSH port"),
            key("site.S.ssh.user", TEXT, "site.S.agent.user, else koala", false, "the account KOALA logs in as"),
            key("site.S.ssh.key", PATH, "— (required)", false, "that account's private key"),
            key("site.S.ssh.knownHosts", PATH, "~/.ssh/known_hosts of the scheduler's account", false,
                    "known_hosts file for the head node's key"),
            key("site.S.ssh.hostKeyCheck", YES_NO, "yes", false, "whether the head node's key is checked"),
            key("site.S.ssh.dir", TEXT, ".koala", false, "directory on the head node for KOALA's files"),
            key("site.S.ssh.java", TEXT, "java", false, "Java on the head node and its compute nodes"),
            key("site.S.ssh.agentIdleExit", POSITIVE, "600", false, "seconds a remote agent waits for a scheduler"),
            key("site.S.ssh.retryMax", POSITIVE, "30", false, "most seconds between tries to reconnect to the head node"),
            key("site.S.ssh.relayHost", TEXT, "what hostname prints there", false,
                    "the head node's address as its compute nodes reach it"),
            key("scheduler.port", LISTEN_PORT, "7400", false, "the scheduler's HTTP port"),
            key("scheduler.socket", PATH, "/run/koala/scheduler.sock", false, "the users' Unix socket"),
            key("admin.group", TEXT, "koala-admin", false, "the group of KOALA admins"),
            key("scheduler.maxQueuedPerUser", POSITIVE, "1000", true, "jobs one user may have queued"),
            key("scheduler.keepEnded", SECONDS, "600", true, "seconds an ended job stays in memory"),
            key("scheduler.retention", SECONDS, "2592000 (30 days)", true, "seconds the database keeps an ended job"),
            key("scheduler.placement", CHECKED_WHERE_READ, "worst-fit", true, "default placement policy"),
            key("scheduler.placementInterval", SECONDS, "2", true, "seconds between placement rounds"),
            key("scheduler.placementTries", POSITIVE, "150", true, "rounds a job may wait before it fails"),
            key("scheduler.claimTimeout", POSITIVE_SECONDS, "60", false, "seconds a component's pilots may take to start"),
            key("scheduler.claimFailures", POSITIVE, "3", false, "claim failures before a job is placed again"),
            key("scheduler.kisInterval", POSITIVE_SECONDS, "2", false, "seconds between polls of each site agent"),
            key("scheduler.nodeGiveUp", SECONDS, "300", false, "seconds a node launcher tries a lost scheduler"),
            key("scheduler.sweepInterval", POSITIVE_SECONDS, "30", true,
                    "seconds between looks for pilots no node owns"),
            key("scheduler.database", TEXT, "KOALA_HOME/scheduler/koala", false,
                    "the H2 file, or jdbc:postgresql://HOST:PORT/DATABASE"),
            key("scheduler.database.user", TEXT, "koala", false, "the PostgreSQL login"),
            key("scheduler.addresses", LIST, "this scheduler's alone", false,
                    "every scheduler's nodes' address, for nodes to follow the leader"),
            key("scheduler.database.passwordFile", PATH, "— (required for PostgreSQL)", false,
                    "its password's file (mode 600)"),
            key("scheduler.accounting", PATH, "KOALA_HOME/accounting.jsonl", false, "the accounting file"),
            key("scheduler.runnerRestarts", WHOLE, "3", false, "starts of a dead framework runner tried"),
            key("scheduler.runnerHung", SECONDS, "30", false, "seconds a silent framework runner is given"),
            key("scheduler.metrics.tokenFile", PATH, "KOALA_HOME/metrics.token", true, "the metrics scrape token"),
            key("scheduler.logLevel", LOG_LEVEL, "KOALA_LOG_LEVEL, else info", true, "level of KOALA's loggers"),
            key("scheduler.logLevel.L", LOG_LEVEL, "its parent logger's", true, "level of logger L"),
            key("scheduler.arbitration.policy", CHECKED_WHERE_READ, "fcfs", true, "how instances share a full grid"),
            key("scheduler.arbitration.maxTakeBack", CHECKED_WHERE_READ, "10", true,
                    "percent of shared worker nodes taken back per round"),
            key("scheduler.arbitration.grace", CHECKED_WHERE_READ, "15", true, "seconds to give workers back"),
            key("scheduler.arbitration.window", CHECKED_WHERE_READ, "300", true, "seconds a moved node stays"),
            key("scheduler.arbitration.round", CHECKED_WHERE_READ, "15", true, "seconds between sharing rounds"),
            key("scheduler.arbitration.patience", CHECKED_WHERE_READ, "0", true,
                    "seconds an instance below its share waits"),
            key("scheduler.arbitration.maxPerHour", CHECKED_WHERE_READ, "0", true,
                    "nodes taken back from one instance in an hour"),
            key("scheduler.arbitration.margin", CHECKED_WHERE_READ, "25", true,
                    "percent a figure must be worse by (performance)"),
            key("scheduler.arbitration.queuedDemand", CHECKED_WHERE_READ, "false", true,
                    "whether queued work counts as demand"),
            key("site.S.provisioning.provisioning", CHECKED_WHERE_READ, "ondemand", true,
                    "provisioning policy of the site's instances"),
            key("site.S.provisioning.fMax", CHECKED_WHERE_READ, "20", true, "most workers of an instance"),
            key("site.S.provisioning.tIdle", CHECKED_WHERE_READ, "tIdleFactor × O_grow", true,
                    "seconds a worker is idle before it is released"),
            key("site.S.provisioning.tIdleFactor", CHECKED_WHERE_READ, "6; 2 for proactive, 60 for pool", true,
                    "t_idle as a multiple of O_grow"),
            key("site.S.provisioning.uMin", CHECKED_WHERE_READ, "40", true, "percent CPU below which proactive shrinks"),
            key("site.S.provisioning.uMax", CHECKED_WHERE_READ, "50", true, "percent CPU above which proactive grows"),
            key("site.S.provisioning.samplePeriod", CHECKED_WHERE_READ, "40", true, "seconds between CPU samples"),
            key("site.S.provisioning.orchestratorThreshold", CHECKED_WHERE_READ, "45", true,
                    "orchestrators per orchestrator node"),
            key("site.S.provisioning.reserve", CHECKED_WHERE_READ, "50", true, "the reserve policy's reserve"),
            key("site.S.provisioning.pool", CHECKED_WHERE_READ, "8", true, "the pool policy's idle workers"),
            key("site.S.provisioning.weight", CHECKED_WHERE_READ, "1", true, "an instance's weight on a full grid"),
            key("site.S.provisioning.minShare", CHECKED_WHERE_READ, "0", true, "nodes never taken back"),
            key("files", LIST, "none", true, "input files for Close-to-Files"),
            key("file.F.size", SIZE, "0", true, "a file's size"),
            key("file.F.sites", LIST, "none", true, "the sites holding a copy of a file"),
            key("bandwidth.A.B", RATE, "bandwidth.default", true, "MB/s from site A to site B"),
            key("bandwidth.default", RATE, "100", true, "MB/s between sites with no entry"));

    private static ConfigKey key(String pattern, ValueType type, String defaultValue, boolean live, String meaning) {
        return new ConfigKey(pattern, type, defaultValue, live, meaning);
    }

    /** Every known key, in the order of the admin guide. */
    public static List<ConfigKey> all() {
        return ALL;
    }

    /** Matching keys for a grid whose {@code grid.sites} lists {@code sites}. */
    public static KeyMatcher forSites(Collection<String> sites) {
        return new KeyMatcher(List.copyOf(sites));
    }

    /**
     * What a key is in the catalogue.
     *
     * @param key      the catalogue's entry
     * @param unlisted the sites the key names that {@code grid.sites} does not list
     */
    public record Match(ConfigKey key, List<String> unlisted) {
    }

    /** Keys matched against the catalogue, for one list of sites. */
    public static final class KeyMatcher {
        private static final Set<String> SITE_HOLES = Set.of("S", "A", "B");
        private static final Set<String> ANY_HOLES = Set.of("F", "L", "K", "G", "H");
        private final List<String> sites;

        private KeyMatcher(List<String> sites) {
            this.sites = sites;
        }

        /**
         * The catalogue's entry for {@code key}, and the sites it names that are not listed; empty when
         * unknown. Plain string comparisons, segment by segment, with the listed sites tried first: it
         * runs for every key of every command's configuration, where a few milliseconds count.
         */
        public Optional<Match> match(String key) {
            List<String> named = new ArrayList<>();
            for (int k = 0; k < ALL.size(); k++) {
                if (matches(SEGMENTS.get(k), 0, key, 0, sites, named)) {
                    return Optional.of(new Match(ALL.get(k), List.of()));
                }
            }
            for (int k = 0; k < ALL.size(); k++) {
                named.clear();
                if (matches(SEGMENTS.get(k), 0, key, 0, null, named)) {
                    List<String> unlisted = new ArrayList<>();
                    for (String name : named) {
                        if (!sites.contains(name) && !unlisted.contains(name)) {
                            unlisted.add(name);
                        }
                    }
                    return Optional.of(new Match(ALL.get(k), List.copyOf(unlisted)));
                }
            }
            return Optional.empty();
        }

        /**
         * Whether {@code key} from {@code at} on fits {@code pattern} from segment {@code i} on; the sites it
         * names go to {@code named}. A site hole takes a listed site ({@code sites}), or with {@code sites}
         * null any one segment; a file or logger hole takes one or more segments.
         */
        private static boolean matches(List<String> pattern, int i, String key, int at, List<String> sites,
                                       List<String> named) {
            if (i == pattern.size()) {
                return at == key.length();
            }
            if (i > 0) {
                if (at >= key.length() || key.charAt(at) != '.') {
                    return false;
                }
                at++;
            }
            String segment = pattern.get(i);
            if (SITE_HOLES.contains(segment)) {
                for (String site : sites != null ? sites : oneSegment(key, at)) {
                    if (!site.isEmpty() && key.startsWith(site, at)) {
                        named.add(site);
                        if (matches(pattern, i + 1, key, at + site.length(), sites, named)) {
                            return true;
                        }
                        named.remove(named.size() - 1);
                    }
                }
                return false;
            }
            if (ANY_HOLES.contains(segment)) {
                for (int end = at + 1; end <= key.length(); end++) {
                    if (matches(pattern, i + 1, key, end, sites, named)) {
                        return true;
                    }
                }
                return false;
            }
            return key.startsWith(segment, at) && matches(pattern, i + 1, key, at + segment.length(), sites, named);
        }

        private static List<String> oneSegment(String key, int at) {
            int dot = key.indexOf('.', at);
            return List.of(dot < 0 ? key.substring(at) : key.substring(at, dot));
        }

        /** The known key nearest to {@code unknown}, if one is near enough to be what was meant. */
        public Optional<String> nearest(String unknown) {
            String best = null;
            int bestDistance = Integer.MAX_VALUE;
            for (ConfigKey k : ALL) {
                for (String candidate : filledIn(k.pattern(), unknown)) {
                    int d = distance(unknown.toLowerCase(Locale.ROOT), candidate.toLowerCase(Locale.ROOT));
                    if (d < bestDistance) {
                        best = candidate;
                        bestDistance = d;
                    }
                }
            }
            int allowed = Math.max(1, Math.min(3, unknown.length() / 6));
            return bestDistance <= allowed ? Optional.of(best) : Optional.empty();
        }

        /** {@code pattern} with its holes filled in from the listed sites and {@code key}'s own segments. */
        private List<String> filledIn(String pattern, String key) {
            List<String> pat = segments(pattern);
            List<String> own = segments(key);
            List<String> out = List.of("");
            for (int i = 0; i < pat.size(); i++) {
                String s = pat.get(i);
                List<String> choices;
                if (SITE_HOLES.contains(s)) {
                    choices = new ArrayList<>(sites);
                    if (i < own.size() && !choices.contains(own.get(i))) {
                        choices.add(own.get(i));
                    }
                } else if (ANY_HOLES.contains(s)) {
                    int after = pat.size() - i - 1;
                    choices = List.of(own.size() - after > i ? String.join(".", own.subList(i, own.size() - after)) : s);
                } else {
                    choices = List.of(s);
                }
                List<String> next = new ArrayList<>();
                for (String prefix : out) {
                    for (String c : choices) {
                        next.add(prefix.isEmpty() ? c : prefix + "." + c);
                    }
                }
                out = next;
            }
            return out;
        }
    }

    private static List<String> segments(String key) {
        return List.of(key.split("\\.", -1));
    }

    /** Each key's pattern in segments, in the order of {@link #ALL}. */
    private static final List<List<String>> SEGMENTS = new ArrayList<>();

    static {
        for (ConfigKey k : ALL) {
            SEGMENTS.add(segments(k.pattern()));
        }
    }

    /** Levenshtein distance: the fewest insertions, deletions and substitutions that turn one into the other. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length()];
    }
}
