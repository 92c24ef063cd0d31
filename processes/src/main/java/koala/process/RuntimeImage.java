package koala.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import koala.grid.KoalaHome;

/**
 * A copy of this JVM's class path that other accounts can read. Site agents and pilot jobs run as
 * an unprivileged account, which cannot read a checkout in root's private temporary directory; on
 * a real site the same jars are copied to the head node. Copies live under
 * {@code KOALA_HOME/runtime/<digest>} and are made once per content. Each build makes a new one,
 * so publishing also prunes: an image is touched whenever it is published, and those beyond the
 * {@link #KEEP} most recently published that none has published for {@link #UNUSED} are deleted,
 * and likewise the class archives made for them.
 */
public final class RuntimeImage {
    /** Images kept whatever their age: a scheduler and its pilots from a few builds ago may still run. */
    static final int KEEP = 5;
    /** An image older than the newest {@link #KEEP} goes when not published for this long. */
    static final Duration UNUSED = Duration.ofDays(1);

    private RuntimeImage() {
    }

    /**
     * What {@code module}'s process runs on ({@link ProcessClasspath}) of the current class path,
     * published for other accounts when this process is root (in {@link KoalaHome#shared}).
     */
    public static List<Path> publishedClasspath(Path koalaHome, String module) {
        return published(KoalaHome.shared(koalaHome).resolve("runtime"), ProcessClasspath.of(module, currentClasspath()));
    }

    /**
     * Entries of the current class path, published under {@code runtimeRoot} (e.g. a site's shared
     * directory, which its compute nodes see) when this process is root, in their order.
     */
    public static List<Path> published(Path runtimeRoot, List<Path> classpath) {
        if (!"root".equals(System.getProperty("user.name"))) {
            return classpath;
        }
        return publish(classpath, runtimeRoot, InstantSource.system());
    }

