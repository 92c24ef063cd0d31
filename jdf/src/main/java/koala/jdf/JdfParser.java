package koala.jdf;

import java.util.List;
import java.util.Objects;

/**
 * Reads a job description file (JDF): KOALA's dialect of Globus RSL. The format is described for
 * users in {@code jdf-examples/README.md}; in short:
 *
 * <pre>
 * &amp;(executable = /bin/hostname)(count = 4)                  one component
 * +( &amp;(executable = /bin/sh)(arguments = "-c" "hostname")(count = 8)(resourceManagerContact = fs0) )
 *  ( &amp;(executable = /bin/hostname)(count = 4) )              a co-allocated job of two components
 * </pre>
 *
 * <p>Reading goes in stages, each reporting to one list of problems so that a file's every error is
 * named at once, each at its line and column:
 * <ol>
 *   <li>{@link JdfLexer}: tokens; comments {@code (* ... *)} dropped, quoted strings unquoted;</li>
 *   <li>{@link RslParser}: the RSL grammar — requests, relations {@code (name = values)}, groups;</li>
 *   <li>{@link RequestReader}: each relation against the attribute table ({@link Attribute}, {@link Values});</li>
 *   <li>{@link JobAssembler}: the components, job-level attributes, job kind and defaults;</li>
 *   <li>{@link JobChecks} and {@link ClusterChecks}: the job as a whole, and against the grid's clusters
 *       when {@link ClusterCatalog#known()}. These run only when the syntax is sound and every attribute
 *       name is known, so that one broken parenthesis or misspelt name ({@code exectable}, {@code joType})
 *       does not bring a train of missing attributes and wrong-kind errors.</li>
 * </ol>
 * The parser does no I/O: the caller reads the file.
 */
public final class JdfParser {
    /** The placement policies a JDF may name ({@code placement = ...}), by their short names. */
    public static final List<String> PLACEMENT_POLICIES = List.of(
            "worst-fit", "close-to-files", "cluster-minimization", "flexible-cluster-minimization");

    private JdfParser() {
    }

    /**
     * Parses and checks one job description; a framework's {@code provisioning} may be any name (see
     * the next method).
     *
     * @param file     the name used in messages and as the default job name ("-" for standard input)
     * @param text     the file's content
     * @param clusters the grid's clusters, or {@link ClusterCatalog#NONE} to check syntax and values only
     * @return the job, with every default filled in
     * @throws JdfException with every problem found, in file order, when the job cannot be used
     */
    public static JobDescription parse(String file, String text, ClusterCatalog clusters) {
        return read(file, text, clusters, null);
    }

    /**
     * Parses and checks one job description, a framework's {@code provisioning} among the given
     * policy names. The names are the provisioning module's ({@code PolicyKind.shortNames()}), which
     * this module does not depend on: callers that run framework instances (the runner, the CLI)
     * pass them; without them ({@link #parse(String, String, ClusterCatalog)}) any name is read and
     * the runner's settings refuse an unknown one.
     *
     * @param provisioningPolicies the names {@code provisioning} may take
     * @throws JdfException with every problem found, in file order, when the job cannot be used
     */
    public static JobDescription parse(String file, String text, ClusterCatalog clusters,
                                       List<String> provisioningPolicies) {
        return read(file, text, clusters, Objects.requireNonNull(provisioningPolicies, "provisioningPolicies"));
    }

    private static JobDescription read(String file, String text, ClusterCatalog clusters,
                                       List<String> provisioningPolicies) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(clusters, "clusters");
        Problems problems = new Problems(file);
        List<Rsl.Request> requests = RslParser.parse(JdfLexer.lex(text, problems), problems);
        boolean soundSyntax = !problems.any();
        RequestReader reader = new RequestReader(problems, provisioningPolicies);
        JobAssembler.Assembled job = JobAssembler.assemble(requests.stream().map(reader::read).toList(), problems,
                clusters.groupKinds());
        if (soundSyntax && !reader.sawUnknownAttribute()) {
            JobChecks.check(job, problems);
            ClusterChecks.check(job, clusters, problems);
        }
        problems.throwIfAny();
        return job.job();
    }
}
