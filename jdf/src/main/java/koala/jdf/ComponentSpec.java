package koala.jdf;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One component of a job: one request of a JDF ({@code &(...)}), or one sub-request of a
 * multi-request ({@code +(&(...))(&(...))}).
 *
 * @param index       0-based position in the job
 * @param count       nodes it needs
 * @param cluster     the cluster it is pinned to ({@code resourceManagerContact}), or null
 * @param maxWallTime null when not given
 * @param inputFiles  logical names of input files, for Close-to-Files
 * @param role        master | orchestrator | worker in a framework JDF, else null
 * @param position    where the request starts in the file
 * @param tags        the tags the JDF gives it ({@code tags}); KOALA adds job=, owner=, component= and role=
 * @param constraints its placement constraints ({@code constraints}), the component their subject
 * @param resources   what each of its nodes needs on its host ({@code cores}, {@code memory}, {@code gpus});
 *                    {@link NodeResources#DEFAULT} when the JDF gives none
 */
public record ComponentSpec(int index, int count, String executable, List<String> arguments, String directory,
                            Map<String, String> environment, String stdout, String stderr, Duration maxWallTime,
                            String cluster, List<String> inputFiles, String role, SourcePosition position,
                            List<String> tags, List<ConstraintSpec> constraints, NodeResources resources) {
    public ComponentSpec {
        resources = resources == null ? NodeResources.DEFAULT : resources;
        tags = tags == null ? List.of() : List.copyOf(tags);
        constraints = constraints == null ? List.of() : List.copyOf(constraints);
        arguments = arguments == null ? List.of() : List.copyOf(arguments);
        environment = environment == null ? Map.of() : Map.copyOf(environment);
        inputFiles = inputFiles == null ? List.of() : List.copyOf(inputFiles);
    }

    public ComponentSpec(int index, int count, String executable, List<String> arguments, String directory,
                         Map<String, String> environment, String stdout, String stderr, Duration maxWallTime,
                         String cluster, List<String> inputFiles, String role, SourcePosition position) {
        this(index, count, executable, arguments, directory, environment, stdout, stderr, maxWallTime, cluster,
                inputFiles, role, position, List.of(), List.of(), NodeResources.DEFAULT);
    }

    /** A component whose nodes need only the defaults (one core, no memory asked, no GPU). */
    public ComponentSpec(int index, int count, String executable, List<String> arguments, String directory,
                         Map<String, String> environment, String stdout, String stderr, Duration maxWallTime,
                         String cluster, List<String> inputFiles, String role, SourcePosition position,
                         List<String> tags, List<ConstraintSpec> constraints) {
        this(index, count, executable, arguments, directory, environment, stdout, stderr, maxWallTime, cluster,
                inputFiles, role, position, tags, constraints, NodeResources.DEFAULT);
    }

    public boolean fixed() {
        return cluster != null;
    }
}
