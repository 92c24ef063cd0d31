package koala.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GridConfigTest {
    @TempDir
    Path dir;

    private Path write(String content) throws Exception {
        Path file = dir.resolve("grid.properties");
        Files.writeString(file, content);
        return file;
    }

    /** A plain file is read without Commons Configuration, to the very keys and values Commons reads. */
    @Test
    void aPlainFileReadsAsCommonsConfigurationReadsIt() throws Exception {
        Path file = write("""
                # a comment
                ! another
                grid.sites = fs0, fs1
                grid.host=koala-host
                site.fs0.sge.cell:fs0
                site.fs0.node.nativeSpec =
                site.fs0.node.nativeSpec2 = -l exclusive=true,h_rt=900 : x
                   site.fs1.sge.cell    fs1
                site.fs1.node.count = 8\t
                site.fs1.shared = /srv/a b/#not a comment
                """);

        java.util.Map<String, String> plain = GridConfig.readPlain(file).orElseThrow();
        org.apache.commons.configuration2.Configuration commons = GridConfig.read(file);

        java.util.List<String> keys = new java.util.ArrayList<>();
        commons.getKeys().forEachRemaining(keys::add);
        assertThat(plain.keySet()).containsExactlyElementsOf(keys);
        keys.forEach(k -> assertThat(plain.get(k).trim()).as(k).isEqualTo(commons.getString(k).trim()));
        assertThat(GridConfig.load(file).values()).isEqualTo(GridConfig.from(file, commons).values());
    }

    /** What the two read differently, or only Commons reads, goes to Commons Configuration. */
    @Test
    void escapesInterpolationIncludesAndKeysGivenTwiceAreLeftToCommonsConfiguration() throws Exception {
        for (String text : java.util.List.of("grid.sites = fs0\nsite.fs0.sge.cell = f\\u0073\n",
                "grid.sites = fs0\nsite.fs0.sge.root = /x \\\n  /y\n", "grid.sites = ${env:SITES}\n",
                "include = other.properties\ngrid.sites = fs0\n", "grid.sites = fs0\ngrid.sites = fs1\n")) {
            assertThat(GridConfig.readPlain(write(text))).as(text).isEmpty();
        }
    }

    @Test
    void aRemoteStyleSiteWithItsOwnSgeInstallationAndANativeSpecWithCommas() throws Exception {
        GridConfig grid = GridConfig.load(write("""
                grid.sites = das4-vu , das4-uva
                site.das4-vu.sge.root = /cm/shared/apps/sge/6.2u5
                site.das4-vu.sge.cell = default
                site.das4-vu.sge.bin = /cm/shared/apps/sge/6.2u5/bin/lx26-amd64
                site.das4-vu.node.nativeSpec = -l exclusive=true,h_rt=900
                site.das4-vu.node.count = 74
                site.das4-vu.drmaa.preload =
                site.das4-uva.sge.cell = uva
                """));

        SiteConfig vu = grid.site("das4-vu");
        assertThat(vu.cell()).isEqualTo(new CellEnvironment(Path.of("/cm/shared/apps/sge/6.2u5"), "default", 6444, 6445,
                Path.of("/cm/shared/apps/sge/6.2u5/bin/lx26-amd64")));
        assertThat(vu.nodeNativeSpec()).isEqualTo("-l exclusive=true,h_rt=900");
        assertThat(vu.nodes()).isEqualTo(74);
        assertThat(vu.drmaa().preload()).isEmpty();
        assertThat(vu.agentPort()).isZero();
        assertThat(grid.site("das4-uva").drmaa()).isEqualTo(DrmaaInstall.debian());
    }

    @Test
    void errorsNameTheFileAndTheKey() throws Exception {
        Path file = write("grid.sites = fs0\nsite.fs0.sge.cell = fs0\nsite.fs0.sge.qmasterPort = 70000\n");
        assertThatThrownBy(() -> GridConfig.load(file))
                .hasMessage(file + ": site.fs0.sge.qmasterPort = 70000: a port is 0..65535");

        Path noCell = write("grid.sites = fs0\n");
        assertThatThrownBy(() -> GridConfig.load(noCell)).hasMessage(noCell + ": site.fs0.sge.cell: missing");

        Path notNumber = write("grid.sites = fs0\nsite.fs0.sge.cell = fs0\nsite.fs0.node.count = many\n");
        assertThatThrownBy(() -> GridConfig.load(notNumber))
                .hasMessage(notNumber + ": site.fs0.node.count = 'many': not a whole number");

        Path empty = write("# nothing\n");
        assertThatThrownBy(() -> GridConfig.load(empty)).hasMessage(empty + ": grid.sites: no sites listed");

        assertThatThrownBy(() -> GridConfig.load(dir.resolve("absent.properties")))
                .hasMessageContaining("no grid configuration here");
    }

    @Test
    void anIncludedFileIsFoundBesideTheFileThatIncludesItAndLatin1IsRead() throws Exception {
        Files.writeString(dir.resolve("sites.properties"), "site.fs0.sge.cell = fs0\nsite.fs0.node.count = 16\n");
        GridConfig grid = GridConfig.load(write("grid.sites = fs0\ninclude = sites.properties\n"));
        assertThat(grid.nodeCounts()).containsExactly(entry("fs0", 16));

        Path latin1 = dir.resolve("latin1.properties");
        Files.write(latin1, "grid.sites = fs0\nsite.fs0.sge.cell = fs0\ngrid.host = k\u00f6ala\n"
                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        assertThat(GridConfig.load(latin1).host()).contains("k\u00f6ala");
    }

    @Test
    void anUnknownSiteListsTheKnownOnes() throws Exception {
        GridConfig grid = GridConfig.load(write("grid.sites = fs0, fs1\nsite.fs0.sge.cell = a\nsite.fs1.sge.cell = b\n"));
        assertThatThrownBy(() -> grid.site("fs9")).hasMessageEndingWith("no site 'fs9' (sites: fs0, fs1)");
    }

    @Test
    void nodeCountsInTheOrderOfGridSitesWithTheDefaultOfOne() throws Exception {
        GridConfig grid = GridConfig.load(write("""
                grid.sites = fs2, fs0, fs1
                site.fs0.sge.cell = fs0
                site.fs0.node.count = 16
                site.fs1.sge.cell = fs1
                site.fs2.sge.cell = fs2
                site.fs2.node.count = 8
                """));
        assertThat(grid.nodeCounts()).containsExactly(entry("fs2", 8), entry("fs0", 16), entry("fs1", 1));
    }

    @Test
    void aRemoteSiteIsReachedOverSshAndItsAgentRunsAsTheLoginAccount() throws Exception {
        GridConfig grid = GridConfig.load(write("""
                grid.sites = local, das4
                site.local.sge.cell = fs0
                site.das4.sge.root = /cm/shared/apps/sge
                site.das4.sge.cell = default
                site.das4.node.nativeSpec = -l exclusive=true,h_rt=900
                site.das4.agent.user = ignored-for-remote
                site.das4.ssh.host = fs0.das4.cs.vu.nl
                site.das4.ssh.user = koala
                site.das4.ssh.key = /etc/koala/id_ed25519
                site.das4.ssh.knownHosts = /etc/koala/known_hosts
                """));

        assertThat(grid.site("local").ssh()).isEmpty();
        SiteConfig das4 = grid.site("das4");
        assertThat(das4.remote()).isTrue();
        // a remote site's nodes are on a network of their own, which a JDF is checked against
        assertThat(grid.networks()).containsExactlyInAnyOrderEntriesOf(
                java.util.Map.of("local", "grid", "das4", "das4"));
        assertThat(das4.agentUser()).isEqualTo("koala");
        assertThat(das4.ssh().orElseThrow()).isEqualTo(new SshConfig("fs0.das4.cs.vu.nl", 22, "koala",
                Path.of("/etc/koala/id_ed25519"), Path.of("/etc/koala/known_hosts"), true, ".koala", "java",
                java.time.Duration.ofMinutes(10), java.util.Optional.empty()));

        // the agent on the head node reads the same site, without the SSH keys
        Path agentView = write(das4.agentProperties());
        SiteConfig seenThere = GridConfig.load(agentView).site("das4");
        assertThat(seenThere.ssh()).isEmpty();
        assertThat(seenThere.cell()).isEqualTo(das4.cell());
        assertThat(seenThere.nodeNativeSpec()).isEqualTo("-l exclusive=true,h_rt=900");
        assertThat(seenThere.drmaa()).isEqualTo(das4.drmaa());
        assertThat(seenThere.agentUser()).isEqualTo("koala");
    }

    /** A Slurm site needs no SGE keys; its commands find the cluster by its slurm.conf, which the agent's own file keeps. */
    @Test
    void aSlurmSiteNamesItsSlurmConfAndNeedsNoSgeCell() throws Exception {
        Path file = write("grid.sites = fs0, fs3\nsite.fs0.sge.cell = fs0\nsite.fs3.manager = slurm\n"
                + "site.fs3.slurm.conf = /srv/koala-testbed/fs3/slurm/slurm.conf\nsite.fs3.node.cores = 2\n");
        GridConfig grid = GridConfig.load(file);
        assertThat(grid.site("fs0").manager()).isEqualTo("sge");
        assertThat(grid.site("fs0").slurm()).isEmpty();
        SiteConfig fs3 = grid.site("fs3");
        assertThat(fs3.manager()).isEqualTo("slurm");
        assertThat(fs3.slurm()).contains(new SlurmEnvironment(Path.of("/srv/koala-testbed/fs3/slurm/slurm.conf"),
                Path.of("/usr/bin")));
        assertThat(fs3.slurm().orElseThrow().variables())
                .containsExactly(java.util.Map.entry("SLURM_CONF", "/srv/koala-testbed/fs3/slurm/slurm.conf"));

        String own = fs3.agentProperties();
        assertThat(own).contains("site.fs3.manager = slurm\n", "site.fs3.slurm.bin = /usr/bin\n")
                .doesNotContain("sge.", "drmaa.");
        SiteConfig seenByItsAgent = GridConfig.load(write(own)).site("fs3");
        assertThat(seenByItsAgent.slurm()).isEqualTo(fs3.slurm());
        assertThat(seenByItsAgent.nodeCores()).isEqualTo(2);
    }

    @Test
    void aManagerOtherThanSgeOrSlurmIsRefusedWithItsKey() throws Exception {
        Path file = write("grid.sites = x\nsite.x.manager = pbs\n");
        assertThatThrownBy(() -> GridConfig.load(file)).hasMessage(file + ": site.x.manager = 'pbs': sge or slurm");
    }

    @Test
    void aRemoteSiteNeedsAKeyAndAYesOrNoHostKeyCheck() throws Exception {
        Path noKey = write("grid.sites = r\nsite.r.sge.cell = c\nsite.r.ssh.host = head\n");
        assertThatThrownBy(() -> GridConfig.load(noKey)).hasMessage(noKey + ": site.r.ssh.key: missing");

        Path badCheck = write("grid.sites = r\nsite.r.sge.cell = c\nsite.r.ssh.host = head\nsite.r.ssh.key = /k\n"
                + "site.r.ssh.hostKeyCheck = maybe\n");
        assertThatThrownBy(() -> GridConfig.load(badCheck))
                .hasMessage(badCheck + ": site.r.ssh.hostKeyCheck = 'maybe': yes or no");

        Path badPort = write("grid.sites = r\nsite.r.sge.cell = c\nsite.r.ssh.host = head\nsite.r.ssh.key = /k\n"
                + "site.r.ssh.port = 99999\n");
        assertThatThrownBy(() -> GridConfig.load(badPort))
                .hasMessage(badPort + ": site.r.ssh.port = 99999: a port is 0..65535");
    }

    @Test
    void aRemoteSitesRelayHostIsTheNameItsComputeNodesReachItBy() throws Exception {
        GridConfig grid = GridConfig.load(write("""
                grid.sites = fs2
                site.fs2.sge.cell = fs2
                site.fs2.ssh.host = 127.0.0.1
                site.fs2.ssh.key = /k
                site.fs2.ssh.relayHost = fs2-head
                """));

        assertThat(grid.site("fs2").ssh().orElseThrow().relayHost()).contains("fs2-head");
    }

    /** An unknown key is warned about, once per process, at its line with the nearest known key; the file loads. */
    @Test
    void anUnknownKeyIsAWarningLoggedOnceNeverAnError() throws Exception {
        Path file = write("grid.sites = fs0\nsite.fs0.sge.cell = fs0\nsite.fs0.node.cout = 16\n");
        java.util.List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
        org.apache.logging.log4j.core.Logger logger = (org.apache.logging.log4j.core.Logger)
                org.apache.logging.log4j.LogManager.getLogger(GridConfig.class);
        org.apache.logging.log4j.core.appender.AbstractAppender appender =
                new org.apache.logging.log4j.core.appender.AbstractAppender("warnings", null, null, true,
                        org.apache.logging.log4j.core.config.Property.EMPTY_ARRAY) {
                    @Override
                    public void append(org.apache.logging.log4j.core.LogEvent event) {
                        warnings.add(event.getLevel() + " " + event.getMessage().getFormattedMessage());
                    }
                };
        appender.start();
        logger.addAppender(appender);
        logger.setLevel(org.apache.logging.log4j.Level.WARN);
        try {
            GridConfig grid = GridConfig.load(file);
            GridConfig.load(file);

            assertThat(grid.site("fs0").nodes()).isEqualTo(1);
            assertThat(warnings).containsExactly("WARN " + file + ":3: site.fs0.node.cout: unknown key; did you mean "
                    + "site.fs0.node.count? ('koala config check " + file + "' lists every problem of the file)");
        } finally {
            logger.removeAppender(appender);
        }
    }

    @Test
    void theValuesAsWrittenAndTheFileLessSomeKeys() throws Exception {
        GridConfig grid = GridConfig.load(write("grid.sites = fs0\nsite.fs0.sge.cell = fs0\nscheduler.port = 7500 \n"
                + "scheduler.port = 7600\n"));

        assertThat(grid.values()).containsExactly(entry("grid.sites", "fs0"), entry("scheduler.port", "7500"),
                entry("site.fs0.sge.cell", "fs0"));
        assertThat(grid.without(java.util.Set.of("scheduler.port")).integer("scheduler.port", 7400)).isEqualTo(7400);
        assertThat(grid.integer("scheduler.port", 7400)).isEqualTo(7500);
    }
}
