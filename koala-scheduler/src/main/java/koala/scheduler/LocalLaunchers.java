package koala.scheduler;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import koala.grid.KoalaHome;
import koala.grid.SiteConfig;
import koala.process.ClassArchive;
import koala.process.JavaCommand;
import koala.process.ProcessClasspath;
import koala.process.RuntimeImage;

/**
 * How pilots start on a site whose cell this machine submits to. A site that declares a shared
 * directory ({@code site.S.shared}, which its compute nodes see) gets KOALA's jars, the launcher's
 * class archive and the pilots' output there; a site without one (all on one host) gets them under
 * {@code KOALA_HOME}. The pilots' output directory belongs to the site's agent account, which runs
 * the pilots, and is closed to others.
 */
final class LocalLaunchers {
    private final Path koalaHome;
    private final String callback;
    private final Map<String, Pilots.Launcher> launchers = new ConcurrentHashMap<>();

    /**
     * @param callback where the launchers call the scheduler back, an address the sites' nodes reach, then
     *                 the other schedulers that may lead ({@code scheduler.addresses}): they follow the leader
     */
    LocalLaunchers(Path koalaHome, URI callback, List<URI> others) {
        this.koalaHome = koalaHome;
        List<String> all = new java.util.ArrayList<>(List.of(callback.toString()));
        others.stream().map(URI::toString).filter(o -> !all.contains(o)).forEach(all::add);
        this.callback = String.join(",", all);
    }

    Pilots.Launcher of(SiteConfig site) {
        return launchers.computeIfAbsent(site.name(), name -> make(site));
    }

    private Pilots.Launcher make(SiteConfig site) {
        Path runtime = site.shared().map(d -> d.resolve("runtime")).orElse(KoalaHome.shared(koalaHome).resolve("runtime"));
        // one image holds what pilots run: the launcher, and KOALA's programs a job may run (${KOALA_CLASSPATH})
        List<Path> current = RuntimeImage.currentClasspath();
        List<Path> image = ProcessClasspath.union(List.of(ProcessClasspath.NODE_LAUNCHER, ProcessClasspath.PROGRAMS), current);
        List<Path> published = RuntimeImage.published(runtime, image);
        List<Path> classpath = there(ProcessClasspath.NODE_LAUNCHER, image, published);
        List<String> archive = ClassArchive.options(runtime, classpath, Pilots.JVM_OPTIONS, Pilots.LAUNCHER,
                Pilots.TRAINING);
        Path logs = pilotLogs(site, koalaHome, site.agentUser());
        ownedBy(logs, site.agentUser());
        return new Pilots.Launcher(JavaCommand.currentJava().toString(), classpath.stream().map(Path::toString).toList(),
                there(ProcessClasspath.PROGRAMS, image, published).stream().map(Path::toString).toList(), archive, callback, logs.toString(), address -> address);
    }

    /** What {@code module} runs on of {@code image}, at its published paths (in the same order). */
    private static List<Path> there(String module, List<Path> image, List<Path> published) {
        return ProcessClasspath.of(module, image).stream().map(p -> published.get(image.indexOf(p))).toList();
    }

    /**
     * Where the pilots of {@code account} write their output and find their tokens: {@code pilots} for
     * the site's account, {@code pilots-USER} for a user's own (a sibling: the site account's is closed
     * to everyone else).
     */
    static Path pilotLogs(SiteConfig site, Path koalaHome, String account) {
        String name = account.equals(site.agentUser()) ? "pilots" : "pilots-" + account;
        return site.shared().map(d -> d.resolve(name)).orElse(KoalaHome.shared(koalaHome).resolve(name));
    }

    /** The pilots' output directory: the account's, closed to everyone else. */
    static void ownedBy(Path dir, String account) {
        try {
            Files.createDirectories(dir);
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
            if ("root".equals(System.getProperty("user.name"))) {
                var users = dir.getFileSystem().getUserPrincipalLookupService();
                Files.setOwner(dir, users.lookupPrincipalByName(account));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the pilots' output directory " + dir, e);
        }
    }
}
