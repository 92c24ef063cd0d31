package koala.common.jdf;

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
 */
public record JobDescription(String source, String name, JobKind kind, String placement, String priority,
                             List<ComponentSpec> components, Map<String, String> framework, SourcePosition position) {
    public JobDescription {
        components = List.copyOf(components);
        framework = framework == null ? Map.of() : Map.copyOf(framework);
    }

    public int totalNodes() {
        return components.stream().mapToInt(ComponentSpec::count).sum();
    }
}