    public static List<Path> currentClasspath() {
        List<Path> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(":")) {
            if (!entry.isBlank() && Files.exists(Path.of(entry))) {
                entries.add(Path.of(entry).toAbsolutePath());
            }
        }
        return entries;
    }

    static List<Path> publish(List<Path> classpath, Path runtimeRoot, InstantSource clock) {
        try {
            Path image = runtimeRoot.resolve(digest(classpath));
            List<Path> published = new ArrayList<>();
            for (int i = 0; i < classpath.size(); i++) {
                published.add(image.resolve(i + "-" + classpath.get(i).getFileName()
                        + (Files.isDirectory(classpath.get(i)) ? ".jar" : "")));
            }
            if (!Files.isDirectory(image)) {
                copy(classpath, published, runtimeRoot, image);
                prune(runtimeRoot, clock.instant(), inUse(runtimeRoot));
            } else {
                Files.setLastModifiedTime(image, FileTime.from(clock.instant()));
            }
            return published;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot publish the runtime under " + runtimeRoot, e);
        }
    }

    /**
     * Deletes the images beyond the newest {@link #KEEP} last published before {@code now − UNUSED},
     * except those named in {@code inUse} (a JVM opens its jars lazily: a running agent may still
     * need a class from its image); returns them.
     */
    static List<Path> prune(Path runtimeRoot, Instant now, Set<String> inUse) throws IOException {
        List<Path> pruned = new ArrayList<>(pruneKind(runtimeRoot, "[0-9a-f]{16}", now, inUse));
        // class archives of the images' class paths (ClassArchive): a new build makes new ones too
        pruned.addAll(pruneKind(runtimeRoot, "cds-[0-9a-f]+\\.jsa", now, inUse));
        return pruned;
    }

    private static List<Path> pruneKind(Path runtimeRoot, String name, Instant now, Set<String> inUse)
            throws IOException {
        List<Path> entries;
        try (Stream<Path> all = Files.list(runtimeRoot)) {
            entries = all.filter(p -> p.getFileName().toString().matches(name))
                    .sorted(Comparator.comparing(RuntimeImage::lastPublished).reversed()).toList();
        }
        List<Path> pruned = new ArrayList<>();
        for (Path entry : entries.subList(Math.min(KEEP, entries.size()), entries.size())) {
            if (lastPublished(entry).plus(UNUSED).isBefore(now) && !inUse.contains(entry.getFileName().toString())) {
                deleteTree(entry);
                pruned.add(entry);
            }
        }
        return pruned;
    }

    /** The images and class archives named in the command line of a process of this machine. */
    private static Set<String> inUse(Path runtimeRoot) {
        Pattern named = Pattern.compile(Pattern.quote(runtimeRoot.toString())
                + "/([0-9a-f]{16}(?=/)|cds-[0-9a-f]+\\.jsa)");
        Set<String> used = new HashSet<>();
        ProcessHandle.allProcesses().forEach(p -> CommandLines.of(p).ifPresent(line -> {
            Matcher m = named.matcher(line);
            while (m.find()) {
                used.add(m.group(1));
            }
        }));
        return used;
    }

    private static Instant lastPublished(Path image) {
        try {
            return Files.getLastModifiedTime(image).toInstant();
        } catch (IOException e) {
            return Instant.EPOCH;
        }
    }

    private static void copy(List<Path> from, List<Path> to, Path runtimeRoot, Path image) throws IOException {
        Files.createDirectories(runtimeRoot);
        readable(runtimeRoot);
        Path staging = Files.createTempDirectory(runtimeRoot, ".staging-");
        for (int i = 0; i < from.size(); i++) {
            if (Files.isDirectory(from.get(i))) {
                // a class directory (a build's target/classes) goes in as a jar: the JVM's class-data
                // archive refuses non-empty directories on the class path, and pilots start faster with one
                jar(from.get(i), staging.resolve(to.get(i).getFileName()));
            } else {
                copyTree(from.get(i), staging.resolve(to.get(i).getFileName()));
            }
        }
        try (Stream<Path> all = Files.walk(staging)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                readable(p);
            }
        }
        try {
            Files.move(staging, image, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException raced) {
            // another process published the same content first; its copy is as good as ours
            deleteTree(staging);
        }
    }

    private static void jar(Path dir, Path jar) throws IOException {
        try (var out = Files.newOutputStream(jar)) {
            writeJar(dir, out);
        }
    }

    /**
     * A class directory's files as a jar whose bytes depend only on their names and contents (sorted,
     * with a fixed time), so that the same classes give the same checksum wherever they are packed: a
     * head node's copies are named by it, and an agent started by another scheduler is kept when equal.
     */
    public static void writeJar(Path dir, java.io.OutputStream to) throws IOException {
        try (var zip = new java.util.zip.ZipOutputStream(to); Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all.filter(Files::isRegularFile).sorted()::iterator) {
                var entry = new java.util.zip.ZipEntry(dir.relativize(p).toString().replace('\\', '/'));
                entry.setTime(FIXED_TIME);
                zip.putNextEntry(entry);
                Files.copy(p, zip);
                zip.closeEntry();
            }
        }
    }

    /** 1 January 2000 local time: any fixed instant the zip format can hold. */
    private static final long FIXED_TIME = 946_684_800_000L;

    private static void copyTree(Path source, Path target) throws IOException {
        try (Stream<Path> all = Files.walk(source)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path dest = target.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(p, dest, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static void readable(Path p) throws IOException {
        boolean dir = Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(dir ? "rwxr-xr-x" : "rw-r--r--"));
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all.sorted((a, b) -> b.compareTo(a))::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** Digest of every file's path, size and modification time: cheap, and changes with any rebuild. */
    static String digest(List<Path> classpath) throws IOException {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (Path entry : classpath) {
                try (Stream<Path> all = Files.walk(entry)) {
                    for (Path p : (Iterable<Path>) all.sorted()::iterator) {
                        if (Files.isRegularFile(p)) {
                            String line = p + ":" + Files.size(p) + ":" + Files.getLastModifiedTime(p).toMillis() + "\n";
                            sha.update(line.getBytes(StandardCharsets.UTF_8));
                        }
                    }
                }
            }
            return HexFormat.of().formatHex(sha.digest()).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A directory holding {@code libdrmaa.so} as a link to the given library: the binding calls
     * {@code System.loadLibrary("drmaa")}, and Debian ships only the versioned file.
     */
    public static Path nativeDir(Path koalaHome, Path library) {
        try {
            Path natives = KoalaHome.shared(koalaHome).resolve("native");
            Path dir = natives.resolve(Integer.toHexString(library.toString().hashCode()));
            Path link = dir.resolve("libdrmaa.so");
            if (!Files.isSymbolicLink(link) || !Files.readSymbolicLink(link).equals(library)) {
                Files.createDirectories(dir);
                readable(natives.getParent());
                readable(natives);
                readable(dir);
                Files.deleteIfExists(link);
                Files.createSymbolicLink(link, library);
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the DRMAA library link under " + koalaHome, e);
        }
    }
}
