package koala.jdf;

import java.util.List;
import java.util.Map;

/**
 * A parsed and checked job description.
 *
 * @param source     the file name (or "-" for standard input)
 * @param name       the job's name ({@code name}, default: the file name without extension)
 * @param placement  the placement policy's short name, or null for the grid's default
 * @param priority   {@code high} or {@code low} (default)
 * @param framework  framework-level attributes ({@code provisioning}, {@code fMax}, ...) as written,
 *                   for the framework runner; empty for other jobs
 * @param runner     how KOALA starts the components: {@value #MPI} (one MPI world over every node of
 *                   every component), or null: each node runs its component's command
 */
public record JobDescription(String source, String name, JobKind kind, String placement, String priority,
                             List<ComponentSpec> components, Map<String, String> framework, SourcePosition position,
                             String runner) {
    public static final String MPI = "mpi";

    public JobDescription {
        components = List.copyOf(components);
        framework = framework == null ? Map.of() : Map.copyOf(framework);
    }

    public JobDescription(String source, String name, JobKind kind, String placement, String priority,
                          List<ComponentSpec> components, Map<String, String> framework, SourcePosition position) {
        this(source, name, kind, placement, priority, components, framework, position, null);
    }

    /** Whether the job's nodes run one MPI program together. */
    public boolean mpi() {
        return MPI.equals(runner);
    }

    /** The same job with {@code components}. */
    public JobDescription withComponents(List<ComponentSpec> components) {
        return new JobDescription(source, name, kind, placement, priority, components, framework, position, runner);
    }

    public int totalNodes() {
        return components.stream().mapToInt(ComponentSpec::count).sum();
    }
}
