package koala.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Whose home an instance of the reference framework writes to: its owner's, which its pilots run as. */
class FluentDeployTest {
    @TempDir
    Path dir;

    /** An admin deploying for alice writes alice's instance under ~alice, not the site account's home. */
    @Test
    void anInstanceDeployedForAUserWritesInThatUsersHome() throws Exception {
        Path grid = Files.writeString(dir.resolve("grid.properties"), "grid.sites = fs0\nsite.fs0.sge.cell = fs0\n"
                + "site.fs0.agent.user = koala\nsite.fs0.node.count = 8\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream was = System.out;
        System.setOut(new PrintStream(out, true));
        int status;
        try {
            status = new CommandLine(new FluentCommands()).execute("deploy", "--config", grid.toString(), "--as",
                    "alice", "--print-jdf");
        } finally {
            System.setOut(was);
        }
        assertThat(status).isZero();
        String home = koala.common.grid.Accounts.home("alice").orElse(Path.of("/home", "alice")).toString();
        assertThat(out.toString()).contains(home + "/koala-fluent").doesNotContain("/home/koala/koala-fluent");
    }

    @Test
    void theOwnerIsWhomTheCommandActsForElseTheCaller() {
        GridOptions as = new GridOptions();
        as.actingFor = "bob";
        assertThat(FluentCommands.owner(as)).isEqualTo("bob");
        String me = System.getProperty("user.name");
        if (!"root".equals(me)) {
            assertThat(FluentCommands.owner(new GridOptions())).isEqualTo(me);
        }
    }
}
