package koala.grid;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.configuration2.Configuration;
import org.apache.commons.configuration2.PropertiesConfiguration;
import org.apache.commons.configuration2.ex.ConfigurationException;
import org.apache.commons.configuration2.io.FileHandler;

/**
 * The grid configuration file (a properties file read with Commons Configuration, or, when it uses
 * nothing only Commons reads, plainly: {@link #readPlain}): the sites and how to reach them. Keys per site are {@code site.NAME.*}; see {@code docs/admin-guide.md},
 * "Configuration reference".
 */
public final class GridConfig {
    public static final Path DEFAULT_SGE_ROOT = Path.of("/var/lib/gridengine");

    private final Path file;
    private final Map<String, SiteConfig> sites;
    private final Reader reader;

    private GridConfig(Path file, Map<String, SiteConfig> sites, Reader reader) {
        this.file = file;
        this.sites = sites;
        this.reader = reader;
    }

    /**
     * Reads {@code file}. A file that includes others ({@code include = other.properties}) is read
     * through Commons Configuration's {@code FileHandler}, which resolves them against the file's
     * directory; any other is read straight, in ISO-8859-1 as properties files are: the handler's
     * location strategies start Commons Logging, whose search of every jar on the class path is
     * a fifth of a command-line call.
     */
    public static GridConfig load(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new ConfigException(file + ": no grid configuration here (bin/koala testbed up writes one, "
                    + "or pass --config FILE)");
        }
        Optional<Map<String, String>> plain = readPlain(file);
        if (plain.isEmpty()) {
            Configuration config = read(file);
            GridConfig grid = from(file, config);
            Warnings.about(file, config, grid.reader.list("grid.sites"));
            return grid;
        }
        GridConfig grid = from(file, new PlainKeys(plain.get()));
        if (ConfigCheck.hasKeyProblems(grid.reader.keys(), key -> false, grid.reader.list("grid.sites"))) {
            Warnings.about(file, read(file), grid.reader.list("grid.sites"));
        }
        return grid;
    }

    /**
     * {@code file}'s keys and values in file order, read without Commons Configuration, when the file
     * is plain: no backslash (escapes, continued lines), no {@code ${...}} (interpolation), no
     * {@code include}, no key given twice. Such a file reads the same through {@link
     * java.util.Properties} as through Commons Configuration (the values are trimmed where they are
     * used), and a user command starts about 50 ms sooner: a fresh JVM spends 15-35 ms making a
     * {@code PropertiesConfiguration} (its interpolator's lookups) and as long reading 90 lines with
     * it (Commons Text's escape tables). Empty for any other file, which {@link #read} reads.
     */
    static Optional<Map<String, String>> readPlain(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return Optional.empty(); // read said as it always is
        }
        // the word as Commons Configuration has it (PropertiesConfiguration.getInclude()), without loading that class
        if (text.indexOf('\\') >= 0 || text.contains("${") || text.toLowerCase(Locale.ROOT).contains("include")) {
            return Optional.empty();
        }
        Map<String, String> values = new LinkedHashMap<>();
        boolean[] twice = {false};
        java.util.Properties properties = new java.util.Properties() {
            @Override
            public synchronized Object put(Object key, Object value) {
                twice[0] |= values.put((String) key, (String) value) != null;
                return super.put(key, value);
            }
        };
        try {
            properties.load(new StringReader(text));
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
        return twice[0] ? Optional.empty() : Optional.of(values);
    }

    /** The properties of {@code file}, includes resolved, as {@link #load} reads them. */
    static Configuration read(Path file) {
        try {
            PropertiesConfiguration config = new PropertiesConfiguration();
            String text = Files.readString(file, StandardCharsets.ISO_8859_1);
            if (text.toLowerCase(Locale.ROOT).contains(PropertiesConfiguration.getInclude())) {
                new FileHandler(config).load(file.toFile());
            } else {
                config.read(new StringReader(text));
            }
            return config;
        } catch (ConfigurationException | IOException e) {
            throw new ConfigException(file + ": unreadable: " + e.getMessage(), e);
        }
    }

    static GridConfig from(Path file, Configuration config) {
        return from(file, new CommonsKeys(config));
    }

    private static GridConfig from(Path file, Keys keys) {
        Reader reader = new Reader(file, keys);
        Map<String, SiteConfig> sites = new LinkedHashMap<>();
        for (String name : reader.list("grid.sites")) {
            sites.put(name, reader.site(name));
        }
        if (sites.isEmpty()) {
            throw new ConfigException(file, "grid.sites", "grid.sites: no sites listed");
        }
        return new GridConfig(file, sites, reader);
    }

    /**
     * {@code config} as {@link #from} reads it, but each site that cannot be read is left out and told
     * to {@code problems} instead of ending the read: what a check's later rules look at.
     */
    static GridConfig forCheck(Path file, Configuration config, java.util.function.Consumer<ConfigException> problems) {
        Reader reader = new Reader(file, new CommonsKeys(config));
        Map<String, SiteConfig> sites = new LinkedHashMap<>();
        for (String name : reader.list("grid.sites")) {
            try {
                sites.put(name, reader.site(name));
            } catch (ConfigException e) {
                problems.accept(e);
            }
        }
        return new GridConfig(file, sites, reader);
    }

    /**
     * The KOALA host's name or address as the grid's hosts reach it ({@code grid.host}): daemons
     * that hosts call back (the scheduler's node endpoint, runners) listen there and hand it out.
     * Empty for a grid on one machine, where loopback serves.
     */
    public Optional<String> host() {
        return value("grid.host");
    }

    /**
     * {@link #host()} looked up once, as the literal address daemons hand out in their call-back
     * URLs ({@code 198.18.0.1}, {@code [fd00::1]}): a pilot then resolves nothing before its first
     * call, which costs a fresh JVM about 10 ms of every grow.
     *
     * @throws java.net.UnknownHostException when the name does not resolve on this host
     */
    public Optional<String> hostAddress() throws java.net.UnknownHostException {
        if (host().isEmpty()) {
            return Optional.empty();
        }
        java.net.InetAddress address = java.net.InetAddress.getByName(host().get());
        String literal = address.getHostAddress();
        return Optional.of(address instanceof java.net.Inet6Address ? "[" + literal + "]" : literal);
    }

    /**
     * Where the scheduler serves this host's users ({@code scheduler.socket}, default
     * {@code /run/koala/scheduler.sock}): a Unix domain socket any local user may connect to, the
     * kernel telling the scheduler who they are.
     */
    public Path schedulerSocket() {
        return Path.of(value("scheduler.socket").orElse("/run/koala/scheduler.sock"));
    }

    /** The scheduler's address for users and KOALA's programs on this host: {@code unix:} and its socket. */
    public java.net.URI schedulerAddress() {
        return java.net.URI.create("unix:" + schedulerSocket().toAbsolutePath());
    }

    /** A setting outside the sites (e.g. {@code scheduler.port}), if given. */
    public Optional<String> value(String key) {
        return reader.string(key).filter(s -> !s.isEmpty());
    }

    /**
     * Every key with its value as read, trimmed (a key given twice: its first value), sorted by key:
     * what a reload compares.
     */
    public Map<String, String> values() {
        Map<String, String> values = new java.util.TreeMap<>();
        reader.keys().forEach(key -> values.put(key, reader.source.get(key).orElse("").trim()));
        return values;
    }

    /**
     * This configuration less {@code keys}, whose defaults then hold: how a check reads on past a
     * value it has already refused, to find the next problem. Its sites are this one's.
     */
    public GridConfig without(java.util.Collection<String> keys) {
        return new GridConfig(file, sites, new Reader(file, reader.source.without(keys)));
    }

    /**
     * Every key under {@code prefix.}, with the prefix removed: e.g. {@code section("site.fs0.provisioning")}
     * gives a site's provisioning defaults ({@code fMax}, {@code uMin}, ...).
     */
    public Map<String, String> section(String prefix) {
        Map<String, String> values = new java.util.TreeMap<>();
        reader.keys().forEach(key -> {
            if (key.startsWith(prefix + ".")) {
                values.put(key.substring(prefix.length() + 1), reader.source.get(key).orElse("").trim());
            }
        });
        return values;
    }

    /** A whole-number setting; a malformed one is an error naming the file and the key. */
    public int integer(String key, int fallback) {
        return reader.integer(key, fallback);
    }

    /** A duration in seconds (fractions allowed), e.g. {@code scheduler.claimTimeout = 60}. */
    public java.time.Duration seconds(String key, java.time.Duration fallback) {
        Optional<String> raw = value(key);
        try {
            return raw.map(s -> java.time.Duration.ofMillis(Math.round(Double.parseDouble(s) * 1000))).orElse(fallback);
        } catch (NumberFormatException e) {
            throw new ConfigException(file, key, key + " = '" + raw.get() + "': not a number of seconds");
        }
    }

    public Path file() {
        return file;
    }

    public List<SiteConfig> sites() {
        return List.copyOf(sites.values());
    }

    /**
     * Each site's expected number of nodes ({@code site.S.node.count}), in the order of
     * {@code grid.sites}: what a job description is checked against, as in
     * {@code new ClusterCatalog(grid.nodeCounts())}.
     */
    public Map<String, Integer> nodeCounts() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        sites.forEach((name, site) -> counts.put(name, site.nodes()));
        return Collections.unmodifiableMap(counts);
    }

    /**
     * The node groups the admin declares for {@code site} ({@code site.S.groups.K.G = hosts}): kind, then
     * group, then its hosts, sorted by name. A malformed host list is an error naming the file and the key.
     */
    public Map<String, Map<String, HostList>> nodeGroups(String site) {
        Map<String, Map<String, HostList>> groups = new java.util.TreeMap<>();
        section("site." + site + ".groups").forEach((rest, value) -> {
            int dot = rest.indexOf('.');
            if (dot > 0 && dot < rest.length() - 1) {
                try {
                    groups.computeIfAbsent(rest.substring(0, dot), k -> new java.util.TreeMap<>())
                            .put(rest.substring(dot + 1), HostList.parse(value));
                } catch (IllegalArgumentException e) {
                    String key = "site." + site + ".groups." + rest;
                    throw new ConfigException(file, key, key + " = '" + value + "': " + e.getMessage());
                }
            }
        });
        return groups;
    }

    /**
     * The GPU device indices the admin declares per host of {@code site} ({@code site.S.gpuDevices.HOST =
     * 1,2,3}), by host, sorted by name; a host not named has devices 0..N-1 for SGE's {@code gpu=N}. A
     * malformed list ({@code a,b}, a negative index, one named twice) is an error naming the file and the key.
     */
    public Map<String, List<Integer>> gpuDevices(String site) {
        Map<String, List<Integer>> devices = new java.util.TreeMap<>();
        section("site." + site + ".gpuDevices").forEach((host, value) -> {
            try {
                devices.put(host, GpuDevices.parse(value));
            } catch (IllegalArgumentException e) {
                String key = "site." + site + ".gpuDevices." + host;
                throw new ConfigException(file, key, key + " = '" + value + "': " + e.getMessage());
            }
        });
        return devices;
    }

    /** The kinds of node group declared on any site (rack, upgrade-domain...), which a JDF's constraints may name. */
    public java.util.Set<String> groupKinds() {
        java.util.Set<String> kinds = new java.util.TreeSet<>();
        sites.keySet().forEach(s -> kinds.addAll(nodeGroups(s).keySet()));
        return kinds;
    }

    /** Each site's network, by site, in the configuration's order. */
    public Map<String, String> networks() {
        Map<String, String> networks = new LinkedHashMap<>();
        sites.forEach((name, site) -> networks.put(name, site.network()));
        return networks;
    }

    public SiteConfig site(String name) {
        SiteConfig site = sites.get(name);
        if (site == null) {
            throw new ConfigException(file + ": no site '" + name + "' (sites: " + String.join(", ", sites.keySet()) + ")");
        }
        return site;
    }

    /**
     * Keys that are read by nobody — unknown ones (with the nearest known key), those of a site not in
     * {@code grid.sites}, one given twice — logged as warnings, each once in a process's life (a runner
     * reads the file again whenever it changes). Log4j starts only when there is one to log: most
     * command-line calls never pay for it.
     */
    private static final class Warnings {
        private static final java.util.Set<String> SAID = java.util.concurrent.ConcurrentHashMap.newKeySet();

        static void about(Path file, Configuration config, List<String> sites) {
            if (!ConfigCheck.hasKeyProblems(config, sites)) {
                return;
            }
            for (ConfigProblem p : ConfigCheck.keyProblems(file, config, sites, KeyLines.of(file))) {
                if (SAID.add(p.toString())) {
                    org.apache.logging.log4j.LogManager.getLogger(GridConfig.class).warn("{} ('koala config check "
                            + "{}' lists every problem of the file)", p, file);
                }
            }
        }
    }

    /** The file's keys and their values as read: through Commons Configuration, or plainly ({@link #readPlain}). */
    private interface Keys {
        /** The key's value (its first, if given twice), interpolated. */
        Optional<String> get(String key);

        /** Every key, in file order. */
        List<String> keys();

        /** These keys and values less {@code keys}. */
        Keys without(java.util.Collection<String> keys);
    }

    private record CommonsKeys(Configuration config) implements Keys {
        @Override
        public Optional<String> get(String key) {
            return Optional.ofNullable(config.getString(key, null));
        }

        @Override
        public List<String> keys() {
            List<String> keys = new ArrayList<>();
            config.getKeys().forEachRemaining(keys::add);
            return keys;
        }

        @Override
        public Keys without(java.util.Collection<String> keys) {
            org.apache.commons.configuration2.BaseConfiguration less = new org.apache.commons.configuration2.BaseConfiguration();
            config.getKeys().forEachRemaining(key -> {
                if (!keys.contains(key)) {
                    less.addProperty(key, config.getProperty(key));
                }
            });
            return new CommonsKeys(less);
        }
    }

    private record PlainKeys(Map<String, String> values) implements Keys {
        @Override
        public Optional<String> get(String key) {
            return Optional.ofNullable(values.get(key));
        }

        @Override
        public List<String> keys() {
            return List.copyOf(values.keySet());
        }

        @Override
        public Keys without(java.util.Collection<String> keys) {
            Map<String, String> less = new LinkedHashMap<>(values);
            less.keySet().removeAll(keys);
            return new PlainKeys(less);
        }
    }

    /** Typed reads that name the file and key in every error. */
    private record Reader(Path file, Keys source) {
        List<String> keys() {
            return source.keys();
        }

        List<String> list(String key) {
            String raw = source.get(key).orElse("");
            List<String> items = new ArrayList<>();
            Arrays.stream(raw.split(",")).map(String::trim).filter(s -> !s.isEmpty()).forEach(items::add);
            return items;
        }

        SiteConfig site(String name) {
            String p = "site." + name + ".";
            String manager = string(p + "manager").filter(m -> !m.isEmpty()).orElse(SiteConfig.SGE);
            if (!manager.equals(SiteConfig.SGE) && !manager.equals(SiteConfig.SLURM)) {
                throw new ConfigException(file, p + "manager", p + "manager = '" + manager + "': sge or slurm");
            }
            Optional<SlurmEnvironment> slurm = manager.equals(SiteConfig.SLURM)
                    ? Optional.of(new SlurmEnvironment(path(p + "slurm.conf", SlurmEnvironment.DEFAULT_CONF),
                    path(p + "slurm.bin", SlurmEnvironment.DEFAULT_BIN))) : Optional.empty();
            CellEnvironment cell = new CellEnvironment(
                    path(p + "sge.root", DEFAULT_SGE_ROOT),
                    string(p + "sge.cell").or(() -> slurm.map(s -> name)).orElseThrow(() -> missing(p + "sge.cell")),
                    port(p + "sge.qmasterPort", 6444),
                    port(p + "sge.execdPort", 6445),
                    path(p + "sge.bin", Path.of("/usr/bin")));
            DrmaaInstall debian = DrmaaInstall.debian();
            DrmaaInstall drmaa = new DrmaaInstall(path(p + "drmaa.jar", debian.jar()),
                    path(p + "drmaa.library", debian.library()),
                    string(p + "drmaa.preload").map(Path::of).or(debian::preload).filter(x -> !x.toString().isBlank()));
            Optional<SshConfig> ssh = string(p + "ssh.host").filter(h -> !h.isEmpty()).map(host -> ssh(p, host));
            String agentUser = ssh.map(SshConfig::user).orElseGet(() -> string(p + "agent.user").orElse("koala"));
            return new SiteConfig(name, cell, agentUser, port(p + "agent.port", 0),
                    string(p + "node.nativeSpec").orElse(""), positive(p + "node.count", 1), drmaa, ssh,
                    Optional.ofNullable(path(p + "shared", null)), positive(p + "node.cores", 1),
                    positive(p + "node.slots", 1), slurm);
        }

        /** A remote site's head node; the agent runs as the account KOALA logs in as. */
        private SshConfig ssh(String p, String host) {
            Path home = Path.of(System.getProperty("user.home"));
            Path key = path(p + "ssh.key", null);
            if (key == null) {
                throw missing(p + "ssh.key");
            }
            String check = string(p + "ssh.hostKeyCheck").filter(s -> !s.isEmpty()).orElse("yes");
            if (!check.equals("yes") && !check.equals("no")) {
                throw new ConfigException(file, p + "ssh.hostKeyCheck", p + "ssh.hostKeyCheck = '" + check + "': yes or no");
            }
            int idleExit = positive(p + "ssh.agentIdleExit", 600);
            int retryMax = positive(p + "ssh.retryMax", (int) SshConfig.RETRY_MAX.toSeconds());
            return new SshConfig(host, port(p + "ssh.port", 22),
                    string(p + "ssh.user").filter(s -> !s.isEmpty()).orElseGet(() -> string(p + "agent.user").orElse("koala")),
                    key, path(p + "ssh.knownHosts", home.resolve(".ssh").resolve("known_hosts")), check.equals("yes"),
                    string(p + "ssh.dir").filter(s -> !s.isEmpty()).orElse(".koala"),
                    string(p + "ssh.java").filter(s -> !s.isEmpty()).orElse("java"), java.time.Duration.ofSeconds(idleExit),
                    string(p + "ssh.relayHost").filter(s -> !s.isEmpty()), java.time.Duration.ofSeconds(retryMax));
        }

        Optional<String> string(String key) {
            return source.get(key).map(String::trim);
        }

        Path path(String key, Path fallback) {
            return string(key).filter(s -> !s.isEmpty()).map(Path::of).orElse(fallback);
        }

        int port(String key, int fallback) {
            int port = integer(key, fallback);
            if (port < 0 || port > 65535) {
                throw new ConfigException(file, key, key + " = " + port + ": a port is 0..65535");
            }
            return port;
        }

        int positive(String key, int fallback) {
            int value = integer(key, fallback);
            if (value < 1) {
                throw new ConfigException(file, key, key + " = " + value + ": must be at least 1");
            }
            return value;
        }

        int integer(String key, int fallback) {
            Optional<String> raw = string(key);
            try {
                return raw.map(Integer::parseInt).orElse(fallback);
            } catch (NumberFormatException e) {
                throw new ConfigException(file, key, key + " = '" + raw.get() + "': not a whole number");
            }
        }

        ConfigException missing(String key) {
            return new ConfigException(file, key, key + ": missing");
        }
    }
}
