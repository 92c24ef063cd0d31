package koala.scheduler.remote;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import koala.process.RuntimeImage;

/**
 * The jars a head node needs: this scheduler's own class path (the agent, the node launcher and
 * what they use), less the DRMAA binding, which comes from the cluster's SGE installation. Each jar
 * is named by its SHA-256 on the head node ({@code lib/<sha>-<name>.jar}), so a copy there is
 * either the same content or missing, and after a rebuild only the jars that changed are sent. A
 * class directory (a build's {@code target/classes}) is packed into a jar with fixed entry times,
 * so the same classes always give the same checksum.
 */
final class RuntimeJars {
    /** One jar to have on the head node. */
    record Jar(String name, String sha256, Source source) {
        /** How much of the checksum names the jar on a head node. */
        static final int CHECKSUM_CHARS = 20;

        String remoteName() {
            return sha256.substring(0, CHECKSUM_CHARS) + "-" + name;
        }
    }

    /** Opens the jar's bytes. */
    interface Source {
        InputStream open() throws IOException;
    }

    private RuntimeJars() {
    }

    static List<Jar> of(List<Path> classpath) {
        List<Jar> jars = new ArrayList<>();
        for (Path entry : classpath) {
            String file = entry.getFileName().toString();
            if (isDrmaa(entry)) {
                continue;
            }
            try {
                if (Files.isDirectory(entry)) {
                    byte[] packed = pack(entry);
                    Path module = entry.toAbsolutePath().getParent().getParent(); // .../MODULE/target/classes
                    String name = (module == null ? "" : module.getFileName() + "-") + file + ".jar";
                    jars.add(new Jar(name, sha256(new java.io.ByteArrayInputStream(packed)), () -> new java.io.ByteArrayInputStream(packed)));
                } else {
                    try (InputStream in = Files.newInputStream(entry)) {
                        jars.add(new Jar(file, sha256(in), () -> Files.newInputStream(entry)));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read class path entry " + entry, e);
            }
        }
        return jars;
    }

    /** The checksum a head node's jar at {@code path} is named by ({@link Jar#remoteName}); the whole path for one named otherwise. */
    static String checksumOf(String path) {
        String file = path.substring(path.lastIndexOf('/') + 1);
        int dash = file.indexOf('-');
        return dash == Jar.CHECKSUM_CHARS ? file.substring(0, dash) : path;
    }

    /** The DRMAA binding, which a head node has from its SGE installation. */
    static boolean isDrmaa(Path entry) {
        return entry.getFileName().toString().contains("drmaa");
    }

    /** A directory's files as a jar whose bytes depend only on their names and contents (as a published image's). */
    static byte[] pack(Path dir) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        RuntimeImage.writeJar(dir, bytes);
        return bytes.toByteArray();
    }

    static String sha256(InputStream in) throws IOException {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            try (DigestInputStream digest = new DigestInputStream(in, sha)) {
                digest.transferTo(java.io.OutputStream.nullOutputStream());
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The jars to send, given {@code sha256sum}'s output for the copies already there
     * ({@code <sha>  <file>} per line): those missing or whose content differs.
     */
    static List<Jar> toSend(List<Jar> jars, String sha256sumOutput) {
        java.util.Map<String, String> there = new java.util.HashMap<>();
        sha256sumOutput.lines().map(l -> l.trim().split("\\s+\\*?", 2)).filter(a -> a.length == 2)
                .forEach(a -> there.put(a[1].trim(), a[0]));
        return jars.stream().filter(j -> !j.sha256().equals(there.get(j.remoteName()))).toList();
    }
}
