package koala.testbed;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import koala.grid.GridConfig;
import koala.grid.SiteConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GridConfigFileTest {
    @Test
    void theConfigurationTheTestbedWritesIsTheOneTheSchedulerReads(@TempDir Path dir) throws Exception {
        TestbedPlan plan = TestbedPlan.of(null, List.of(16, 8, 8), 1, null);
        Path file = dir.resolve("grid.properties");
        Files.writeString(file, GridConfigFile.render(plan, "koala", c -> new RemoteHead(c, dir.resolve(c.name()), dir)));

        GridConfig grid = GridConfig.load(file);

        assertThat(grid.sites()).extracting(SiteConfig::name).containsExactly("fs0", "fs1", "fs2");
        assertThat(grid.host()).contains("koala-host");
        SiteConfig fs1 = grid.site("fs1");
        assertThat(fs1.cell().variables()).containsEntry("SGE_ROOT", "/var/lib/gridengine")
                .containsEntry("SGE_CELL", "fs1").containsEntry("SGE_QMASTER_PORT", "6462")
                .containsEntry("SGE_EXECD_PORT", "6463");
        assertThat(fs1.agentUser()).isEqualTo("koala");
        assertThat(fs1.nodes()).isEqualTo(8);
        assertThat(fs1.nodeNativeSpec()).isEmpty();
        assertThat(fs1.drmaa().preload()).contains(Path.of("/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"));
        assertThat(fs1.shared()).contains(Path.of("/srv/koala-testbed/fs1/shared"));
        assertThat(fs1.nodeCores()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(fs1.remote()).isFalse();
        SiteConfig fs2 = grid.site("fs2");
        assertThat(fs2.remote()).isTrue();
        assertThat(fs2.ssh().orElseThrow().host()).isEqualTo("fs2-head");
        assertThat(fs2.ssh().orElseThrow().key()).isEqualTo(dir.resolve("testbed/ssh/koala-fs2"));
        assertThat(fs2.ssh().orElseThrow().knownHosts()).isEqualTo(dir.resolve("testbed/ssh/known_hosts-fs2"));

        // every key it writes is a known one: no warnings at each command, nothing koala config check refuses
        Files.createDirectories(dir.resolve("testbed/ssh"));
        Files.createFile(dir.resolve("testbed/ssh/koala-fs2"));
        assertThat(koala.grid.ConfigCheck.check(file, List.of()).problems()).isEmpty();
    }

    /** With --store postgres the file names the testbed's PostgreSQL; by default it names no store (H2). */
    @Test
    void aPostgresStoreIsNamedInTheFileAndH2IsNot(@TempDir Path dir) throws Exception {
        TestbedPlan h2 = TestbedPlan.of(null, List.of(16, 8, 8), 1, null);
        String plain = GridConfigFile.render(h2, "koala", c -> new RemoteHead(c, dir.resolve(c.name()), dir));
        String postgres = GridConfigFile.render(h2.withStore("postgres"), "koala",
                c -> new RemoteHead(c, dir.resolve(c.name()), dir));

        assertThat(plain).doesNotContain("scheduler.database");
        assertThat(postgres).contains("\ngrid.host = koala-host\n"
                + "# the scheduler's store: the testbed's PostgreSQL on the KOALA host (testbed up --store postgres),\n"
                + "# which schedulers on any host of the grid share; the password file is root's alone\n"
                + "scheduler.database = jdbc:postgresql://198.18.0.1:5432/koala\n"
                + "scheduler.database.user = koala\n"
                + "scheduler.database.passwordFile = /etc/koala/database.password\n\n# fs0: ");
        // nothing else differs
        assertThat(postgres.lines().filter(l -> !plain.lines().toList().contains(l)).count()).isEqualTo(5);

        Path file = Files.writeString(dir.resolve("grid.properties"), postgres);
        GridConfig grid = GridConfig.load(file);
        assertThat(grid.value("scheduler.database")).contains("jdbc:postgresql://198.18.0.1:5432/koala");
        assertThat(grid.value("scheduler.database.user")).contains("koala");
        assertThat(grid.value("scheduler.database.passwordFile")).contains("/etc/koala/database.password");
    }

    /**
     * From PostgreSQL back to H2: the testbed's three store keys go, and with them their comment; the file is
     * the plain testbed's again, byte for byte. An admin's own H2 file (another value) stays, and a second
     * rewrite changes nothing more.
     */
    @Test
    void anUpWithoutPostgresTakesTheTestbedsStoreKeysOutAndKeepsAnAdminsOwnDatabase() {
        String h2 = GridConfigFile.HEADER + "\ngrid.sites = fs0\nsite.fs0.node.count = 8\n";
        String postgres = GridConfigFile.HEADER + "\ngrid.sites = fs0\n# the scheduler's store\n"
                + "scheduler.database = jdbc:postgresql://198.18.0.1:5432/koala\n"
                + "scheduler.database.user = koala\n"
                + "scheduler.database.passwordFile = /etc/koala/database.password\n"
                + "site.fs0.node.count = 8\n";

        GridConfigFile.Merged back = GridConfigFile.merge(postgres, h2);

        assertThat(back.text()).isEqualTo(h2);
        assertThat(back.notes()).containsExactly(
                "dropped scheduler.database (the testbed's, which this plan does not write)",
                "dropped scheduler.database.user (the testbed's, which this plan does not write)",
                "dropped scheduler.database.passwordFile (the testbed's, which this plan does not write)");
        assertThat(GridConfigFile.merge(back.text(), h2).text()).isEqualTo(h2);
        assertThat(GridConfigFile.merge(postgres, postgres).text()).isEqualTo(postgres);

        String admins = h2 + "\n" + GridConfigFile.KEPT + "\n# on the big disk\nscheduler.database = /data/koala\n";
        GridConfigFile.Merged kept = GridConfigFile.merge(admins, h2);
        assertThat(kept.text()).isEqualTo(admins);
        assertThat(kept.notes()).containsExactly("kept scheduler.database (added by an admin)");
    }

    /**
     * An admin added an arbitration policy (with its comment) and changed a node count the cells fix:
     * a rewrite keeps the policy, under its own heading, and names the count it replaced; a second
     * rewrite changes nothing more.
     */
    @Test
    void aRewriteKeepsWhatAnAdminAddedAndSaysWhatItReplaced() {
        String rendered = GridConfigFile.HEADER + "\ngrid.sites = fs0\nsite.fs0.node.count = 8\n";
        String admins = rendered.replace("node.count = 8", "node.count = 6")
                + "\n# share a full grid fairly\nscheduler.arbitration.policy = fair\n";

        GridConfigFile.Merged merged = GridConfigFile.merge(admins, rendered);

        assertThat(merged.text()).isEqualTo(rendered + "\n" + GridConfigFile.KEPT
                + "\n# share a full grid fairly\nscheduler.arbitration.policy = fair\n");
        assertThat(merged.notes()).containsExactly(
                "site.fs0.node.count: the file said '6', the testbed's cells need '8': replaced",
                "kept scheduler.arbitration.policy (added by an admin)");
        GridConfigFile.Merged again = GridConfigFile.merge(merged.text(), rendered);
        assertThat(again.text()).isEqualTo(merged.text());
    }
}
