package koala.process;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The part of KOALA's runtime that one of its processes runs on. KOALA's class path (the CLI's, the
 * scheduler's) holds every module; a site agent, a runner or a pilot gets only its own module and
 * what its build resolved for it, listed in its jar at {@code META-INF/koala/classpath/<module>}
 * (Maven's {@code dependency:list}, the parent POM's {@code process-classpath}). So a site agent on a
 * remote head node carries no CLI, testbed, scheduler or database.
 */
public final class ProcessClasspath {
    /** The site agent of one cluster. */
    public static final String SITE_AGENT = "site-agent";
    /** What every pilot runs. */
    public static final String NODE_LAUNCHER = "node-launcher";
    /** A framework runner. */
    public static final String RUNNER = "framework-runner";
    /** KOALA's programs that pilots run for a job ({@code ${KOALA_CLASSPATH}}): the reference framework. */
    public static final String PROGRAMS = "fluent-framework";

    /**
     * The system property that tells a node launcher the class path of KOALA's programs
     * ({@code ${KOALA_CLASSPATH}} in a job's command), which its own does not hold.
     */
    public static final String PROGRAMS_PROPERTY = "koala.programs.classpath";

    private static final String LISTS = "META-INF/koala/classpath/";
    /** A resolved artifact as dependency:list writes it: group:artifact:type[:classifier]:version:scope. */
    private static final Pattern LISTED = Pattern.compile("^\\s*[^:\\s]+:([^:\\s]+):[^:\\s]+(?::[^:\\s]+)?:[^:\\s]+:[a-z]+\\b.*$");
    /** A jar's name: artifact, then a version from the first "-digit", as Maven names copies. */
    private static final Pattern VERSIONED = Pattern.compile("^(.+?)-\\d.*$");
    /** A copy {@link RuntimeImage} published: its place in the class path, then the jar's name. */
    private static final Pattern PUBLISHED = Pattern.compile("^(?:\\d+-)+(?=.+\\.jar$)");

    private ProcessClasspath() {
    }

    /** The entries of {@code classpath}, in its order, that {@code module}'s process runs on. */
    public static List<Path> of(String module, List<Path> classpath) {
        Set<String> artifacts = artifacts(module);
        List<Path> kept = classpath.stream().filter(entry -> artifacts.contains(artifactOf(entry))).toList();
        if (kept.stream().noneMatch(entry -> artifactOf(entry).equals(module))) {
            throw new IllegalStateException("the class path holds no " + module + " module: " + classpath);
        }
        return kept;
    }

    /** The entries {@code modules} run on together, each once, in the order of {@code classpath}. */
    public static List<Path> union(List<String> modules, List<Path> classpath) {
        Set<Path> all = new LinkedHashSet<>();
        modules.forEach(m -> all.addAll(of(m, classpath)));
        return classpath.stream().filter(all::contains).toList();
    }

    /** {@code module} and the artifacts its build listed. */
    static Set<String> artifacts(String module) {
        String resource = LISTS + module;
        try (InputStream in = ProcessClasspath.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no " + resource + " on the class path: the " + module
                        + " module's jar lists what it runs on (build KOALA again)");
            }
            return artifacts(module, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    static Set<String> artifacts(String module, String list) {
        Set<String> artifacts = new LinkedHashSet<>(List.of(module));
        for (String line : list.split("\n")) {
            Matcher m = LISTED.matcher(line);
            if (m.matches()) {
                artifacts.add(m.group(1));
            }
        }
        return artifacts;
    }

    /**
     * The artifact a class path entry holds: a module's class directory ({@code MODULE/target/classes})
     * by its module, a jar by its name less the version ({@code jetty-server-12.1.14.jar}), or less
     * nothing where it has none ({@code koala-cli.jar}, {@code drmaa.jar}), a published copy by the name it
     * was copied from ({@code 52-node-launcher-0.1.0.jar}: a process started on an image, as a scheduler
     * on another host, picks its children's entries from it). Test classes (a
     * {@code test-classes} directory, a {@code -tests} jar) are no module's: no process runs on them.
     */
    static String artifactOf(Path entry) {
        String file = PUBLISHED.matcher(entry.getFileName().toString()).replaceFirst("");
        if (Files.isDirectory(entry) || !file.endsWith(".jar")) {
            Path target = entry.toAbsolutePath().getParent();
            boolean classes = file.equals("classes") && target != null && target.getParent() != null;
            return classes ? target.getParent().getFileName().toString() : entry.toString();
        }
        String name = file.substring(0, file.length() - ".jar".length());
        Matcher versioned = VERSIONED.matcher(name);
        return name.endsWith("-tests") || !versioned.matches() ? name : versioned.group(1);
    }
}

