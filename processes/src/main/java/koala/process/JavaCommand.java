package koala.process;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A JVM to start as a child process, possibly as another account. The environment is passed
 * through {@code env} after {@code runuser} so it reaches the JVM whatever {@code runuser} resets;
 * {@code LD_PRELOAD} goes the same way because only the launcher of a JVM can set it.
 */
public record JavaCommand(Path java, List<Path> classpath, Optional<Path> libraryPath, Optional<Path> preload,
                          Map<String, String> env, Optional<String> runAs, List<String> jvmOptions,
                          String mainClass, List<String> args) {

    public static JavaCommand of(String mainClass, List<Path> classpath, String... args) {
        return new JavaCommand(currentJava(), classpath, Optional.empty(), Optional.empty(), Map.of(),
                Optional.empty(), List.of(), mainClass, List.of(args));
    }

    public static Path currentJava() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    public JavaCommand withNative(Path libraryDir, Optional<Path> preloadLibrary) {
        return new JavaCommand(java, classpath, Optional.of(libraryDir), preloadLibrary, env, runAs, jvmOptions,
                mainClass, args);
    }

    public JavaCommand withEnv(Map<String, String> variables) {
        Map<String, String> merged = new LinkedHashMap<>(env);
        merged.putAll(variables);
        return new JavaCommand(java, classpath, libraryPath, preload, merged, runAs, jvmOptions, mainClass, args);
    }

    public JavaCommand as(String user) {
        return new JavaCommand(java, classpath, libraryPath, preload, env, Optional.of(user), jvmOptions,
                mainClass, args);
    }

    public JavaCommand withJvmOptions(List<String> options) {
        return new JavaCommand(java, classpath, libraryPath, preload, env, runAs, List.copyOf(options),
                mainClass, args);
    }

    /** The command line, ready for {@link ProcessBuilder}. */
    public List<String> commandLine() {
        List<String> line = new ArrayList<>();
        runAs.filter(user -> !user.equals(System.getProperty("user.name"))).ifPresent(user -> {
            line.addAll(List.of("runuser", "-u", user, "--"));
        });
        line.add("/usr/bin/env");
        env.forEach((k, v) -> line.add(k + "=" + v));
        preload.ifPresent(p -> line.add("LD_PRELOAD=" + p));
        line.add(java.toString());
        line.addAll(jvmOptions);
        libraryPath.ifPresent(p -> line.add("-Djava.library.path=" + p));
        line.add("-cp");
        line.add(classpath.stream().map(Path::toString).collect(Collectors.joining(":")));
        line.add(mainClass);
        line.addAll(args);
        return line;
    }
}
