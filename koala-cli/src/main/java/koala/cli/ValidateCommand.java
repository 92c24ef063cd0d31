package koala.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import koala.common.json.Json;
import koala.grid.GridConfig;
import koala.grid.KoalaHome;
import koala.jdf.ClusterCatalog;
import koala.jdf.JdfException;
import koala.jdf.JdfParser;
import koala.jdf.JobDescription;
import koala.provisioning.PolicyKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "validate", mixinStandardHelpOptions = true,
        description = {"Check job description files (JDF) without submitting them: their syntax and attribute "
                + "values, and, when the grid configuration is there, the clusters they name and whether they fit. "
                + "Prints 'FILE: ok (KIND, N components, M nodes)' for each valid file, and "
                + "'FILE:LINE:COLUMN: message' on standard error for every error of the others. "
                + "Exit status 0 when every file is valid, 2 when one is not or cannot be read.",
                "The format: jdf-examples/README.md."})
final class ValidateCommand implements Callable<Integer> {
    @Parameters(paramLabel = "FILE", arity = "1..*", description = "job description files; - for standard input")
    List<String> files;

    @Option(names = "--config", paramLabel = "FILE", description = "grid configuration whose clusters the jobs are checked against "
            + "(default: ${DEFAULT-VALUE}); without it only syntax and values are checked")
    Path config = KoalaHome.gridConfig();

    @Option(names = "--json", description = "print the valid jobs as parsed, as a JSON list, instead of one line each")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ClusterCatalog clusters = clusters(err);
        List<JobDescription> jobs = new ArrayList<>();
        boolean allValid = true;
        for (String file : files) {
            Optional<JobDescription> job = validate(file, clusters, err);
            job.ifPresent(jobs::add);
            job.filter(j -> !json).ifPresent(j -> out.println(file + ": ok " + summary(j)));
            allValid &= job.isPresent();
        }
        if (json) {
            out.println(Json.pretty(jobs));
        }
        out.flush();
        err.flush();
        return allValid ? 0 : Koala.BAD_INPUT;
    }

    /** The grid's clusters; none (checks of syntax and values only) when there is no configuration. */
    private ClusterCatalog clusters(PrintWriter err) {
        if (!Files.exists(config)) {
            err.println("koala: note: no grid configuration at " + config + "; checking syntax and values only, "
                    + "not the clusters (--config FILE to choose one)");
            return ClusterCatalog.NONE;
        }
        return GridCatalog.of(GridConfig.load(config));
    }

    private static Optional<JobDescription> validate(String file, ClusterCatalog clusters, PrintWriter err) {
        Optional<String> text = JdfFiles.read(file, err);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(JdfParser.parse(file, text.get(), clusters, PolicyKind.shortNames()));
        } catch (JdfException e) {
            JdfFiles.printed(file, e.errors()).forEach(err::println);
            return Optional.empty();
        }
    }

    /** {@code (NON_FIXED, 2 components, 12 nodes)}. */
    static String summary(JobDescription job) {
        int n = job.components().size();
        int nodes = job.totalNodes();
        return "(" + job.kind() + ", " + n + (n == 1 ? " component, " : " components, ") + nodes
                + (nodes == 1 ? " node)" : " nodes)");
    }
}
