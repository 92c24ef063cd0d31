package koala.jdf;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Every attribute KOALA reads from a JDF, with where it belongs, how many values it takes and how a
 * value is read. Names are matched as Globus RSL does: without regard to case and ignoring '_'
 * ({@code MaxWallTime}, {@code max_wall_time} and {@code maxWallTime} are one attribute); messages
 * use the canonical spelling listed here.
 */
enum Attribute {
    COUNT("count", Level.COMPONENT, Shape.ONE, Values::nodeCount),
    EXECUTABLE("executable", Level.COMPONENT, Shape.ONE, Values::absolutePath),
    ARGUMENTS("arguments", Level.COMPONENT, Shape.SEQUENCE, text -> text),
    DIRECTORY("directory", Level.COMPONENT, Shape.ONE, Values::absolutePath),
    ENVIRONMENT("environment", Level.COMPONENT, Shape.PAIRS, text -> text),
    STDOUT("stdout", Level.COMPONENT, Shape.ONE, Values::absolutePath),
    STDERR("stderr", Level.COMPONENT, Shape.ONE, Values::absolutePath),
    MAX_WALL_TIME("maxWallTime", Level.COMPONENT, Shape.ONE, Values::wallTime),
    /** Cores per node (Integer, 1 or more). */
    CORES("cores", Level.COMPONENT, Shape.ONE, Values::cores),
    /** Memory per node (Long, MiB). */
    MEMORY("memory", Level.COMPONENT, Shape.ONE, Values::memoryMiB),
    /** GPUs per node (Integer, 0 or more). */
    GPUS("gpus", Level.COMPONENT, Shape.ONE, Values::gpus),
    RESOURCE_MANAGER_CONTACT("resourceManagerContact", Level.COMPONENT, Shape.ONE, Values::text),
    INPUT_FILES("inputFiles", Level.COMPONENT, Shape.SEQUENCE, Values::text),
    ROLE("role", Level.COMPONENT, Shape.ONE, Values.oneOf("master", "orchestrator", "worker")),
    /** The component's own tags, for placement constraints ({@link ConstraintSpec}). */
    TAGS("tags", Level.COMPONENT, Shape.SEQUENCE, Values::tag),
    /** Placement constraints, each one value read word by word ({@link ConstraintReader}). */
    CONSTRAINTS("constraints", Level.COMPONENT, Shape.SEQUENCE, text -> text),

    NAME("name", Level.JOB, Shape.ONE, Values::text),
    JOB_TYPE("jobType", Level.JOB, Shape.ONE, Values.oneOf("rigid", "flexible", "framework")),
    PLACEMENT("placement", Level.JOB, Shape.ONE, Values.oneOf(JdfParser.PLACEMENT_POLICIES.toArray(String[]::new))),
    PRIORITY("priority", Level.JOB, Shape.ONE, Values.oneOf("high", "low")),
    /** How KOALA starts the job's components: {@code mpi} as one MPI world over all their nodes (KOALA's runners). */
    RUNNER("runner", Level.JOB, Shape.ONE, Values.oneOf("mpi")),

    /**
     * Any name, lower-cased: which names are policies is the provisioning module's to say, and
     * {@link JdfParser#parse(String, String, ClusterCatalog, List)} checks them.
     */
    PROVISIONING("provisioning", Level.FRAMEWORK, Shape.ONE, text -> Values.text(text).toLowerCase(Locale.ROOT)),
    F_MAX("fMax", Level.FRAMEWORK, Shape.ONE, Values::positiveWholeText),
    T_IDLE("tIdle", Level.FRAMEWORK, Shape.ONE, Values::seconds),
    T_IDLE_FACTOR("tIdleFactor", Level.FRAMEWORK, Shape.ONE, Values::positiveNumber),
    U_MIN("uMin", Level.FRAMEWORK, Shape.ONE, Values::percent),
    U_MAX("uMax", Level.FRAMEWORK, Shape.ONE, Values::percent),
    SAMPLE_PERIOD("samplePeriod", Level.FRAMEWORK, Shape.ONE, Values::positiveSeconds),
    ORCHESTRATOR_THRESHOLD("orchestratorThreshold", Level.FRAMEWORK, Shape.ONE, Values::positiveNumber),
    RESERVE("reserve", Level.FRAMEWORK, Shape.ONE, Values::percent),
    POOL("pool", Level.FRAMEWORK, Shape.ONE, Values::workers),
    WEIGHT("weight", Level.FRAMEWORK, Shape.ONE, Values::positiveNumber),
    MIN_SHARE("minShare", Level.FRAMEWORK, Shape.ONE, Values::nodes);

    /** Where an attribute belongs. */
    enum Level {
        /** one value per component */
        COMPONENT,
        /** one value for the job: may be written in any component, and must then agree */
        JOB,
        /** like JOB, for the framework runner; only with {@code jobType = framework} */
        FRAMEWORK
    }

    /** How many values an attribute takes. */
    enum Shape {
        /** exactly one literal */
        ONE,
        /** zero or more literals */
        SEQUENCE,
        /** zero or more groups {@code (NAME value)} */
        PAIRS
    }

    private final String spelling;
    private final Level level;
    private final Shape shape;
    private final Values.Reader reader;

    Attribute(String spelling, Level level, Shape shape, Values.Reader reader) {
        this.spelling = spelling;
        this.level = level;
        this.shape = shape;
        this.reader = reader;
    }

    String spelling() {
        return spelling;
    }

    Level level() {
        return level;
    }

    Shape shape() {
        return shape;
    }

    /** Reads one literal; throws {@link Values.Bad}. */
    Object read(String text) {
        return reader.read(text);
    }

    static Optional<Attribute> named(String name) {
        String wanted = Values.canonical(name);
        return Arrays.stream(values()).filter(a -> Values.canonical(a.spelling).equals(wanted)).findFirst();
    }

    /** The attribute whose name is closest to {@code name}, if at most two edits away. */
    static Optional<Attribute> closestTo(String name) {
        String wanted = Values.canonical(name);
        return Arrays.stream(values())
                .filter(a -> distance(wanted, Values.canonical(a.spelling)) <= 2)
                .min(Comparator.comparingInt(a -> distance(wanted, Values.canonical(a.spelling))));
    }

    /** Levenshtein distance: insertions, deletions and substitutions of one character. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
