package koala.dist;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import koala.cli.Koala;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * What the package makes from the command line at build time: a man page for every command and
 * subcommand (AsciiDoc, which the build turns into man pages with asciidoctor) and the bash
 * completion script. Both come from {@link Koala#commandLine()} on the package's own class path,
 * so they describe the commands as installed (the measurements as the stand-ins that point to a
 * checkout).
 *
 * <p>{@code Docs MAN_ADOC_DIR COMPLETION_FILE}
 */
public final class Docs {
    private Docs() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: Docs MAN_ADOC_DIR COMPLETION_FILE");
        }
        Path manDir = Files.createDirectories(Path.of(args[0]));
        Path completion = Path.of(args[1]);
        CommandLine cli = Koala.commandLine();
        int status = ManPageGenerator.generateManPage(manDir.toFile(), null, new boolean[0], false, cli.getCommandSpec());
        if (status != CommandLine.ExitCode.OK) {
            throw new IllegalStateException("the man pages were not made (status " + status + ")");
        }
        Files.createDirectories(completion.toAbsolutePath().getParent());
        Files.writeString(completion, AutoComplete.bash("koala", cli));
    }
}
