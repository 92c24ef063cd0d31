package koala.jdf;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Turns the requests read into one {@link JobDescription}: gathers the job-level attributes (which
 * may be written in any component but must agree), refuses roles and framework attributes outside
 * framework jobs and empty components outside framework workers, and fills in the defaults.
 *
 * <p>The job kind: {@code jobType = flexible} gives FLEXIBLE, {@code framework} gives FRAMEWORK;
 * otherwise FIXED when every component names its cluster ({@code resourceManagerContact}), NON_FIXED
 * when none does, SEMI_FIXED when some do. A flexible job without a placement gets
 * {@value #FLEXIBLE_DEFAULT}.
 */
final class JobAssembler {
    static final String FLEXIBLE_DEFAULT = "flexible-cluster-minimization";

    private final Problems problems;
    private final List<Draft> drafts;
    private final Map<Attribute, Draft.Found> jobLevel = new EnumMap<>(Attribute.class);

    /** What the later checks need: the job, and where each of its attributes was written. */
    record Assembled(JobDescription job, List<Draft> drafts, Map<Attribute, Draft.Found> jobLevel, String jobType) {
        /** The job's type, or null when the one written was bad. */
        boolean is(String type) {
            return type.equals(jobType);
        }
    }

    private final ConstraintReader constraints;

    private JobAssembler(List<Draft> drafts, Problems problems, Set<String> groupKinds) {
        this.drafts = drafts;
        this.problems = problems;
        this.constraints = new ConstraintReader(problems, groupKinds);
    }

    static Assembled assemble(List<Draft> drafts, Problems problems) {
        return assemble(drafts, problems, null);
    }

    /** @param groupKinds the node group kinds the grid declares, or null when no grid is known */
    static Assembled assemble(List<Draft> drafts, Problems problems, Set<String> groupKinds) {
        return new JobAssembler(drafts, problems, groupKinds).run();
    }

    private Assembled run() {
        drafts.forEach(this::gatherJobLevel);
        String jobType = jobLevel.containsKey(Attribute.JOB_TYPE) ? (String) jobLevel.get(Attribute.JOB_TYPE).value()
                : "rigid";
        if (jobType != null && !jobType.equals("framework")) {
            refuseFrameworkAttributes();
        }
        drafts.forEach(d -> refuseZeroCount(d, jobType));
        List<ComponentSpec> components = new ArrayList<>();
        for (Draft draft : drafts) {
            components.add(component(components.size(), draft));
        }
        checkTargets(components);
        JobDescription job = new JobDescription(problems.file(), name(), kind(jobType, components),
                placement(jobType), string(Attribute.PRIORITY, "low"), components, framework(),
                drafts.isEmpty() ? problems.at(1, 1) : drafts.get(0).at(), runner(jobType));
        return new Assembled(job, drafts, Map.copyOf(jobLevel), jobType);
    }

    private void gatherJobLevel(Draft draft) {
        for (Draft.Found found : draft.found().values()) {
            Attribute attribute = found.attribute();
            if (attribute.level() == Attribute.Level.COMPONENT) {
                continue;
            }
            Draft.Found first = jobLevel.get(attribute);
            if (first == null) {
                jobLevel.put(attribute, found);
            } else if (first.value() != null && found.value() != null && !first.value().equals(found.value())) {
                problems.add(found.valueAt(), attribute.spelling() + ": '" + found.written() + "' here but '"
                        + first.written() + "' at " + Problems.lineColumn(first.valueAt())
                        + "; a job-level attribute must be the same in every component");
            }
        }
    }

    private void refuseFrameworkAttributes() {
        for (Draft draft : drafts) {
            draft.get(Attribute.ROLE).ifPresent(role -> problems.add(role.relation().at(),
                    "role: only framework jobs (jobType = framework) have roles"));
        }
        jobLevel.values().stream().filter(f -> f.attribute().level() == Attribute.Level.FRAMEWORK)
                .forEach(f -> problems.add(f.relation().at(), f.attribute().spelling()
                        + ": only framework jobs (jobType = framework) take this attribute"));
    }

    /** 0 nodes: only for the workers of a framework job (which may start without any). */
    private void refuseZeroCount(Draft draft, String jobType) {
        boolean zero = draft.value(Attribute.COUNT, Integer.class).filter(c -> c == 0).isPresent();
        boolean worker = draft.value(Attribute.ROLE, String.class).filter("worker"::equals).isPresent();
        if (zero && !(worker && (jobType == null || jobType.equals("framework")))) {
            problems.add(draft.where(Attribute.COUNT), "count: '0' is not a positive whole number");
        }
    }

    @SuppressWarnings("unchecked")
    private ComponentSpec component(int index, Draft d) {
        return new ComponentSpec(index, d.value(Attribute.COUNT, Integer.class).orElse(1),
                d.value(Attribute.EXECUTABLE, String.class).orElse(null),
                d.value(Attribute.ARGUMENTS, List.class).orElse(List.of()),
                d.value(Attribute.DIRECTORY, String.class).orElse(null),
                d.value(Attribute.ENVIRONMENT, Map.class).orElse(Map.of()),
                d.value(Attribute.STDOUT, String.class).orElse(null),
                d.value(Attribute.STDERR, String.class).orElse(null),
                d.value(Attribute.MAX_WALL_TIME, Duration.class).orElse(null),
                d.value(Attribute.RESOURCE_MANAGER_CONTACT, String.class).orElse(null),
                d.value(Attribute.INPUT_FILES, List.class).orElse(List.of()),
                d.value(Attribute.ROLE, String.class).orElse(null), d.at(),
                d.value(Attribute.TAGS, List.class).orElse(List.of()), constraints(d), resources(d));
    }

    /** Per node; a bad value was reported already, and its default stands in. */
    private static NodeResources resources(Draft d) {
        return new NodeResources(d.value(Attribute.CORES, Integer.class).orElse(NodeResources.DEFAULT.cores()),
                d.value(Attribute.MEMORY, Long.class).orElse(NodeResources.MEMORY_NOT_GIVEN),
                d.value(Attribute.GPUS, Integer.class).orElse(NodeResources.DEFAULT.gpus()));
    }

    private List<ConstraintSpec> constraints(Draft d) {
        List<ConstraintSpec> out = new ArrayList<>();
        d.get(Attribute.CONSTRAINTS).ifPresent(found -> found.relation().values().stream()
                .filter(v -> v instanceof Rsl.Literal).map(v -> (Rsl.Literal) v)
                .forEach(l -> constraints.read(l).ifPresent(out::add)));
        return out;
    }

    /**
     * A target that names no other job ({@code job=}, {@code owner=}) is about this job's own nodes: some
     * component of it must carry every tag of it, or the constraint could never mean anything (a
     * misspelt tag would make an anti-affinity hold always and an affinity never).
     */
    private void checkTargets(List<ComponentSpec> components) {
        for (ComponentSpec c : components) {
            for (ConstraintSpec k : c.constraints()) {
                if (!k.global() && components.stream().noneMatch(o -> carries(o, k.target()))) {
                    problems.add(k.position(), "constraints: no component of this job carries "
                            + String.join(",", k.target()) + " (its tags are those of (tags = ...), component=N"
                            + " and, in a framework, role=R); name another job's nodes with job=ID or owner=NAME");
                }
                if ("master".equals(c.role()) && k.hard() && k.lowerBound() && !k.global() && !carries(c, k.target())) {
                    problems.add(k.position(), "constraints: the master is deployed before the instance's other roles,"
                            + " so a hard " + k.kind() + " of it to " + String.join(",", k.target()) + " could never"
                            + " be met (there is nothing to be near yet); write it on the role it names, e.g. the"
                            + " orchestrator's (constraints = \"affinity role=master " + k.group() + "\")");
                }
            }
        }
    }

    /** Whether the component's nodes carry every tag of {@code target}: its own, component=N and role=R. */
    static boolean carries(ComponentSpec c, List<String> target) {
        List<String> tags = new ArrayList<>(c.tags());
        tags.add("component=" + c.index());
        if (c.role() != null) {
            tags.add("role=" + c.role());
        }
        return tags.containsAll(target);
    }

    private static JobKind kind(String jobType, List<ComponentSpec> components) {
        if ("flexible".equals(jobType)) {
            return JobKind.FLEXIBLE;
        }
        if ("framework".equals(jobType)) {
            return JobKind.FRAMEWORK;
        }
        long fixed = components.stream().filter(ComponentSpec::fixed).count();
        return fixed == 0 ? JobKind.NON_FIXED : fixed == components.size() ? JobKind.FIXED : JobKind.SEMI_FIXED;
    }

    /** {@code runner}: not for a framework, whose runner starts its entities itself. */
    private String runner(String jobType) {
        Draft.Found found = jobLevel.get(Attribute.RUNNER);
        if (found != null && "framework".equals(jobType)) {
            problems.add(found.relation().at(), "runner: a framework job's entities are started by its framework "
                    + "runner; 'runner' is for rigid and flexible jobs");
        }
        return string(Attribute.RUNNER, null);
    }

    private String placement(String jobType) {
        String written = string(Attribute.PLACEMENT, null);
        return written == null && "flexible".equals(jobType) ? FLEXIBLE_DEFAULT : written;
    }

    /** {@code name}, else the file name without directories and extension ("stdin" for "-"). */
    private String name() {
        String file = problems.file();
        String base = file.substring(file.lastIndexOf('/') + 1);
        int dot = base.lastIndexOf('.');
        String fallback = file.equals("-") ? "stdin" : dot > 0 ? base.substring(0, dot) : base;
        return string(Attribute.NAME, fallback);
    }

    private Map<String, String> framework() {
        Map<String, String> framework = new LinkedHashMap<>();
        jobLevel.values().stream().filter(f -> f.attribute().level() == Attribute.Level.FRAMEWORK)
                .filter(f -> f.value() != null)
                .forEach(f -> framework.put(f.attribute().spelling(), (String) f.value()));
        return framework;
    }

    private String string(Attribute attribute, String fallback) {
        Draft.Found found = jobLevel.get(attribute);
        return found == null ? fallback : Objects.toString(found.value(), fallback);
    }
}
